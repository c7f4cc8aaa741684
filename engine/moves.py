"""The move core of the searches: one walk over the piles of an internal position that finds
the moves worth considering (:func:`candidates`). The solver's move order
(:func:`engine.ordering.generate`) scores them; the honest player
(:func:`engine.honest.visible_moves`) sorts them into its categories. Both read only the cards
a player sees: face-up cards and the number of face-down ones.

What counts as worth considering, where building allows any face-up group to move: every
group that fits on a column, a king's group (with cards under it) to the first empty column,
a top card its foundation wants, and for the solver, where building ignores suits, a card
taken back from a foundation at least two ranks ahead of the lowest one (lemma 2 of
:mod:`engine.solver`). Where only runs move (Seahaven): the whole run on top of each column to
a column that takes it, a king's run to the first empty column, a top card to a free cell, and
each free-cell card to a column. Moves are yielded pile by pile in a fixed order, which both
consumers depend on (the solver's ties and restarts, the honest player's seeded draws).

:meth:`engine.game.Game.legal_moves` is the rules' full answer instead (every legal move,
pointless ones included, every part of a run, every empty column), built from the same
predicates of :mod:`engine.rules`.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.cards import IS_KING
from engine.game import FOUNDATION
from engine.position import CELL, IMove, Limit, Mode, State
from engine.rules import fit_keys, group_limit, run_start

Takers = dict[int, list[int]]


def candidates(
    state: State,
    mode: Mode,
    by_key: Takers,
    empties: list[int],
    *,
    player: bool = False,
    limit: Limit | None = None,
) -> Iterator[IMove]:
    """The candidate moves of ``state``, pile by pile. ``by_key, empties`` are
    :func:`engine.rules.takers` of its columns. ``player``: the honest player's view (a card
    its foundation wants comes first in its pile; no take-backs); else the solver's (such a
    card comes last, and where only runs move there is none: a settled position sent them
    all home). ``limit`` counts the groups refused for the group limit that had a place."""
    if mode.any_group:
        return _any_group(state, mode, by_key, empties, player, limit)
    return _runs(state, mode, by_key, empties, player)


def _any_group(
    state: State,
    mode: Mode,
    by_key: Takers,
    empties: list[int],
    player: bool,
    limit: Limit | None,
) -> Iterator[IMove]:
    cols, down, _cells, found = state
    rules = mode.rules
    keys = fit_keys(rules)
    first_empty = empties[0] if empties else -1
    max_group = group_limit(rules, 0, len(empties))
    for i, col in enumerate(cols):
        n = len(col)
        if not n:
            continue
        top = col[-1]
        home = found[top // 13] == top % 13
        if home and player:
            yield (top, i, n - 1, FOUNDATION)
        d = down[i]
        lo = n - max_group
        if lo <= d:
            lo = d
        elif limit is not None and _refused(col, d, lo, keys, by_key, first_empty >= 0):
            limit.refused += 1
        for p in range(lo, n):
            c = col[p]
            targets = by_key.get(keys[c])
            if targets:
                for j in targets:
                    if j != i:
                        yield (c, i, p, j)
            if IS_KING[c] and p > 0 and first_empty >= 0:
                yield (c, i, p, first_empty)
        if home and not player:
            yield (top, i, n - 1, FOUNDATION)
    if mode.takebacks and not player:
        m = min(found)
        for s in range(4):
            k = found[s]
            if k >= m + 2:
                card = s * 13 + k - 1
                if k == 13:
                    if first_empty >= 0:
                        yield (card, FOUNDATION, 0, first_empty)
                else:
                    for j in by_key.get(keys[card], ()):
                        yield (card, FOUNDATION, 0, j)


def _refused(
    col: bytes, d: int, lo: int, keys: tuple[int, ...], by_key: Takers, empty: bool
) -> bool:
    """Does a group too large to lift (from below ``lo``) have a place?"""
    for p in range(d, lo):
        c = col[p]
        if keys[c] in by_key or (IS_KING[c] and empty):
            return True
    return False


def _runs(
    state: State, mode: Mode, by_key: Takers, empties: list[int], player: bool
) -> Iterator[IMove]:
    cols, down, cells, found = state
    keys = fit_keys(mode.rules)
    first_empty = empties[0] if empties else -1
    free = mode.cells - len(cells)
    cap = group_limit(mode.rules, free, len(empties))
    cap_empty = group_limit(mode.rules, free, len(empties) - 1) if empties else 0
    for c in cells:
        if player and found[c // 13] == c % 13:
            yield (c, CELL, 0, FOUNDATION)
        for j in by_key.get(keys[c], ()):
            yield (c, CELL, 0, j)
        if IS_KING[c] and first_empty >= 0:
            yield (c, CELL, 0, first_empty)
    for i, col in enumerate(cols):
        n = len(col)
        if not n:
            continue
        if player:
            top = col[-1]
            if found[top // 13] == top % 13:
                yield (top, i, n - 1, FOUNDATION)
        p = run_start(col, down[i])
        size = n - p
        bottom = col[p]
        if size <= cap:
            for j in by_key.get(keys[bottom], ()):
                yield (bottom, i, p, j)
        if IS_KING[bottom] and p > 0 and first_empty >= 0 and size <= cap_empty:
            yield (bottom, i, p, first_empty)
        if free:
            yield (col[-1], i, n - 1, CELL)


def on_run(col: bytes, down: int) -> bool:
    """Does the top card of a column lie on a card of its run (so moving it alone breaks the
    run)? The same as ``run_start(col, down) < len(col) - 1``."""
    n = len(col)
    return n - 1 > down and col[n - 2] == col[n - 1] + 1 and not IS_KING[col[n - 1]]
