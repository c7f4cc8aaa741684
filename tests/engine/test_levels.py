"""The honest player and the levels it grades."""

from __future__ import annotations

import pytest

from engine import Game
from engine.moves import Mode
from engine.search.honest import play_path, visible_moves
from engine.search.levels import (
    EASY_WINS,
    LEVELS,
    PLAYS,
    Grade,
    grade,
    hint_point,
    hinted_play,
    honest_play,
    judge,
    level_of,
    play_seed,
)
from engine.search.position import apply, is_won_state, state_of
from engine.search.solver import first_move, solve

pytestmark = pytest.mark.unit


def test_thresholds_are_the_websites() -> None:
    assert PLAYS == 32 and EASY_WINS == 24
    assert level_of(32) == level_of(24) == "easy"
    assert level_of(23) == level_of(1) == "medium"
    assert level_of(0) == "hard"
    assert level_of(12, 16) == "easy" and level_of(11, 16) == "medium"


def test_one_hint_of_ours_makes_a_deal_easy() -> None:
    """Seed 003: easy are the deals the player wins at least 24 times of 32 "or where one hint
    of ours leads to victory"; hard ones it never wins by itself."""
    assert Grade(0, 32, 24).level == "easy"  # never wins alone, always with one hint
    assert Grade(10, 32, 14).level == "easy"
    assert Grade(10, 32, 13).level == "medium"
    assert Grade(0, 32, 23).level == "hard"
    assert Grade(24, 32).level == "easy" and Grade(1, 32).level == "medium"


@pytest.mark.parametrize(
    ("code", "level", "wins", "hinted"),
    [
        ("RU1-C-AAAAA4O", "easy", 32, 0),  # wins alone
        ("RU1-C-AAAAA2P", "easy", 0, 24),  # never alone, 24 times with one hint
        ("RU1-C-AAAA224", "medium", 6, 10),
        ("RU1-C-AAAAA25", "hard", 0, 0),
        ("SH1-C4-AAAAA2I", "easy", 29, 0),
        ("SH1-C4-AAAAA24", "easy", 16, 8),
        ("SH1-C4-AAAAA22", "medium", 1, 1),
        ("SH1-C4-AAAAA23", "hard", 0, 0),
    ],
)
def test_grades_of_fixed_deals(code: str, level: str, wins: int, hinted: int) -> None:
    game = Game.from_code(code)
    assert solve(game, time_limit=10).status == "won"
    assert grade(game) == Grade(wins, PLAYS, hinted)
    assert grade(game).level == level


def test_the_hint_comes_where_the_player_went_wrong() -> None:
    """The one hint is given at the last position of a lost play that can still be won: the
    player's own next move there loses the deal (or it gave up there), the hint's move keeps
    it winnable, and in this deal most hinted plays win."""
    game = Game.from_code("RU1-C-AAAAA2P")  # never won alone, easy with one hint
    mode = Mode.of(game.rules)
    big = 1_000_000  # far more search than the hint gets: a real verdict
    mistakes = hinted_wins = 0
    for k in range(8):
        seed = play_seed(game.number, 0, k)
        won, path = play_path(state_of(game), mode, seed)
        assert not won
        at = hint_point(path, mode, {})
        assert 0 <= at < len(path)
        move = first_move(path[at], mode, big)
        assert move is not None
        after = apply(path[at], move)
        assert is_won_state(after) or first_move(after, mode, big) is not None
        if at < len(path) - 1:
            mistakes += 1
            assert first_move(path[at + 1], mode, big) is None  # the player's move lost it
        hinted_wins += hinted_play(path, mode, seed)
    assert mistakes  # not only plays that gave up in a winnable position
    assert hinted_wins >= 4


def test_judge_answers_only_for_the_levels_asked() -> None:
    """The catalog build asks only for the levels it still needs; the answer must agree with
    the full grade whenever it gives one."""
    for code in ("RU1-C-AAAAA4O", "RU1-C-AAAAA2P", "RU1-C-AAAA224", "RU1-C-AAAAA25"):
        game = Game.from_code(code)
        level = grade(game).level
        for want in [(lv,) for lv in LEVELS] + [("easy", "medium"), ("medium", "hard")]:
            result = judge(game, want)
            if level in want:
                assert result is not None and result.level == level, (code, want)
            else:
                assert result is None, (code, want)


def test_grading_is_deterministic_for_a_seed() -> None:
    game = Game.from_code("SH1-C4-AAAAAAB")
    first = grade(game, seed=7)
    assert grade(game, seed=7) == first
    plays = [honest_play(game, seed) for seed in range(PLAYS)]
    assert plays == [honest_play(game, seed) for seed in range(PLAYS)]
    assert True in plays and False in plays  # the seeded tie-breaks really vary the play


def test_the_player_does_not_change_the_game() -> None:
    game = Game.from_code("RU1-R-AAAAABB")
    before = game.to_dict()
    grade(game, plays=4)
    assert game.to_dict() == before


def test_the_player_sees_only_face_up_cards() -> None:
    """Two deals that differ only in which cards are face down get the same choices."""
    data = Game.from_code("RU1-C-AAAAABB").to_dict()
    swapped = Game.from_code("RU1-C-AAAAABB").to_dict()
    col6, col7 = swapped["columns"][5], swapped["columns"][6]
    col6[0], col7[0] = col7[0], col6[0]  # two face-down cards trade places
    mode = Mode.of(Game.from_dict(data).rules)
    seen = visible_moves(state_of(Game.from_dict(data)), mode)
    assert visible_moves(state_of(Game.from_dict(swapped)), mode) == seen


def test_the_player_wins_an_easy_endgame_and_loses_a_locked_one() -> None:
    from tests.engine.test_solver import spade_lock

    game = Game.from_code("RU1-C-AAAAAAS")
    for move in solve(game).moves[:60]:
        game.play(move)
    assert honest_play(game, 1)
    assert not honest_play(Game.from_dict(spade_lock("RU1-C-AAAAAAA")), 1)
