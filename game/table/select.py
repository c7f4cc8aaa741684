"""Tap, then tap where it goes (the "Tap to place" setting, off by default): choosing the exact
column or free cell without dragging a small card.

With the setting on, a plain tap on a card that cannot go home (and can be picked up) selects
it, lit with the cards lying on it; the next tap on a place (a column, anywhere down its zone, a
free cell, the foundations) moves it there through the table's ``make_move``, or shows why not
with the usual refusal. A tap on its own pile or anywhere else drops the selection (a button
still acts). A tap that sends a card home, a double tap, One tap moves and dragging keep their
meaning: the selection only takes the place of a plain tap's "cannot go home" answer, and ends
with any move, undo, new deal, drag or double tap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import pygame
from pygame import Rect

from engine import FOUNDATION, Game, IllegalMove, Move
from engine.cards import Card
from game.cards import HIGHLIGHT
from game.prefs import PlayerSettings
from game.table.gesture import LastTap
from game.table.places import Places

LIT_FILL = (255, 214, 64, 70)  # the selected group's glow over its faces
LIT_WIDTH = 5


@dataclass(frozen=True)
class Selection:
    card: Card
    key: tuple[Any, ...]  # the position it was chosen in
    tap: LastTap  # the tap that chose it: a later tap, drag or double tap replaces it


class Chosen(Protocol):
    """Where the choice is kept (game.table.state.TableState; the view reads it)."""

    game: Game
    places: Places
    selected: Selection | None
    last_tap: LastTap | None


class SelectHost(Chosen, Protocol):
    """What the selection needs of the table (game.table.scene.TableScene)."""

    def button_at(self, pos: tuple[int, int]) -> str | None: ...

    def card_at(self, pos: tuple[int, int]) -> Card | None: ...

    def make_move(self, move: Move) -> bool: ...

    def repaint(self) -> None: ...


def current(host: Chosen) -> Selection | None:
    """The selection, while it still holds: same position, and no tap, drag or double tap
    since the one that chose it."""
    sel = host.selected
    if sel is None or host.last_tap is not sel.tap or host.game.position_key() != sel.key:
        return None
    return sel


def tap(host: SelectHost, pos: tuple[int, int], settings: PlayerSettings) -> bool:
    """A tap with the setting on (TableScene.on_tap asks first): choose a card, or put the
    chosen one where the tap is. True when the tap is used up here; False when the table
    handles it as usual (the setting off, a button, a card going home, no card chosen)."""
    sel = current(host)
    if sel is not None:
        host.selected = None
        host.repaint()
        if host.button_at(pos) is not None:
            return False  # the button acts, the selection goes
        host.last_tap = None
        dest = host.places.drop_dest(Rect(pos, (1, 1)))
        pile = host.game.locate(sel.card)[0]
        if dest is not None and dest != pile:
            host.make_move(Move(sel.card, dest))  # or the usual refusal
        return True  # its own pile or no place: just dropped
    if not settings.tap_to_place or settings.one_tap or host.button_at(pos) is not None:
        return False
    card = host.card_at(pos)
    if card is None or host.game.locate(card)[0] == FOUNDATION:
        return False
    if host.game.tap_move(card) is not None:
        return False  # it goes home, as a tap always sends it
    try:
        host.game.lift(card)
    except IllegalMove:
        return False  # face down: the usual answer says why
    last = LastTap(card, False)  # a quick second tap is still a double tap on it
    host.last_tap = last
    host.selected = Selection(card, host.game.position_key(), last)
    host.repaint()
    return True


def lit_rect(host: Chosen) -> Rect | None:
    """What is lit: the selected card and the cards lying on it (they move with it)."""
    sel = current(host)
    return None if sel is None else host.places.group_rect(sel.card)


_images: dict[tuple[int, int, int], pygame.Surface] = {}


def lit_image(rect: Rect, radius: int) -> tuple[pygame.Surface, tuple[int, int]]:
    """The selection's light: a warm glow over the group and a thick outline round it, and
    where it goes."""
    key = (rect.width, rect.height, radius)
    image = _images.get(key)
    if image is None:
        _images.clear()  # one selection at a time
        out = 2 * LIT_WIDTH
        image = pygame.Surface((rect.width + out, rect.height + out), pygame.SRCALPHA)
        inner = Rect(LIT_WIDTH, LIT_WIDTH, rect.width, rect.height)
        pygame.draw.rect(image, LIT_FILL, inner, border_radius=radius)
        box = image.get_rect()
        pygame.draw.rect(image, HIGHLIGHT, box, LIT_WIDTH, border_radius=radius + LIT_WIDTH)
        _images[key] = image
    return image, (rect.left - LIT_WIDTH, rect.top - LIT_WIDTH)
