"""Scenes on a stack (after Tuxemon's State): the table at the bottom, dialogs pushed on top.

Lifecycle: ``enter`` when pushed, ``pause`` when another scene covers it, ``resume`` when it is on
top again, ``leave`` when popped. ``handle`` gets gestures and key events (the top scene first;
an event goes down the stack until a scene consumes it), ``update(dt)`` advances time, and
``draw(screen, full)`` paints and returns the rectangles it changed, changing nothing else.

Scenes never import each other: each is registered under a name (game.scenes.SCENES lists
them, with the table) and opened by it, ``app.scenes.open("rules")``. A scene knows
its host through the Protocols of game.host, never the App; there ``Stack.open`` has one
overload per scene, with its arguments, so mypy checks every opening.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, overload

import pygame
from pygame import Rect

from game.input import Gesture

if TYPE_CHECKING:
    from game.host import Host, Named
    from game.i18n import Translator

Event = Gesture | pygame.event.Event


class Scene:
    name = ""  # the name it is registered under (SceneStack.register)
    opaque = True  # paints the whole screen; scenes below need not be drawn
    modal = True  # consumes every event (nothing reaches the scenes below)

    def __init__(self, app: Host) -> None:
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
        """True while something moves on screen (the loop draws every frame)."""
        return False

    def deadline(self) -> float | None:
        """The clock time (``app.clock.time``) when this scene next changes by itself with
        nobody touching it (a toast going, a blink, a timer); None: not by itself. A resting
        loop sleeps until the earliest deadline of its scenes (game.app.App.run)."""
        return None

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        return []

    @property
    def tr(self) -> Translator:
        return self.app.tr


SceneFactory = Callable[..., Scene]


class SceneRegistry:
    """What builds each scene, by its name (game.scenes.register_scenes fills one)."""

    def __init__(self) -> None:
        self._factories: dict[str, SceneFactory] = {}

    def register(self, name: str, factory: SceneFactory) -> None:
        """``open(name, **kwargs)`` builds ``factory(app, **kwargs)``."""
        self._factories[name] = factory

    def factory(self, name: str) -> SceneFactory:
        """What builds the scene registered under ``name``. KeyError for an unknown name."""
        try:
            return self._factories[name]
        except KeyError:
            raise KeyError(f"no scene registered as {name!r}") from None


class SceneStack(Sequence[Scene]):
    """The scenes on screen, bottom first, built from ``registry`` by name (none: an empty
    one of its own). Every change asks for a full redraw (``on_change``); the bottom scene
    (the table) is never popped."""

    def __init__(
        self,
        app: Host,
        registry: SceneRegistry | None = None,
        *,
        on_change: Callable[[], None] = lambda: None,
    ) -> None:
        self.app = app
        self.on_change = on_change
        self._scenes: list[Scene] = []
        self.registry = registry if registry is not None else SceneRegistry()

    # ----------------------------------------------------------------- a sequence
    @overload
    def __getitem__(self, index: int) -> Scene: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Scene]: ...
    def __getitem__(self, index: int | slice) -> Scene | Sequence[Scene]:
        return self._scenes[index]

    def __len__(self) -> int:
        return len(self._scenes)

    @property
    def top(self) -> Scene:
        return self._scenes[-1]

    # ----------------------------------------------------------------- by name
    def register(self, name: str, factory: SceneFactory) -> None:
        """``open(name, **kwargs)`` builds ``factory(app, **kwargs)``."""
        self.registry.register(name, factory)

    def factory(self, name: str) -> SceneFactory:
        """What builds the scene registered under ``name``. KeyError for an unknown name."""
        return self.registry.factory(name)

    def build(self, name: str, **kwargs: Any) -> Scene:
        """The scene registered under ``name``, not pushed."""
        return self.factory(name)(self.app, **kwargs)

    def open(self, name: str, **kwargs: Any) -> Scene:
        """Build the scene registered under ``name`` and push it."""
        scene = self.build(name, **kwargs)
        self.push(scene)
        return scene

    # ----------------------------------------------------------------- changes
    def push(self, scene: Scene) -> None:
        if self._scenes:
            self.top.pause()
        self._scenes.append(scene)
        scene.enter()
        self.on_change()

    def pop(self, scene: Named | None = None) -> None:
        """Remove the top scene (or ``scene`` and everything above it); never the bottom."""
        if scene is not None and scene in self._scenes:
            while self._scenes[-1] is not scene:
                self._scenes.pop().leave()
        if len(self._scenes) > 1:
            self._scenes.pop().leave()
            self.top.resume()
        self.on_change()

    def replace(self, scene: Scene) -> None:
        """The top scene gives way to ``scene`` (the bottom scene: pushed over it)."""
        if len(self._scenes) > 1:
            self._scenes.pop().leave()
        else:
            if self._scenes:
                self.top.pause()
        self._scenes.append(scene)
        scene.enter()
        self.on_change()

    def pop_to_bottom(self) -> None:
        """Back to the bottom scene (the table)."""
        while len(self._scenes) > 1:
            self._scenes.pop().leave()
        if self._scenes:
            self.top.resume()
        self.on_change()

    def find(self, name: str) -> Scene | None:
        """The topmost scene called ``name`` on the stack, or None."""
        for scene in reversed(self._scenes):
            if scene.name == name:
                return scene
        return None


class Offstage(SceneStack):
    """A stack that shows nothing: a scene opened on it is built and dropped (the attract
    screen's own table opens the win screen there)."""

    def open(self, name: str, **kwargs: Any) -> Scene:
        return Scene(self.app)
