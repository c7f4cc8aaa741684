"""Saves (game/saves/): autosave and resume, durable writes, statistics, damaged and hostile
files."""
