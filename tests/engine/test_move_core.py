"""The move core (engine.moves) and the two orders read from it: the solver's
(engine.search.ordering.generate) and the honest player's categories
(engine.search.honest.visible_moves).
The order is pinned move by move on fixed positions: the catalogs' levels depend on it (the
grader's plays draw their ties in this order, and its one hint comes from the solver)."""

from __future__ import annotations

import random

import pytest

from engine import ALL_RULES, Game, Move
from engine.cards import card_name
from engine.game import CELL0, EMPTY
from engine.moves import CELL, FOUNDATION, IMove, Limit, Mode, candidates
from engine.rules import Rules, fit_keys, fits_on_empty, group_limit, run_start, takers
from engine.search.dominance import settle
from engine.search.honest import visible_moves
from engine.search.ordering import generate
from engine.search.position import state_of

pytestmark = pytest.mark.unit

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


def walked_legal_moves(game: Game) -> list[Move]:
    """The oracle: Game.legal_moves as it was before it became a view over the move core (its
    own walk over the piles, kept here only to compare with)."""
    rules = game.rules
    by_key, empties = takers(rules, game.cols)
    keys = fit_keys(rules)
    found = game.found
    out: list[Move] = []

    def to_columns(card: int, source: int, empty_ok: bool) -> None:
        out.extend(Move(card, dest) for dest in by_key.get(keys[card], ()) if dest != source)
        if empty_ok and fits_on_empty(card):
            out.extend(Move(card, dest) for dest in empties)

    free_cells = [CELL0 + i for i, held in enumerate(game.cells) if held == EMPTY]
    lift_cap = group_limit(rules, len(free_cells), len(empties))
    if rules.runs_only:
        empty_cap = group_limit(rules, len(free_cells), len(empties) - 1) if empties else 0
        for i, col in enumerate(game.cols):
            if col:
                top, n = col[-1], len(col)
                to_columns(top, i, True)
                if found[top // 13] == top % 13:
                    out.append(Move(top, FOUNDATION))
                out.extend(Move(top, cell) for cell in free_cells)
                start = max(run_start(col, game.down[i]), n - lift_cap)
                for j in range(n - 2, start - 1, -1):
                    to_columns(col[j], i, n - j <= empty_cap)
        for held in game.cells:
            if held != EMPTY:
                to_columns(held, -1, True)
                if found[held // 13] == held % 13:
                    out.append(Move(held, FOUNDATION))
                out.extend(Move(held, cell) for cell in free_cells)
    else:
        for i, col in enumerate(game.cols):
            if col:
                for j in range(max(game.down[i], len(col) - lift_cap), len(col)):
                    to_columns(col[j], i, True)
                if found[col[-1] // 13] == col[-1] % 13:
                    out.append(Move(col[-1], FOUNDATION))
    for suit in range(4):
        if found[suit]:
            card = suit * 13 + found[suit] - 1
            to_columns(card, -1, True)
            if rules.takeback_to_cell:
                out.extend(Move(card, cell) for cell in free_cells)
    return out


def kinds(game: Game, moves: list[Move]) -> set[str]:
    """What sorts of move a list holds, to show that the positions below reach them all."""
    seen = set()
    for move in moves:
        pile, pos = game.locate(move.card)
        if pile == FOUNDATION:
            seen.add("take-back to a cell" if move.dest >= CELL0 else "take-back")
        elif pile >= CELL0 and move.dest >= CELL0:
            seen.add("cell to cell")
        elif game.is_pointless(move):
            seen.add("pointless")
        elif move.dest < FOUNDATION and not game.cols[move.dest] and pos > 0:
            seen.add("king's group to an empty column")
    if sum(1 for c in game.cols if not c) > 1 and any(
        not game.cols[m.dest] for m in moves if m.dest < FOUNDATION
    ):
        seen.add("several empty columns")
    return seen


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.key)
def test_legal_moves_are_the_old_walks_moves(rules: Rules) -> None:
    """Game.legal_moves, now a view over engine.moves.every_move, lists the same moves as its
    old walk over the piles, on 1,000 positions of random play per rule set (no move twice;
    the order may differ)."""
    rng = random.Random(rules.key)
    seen: set[str] = set()
    positions = 0
    while positions < 1000:
        game = Game(rules, rng.randrange(2**35))
        for _ in range(100):
            moves = game.legal_moves()
            old = walked_legal_moves(game)
            assert sorted(moves) == sorted(old), (game.code, [str(m) for m in game.move_stack])
            assert len(set(moves)) == len(moves)
            seen |= kinds(game, moves)
            positions += 1
            if not moves:
                break
            home = [m for m in moves if m.dest == FOUNDATION]
            game.play(rng.choice(home if home and rng.random() < 0.6 else moves))
    expected = {"take-back", "king's group to an empty column"}
    if rules.cells != 1:  # with one free cell random play seldom empties two columns
        expected |= {"pointless", "several empty columns"}
    if rules.cells:
        expected.add("take-back to a cell")
    if rules.cells > 1:
        expected.add("cell to cell")
    assert expected <= seen
