"""Properties over random play (hypothesis): what must hold in every position of every game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ALL_RULES, Game, IllegalMove, Move
from engine.game import CELL0, DEST_NAMES
from engine.moves import CELL, FOUNDATION, Limit, Mode
from engine.search.dominance import settle
from engine.search.honest import visible_moves
from engine.search.ordering import generate
from engine.search.position import apply, state_of
from tests.helpers.profiles import examples

pytestmark = pytest.mark.unit

deals = st.builds(Game, st.sampled_from(ALL_RULES), st.integers(min_value=0, max_value=2**35 - 1))


def random_play(game: Game, seed: int, steps: int) -> list[Move]:
    """Random legal moves, leaning towards the foundations so that games get somewhere
    (empty columns, full cells, take-backs)."""
    rng = random.Random(seed)
    played = []
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        home = [m for m in moves if m.dest == FOUNDATION]
        move = rng.choice(home if home and rng.random() < 0.7 else moves)
        game.play(move)
        played.append(move)
    return played


def all_cards(game: Game) -> list[int]:
    cards = [c for col in game.cols for c in col] + [c for c in game.cells if c >= 0]
    cards += [s * 13 + r for s in range(4) for r in range(game.found[s])]
    return sorted(cards)


def every_move(game: Game) -> list[Move]:
    dests = [*range(game.rules.columns), FOUNDATION, *(CELL0 + i for i in range(game.rules.cells))]
    return [Move(card, dest) for card in range(52) for dest in dests]


@settings(max_examples=examples(60), deadline=None)
@given(deals, st.integers(0, 2**32), st.integers(0, 100))
def test_random_play_then_undo_everything_gives_the_start_back(
    game: Game, seed: int, steps: int
) -> None:
    start = game.to_dict()
    played = random_play(game, seed, steps)
    assert game.moves == len(played)
    for move in reversed(played):
        assert game.pop() == move
    with pytest.raises(IndexError):
        game.pop()
    end = game.to_dict()
    assert end["moves"] == len(played)
    assert end["redo"] == [str(move) for move in reversed(played)]  # redo makes them again
    assert {**end, "moves": 0, "redo": []} == start


@settings(max_examples=examples(60), deadline=None)
@given(deals, st.integers(0, 2**32), st.integers(0, 150))
def test_52_distinct_cards_and_a_score_never_below_zero(game: Game, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves or rng.random() < 0.15:
            if game.can_undo():
                game.pop()
        else:
            game.play(rng.choice(moves))
        assert all_cards(game) == list(range(52))
        assert game.score >= 0
        assert all(game.down[i] < len(c) or not c for i, c in enumerate(game.cols))


@settings(max_examples=examples(40), deadline=None)
@given(deals, st.integers(0, 2**32), st.integers(0, 80))
def test_legal_moves_are_exactly_what_play_accepts(game: Game, seed: int, steps: int) -> None:
    random_play(game, seed, steps)
    legal = game.legal_moves()
    assert len(set(legal)) == len(legal), "no move listed twice"
    accepted = set()
    for move in every_move(game):
        trial = game.copy()
        try:
            trial.play(move)
        except IllegalMove:
            continue
        accepted.add(move)
    assert set(legal) == accepted


@settings(max_examples=examples(40), deadline=None)
@given(deals, st.integers(0, 2**32), st.integers(0, 120))
def test_save_and_load_is_exact_with_history(game: Game, seed: int, steps: int) -> None:
    random_play(game, seed, steps)
    loaded = Game.from_dict(game.to_dict())
    assert loaded.to_dict() == game.to_dict()
    while game.can_undo():
        assert loaded.pop() == game.pop()
        assert loaded.to_dict() == game.to_dict()
    with pytest.raises(IndexError):
        loaded.pop()


def test_move_notation_round_trips() -> None:
    for card in range(52):
        for dest in range(len(DEST_NAMES)):
            move = Move(card, dest)
            assert Move.parse(str(move)) == move
            assert Move.parse(str(move).lower()) == move


def _as_game_move(game: Game, move: tuple[int, int, int, int]) -> Move:
    """An internal move (card, source, position, dest) as the move of ``game`` it stands for:
    the solver's "a free cell" is the first empty one, as the solver's replay names it."""
    card, _src, _pos, dest = move
    if dest == CELL:
        dest = CELL0 + game.cells.index(-1)
    return Move(card, dest)


@settings(max_examples=examples(60), deadline=None)
@given(deals, st.integers(0, 2**32), st.integers(0, 80))
def test_solver_and_grader_moves_are_legal_moves_of_the_game(
    game: Game, seed: int, steps: int
) -> None:
    """The solver's settling and its generated moves, and the honest player's (levels.py)
    moves, are all moves that Game.play accepts: the three generators agree."""
    random_play(game, seed, steps)
    mode = Mode.of(game.rules)
    state = state_of(game)
    for _category, move in visible_moves(state, mode):
        assert _as_game_move(game, move) in game.legal_moves(), (game.code, move)
    settled: list[tuple[int, int, int, int]] = []
    state = settle(state, mode, settled, Limit())
    for move in settled:
        game.play(_as_game_move(game, move))
    assert state_of(game) == state
    legal = game.legal_moves()
    for move in generate(state, mode, Limit()):
        assert _as_game_move(game, move) in legal, (game.code, move)
        after = game.copy()
        after.play(_as_game_move(game, move))
        assert state_of(after) == apply(state, move)
