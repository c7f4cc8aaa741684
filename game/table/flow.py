"""The flow of one game around the moves: leaving a game for another (asked first when moves
would be thrown away) and a won game that stays won (docs/rules.md, "The app")."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine import Game

if TYPE_CHECKING:
    from game.table.scene import TableScene


def in_progress(game: Game) -> bool:
    """A game a new deal would throw away: moves made, not won."""
    return bool(game.moves) and not game.is_won


def replace_game(table: TableScene, make: Callable[[], Game]) -> None:
    """Put the game ``make`` deals on the table, back at the table. A game in progress is
    thrown away only after the player says so (a game with no moves, or won, goes at once);
    ``make`` is called only then, so that a refused code or deal changes nothing."""

    def go() -> None:
        game = make()
        table.app.scenes.pop_to_bottom()
        table.start_game(game)

    if not in_progress(table.game):
        go()
        return
    tr = table.tr
    table.app.scenes.open(
        "confirm",
        question=tr("table.leave_question", moves=tr("table.moves", count=table.game.moves)),
        yes=tr("table.leave_yes"),
        no=tr("table.leave_no"),
        on_yes=go,
        on_no=table.app.scenes.pop_to_bottom,  # "keep playing": back to the game
    )
