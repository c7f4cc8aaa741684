"""Putting the picture on the real display, turned when the operator asks (config ``rotate``:
0, 90, 180 or 270 degrees clockwise; kmsdrm ignores the system's rotation settings).

The game always draws on a *logical* surface of the size it lays out for; :meth:`present`
copies only the changed rectangles to the window, turning each one, and :meth:`map_event`
turns pointer positions back. With ``rotate = 0`` the logical surface is the window itself.
"""

from __future__ import annotations

import pygame
from pygame import Rect

POINTER_EVENTS = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION)


class Presenter:
    def __init__(self, window: pygame.Surface, rotate: int = 0) -> None:
        if rotate % 90:
            raise ValueError(f"rotate must be 0, 90, 180 or 270, not {rotate!r}")
        self.rotate = rotate % 360
        self.window = window
        self.surface = window
        self.resize(window)

    def resize(self, window: pygame.Surface) -> None:
        self.window = window
        if self.rotate == 0:
            self.surface = window
            return
        w, h = window.get_size()
        size = (h, w) if self.rotate in (90, 270) else (w, h)
        self.surface = (
            pygame.Surface(size).convert()
            if pygame.display.get_surface()
            else (pygame.Surface(size))
        )

    def to_window(self, rect: Rect) -> Rect:
        """Where a logical rectangle lands on the window."""
        lw, lh = self.surface.get_size()
        x, y, w, h = rect
        if self.rotate == 90:
            return Rect(lh - y - h, x, h, w)
        if self.rotate == 180:
            return Rect(lw - x - w, lh - y - h, w, h)
        if self.rotate == 270:
            return Rect(y, lw - x - w, h, w)
        return Rect(rect)

    def to_logical(self, pos: tuple[int, int]) -> tuple[int, int]:
        """A window position (a touch) in the game's own coordinates."""
        lw, lh = self.surface.get_size()
        px, py = pos
        if self.rotate == 90:
            return (py, lh - 1 - px)
        if self.rotate == 180:
            return (lw - 1 - px, lh - 1 - py)
        if self.rotate == 270:
            return (lw - 1 - py, px)
        return (px, py)

    def map_event(self, event: pygame.event.Event) -> pygame.event.Event:
        if self.rotate == 0 or event.type not in POINTER_EVENTS or not hasattr(event, "pos"):
            return event
        attrs = dict(event.dict)
        x, y = event.pos
        attrs["pos"] = self.to_logical((int(x), int(y)))
        return pygame.event.Event(event.type, attrs)

    def present(self, rects: list[Rect]) -> None:
        """Show the changed logical rectangles on the display."""
        if not rects:
            return
        if self.rotate == 0:
            pygame.display.update(rects)
            return
        bounds = self.surface.get_rect()
        shown = []
        for rect in rects:
            part = Rect(rect).clip(bounds)
            if not part.width or not part.height:
                continue
            image = pygame.transform.rotate(self.surface.subsurface(part), -self.rotate)
            target = self.to_window(part)
            self.window.blit(image, target)
            shown.append(target)
        pygame.display.update(shown)
