"""The solver's own compact position and how a move changes it (:mod:`engine.search.solver`, the
grader :mod:`engine.search.levels`, :mod:`engine.search.hints`).

Internal position: ``cols`` is a tuple of ``bytes``, one per real column, bottom to top, a
face-down card stored as ``card + 64``; ``down`` the face-down count per column; ``cells`` the
sorted bytes of the cards in free cells (empty cells are not stored: cells are interchangeable);
``found`` the count per suit. The foundations follow from the cards still on the table, so the
key is just the sorted columns and the cells.
"""

from __future__ import annotations

from engine.game import EMPTY, Game
from engine.moves import FOUNDATION, IMove

HIDDEN = 64  # added to a face-down card in the internal columns

Cols = tuple[bytes, ...]
State = tuple[Cols, tuple[int, ...], bytes, tuple[int, ...]]


def state_of(game: Game) -> State:
    """The internal position of ``game`` (a fresh copy; ``game`` is not touched)."""
    cols = tuple(
        bytes(c + HIDDEN if k < d else c for k, c in enumerate(col))
        for col, d in zip(game.cols, game.down, strict=True)
    )
    cells = bytes(sorted(c for c in game.cells if c != EMPTY))
    return cols, tuple(game.down), cells, tuple(game.found)


def state_key(state: State) -> bytes:
    """Canonical: columns sorted (any column can play any other's part), cells sorted."""
    return b"\xff".join(sorted(state[0])) + b"\xfe" + state[2]


def is_won_state(state: State) -> bool:
    return not any(state[0]) and not state[2]


def apply(state: State, move: IMove) -> State:
    """Make an internal move known to be legal."""
    cols_t, down_t, cells, found_t = state
    card, src, pos, dest = move
    cols = list(cols_t)
    down = down_t
    found = found_t
    if src < FOUNDATION:
        col = cols[src]
        group = col[pos:]
        rest = col[:pos]
        if rest and rest[-1] >= HIDDEN:
            rest = rest[:-1] + bytes((rest[-1] - HIDDEN,))
            dl = list(down)
            dl[src] -= 1
            down = tuple(dl)
        cols[src] = rest
    elif src == FOUNDATION:
        group = bytes((card,))
        fl = list(found)
        fl[card // 13] -= 1
        found = tuple(fl)
    else:
        group = bytes((card,))
        cells = cells.replace(group, b"")
    if dest < FOUNDATION:
        cols[dest] += group
    elif dest == FOUNDATION:
        fl = list(found)
        fl[card // 13] += 1
        found = tuple(fl)
    else:
        cells = bytes(sorted(cells + group))
    return tuple(cols), down, cells, found
