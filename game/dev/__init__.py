"""Developers' tools (benchmarks, soak, play scripts); the kiosk never runs them."""
