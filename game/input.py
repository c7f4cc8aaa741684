"""The one place that reads pointer events and turns them into gestures.

Everything runs from mouse button 1: SDL already turns touches into mouse events (marked
``event.touch``), so ``FINGER*`` events are ignored, as are presses while pressed, releases while
not pressed, and the late ``touch == False`` echo some systems send after a touch
(docs/architecture.md, "Pointer input").

Gestures: :class:`Press` (finger down), :class:`Tap` (released without moving),
:class:`DoubleTap` (a second tap soon after and near the first; it comes *instead of* a second
Tap), :class:`DragStart`, :class:`DragMove`, :class:`Drop` and :class:`DragCancel`.
A tap never waits for a possible second tap. A press held still is read here too:
:meth:`GestureReader.held` says where and for how long (the kiosk's long press on the game
code). Times are the app clock's milliseconds, so tests control them.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

Point = tuple[int, int]


@dataclass(frozen=True)
class Press:
    pos: Point


@dataclass(frozen=True)
class Tap:
    pos: Point


@dataclass(frozen=True)
class DoubleTap:
    pos: Point
    first: Point  # where the first tap of the pair was


@dataclass(frozen=True)
class DragStart:
    start: Point  # where the finger went down
    pos: Point


@dataclass(frozen=True)
class DragMove:
    pos: Point


@dataclass(frozen=True)
class Drop:
    pos: Point


@dataclass(frozen=True)
class DragCancel:
    pos: Point


Gesture = Press | Tap | DoubleTap | DragStart | DragMove | Drop | DragCancel


@dataclass(frozen=True)
class Hold:
    """A press in progress that has stayed where it went down (within the tap slop)."""

    pos: Point  # where it went down
    since: float  # when (the clock's ms)
    ms: float  # how long it has been held


@dataclass(frozen=True)
class InputTuning:
    """Timing and distances (config.toml's [input]), in ms and mm."""

    double_tap_ms: int = 350
    tap_slop_mm: float = 4.0
    drag_threshold_mm: float = 2.5
    echo_ms: int = 500


def _dist2(a: Point, b: Point) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


class GestureReader:
    """Feed it pygame events with the current time; it returns gestures."""

    def __init__(self, tuning: InputTuning | None = None, px_per_mm: float = 4.0) -> None:
        self.tuning = tuning or InputTuning()
        self.set_scale(px_per_mm)
        self.pressed = False
        self.dragging = False
        self._down_pos: Point = (0, 0)
        self._down_ms = 0.0
        self._still = False  # the press has not left the tap slop
        self._last_pos: Point = (0, 0)
        self._last_tap: tuple[Point, float] | None = None
        self._last_touch: tuple[Point, float] | None = None
        self._swallow_up = False

    def set_scale(self, px_per_mm: float) -> None:
        """Distances in pixels for a screen with ``px_per_mm`` (slop at least 4 px)."""
        self.slop_px = max(4.0, self.tuning.tap_slop_mm * px_per_mm)
        self.drag_px = max(3.0, self.tuning.drag_threshold_mm * px_per_mm)

    def held(self, now: float) -> Hold | None:
        """The press in progress at ``now`` (ms) while it stays where it went down; None when
        no button is down or it has moved beyond the tap slop."""
        if not (self.pressed and self._still):
            return None
        return Hold(self._down_pos, self._down_ms, now - self._down_ms)

    def reset(self) -> None:
        self.pressed = self.dragging = False
        self._last_tap = None

    def _is_echo(self, event: pygame.event.Event, now: float) -> bool:
        """A ``touch == False`` mouse event right after a touch, at the same place."""
        if getattr(event, "touch", False) or self._last_touch is None:
            return False
        pos, when = self._last_touch
        return now - when <= self.tuning.echo_ms and _dist2(pos, event.pos) <= self.slop_px**2 * 4

    def feed(self, event: pygame.event.Event, now: float) -> list[Gesture]:
        kind = event.type
        if kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            pos = tuple(int(v) for v in getattr(event, "pos", (0, 0)))[:2]
            event_pos: Point = (pos[0], pos[1])
            if getattr(event, "touch", False):
                self._last_touch = (event_pos, now)
        if kind == pygame.MOUSEBUTTONDOWN:
            if getattr(event, "button", 1) != 1:
                return []
            if self.pressed:
                return []
            if self._is_echo(event, now):
                self._swallow_up = True
                return []
            self.pressed = True
            self.dragging = False
            self._still = True
            self._down_ms = now
            self._down_pos = self._last_pos = event_pos
            return [Press(event_pos)]
        if kind == pygame.MOUSEMOTION:
            if not self.pressed:
                return []
            self._last_pos = event_pos
            if _dist2(event_pos, self._down_pos) > self.slop_px**2:
                self._still = False
            if self.dragging:
                return [DragMove(event_pos)]
            if _dist2(event_pos, self._down_pos) >= self.drag_px**2:
                self.dragging = True
                self._last_tap = None
                return [DragStart(self._down_pos, event_pos), DragMove(event_pos)]
            return []
        if kind == pygame.MOUSEBUTTONUP:
            if getattr(event, "button", 1) != 1:
                return []
            if not self.pressed:
                if self._swallow_up:
                    self._swallow_up = False
                return []
            self.pressed = False
            if self.dragging:
                self.dragging = False
                return [Drop(event_pos)]
            if _dist2(event_pos, self._down_pos) >= self.drag_px**2:
                # Moved without motion events (a resistive panel): a drag after all.
                self._last_tap = None
                return [DragStart(self._down_pos, event_pos), DragMove(event_pos), Drop(event_pos)]
            last = self._last_tap
            tap_pos = self._down_pos
            if (
                last is not None
                and now - last[1] <= self.tuning.double_tap_ms
                and _dist2(last[0], tap_pos) <= self.slop_px**2
            ):
                self._last_tap = None
                return [DoubleTap(tap_pos, last[0])]
            self._last_tap = (tap_pos, now)
            return [Tap(tap_pos)]
        if kind == pygame.WINDOWFOCUSLOST and self.pressed:
            was_dragging = self.dragging
            self.pressed = self.dragging = False
            return [DragCancel(self._last_pos)] if was_dragging else []
        return []
