"""Why the solver may skip moves and still be exact, and the rules that act on it: settling
(rules 3 and 4, :func:`settle`) and dead positions (rule 5, :func:`is_dead`). The lemmas and
rules are numbered as the searches of :mod:`engine.search.solver` and the move generator of
:mod:`engine.search.ordering` cite them.

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
every card that any line of play from the position ever moves, and a set H in M of the cards
that any line puts home, as the least sets closed under the conditions below. They are
necessary conditions of a card's first move (of its first move home, for H), so induction on
the time of those first moves shows that every card moved in any line is in M. Two facts about
one column carry the argument. (a) A card stays directly on the card under it until it moves
itself: a move of a lower card carries it along. (b) Cards below ``x`` in its column stay
below ``x``, and cards above it stay above it, until a card between them moves (or ``x``, or the
other card itself, where the move is theirs): any other move carries both or neither.

- ``x`` can be face up: it is, or the card now directly on it is in M (a hidden card turns up
  only when that card leaves it, by (a)).
- ``x`` is in H when it can be a top (nothing is on it, or the card now on it is in M, by (a))
  and every lower card ``z`` of its suit not home is in H (each went home before ``x``), and,
  where ``z`` lies below ``x`` in its column, some card between them, or ``x`` itself when it
  is in M, is in M: by (b), ``z`` is under ``x`` until such a move, and cannot go home there.
- ``x`` is in M when it is in H, or when it has a place for a first move: an empty column for a
  king (one is empty now, or the bottom card of another column is in M: a column empties only
  by a move of its bottom card); or a card ``t`` it fits on that can be a top then: ``t`` is
  on a foundation (it may be taken back), or it can be a top (as above) and, where ``t`` lies
  in ``x``'s column, it no longer does at ``x``'s first move: below ``x``, some card strictly
  between them is in M (``t`` itself moving would carry ``x``); above ``x``, some card
  between them or ``t`` itself is in M (else ``t`` is in the group ``x`` carries), by (b).

So if some card on the table is not in M, no line wins: the position is lost. The search drops
such positions without looking further (their successors are lost too), which keeps ``lost``
a proof. H and the column facts make the rule much stronger where building ignores suits: a 9
whose
only 10s are under it in its column, or on the cards it carries, has no place, however many
10s move elsewhere, and a card can go home only after the lower cards of its suit can go home,
not merely move; a first version without them (a card went home when the lower ones were in M,
and a rank had a place when any card of the next rank could be a top) proved 113 of 341 hard
relaxed deals lost at once, this one 137. Free cells are left out (where cells take any card
it finds next to nothing), so it holds only for rule sets without them
(:attr:`Mode.dead_check`).

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

from engine.cards import DECK, IS_ACE, IS_KING, is_king
from engine.moves import CELL, FOUNDATION, IMove, Limit, Mode
from engine.rules import is_safe_home
from engine.search.position import HIDDEN, Cols, State, apply

# The same-suit run from each king down to its ace, keyed by the king: rule 4's columns.
KING_RUNS = {king: bytes(range(king, king - 13, -1)) for king in DECK if is_king(king)}


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
                if not col or IS_ACE[col[-1]] or col != KING_RUNS.get(col[0], b"")[: len(col)]:
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


Layout = tuple[list[int], list[int], list[int], list[bool], list[bool]]


def _layout(cols: Cols) -> Layout:
    """Per card: its column (-1: home), its place there from the bottom, the card directly
    on it (-1: none), whether it is face down, whether it is home."""
    where = [-1] * 52
    at = [0] * 52
    on = [-1] * 52
    hidden = [False] * 52
    home = [True] * 52
    for i, col in enumerate(cols):
        prev = -1
        for p, c in enumerate(col):
            if c >= HIDDEN:
                c -= HIDDEN
                hidden[c] = True
            home[c] = False
            where[c] = i
            at[c] = p
            if prev >= 0:
                on[prev] = c
            prev = c
    return where, at, on, hidden, home


def is_dead(state: State, mode: Mode) -> bool:
    """Rule 5: is some card on the table one that no line of play can ever move? Then the
    position is lost. Builds the least sets M (cards some line moves) and H (cards some line
    puts home, a part of M) of rule 5 by passes over the cards still outside them, until a pass
    adds none."""
    cols, _down, _cells, found = state
    where, at, on, hidden, home = _layout(cols)
    bottoms = [col[0] & 63 for col in cols if col]
    king_room = len(bottoms) < len(cols)  # an empty column now
    moved = home[:]  # M, and the cards at home (they need no move)
    nxt = [s * 13 + found[s] for s in range(4)]  # per suit: the lowest card not in H
    same_suit = mode.same_suit

    def apart(i: int, lo: int, hi: int) -> bool:
        """Some card at places ``lo .. hi - 1`` of column ``i`` is in M (a move of it parts
        the cards below those places from the ones above)."""
        col = cols[i]
        return any(moved[col[p] & 63] for p in range(lo, hi))

    def target(t: int, x: int) -> bool:
        """Can ``t`` be a top that ``x`` goes on, at ``x``'s first move?"""
        if home[t]:
            return True
        w = on[t]
        if w >= 0 and not moved[w]:
            return False
        i = where[x]
        if where[t] != i:
            return True
        if at[t] < at[x]:
            return apart(i, at[t] + 1, at[x])
        return apart(i, at[x] + 1, at[t] + 1)

    def homeward(x: int) -> bool:
        """Can ``x``, whose lower cards of its suit are all in H, go home: can it be face up
        and a top, with every lower card of its suit parted from under it?"""
        w = on[x]  # a hidden card always has one
        if w >= 0 and not moved[w]:
            return False
        i = where[x]
        for z in range(x - x % 13, x):
            below = not home[z] and where[z] == i and at[z] < at[x]
            if below and not apart(i, at[z] + 1, at[x] + moved[x]):
                return False
        return True

    pending = [c for c in range(52) if not home[c]]
    left = len(pending)  # table cards not in M
    changed = True
    while changed and left:
        changed = False
        for s in range(4):
            x = nxt[s]
            while x < 13 * s + 13 and homeward(x):
                if not moved[x]:
                    moved[x] = True
                    left -= 1
                changed = True
                x += 1
            nxt[s] = x
        rest: list[int] = []
        for x in pending:
            if moved[x]:
                continue
            w = on[x]
            if hidden[x] and not moved[w]:
                rest.append(x)
                continue
            r = x % 13
            if IS_KING[x]:
                ok = king_room or any(b != x and moved[b] for b in bottoms)
            elif same_suit:
                ok = target(x + 1, x)
            else:
                ok = target(r + 1, x) or target(r + 14, x) or target(r + 27, x) or target(r + 40, x)
            if ok:
                moved[x] = True
                left -= 1
                changed = True
            else:
                rest.append(x)
        pending = rest
    return left > 0
