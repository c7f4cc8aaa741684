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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

import game.table.placement as place
from engine import FOUNDATION, Game, IllegalMove, Move
from engine.cards import Card
from game.clock import PlayTime
from game.table.animation import Pos, Tween, change_tweens, fly_back, glide_on
from game.table.feedback import PendingRefusal, answer_refusal, tap_refusal
from game.table.gesture import Drag, LastTap, lift_drag
from game.table.refusals import explain

if TYPE_CHECKING:
    from pygame import Rect

    from game.arcade.levels import Deal
    from game.hooks import Hooks
    from game.i18n import Translator
    from game.look.layout import Command, Layout
    from game.saves.prefs import PlayerSettings
    from game.table.places import Places, Rest
    from game.table.toast import Toast

Before = tuple[dict[Card, "Rest"], dict[Card, int]]  # every card's resting place and pile

BLINK_HZ = 3  # the hinted move's outline blinks on and off three times a second
HOLD_PAUSE = 1.5  # seconds without a touch on a held column before it spreads out again


class Board(Protocol):
    """The geometry the model asks of the screen (game.table.toast.ScreenBoard serves it, with
    pygame's Rects; the model itself imports no pygame): where ``game``'s cards lie on
    ``layout`` (``held``: columns kept as they lay), ``text`` in a box over free felt clear of
    ``named``, and for a card let go with its corner at ``corner`` the pile it is over (None:
    none) and how far a move's place lies from it."""

    def places(self, game: Game, layout: Layout, held: dict[int, dict[Card, int]]) -> Places: ...
    def toast(
        self, text: str, layout: Layout, now: float, places: Places, named: list[Rect]
    ) -> Toast: ...
    def dropped(
        self, places: Places, corner: tuple[float, float]
    ) -> tuple[int | None, Callable[[Move], float]]: ...


class Outside(Protocol):
    """What the model's commands need from the table around it (the table scene serves it):
    the hooks they report to, the player's settings and language, the clock, the hint (asked
    for; told when the position changes; its cards kept clear of a message) and the Finish
    run (started)."""

    @property
    def hooks(self) -> Hooks: ...
    @property
    def settings(self) -> PlayerSettings: ...
    @property
    def tr(self) -> Translator: ...
    def now(self) -> float: ...
    def position_changed(self) -> None: ...
    def hinted(self) -> list[Rect]: ...
    def ask_hint(self) -> None: ...
    def finish(self) -> None: ...


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
        outside: Outside,
        double_tap_window: float = 0.0,
    ) -> None:
        """``deal``: the kind of deal ("easy" .. "hard", "winnable", "random", "daily", "example");
        ``deal_day``: the day whose deal ``game`` is, or None; ``play_time``: the game's play
        time (the visitor's table: the one the session saves; None: a new one); ``board``: the
        screen's geometry (:class:`Board`); ``outside``: what the commands need around them
        (:class:`Outside`); ``double_tap_window``: seconds within which a second tap makes a
        double tap (the input's tuning: a tap's refusal waits that long)."""
        self.board, self.outside, self.double_tap_window = board, outside, double_tap_window
        self.game, self.deal, self.deal_day, self.active = game, deal, deal_day, True
        self.play_time = play_time if play_time is not None else PlayTime()
        self.tweens: list[Tween] = []
        self.drag: Drag | None = None
        self.toast: Toast | None = None
        self.last_tap: LastTap | None = None
        self.first_line = not game.moves  # a fresh start: how to play, until the first move
        # A won game stays won: restored after a quit, it opens on its win screen again.
        self.pending_win = game.is_won
        self.pressed_button: Command | None = None  # and the card under a finger that is down:
        self.pressed_card: Card | None = None  # shown lifted
        self.pending_refusal: PendingRefusal | None = None  # a tap's answer, after its window
        self.marks: tuple[Card, ...] = ()  # cards a refusal points at, shown until marks_until
        self.marks_until, self.layout = 0.0, layout
        self.version = 0  # the resting picture's version: the view rebuilds when it changes
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
        named, now = [*avoid, *self.outside.hinted()], self.outside.now()
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

    def tick(self, now: float, dt: float) -> None:
        """The clock moved on to ``now`` (``dt`` later): the play time runs; ended glides, an
        old toast or marks go; a column held through a pause spreads out, gliding."""
        if self.clock_runs():
            self.play_time.tick(dt)
        if self.tweens:
            alive = [t for t in self.tweens if not t.done(now)]
            if len(alive) != len(self.tweens):
                self.tweens = alive
                self.repaint()
        self.toast = None if self.toast and now >= self.toast.until else self.toast
        self.marks = () if self.marks and now >= self.marks_until else self.marks
        if self.held and now >= self.held_until:
            self.tweens = glide_on(self.tweens, self.let_go(now), now)

    def answer_due(self, now: float) -> None:
        """A tap's refusal once it is due, if nothing moved since and the table is on top."""
        pending = self.pending_refusal
        if pending is not None and now >= pending.due:
            self.pending_refusal = None
            if self.game.moves == pending.moves and self.active:
                self.refuse_move([pending.card], pending.why, pending.move)

    # ================================================================= commands
    def finish_tweens(self) -> None:
        """New input: every running animation jumps to its end."""
        self.marks = ()
        if self.tweens:
            self.tweens = []
            self.repaint()

    def before_change(self) -> Before:
        """Where every card lies and in which pile: what :meth:`after_change` glides from."""
        return dict(self.rest()), self.places.piles()

    def after_change(self, before: Before, origin: dict[Card, Pos] | None = None) -> None:
        """The one path after the position changed (a move, an undo, a redo, several moves
        at once): the cards glide from ``before`` (:meth:`before_change`; a dragged group from
        ``origin``), the hint goes, the indicator is told, and a won game is noted for its win
        screen. The caller reports to the hooks (moved, undone)."""
        (rest, piles), now = before, self.outside.now()
        self.hold(rest, piles, now)  # the column under the finger keeps its spacing
        self.changed()
        after, lay = self.places, self.layout
        tweens = change_tweens(rest, piles, after.rest(), after.piles(), origin or {}, now, lay)
        self.tweens = glide_on(self.tweens, tweens, now)
        self.outside.position_changed()
        if self.game.is_won:
            self.pending_win = True

    def make_move(self, move: Move, origin: dict[Card, Pos] | None = None) -> bool:
        """Check ``move`` (once) and make it. Refusals show the rule (when the "Interactive
        rules" setting is on) and change nothing."""
        refusal = self.game.check(move)
        if refusal is not None:
            self.refuse_move([move.card], refusal, move)
            return False
        return self.push_move(move, origin)

    def push_move(self, move: Move, origin: dict[Card, Pos] | None = None) -> bool:
        """The one place where the table makes a move, one the engine already found legal (a
        tap's, a double tap's or a drop's move from :mod:`game.table.placement`, a move checked
        by :meth:`make_move`, the move to redo): ``Game.push``, then :meth:`after_change`."""
        before = self.before_change()
        self.game.push(move)
        self.after_change(before, origin)
        self.outside.hooks.moved(self.game, move)
        return True

    def undo(self) -> bool:
        """Take back the last move (never a won game's: a finished game is finished); the move
        can be redone until the next new move (the engine keeps it: ``Game.undone``)."""
        self.finish_tweens()
        self.drag = None
        game = self.game
        if game.is_won:
            return False
        if not game.can_undo():
            self.show_toast(self.outside.tr("table.nothing_to_undo"))
            return False
        before = self.before_change()
        game.pop()
        self.after_change(before)
        self.outside.hooks.undone(game)
        return True

    def redo(self) -> bool:
        """Make the last undone move again: a move like any other (the counter goes up)."""
        self.finish_tweens()
        self.drag = None
        if not self.game.can_redo():
            self.show_toast(self.outside.tr("table.nothing_to_redo"))
            return False
        return self.push_move(self.game.undone[-1])  # legal: the position it was taken from

    def refuse_move(
        self, cards: Sequence[Card], why: IllegalMove, move: Move | None = None
    ) -> None:
        """A refused ``move`` (None: a tap that found no place): the cards shake; with the
        "Interactive rules" setting on, the rule shows and the card it needs is marked."""
        if not self.outside.settings.interactive_rules:
            self.refuse(cards)
            return
        answer = explain(self.outside.tr, self.game, move, why)
        aim = [self.places.dest_rect(move.dest)] if move else []  # the place it names
        self.refuse(cards, answer.text, marks=answer.marks, aim=aim)

    def refuse(
        self,
        cards: Sequence[Card],
        message: str | None = None,
        *,
        marks: Sequence[Card] = (),
        aim: Sequence[Rect] = (),
    ) -> None:
        """The visible answer to a refused tap or drop: ``cards`` shake, ``message`` shows
        clear of them, of ``marks`` (outlined for a moment: game.table.feedback) and of
        ``aim`` (the place the move was aimed at)."""
        now, rest, moving = self.outside.now(), self.rest(), self.moving()
        answer = answer_refusal(self.game, rest, moving, self.layout, cards, marks, now)
        self.tweens += answer.tweens
        self.marks, self.marks_until = answer.marks, answer.until
        if message:
            avoid = [self.places.group_rect(c) for c in (*cards, *self.marks) if c in rest]
            self.show_toast(message, [*avoid, *aim])
        self.repaint()
        self.outside.hooks.refused(self.game)

    def button(self, name: Command) -> bool:
        """A table button's command: Undo, Redo, Hint (the solver asked), Finish (the rest
        played). False: not the model's (New game and Settings open their dialogs)."""
        self.finish_tweens()
        if name == "undo":
            self.undo()
        elif name == "redo":
            self.redo()
        elif name == "hint":
            self.outside.ask_hint()
        elif name == "finish":
            self.outside.finish()
        else:
            return False
        return True

    # ================================================================= gestures
    def tap(self, card: Card | None) -> None:
        """A plain tap on ``card`` (None: on no card; the scene found no button or chosen card
        under it): a card goes home (with "One tap moves", to its place); one that cannot is
        answered once no second tap can make it a double tap."""
        game, settings = self.game, self.outside.settings
        acted = False
        if card is not None and game.locate(card)[0] != FOUNDATION:
            one_tap = settings.one_tap
            move = place.double_tap_move(game, card) if one_tap else game.tap_move(card)
            if move is not None:
                acted = self.push_move(move)
            elif one_tap and not place.settled_king(game, card):  # found no place
                self.refuse_move([card], game.why_stuck(card))
            elif not one_tap:  # cannot go home: say why, unless a second tap follows
                wait = self.double_tap_window if settings.double_tap else 0.0
                self.pending_refusal = tap_refusal(game, card, self.outside.now() + wait)
        self.last_tap = LastTap(card, acted)

    def double_tap(self) -> bool:
        """The second tap of a double tap: the card the first tap touched goes to its place
        (never twice: nothing if the first tap moved it). False when the first tap went to a
        button or another scene: this one is then a tap of its own."""
        self.finish_tweens()
        last, self.last_tap, self.pending_refusal = self.last_tap, None, None
        if last is None:
            return False
        card, game = last.card, self.game
        if card is None or last.acted or game.locate(card)[0] == FOUNDATION:
            return True  # nothing under the first tap, or it moved, or it is home: no more
        move = place.double_tap_move(game, card)
        if move is not None:
            self.push_move(move)
        elif not place.settled_king(game, card):  # a king at the bottom of its column stays
            self.refuse_move([card], game.why_stuck(card))
        return True

    def lift(self, card: Card, start: tuple[int, int], pos: tuple[int, int]) -> None:
        """``card`` (and the cards on it) picked up at ``start``, the finger now at ``pos``;
        refused (face down, a group too long) with the usual answer."""
        try:
            self.drag = lift_drag(self.game, card, self.rest(), start, pos)
        except IllegalMove as refusal:
            self.refuse_move([card], refusal)
            return
        self.repaint()
        self.outside.hooks.lifted(self.game, card)

    def drop(self, pos: tuple[int, int] | None) -> None:
        """The dragged group let go at ``pos`` (None: the drag was cancelled): the move it
        makes there (with "Auto placement", to the nearest column that takes it), or it flies
        back, and a refused move is answered."""
        drag, self.drag = self.drag, None
        if drag is None:
            return
        self.repaint()
        if pos is not None:
            drag.pos = pos
        origin = drag.origin()
        dest, near = self.board.dropped(self.places, origin[drag.card])
        dest = dest if pos is not None else None
        auto = pos is not None and self.outside.settings.auto_placement
        move, refusal, aimed = place.drop_move(self.game, drag.card, dest, auto=auto, near=near)
        if move is not None:
            self.push_move(move, origin)
            return
        # Refused or dropped nowhere: fly back.
        now = self.outside.now()
        self.tweens += fly_back(drag.group, origin, self.rest(), now, self.layout)
        if refusal is not None:
            self.refuse_move(drag.group[:1], refusal, aimed)
