"""Hints and the winnable indicator: the table's client of the solver workers
(game/table/hints.py)."""
