"""The win screen: cards leap off the foundations, and a panel with the figures."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import pygame
from pygame import Rect

from engine import Game
from game.arcade.highscores import ALL_TIME
from game.clock import PlayTime
from game.look import ui
from game.look.cards import CardArt
from game.look.ui import Control
from game.scene import Event
from game.scenes.dialog import Dialog

if TYPE_CHECKING:
    from game.host import AppHost


@dataclass
class _Flyer:
    card: int
    x: float
    y: float
    vx: float
    vy: float
    trail: list[tuple[int, int]] = field(default_factory=list)


class WinScene(Dialog):
    """Cards leap off the foundations and bounce away (trails stay on the felt), with a panel:
    where the win stands, the initials just entered, time, moves, score; Add your initials
    (while the win may still be signed: the keypad opens only on this tap), High scores (the
    table it entered, marked), Look at the table and New deal. Look at the table leaves the
    finished table in sight, its buttons at work, with a bar that brings the panel back
    (Escape does what the panel's Look at the table does, and on the table what the bar does)."""

    name = "win"

    closable = False
    LAUNCH_EVERY = 0.11

    def __init__(self, app: AppHost, game: Game, play_time: PlayTime) -> None:
        self.game = game
        self.play_time = play_time  # the table's: the same seconds the bar and the save show
        self.rng = random.Random(game.number)
        self.flyers: list[_Flyer] = []
        self.launched = 0
        self.since = app.clock.time  # the cards leap from then on
        self.drawn: dict[int, int] = {}
        self.panel_image: pygame.Surface | None = None
        self.won = app.arcade.won(game)  # None: a won game restored after a restart
        self.looking = False  # Look at the table: the panel gone, the bar back to it shown
        self.venue_seen = -1  # the venue's board as the panel's venue line read it
        super().__init__(app)

    def build(self) -> None:
        if self.looking:
            self.build_bar()
            return
        tr, u = self.tr, self.unit()
        ranks = self.rank_lines() + self.venue_lines() + self.signed_lines()
        asks = self.won is not None and self.won.asks
        self.panel = self.panel_rect(max_w=u * 10, max_h=u * (6.2 + 0.55 * len(ranks) + asks))
        p = self.panel
        pad = int(u * 0.4)
        clock = self.play_time.text()
        lines = [
            ("title", tr("win.title"), 1.1, int(u * 0.65)),
            ("text", tr("win.time", time=clock), 0.6, int(u * 0.4)),
            ("text", tr("win.moves", count=self.game.moves), 0.6, int(u * 0.4)),
            ("text", tr("win.score", score=self.game.score), 0.6, int(u * 0.4)),
            ("text", self.app.table.deal_label(), 0.6, int(u * 0.4)),
            ("text", tr("win.code", code=self.game.code), 0.6, int(u * 0.32)),
        ]
        lines[1:1] = [("title", line, 0.55, int(u * 0.38)) for line in ranks]
        total = sum(h for _, _, h, _ in lines) * u + u * (1 + 1.15 * asks)
        need = total + u * 0.3 + 2 * pad
        self.fit_panel(need)  # no empty band between the figures and the buttons
        inner = p.inflate(-2 * pad, -2 * pad)
        scale = min(1.0, (inner.height - u * 0.2) / total)
        y = float(inner.top)
        for kind, text, h, size in lines:
            rect = Rect(inner.left, int(y), inner.width, int(h * u * scale))
            size = max(self.least, int(size * scale))
            self.add(Control(rect, text, kind=kind, size=size, extra={"center": True}))
            y += h * u * scale
        row = Rect(inner.left, 0, inner.width, int(u * scale))
        row.bottom = inner.bottom
        labels = [tr("scores.button"), tr("win.look"), tr("win.new_deal")]
        self.row(row, labels, [self.scores, self.look, self.new_deal], selected=2)
        if asks:  # the keypad opens on this tap only, never under a finger meant for another
            sign = row.move(0, -int(u * 1.15 * scale))
            self.row(sign, [tr("win.sign")], [self.sign])
        self.panel_image = None

    def build_bar(self) -> None:
        """Look at the table: one button back to the panel, low on the felt clear of the
        table's buttons and its info bar (a won table's columns are empty)."""
        u, lay = self.unit(), self.app.table.model.layout
        w, h = self.app.screen.get_size()
        area = Rect(0, lay.info_bar.bottom, w, h - lay.info_bar.bottom)
        if lay.buttons:
            buttons = Rect(next(iter(lay.buttons.values()))).unionall(list(lay.buttons.values()))
            if buttons.left > w // 2:  # a column of buttons on the right
                area.width = buttons.left
            else:  # rows of buttons at the bottom
                area.height = buttons.top - area.top
        margin = int(u * 0.3)
        self.panel = Rect(0, 0, int(min(u * 6.5, area.width - 2 * margin)), int(u * 1.3))
        self.panel.midbottom = (area.centerx, area.bottom - margin)
        inner = self.panel.inflate(-int(u * 0.3), -int(u * 0.3))
        self.row(inner, [self.tr("win.results")], [self.results], selected=0)
        self.panel_image = None

    def signed_lines(self) -> list[str]:
        """The initials the player just put on the win's entry (none: not signed)."""
        initials = self.won.entry.initials if self.won is not None else ""
        return [self.tr("win.signed", initials=initials)] if initials else []

    def rank_lines(self) -> list[str]:
        """Where the win stands in today's (or, won after midnight, yesterday's) and the
        all-time high scores (game.arcade.play)."""
        if self.won is None:
            return []
        rank, day = self.won.rank, self.won.entry.day
        lines = []
        if rank.today is not None:
            if day is None or day == self.app.arcade.today().isoformat():
                lines.append(self.tr("arcade.rank_today", place=rank.today))
            else:  # yesterday's deal, won after midnight: its own day's table
                date = self.tr.date(dt.date.fromisoformat(day))
                lines.append(self.tr("arcade.rank_past", place=rank.today, date=date))
        if rank.all_time is not None:
            lines.append(self.tr("arcade.rank_all", place=rank.all_time))
        return lines

    def venue_lines(self) -> list[str]:
        """Where the win stands among the whole venue (game.arcade.venue, with a venue): in
        today's table when it is today's deal and there, else in the all-time one; and among how
        many kiosks ("3rd today of all 4 kiosks")."""
        board, tr = self.app.arcade.venue, self.tr
        if board is None:
            return []
        self.venue_seen = board.changes
        if self.won is None:
            return []
        entry, today = self.won.entry, self.app.arcade.today().isoformat()
        for table, key in ((today, "today"), (ALL_TIME, "all")):
            place = board.place(entry, table) if entry.day == table or key == "all" else None
            if place is not None:
                rank, kiosks = place
                if kiosks == 1:  # the only kiosk with wins there yet
                    return [tr(f"arcade.venue_{key}_alone", nth=tr.ordinal(rank))]
                return [tr(f"arcade.venue_{key}", nth=tr.ordinal(rank), count=kiosks)]
        return []

    def scores(self) -> None:
        """The high scores, on the table the win entered with its entry marked (ScoresScene)."""
        self.app.scenes.open("scores")

    def look(self) -> None:
        """The panel goes: the finished table is in sight, its buttons at work (New game,
        Settings...), with the bar that brings the panel back (:meth:`results`)."""
        self.looking = True
        self.flyers, self.launched = [], 52  # the leaping cards are over
        self.app.table.resume()
        self.rebuild()
        self.app.redraw()

    def results(self) -> None:
        """The bar's Back to the results: the panel again, over the dimmed table."""
        self.looking = False
        self.app.table.pause()
        self.rebuild()
        self.app.redraw()

    def sign(self) -> None:
        """Add your initials: the keypad for the win's initials, once (it signs or skips)."""
        won = self.won
        if won is not None and won.asks:
            self.won = replace(won, asks=False)
            self.app.scenes.open("initials", ranks=self.rank_lines()[0])  # the day's first

    def resume(self) -> None:
        """Back on top: the initials just entered show (or, skipped, the button goes)."""
        if self.won is not None:
            self.won = self.app.arcade.won(self.game) or self.won
        self.rebuild()

    def on_key(self, event: pygame.event.Event) -> None:
        """Escape does what the visible close action does: on the panel Look at the table, on
        the table the bar's Back to the results."""
        if event.key == pygame.K_ESCAPE:
            self.results() if self.looking else self.look()

    def handle(self, event: Event) -> bool:
        """Looking at the table, only the bar (and Escape) is the win screen's: every other
        touch and key goes on to the table."""
        if not self.looking:
            return super().handle(event)
        if isinstance(event, pygame.event.EventType):
            escape = event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
            return super().handle(event) if escape else False
        pos = getattr(event, "pos", None)
        if pos is not None and self.panel.collidepoint(pos):
            return super().handle(event)
        if self.pressed is not None:
            self.pressed, self.dirty = None, True
        return False

    def new_deal(self) -> None:
        """Another deal of the game just won (it may have come from a typed code)."""
        self.app.games.choice = self.app.games.choice_for(self.game)
        game = self.app.games.new()
        self.app.scenes.pop_to_bottom()
        self.app.table.start_game(game)

    def busy(self) -> bool:
        return self.launched < 52 or bool(self.flyers)

    def update(self, dt: float) -> None:
        board = self.app.arcade.venue
        if board is not None and board.changes != self.venue_seen and not self.looking:
            self.rebuild()  # another kiosk's table came: the venue line says it now
        clock = self.app.clock.time - self.since
        w, h = self.app.screen.get_size()
        table = self.app.table
        lay = table.model.layout
        while self.launched < 52 and clock >= self.launched * self.LAUNCH_EVERY:
            k = self.launched
            suit = k % 4
            rank = 12 - k // 4
            card = suit * 13 + rank
            start = lay.foundations[suit]
            speed = w * self.rng.uniform(0.25, 0.6)
            direction = -1 if self.rng.random() < 0.5 else 1
            self.flyers.append(
                _Flyer(card, start.x, start.y, speed * direction, -h * self.rng.uniform(0.0, 0.6))
            )
            self.launched += 1
        gravity = h * 2.4
        floor = h - lay.card_h
        alive = []
        for f in self.flyers:
            f.vy += gravity * dt
            f.x += f.vx * dt
            f.y += f.vy * dt
            if f.y > floor:
                f.y = floor
                f.vy = -abs(f.vy) * 0.72
            f.trail.append((int(f.x), int(f.y)))
            if -lay.card_w < f.x < w:
                alive.append(f)
        self.flyers = alive

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        if self.looking:
            return self.draw_bar(screen, full)
        art: CardArt = self.app.table.art
        rects: list[Rect] = []
        if full:
            shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
            shade.fill((0, 0, 0, 70))
            screen.blit(shade, (0, 0))
            self.drawn = {}
        for f in self.flyers:
            start = self.drawn.get(f.card, 0)
            image = art.face(f.card)
            for pos in f.trail[start:]:
                screen.blit(image, pos)
                rects.append(image.get_rect(topleft=pos))
            self.drawn[f.card] = len(f.trail)
        if full or self.dirty or any(r.colliderect(self.panel) for r in rects):
            if self.panel_image is None or self.dirty:
                surface = pygame.Surface(self.panel.size, pygame.SRCALPHA)
                offset = (-self.panel.left, -self.panel.top)
                moved = [
                    Control(
                        c.rect.move(offset),
                        c.label,
                        c.action,
                        c.kind,
                        c.selected,
                        c.enabled,
                        c.size,
                        c.name,
                        c.extra,
                    )
                    for c in self.controls
                ]
                ui.panel(
                    surface, surface.get_rect(), radius=max(8, int(self.unit() * 0.25)), alpha=255
                )
                for c in moved:
                    self.paint_control(surface, c)
                self.panel_image = surface
            screen.blit(self.panel_image, self.panel)
            rects.append(Rect(self.panel))
            self.dirty = False
        if full:
            return [screen.get_rect()]
        return rects

    def draw_bar(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        """Looking at the table: the table's own changes (a full redraw has drawn it already),
        and the bar over them."""
        rects = [] if full else self.app.table.draw(screen, False)
        if full or self.dirty or any(r.colliderect(self.panel) for r in rects):
            ui.panel(screen, self.panel, radius=max(8, int(self.unit() * 0.25)), alpha=235)
            for control in self.controls:
                self.paint_control(screen, control)
            rects.append(Rect(self.panel))
            self.dirty = False
        return [screen.get_rect()] if full else rects
