"""The session: what the table reports (moves, undo, wins, new deals) lands on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Game
from game.clock import PlayTime
from game.config import Config
from game.logs import LOG_FILE
from game.saves.persist import CrashGuard, load_stats
from game.saves.session import Session
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)
from tests.helpers.tablehelp import WIN_LINE, WON_CODE

pytestmark = pytest.mark.unit

CODE = "RU1-C-AAAAABB"


def open_session(tmp_path: Path, config: Config | None = None) -> Session:
    return Session.open(config or Config(), tmp_path, crash_hook=False)


def play_some(session: Session, game: Game, count: int) -> None:
    for _ in range(count):
        move = game.play(game.legal_moves()[0])
        session.clock.tick(1.5)
        session.moved(game, move)


def test_fresh_start_has_nothing_to_resume(tmp_path: Path) -> None:
    assert open_session(tmp_path).resume() is None


def test_moves_are_saved_and_resumed_with_the_clock(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    game = Game.from_code(CODE)
    session.started(game)
    play_some(session, game, 5)
    game.pop()
    session.undone(game)

    again = open_session(tmp_path)
    resumed = again.resume()
    assert resumed is not None
    assert resumed.game.to_dict() == game.to_dict()
    assert again.clock.seconds == pytest.approx(7.5)
    assert again.clock.running


def test_log_has_the_game(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    game = Game.from_code(CODE)
    session.started(game)
    play_some(session, game, 2)
    text = (tmp_path / "logs" / LOG_FILE).read_text()
    assert f"game={CODE} event=start" in text
    assert text.count(f"game={CODE} event=move") == 2


def test_abandoned_game_counts_once(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    game = Game.from_code(CODE)
    session.started(game)
    play_some(session, game, 3)
    session.ended(game, "abandoned")
    session.ended(game, "abandoned")
    stats = load_stats(tmp_path)["RU1-C"]
    assert (stats.played, stats.won) == (1, 0)
    assert "event=end result=abandoned" in (tmp_path / "logs" / LOG_FILE).read_text()


def test_untouched_deal_is_not_counted(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    game = Game.from_code(CODE)
    session.started(game)
    session.ended(game, "abandoned")
    assert load_stats(tmp_path)["RU1-C"].played == 0


def test_a_win_counts_once_even_across_a_restart(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    game = Game.from_code(WON_CODE)
    session.started(game)
    session.clock.tick(95.0)
    for move in WIN_LINE:  # every move as the table reports it; the last one wins
        game.play(move)
        session.moved(game, move)
    assert game.is_won and not session.clock.running
    stats = load_stats(tmp_path)["SH1-C4"]
    assert (stats.played, stats.won, stats.best_time, stats.current_streak) == (1, 1, 95.0, 1)

    again = open_session(tmp_path)
    resumed = again.resume()
    assert resumed is not None and resumed.game.is_won
    assert not again.clock.running
    again.ended(resumed.game, "abandoned")  # the visitor takes a new deal from the win screen
    assert load_stats(tmp_path)["SH1-C4"].played == 1


def test_shutdown_saves_the_current_game(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    game = Game.from_code(CODE)
    session.started(game)
    game.play(game.legal_moves()[0])  # a move the table has not reported yet
    session.clock.tick(3.0)
    session.shutdown(game)
    resumed = open_session(tmp_path).resume()
    assert resumed is not None and resumed.game.moves == 1 and resumed.elapsed == 3.0


def test_crash_save_notes_the_crash(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    game = Game.from_code(CODE)
    session.started(game)
    session.crash_save()
    data = json.loads((tmp_path / "crashes.json").read_text())
    assert len(data["data"]) == 1
    for _ in range(2):
        CrashGuard(tmp_path).record_crash()
    assert open_session(tmp_path).resume() is None  # three crashes: start fresh


def test_clock_pauses_and_resets() -> None:
    clock = PlayTime()
    clock.tick(1.0)
    clock.running = False
    clock.tick(5.0)
    assert clock.seconds == 1.0
    clock.reset()
    clock.tick(-1.0)
    assert clock.seconds == 0.0 and clock.running
