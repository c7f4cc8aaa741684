"""The table scene: turns gestures into engine commands and keeps what the view shows.

Every move goes through :meth:`TableScene.make_move`, undo through :meth:`undo` and a new deal
through :meth:`start_game`; they report to ``app.hooks`` (``moved``, ``undone``, ``ended``,
``started``; ``lifted`` and ``refused`` too): the one place autosave, statistics, logs and
sounds hook in. The helpers, each in game.table: places, animation, hints, view (reads this
scene, changes nothing: :meth:`repaint`), placement, finish, select. Time is ``app.clock.time``;
the game's play time is :attr:`play_time` (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame
from pygame import Rect

import game.table.placement as place
import game.table.select as select
from engine import FOUNDATION, Game, IllegalMove, Move
from engine.cards import Card
from game.clock import PlayTime
from game.input import DoubleTap, DragCancel, DragMove, DragStart, Drop, Press, Tap
from game.layout import Layout, compute_layout
from game.scene import Event, Scene
from game.table.animation import Pos, Tween, change_tweens, fly_back
from game.table.feedback import PendingRefusal, answer_due_tap, answer_refusal, tap_refusal
from game.table.finish import Finisher, shown_buttons
from game.table.flow import deal_day, keep_first_line, key_command, redo_move, undo_move
from game.table.gesture import Drag, LastTap
from game.table.hints import HintClient, HintJob, HintMark
from game.table.places import Places, Rest
from game.table.refusals import explain
from game.table.toast import Toast, make_toast
from game.table.view import TableView

if TYPE_CHECKING:
    from game.app import App
    from game.cards import CardArt


class TableScene(Scene):
    name = "table"
    opaque = True

    def __init__(self, app: App, game: Game) -> None:
        super().__init__(app)
        self.game = game
        self.play_time = PlayTime()
        self.active = True
        self.tweens: list[Tween] = []
        self.drag: Drag | None = None
        self.toast: Toast | None = None
        self.hints = HintClient(self)
        self.last_tap: LastTap | None = None
        self.selected: select.Selection | None = None  # "Tap to place" (select.py)
        self.finisher = Finisher(self)  # the Finish button's run (finish.py)
        self.redo_moves: list[Move] = []  # undone moves, the next redo last; a new move clears
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
        self.view: TableView | None = None
        self.resize()
        self.hints.sync_indicator()

    # ================================================================= geometry
    def resize(self) -> None:
        w, h = self.app.screen.get_size()
        rules = self.game.rules
        self.layout = compute_layout(
            w, h, columns=rules.columns, cells=rules.cells, px_per_mm=self.app.px_per_mm
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

    def rest(self) -> dict[Card, Rest]:
        """Where every card lies when nothing moves: (x, y, face up)."""
        return self.places.rest()

    def card_rect(self, card: Card) -> Rect:
        return self.places.card_rect(card)

    def card_at(self, pos: tuple[int, int]) -> Card | None:
        """The top-most card drawn at ``pos`` (a foundation's top card): the sprite layer's."""
        assert self.view is not None
        return self.view.card_at(pos)

    def button_at(self, pos: tuple[int, int]) -> str | None:
        for name, rect in shown_buttons(self.game, self.layout).items():
            if rect.collidepoint(pos):
                return name
        return None

    # ================================================================= what is shown
    @property
    def art(self) -> CardArt:
        assert self.view is not None
        return self.view.art

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

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        assert self.view is not None
        return self.view.draw(screen, full)

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

    # ================================================================= commands
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
        self.first_line = self.first_line or left == "idle"  # the next visitor
        self.deal = self.app.games.level_of(game)
        self.deal_day = deal_day(self.app, game, self.deal)
        self.play_time.reset()
        self.drag = None
        self.toast = None
        self.hints.mark = None
        self.hints.drop()
        self.last_tap = None
        self.redo_moves = []
        self.pending_win = False
        if columns_changed:
            self.resize()
        self.changed()
        self.hints.sync_indicator()
        self.app.hooks.started(game)

    def finish_tweens(self) -> None:
        """New input: every running animation jumps to its end."""
        self.marks = ()
        if self.tweens:
            self.tweens = []
            self.repaint()

    def animate(
        self, before: dict[Card, Rest], piles: dict[Card, int], origin: dict[Card, Pos]
    ) -> None:
        after = self.places
        now, lay = self.app.clock.time, self.layout
        self.tweens += change_tweens(before, piles, after.rest(), after.piles(), origin, now, lay)
        self.repaint()

    def make_move(self, move: Move, origin: dict[Card, Pos] | None = None) -> bool:
        """The one place where the table makes a move. Refusals show the rule (when the
        "Interactive rules" setting is on) and change nothing."""
        refusal = self.game.check(move)
        if refusal is not None:
            self.refuse_move([move.card], refusal, move)
            return False
        before, piles = dict(self.rest()), self.places.piles()
        self.game.play(move)
        if self.redo_moves and self.redo_moves[-1] == move:
            self.redo_moves.pop()  # the undone move made again: the rest can still be redone
        else:
            self.redo_moves = []
        self.changed()
        self.animate(before, piles, origin or {})
        self.hints.mark = None
        self.hints.drop()
        if self.game.is_won:
            self.pending_win = True
        self.hints.sync_indicator()
        self.app.hooks.moved(self.game, move)
        return True

    def undo(self) -> bool:
        return undo_move(self)

    def redo(self) -> bool:
        return redo_move(self)

    def hint(self) -> None:
        self.finish_tweens()
        self.hints.ask()

    def refuse_move(
        self, cards: Sequence[Card], why: IllegalMove, move: Move | None = None
    ) -> None:
        """A refused ``move`` (None: no place for a tap): shake; say why (Interactive rules)."""
        if not self.app.settings.interactive_rules:
            self.refuse(cards)
            return
        answer = explain(self.tr, self.game, move, why)
        self.refuse(cards, answer.text, marks=answer.marks)

    def refuse(
        self, cards: Sequence[Card], message: str | None = None, *, marks: Sequence[Card] = ()
    ) -> None:
        """A refused tap or drop: ``cards`` shake (with the cards on them), ``message`` shows
        clear of them and of ``marks``, which are outlined a moment (game.table.feedback)."""
        answer_refusal(self, cards, message, marks)

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
        if select.tap(self, pos, self.app.settings):
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
            move = (place.double_tap_move if one_tap else place.tap_move)(self.game, card)
            if move is not None:
                acted = self.make_move(move)
            elif one_tap and not place.settled_king(self.game, card):  # found no place
                self.refuse_move([card], self.game.why_stuck(card))
            elif not one_tap:  # cannot go home: say why, unless a second tap follows
                self.pending_refusal = tap_refusal(self, card)
        self.last_tap = LastTap(card, acted)

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
            self.make_move(move)
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
            group = self.game.lift(card)
        except IllegalMove as refusal:
            self.refuse_move([card], refusal)
            return
        rest = self.rest()
        x, y, _ = rest[card]
        offsets = tuple(rest[c][1] - y for c in group)
        legal = frozenset(m.dest for m in self.game.targets(card))
        grab = (event.start[0] - x, event.start[1] - y)
        self.drag = Drag(card, group, grab, event.pos, offsets, legal)
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
            self.make_move(move, origin)
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
        """The table goes away: forget the hint, stop the indicator (workers stop on quit)."""
        self.hints.drop()
        self.hints.close_indicator()

    def update(self, dt: float) -> None:
        now = self.app.clock.time
        if self.active and self.game.moves and not self.game.is_won:
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
        answer_due_tap(self)
        keep_first_line(self)
        if self.pending_win and not self.tweens and self.active:
            self.pending_win = False
            self.app.scenes.open("win", game=self.game, play_time=self.play_time)

    def busy(self) -> bool:
        busy = self.tweens or self.drag or self.pending_win or self.finisher.running
        return bool(busy or self.hints.thinking)
