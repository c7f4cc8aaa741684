"""The table: shows a game, turns gestures into engine moves, animates them.

Every move goes through :meth:`TableScene.make_move`, undo through :meth:`undo` and a new deal
through :meth:`start_game`; they report to ``app.hooks`` (``moved``, ``undone``, ``ended`` and
``started``, game.hooks): the one place autosave, statistics and logs hook in.

Drawing is game.tableview's: it reads this scene and changes nothing in it; :meth:`repaint`
tells it that the resting picture changed.

Taps: a single tap acts at once (a card to its foundation). The double tap that may follow belongs
to the card the first tap touched: when the first tap already moved it, the double tap does
nothing (it never takes the card back from its foundation or acts on whatever now lies there).
"""

from __future__ import annotations

import math
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame
import pytweening
from pygame import Rect

from engine import FOUNDATION, Game, IllegalMove, Move
from engine.cards import Card
from engine.game import CELL0, EMPTY
from game import ui
from game.cards import HIGHLIGHT, CardArt, font
from game.input import DoubleTap, DragCancel, DragMove, DragStart, Drop, Press, Tap
from game.layout import Layout, compute_layout
from game.scene import Event, Scene
from game.tableview import TableView
from game.workers import LostPosition

if TYPE_CHECKING:
    from game.app import App

GLIDE_MIN = 0.15
GLIDE_MAX = 0.25
FLIP = 0.2
TOAST_SECONDS = 3.2
HINT_SECONDS = 3.0
HINT_GIVE_UP_SECONDS = 20.0  # a worker this late is stuck (or still spawning on a busy Pi)

Pos = tuple[float, float]


@dataclass
class Tween:
    card: Card
    start: Pos
    end: Pos
    t0: float
    duration: float
    flip: int = 0  # +1 turns face up, -1 turns face down, 0 none
    z: int = 0

    def progress(self, now: float) -> float:
        if self.duration <= 0:
            return 1.0
        return min(1.0, max(0.0, (now - self.t0) / self.duration))

    def position(self, now: float) -> Pos:
        t = pytweening.easeOutCubic(self.progress(now))
        return (
            self.start[0] + (self.end[0] - self.start[0]) * t,
            self.start[1] + (self.end[1] - self.start[1]) * t,
        )

    def done(self, now: float) -> bool:
        return now >= self.t0 + self.duration


@dataclass
class Drag:
    card: Card
    group: tuple[Card, ...]
    grab: tuple[int, int]  # pointer minus the card's corner
    pos: tuple[int, int]
    offsets: tuple[int, ...]  # y of each group card relative to the first
    legal: frozenset[int]  # destinations that take the group


@dataclass
class Toast:
    text: str
    until: float
    surface: pygame.Surface
    rect: Rect
    text_size: int = 0


@dataclass
class HintMark:
    move: Move
    until: float


@dataclass
class HintJob:
    """A hint being worked out in the App's hint worker, for this game in this position."""

    future: Future[Any]
    game: Game
    key: tuple[Any, ...]
    since: float


@dataclass
class LastTap:
    card: Card | None
    acted: bool


class TableScene(Scene):
    name = "table"
    opaque = True

    def __init__(self, app: App, game: Game) -> None:
        super().__init__(app)
        self.game = game
        self.now = 0.0  # scene time, advanced by update
        self.elapsed = 0.0  # play time shown in the info bar
        self.active = True
        self.tweens: list[Tween] = []
        self.drag: Drag | None = None
        self.toast: Toast | None = None
        self.hint_mark: HintMark | None = None
        self.hint_job: HintJob | None = None
        self.last_tap: LastTap | None = None
        self.pending_win = False
        self.pressed_button: str | None = None
        self._rest: dict[Card, tuple[int, int, bool]] | None = None
        self.version = 0  # the resting picture's version: the view rebuilds when it changes
        self.indicator: Any = None  # the solver's winnable-from-here indicator, when on
        self.indicator_status = ""
        self.layout: Layout
        self.view: TableView | None = None
        self.resize()
        self.sync_indicator()

    # ================================================================= geometry
    def resize(self) -> None:
        w, h = self.app.screen.get_size()
        rules = self.game.rules
        self.layout = compute_layout(
            w, h, columns=rules.columns, cells=rules.cells, px_per_mm=self.app.px_per_mm
        )
        if self.view is None:
            self.view = TableView(self)
        else:
            self.view.resize()
        self._rest = None
        self.repaint()
        self.drag = None  # a resize in mid-drag drops nothing anywhere
        if self.toast:
            self.show_toast(self.toast.text)

    def rest(self) -> dict[Card, tuple[int, int, bool]]:
        """Where every card lies when nothing moves: (x, y, face up)."""
        if self._rest is None:
            game, lay = self.game, self.layout
            pos: dict[Card, tuple[int, int, bool]] = {}
            for i, col in enumerate(game.cols):
                ys = lay.fan_offsets(game.down[i], len(col))
                x = lay.columns[i].x
                for k, card in enumerate(col):
                    pos[card] = (x, ys[k], k >= game.down[i])
            for i, card in enumerate(game.cells):
                if card != EMPTY:
                    pos[card] = (lay.cells[i].x, lay.cells[i].y, True)
            for suit in range(4):
                r = lay.foundations[suit]
                for rank in range(game.found[suit]):
                    pos[suit * 13 + rank] = (r.x, r.y, True)
            self._rest = pos
        return self._rest

    def card_rect(self, card: Card) -> Rect:
        x, y, _ = self.rest()[card]
        return Rect(x, y, self.layout.card_w, self.layout.card_h)

    def group_rect(self, card: Card) -> Rect:
        """The area of ``card`` and every card lying on it."""
        pile, pos = self.game.locate(card)
        rect = self.card_rect(card)
        if pile < FOUNDATION:
            for other in self.game.cols[pile][pos + 1 :]:
                rect.union_ip(self.card_rect(other))
        return rect

    def dest_rect(self, dest: int) -> Rect:
        """The rectangle that shows a destination: a column's top card (or empty slot), the
        foundation of ``suit``, a free cell."""
        lay = self.layout
        if dest < FOUNDATION:
            col = self.game.cols[dest]
            return self.card_rect(col[-1]) if col else Rect(lay.columns[dest])
        if dest >= CELL0:
            return Rect(lay.cells[dest - CELL0])
        return lay.foundation_zone()

    def move_rect(self, move: Move) -> Rect:
        if move.dest == FOUNDATION:
            return Rect(self.layout.foundations[move.card // 13])
        return self.dest_rect(move.dest)

    def card_at(self, pos: tuple[int, int]) -> Card | None:
        """The card drawn at ``pos`` (top-most first); foundation: its top card."""
        game = self.game
        for i in range(len(game.cols)):
            for card in reversed(game.cols[i]):
                if self.card_rect(card).collidepoint(pos):
                    return card
        for card in game.cells:
            if card != EMPTY and self.card_rect(card).collidepoint(pos):
                return card
        for suit in range(4):
            top = game.foundation_top(suit)
            if top is not None and self.layout.foundations[suit].collidepoint(pos):
                return top
        return None

    def button_at(self, pos: tuple[int, int]) -> str | None:
        for name, rect in self.layout.buttons.items():
            if rect.collidepoint(pos):
                return name
        return None

    def drop_dest(self, rect: Rect) -> int | None:
        """The pile a dragged card at ``rect`` is dropped on: the one it overlaps most."""
        lay = self.layout
        zones: list[tuple[int, Rect]] = [(i, lay.column_zone(i)) for i in range(len(lay.columns))]
        zones.append((FOUNDATION, lay.foundation_zone()))
        zones += [(CELL0 + i, r.inflate(lay.gap, lay.gap)) for i, r in enumerate(lay.cells)]
        best, best_area = None, 0
        for dest, zone in zones:
            clip = zone.clip(rect)
            area = clip.width * clip.height
            if area > best_area:
                best, best_area = dest, area
        return best

    # ================================================================= state changes
    @property
    def art(self) -> CardArt:
        assert self.view is not None
        return self.view.art

    def repaint(self) -> None:
        """The resting picture changed (cards, highlights, buttons): the view rebuilds it."""
        self.version += 1

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        assert self.view is not None
        return self.view.draw(screen, full)

    def changed(self) -> None:
        self._rest = None
        self.repaint()

    def moving(self) -> set[Card]:
        cards = {t.card for t in self.tweens}
        if self.drag:
            cards.update(self.drag.group)
        return cards

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
        self.elapsed = 0.0
        self.drag = None
        self.toast = None
        self.hint_mark = None
        self.drop_hint()
        self.last_tap = None
        self.pending_win = False
        if columns_changed:
            self.resize()
        self.changed()
        self.sync_indicator()
        self.app.hooks.started(game)

    def finish_tweens(self) -> None:
        """New input: every running animation jumps to its end."""
        if self.tweens:
            self.tweens = []
            self.repaint()

    def _glide(self, start: Pos, end: Pos) -> float:
        dist = math.hypot(end[0] - start[0], end[1] - start[1])
        span = math.hypot(self.layout.width, self.layout.height) / 2
        return GLIDE_MIN + (GLIDE_MAX - GLIDE_MIN) * min(1.0, dist / span)

    def piles(self) -> dict[Card, int]:
        """Which pile each card is in (column index, FOUNDATION, CELL0 + i)."""
        game = self.game
        where: dict[Card, int] = {}
        for i, col in enumerate(game.cols):
            for card in col:
                where[card] = i
        for i, card in enumerate(game.cells):
            if card != EMPTY:
                where[card] = CELL0 + i
        for suit in range(4):
            for rank in range(game.found[suit]):
                where[suit * 13 + rank] = FOUNDATION
        return where

    def animate_change(
        self,
        before: dict[Card, tuple[int, int, bool]],
        piles_before: dict[Card, int],
        origin: dict[Card, Pos] | None = None,
    ) -> None:
        """Glide every card whose pile changed from where it was (or from ``origin``) to its
        new place, and turn over every card whose face changed. Cards that only shift inside
        their column (a fan that squeezes) just take their new place."""
        after = self.rest()
        piles_after = self.piles()
        origin = origin or {}
        z = 0
        for card, (x, y, up) in after.items():
            bx, by, bup = before[card]
            start = origin.get(card, (float(bx), float(by)))
            moved = piles_before[card] != piles_after[card] or card in origin
            flip = 0 if up == bup else (1 if up else -1)
            if moved or flip:
                end = (float(x), float(y))
                duration = self._glide(start, end) if moved else FLIP
                if flip and moved:
                    duration = max(duration, FLIP)
                z += 1
                self.tweens.append(Tween(card, start, end, self.now, duration, flip, z))
        self.repaint()

    def make_move(self, move: Move, origin: dict[Card, Pos] | None = None) -> bool:
        """The one place where the table makes a move. Refusals show the rule (when the
        "Interactive rules" setting is on) and change nothing."""
        refusal = self.game.check(move)
        if refusal is not None:
            self.refuse(refusal)
            return False
        before, piles = dict(self.rest()), self.piles()
        self.game.play(move)
        self.changed()
        self.animate_change(before, piles, origin)
        self.hint_mark = None
        self.drop_hint()
        if self.game.is_won:
            self.pending_win = True
        self.sync_indicator()
        self.app.hooks.moved(self.game, move)
        return True

    def undo(self) -> bool:
        self.finish_tweens()
        self.drag = None
        before, piles = dict(self.rest()), self.piles()
        if not self.game.undo():
            self.show_toast(self.tr("table.nothing_to_undo"))
            return False
        self.changed()
        self.animate_change(before, piles)
        self.hint_mark = None
        self.drop_hint()
        self.sync_indicator()
        self.app.hooks.undone(self.game)
        return True

    def refuse(self, refusal: Exception) -> None:
        if self.app.settings.interactive_rules:
            self.show_toast(self.tr.refusal(refusal))

    def show_toast(self, text: str) -> None:
        lay = self.layout
        # Readable on the panel: at least 3 mm (small cards on a dense portrait panel).
        size = max(13, int(lay.card_h * 0.15), int(3.0 * lay.px_per_mm))
        max_w = min(int(lay.width * 0.8), int(size * 28))
        lines = ui.wrap(text, max_w - 2 * size, size)
        line_h = font(size).get_linesize()
        w = min(max_w, max(font(size).size(line)[0] for line in lines) + 2 * size)
        h = line_h * len(lines) + size
        surface = pygame.Surface((w, h), pygame.SRCALPHA)
        pygame.draw.rect(surface, (20, 24, 22, 235), surface.get_rect(), border_radius=size // 2)
        pygame.draw.rect(surface, (*HIGHLIGHT, 255), surface.get_rect(), 2, border_radius=size // 2)
        ui.draw_wrapped(surface, text, Rect(size, size // 2, w - 2 * size, h - size), size)
        area_bottom = lay.column_bottom - lay.margin
        # Just under the cards where there is room (a tall portrait table), else at the bottom.
        lowest = max(
            (self.card_rect(col[-1]).bottom for col in self.game.cols if col),
            default=lay.columns[0].bottom,
        )
        bottom = min(area_bottom, max(lowest + 2 * lay.gap + h, lay.columns[0].bottom))
        rect = surface.get_rect(midbottom=(lay.columns[0].left + self._row_width() // 2, bottom))
        self.toast = Toast(text, self.now + TOAST_SECONDS, surface.convert_alpha(), rect, size)

    def _row_width(self) -> int:
        cols = self.layout.columns
        return cols[-1].right - cols[0].left

    # ================================================================= gestures
    def handle(self, event: Event) -> bool:
        if isinstance(event, pygame.event.EventType):
            return self.handle_key(event)
        if isinstance(event, Press):
            self.finish_tweens()
            self.toast = None
            self.pressed_button = self.button_at(event.pos)
        elif isinstance(event, Tap):
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
        if event.type != pygame.KEYDOWN:
            return False
        key, mod = event.key, getattr(event, "mod", 0)
        if (key == pygame.K_z and mod & pygame.KMOD_CTRL) or key == pygame.K_BACKSPACE:
            self.undo()
        elif key == pygame.K_h:
            self.hint()
        elif key == pygame.K_n:
            self.press_button("new")
        else:
            return False
        return True

    def press_button(self, name: str) -> None:
        self.finish_tweens()
        if name == "undo":
            self.undo()
        elif name == "hint":
            self.hint()
        elif name == "new":
            self.app.scenes.open("newgame")
        elif name == "settings":
            self.app.scenes.open("settings")

    def on_tap(self, pos: tuple[int, int]) -> None:
        self.finish_tweens()
        name = self.button_at(pos)
        if name:
            self.last_tap = None
            self.press_button(name)
            return
        card = self.card_at(pos)
        if card is None:
            self.last_tap = LastTap(None, False)
            return
        acted = False
        if self.game.locate(card)[0] != FOUNDATION:
            move = self.game.tap_move(card)
            if move is not None:
                acted = self.make_move(move)
        self.last_tap = LastTap(card, acted)

    def on_double_tap(self, event: DoubleTap) -> None:
        if not self.app.settings.double_tap:
            self.on_tap(event.pos)
            return
        self.finish_tweens()
        last, self.last_tap = self.last_tap, None
        if last is None:
            self.on_tap(event.pos)  # the first tap went to a button or another scene
            return
        if last.card is None or last.acted:
            return  # nothing under the first tap, or it already moved: never act again
        card = last.card
        if self.game.locate(card)[0] == FOUNDATION:
            return  # foundation cards come back only by dragging
        move = self.game.double_tap_move(card)
        if move is not None:
            self.make_move(move)
        else:
            self.refuse(self.game.why_stuck(card))

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
            self.refuse(refusal)
            return
        rest = self.rest()
        x, y, _ = rest[card]
        offsets = tuple(rest[c][1] - y for c in group)
        legal = frozenset(m.dest for m in self.game.targets(card))
        self.drag = Drag(
            card, group, (event.start[0] - x, event.start[1] - y), event.pos, offsets, legal
        )
        self.repaint()

    def drag_origin(self, drag: Drag) -> dict[Card, Pos]:
        x = drag.pos[0] - drag.grab[0]
        y = drag.pos[1] - drag.grab[1]
        return {
            c: (float(x), float(y + off)) for c, off in zip(drag.group, drag.offsets, strict=True)
        }

    def on_drop(self, pos: tuple[int, int] | None) -> None:
        drag, self.drag = self.drag, None
        if drag is None:
            return
        self.repaint()
        if pos is not None:
            drag.pos = pos
        origin = self.drag_origin(drag)
        first = origin[drag.card]
        rect = Rect(int(first[0]), int(first[1]), self.layout.card_w, self.layout.card_h)
        dest = self.drop_dest(rect) if pos is not None else None
        source = self.game.locate(drag.card)[0]
        refusal: IllegalMove | None = None
        move: Move | None = None
        if dest is not None and dest != source:
            candidate = Move(drag.card, dest)
            refusal = self.game.check(candidate)
            if refusal is None:
                move = candidate
        back_home = dest == source  # put back where it was: the player changed their mind
        if move is None and pos is not None and not back_home and self.app.settings.auto_placement:
            center = rect.center

            def distance(m: Move) -> float:
                target = self.move_rect(m)
                return math.hypot(target.centerx - center[0], target.centery - center[1])

            move = self.game.auto_target(drag.card, near=distance)
            if move is None and refusal is None:
                refusal = self.game.why_stuck(drag.card)
        if move is not None:
            self.make_move(move, origin)
            return
        # Refused or dropped nowhere: fly back.
        rest = self.rest()
        for z, card in enumerate(drag.group):
            x, y, _ = rest[card]
            start = origin[card]
            end = (float(x), float(y))
            self.tweens.append(Tween(card, start, end, self.now, self._glide(start, end), 0, z))
        if refusal is not None:
            self.refuse(refusal)

    def hint(self) -> None:
        """Ask the solver (in the App's hint worker) and say "thinking" at once; the answer
        is shown by :meth:`poll_hint` when it comes, if the position is still the same."""
        self.finish_tweens()
        thinking = self.tr("table.hint_thinking")
        job, key = self.hint_job, self.game.position_key()
        if job is not None and job.game is self.game and job.key == key:
            self.show_toast(thinking)  # already on it: no second search
            return
        self.drop_hint()
        self.hint_mark = None
        self.show_toast(thinking)
        self.hint_job = HintJob(self.app.workers.ask_hint(self.game), self.game, key, self.now)

    def drop_hint(self) -> None:
        """The position changed (a move, undo or new game): forget the hint being worked out."""
        job, self.hint_job = self.hint_job, None
        if job is None:
            return
        job.future.cancel()  # still queued: never runs; running: its answer is ignored
        if self.toast is not None and self.toast.text == self.tr("table.hint_thinking"):
            self.toast = None

    def poll_hint(self) -> None:
        """Each frame: show the hint when it has come (cheap while it has not)."""
        job = self.hint_job
        if job is None:
            return
        if not job.future.done():
            if self.now - job.since < HINT_GIVE_UP_SECONDS:
                toast = self.toast
                if toast is not None and toast.text == self.tr("table.hint_thinking"):
                    toast.until = max(toast.until, self.now + 0.5)  # thinking until it is done
                return
            self.drop_hint()  # a stuck worker: give up on it, the next hint gets a new one
            self.app.workers.stop("hint")
            self.show_toast(self.tr("table.hint_unavailable"))
            return
        if not self.active:
            return  # shown when the player is back at the table
        self.hint_job = None
        if job.game is not self.game or job.key != self.game.position_key():
            return  # asked about another position: stale
        self.show_hint(job.future)

    def show_hint(self, future: Future[Any]) -> None:
        try:
            move = self.app.workers.hint_answer(future)
        except LostPosition:
            # Moves remain (a card may even go home), but none leads to a win.
            self.show_toast(self.tr("table.hint_lost"))
            return
        except LookupError:
            self.show_toast(self.tr("table.hint_unavailable"))
            return
        except IllegalMove as refusal:
            self.show_toast(self.tr.refusal(refusal))
            return
        if move is None:
            self.show_toast(self.tr("table.hint_none"))
            return
        self.hint_mark = HintMark(move, self.now + HINT_SECONDS)
        self.show_toast(self.tr("table.hint_move", move=self.describe(move)))

    def describe(self, move: Move) -> str:
        card = self.tr.card(str(move).split("-")[0])
        if move.dest == FOUNDATION:
            return self.tr("table.to_foundation", card=card)
        if move.dest >= CELL0:
            return self.tr("table.to_cell", card=card, cell=move.dest - CELL0 + 1)
        return self.tr("table.to_column", card=card, column=move.dest + 1)

    # ================================================================= time
    def pause(self) -> None:
        self.active = False
        self.finish_tweens()
        self.drag = None

    def resume(self) -> None:
        self.active = True
        self.repaint()
        self.sync_indicator()  # the setting may have changed

    def sync_indicator(self) -> None:
        """Start or stop the winnable indicator as the setting says; tell it the position."""
        wanted = bool(getattr(self.app.settings, "winnable_indicator", False))
        if wanted and self.indicator is None:
            self.indicator = self.app.workers.indicator()
        elif not wanted and self.indicator is not None:
            self.close_indicator()
        if self.indicator is not None:
            self.indicator.update(self.game)
            self.indicator_status = self.indicator.poll()

    def close(self) -> None:
        """The table goes away: forget the hint, stop the indicator (app.workers.close stops
        every worker process on quit)."""
        self.drop_hint()
        self.close_indicator()

    def close_indicator(self) -> None:
        if self.indicator is not None:
            try:
                self.app.workers.close_indicator(self.indicator)
            finally:
                self.indicator = None
                self.indicator_status = ""

    def update(self, dt: float) -> None:
        self.now += dt
        if self.active and self.game.moves and not self.game.is_won:
            self.elapsed += dt
            self.app.hooks.tick(dt)
        if self.tweens:
            alive = [t for t in self.tweens if not t.done(self.now)]
            if len(alive) != len(self.tweens):
                self.tweens = alive
                self.repaint()
        if self.toast and self.now >= self.toast.until:
            self.toast = None
        if self.hint_mark and self.now >= self.hint_mark.until:
            self.hint_mark = None
        if self.indicator is not None:
            self.indicator_status = self.indicator.poll()
        self.poll_hint()
        if self.pending_win and not self.tweens and self.active:
            self.pending_win = False
            self.app.scenes.open("win", game=self.game, elapsed=self.elapsed)

    def busy(self) -> bool:
        thinking = self.hint_job is not None and not self.hint_job.future.done()
        return bool(self.tweens or self.drag or self.pending_win or thinking)

    # ================================================================= drawing
    def bar_text(self) -> tuple[str, ...]:
        seconds = int(self.elapsed)
        clock = f"{seconds // 60}:{seconds % 60:02d}"
        if seconds >= 3600:
            clock = f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        tr = self.tr
        return (
            tr("table.time", time=clock),
            tr("table.moves", count=self.game.moves),
            tr("table.score", score=self.game.score),
            self.game.code,
            tr(f"table.winnable_{self.indicator_status}") if self.indicator_status else "",
        )
