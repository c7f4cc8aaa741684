"""Raw pointer events to gestures, and the fixed-timestep clock."""

from __future__ import annotations

import pygame
import pytest

from game.clock import FixedClock
from game.input import (
    DoubleTap,
    DragCancel,
    DragMove,
    DragStart,
    Drop,
    GestureReader,
    InputTuning,
    Press,
    Tap,
)

pytestmark = pytest.mark.app

TUNING = InputTuning(double_tap_ms=300, tap_slop_mm=3.0, drag_threshold_mm=2.0, echo_ms=400)


def ev(kind: int, pos: tuple[int, int], touch: bool = False) -> pygame.event.Event:
    return pygame.event.Event(kind, pos=pos, button=1, touch=touch)


def tap(reader: GestureReader, pos: tuple[int, int], now: float, touch: bool = False) -> list:
    return reader.feed(ev(pygame.MOUSEBUTTONDOWN, pos, touch), now) + reader.feed(
        ev(pygame.MOUSEBUTTONUP, pos, touch), now + 40
    )


class TestTaps:
    def test_a_tap(self):
        reader = GestureReader(TUNING, px_per_mm=5.2)
        assert tap(reader, (100, 100), 0) == [Press((100, 100)), Tap((100, 100))]

    def test_a_second_tap_soon_and_near_is_a_double_tap_instead_of_a_tap(self):
        reader = GestureReader(TUNING, px_per_mm=5.2)
        tap(reader, (100, 100), 0)
        assert tap(reader, (104, 103), 200) == [
            Press((104, 103)),
            DoubleTap((104, 103), (100, 100)),
        ]
        # A third tap starts a new pair.
        assert tap(reader, (100, 100), 400)[-1] == Tap((100, 100))

    def test_too_late_or_too_far_is_two_taps(self):
        reader = GestureReader(TUNING, px_per_mm=5.2)
        tap(reader, (100, 100), 0)
        assert tap(reader, (100, 100), 301)[-1] == Tap((100, 100))
        reader = GestureReader(TUNING, px_per_mm=5.2)
        tap(reader, (100, 100), 0)
        assert tap(reader, (100, 140), 100)[-1] == Tap((100, 140))

    def test_slop_and_threshold_scale_with_the_screen(self):
        small = GestureReader(TUNING, px_per_mm=5.2)
        big = GestureReader(TUNING, px_per_mm=11.6)
        assert big.slop_px > small.slop_px and big.drag_px > small.drag_px
        assert small.drag_px == TUNING.drag_threshold_mm * 5.2


class TestDuplicates:
    def test_finger_events_are_ignored(self):
        reader = GestureReader(TUNING)
        finger = pygame.event.Event(pygame.FINGERDOWN, x=0.5, y=0.5, finger_id=0, touch_id=1)
        assert reader.feed(finger, 0) == []

    def test_press_while_pressed_and_release_while_released_are_ignored(self):
        reader = GestureReader(TUNING)
        reader.feed(ev(pygame.MOUSEBUTTONDOWN, (10, 10)), 0)
        assert reader.feed(ev(pygame.MOUSEBUTTONDOWN, (10, 10)), 5) == []
        assert reader.feed(ev(pygame.MOUSEBUTTONUP, (10, 10)), 10) == [Tap((10, 10))]
        assert reader.feed(ev(pygame.MOUSEBUTTONUP, (10, 10)), 15) == []

    def test_a_late_mouse_echo_of_a_touch_is_not_a_double_tap(self):
        reader = GestureReader(TUNING, px_per_mm=5.2)
        assert tap(reader, (50, 60), 0, touch=True)[-1] == Tap((50, 60))
        assert tap(reader, (50, 60), 120, touch=False) == []
        # A real second touch still makes a double tap.
        assert tap(reader, (50, 60), 200, touch=True)[-1] == DoubleTap((50, 60), (50, 60))

    def test_other_buttons_are_ignored(self):
        reader = GestureReader(TUNING)
        right = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=3)
        assert reader.feed(right, 0) == []


class TestDrags:
    def test_a_drag(self):
        reader = GestureReader(TUNING, px_per_mm=5.2)
        reader.feed(ev(pygame.MOUSEBUTTONDOWN, (100, 100)), 0)
        motion = pygame.MOUSEMOTION
        assert reader.feed(ev(motion, (103, 100)), 10) == []  # inside the threshold
        assert reader.feed(ev(motion, (120, 100)), 20) == [
            DragStart((100, 100), (120, 100)),
            DragMove((120, 100)),
        ]
        assert reader.feed(ev(motion, (150, 110)), 30) == [DragMove((150, 110))]
        assert reader.feed(ev(pygame.MOUSEBUTTONUP, (150, 110)), 40) == [Drop((150, 110))]

    def test_a_panel_without_motion_events_still_drags(self):
        reader = GestureReader(TUNING, px_per_mm=5.2)
        reader.feed(ev(pygame.MOUSEBUTTONDOWN, (100, 100)), 0)
        assert reader.feed(ev(pygame.MOUSEBUTTONUP, (300, 200)), 100) == [
            DragStart((100, 100), (300, 200)),
            DragMove((300, 200)),
            Drop((300, 200)),
        ]

    def test_losing_focus_cancels_a_drag(self):
        reader = GestureReader(TUNING, px_per_mm=5.2)
        reader.feed(ev(pygame.MOUSEBUTTONDOWN, (100, 100)), 0)
        reader.feed(ev(pygame.MOUSEMOTION, (160, 100)), 10)
        assert reader.feed(pygame.event.Event(pygame.WINDOWFOCUSLOST), 20) == [
            DragCancel((160, 100))
        ]
        assert not reader.pressed


class TestClock:
    def test_steps_of_a_sixtieth(self):
        clock = FixedClock()
        assert clock.advance(1 / 60) == 1
        assert clock.advance(0.5 / 60) == 0
        assert clock.advance(0.5 / 60) == 1
        assert clock.time == 0.0  # the steps move the time on, one by one
        assert clock.tick() == clock.step
        clock.tick()
        assert abs(clock.time - 2 / 60) < 1e-9

    def test_a_stall_is_clamped(self):
        clock = FixedClock(max_steps=6)
        assert clock.advance(3.0) == 6
        assert clock.advance(3.0, clamp=False) == 180
