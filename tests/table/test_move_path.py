"""A gesture's move is checked once (issue 30): the engine's query that finds the move is its
check, and the table makes it with ``Game.push`` (docs/architecture.md, "The road in one
sentence"). Through the input layer, counting the engine's checks."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pygame
import pytest

from engine import FOUNDATION, Game, Move
from engine.cards import CARD_NAMES
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app


@pytest.fixture(autouse=True)
def _quit_pygame() -> Iterator[None]:
    yield
    pygame.display.quit()


class Counted:
    """How often the engine checked a move and how the table made it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        for name in ("check", "play", "push"):
            original: Callable[[Game, Move | str], object] = getattr(Game, name)

            def counted(
                game: Game, move: Move | str, _name: str = name, _original: object = original
            ) -> object:
                self.calls.append(_name)
                assert callable(_original)
                return _original(game, move)

            monkeypatch.setattr(Game, name, counted)


def test_a_tap_checks_its_move_once_and_pushes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app("RU1-C-AAAAAAD")
    finger = Finger(app)
    counted = Counted(monkeypatch)
    finger.tap(finger.card("AH"))  # alone in its column: a tap sends it home
    assert app.table.model.game.found == [0, 1, 0, 0]
    assert counted.calls == ["check", "push"]


def test_a_drop_checks_its_move_once_and_pushes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app("RU1-C-AAAAAAD")
    finger = Finger(app)
    game = app.table.model.game
    move = next(m for m in game.legal_moves() if m.dest < FOUNDATION and game.cols[m.dest])
    counted = Counted(monkeypatch)
    finger.drag(finger.card(CARD_NAMES[move.card]), finger.column(move.dest))
    assert game.locate(move.card)[0] == move.dest and game.moves == 1
    assert counted.calls == ["check", "push"]
