"""What the table shows, owned by the table scene (game.table.scene.TableScene holds one
:class:`TableModel` as ``table.model``, the one place each of these fields is reached): the
game and its play time, where the cards lie, what moves (tweens, a drag), the toast, a
refusal's marks, a tap's pending answer. The scene's helpers (hints, finish, select) are made
after it and get it; the sprite layer
(game.table.view) and its images (game.table.chrome) read it and change nothing in it.

It also says when it next changes by itself (:meth:`TableModel.deadline`), so that the loop can
sleep until then (game.app.App.run).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from engine import Game
from engine.cards import Card
from game.clock import PlayTime

if TYPE_CHECKING:
    from pygame import Rect

    from game.arcade.levels import Deal
    from game.look.layout import Command, Layout
    from game.table.animation import Pos, Tween
    from game.table.feedback import PendingRefusal
    from game.table.gesture import Drag, LastTap
    from game.table.places import Places, Rest
    from game.table.toast import Toast

BLINK_HZ = 3  # the hinted move's outline blinks on and off three times a second
HOLD_PAUSE = 1.5  # seconds without a touch on a held column before it spreads out again


class Board(Protocol):
    """The geometry the model asks of the screen (game.table.toast.ScreenBoard serves it, with
    pygame's Rects): where the cards of a position lie, how they glide from where they lay,
    and where a message goes. The model itself imports no pygame."""

    def places(self, game: Game, layout: Layout, held: dict[int, dict[Card, int]]) -> Places:
        """Where ``game``'s cards lie on ``layout`` (``held``: columns kept as they lay)."""
        ...

    def glides(
        self,
        before: dict[Card, Rest],
        piles: dict[Card, int],
        after: Places,
        origin: dict[Card, Pos],
        now: float,
    ) -> list[Tween]:
        """The glides from ``before`` (in ``piles``; a dragged group from ``origin``) to
        ``after``."""
        ...

    def toast(
        self, text: str, layout: Layout, now: float, places: Places, named: list[Rect]
    ) -> Toast:
        """``text`` in a box over free felt of ``places``, clear of ``named``."""
        ...


class TableModel:
    """The table's state and what the view asks of it that needs nothing else."""

    def __init__(
        self,
        game: Game,
        layout: Layout,
        deal: Deal,
        deal_day: dt.date | None,
        play_time: PlayTime | None = None,
        *,
        board: Board,
    ) -> None:
        """``deal``: the kind of deal ("easy" .. "hard", "winnable", "random", "daily", "example");
        ``deal_day``: the day whose deal ``game`` is, or None; ``play_time``: the game's play
        time (the visitor's table: the one the session saves; None: a new one); ``board``: the
        screen's geometry (:class:`Board`)."""
        self.board = board
        self.game = game
        self.play_time = play_time if play_time is not None else PlayTime()
        self.active = True
        self.tweens: list[Tween] = []
        self.drag: Drag | None = None
        self.toast: Toast | None = None
        self.last_tap: LastTap | None = None
        self.deal = deal
        self.deal_day = deal_day
        self.first_line = not game.moves  # a fresh start: how to play, until the first move
        # A won game stays won: restored after a quit, it opens on its win screen again.
        self.pending_win = game.is_won
        self.pressed_button: Command | None = None
        self.pressed_card: Card | None = None  # under a finger that is down: shown lifted
        self.pending_refusal: PendingRefusal | None = None  # a tap's answer, after its window
        self.marks: tuple[Card, ...] = ()  # cards a refusal points at, shown until marks_until
        self.marks_until = 0.0
        self.version = 0  # the resting picture's version: the view rebuilds when it changes
        self.layout = layout
        self.places = board.places(game, layout, {})
        # The column under the finger keeps its spacing while cards leave it (Places.held):
        # the column last pressed, the held columns' cards where they lay, and until when.
        self.touched_column: int | None = None
        self.held: dict[int, dict[Card, int]] = {}
        self.held_until = 0.0
        self._held_on: tuple[Game, Layout] | None = None  # held on this game and layout only

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
        return self.board.glides(rest, piles, after, {}, now)

    def moving(self) -> set[Card]:
        cards = {t.card for t in self.tweens}
        if self.drag:
            cards.update(self.drag.group)
        return cards

    def show_toast(
        self, text: str, avoid: Sequence[Rect], now: float, hinted: Sequence[Rect] = ()
    ) -> None:
        """``text`` in a box where the play is not (game.table.toast): over free felt where
        there is any, and never over ``avoid`` (the cards a message is about), ``hinted`` (a
        hint's cards and their place) or the card under the last tap."""
        named = [*avoid, *hinted]
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

    def forget_touch(self) -> None:
        """Nothing of the last visitor's touch stays: a drag, the glides, a toast, the last tap,
        a pressed button or card, a refusal's marks and pending answer, a held column; a game
        without a move shows its first line again."""
        self.tweens, self.drag, self.toast, self.last_tap = [], None, None, None
        self.pressed_button, self.pressed_card, self.pending_refusal = None, None, None
        self.marks, self.marks_until = (), 0.0
        self.first_line = not self.game.moves
        self.touched_column, self.held, self.held_until, self._held_on = None, {}, 0.0, None
        self.changed()

    def clock_runs(self) -> bool:
        """Whether the play time runs now: a game with moves, not won, the table on top (the
        update ticks it, and the loop wakes for the info bar's next second)."""
        game = self.game
        return self.active and bool(game.moves) and not game.is_won and self.play_time.running

    def deadline(self, now: float, hint: float | None, blinking: bool) -> float | None:
        """When the table next changes by itself: a toast or the outlines going, the hint's
        blink (``blinking``) or its own deadline (``hint``), a tap's pending answer, the info
        bar's clock."""
        times = [self.marks_until if self.marks else None, hint]
        times.append(self.held_until if self.held else None)
        if self.toast is not None:
            times.append(self.toast.until)
        if self.pending_refusal is not None:
            times.append(self.pending_refusal.due)
        if blinking:
            times.append((int(now * BLINK_HZ) + 1) / BLINK_HZ)
        if self.clock_runs():
            times.append(now + 1.0 - self.play_time.seconds % 1.0)  # the clock's next second
        return min((t for t in times if t is not None), default=None)
