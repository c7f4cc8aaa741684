"""The honest player's moves and plays (:mod:`engine.search.levels` grades deals with it; the solver
of :mod:`engine.search.solver` tries a few of its plays first where building ignores suits).

The honest player sees only face-up cards, never undoes and never takes a card back from a
foundation. Each turn it sorts the moves it can see into a few plain categories (to a
foundation, turn up a hidden card, free a column, ...), plays one of the best category, and
breaks ties with a seeded SplitMix64 draw, so a play is a pure function of the position and
the seed. It never returns to a position it has already been in, and stops when it has nothing
left but idle shuffles.
"""

from __future__ import annotations

from engine.cards import IS_KING
from engine.deal import splitmix64
from engine.moves import CELL, FOUNDATION, IMove, Mode, Takers, candidates, on_run
from engine.rules import fit_keys, takers
from engine.search.position import State, apply, is_won_state, state_key

MAX_MOVES = 600


def visible_moves(state: State, mode: Mode) -> list[tuple[int, IMove]]:
    """Every useful move the player can see (:func:`engine.moves.candidates` in the player's
    view), with its category (higher is better). Uses only face-up cards and the number of
    face-down cards in each column."""
    by_key, empties = takers(mode.rules, state[0])  # by fit_key: the columns that take a card
    if mode.any_group:
        return _groups(state, mode, by_key, empties)
    return _runs(state, mode, by_key, empties)


def _groups(
    state: State, mode: Mode, by_key: Takers, empties: list[int]
) -> list[tuple[int, IMove]]:
    cols, down, _cells, found = state
    out: list[tuple[int, IMove]] = []
    add = out.append
    stray_king = any(  # a king not at the bottom of its column
        IS_KING[col[p]]
        for col, d in zip(cols, down, strict=True)
        for p in range(max(d, 1), len(col))
    )
    for move in candidates(state, mode, by_key, empties, player=True):
        c, i, p, j = move
        if j == FOUNDATION:
            add((6, move))
            continue
        d = down[i]
        under = cols[i][p - 1] if p > d else -1
        if p == d and d > 0:
            category = 5  # turns a card up
        elif p == 0:
            category = 4 if stray_king else 1  # frees a column
        elif under >= 0 and found[under // 13] == under % 13:
            category = 4  # the card under it can go home
        elif under >= 0 and under % 13 == c % 13 + 1:
            category = 0  # already on a card one higher: a lateral move
        else:
            category = 3
        add((category if cols[j] else max(category, 3), move))
    return out


def _runs(state: State, mode: Mode, by_key: Takers, empties: list[int]) -> list[tuple[int, IMove]]:
    cols, down, cells, found = state
    keys = fit_keys(mode.rules)
    out: list[tuple[int, IMove]] = []
    add = out.append
    free = mode.cells - len(cells)

    def goes(card: int) -> bool:
        """Can ``card`` go home or onto a column at once?"""
        return found[card // 13] == card % 13 or keys[card] in by_key

    for move in candidates(state, mode, by_key, empties, player=True):
        _, i, p, j = move
        if j == FOUNDATION:
            add((6, move))
        elif i == CELL:
            add((5, move))
        elif j == CELL:
            # Dig: a card within reach under the top (as deep as the free cells allow) can go
            # home or onto its successor once uncovered.
            col = cols[i]
            n = len(col)
            dig = any(goes(col[k]) for k in range(max(0, n - 1 - free), n - 1))
            lone = free > 1 and not on_run(col, down[i])
            add((2 if dig else (1 if lone else 0), move))
        elif cols[j]:
            add((4 if p == 0 or goes(cols[i][p - 1]) else 3, move))
        else:
            add((3, move))  # a king's run to an empty column
    return out


def play_path(
    state: State,
    mode: Mode,
    seed: int,
    seen: set[bytes] | None = None,
    *,
    max_moves: int = MAX_MOVES,
    moves: list[IMove] | None = None,
) -> tuple[bool, list[State]]:
    """Play honestly from ``state``: (won, every position of the play, ``state`` first). The
    moves made are appended to ``moves`` when it is given."""
    seen = set() if seen is None else seen
    seen.add(state_key(state))
    draws = splitmix64(seed)
    path = [state]
    for _ in range(max_moves):
        if is_won_state(state):
            return True, path
        # Best category first; within a category, a seeded random order. Category 0 moves are
        # idle shuffles: with only those left, the player gives up.
        ranked = sorted(
            ((-cat, next(draws), move) for cat, move in visible_moves(state, mode) if cat > 0),
            key=_rank,
        )
        for _, _, move in ranked:
            child = apply(state, move)
            key = state_key(child)
            if key not in seen:
                seen.add(key)
                state = child
                path.append(state)
                if moves is not None:
                    moves.append(move)
                break
        else:
            return False, path
    return is_won_state(state), path


def _rank(item: tuple[int, int, IMove]) -> tuple[int, int]:
    return item[0], item[1]
