"""Where the table sends a card: a drop (with auto placement), a tap, a double tap. Pure
decisions on the engine's game; the table scene makes the move or refuses it
(docs/rules.md, "The app")."""

from __future__ import annotations

import math
from collections.abc import Callable

from pygame import Rect

from engine import Game, IllegalMove, Move


def drop_move(
    game: Game,
    card: int,
    dest: int | None,
    *,
    auto: bool,
    near: Callable[[Move], float],
) -> tuple[Move | None, IllegalMove | None]:
    """A card released over ``dest`` (None: over no place): the move to make, or why not.
    With ``auto`` (the "Auto placement" setting) a refused or aimless drop goes to the place
    nearest the drop that takes it (``near``: a move's distance)."""
    source = game.locate(card)[0]
    refusal: IllegalMove | None = None
    if dest is not None and dest != source:
        candidate = Move(card, dest)
        refusal = game.check(candidate)
        if refusal is None:
            return candidate, None
    back_home = dest == source  # put back where it was: the player changed their mind
    if not auto or back_home:
        return None, refusal
    move = game.auto_target(card, near=near)
    if move is None and refusal is None:
        refusal = game.why_stuck(card)
    return move, refusal


def distance_from(rect: Rect, where: Callable[[Move], Rect]) -> Callable[[Move], float]:
    """How far the place of a move (``where``) lies from ``rect``'s centre."""
    cx, cy = rect.center

    def distance(move: Move) -> float:
        target = where(move)
        return math.hypot(target.centerx - cx, target.centery - cy)

    return distance
