"""Finish: whether the rest of a game is certain, and the moves that play it out.

The rest is certain when every card is face up and a fixed procedure with no choice in it wins
from here (docs/rules.md, "Finish"): play the lowest card that can go home (ties in suit
order); when none can, park what lies on a card a foundation waits for, the one with the
fewest cards on it first (ties in suit order): the top card into a free cell, or a king with
the cards on it into an empty column (the move that lifts the most cards; ties to a free cell,
then the lowest numbered place); when no such card can be uncovered, a king in a free cell goes
to an empty column. Cards are never put on another column's card: where that would be needed,
the player has a choice to make, and the rest is not certain yet. The procedure never returns
to a position it has been in and gives up where it finds no move.

Foundation moves never stand in each other's way, so where they alone win the procedure finds
them (a table of descending runs, say); free cells and empty columns count as the room they
are. Every move is checked by the engine's own rules (``Game.check``) on a copy of the game, so
the moves returned are legal one after another and end in a win; the game asked about does not
change.
"""

from __future__ import annotations

from engine.cards import KING, Card, rank
from engine.game import CELL0, EMPTY, Game, Move
from engine.moves import FOUNDATION

MOST_MOVES = 400  # no finish is longer: the procedure gives up (52 cards home, the rest digs)


def finish_line(game: Game) -> list[Move] | None:
    """The moves that finish ``game`` when the rest is certain, else None (a face-down card
    left, the procedure stuck, or the game already won). Changes nothing.

    >>> from engine import Game
    >>> from engine.search.solver import solve
    >>> game = Game.from_code("SH1-C4-AAAAAJ2")
    >>> finish_line(game) is None  # a fresh deal: far from certain
    True
    >>> for move in solve(game, node_limit=2000).moves[:-8]:
    ...     _ = game.play(move)
    >>> [str(move) for move in finish_line(game)]  # the spades left, home in order
    ['6S-f', '7S-f', '8S-f', '9S-f', 'TS-f', 'JS-f', 'QS-f', 'KS-f']
    """
    if game.is_won or any(game.down):
        return None
    trial = game.copy()
    seen = {trial.position_key()}
    moves: list[Move] = []
    while not trial.is_won:
        move = going_home(trial) or digging(trial)
        if move is None or trial.check(move) is not None or len(moves) >= MOST_MOVES:
            return None
        trial.push(move)
        key = trial.position_key()
        if key in seen:
            return None
        seen.add(key)
        moves.append(move)
    return moves


def suit_of(card: Card) -> int:
    return card // KING


def going_home(game: Game) -> Move | None:
    """The lowest card on top of a column or in a free cell that goes home now (ties in suit
    order), as a move; None when no card can."""
    tops = [col[-1] for col in game.cols if col] + [c for c in game.cells if c != EMPTY]
    ready = [card for card in tops if game.found[suit_of(card)] == rank(card) - 1]
    if not ready:
        return None
    return Move(min(ready, key=lambda c: (rank(c), suit_of(c))), FOUNDATION)


def digging(game: Game) -> Move | None:
    """The parking move that uncovers a card a foundation waits for (see the module's text),
    or None."""
    wanted = [suit * KING + count for suit, count in enumerate(game.found) if count < KING]
    buried = []
    for card in wanted:
        pile, pos = game.locate(card)
        if pile < FOUNDATION:
            buried.append((len(game.cols[pile]) - 1 - pos, suit_of(card), pile, pos))
    parking = [m for m in game.legal_moves() if m.dest >= CELL0 or not game.cols[m.dest]]
    parking = [m for m in parking if m.dest != FOUNDATION and not game.is_pointless(m)]
    for _, _, pile, pos in sorted(buried):
        lifts = [(game.locate(m.card), m) for m in parking]
        off = [(at, m) for at, m in lifts if at[0] == pile and at[1] > pos]
        if off:
            return min(off, key=lambda o: (o[0][1], o[1].dest < FOUNDATION, o[1].dest))[1]
    from_cells = [m for m in parking if game.locate(m.card)[0] >= CELL0]
    return min(from_cells, key=lambda m: (m.card, m.dest), default=None)
