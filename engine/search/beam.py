"""Beam search: a fast way to find a win where building ignores suits
(:func:`engine.search.solver.solve`
runs a narrow one after its first best-first round and a wide one later, each only where the
budget can pay for all of it).

Relaxed Russian positions are nearly all won, but some wins need a long rearrangement that a
depth-first probe misses (it digs under its first idea) and the best-first search reaches late
(it keeps expanding the one most promising region). A beam keeps, at each depth, the ``width``
most promising new positions (:func:`engine.search.ordering.promise`, ties to the first found) and
expands all of them, so it follows many ideas side by side at a small cost per position: no
rule 5, no queue. It never proves a loss (it drops positions), so it answers only ``won`` or
nothing; the verdict of :func:`engine.search.solver.solve` stays exact.
"""

from __future__ import annotations

import time

from engine.moves import IMove, Limit, Mode
from engine.search.dominance import settle
from engine.search.ordering import generate, promise
from engine.search.position import State, apply, is_won_state, state_key

# One entry of a depth: the position, the index of its parent in the depth before, the moves
# from the parent (the move and what settling added).
_Entry = tuple[State, int, list[IMove]]
CHECK_EVERY = 256  # positions between clock checks


def beam_search(
    start: State, mode: Mode, width: int, budget: int, deadline: float = float("inf")
) -> tuple[list[IMove] | None, int]:
    """A winning line from the settled position ``start`` (internal moves), or None when the
    beam runs dry, ``budget`` new positions have been made or the clock passes ``deadline``;
    and the positions made."""
    limit = Limit()
    seen = {state_key(start)}
    depths: list[list[_Entry]] = [[(start, -1, [])]]
    nodes = 0
    clock = time.monotonic
    while True:
        made: list[tuple[int, int, _Entry]] = []
        for index, (state, _parent, _edge) in enumerate(depths[-1]):
            for move in generate(state, mode, limit):
                edge = [move]
                child = settle(apply(state, move), mode, edge, limit)
                if is_won_state(child):
                    return _line(depths, index) + edge, nodes
                key = state_key(child)
                if key in seen:
                    continue
                seen.add(key)
                nodes += 1
                if nodes >= budget or (nodes % CHECK_EVERY == 0 and clock() > deadline):
                    return None, nodes
                made.append((-promise(child, mode), nodes, (child, index, edge)))
        if not made:
            break
        made.sort(key=_two)
        depths.append([entry for _, _, entry in made[:width]])
    return None, nodes


def _two(item: tuple[int, int, _Entry]) -> tuple[int, int]:
    return item[0], item[1]


def _line(depths: list[list[_Entry]], index: int) -> list[IMove]:
    """The moves from the start to entry ``index`` of the last depth."""
    steps: list[list[IMove]] = []
    for depth in reversed(depths):
        _state, parent, edge = depth[index]
        steps.append(edge)
        index = parent
    return [move for edge in reversed(steps) for move in edge]
