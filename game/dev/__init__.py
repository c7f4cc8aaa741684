"""Developers' tools (benchmarks, soak, play scripts, the table's layout report); the kiosk
never runs them."""
