"""The table scene: turns gestures into engine commands and keeps what the view shows.

Every move goes through :meth:`TableScene.push_move` (a move the engine found legal once: the
gestures' moves come from the engine's queries, anything else passes :meth:`make_move`'s check),
undo through :meth:`undo`, redo through :meth:`redo` and a new deal through :meth:`start_game`;
a changed position (a move, an undo, a redo) is shown by one path, :meth:`after_change`. They
report to ``app.hooks`` (``moved``, ``undone``, ``ended``, ``started``; ``lifted`` and
``refused`` too): the one place autosave, statistics, logs and sounds hook in
(docs/architecture.md). The scene owns its state: the helper modules (feedback, flow, hints,
placement, finish, select) answer with values or act through narrow Protocols
(game.table.hints.HintSeat, game.table.flow.Seat, game.table.finish.FinishHost,
game.table.select.ChooseSeat), never by writing its fields.

Where cards lie is game.table.places'; gliding is game.table.animation's; hints and the winnable
indicator are game.table.hints'; drawing is game.table.view's, which reads this scene and
changes nothing in it (:meth:`repaint` tells it the resting picture changed). Time is the App's
fixed clock (``app.clock.time``); the game's play time is :attr:`play_time`, the one the info
bar, the win screen, the statistics and the autosave read. Where taps and drops send a card:
game.table.placement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame
from pygame import Rect

import game.table.placement as place
from engine import FOUNDATION, Game, IllegalMove, Move
from engine.cards import Card
from game.input import DoubleTap, DragCancel, DragMove, DragStart, Drop, Press, Tap
from game.look.layout import compute_layout
from game.scene import Event
from game.table.animation import Pos, change_tweens, fly_back
from game.table.feedback import answer_refusal, tap_refusal
from game.table.finish import Finisher
from game.table.flow import deal_day, key_command, replace_game
from game.table.gesture import LastTap, lift_drag
from game.table.hints import HintClient
from game.table.places import Places, Rest
from game.table.refusals import explain
from game.table.select import Chooser
from game.table.state import TableState
from game.table.view import TableView

if TYPE_CHECKING:
    from collections.abc import Callable

    from game.host import Host
    from game.look.cards import CardArt


class TableScene(TableState):
    """The table: gestures to engine commands (its state: game.table.state.TableState)."""

    name = "table"
    opaque = True

    def __init__(
        self,
        app: Host,
        game: Game,
        *,
        pictures: bool = False,
        least_text: Callable[[], int] = lambda: 0,
    ) -> None:
        self.hints = HintClient(self)
        self.finisher = Finisher(self)  # the Finish button's run (game.table.finish)
        self.chooser = Chooser(self)  # "Tap to place": the chosen card (game.table.select)
        super().__init__(app, game, pictures=pictures, least_text=least_text)
        self.view: TableView | None = None
        self.resize()
        self.hints.sync_indicator()

    # ================================================================= geometry
    def resize(self) -> None:
        w, h = self.app.screen.get_size()
        rules = self.game.rules
        self.layout = compute_layout(
            w,
            h,
            columns=rules.columns,
            cells=rules.cells,
            px_per_mm=self.app.px_per_mm,
            least_text=self.least_text(),
        )
        self.places = Places(self.game, self.layout)
        if self.view is None:
            self.view = TableView(self)
        else:
            self.view.resize()
        self.repaint()
        self.drag = None  # a resize in mid-drag drops nothing anywhere
        if self.toast:
            self.show_toast(self.toast.text)

    def card_at(self, pos: tuple[int, int]) -> Card | None:
        """The card drawn at ``pos`` (top-most first); foundation: its top card. The sprite
        layer answers."""
        assert self.view is not None
        return self.view.card_at(pos)

    # ================================================================= what is shown
    @property
    def art(self) -> CardArt:
        assert self.view is not None
        return self.view.art

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        assert self.view is not None
        return self.view.draw(screen, full)

    # ================================================================= commands
    def replace_game(self, make: Callable[[], Game]) -> None:
        """Another game, asked first when moves would be thrown away (game.table.flow)."""
        replace_game(self, make)

    def start_game(self, game: Game, *, left: str = "abandoned") -> None:
        """Show a new game (from the new-game dialog, a code, the win screen, the idle timer).
        An unfinished game with moves is reported as ended with ``left`` ("abandoned",
        "idle")."""
        self.finish_tweens()
        columns_changed = (game.rules.columns, game.rules.cells) != (
            self.game.rules.columns,
            self.game.rules.cells,
        )
        old = self.game
        if old is not game and old.moves and not old.is_won:
            self.app.hooks.ended(old, left)
        self.game = game
        self.first_line = left == "idle"  # once a visitor: again only for the next one
        self.deal = self.app.games.level_of(game)
        self.deal_day = deal_day(self.app, game, self.deal)
        self.play_time.reset()
        self.drag = None
        self.toast = None
        self.last_tap = None
        self.pending_win = False
        if columns_changed:
            self.resize()
        self.changed()
        self.hints.moved()
        self.app.hooks.started(game)

    def finish_tweens(self) -> None:
        """New input: every running animation jumps to its end."""
        self.marks = ()
        if self.tweens:
            self.tweens = []
            self.repaint()

    def before_change(self) -> tuple[dict[Card, Rest], dict[Card, int]]:
        """Where every card lies and in which pile, before the position changes: what
        :meth:`after_change` animates from."""
        return dict(self.rest()), self.places.piles()

    def after_change(
        self,
        before: tuple[dict[Card, Rest], dict[Card, int]],
        origin: dict[Card, Pos] | None = None,
    ) -> None:
        """The one path after the position changed (a move, an undo, a redo, several moves
        at once): the cards glide from ``before`` (:meth:`before_change`; a dragged group from
        ``origin``), the hint goes, the indicator is told, and a won game is noted for its win
        screen. The caller reports to the hooks (moved, undone)."""
        rest, piles = before
        self.changed()
        after, now, lay = self.places, self.app.clock.time, self.layout
        self.tweens += change_tweens(
            rest, piles, after.rest(), after.piles(), origin or {}, now, lay
        )
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
        self.push_move(move, origin)
        return True

    def push_move(self, move: Move, origin: dict[Card, Pos] | None = None) -> bool:
        """The one place where the table makes a move, one the engine already found legal (a
        tap's, a double tap's or a drop's move from :mod:`game.table.placement`, a move checked
        by :meth:`make_move`, the move to redo): ``Game.push``, then :meth:`after_change`."""
        before = self.before_change()
        self.game.push(move)
        self.after_change(before, origin)
        self.app.hooks.moved(self.game, move)
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
            self.show_toast(self.tr("table.nothing_to_undo"))
            return False
        before = self.before_change()
        game.pop()
        self.after_change(before)
        self.app.hooks.undone(game)
        return True

    def redo(self) -> bool:
        """Make the last undone move again: a move like any other (the counter goes up)."""
        self.finish_tweens()
        self.drag = None
        if not self.game.can_redo():
            self.show_toast(self.tr("table.nothing_to_redo"))
            return False
        return self.push_move(self.game.undone[-1])  # legal: the position it was taken from

    def hint(self) -> None:
        self.finish_tweens()
        self.hints.ask()

    def refuse_move(
        self, cards: Sequence[Card], why: IllegalMove, move: Move | None = None
    ) -> None:
        """A refused ``move`` (None: a tap that found no place): the cards shake; with the
        "Interactive rules" setting on, the rule shows and the card it needs is marked."""
        if not self.app.settings.interactive_rules:
            self.refuse(cards)
            return
        answer = explain(self.tr, self.game, move, why)
        self.refuse(cards, answer.text, marks=answer.marks)

    def refuse(
        self, cards: Sequence[Card], message: str | None = None, *, marks: Sequence[Card] = ()
    ) -> None:
        """The visible answer to a refused tap or drop: ``cards`` shake where they lie (with
        every card lying on them), ``message`` (when given) shows where the play is not, never
        over those cards or ``marks``, and each card of ``marks`` is outlined for a moment
        (game.table.feedback). Reported to the hooks (the refusal's sound)."""
        now, rest = self.app.clock.time, self.rest()
        answer = answer_refusal(self.game, rest, self.moving(), self.layout, cards, marks, now)
        self.tweens += answer.tweens
        self.marks, self.marks_until = answer.marks, answer.until
        if message:
            avoid = [self.places.group_rect(c) for c in (*cards, *self.marks) if c in rest]
            self.show_toast(message, avoid)
        self.repaint()
        self.app.hooks.refused(self.game)

    # ================================================================= gestures
    def handle(self, event: Event) -> bool:
        if isinstance(event, pygame.event.EventType):
            return self.handle_key(event)
        if isinstance(event, Press):
            self.finish_tweens()
            self.toast, self.pending_refusal = None, None
            self.pressed_button = self.button_at(event.pos)
            self.pressed_card = None if self.pressed_button else self.card_at(event.pos)
            return True
        self.pressed_card = None  # the finger moved or let go: the card lies down again
        if isinstance(event, Tap):
            self.pressed_button = None
            self.on_tap(event.pos)
        elif isinstance(event, DoubleTap):
            self.pressed_button = None
            self.on_double_tap(event)
        elif isinstance(event, DragStart):
            self.pressed_button = None
            self.on_drag_start(event)
        elif isinstance(event, DragMove):
            if self.drag:
                self.drag.pos = event.pos
        elif isinstance(event, Drop):
            self.on_drop(event.pos)
        elif isinstance(event, DragCancel):
            self.on_drop(None)
        return True

    def handle_key(self, event: pygame.event.Event) -> bool:
        name = key_command(event)
        if name:
            self.press_button(name)
        return name is not None

    def press_button(self, name: str) -> None:
        self.finish_tweens()
        if name == "undo":
            self.undo()
        elif name == "redo":
            self.redo()
        elif name == "hint":
            self.hint()
        elif name == "finish":
            self.finisher.start(self.app.clock.time)
        elif name == "new":
            self.app.scenes.open("newgame")
        elif name == "settings":
            self.app.scenes.open("settings")

    def on_tap(self, pos: tuple[int, int]) -> None:
        self.finish_tweens()
        used, tap = self.chooser.tap(pos, self.app.settings)  # Tap to place: a card, its place
        if used:
            self.last_tap = tap
            return
        name = self.button_at(pos)
        if name:
            self.last_tap = None
            self.press_button(name)
            return
        if self.layout.info_bar.collidepoint(pos) and self.hints.offer_undo():
            return  # "no longer winnable": back to where it was, if the player says so
        card = self.card_at(pos)
        if card is None:
            self.last_tap = LastTap(None, False)
            return
        acted = False
        if self.game.locate(card)[0] != FOUNDATION:
            one_tap = self.app.settings.one_tap
            game = self.game
            move = place.double_tap_move(game, card) if one_tap else game.tap_move(card)
            if move is not None:
                acted = self.push_move(move)
            elif one_tap and not place.settled_king(self.game, card):  # found no place
                self.refuse_move([card], self.game.why_stuck(card))
            elif not one_tap:  # cannot go home: say why, unless a second tap follows
                self.pending_refusal = tap_refusal(self.game, card, self.refusal_due())
        self.last_tap = LastTap(card, acted)

    def refusal_due(self) -> float:
        """When a tap's refusal is answered: once no second tap can make it a double tap."""
        double = self.app.settings.double_tap
        return self.app.clock.time + (self.app.reader.tuning.double_tap_ms / 1000 if double else 0)

    def on_double_tap(self, event: DoubleTap) -> None:
        if not self.app.settings.double_tap:
            self.on_tap(event.pos)
            return
        self.finish_tweens()
        last, self.last_tap, self.pending_refusal = self.last_tap, None, None
        if last is None:
            self.on_tap(event.pos)  # the first tap went to a button or another scene
            return
        if last.card is None or last.acted:
            return  # nothing under the first tap, or it already moved: never act again
        card = last.card
        if self.game.locate(card)[0] == FOUNDATION:
            return  # foundation cards come back only by dragging
        move = place.double_tap_move(self.game, card)
        if move is not None:
            self.push_move(move)
        elif not place.settled_king(self.game, card):  # a king at the bottom of its column stays
            self.refuse_move([card], self.game.why_stuck(card))

    def on_drag_start(self, event: DragStart) -> None:
        self.finish_tweens()
        self.last_tap = None
        if self.button_at(event.start):
            return
        card = self.card_at(event.start)
        if card is None:
            return
        try:
            self.drag = lift_drag(self.game, card, self.rest(), event.start, event.pos)
        except IllegalMove as refusal:
            self.refuse_move([card], refusal)
            return
        self.repaint()
        self.app.hooks.lifted(self.game, card)

    def on_drop(self, pos: tuple[int, int] | None) -> None:
        drag, self.drag = self.drag, None
        if drag is None:
            return
        self.repaint()
        if pos is not None:
            drag.pos = pos
        origin = drag.origin()
        first = origin[drag.card]
        rect = Rect(int(first[0]), int(first[1]), self.layout.card_w, self.layout.card_h)
        dest = self.places.drop_dest(rect) if pos is not None else None
        auto = pos is not None and self.app.settings.auto_placement
        near = place.distance_from(rect, self.places.move_rect)
        move, refusal, aimed = place.drop_move(self.game, drag.card, dest, auto=auto, near=near)
        if move is not None:
            self.push_move(move, origin)
            return
        # Refused or dropped nowhere: fly back.
        now = self.app.clock.time
        self.tweens += fly_back(drag.group, origin, self.rest(), now, self.layout)
        if refusal is not None:
            self.refuse_move(drag.group[:1], refusal, aimed)

    # ================================================================= time
    def pause(self) -> None:
        self.active = False
        self.finish_tweens()
        if self.drag:
            self.drag = None
            self.repaint()

    def resume(self) -> None:
        self.active = True
        self.repaint()
        self.hints.sync_indicator()  # the setting may have changed

    def close(self) -> None:
        """The table goes away: forget the hint, stop the indicator (app.workers.close stops
        every worker process on quit)."""
        self.hints.drop()
        self.hints.close_indicator()

    def update(self, dt: float) -> None:
        now = self.app.clock.time
        if self.clock_runs():
            self.play_time.tick(dt)
        if self.tweens:
            alive = [t for t in self.tweens if not t.done(now)]
            if len(alive) != len(self.tweens):
                self.tweens = alive
                self.repaint()
        if self.toast and now >= self.toast.until:
            self.toast = None
        if self.marks and now >= self.marks_until:
            self.marks = ()
        self.hints.poll(now)
        self.finisher.step(now)
        pending = self.pending_refusal
        if pending is not None and now >= pending.due:  # the tap's answer, once it is due
            self.pending_refusal = None
            if self.game.moves == pending.moves and self.active:
                self.refuse_move([pending.card], pending.why, pending.move)
        self.keep_first_line()
        if self.pending_win and not self.tweens and self.active:
            self.pending_win = False
            self.app.scenes.open("win", game=self.game, play_time=self.play_time)
