"""Move order: which moves the solver tries first (:func:`generate`) and how promising a
position looks (:func:`promise`). Order decides how soon a win is found, never a verdict (the
proofs in :mod:`engine.search.dominance` hold for any order); the catalogs' levels do depend on it,
through the one hint a lost play of the grader gets (:mod:`engine.search.levels`).
"""

from __future__ import annotations

import random

from engine.moves import CELL, FOUNDATION, IMove, Limit, Mode, Takers, candidates, on_run
from engine.rules import fit_key, takers
from engine.search.position import HIDDEN, State

# Suit and rank of an internal card byte, face down (+64) or not: table lookups for promise().
_SUIT = tuple((c & 63) // 13 for c in range(128))
_RANK = tuple((c & 63) % 13 for c in range(128))
NOISE = 40  # how far a restart may reorder moves (move scores run from -100 to about 170)


def generate(
    state: State, mode: Mode, limit: Limit, noise: random.Random | None = None
) -> list[IMove]:
    """The moves worth trying from a settled position, best first (``noise`` shuffles moves
    of similar promise, for the restarts of :func:`solve`): the candidates of
    :func:`engine.moves.candidates`, each with a score."""
    by_key, empties = takers(mode.rules, state[0])
    if mode.any_group:
        scored = _score_groups(state, mode, by_key, empties, limit)
    else:
        scored = _score_runs(state, mode, by_key, empties)
    if noise is not None:
        jitter = noise.random
        scored = [(score + int(NOISE * jitter()), move) for score, move in scored]
    scored.sort(key=_first, reverse=True)
    return [move for _, move in scored]


def _score_groups(
    state: State, mode: Mode, by_key: Takers, empties: list[int], limit: Limit
) -> list[tuple[int, IMove]]:
    """Where any group moves: turning a card up is best (more so in a deep column), then
    freeing a column; a group already lying on a card one higher moves last."""
    cols, down, _cells, _found = state
    same_suit = mode.same_suit
    scored: list[tuple[int, IMove]] = []
    add = scored.append
    for move in candidates(state, mode, by_key, empties, limit=limit):
        c, i, p, j = move
        if j == FOUNDATION:
            add((80, move))  # not safe, or settle() would have moved it
            continue
        if i == FOUNDATION:
            add((-100, move))  # a take-back
            continue
        d = down[i]
        base = 100 + 3 * d if p == d and d > 0 else (40 if p == 0 else 0)
        target = cols[j]
        if not target:
            add((base + 50, move))  # a king's group to an empty column
        elif same_suit:
            add((base + 10, move))
        elif p > d and _RANK[cols[i][p - 1]] == _RANK[c] + 1:
            # Lateral: it already lies on a card one rank higher. (5 more onto its own suit.)
            add((base - 15 if target[-1] == c + 1 else base - 20, move))
        else:
            add((base + 15 if target[-1] == c + 1 else base + 10, move))
    return scored


def _score_runs(
    state: State, mode: Mode, by_key: Takers, empties: list[int]
) -> list[tuple[int, IMove]]:
    """Where only runs move: free-cell cards back to the columns first, then runs, dug from
    the columns whose cards the foundations want soonest; a card to a free cell last."""
    cols, down, cells, found = state
    rules = mode.rules
    used = len(cells)
    scored: list[tuple[int, IMove]] = []
    add = scored.append
    last = -1
    dig = 0
    for move in candidates(state, mode, by_key, empties):
        _, i, p, j = move
        if i == CELL:
            add((70 if cols[j] else 60, move))
            continue
        col = cols[i]
        if i != last:
            # Dig where the foundations wait: the sooner a card of this column is wanted
            # there, the more a move off this column is worth.
            dig = 2 * max(0, 8 - min(x % 13 - found[x // 13] for x in col))
            last = i
        if j == CELL:
            n = len(col)
            under = col[-2] if n > 1 else -1
            score = dig - 10 * used - 3 * n
            # Meant: can the uncovered card ``under`` go somewhere at once (home, or onto a
            # column: ``fit_key(rules, under)``). Written ``under + 1`` and kept so: the move
            # order decides which hint the level grading gets, so the fix changes the levels.
            if under >= 0 and (
                found[under // 13] == under % 13 or fit_key(rules, under + 1) in by_key
            ):
                score += 30
            if on_run(col, down[i]):
                score -= 30  # breaks a run
            add((score, move))
        elif cols[j]:
            add((50 + dig + (20 if p == 0 else 0) + 3 * p, move))
        else:
            add((40 + dig + 3 * p, move))  # a king's run to an empty column
    return scored


def _first(item: tuple[int, IMove]) -> int:
    return item[0]


_COSTS: tuple[dict[bytes, int], dict[bytes, int]] = ({}, {})  # per column: any-suit, same-suit
_COSTS_SIZE = 50_000  # columns remembered per table (a few MB); a table starts again when full


def _column_cost(col: bytes, same_suit: bool) -> int:
    """What a column's order costs :func:`promise`: 3 for each card lying on a lower card of its
    own suit (anywhere under it: it must move somewhere other than home before that card can
    go home); where building ignores suits, also 4 for each face-up card lying on a face-up
    card that is not one rank higher (it is out of order: it must move again)."""
    blocked = 0
    loose = 0
    low = [13, 13, 13, 13]
    suit_of, rank_of = _SUIT, _RANK
    under = -1
    for c in col:
        s = suit_of[c]
        r = rank_of[c]
        if r > low[s]:
            blocked += 1
        else:
            low[s] = r
        if not same_suit and c < HIDDEN and 0 <= under < HIDDEN and rank_of[under] != r + 1:
            loose += 1
        under = c
    return 3 * blocked + 4 * loose


def promise(state: State, mode: Mode) -> int:
    """How close a position looks to a win: cards home, free cells, empty columns and cards
    face up, less the cost of each column's order (:func:`_column_cost`)."""
    cols, down, cells, found = state
    cost = 0
    empty = 0
    same_suit = mode.same_suit
    known = _COSTS[same_suit]
    for col in cols:
        if not col:
            empty += 1
            continue
        count = known.get(col)
        if count is None:
            count = _column_cost(col, same_suit)
            if len(known) >= _COSTS_SIZE:
                known.clear()
            known[col] = count
        cost += count
    free = mode.cells - len(cells)
    return 10 * sum(found) + 4 * free + 6 * empty - cost - 4 * sum(down)
