"""The rules of the game on the table, scrolled by drag, wheel, buttons or keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
from pygame import Rect

from game.input import DragCancel, DragMove, DragStart, Drop
from game.look import ui
from game.look.ui import Control
from game.scene import Event
from game.scenes.dialog import Dialog

if TYPE_CHECKING:
    from game.host import AppHost


class RulesScene(Dialog):
    """The rules of the game on the table, from the message catalog, at a size a player reads
    without effort (about 3.6 mm, never under 16 px). When they do not fit, the text scrolls:
    drag or swipe it, turn the mouse wheel, tap the arrow buttons, or use the arrow and page
    keys. A bar at the side shows where you are."""

    name = "rules"

    def __init__(self, app: AppHost) -> None:
        self.scroll = 0
        self.paragraphs: list[str] = []
        self.max_scroll = 0
        self.line_h = 1
        self.view = Rect(0, 0, 0, 0)
        self.body: pygame.Surface | None = None
        self._grab: tuple[int, int] | None = None  # pointer y and scroll when a drag began
        super().__init__(app)

    def text_size(self) -> int:
        return max(16, int(3.6 * self.app.px_per_mm), int(self.unit() * 0.33))

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        # As tall as the screen allows (it shrinks when the text is short).
        self.panel = self.panel_rect(max_w=u * 16, max_h=self.app.screen.get_height())
        p = self.panel
        pad = int(u * 0.35)
        inner = p.inflate(-2 * pad, -2 * pad)
        game = self.app.table.model.game.rules.game
        title_h = int(u * 0.8)
        button_h = int(u * 0.9)
        self.add(
            Control(
                Rect(inner.left, inner.top, inner.width, title_h),
                tr(f"rules.{game}.title"),
                kind="title",
                size=int(u * 0.5),
            )
        )
        bar_w = max(6, int(u * 0.12))
        self.view = Rect(
            inner.left,
            inner.top + title_h,
            inner.width - 2 * bar_w,
            inner.height - title_h - button_h - pad,
        )
        depth = self.app.games.undo_depth  # the operator's undo_depth: 0 = every move
        undo = tr("table.rules_undo", count=depth) if depth else tr("table.rules_undo_unlimited")
        self.paragraphs = paragraphs = tr.paragraphs(f"rules.{game}.body", undo=undo)
        self.body, self.line_h = ui.paragraphs_image(paragraphs, self.view.width, self.text_size())
        if self.body.get_height() <= self.view.height:
            # Everything fits: the panel shrinks to the text.
            spare = self.view.height - self.body.get_height()
            p.height -= spare
            p.center = (self.app.screen.get_width() // 2, self.app.screen.get_height() // 2)
            inner = p.inflate(-2 * pad, -2 * pad)
            self.controls[0].rect.top = inner.top
            self.view.top = inner.top + title_h
            self.view.height = self.body.get_height()
        self.max_scroll = max(0, self.body.get_height() - self.view.height)
        self.scroll = min(self.scroll, self.max_scroll)
        row = Rect(inner.left, inner.bottom - button_h, inner.width, button_h)
        labels = [tr("examples.title"), tr("dialog.close")]
        if self.max_scroll:
            gap = max(6, button_h // 8)
            side = min((row.width - 2 * gap) // 4, int(button_h * 1.4))  # words get the rest
            middle = Rect(row.left + side + gap, row.top, row.width - 2 * side - 2 * gap, button_h)
            arrow = int(button_h * 0.45)
            up = Rect(row.left, row.top, side, button_h)
            self.add(Control(up, "▲", self.page_up, name="up", size=arrow))
            self.row(middle, labels, [self.examples, self.close], 1)
            down = Rect(row.right - side, row.top, side, button_h)
            self.add(Control(down, "▼", self.page_down, name="down", size=arrow))
        else:
            middle = Rect(0, 0, int(inner.width * 0.7), button_h)
            middle.midbottom = inner.midbottom
            self.row(middle, labels, [self.examples, self.close], 1)
        self._sync_arrows()

    def examples(self) -> None:
        """The Examples page: short situations played on a small table."""
        self.app.scenes.open("examples")

    # ----------------------------------------------------------------- scrolling
    def scroll_to(self, value: float) -> None:
        value = int(max(0, min(self.max_scroll, value)))
        if value != self.scroll:
            self.scroll = value
            self._sync_arrows()
            self.dirty = True

    def page_up(self) -> None:
        self.scroll_to(self.scroll - (self.view.height - self.line_h))

    def page_down(self) -> None:
        self.scroll_to(self.scroll + (self.view.height - self.line_h))

    def _sync_arrows(self) -> None:
        for control in self.controls:
            if control.name == "up":
                control.enabled = self.scroll > 0
            elif control.name == "down":
                control.enabled = self.scroll < self.max_scroll

    def handle(self, event: Event) -> bool:
        if isinstance(event, pygame.event.EventType) and event.type == pygame.MOUSEWHEEL:
            self.scroll_to(self.scroll - getattr(event, "y", 0) * self.line_h * 3)
            return True
        if isinstance(event, DragStart) and self.panel.collidepoint(event.start):
            self._grab = (event.start[1], self.scroll)
            self.pressed = None
            self.scroll_to(self.scroll - (event.pos[1] - event.start[1]))
            return True
        if isinstance(event, DragMove) and self._grab is not None:
            y, scroll = self._grab
            self.scroll_to(scroll - (event.pos[1] - y))
            return True
        if isinstance(event, Drop | DragCancel) and self._grab is not None:
            self._grab = None
            return True
        return super().handle(event)

    def on_key(self, event: pygame.event.Event) -> None:
        steps = {
            pygame.K_UP: -self.line_h,
            pygame.K_DOWN: self.line_h,
            pygame.K_PAGEUP: -(self.view.height - self.line_h),
            pygame.K_PAGEDOWN: self.view.height - self.line_h,
            pygame.K_SPACE: self.view.height - self.line_h,
            pygame.K_HOME: -self.max_scroll,
            pygame.K_END: self.max_scroll,
        }
        if event.key in steps:
            self.scroll_to(self.scroll + steps[event.key])
        else:
            super().on_key(event)

    # ----------------------------------------------------------------- drawing
    def paint(self, screen: pygame.Surface) -> None:
        super().paint(screen)
        if self.body is None:
            return
        area = Rect(0, self.scroll, self.view.width, self.view.height)
        screen.blit(self.body, self.view.topleft, area)
        if self.max_scroll:
            u = self.unit()
            bar_w = max(6, int(u * 0.12))
            track = Rect(self.view.right + bar_w, self.view.top, bar_w, self.view.height)
            pygame.draw.rect(screen, (40, 66, 52), track, border_radius=bar_w // 2)
            total = self.body.get_height()
            thumb_h = max(bar_w * 3, track.height * self.view.height // total)
            top = track.top + (track.height - thumb_h) * self.scroll // self.max_scroll
            thumb = Rect(track.left, top, bar_w, thumb_h)
            pygame.draw.rect(screen, ui.PANEL_EDGE, thumb, border_radius=bar_w // 2)
