"""The move core (engine.moves) and the two orders read from it: the solver's
(engine.ordering.generate) and the honest player's categories (engine.honest.visible_moves).
The order is pinned move by move on fixed positions: the catalogs' levels depend on it (the
grader's plays draw their ties in this order, and its one hint comes from the solver)."""

from __future__ import annotations

import random

import pytest

from engine import Game
from engine.cards import card_name
from engine.dominance import settle
from engine.honest import visible_moves
from engine.moves import candidates
from engine.ordering import generate
from engine.position import CELL, IMove, Limit, Mode, state_of
from engine.rules import takers

RELAXED_MOVES = "AS-t7 AC-f 3C-t4 TH-t5 4D-t5 QH-t3 QS-t7 3C-t1 3D-t7 7S-t2 4C-t3 AC-t4"


def short(move: IMove) -> str:
    """``KH:t7@6-t1``: card, source pile and position, destination."""
    card, src, pos, dest = move
    names = {10: "f", CELL: "c"}
    return (
        f"{card_name(card)}:{names.get(src, f't{src + 1}')}@{pos}-{names.get(dest, f't{dest + 1}')}"
    )


def position(code: str, moves: str) -> tuple[Game, Mode]:
    game = Game.from_code(code)
    for move in moves.split():
        game.play(move)
    return game, Mode.of(game.rules)


def test_relaxed_russian_order_is_pinned() -> None:
    game, mode = position("RU1-R-AAAAABB", RELAXED_MOVES)
    state = settle(state_of(game), mode, [], Limit())
    assert [short(m) for m in generate(state, mode, Limit())] == [
        "KH:t7@6-t1",
        "8H:t6@5-t5",
        "AD:t3@2-t4",
        "8S:t2@0-t5",
        "8S:t2@0-t6",
        "KC:t3@3-t1",
        "8D:t3@5-t5",
        "8D:t3@5-t6",
        "2C:t3@7-t7",
        "2S:t4@5-t7",
        "AH:t6@6-t4",
        "9S:t6@7-t3",
        "9H:t6@8-t3",
        "AS:t3@8-t4",
        "9C:t5@7-t3",
    ]
    noisy = generate(state, mode, Limit(), random.Random(1))
    assert [short(m) for m in noisy[:6]] == [
        "KH:t7@6-t1",
        "8H:t6@5-t5",
        "AD:t3@2-t4",
        "8S:t2@0-t6",
        "KC:t3@3-t1",
        "8S:t2@0-t5",
    ]
    seen = [f"{cat}{short(m)}" for cat, m in visible_moves(state, mode)]
    assert seen == [
        "48S:t2@0-t5",
        "48S:t2@0-t6",
        "5AD:t3@2-t4",
        "4KC:t3@3-t1",
        "38D:t3@5-t5",
        "38D:t3@5-t6",
        "32C:t3@7-t7",
        "4AS:t3@8-t4",
        "32S:t4@5-t7",
        "09C:t5@7-t3",
        "58H:t6@5-t5",
        "3AH:t6@6-t4",
        "49S:t6@7-t3",
        "39H:t6@8-t3",
        "5KH:t7@6-t1",
    ]


@pytest.mark.parametrize(
    ("moves", "solver", "player"),
    [
        (
            "",
            "4D:t5@4-c 2C:t6@4-c 6S:t4@4-c TS:t8@4-c 6C:t1@4-c TH:t2@4-c JC:t3@4-c "
            "2D:t9@4-c 6H:t10@4-c TD:t7@4-c",
            "16C 1TH 1JC 16S 24D 12C 2TD 2TS 12D 26H",
        ),
        (
            "TD-c3",
            "TD:c@0-t7 4D:t5@4-c 2C:t6@4-c 6S:t4@4-c TS:t8@4-c 6C:t1@4-c TH:t2@4-c JC:t3@4-c "
            "2D:t9@4-c 6H:t10@4-c JD:t7@3-c",
            "5TD 06C 0TH 0JC 06S 24D 02C 2JD 0TS 02D 26H",
        ),
    ],
)
def test_seahaven_order_is_pinned(moves: str, solver: str, player: str) -> None:
    game, mode = position("SH1-C4-AAAAAJ2", moves)
    state = settle(state_of(game), mode, [], Limit())
    assert [short(m) for m in generate(state, mode, Limit())] == solver.split()
    cards = [f"{cat}{card_name(m[0])}" for cat, m in visible_moves(state, mode)]
    assert cards == player.split()


@pytest.mark.parametrize("code", ["RU1-C-AAAAABB", "RU1-R-AAAAABB", "SH1-C2-AAAAAJ2"])
def test_the_solver_and_the_player_see_one_walk(code: str) -> None:
    """The solver's and the player's views are the same walk: the player's adds only the moves
    home (first in their pile); the solver's adds only take-backs."""
    game = Game.from_code(code)
    rng = random.Random(7)
    for _ in range(40):
        mode = Mode.of(game.rules)
        state = state_of(game)
        by_key, empties = takers(game.rules, state[0])
        solver = list(candidates(state, mode, by_key, empties))
        player = list(candidates(state, mode, by_key, empties, player=True))
        home = [m for m in player if m[3] == 10]
        back = [m for m in solver if m[1] == 10]
        assert sorted(m for m in player if m not in home) == sorted(
            m for m in solver if m not in back and not (m[3] == 10 and mode.any_group)
        )
        moves = [m for m in game.legal_moves() if not game.is_pointless(m)]
        if not moves:
            break
        game.play(rng.choice(moves))
