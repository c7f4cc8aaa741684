"""The base of the dialogs pushed over the table (new game, keypad, settings, rules, win,
statistics, PIN).

A dialog is a panel of controls (buttons, choices, switches) laid out from the screen size. It
dims the table once when it opens and afterwards redraws only its own panel when something in
it changed. Everything acts on a tap; nothing needs a keyboard (keys work too).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame
from pygame import Rect

from game.input import DoubleTap, Press, Tap
from game.look import ui
from game.look.fonts import font
from game.look.typeset import SHY
from game.look.ui import Control
from game.scene import Event, Scene

if TYPE_CHECKING:
    from game.host import AppHost


class Dialog(Scene):
    app: AppHost  # a dialog is over the visitor's table (game.host)
    opaque = False
    closable = True

    def __init__(self, app: AppHost) -> None:
        super().__init__(app)
        self.controls: list[Control] = []
        self.panel = Rect(0, 0, 0, 0)
        self.dirty = True
        self.pressed: Control | None = None
        self.backdrop: pygame.Surface | None = None
        self._shown = Rect(0, 0, 0, 0)  # where the panel was last drawn
        self.resize()

    # ----------------------------------------------------------------- layout
    def panel_rect(self, max_w: float = 760, max_h: float = 620) -> Rect:
        """A centred panel ``max_w`` by ``max_h`` at most (a dialog's own measure of what it
        holds: never stretched to the screen's height, which left a portrait screen's question
        with half a screen of empty panel), within the screen."""
        w, h = self.app.screen.get_size()
        if w > 1400:
            max_w = max(max_w, w * 0.5)
        elif w <= 1100 and w > h:
            max_w = max(max_w, w * 0.72)  # a small landscape panel: use its width
        pw = int(min(w * 0.94, max_w))
        ph = int(min(h * 0.94, max_h))
        rect = Rect(0, 0, pw, ph)
        rect.center = (w // 2, h // 2)
        return rect

    def fit_panel(self, need: float) -> None:
        """No empty band under the last row (a tall screen's panel_rect is taller than most
        dialogs need): the panel no taller than ``need``, the height of what it holds, and
        centred again."""
        if need < self.panel.height:
            self.panel.height = int(need)
            self.panel.center = self.app.screen.get_rect().center

    @property
    def least(self) -> int:
        """The least text size of a dialog: the table's info bar's (Layout.text_size)."""
        return self.app.table.model.layout.text_size

    def unit(self) -> float:
        """A base size for text and rows: about a finger's height, scaled to the panel."""
        ppm = self.app.px_per_mm
        w, h = self.app.screen.get_size()
        return max(min(h, w) * 0.075, min(9 * ppm, min(h, w) * 0.11), 34)

    def resize(self) -> None:
        self.controls = []
        self.build()
        self.dirty = True

    def build(self) -> None: ...

    def rebuild(self) -> None:
        self.resize()

    def add(self, control: Control) -> Control:
        self.controls.append(control)
        return control

    def row(
        self,
        rect: Rect,
        labels: list[str],
        actions: Sequence[Callable[[], object]],
        selected: int = -1,
        size: int = 0,
    ) -> None:
        """Buttons side by side filling ``rect``: one text size for the whole row (a long label
        wraps to two lines before it shrinks, a lone long word takes room from the others
        first), and the labels set alike (one split at its " · " splits them all)."""
        gap = max(6, rect.height // 8)
        room = rect.width - gap * (len(labels) - 1)
        start = max(self.least, size or int(self.unit() * 0.36))
        size, widths = fit_row(labels, room, rect.height, start, self.least)
        split = any(
            " · " in label and len(ui.label_lines(label, int(w) - 10, rect.height, size)) > 1
            for label, w in zip(labels, widths, strict=True)
        )
        x = float(rect.left)
        for i, (label, action, w) in enumerate(zip(labels, actions, widths, strict=True)):
            r = Rect(round(x), rect.top, round(x + w) - round(x), rect.height)
            x += w + gap
            control = Control(r, label, action, selected=(i == selected), size=size)
            if split and " · " in label:
                control.extra["split"] = True
            self.add(control)

    # ----------------------------------------------------------------- events
    def control_at(self, pos: tuple[int, int]) -> Control | None:
        for control in self.controls:
            if control.action and control.enabled and control.rect.collidepoint(pos):
                return control
        return None

    def handle(self, event: Event) -> bool:
        if isinstance(event, pygame.event.EventType):
            if event.type == pygame.KEYDOWN:
                self.on_key(event)
            return True
        if isinstance(event, Press):
            self.pressed = self.control_at(event.pos)
            self.dirty = True
        elif isinstance(event, Tap | DoubleTap):
            control = self.control_at(event.pos)
            self.pressed = None
            self.dirty = True
            if control and control.action:
                control.action()
        else:
            if self.pressed:
                self.pressed = None
                self.dirty = True
        return True

    def on_key(self, event: pygame.event.Event) -> None:
        if event.key == pygame.K_ESCAPE and self.closable:
            self.close()

    def close(self) -> None:
        self.app.scenes.pop(self)

    # ----------------------------------------------------------------- drawing
    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        if full:
            shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
            shade.fill((0, 0, 0, 120))
            screen.blit(shade, (0, 0))
            # The whole dimmed screen: the panel may change size later (a row comes or goes).
            self.backdrop = screen.copy()
            self._shown = Rect(self.panel)
        elif not self.dirty:
            return []
        self.dirty = False
        area = self.panel.union(self._shown)
        if self.backdrop is not None:
            screen.blit(self.backdrop, area, area)
        self.paint(screen)
        self._shown = Rect(self.panel)
        return [screen.get_rect()] if full else [area]

    def paint(self, screen: pygame.Surface) -> None:
        ui.panel(screen, self.panel, radius=max(8, int(self.unit() * 0.25)))
        for control in self.controls:
            self.paint_control(screen, control)

    def paint_control(self, screen: pygame.Surface, c: Control) -> None:
        size = c.size or int(self.unit() * 0.36)
        if c.kind == "button":
            ui.button(
                screen,
                c.rect,
                c.label,
                selected=c.selected,
                enabled=c.enabled,
                pressed=c is self.pressed,
                size=size,
                split=c.extra.get("split", False),
            )
        elif c.kind == "title":
            img = ui.fit_text(c.label, c.rect.width, size, ui.INK, bold=True)
            screen.blit(img, img.get_rect(center=c.rect.center))
        elif c.kind == "label":
            img = ui.fit_text(c.label, c.rect.width, size, ui.INK_DIM)
            screen.blit(img, img.get_rect(midleft=c.rect.midleft))
        elif c.kind == "text":
            ui.draw_wrapped(
                screen, c.label, c.rect, size, ui.INK, center=c.extra.get("center", False)
            )
        elif c.kind == "error":
            ui.draw_wrapped(screen, c.label, c.rect, size, ui.ERROR, center=True)
        elif c.kind == "field":
            pygame.draw.rect(screen, (250, 248, 236), c.rect, border_radius=8)
            pygame.draw.rect(screen, ui.BUTTON_ON, c.rect, 2, border_radius=8)
            img = ui.fit_text(c.label + "▏", c.rect.width - 20, size, (20, 20, 20), bold=True)
            screen.blit(img, img.get_rect(center=c.rect.center))


def fit_row(
    labels: Sequence[str], room: float, height: int, start: int, floor: int
) -> tuple[int, list[float]]:
    """The text size (``start`` down to ``floor``) and the widths of a row of buttons sharing
    ``room``: the largest size at which every label fits its button (issue 40 item 5:
    «Satunnainen» whole, never «Satun-» / «nainen», nor the whole row shrunk for it)."""
    size = start
    while True:
        widths = share_row(labels, room, size)
        f = font(size)
        if size <= floor or all(
            f.size(line)[0] <= int(w) - 10
            for label, w in zip(labels, widths, strict=True)
            for line in ui.label_lines(label, int(w) - 10, height, size)
        ):
            return size, widths
        size -= 1


def share_row(labels: Sequence[str], room: float, size: int) -> list[float]:
    """Equal widths; but where a label of one word is too wide for its share, each label of
    one word gets the width it needs (the others an equal share) and the room left over is
    shared out equally, where the row has the room."""
    n = len(labels)
    equal = room / n
    f = font(size)
    need = [
        f.size(label.replace(SHY, ""))[0] + 18.0 if len(label.split()) == 1 else equal
        for label in labels
    ]
    if all(width <= equal for width in need) or sum(need) > room:
        return [equal] * n
    spare = (room - sum(need)) / n
    return [width + spare for width in need]
