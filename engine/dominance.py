"""Why the solver may skip moves and still be exact, and the rules that act on it: settling
(rules 3 and 4, :func:`settle`) and dead positions (rule 5, :func:`is_dead`). The lemmas and
rules are numbered as the searches of :mod:`engine.solver` and the move generator of
:mod:`engine.ordering` cite them.

Why the search may skip moves and still be exact
================================================
Every pruning below is a dominance argument: position S' dominates S when any winning line
from S can be turned into a winning line from S'. Each argument maps the line from S (call it
O) move by move onto S', dropping moves of cards that S' has already placed and letting group
moves carry fewer cards.

Lemma 1 (take-backs, same-suit building: Russian classic, Seahaven). No winning line needs a
card taken back from a foundation. Call T the cards that O has taken back and not yet put
back; put them on their foundations to get R. Under same-suit building a card taken back,
``x``, can only go onto ``x + 1`` (or, a king, into an empty column) or into a free cell, and the
only card that can ever go onto ``x`` is ``x - 1``, which is on the foundation below ``x``, so it
is in T as well once it leaves. Hence the T cards only ever lie in free cells or at the top of
a column above all other cards, and a non-T card is never put on a T card. Every move of O on a
non-T card is then legal in R: its group there is the same group minus a top part of T cards
(a prefix of a same-suit run is still a run, and groups only shrink, so the 20-card limit and
the Seahaven capacity still hold); R has every free cell and empty column O has, and more
(capacity only grows); its destination top card is the same; a foundation move of a non-T card
``z`` in O finds the same count in R (a T card of z's suit would have a rank between the
foundation and z, so it would be z itself). R reaches the win no later than O.

Lemma 2 (relaxed Russian: which take-backs matter). Let m be the smallest foundation count in
S, so every card of rank <= m is on a foundation. Take T as the cards of rank <= m that O has
taken back and not yet put back. Only cards of rank r - 1 go on a card of rank r, so only cards
of rank <= m - 1 go on a T card, and any such card on the table has been taken back: it is in
T too. So T cards again only hold T cards, a non-T card never goes on one, and a non-T card
going to its foundation has rank > m, so its suit holds no T card. The argument of lemma 1
then goes through: no winning line needs to take back a card of rank <= m. A take-back of a
card of rank m + 1 gives a position where that card is safe (rule 3), so it is dominated by the
position before it. The relaxed search therefore tries take-backs of rank >= m + 2 only; they
are real moves there (a taken-back 5H on 6S takes 4C from the table).

Rule 3 (safe moves to a foundation). A card ``c`` that is the top of a column or in a free cell,
whose foundation wants it next, is put there without branching when nothing still on the table
or ever coming back to it could go on ``c``: in same-suit building only ``c - 1`` goes on ``c``,
and it is on the foundation and stays there (lemma 1); in relaxed building the cards that go on
``c`` are the four of rank ``rank(c) - 1``, so ``c`` is safe when ``rank(c) <= m + 1`` (lemma 2
keeps them on the foundations). Nothing is ever put on ``c`` in O, so ``c`` sits at a column top
or in a cell until O moves it; S' (``c`` on its foundation) drops those moves, and group moves
that carried ``c`` carry one card fewer. S' has a free cell or a shorter column more, and the
card under ``c`` turned face up earlier, which only adds moves.

Rule 4 (Russian classic: building on a king column). In same-suit building a card ``c`` has
one place on the table, on ``c + 1``. When ``c + 1`` is the top of a column that holds a
same-suit run from a king at its bottom (K, Q, ... ``c + 1``, nothing face down), ``c`` goes there
at once (with what lies on it, if that is at most 20 cards). Such a column never usefully
moves: each of its cards already lies on its one successor, and the king can only go to another
empty column, which changes nothing. So in the line O from S, nothing is taken from that column
but ``c``'s moves onto it, and R (after the move) differs from O only in where ``c``'s group
lies until O makes the same move: O can put a card on the group's top (same top in R), move a
group from inside it (the same group), move a group from under ``c`` (R moves it without
``c``'s group), or move ``c`` to its foundation (a top in both); R has every empty column O has.
Bug fixed: this rule once applied to any column whose top is ``c + 1``. That is wrong: when O
later moves ``c + 1``'s group (or a group from under it), R must carry ``c``'s group along, and
that group may hold the very card the move goes onto (deal RU1-C-AAAAADE: JH's group, which
holds KH, went onto QH, and QH could then never reach KH). The search with the wrong rule
proved about one winnable Russian deal in five lost.

Rule 5 (dead positions: nothing is searched from a position proved lost). Call a move of
a group whose lowest card is ``x`` a move *of* ``x`` (a card carried on top of a group is not
moved by it). To win, every card on the table goes home, and that is a move of that card, so
each must be moved at least once. :func:`is_dead` computes a set M of cards that contains
every card that any line of play from the position ever moves, as the least set closed under:
``x`` is in M when it can be face up (it is, or the card now directly on it is in M: a hidden
card turns up only when that card leaves it, and it leaves only by a move of its own, since
whatever moves under it would carry it along) and it has a place to go: home (it can be a
top, as before, and every lower card of its suit that is not home is in M: each goes home by
a move of its own first); an empty column for a king (one is empty now, or the bottom card of
another column is in M: a column empties only by a move of its bottom card); a free cell
(one is free now, or a card in a cell is in M); or a card it fits on that can be a top (it is
one now, it is on a foundation, or the card now directly on it is in M). Induction on the time
of each card's first move shows that every card moved in any line is in M. So if some card on
the table is not in M, no line wins: the position is lost. The search drops such positions
without looking further (their successors are lost too), which keeps ``lost`` a proof.

Completeness. Each closure rule (3 and 4) turns a winning line into one that is no longer (it
only drops moves), and lemmas 1 and 2 likewise only drop moves. So from a settled winnable
position some generated move leads, after settling, to a position strictly closer to a win,
and depth-first search over settled positions with a set of visited keys finds a win whenever
one exists: ``lost`` is exact.

Why no closure rule moves a free-cell card onto its successor: such a move dominates, but the
winning line from the new position may have to take the card back out (to move the successor
into a cell), so a closure that re-applied it would undo that step forever. A closure rule must
leave a winning line no longer than the one it replaces (the dominance arguments above only
drop moves); this one can need one more move, so it is an ordinary, first-tried move.
"""

from __future__ import annotations

from engine.game import FOUNDATION
from engine.position import CELL, HIDDEN, IMove, Limit, Mode, State, apply
from engine.rules import is_safe_home

# The same-suit run from each king down to its ace, keyed by the king: rule 4's columns.
KING_RUNS = {13 * s + 12: bytes(range(13 * s + 12, 13 * s - 1, -1)) for s in range(4)}


def is_safe(mode: Mode, card: int, found: tuple[int, ...]) -> bool:
    """Rule 3: may ``card`` (a column top or a cell card whose foundation wants it next) go to
    its foundation without branching? :func:`engine.rules.is_safe_home`, the shared test."""
    return is_safe_home(mode.rules, card, found)


def settle(state: State, mode: Mode, out: list[IMove], limit: Limit) -> State:
    """Apply rules 3 and 4 until neither applies; the moves made are appended to ``out``."""
    changed = True
    while changed:
        changed = False
        cols, _down, cells, found = state
        for i, col in enumerate(cols):
            if col:
                t = col[-1]
                if found[t // 13] == t % 13 and is_safe(mode, t, found):
                    move = (t, i, len(col) - 1, FOUNDATION)
                    state = apply(state, move)
                    out.append(move)
                    changed = True
                    break
        if changed:
            continue
        for c in cells:
            if found[c // 13] == c % 13 and is_safe(mode, c, found):
                move = (c, CELL, 0, FOUNDATION)
                state = apply(state, move)
                out.append(move)
                changed = True
                break
        if changed:
            continue
        if mode.forced_successor:
            for j, col in enumerate(cols):
                if not col or col[-1] % 13 == 0 or col != KING_RUNS.get(col[0], b"")[: len(col)]:
                    continue
                c = col[-1] - 1
                for i, other in enumerate(cols):
                    if i == j:
                        continue
                    p = other.find(c)  # face-down cards are stored + 64: only face-up ones match
                    if p < 0:
                        continue
                    if len(other) - p > mode.max_group:
                        limit.refused += 1
                        break
                    move = (c, i, p, j)
                    state = apply(state, move)
                    out.append(move)
                    changed = True
                    break
                if changed:
                    break
    return state


def is_dead(state: State, mode: Mode) -> bool:
    """Rule 5: is some card on the table one that no line of play can ever move? Then the
    position is lost. The least set M of rule 5, built by propagation: a card joins M once its
    conditions hold, and each card that joins wakes up only the cards whose conditions it can
    complete (the card under it, the cards that fit on that one, the next card of its suit,
    the kings). It leaves out the free cells (where cells take any card it finds next to
    nothing), so it holds only for rule sets without them (:attr:`Mode.dead_check`)."""
    cols, _down, _cells, found = state
    below = [-1] * 52  # the card directly under a card in its column
    top = [False] * 52  # is, or can be, the top of its column (nothing on it, or that card in M)
    hidden = [False] * 52
    home = [True] * 52
    bottoms: list[int] = []
    king_room = False  # an empty column now
    for col in cols:
        if not col:
            king_room = True
            continue
        prev = -1
        for c in col:
            if c >= HIDDEN:
                c -= HIDDEN
                hidden[c] = True
            home[c] = False
            below[c] = prev
            prev = c
        top[prev] = True
        bottoms.append(col[0] & 63)
    same_suit = mode.same_suit
    # room[k]: a card x has a card to go on (home, or one that can be a top), with k = x + 1
    # in same-suit building and rank(x) + 1 in any-suit building.
    room = [False] * 53
    if same_suit:
        for d in range(52):
            if home[d] or top[d]:
                room[d] = True
    else:
        for d in range(52):
            if home[d] or top[d]:
                room[d % 13] = True
    low = [s * 13 + found[s] for s in range(4)]  # per suit: the lowest card not home, not in M
    moved = home[:]  # M, and the cards at home (they need no move)
    left = 52 - sum(found)
    work: list[int] = []
    wake: list[int] = list(range(52))
    while True:
        for x in wake:
            if moved[x] or (hidden[x] and not top[x]):
                continue
            if top[x] and low[x // 13] >= x:
                pass  # home
            elif x % 13 == 12:
                if not king_room and not any(b != x and moved[b] for b in bottoms):
                    continue
            elif not room[x + 1 if same_suit else x % 13 + 1]:
                continue
            moved[x] = True
            work.append(x)
        if not work:
            return left > 0
        y = work.pop()
        left -= 1
        wake = []
        z = below[y]
        if z >= 0:
            if not top[z]:
                top[z] = True
                wake.append(z)
                k = z if same_suit else z % 13
                if not room[k]:
                    room[k] = True
                    r = z % 13
                    if r:
                        wake.extend((z - 1,) if same_suit else (r - 1, r + 12, r + 25, r + 38))
        else:
            wake.extend((12, 25, 38, 51))  # its column can be empty: room for a king
        s = y // 13
        if low[s] == y:
            end = s * 13 + 13
            while low[s] < end and moved[low[s]]:
                low[s] += 1
            if low[s] < end:
                wake.append(low[s])
