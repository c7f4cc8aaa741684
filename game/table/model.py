"""The table's state and its commands, without pygame (game.table.scene.TableScene holds one
:class:`TableModel` as ``table.model``, the one place each of these fields is reached): the
game and its play time, where the cards lie, what moves (tweens, a drag), the toast, a
refusal's marks, a tap's pending answer, and its parts: the hint and the winnable indicator
(``hints``: game.table.hints), the Finish run (``finisher``: game.table.finish) and the card
a tap chose (``chooser``: game.table.select). Its commands are a tap, a double tap, a choice
(Tap to place), a lift and a drop, undo, redo, the buttons (hint, Finish), a new game
(:meth:`TableModel.start`) and the next visitor's reset; the clock moves it on
(:meth:`TableModel.update`). The scene says what lies under a finger, and the sprite layer
(game.table.view) and its images (game.table.chrome) read the model and change nothing in it.
What it needs around it (the screen's geometry, the scene's services) is game.table.around's.

It also says when it next changes by itself (:meth:`TableModel.deadline`), so that the loop can
sleep until then (game.app.App.run).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING

import game.table.placement as place
from engine import FOUNDATION, Game, IllegalMove, Move
from engine.cards import Card
from game.clock import PlayTime
from game.table.animation import Pos, change_tweens, fly_back, glide_on
from game.table.feedback import PendingRefusal, answer_refusal, tap_refusal
from game.table.finish import Finisher
from game.table.gesture import LastTap, lift_drag
from game.table.hints import HintClient
from game.table.picture import TablePicture
from game.table.refusals import explain
from game.table.select import Chooser

if TYPE_CHECKING:
    from pygame import Rect

    from game.arcade.levels import Deal
    from game.hooks import Left
    from game.look.layout import Command, Layout
    from game.table.around import Board, Outside
    from game.table.places import Rest
    from game.workers import Workers

Before = tuple[dict[Card, "Rest"], dict[Card, int]]  # every card's resting place and pile

BLINK_HZ = 3  # the hinted move's outline blinks on and off three times a second


class TableModel(TablePicture):
    """The table's state and commands: the game and its play time, the kind of deal, the last
    tap and a pressed button or card, a tap's pending answer, a win waiting for its screen, the
    hint, the Finish run, the chosen card; what it shows is its base's (TablePicture)."""

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
        workers: Workers,
        double_tap_window: float = 0.0,
    ) -> None:
        """``deal``: the kind of deal ("easy" .. "hard", "winnable", "random", "daily", "example");
        ``deal_day``: the day whose deal ``game`` is, or None; ``play_time``: the game's play
        time (the visitor's table: the one the session saves; None: a new one); ``board``: the
        screen's geometry and ``outside`` what the commands need around them (game.table.around);
        ``workers``: the solver's processes the hint asks (game.workers.Workers, a service);
        ``double_tap_window``: seconds within which a second tap makes a double tap (the
        input's tuning: a tap's refusal waits that long)."""
        super().__init__(game, layout, board, outside)
        self.double_tap_window = double_tap_window
        self.deal, self.deal_day, self.active = deal, deal_day, True
        self.play_time = play_time if play_time is not None else PlayTime()
        self.last_tap: LastTap | None = None
        self.first_line = not game.moves  # a fresh start: how to play, until the first move
        # A won game stays won: restored after a quit, it opens on its win screen again.
        self.pending_win = game.is_won
        self.pressed_button: Command | None = None  # and the card under a finger that is down:
        self.pressed_card: Card | None = None  # shown lifted
        self.pending_refusal: PendingRefusal | None = None  # a tap's answer, after its window
        self.hints = HintClient(self, workers)  # the hint and the winnable indicator
        self.finisher = Finisher(self)  # the Finish button's run
        self.chooser = Chooser(self)  # "Tap to place": the chosen card

    def hinted(self) -> list[Rect]:
        """The hinted card with what lies on it, and its place: a message keeps off them."""
        return self.hints.marked()

    def forget_visitor(self) -> None:
        """The kiosk went idle: nothing of the last visitor's touch waits for the next one (a
        Finish stops, the chosen card, the hint, a drag, the glides, a toast, the last tap, a
        pressed button or card, a refusal's marks and pending answer, a held column go); a
        game without a move shows its first line again (tests/kiosk/test_next_visitor.py lists
        what is kept and what is reset)."""
        self.finisher.stop()
        self.chooser.drop()
        self.hints.forget_visitor()
        self.tweens, self.drag, self.toast, self.last_tap = [], None, None, None
        self.pressed_button, self.pressed_card, self.pending_refusal = None, None, None
        self.marks, self.marks_until = (), 0.0
        self.first_line = not self.game.moves
        self.touched_column, self.held, self.held_until, self._held_on = None, {}, 0.0, None
        self.changed()

    def start(
        self,
        game: Game,
        deal: Deal,
        deal_day: dt.date | None,
        *,
        layout: Layout | None = None,
        left: Left = "abandoned",
    ) -> None:
        """A new ``game`` on the table (of the kind ``deal``, the day ``deal_day``: as made);
        ``layout``: the table's at a new number of columns or cells. An unfinished game with
        moves is reported as ended with ``left`` (game.hooks.Left); the first line shows again
        only for the next visitor (``left`` "idle")."""
        self.finish_tweens()
        old, hooks = self.game, self.outside.hooks
        if old is not game and old.moves and not old.is_won:
            hooks.ended(old, left)
        self.game, self.deal, self.deal_day = game, deal, deal_day
        self.first_line = left == "idle"  # once a visitor: again only for the next one
        self.play_time.reset()
        self.drag, self.toast, self.last_tap, self.pending_win = None, None, None, False
        if layout is not None:
            self.layout = layout
        self.changed()
        self.hints.moved()
        hooks.started(game)

    def keep_first_line(self) -> None:
        """A fresh start (and the next visitor of an idle kiosk) sees one line on how to play
        and where the rules are, shown again whenever nothing else is, until the first move."""
        if not self.first_line:
            return
        text = self.outside.tr("table.first_time")
        if self.game.moves:
            self.first_line = False
            self.drop_toast(text)
        elif self.toast is None and self.active and not self.drag:
            cards = [self.places.group_rect(col[0]) for col in self.game.cols if col]
            self.show_toast(text, cards)  # clear of the cards: a banner at the top if need be

    def clock_runs(self) -> bool:
        """Whether the play time runs now: a game with moves, not won, the table on top (the
        update ticks it, and the loop wakes for the info bar's next second)."""
        game = self.game
        return self.active and bool(game.moves) and not game.is_won and self.play_time.running

    def deadline(self, now: float) -> float | None:
        """When the table next changes by itself: a toast or the outlines going, the hint's
        blink or its own deadline, a tap's pending answer, a held column, the info bar's
        clock."""
        times = [self.marks_until if self.marks else None, self.hints.deadline(now)]
        times.append(self.held_until if self.held else None)
        if self.toast is not None:
            times.append(self.toast.until)
        if self.pending_refusal is not None:
            times.append(self.pending_refusal.due)
        if self.hints.mark is not None:  # the hinted move's outline blinks
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

    def update(self, now: float, dt: float) -> bool:
        """The frame's update at ``now`` (``dt`` after the last): :meth:`tick`, the hint's
        answer, the Finish run's next cards, a tap's refusal once no double tap can follow,
        the first line. True: the win screen is due (the game won, its glides over, the
        table on top)."""
        self.tick(now, dt)
        self.hints.poll(now)
        self.finisher.step(now)
        self.answer_due(now)
        self.keep_first_line()
        if self.pending_win and not self.tweens and self.active:
            self.pending_win = False
            return True
        return False

    def busy(self, now: float) -> bool:
        """Something moves (glides, a drag, the Finish run or its pulse), a win waits for its
        screen or a hint is being worked out: the loop draws every frame."""
        moving = self.tweens or self.drag or self.pending_win or self.finisher.busy(now)
        return bool(moving or self.hints.thinking)

    def blink(self, now: float) -> bool:
        """Whether the hinted move's outline is lit at ``now`` (it blinks at BLINK_HZ)."""
        return int(now * BLINK_HZ) % 2 == 0

    # ================================================================= commands
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
        self.hints.moved()
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
            self.hints.ask()  # the solver is asked (game.table.hints)
        elif name == "finish":
            self.finisher.start(self.outside.now())  # the rest played (game.table.finish)
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

    def choose(self, button: Command | None, card: Card | None, pile: int | None) -> bool:
        """ "Tap to place" first (game.table.select): a tap on ``button``, ``card`` and ``pile``
        (what the scene found under it) chooses a card or puts the chosen one there. False:
        not a choice; the tap is the button's, the info bar's or :meth:`tap`'s."""
        used, tap = self.chooser.tap(button, card, pile)
        if used:
            self.last_tap = tap
        return used

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
