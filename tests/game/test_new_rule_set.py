"""A new rule set, registered by a test and by nothing else (issue 30; the recipe is in
docs/development.md, "A new rule set"): no deal catalog, no edited file, and still it deals,
plays, saves, restores, hints and counts statistics; after the test it is gone."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from engine import CodeError, Game, parse_code
from engine.catalog import catalog_path
from engine.daily import daily_code, fallback_code
from engine.rules import REGISTRY, RUSSIAN
from game.config import config_from_dict
from game.games import GameChoice
from game.launch import open_run
from game.saves.session import Session
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)
from tests.helpers.tablehelp import Finger, ManualExecutor, add_locale_names, make_app

pytestmark = pytest.mark.app

# Russian Solitaire dealt with every card face up: a rule set of a game the registry knows.
OPEN_RUSSIAN = dataclasses.replace(
    RUSSIAN, variant="O", deal_down=(0,) * 7, deal_up=(1, 6, 7, 8, 9, 10, 11)
)
NAMES = {"variant.RU1-O": "Open", "stats.RU1-O": "Russian Solitaire, open"}


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


def test_a_registered_rule_set_without_a_catalog_is_played_like_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_locale_names(monkeypatch, NAMES)
    with REGISTRY.added(OPEN_RUSSIAN):
        assert not catalog_path("RU1-O").exists()
        config, _ = config_from_dict({"kiosk": {"lock": False}})
        app = make_app("RU1-C-AAAAABB", run=open_run(config, tmp_path, crash_hook=False))
        app.workers.use("hint", pool := ManualExecutor())
        finger = Finger(app)

        # Deals: at random (no catalog), and today's deal falls back to a deal of the date.
        choice = GameChoice.from_options(game="russian", options={}).following(OPEN_RUSSIAN)
        app.games.rng = random.Random(41)  # one deal: some random ones are lost after a move
        dealt = app.games.new(choice=choice)
        assert dealt.rules is OPEN_RUSSIAN and not any(dealt.down)
        day = app.arcade.today()
        assert app.arcade.code_of_day("RU1-O") == fallback_code("RU1-O", day)
        assert daily_code("RU1-O", day) == fallback_code("RU1-O", day)  # no DailyError
        app.table.start_game(dealt)

        # Plays, and the hint worker answers for it.
        game = app.table.model.game
        move = next(m for m in game.legal_moves() if not game.is_pointless(m))
        assert app.table.model.make_move(move) and game.moves == 1
        finger.tap(finger.button("hint"))
        pool.finish()
        finger.settle()
        mark = app.table.model.hints.mark
        assert mark is not None and game.is_legal(mark.move)

        # Saved after the move; restored as it was.
        resumed = Session.open(config, tmp_path, crash_hook=False).resume()
        assert resumed is not None and resumed.game.to_dict() == game.to_dict()
        assert resumed.game.rules is OPEN_RUSSIAN

        # Counted in the statistics once abandoned, under its own name.
        app.table.start_game(Game.from_code("RU1-C-AAAAABB"))
        assert app.session.stats["RU1-O"].played == 1
        finger.tap(finger.button("settings"))
        finger.tap(finger.control("Statistics"))
        shown = [c.label for c in app.scenes.top.controls]  # type: ignore[attr-defined]
        assert "Russian Solitaire, open" in shown
    assert "RU1-O" not in REGISTRY  # registered for the test only
    with pytest.raises(CodeError):
        parse_code("RU1-O-AAAAABB")
