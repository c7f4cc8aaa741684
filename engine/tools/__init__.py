"""Developers' tools (benchmarks); the game and the kiosk never import them."""
