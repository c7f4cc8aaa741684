"""Hints (the H key) and the winnable-from-here indicator."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine import Game
from engine.reasons import REASONS
from engine.search.hints import Hint, Indicator, heuristic_move, hint, hint_data, verdict
from engine.search.solver import solve
from tests.engine.test_solver import spade_lock

pytestmark = pytest.mark.unit


def test_hint_on_a_winnable_deal_is_the_first_move_of_a_win() -> None:
    game = Game.from_code("SH1-C4-AAAAAJ2")
    before = game.to_dict()
    shown = hint(game, time_limit=10)
    assert game.to_dict() == before  # the hint changes nothing
    assert shown.status == "won" and shown.reason is None and shown.move is not None
    assert shown.move in game.legal_moves()
    game.play(shown.move)
    assert solve(game, time_limit=10).status == "won"  # still winnable after following it


def test_following_hints_wins_the_game() -> None:
    game = Game.from_code("RU1-C-AAAAAAS")
    for _ in range(200):
        if game.is_won:
            break
        shown = hint(game)
        assert shown.move is not None
        game.play(shown.move)
    assert game.is_won


def test_hint_in_a_lost_position_says_undo_or_new_game() -> None:
    game = Game.from_dict(spade_lock("RU1-C-AAAAAAA"))
    shown = hint(game)
    assert shown == Hint(None, "lost", "no_useful_moves")
    assert "no_useful_moves" in REASONS


def test_hint_falls_back_to_a_heuristic_move_when_the_budget_runs_out() -> None:
    # Deal 10: no verdict in 60 positions (an honest play wins it in 93 moves, which the budget
    # cuts short).
    game = Game.from_code("RU1-R-AAAAAAK")
    shown = hint(game, nodes=60)
    assert shown.status == "unknown"
    assert shown.move is not None
    assert shown.move in game.legal_moves()
    assert not game.is_pointless(shown.move)


def test_the_hint_is_a_function_of_the_position_not_of_the_clock() -> None:
    """A work budget, not the clock, ends the hint's search: a machine five times slower (the
    Raspberry Pi) gets the same hint, and the budget fits its second here with room to spare."""
    for code, moves in (("RU1-R-AAAAAAK", []), ("SH1-C4-AAAAAJ2", ["6H-c3"])):
        game = Game.from_code(code)
        for move in moves:
            game.play(move)
        started = time.process_time()
        fast = hint(game, time_limit=60)
        assert time.process_time() - started < 1.0
        assert hint(game, time_limit=60) == fast
    game = Game.from_code("RU1-R-AAAAAAK")
    assert hint(game, nodes=100, time_limit=60) == hint(game, nodes=100, time_limit=5)


def test_heuristic_prefers_the_foundation_and_never_suggests_going_back() -> None:
    game = Game.from_code("RU1-C-AAAAAAS")  # AH lies alone in column 1
    assert str(heuristic_move(game)).endswith("-f")
    game = Game.from_code("SH1-C4-AAAAAJ2")
    game.play("6H-c3")  # 6H to a free cell: moving it straight back would undo this
    move = heuristic_move(game)
    assert move is not None and str(move) != "6H-t10"


def test_no_useful_moves_when_only_shuffles_are_left() -> None:
    data = spade_lock("RU1-C-AAAAAAA")
    assert heuristic_move(Game.from_dict(data)) is None


def test_verdict_is_plain_data_for_a_worker() -> None:
    game = Game.from_code("RU1-C-AAAAAAS")
    status, line = verdict(game.to_dict(), 10)
    assert status == "won" and line == solve(game).moves
    assert verdict({"code": "nonsense"}, 1) == ("unknown", [])


def wait(indicator: Indicator) -> str:
    deadline = time.monotonic() + 30
    while (status := indicator.poll()) == "working":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return status


def test_indicator_follows_the_game() -> None:
    indicator = Indicator(executor=ThreadPoolExecutor(max_workers=1), time_limit=10)
    game = Game.from_code("RU1-C-AAAAAAS")
    indicator.update(game)
    assert indicator.poll() in ("working", "won")
    assert wait(indicator) == "won"
    # Along the found line the answer is immediate: no new search.
    game.play(solve(game).moves[0])
    indicator.update(game)
    assert indicator.poll() == "won"
    lost = Game.from_dict(spade_lock("RU1-C-AAAAAAA"))
    indicator.update(lost)
    assert wait(indicator) == "lost"
    lost.play("KS-t4")  # any move from a lost position stays lost, at once
    indicator.update(lost)
    assert indicator.poll() == "lost"
    indicator.close()


def test_indicator_answers_an_earlier_position_behind_the_tables() -> None:
    """``ask``: the verdict on a position not on the table (an earlier one, issue 31 item 11),
    worked out after the table's own; the table's verdict stays the table's."""
    indicator = Indicator(executor=ThreadPoolExecutor(max_workers=1), time_limit=10)
    lost = Game.from_dict(spade_lock("RU1-C-AAAAAAA"))
    indicator.update(lost)
    earlier = Game.from_code("RU1-C-AAAAAAS")
    assert indicator.ask(earlier) == "working"
    assert wait(indicator) == "lost"
    deadline = time.monotonic() + 30
    while (answer := indicator.ask(earlier)) == "working":
        assert indicator.poll() in ("lost", "working") and time.monotonic() < deadline
        time.sleep(0.01)
    assert answer == "won" and indicator.poll() == "lost"
    assert indicator.ask(lost) == "lost"  # the table's position, known
    indicator.close()


def test_indicator_reports_the_latest_position_only() -> None:
    indicator = Indicator(executor=ThreadPoolExecutor(max_workers=1), time_limit=10)
    indicator.update(Game.from_code("RU1-C-AAAAAA7"))  # lost, after a short search
    indicator.update(Game.from_code("RU1-C-AAAAAAS"))  # the player moved on: winnable
    assert wait(indicator) == "won"
    indicator.close()


def test_indicator_in_a_worker_process() -> None:
    indicator = Indicator(time_limit=10)  # the default: a spawned worker process
    try:
        indicator.update(Game.from_code("SH1-C1-AAAAAAA"))
        assert wait(indicator) == "lost"
    finally:
        indicator.close()


def test_hint_data_runs_in_a_worker() -> None:
    game = Game.from_code("RU1-C-AAAAAAS")
    with ThreadPoolExecutor(max_workers=1) as pool:
        move, status, reason = pool.submit(hint_data, game.to_dict(), 5).result()
    assert (move, status, reason) == (str(hint(game).move), "won", None)
    assert hint_data({"code": "RU1-C-AAAAAAS", "columns": "torn"}) == (
        None,
        "unknown",
        "no_useful_moves",
    )
