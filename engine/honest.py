"""The honest player's moves and plays (:mod:`engine.levels` grades deals with it; the solver
of :mod:`engine.solver` tries a few of its plays first where building ignores suits).

The honest player sees only face-up cards, never undoes and never takes a card back from a
foundation. Each turn it sorts the moves it can see into a few plain categories (to a
foundation, turn up a hidden card, free a column, ...), plays one of the best category, and
breaks ties with a seeded SplitMix64 draw, so a play is a pure function of the position and
the seed. It never returns to a position it has already been in, and stops when it has nothing
left but idle shuffles.
"""

from __future__ import annotations

from engine.deal import splitmix64
from engine.game import FOUNDATION
from engine.position import CELL, IMove, Mode, State, apply, is_won_state, state_key
from engine.rules import fit_key, group_limit, run_start, takers

MAX_MOVES = 600


def visible_moves(state: State, mode: Mode) -> list[tuple[int, IMove]]:
    """Every useful move the player can see, with its category (higher is better). Uses only
    face-up cards and the number of face-down cards in each column."""
    cols, down, cells, found = state
    rules = mode.rules
    out: list[tuple[int, IMove]] = []
    add = out.append
    tops, empties = takers(rules, cols)  # by fit_key: the columns that take a card
    first_empty = empties[0] if empties else -1

    def fits(card: int) -> list[int]:
        return tops.get(fit_key(rules, card), [])

    def ready(card: int) -> bool:
        return found[card // 13] == card % 13

    stray_king = any(
        col[p] % 13 == 12
        for col, d in zip(cols, down, strict=True)
        for p in range(max(d, 1), len(col))
    )
    if mode.any_group:
        lift = group_limit(rules, 0, len(empties))
        for i, col in enumerate(cols):
            n = len(col)
            if not n:
                continue
            d = down[i]
            if ready(col[-1]):
                add((6, (col[-1], i, n - 1, FOUNDATION)))
            for p in range(max(d, n - lift), n):
                c = col[p]
                if p == d and d > 0:
                    category = 5  # turns a card up
                elif p == 0:
                    category = 4 if stray_king else 1  # frees a column
                elif p - 1 >= d and ready(col[p - 1]):
                    category = 4  # the card under it can go home
                elif p - 1 >= d and (col[p - 1] % 13 == c % 13 + 1):
                    category = 0  # already on a card one higher: a lateral move
                else:
                    category = 3
                for j in fits(c):
                    if j != i:
                        add((category, (c, i, p, j)))
                if c % 13 == 12 and p > 0 and first_empty >= 0:
                    add((max(category, 3), (c, i, p, first_empty)))
        return out
    free = mode.cells - len(cells)
    cap = group_limit(rules, free, len(empties))
    cap_empty = group_limit(rules, free, len(empties) - 1) if empties else 0
    for c in cells:
        if ready(c):
            add((6, (c, CELL, 0, FOUNDATION)))
        for j in fits(c):
            add((5, (c, CELL, 0, j)))
        if c % 13 == 12 and first_empty >= 0:
            add((5, (c, CELL, 0, first_empty)))
    for i, col in enumerate(cols):
        n = len(col)
        if not n:
            continue
        top = col[-1]
        if ready(top):
            add((6, (top, i, n - 1, FOUNDATION)))
        p = run_start(col, down[i])
        size = n - p
        under = col[p - 1] if p > 0 else -1
        helps = p == 0 or ready(under) or bool(fits(under))
        if size <= cap:
            for j in fits(col[p]):
                add((4 if helps else 3, (col[p], i, p, j)))
        if col[p] % 13 == 12 and p > 0 and first_empty >= 0 and size <= cap_empty:
            add((3, (col[p], i, p, first_empty)))
        if free:
            # Dig: a card within reach under the top (as deep as the free cells allow) can go
            # home or onto its successor once uncovered.
            dig = any(
                ready(col[k]) or bool(fits(col[k])) for k in range(max(0, n - 1 - free), n - 1)
            )
            add((2 if dig else (1 if free > 1 and size == 1 else 0), (top, i, n - 1, CELL)))
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
