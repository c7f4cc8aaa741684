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

from collections.abc import Callable
from dataclasses import dataclass

import pygame
from pygame import Rect

from engine import FOUNDATION, IllegalMove, Move
from engine.cards import Card
from engine.game import PositionKey
from game.look.cards import HIGHLIGHT
from game.saves.prefs import PlayerSettings
from game.table.gesture import LastTap
from game.table.model import TableModel

LIT_FILL = (255, 214, 64, 70)  # the selected group's glow over its faces
LIT_WIDTH = 5


@dataclass(frozen=True)
class Selection:
    card: Card
    key: PositionKey  # the position it was chosen in
    tap: LastTap  # the tap that chose it: a later tap, drag or double tap replaces it


class Chooser:
    """The card a tap chose (the table's, read by the view): made after the table's
    ``model`` (its game, where the cards lie, the last tap) and given the table's one way to
    make a move (``play``: its ``make_move``) and what lies under a point (``button_at``,
    ``card_at``)."""

    def __init__(
        self,
        model: TableModel,
        *,
        play: Callable[[Move], bool],
        button_at: Callable[[tuple[int, int]], str | None],
        card_at: Callable[[tuple[int, int]], Card | None],
    ) -> None:
        self.model, self.play, self.button_at, self.card_at = model, play, button_at, card_at
        self.selection: Selection | None = None

    def drop(self) -> None:
        """No card is chosen any more (the kiosk's next visitor)."""
        self.selection = None

    def current(self) -> Selection | None:
        """The choice, while it holds: same position, and no tap, drag or double tap since
        the one that chose it (the table's last tap is still that one)."""
        sel, model = self.selection, self.model
        if sel is None or model.last_tap is not sel.tap or model.game.position_key() != sel.key:
            return None
        return sel

    def tap(self, pos: tuple[int, int], settings: PlayerSettings) -> tuple[bool, LastTap | None]:
        """A tap (touch.on_tap asks first): choose a card, or put the chosen one where the
        tap is. Returns whether the tap is used up here, and then the table's new last tap;
        not used: the table handles it as usual (the setting off, a button, a card going
        home, nothing to choose)."""
        model, sel = self.model, self.current()
        if sel is not None:
            self.selection = None
            model.repaint()
            if self.button_at(pos) is not None:
                return False, None  # the button acts, the choice goes
            dest = model.places.drop_dest(Rect(pos, (1, 1)))
            if dest is not None and dest != model.game.locate(sel.card)[0]:
                self.play(Move(sel.card, dest))  # or the usual refusal
            return True, None  # its own pile or no place: just dropped
        if not settings.tap_to_place or settings.one_tap or self.button_at(pos) is not None:
            return False, None
        card = self.card_at(pos)
        if card is None or model.game.locate(card)[0] == FOUNDATION:
            return False, None
        if model.game.tap_move(card) is not None:
            return False, None  # it goes home, as a tap always sends it
        try:
            model.game.lift(card)
        except IllegalMove:
            return False, None  # face down: the usual answer says why
        last = LastTap(card, False)  # a quick second tap is still a double tap on it
        self.selection = Selection(card, model.game.position_key(), last)
        model.repaint()
        return True, last

    def targets(self) -> tuple[Card, frozenset[int]] | None:
        """The chosen card and the piles that take it (placement help shows them)."""
        sel = self.current()
        if sel is None:
            return None
        return sel.card, frozenset(m.dest for m in self.model.game.targets(sel.card))

    def lit(self) -> Rect | None:
        """What is lit: the chosen card and the cards lying on it (they move with it)."""
        sel = self.current()
        return None if sel is None else self.model.places.group_rect(sel.card)


class LitImage:
    """The selection's light as drawn (the view's): made again only when the chosen group's
    size or the cards' corners change (one selection at a time)."""

    def __init__(self) -> None:
        self.key: tuple[int, int, int] | None = None
        self.image: pygame.Surface | None = None

    def __call__(self, rect: Rect, radius: int) -> tuple[pygame.Surface, tuple[int, int]]:
        """A warm glow over the group and a thick outline round it, and where it goes."""
        key = (rect.width, rect.height, radius)
        image = self.image
        if image is None or key != self.key:
            out = 2 * LIT_WIDTH
            image = pygame.Surface((rect.width + out, rect.height + out), pygame.SRCALPHA)
            inner = Rect(LIT_WIDTH, LIT_WIDTH, rect.width, rect.height)
            pygame.draw.rect(image, LIT_FILL, inner, border_radius=radius)
            box = image.get_rect()
            pygame.draw.rect(image, HIGHLIGHT, box, LIT_WIDTH, border_radius=radius + LIT_WIDTH)
            self.key, self.image = key, image
        return image, (rect.left - LIT_WIDTH, rect.top - LIT_WIDTH)
