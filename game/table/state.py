"""What the table shows, owned by the table scene: the game and its play time, where the cards
lie, what moves (tweens, a drag), the toast, a refusal's marks, a tap's pending answer, the
hint. :class:`TableState` is the table scene's base (game.table.scene.TableScene adds the
commands and the gestures); the sprite layer (game.table.view) and its images
(game.table.chrome) read it and change nothing in it.

It also says when the table next changes by itself (:meth:`TableState.deadline`), so that the
loop can sleep until then (game.app.App.run).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pygame import Rect

from engine import Game
from engine.cards import Card
from game.clock import PlayTime
from game.look.layout import Layout
from game.scene import Scene
from game.table.animation import Tween
from game.table.feedback import PendingRefusal
from game.table.finish import Finisher, shown_buttons
from game.table.flow import deal_day, deal_label
from game.table.gesture import Drag, LastTap
from game.table.hints import HintClient, HintJob, HintMark
from game.table.places import Places, Rest
from game.table.select import Chooser
from game.table.toast import Toast, make_toast

if TYPE_CHECKING:
    from collections.abc import Callable

    from game.host import Host

BLINK_HZ = 3  # the hinted move's outline blinks on and off three times a second


class TableState(Scene):
    """The table's state and what the view asks of it."""

    def __init__(
        self,
        app: Host,
        game: Game,
        *,
        pictures: bool = False,
        least_text: Callable[[], int] = lambda: 0,
    ) -> None:
        """How it shows itself is its own: ``pictures``, its buttons do nothing here (a demo's
        table) and are drawn flat; ``least_text``, the smallest text size (px) it may draw its
        words at (0: its layout's own; an Examples table's is the visitor's info bar text)."""
        super().__init__(app)
        self.buttons_are_pictures = pictures
        self.least_text = least_text
        self.game = game
        self.play_time = PlayTime()
        self.active = True
        self.tweens: list[Tween] = []
        self.drag: Drag | None = None
        self.toast: Toast | None = None
        self.last_tap: LastTap | None = None
        self.deal = app.games.level_of(game)  # "easy" .. "hard", "winnable", "random"
        self.deal_day = deal_day(app, game, self.deal)  # the day's deal of that date, or None
        self.first_line = not game.moves  # a fresh start: how to play, until the first move
        # A won game stays won: restored after a quit, it opens on its win screen again.
        self.pending_win = game.is_won
        self.pressed_button: str | None = None
        self.pressed_card: Card | None = None  # under a finger that is down: shown lifted
        self.pending_refusal: PendingRefusal | None = None  # a tap's answer, after its window
        self.marks: tuple[Card, ...] = ()  # cards a refusal points at, shown until marks_until
        self.marks_until = 0.0
        self.version = 0  # the resting picture's version: the view rebuilds when it changes
        self.layout: Layout
        self.places: Places
        self.hints: HintClient  # the table scene's, made before this runs
        self.finisher: Finisher  # the Finish button's run: the table scene's, likewise
        self.chooser: Chooser  # the card "Tap to place" chose: the table scene's, likewise

    def rest(self) -> dict[Card, Rest]:
        """Where every card lies when nothing moves: (x, y, face up)."""
        return self.places.rest()

    def card_rect(self, card: Card) -> Rect:
        return self.places.card_rect(card)

    def shown_buttons(self) -> dict[str, Rect]:
        """The table's buttons as shown now, by action name (Finish in Hint's place while the
        rest of the game is certain: game.table.finish)."""
        return shown_buttons(self.finisher.offered(), self.layout)

    def finish_offered(self) -> bool:
        """Whether Finish is shown in Hint's place (game.table.finish)."""
        return self.finisher.offered()

    def button_at(self, pos: tuple[int, int]) -> str | None:
        for name, rect in self.shown_buttons().items():
            if rect.collidepoint(pos):
                return name
        return None

    @property
    def hint_mark(self) -> HintMark | None:
        return self.hints.mark

    @property
    def hint_job(self) -> HintJob | None:
        return self.hints.job

    @property
    def indicator_status(self) -> str:
        return self.hints.status

    def repaint(self) -> None:
        """The resting picture changed (cards, highlights, buttons): the view rebuilds it."""
        self.version += 1

    def changed(self) -> None:
        """The position changed: the cards lie elsewhere."""
        self.places = Places(self.game, self.layout)
        self.repaint()

    def moving(self) -> set[Card]:
        cards = {t.card for t in self.tweens}
        if self.drag:
            cards.update(self.drag.group)
        return cards

    def bar_text(self) -> tuple[str, ...]:
        tr = self.tr
        return (
            tr("table.time", time=self.play_time.text()),
            tr("table.moves", count=self.game.moves),
            tr("table.score", score=self.game.score),
            self.game.code,
            self.hints.label(),
        )

    def show_toast(self, text: str, avoid: Sequence[Rect] = ()) -> None:
        """``text`` in a box where the play is not: clear of ``avoid`` (the cards a message is
        about)."""
        mark, lowest = self.hints.mark, self.places.lowest_card()
        if mark is not None:  # a hint's words never cover the cards it points at
            avoid = [
                *avoid,
                self.places.group_rect(mark.move.card),
                self.places.move_rect(mark.move),
            ]
        self.toast = make_toast(text, self.layout, lowest, self.app.clock.time, avoid)

    def drop_toast(self, text: str) -> None:
        """The toast goes if it says ``text``."""
        if self.toast is not None and self.toast.text == text:
            self.toast = None

    def keep_toast(self, text: str, until: float) -> None:
        """The toast stays at least until ``until`` if it says ``text``."""
        if self.toast is not None and self.toast.text == text:
            self.toast.until = max(self.toast.until, until)

    def deal_label(self) -> str:
        """The kind of deal on the table, in words (the title, the win screen)."""
        return deal_label(self.tr, self.deal, self.deal_day, self.app.arcade.today())

    def keep_first_line(self) -> None:
        """A fresh start (and the next visitor of an idle kiosk) sees one line on how to play
        and where the rules are, shown again whenever nothing else is, until the first move."""
        if not self.first_line:
            return
        text = self.tr("table.first_time")
        if self.game.moves:
            self.first_line = False
            self.drop_toast(text)
        elif self.toast is None and self.active and not self.drag:
            cards = [self.places.group_rect(col[0]) for col in self.game.cols if col]
            self.show_toast(text, cards)  # clear of the cards: a banner at the top if need be

    def forget_visitor(self) -> None:
        """The kiosk went idle (game.kiosk.controller): nothing of the last visitor's touch waits
        for
        the next one. A Finish in progress stops where it is (the game stays open), and the
        chosen card, a drag, the hint asked for and shown, a refusal's marks and pending answer,
        a pressed button or card, any toast and the last tap go; a game without a move shows
        its first line again. The game, its clock, Undo and Redo stay as they were
        (tests/test_next_visitor.py lists what is kept and what is reset)."""
        self.finisher.stop()
        self.chooser.drop()
        self.hints.forget()
        self.tweens, self.drag, self.toast, self.last_tap = [], None, None, None
        self.pressed_button, self.pressed_card, self.pending_refusal = None, None, None
        self.marks, self.marks_until = (), 0.0
        self.first_line = not self.game.moves
        self.repaint()

    def busy(self) -> bool:
        busy = self.tweens or self.drag or self.pending_win or self.finisher.running
        return bool(busy or self.hints.thinking)

    def clock_runs(self) -> bool:
        """Whether the play time runs now: a game with moves, not won, the table on top (the
        update ticks it, and the loop wakes for the info bar's next second)."""
        game = self.game
        return self.active and bool(game.moves) and not game.is_won and self.play_time.running

    def blink(self) -> bool:
        """Whether the hinted move's outline is lit now (it blinks at BLINK_HZ)."""
        return int(self.app.clock.time * BLINK_HZ) % 2 == 0

    def deadline(self) -> float | None:
        """When the table next changes by itself: a toast or the outlines going, the hint's
        blink, a tap's pending answer, the info bar's clock, the indicator's verdict."""
        now = self.app.clock.time
        times = [self.marks_until if self.marks else None, self.hints.deadline(now)]
        if self.toast is not None:
            times.append(self.toast.until)
        if self.pending_refusal is not None:
            times.append(self.pending_refusal.due)
        if self.hints.mark is not None:
            times.append((int(now * BLINK_HZ) + 1) / BLINK_HZ)
        if self.clock_runs():
            times.append(now + 1.0 - self.play_time.seconds % 1.0)  # the clock's next second
        return min((t for t in times if t is not None), default=None)
