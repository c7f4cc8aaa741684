"""Move order: which moves the solver tries first (:func:`generate`) and how promising a
position looks (:func:`promise`). Order decides how soon a win is found, never a verdict (the
proofs in :mod:`engine.dominance` hold for any order); the catalogs' levels do depend on it,
through the one hint a lost play of the grader gets (:mod:`engine.levels`).
"""

from __future__ import annotations

import random

from engine.game import FOUNDATION
from engine.position import CELL, HIDDEN, IMove, Limit, Mode, State
from engine.rules import fit_key, group_limit, run_start, takers

# Suit and rank of an internal card byte, face down (+64) or not: table lookups for promise().
_SUIT = tuple((c & 63) // 13 for c in range(128))
_RANK = tuple((c & 63) % 13 for c in range(128))
NOISE = 40  # how far a restart may reorder moves (move scores run from -100 to about 170)


def generate(
    state: State, mode: Mode, limit: Limit, noise: random.Random | None = None
) -> list[IMove]:
    """The moves worth trying from a settled position, best first (``noise`` shuffles moves
    of similar promise, for the restarts of :func:`solve`)."""
    cols, down, cells, found = state
    rules = mode.rules
    scored: list[tuple[int, IMove]] = []
    add = scored.append
    by_key, empties = takers(rules, cols)
    first_empty = empties[0] if empties else -1
    if mode.any_group:
        max_group = group_limit(rules, 0, len(empties))
        m = min(found)
        same_suit = mode.same_suit
        for i, col in enumerate(cols):
            n = len(col)
            if not n:
                continue
            d = down[i]
            lo = n - max_group
            if lo > d:
                # Groups this large are refused; note it when one would have had a place.
                for p in range(d, lo):
                    c = col[p]
                    if fit_key(rules, c) in by_key or (c % 13 == 12 and first_empty >= 0):
                        limit.refused += 1
                        break
            else:
                lo = d
            for p in range(lo, n):
                c = col[p]
                r = c % 13
                reveal = p == d and d > 0
                base = 100 + 3 * d if reveal else (40 if p == 0 else 0)
                targets = by_key.get(c if same_suit else r)
                if targets:
                    if same_suit:
                        for j in targets:
                            if j != i:
                                add((base + 10, (c, i, p, j)))
                    else:
                        under = col[p - 1] if p > d else -1
                        lateral = under >= 0 and under % 13 == r + 1
                        for j in targets:
                            if j != i:
                                same = 5 if cols[j][-1] == c + 1 else 0
                                add((base + same + (-20 if lateral else 10), (c, i, p, j)))
                if r == 12 and p > 0 and first_empty >= 0:
                    add((base + 50, (c, i, p, first_empty)))
            t = col[-1]
            if found[t // 13] == t % 13:  # not safe, or settle() would have moved it
                add((80, (t, i, n - 1, FOUNDATION)))
        if mode.takebacks:
            for s in range(4):
                k = found[s]
                if k >= m + 2:
                    card = s * 13 + k - 1
                    if k == 13:
                        if first_empty >= 0:
                            add((-100, (card, FOUNDATION, 0, first_empty)))
                    else:
                        for j in by_key.get(fit_key(rules, card), ()):
                            add((-100, (card, FOUNDATION, 0, j)))
    else:
        free = mode.cells - len(cells)
        cap = group_limit(rules, free, len(empties))
        cap_empty = group_limit(rules, free, len(empties) - 1) if empties else 0
        for c in cells:
            for j in by_key.get(fit_key(rules, c), ()):
                add((70, (c, CELL, 0, j)))
            if c % 13 == 12 and first_empty >= 0:
                add((60, (c, CELL, 0, first_empty)))
        for i, col in enumerate(cols):
            n = len(col)
            if not n:
                continue
            # Dig where the foundations wait: the sooner a card of this column is wanted
            # there, the more a move off this column is worth.
            dig = 2 * max(0, 8 - min(c % 13 - found[c // 13] for c in col))
            p = run_start(col, down[i])
            size = n - p
            bottom = col[p]
            if size <= cap:
                for j in by_key.get(fit_key(rules, bottom), ()):
                    add((50 + dig + (20 if p == 0 else 0) + 3 * p, (bottom, i, p, j)))
            if bottom % 13 == 12 and p > 0 and first_empty >= 0 and size <= cap_empty:
                add((40 + dig + 3 * p, (bottom, i, p, first_empty)))
            if free:
                top = col[-1]
                under = col[-2] if n > 1 else -1
                score = dig - 10 * (mode.cells - free) - 3 * n
                # (Kept as first written, ``under + 1`` rather than ``under``: the move order
                # decides which hint the level grading gets, and so the catalogs' levels.)
                if under >= 0 and (
                    found[under // 13] == under % 13 or fit_key(rules, under + 1) in by_key
                ):
                    score += 30  # the card it uncovers can go somewhere at once
                if size > 1:
                    score -= 30  # breaks a run
                add((score, (top, i, n - 1, CELL)))
    if noise is not None:
        jitter = noise.random
        scored = [(score + int(NOISE * jitter()), move) for score, move in scored]
    scored.sort(key=_first, reverse=True)
    return [move for _, move in scored]


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
