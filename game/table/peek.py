"""A pressed card lifts at once (game.table.view draws it): on the finger's press, before any
movement, the face-up card under it and the cards lying on it rise a little over their pile
with a shadow, so the finger sees what it has taken in a dense fan; a release without moving
is still a tap."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from engine.cards import Card
from game.table.sprites import Piece, lift_offset

if TYPE_CHECKING:
    from game.table.chrome import Chrome, Seat

# The view's overlay: show on a piece what a key says (None: nothing), the image at a point.
Overlay = Callable[[Piece, object, "pygame.Surface | None", tuple[int, int]], None]


def sync_peek(
    scene: Seat,
    chrome: Chrome,
    pieces: tuple[Piece, Piece, Piece],
    overlay: Overlay,
    card: Card | None,
) -> None:
    """Show the pressed ``card`` (None: nothing pressed) lifted on ``pieces``: its shadow, its
    whole face, and over it, when cards lie on it, the group as it lies."""
    shadow_piece, face_piece, group_piece = pieces
    rest = scene.model.rest()
    if card is None or card in scene.model.moving() or not rest[card][2]:
        for piece in pieces:
            overlay(piece, None, None, (0, 0))
        return
    x, y, _ = rest[card]
    lift = lift_offset(scene.model.layout.card_h)
    at = (x - lift // 2, y - lift)
    art = chrome.art
    shadow = art.shadow()
    pad = (shadow.get_width() - art.width) // 2
    overlay(shadow_piece, (card, x, y), shadow, (x - pad, y - pad))
    overlay(face_piece, (card, x, y), art.face(card), at)
    cols = scene.model.game.cols
    pile, k = scene.model.game.locate(card)
    group = tuple(cols[pile][k:]) if pile < len(cols) else (card,)
    if len(group) < 2:
        overlay(group_piece, None, None, (0, 0))
        return
    image = chrome.lift_image(group, tuple(rest[c][1] - y for c in group))
    overlay(group_piece, (group, x, y), image, at)
