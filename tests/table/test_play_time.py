"""One source of time and one play time: the fixed clock drives everything; the table's
PlayTime is what the info bar, the win screen, the statistics and the autosave all show, written
by one clock formatter (h:mm:ss past an hour, everywhere)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from engine import Game
from game.clock import PlayTime, format_clock
from game.config import config_from_dict
from game.launch import open_run
from game.saves.persist import load_stats
from game.saves.session import Session
from game.scenes.win import WinScene
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)
from tests.helpers.tablehelp import WIN_LINE, WON_CODE, Finger, make_app

pytestmark = pytest.mark.app

SEVENTY_FIVE_MINUTES = 75 * 60


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0, "0:00"),
        (5.9, "0:05"),
        (59 * 60 + 59.99, "59:59"),
        (SEVENTY_FIVE_MINUTES, "1:15:00"),
        (10 * 3600 + 61, "10:01:01"),
    ],
)
def test_one_clock_formatter(seconds: float, shown: str) -> None:
    assert format_clock(seconds) == shown
    assert PlayTime(seconds).text() == shown


def test_play_time_stops_when_paused_and_resets() -> None:
    clock = PlayTime(10.0)
    clock.tick(0.5)
    clock.running = False
    clock.tick(5.0)
    assert clock.seconds == 10.5
    clock.reset()
    assert clock.seconds == 0.0 and clock.running


def test_a_75_minute_game_shows_1_15_00_everywhere_and_saves_those_seconds(
    tmp_path: Path,
) -> None:
    """Named for a bug: the win screen said "75:00" where the info bar said "1:15:00"."""
    config, problems = config_from_dict({"kiosk": {"lock": False}})
    assert not problems
    # A game resumed from the autosave at 74:59.5 of play, its last king still to go home.
    first = Session.open(config, tmp_path, crash_hook=False)
    game = Game.from_code(WON_CODE)
    first.started(game)
    for move in WIN_LINE[:-1]:  # played as the table reports each move
        game.play(move)
        first.moved(game, move)
    first.clock.reset(SEVENTY_FIVE_MINUTES - 0.5)
    first.checkpoint(game)
    run = open_run(config, tmp_path, crash_hook=False)  # as game.launch opens it
    resumed = run.resumed
    assert resumed is not None and resumed.elapsed == SEVENTY_FIVE_MINUTES - 0.5
    app = make_app(size=(1280, 800), run=run)
    assert app.table.model.game is resumed.game
    assert run.session.clock is app.table.model.play_time  # one owner, read by the session too

    finger = Finger(app)
    finger.settle(0.6)  # past 75 minutes before the last card goes home
    finger.tap(finger.card("KS"))
    finger.settle(0.6)
    assert app.table.model.game.is_won
    win = app.scenes.top
    assert isinstance(win, WinScene)
    seconds = app.table.model.play_time.seconds
    assert SEVENTY_FIVE_MINUTES <= seconds < SEVENTY_FIVE_MINUTES + 1
    finger.settle(1.0)  # the clock stopped with the win
    assert app.table.model.play_time.seconds == seconds

    assert app.table.bar_text()[0] == app.tr("table.time", time="1:15:00")
    labels = [control.label for control in win.controls]
    assert app.tr("win.time", time="1:15:00") in labels
    saved = Session(config, tmp_path).resume()
    assert saved is not None and saved.game.is_won
    assert saved.elapsed == pytest.approx(seconds, abs=0.001)
    best = load_stats(tmp_path)["SH1-C4"].best_time
    assert best == pytest.approx(seconds, abs=0.001)
    assert format_clock(saved.elapsed) == format_clock(best or 0) == "1:15:00"
