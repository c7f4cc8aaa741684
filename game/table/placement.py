"""Where the table sends a card: a drop (with auto placement), a tap, a double tap. Pure
decisions on the engine's game; the table model makes the move or refuses it
(docs/rules.md, "The app"). Each move returned here is legal, checked once (``Game.check``) or
taken from the engine's legal moves: the model pushes it unchecked (``TableModel.push_move``).
A single tap (the "One tap moves" setting off) is the engine's own ``Game.tap_move``.

Taps: a single tap acts at once (a card to its foundation; with "One tap moves", to its place).
The double tap that may follow belongs to the card the first tap touched: when the first tap
already moved it, the double tap does nothing (it never takes the card back from its
foundation or acts on whatever now lies there)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from engine import FOUNDATION, Game, IllegalMove, Move
from engine.cards import Card, is_king

if TYPE_CHECKING:
    from pygame import Rect


class Drop(NamedTuple):
    move: Move | None  # the move to make
    refusal: IllegalMove | None  # else why not
    aimed: Move | None  # the move the player aimed at (the refused one), if any


def drop_move(
    game: Game, card: Card, dest: int | None, *, auto: bool, near: Callable[[Move], float]
) -> Drop:
    """A card released over ``dest`` (None: over no place): the move to make, or why not.
    With ``auto`` (the "Auto placement" setting) a refused or aimless drop goes to the column
    nearest the drop that takes it (``near``: a move's distance); never to a free cell or a
    foundation the player did not aim at (seed 000: auto placement chooses the column)."""
    source = game.locate(card)[0]
    refusal: IllegalMove | None = None
    aimed = None
    if dest is not None and dest != source:
        aimed = Move(card, dest)
        refusal = game.check(aimed)
        if refusal is None:
            return Drop(aimed, None, aimed)
    back_home = dest == source  # put back where it was: the player changed their mind
    if not auto or back_home:
        return Drop(None, refusal, aimed)
    move = game.auto_target(card, near=near)
    if move is None and refusal is None:
        refusal = game.why_stuck(card)
    return Drop(move, refusal, aimed)


def settled_king(game: Game, card: Card) -> bool:
    """A king at the bottom of its column: already where a king belongs."""
    pile, pos = game.locate(card)
    return is_king(card) and pile < FOUNDATION and pos == 0


def double_tap_move(game: Game, card: Card) -> Move | None:
    """Where a double tap (or, with "One tap moves", a single tap: seed 003) sends ``card``
    with what lies on it: the double-tap order of seeds 000/004 (foundation, longest fitting
    column, empty column for a king, free cell last), except that a king at the bottom of its
    column goes only home (to a free cell it would be a pointless move)."""
    if settled_king(game, card):
        return game.tap_move(card)
    return game.double_tap_move(card)


def distance_from(rect: Rect, where: Callable[[Move], Rect]) -> Callable[[Move], float]:
    """How far the place of a move (``where``) lies from ``rect``'s centre."""
    cx, cy = rect.center

    def distance(move: Move) -> float:
        target = where(move)
        return math.hypot(target.centerx - cx, target.centery - cy)

    return distance
