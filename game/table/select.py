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
from typing import TYPE_CHECKING

from engine import FOUNDATION, IllegalMove, Move
from engine.cards import Card
from engine.game import PositionKey
from game.table.gesture import LastTap

if TYPE_CHECKING:
    from pygame import Rect

    from game.table.around import Parts


@dataclass(frozen=True)
class Selection:
    card: Card
    key: PositionKey  # the position it was chosen in
    tap: LastTap  # the tap that chose it: a later tap, drag or double tap replaces it


class Chooser:
    """The card a tap chose, a part of the table's ``model`` (its game, where the cards lie,
    the last tap, its one way to make a move: ``make_move``), read by the view (lit, and the
    places that take it). What lies under a tap is the scene's to say (:meth:`tap`)."""

    def __init__(self, model: Parts) -> None:
        self.model = model
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

    def tap(
        self, button: str | None, card: Card | None, pile: int | None
    ) -> tuple[bool, LastTap | None]:
        """A tap (TableModel.tap_at asks first) on ``button`` (None: on none), ``card`` (the
        card drawn there, or None) and ``pile`` (the place under it, or None): choose a card,
        or put the chosen one where the tap is. Returns whether the tap is used up here, and
        then the table's new last tap; not used: the table handles it as usual (the setting
        off, a button, a card going home, nothing to choose)."""
        model, sel = self.model, self.current()
        if sel is not None:
            self.selection = None
            model.repaint()
            if button is not None:
                return False, None  # the button acts, the choice goes
            if pile is not None and pile != model.game.locate(sel.card)[0]:
                model.make_move(Move(sel.card, pile))  # or the usual refusal
            return True, None  # its own pile or no place: just dropped
        settings = model.outside.settings
        if not settings.tap_to_place or settings.one_tap or button is not None:
            return False, None
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
