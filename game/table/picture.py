"""What the table shows, the base of the table model (game.table.model.TableModel): where the
cards lie on the laid-out table (``places``, from the screen's geometry: game.table.around.Board),
what moves over them (glides, a drag), the toast, a refusal's marks, a column held under the
finger, and the picture's version the view rebuilds on. The sprite layer (game.table.view) and
its images (game.table.chrome) read it and change nothing in it. No pygame here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine import Game
from engine.cards import Card
from game.table.animation import Tween, change_tweens
from game.table.gesture import Drag, LastTap

if TYPE_CHECKING:
    from pygame import Rect

    from game.look.layout import Layout
    from game.table.around import Board, Outside, Toast
    from game.table.places import Rest

HOLD_PAUSE = 1.5  # seconds without a touch on a held column before it spreads out again


class TablePicture:
    """Where the cards lie and what shows over them; the commands that change it are the
    model's (game.table.model.TableModel: its ``game``, ``last_tap`` and hint are its own)."""

    game: Game
    last_tap: LastTap | None

    def __init__(self, game: Game, layout: Layout, board: Board, outside: Outside) -> None:
        """``board``: the screen's geometry; ``outside``: the clock and the language, and what
        the commands report to (game.table.around)."""
        self.game, self.layout, self.board, self.outside = game, layout, board, outside
        self.tweens: list[Tween] = []
        self.drag: Drag | None = None
        self.toast: Toast | None = None
        self.marks: tuple[Card, ...] = ()  # cards a refusal points at, shown until marks_until
        self.marks_until = 0.0
        self.version = 0  # the resting picture's version: the view rebuilds when it changes
        self.places = board.places(game, layout, {})
        # The column under the finger keeps its spacing while cards leave it (Places.held):
        # the column last pressed, the held columns' cards where they lay, and until when.
        self.touched_column: int | None = None
        self.held: dict[int, dict[Card, int]] = {}
        self.held_until = 0.0
        self._held_on: tuple[Game, Layout] | None = None  # held on this game and layout only

    def hinted(self) -> list[Rect]:
        """The cards a hint names and their place, kept clear of a message (the model's)."""
        return []

    def rest(self) -> dict[Card, Rest]:
        """Where every card lies when nothing moves: (x, y, face up)."""
        return self.places.rest()

    def card_rect(self, card: Card) -> Rect:
        return self.places.card_rect(card)

    def repaint(self) -> None:
        """The resting picture changed (cards, highlights, buttons): the view rebuilds it."""
        self.version += 1

    def changed(self) -> None:
        """The position changed: the cards lie elsewhere (a held column's where they lay)."""
        if self._held_on != (self.game, self.layout):  # a new deal or size: nothing held
            self.held = {}
        self.places = self.board.places(self.game, self.layout, self.held)
        self.repaint()

    def press(self, pos: tuple[int, int], now: float) -> None:
        """A finger comes down at ``pos``: on a held column it stays held a while longer."""
        zones = [self.layout.column_zone(i) for i in range(len(self.layout.columns))]
        self.touched_column = next((i for i, z in enumerate(zones) if z.collidepoint(pos)), None)
        if self.touched_column in self.held:
            self.held_until = now + HOLD_PAUSE

    def lifted(self, now: float) -> list[Tween]:
        """The finger's gesture ended (its tap or drop done): a column held while the finger
        worked elsewhere spreads out now, gliding (a glide begun while the finger was down
        would be cut short by the tap's own start)."""
        return [] if self.touched_column in self.held else self.let_go(now)

    def hold(self, before: dict[Card, Rest], piles: dict[Card, int], now: float) -> None:
        """Before a change is shown: the column under the finger, if it only loses cards,
        keeps them where they lie (``before``, ``piles``: where each card lay, in which pile)."""
        i = self.touched_column
        if i is None or i >= len(self.game.cols):
            return
        col, was = self.game.cols[i], [c for c, pile in piles.items() if pile == i]
        if col and len(col) < len(was) and all(piles.get(card) == i for card in col):
            self.held[i] = {card: before[card][1] for card in was}
            self.held_until = now + HOLD_PAUSE
            self._held_on = (self.game, self.layout)

    def let_go(self, now: float) -> list[Tween]:
        """Every held column spreads out as its fan says: the glides there (none held: none)."""
        if not self.held:
            return []
        rest, piles = dict(self.rest()), self.places.piles()
        self.held = {}
        self.changed()
        after = self.places
        return change_tweens(rest, piles, after.rest(), after.piles(), {}, now, self.layout)

    def moving(self) -> set[Card]:
        cards = {t.card for t in self.tweens}
        if self.drag:
            cards.update(self.drag.group)
        return cards

    def show_toast(self, text: str, avoid: Sequence[Rect] = ()) -> None:
        """``text`` in a box where the play is not (game.table.toast): over free felt where
        there is any, and never over ``avoid`` (the cards a message is about), a hint's cards
        and their place, or the card under the last tap."""
        named, now = [*avoid, *self.hinted()], self.outside.now()
        touched = self.last_tap.card if self.last_tap is not None else None
        if touched is not None and touched in self.rest():
            named.append(self.places.group_rect(touched))
        self.toast = self.board.toast(text, self.layout, now, self.places, named)

    def drop_toast(self, text: str) -> None:
        """The toast goes if it says ``text``."""
        if self.toast is not None and self.toast.text == text:
            self.toast = None

    def keep_toast(self, text: str, until: float) -> None:
        """The toast stays at least until ``until`` if it says ``text``."""
        if self.toast is not None and self.toast.text == text:
            self.toast.until = max(self.toast.until, until)

    def finish_tweens(self) -> None:
        """New input: every running animation jumps to its end."""
        self.marks = ()
        if self.tweens:
            self.tweens = []
            self.repaint()
