"""The honest player and the levels it grades."""

from __future__ import annotations

import pytest

from engine import Game
from engine.levels import EASY_WINS, PLAYS, grade, honest_play, level_of, visible_moves
from engine.solver import Mode, solve, state_of


def test_thresholds_are_the_websites() -> None:
    assert PLAYS == 32 and EASY_WINS == 24
    assert level_of(32) == level_of(24) == "easy"
    assert level_of(23) == level_of(1) == "medium"
    assert level_of(0) == "hard"
    assert level_of(12, 16) == "easy" and level_of(11, 16) == "medium"


@pytest.mark.parametrize(
    ("code", "level"),
    [
        ("RU1-C-AAAAAAS", "easy"),
        ("RU1-C-AAAAACC", "medium"),
        ("RU1-C-AAAAAAO", "hard"),
        ("SH1-C4-AAAAAAC", "easy"),
        ("SH1-C4-AAAAAAB", "medium"),
        ("SH1-C4-AAAAAAA", "hard"),
    ],
)
def test_grades_of_fixed_deals(code: str, level: str) -> None:
    game = Game.from_code(code)
    assert solve(game, time_limit=10).status == "won"
    assert grade(game).level == level


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
    from test_solver import spade_lock

    game = Game.from_code("RU1-C-AAAAAAS")
    for move in solve(game).moves[:60]:
        game.play(move)
    assert honest_play(game, 1)
    assert not honest_play(Game.from_dict(spade_lock("RU1-C-AAAAAAA")), 1)
