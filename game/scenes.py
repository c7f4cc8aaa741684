"""Scenes on a stack (after Tuxemon's State): the table at the bottom, dialogs pushed on top.

Lifecycle: ``enter`` when pushed, ``pause`` when another scene covers it, ``resume`` when it is on
top again, ``leave`` when popped. ``handle`` gets gestures and key events (the top scene first;
an event goes down the stack until a scene consumes it), ``update(dt)`` advances time, and
``draw(screen, full)`` paints and returns the rectangles it changed, changing nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
from pygame import Rect

from game.input import Gesture

if TYPE_CHECKING:
    from game.app import App
    from game.i18n import Translator

Event = Gesture | pygame.event.Event


class Scene:
    opaque = True  # paints the whole screen; scenes below need not be drawn
    modal = True  # consumes every event (nothing reaches the scenes below)

    def __init__(self, app: App) -> None:
        self.app = app

    # lifecycle
    def enter(self) -> None: ...
    def leave(self) -> None: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def resize(self) -> None: ...

    def handle(self, event: Event) -> bool:
        return self.modal

    def update(self, dt: float) -> None: ...

    def busy(self) -> bool:
        """True while something moves on screen (the loop must not sleep)."""
        return False

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        return []

    @property
    def tr(self) -> Translator:
        return self.app.tr
