"""Commands mistyped, for mypy (tests/project/test_typecheck.py): each line marked ``# typo`` must
be an error and every other line must pass, so a misspelt button, way of leaving a game, deal kind
or scene never reaches a player. Never run, only checked."""

from __future__ import annotations

from engine import Game
from game.arcade.levels import Deal, Level, deal_level
from game.hooks import Ending, Hooks, Left
from game.host import Stack
from game.table.scene import TableScene


def commands(table: TableScene, hooks: Hooks, game: Game, scenes: Stack) -> None:
    table.press_button("undo")
    table.press_button("finish")
    table.press_button("undoo")  # typo
    table.press_button("Hint")  # typo
    table.start_game(game, left="idle")
    table.start_game(game, left="abandon")  # typo
    hooks.ended(game, "aside")
    hooks.ended(game, "won")  # typo: a won game is no game left unfinished
    table.model.deal = "daily"
    table.model.deal = "dayly"  # typo
    scenes.open("newgame")
    scenes.open("newgam")  # typo
    scenes.open("attract", showing="today")
    scenes.open("attract", showing="todya")  # typo


def kinds(game: Game) -> tuple[Deal, Level, Left, Ending]:
    level = deal_level(game.code)
    if level == "eazy":  # typo
        pass
    return "example", "winnable", "abandoned", "idel"  # typo
