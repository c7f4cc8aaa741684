"""Kiosk behaviour as small models the table drives: the lock, the operator's hidden exit
(a long press on the game code, then a PIN on an on-screen keypad) and the idle timer.

The models take the time as an argument (seconds, any monotonic clock) and know nothing of
pygame, so tests step them by hand. The functions at the end touch pygame/SDL and import it
only when called; the two that run before the window opens are in game.kiosk.startup.

Quitting, by design:
- `QUIT` comes from SIGTERM (systemd's stop; `startup.install_sigterm_handler` posts it) and
  SIGINT (Ctrl+C) only: always save and exit 0, at once.
- Closing the window is not `QUIT`: `startup.prepare_sdl` sets SDL_QUIT_ON_LAST_WINDOW_CLOSE=0
  so the close button (and a window manager's Alt+F4) produce only `WINDOWCLOSE`. Without the
  lock it and Escape on the table ask "Close the game?" (game.app.App.ask_to_close), whose yes
  saves and exits 0 as QUIT does.
- With the lock, `WINDOWCLOSE` is dropped; Escape and every Alt/Ctrl/GUI key combination
  except Ctrl+Z are dropped, and the keyboard is grabbed so system shortcuts reach the game.
- The operator leaves through the PIN keypad: save, exit EXIT_OPERATOR (64), which the systemd
  unit does not restart.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from game.config import Config
from game.kiosk.pin import FIRST_WAIT_S, MAX_WAIT_S, TRIES_BEFORE_WAIT, PinThrottle, verify_pin

# --------------------------------------------------------------------------------------------
# Idle: attract screen after N minutes, a fresh deal after M


def is_kiosk(config: Config) -> bool:
    """Whether this run is a kiosk, whose controller the App is given (game.kiosk.controller):
    the lock on, or the idle times asked for without it (``idle_unlocked``). A desktop without
    either has no idle reset, no long press and no PIN; its games are saved all the same."""
    k = config.kiosk
    return k.lock or k.idle_unlocked


class IdleTimer:
    """Time since the last input. `attract_s` / `new_game_s` of 0 mean never."""

    def __init__(self, attract_s: float, new_game_s: float, now: float) -> None:
        self.attract_s = attract_s
        self.new_game_s = new_game_s
        self.last_input = now

    @classmethod
    def from_config(cls, config: Config, now: float) -> IdleTimer:
        """The operator's idle times; never without the lock (waiting on a desktop ends,
        replaces or counts no game) unless ``idle_unlocked`` says so."""
        k = config.kiosk
        if not is_kiosk(config):
            return cls(0.0, 0.0, now)
        return cls(k.idle_attract_minutes * 60.0, k.idle_new_game_minutes * 60.0, now)

    def touch(self, now: float) -> None:
        """Any input from a person."""
        self.last_input = now

    def idle_for(self, now: float) -> float:
        return max(0.0, now - self.last_input)

    def attract_due(self, now: float) -> bool:
        return self.attract_s > 0 and self.idle_for(now) >= self.attract_s

    def fresh_deal_due(self, now: float) -> bool:
        return self.new_game_s > 0 and self.idle_for(now) >= self.new_game_s

    def next_deadline(self, now: float) -> float | None:
        """Seconds until the next idle event (to bound an event wait), or None."""
        waits = [
            limit - self.idle_for(now)
            for limit in (self.attract_s, self.new_game_s)
            if limit > 0 and self.idle_for(now) < limit
        ]
        return min(waits) if waits else None


# --------------------------------------------------------------------------------------------
# The hidden exit gesture: a long press on the game code


class LongPress:
    """Fires once when a press that started inside the target is held `hold_s` seconds
    without moving more than `slop_px` and without a second finger/button."""

    def __init__(self, hold_s: float, slop_px: float) -> None:
        self.hold_s = hold_s
        self.slop_px = slop_px
        self._start: tuple[float, float] | None = None
        self._since = 0.0
        self._fired = False

    @property
    def is_pressing(self) -> bool:
        return self._start is not None

    def press(self, pos: tuple[float, float], now: float, *, inside: bool) -> None:
        self._start = (float(pos[0]), float(pos[1])) if inside else None
        self._since = now
        self._fired = False

    def move(self, pos: tuple[float, float]) -> None:
        if self._start is None:
            return
        if math.dist(self._start, pos) > self.slop_px:
            self._start = None

    def release(self) -> None:
        self._start = None

    def progress(self, now: float) -> float:
        """0..1 while held (for a subtle progress ring), 0 otherwise."""
        if self._start is None or self._fired:
            return 0.0
        return min(1.0, max(0.0, (now - self._since) / self.hold_s))

    def update(self, now: float) -> bool:
        """True exactly once, when the hold time is reached."""
        if self._start is None or self._fired:
            return False
        if now - self._since >= self.hold_s:
            self._fired = True
            return True
        return False


# --------------------------------------------------------------------------------------------
# The operator's PIN keypad


class PinResult(Enum):
    NONE = "none"  # a digit typed or erased, or OK with nothing typed (no try)
    ACCEPTED = "accepted"  # the right PIN: leave the kiosk
    REJECTED = "rejected"  # a wrong PIN
    LOCKED = "locked"  # too many wrong PINs: wait
    CANCELLED = "cancelled"  # the keypad closes, back to the game


PIN_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "back", "0", "ok")


@dataclass
class PinPad:
    """What is typed on the keypad, and the throttle on wrong PINs (3 tries, then a wait that
    doubles each time, from 30 s up to 2 minutes: game.kiosk.pin says why no longer). OK with
    nothing typed is no try. An idle keypad closes after `timeout_s`.

    With a `throttle` (see `persistent`) the count and the wait are kept in the state directory
    after every try, so a restart or a power cut gives no fresh tries."""

    stored_hash: str
    max_digits: int = 12
    tries_before_wait: int = TRIES_BEFORE_WAIT
    first_wait_s: float = FIRST_WAIT_S
    max_wait_s: float = MAX_WAIT_S
    timeout_s: float = 30.0
    entered: str = ""
    wrong: int = 0
    locked_until: float = 0.0
    last_input: float = 0.0
    throttle: PinThrottle | None = None
    wall: Callable[[], float] = field(default=time.time, repr=False)

    @classmethod
    def persistent(
        cls,
        stored_hash: str,
        directory: Path | None,
        now: float,
        wall: Callable[[], float] = time.time,
    ) -> PinPad:
        """A keypad whose throttle lives in `directory` (None: in memory only), resumed from
        what was saved there (`now` on the keypad's own clock, `wall` the real time)."""
        pad = cls(stored_hash, throttle=PinThrottle(directory), wall=wall)
        pad.restore(now)
        return pad

    def restore(self, now: float) -> None:
        if self.throttle is not None:
            self.wrong, wait = self.throttle.recall(self.wall(), self.max_wait_s)
            self.locked_until = now + wait if wait > 0 else 0.0

    def _remember(self, now: float) -> None:
        if self.throttle is not None:
            self.throttle.remember(self.wrong, self.wait_left(now), self.wall())

    def open(self, now: float) -> None:
        """Show the keypad (the throttle survives closing and reopening)."""
        self.entered = ""
        self.last_input = now

    @property
    def masked(self) -> str:
        return "•" * len(self.entered)

    def is_locked(self, now: float) -> bool:
        return now < self.locked_until

    def wait_left(self, now: float) -> float:
        return max(0.0, self.locked_until - now)

    def expired(self, now: float) -> bool:
        return now - self.last_input >= self.timeout_s

    def press(self, key: str, now: float) -> PinResult:
        self.last_input = now
        if key == "cancel":
            self.entered = ""
            return PinResult.CANCELLED
        if self.is_locked(now):
            self.entered = ""
            return PinResult.LOCKED
        if key in "0123456789" and len(key) == 1:
            if len(self.entered) < self.max_digits:
                self.entered += key
            return PinResult.NONE
        if key == "back":
            self.entered = self.entered[:-1]
            return PinResult.NONE
        if key == "ok":
            if not self.entered:  # a stray touch of OK: no try, nothing counted
                return PinResult.NONE
            entered, self.entered = self.entered, ""
            if self.stored_hash and verify_pin(entered, self.stored_hash):
                self.wrong = 0
                self._remember(now)
                return PinResult.ACCEPTED
            self.wrong += 1
            result = PinResult.REJECTED
            if self.wrong >= self.tries_before_wait:
                rounds = min(self.wrong - self.tries_before_wait, 30)
                wait = min(self.max_wait_s, self.first_wait_s * 2**rounds)
                self.locked_until = now + wait
                result = PinResult.LOCKED
            self._remember(now)
            return result
        return PinResult.NONE


# --------------------------------------------------------------------------------------------
# pygame/SDL side of the lock


class EventAction(Enum):
    PASS = "pass"  # to the scenes as usual
    DROP = "drop"  # the kiosk lock swallows it
    SHUTDOWN = "shutdown"  # save, then exit 0 (SIGTERM from systemd, Ctrl+C)


def apply_lock(config: Config) -> None:
    """After set_mode: grab input so Alt+Tab, Alt+F4 and the like reach the game (and are
    dropped) where the window system allows it (X11; Wayland compositors may refuse)."""
    if not config.kiosk.lock:
        return
    import pygame

    with contextlib.suppress(pygame.error):
        pygame.event.set_grab(True)


def classify_event(event: Any, *, lock: bool) -> EventAction:
    """What the kiosk does with a pygame event before the scenes see it."""
    import pygame

    kind = event.type
    if kind == pygame.QUIT:
        return EventAction.SHUTDOWN
    if kind == pygame.WINDOWCLOSE:
        return EventAction.DROP if lock else EventAction.PASS
    if lock and kind in (pygame.KEYDOWN, pygame.KEYUP):
        key = getattr(event, "key", 0)
        mod = getattr(event, "mod", 0)
        if key == pygame.K_ESCAPE or key == pygame.K_F4:
            return EventAction.DROP
        if mod & (pygame.KMOD_ALT | pygame.KMOD_GUI):
            return EventAction.DROP
        if mod & pygame.KMOD_CTRL and key != pygame.K_z:
            return EventAction.DROP
        if key in (pygame.K_LGUI, pygame.K_RGUI, pygame.K_MENU):
            return EventAction.DROP
    return EventAction.PASS
