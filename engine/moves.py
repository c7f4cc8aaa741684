"""The move core: one walk over the piles of a position that finds its moves, in three views.

:func:`candidates` is the searches' view, the moves worth considering: the solver's move order
(:func:`engine.search.ordering.generate`) scores them; the honest player
(:func:`engine.search.honest.visible_moves`) sorts them into its categories. :func:`every_move` is
the
rules' full answer, the same walk with nothing left out: :meth:`engine.game.Game.legal_moves`
lists it. All three read only the cards a player sees: face-up cards and the number of
face-down ones.

What is worth considering, where building allows any face-up group to move: every group that
fits on a column, a king's group (with cards under it) to the first empty column, a top card
its foundation wants, and for the solver, where building ignores suits, a card taken back from
a foundation at least two ranks ahead of the lowest one (lemma 2 of :mod:`engine.search.solver`).
Where only runs move (Seahaven): the whole run on top of each column to a column that takes it,
a king's run to the first empty column, a top card to a free cell, and each free-cell card to a
column. The honest player's view adds the moves home; every legal move adds the pointless ones
(a king with nothing under it to another empty column, a free-cell card to another cell), every
empty column as a king's destination, and every foundation card taken back. Where only runs
move, runs are of one suit and building is by suit, so no part of a run but the whole has
anywhere to go. Moves are yielded pile by pile in a fixed order, which the searches depend on
(the solver's ties and restarts, the honest player's seeded draws).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.cards import IS_KING
from engine.rules import Rules, fit_keys, group_limit, run_start

# A move's source or destination beside the columns (0..9): docs/codes.md's "f" (a foundation:
# the card's own) and, in the internal moves, "a free cell" (the searches' cells are
# interchangeable; the real cell is chosen on replay, and Game.legal_moves lists each empty one).
FOUNDATION = 10
CELL = 11

IMove = tuple[int, int, int, int]  # card, source (column, CELL, FOUNDATION), position, dest
# Columns (bottom to top), face-down counts, the cards in the free cells, foundation counts:
# the searches' internal State (engine.search.position) or a Game's own lists.
Piles = tuple[Sequence[Sequence[int]], Sequence[int], Sequence[int], Sequence[int]]
Takers = dict[int, list[int]]


@dataclass(frozen=True)
class Mode:
    """What the search needs to know about a rule set, read from its :class:`Rules` fields
    (never from its name)."""

    rules: Rules
    any_group: bool  # any face-up cards move together (not only same-suit runs)
    same_suit: bool
    cells: int
    max_group: int
    forced_successor: bool  # rule 4
    takebacks: bool  # lemma 2 (any-suit building)
    ranked: bool  # order children by promise() (where groups are runs; it did worse elsewhere)
    dead_check: bool  # rule 5 (is_dead leaves free cells out: it holds only where there are none)
    dive_first: bool  # each round of solve() starts with the depth-first probe

    @classmethod
    def of(cls, rules: Rules, *, forced: bool = True) -> Mode:
        """ValueError for a rule set the proofs of :mod:`engine.search.dominance` do not cover: runs
        in any-suit building, or free cells where any group may move."""
        if rules.runs_only and not rules.same_suit:
            raise ValueError(f"{rules.key}: the solver has no proof for runs in any-suit building")
        if not rules.runs_only and rules.cells:
            raise ValueError(f"{rules.key}: the solver has no proof for free cells with any group")
        any_group = not rules.runs_only
        return cls(
            rules=rules,
            any_group=any_group,
            same_suit=rules.same_suit,
            cells=rules.cells,
            max_group=rules.max_group,
            forced_successor=forced and any_group and rules.same_suit,
            takebacks=not rules.same_suit,
            ranked=rules.runs_only,
            dead_check=rules.cells == 0,
            dive_first=not rules.same_suit,
        )


class Limit:
    """Counts moves refused for the Russian 20-card limit (rule 4's fallback)."""

    refused = 0


def candidates(
    state: Piles,
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
        return _any_group(state, mode.rules, by_key, empties, player, False, mode.takebacks, limit)
    return _runs(state, mode.rules, by_key, empties, player, False)


def every_move(piles: Piles, rules: Rules, by_key: Takers, empties: list[int]) -> Iterator[IMove]:
    """Every legal move of ``piles`` (pointless ones included), on the walk of
    :func:`candidates`, pile by pile; a move to a free cell has the destination :data:`CELL`
    (each empty one). ``piles`` may be a Game's own lists: only face-up cards are read. Where
    any group moves, no rule set has free cells, and none are walked.

    Each move is (card, source, position in the source, destination); ``10`` is
    :data:`FOUNDATION`, columns count from 0:

    >>> from engine import Game
    >>> from engine.cards import card_name
    >>> from engine.rules import takers
    >>> game = Game.from_code("RU1-C-AAAAABB")
    >>> piles = (game.cols, game.down, [], game.found)
    >>> moves = every_move(piles, game.rules, *takers(game.rules, game.cols))
    >>> [(card_name(card), source, position, dest) for card, source, position, dest in moves]
    [('4D', 3, 7, 2), ('3C', 4, 6, 0), ('AC', 5, 9, 6), ('AC', 5, 9, 10)]
    """
    if rules.runs_only:
        return _runs(piles, rules, by_key, empties, False, True)
    return _any_group(piles, rules, by_key, empties, False, True, True, None)


def _any_group(
    state: Piles,
    rules: Rules,
    by_key: Takers,
    empties: list[int],
    player: bool,
    every: bool,
    takebacks: bool,
    limit: Limit | None,
) -> Iterator[IMove]:
    cols, down, _cells, found = state
    keys = fit_keys(rules)
    king_to = empties if every else empties[:1]
    king_from = 0 if every else 1  # a king with nothing under it: a pointless move
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
        elif limit is not None and _refused(col, d, lo, keys, by_key, bool(empties)):
            limit.refused += 1
        for p in range(lo, n):
            c = col[p]
            targets = by_key.get(keys[c])
            if targets:
                for j in targets:
                    if j != i:
                        yield (c, i, p, j)
            if IS_KING[c] and p >= king_from:
                for j in king_to:
                    yield (c, i, p, j)
        if home and not player:
            yield (top, i, n - 1, FOUNDATION)
    if takebacks and not player:
        floor = 1 if every else min(found) + 2
        yield from _takebacks(found, floor, keys, by_key, king_to, False)


def _takebacks(
    found: Sequence[int],
    floor: int,
    keys: tuple[int, ...],
    by_key: Takers,
    king_to: list[int],
    to_cell: bool,
) -> Iterator[IMove]:
    """The top card of each foundation holding at least ``floor`` cards, back to the columns
    that take it (and to a free cell when ``to_cell``)."""
    for s in range(4):
        k = found[s]
        if k >= floor:
            card = s * 13 + k - 1
            for j in by_key.get(keys[card], ()):
                yield (card, FOUNDATION, 0, j)
            if IS_KING[card]:
                for j in king_to:
                    yield (card, FOUNDATION, 0, j)
            if to_cell:
                yield (card, FOUNDATION, 0, CELL)


def _refused(
    col: Sequence[int], d: int, lo: int, keys: tuple[int, ...], by_key: Takers, empty: bool
) -> bool:
    """Does a group too large to lift (from below ``lo``) have a place?"""
    for p in range(d, lo):
        c = col[p]
        if keys[c] in by_key or (IS_KING[c] and empty):
            return True
    return False


def _runs(
    state: Piles, rules: Rules, by_key: Takers, empties: list[int], player: bool, every: bool
) -> Iterator[IMove]:
    cols, down, cells, found = state
    keys = fit_keys(rules)
    king_to = empties if every else empties[:1]
    king_from = 0 if every else 1  # a king with nothing under it: a pointless move
    homes = player or every
    free = rules.cells - len(cells)
    cap = group_limit(rules, free, len(empties))
    cap_empty = group_limit(rules, free, len(empties) - 1) if empties else 0
    for c in cells:
        if homes and found[c // 13] == c % 13:
            yield (c, CELL, 0, FOUNDATION)
        for j in by_key.get(keys[c], ()):
            yield (c, CELL, 0, j)
        if IS_KING[c]:
            for j in king_to:
                yield (c, CELL, 0, j)
        if every and free:
            yield (c, CELL, 0, CELL)  # to another cell: pointless
    for i, col in enumerate(cols):
        n = len(col)
        if not n:
            continue
        if homes:
            top = col[-1]
            if found[top // 13] == top % 13:
                yield (top, i, n - 1, FOUNDATION)
        p = run_start(col, down[i])
        size = n - p
        bottom = col[p]
        if size <= cap:
            for j in by_key.get(keys[bottom], ()):
                yield (bottom, i, p, j)
        if IS_KING[bottom] and p >= king_from and size <= cap_empty:
            for j in king_to:
                yield (bottom, i, p, j)
        if free:
            yield (col[-1], i, n - 1, CELL)
    if every:
        yield from _takebacks(found, 1, keys, by_key, king_to, rules.takeback_to_cell and free > 0)


def on_run(col: Sequence[int], down: int) -> bool:
    """Does the top card of a column lie on a card of its run (so moving it alone breaks the
    run)? The same as ``run_start(col, down) < len(col) - 1``.

    >>> from engine.cards import parse_card
    >>> nine, eight = parse_card("9C"), parse_card("8C")
    >>> on_run([nine, eight], 0), on_run([eight, nine], 0), on_run([nine, eight], 1)
    (True, False, False)
    """
    n = len(col)
    return n - 1 > down and col[n - 2] == col[n - 1] + 1 and not IS_KING[col[n - 1]]
