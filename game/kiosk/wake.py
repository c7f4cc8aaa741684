"""How a resting loop waits for input: blocked on the X server's connection where there is one
(it wakes the moment input arrives), else by looking at the event queue once a frame.

pygame-ce's ``event.wait(timeout)`` looks at the queue about a thousand times a second, so the
loop (game.app.App.run) sleeps here instead. Under X11 the connection's socket becomes
readable when the server sends anything (input, exposure, a resize), and ``select`` wakes at
once; the loop then reads the events through pygame as always. Elsewhere (Wayland, the
console's KMS/DRM driver, the dummy driver) the wait is a sleep of at most one frame.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import math
import select
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.clock import FixedClock

log = logging.getLogger("solitaire.wake")


def libx11() -> ctypes.CDLL | None:
    """Xlib, by its soname first: ``ctypes.util.find_library`` runs ``ldconfig`` in a process
    of its own (about 20 ms before the first frame), so it is asked only when the soname
    does not load. None without Xlib."""
    with contextlib.suppress(OSError):
        return ctypes.CDLL("libX11.so.6")
    name = ctypes.util.find_library("X11")
    if name:
        with contextlib.suppress(OSError):
            return ctypes.CDLL(name)
    return None


def _x11_fd(display: object) -> int | None:
    """The socket of the X connection behind pygame's ``display`` capsule, or None."""
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    pointer = get_pointer(display, b"display")
    xlib = libx11()
    if xlib is None:
        raise OSError("no libX11")
    xlib.XConnectionNumber.argtypes = [ctypes.c_void_p]
    xlib.XConnectionNumber.restype = ctypes.c_int
    fd = int(xlib.XConnectionNumber(pointer))
    return fd if fd >= 0 else None


FIRST_LOOK = 0.001  # after a wake that brought no event, look again this soon (seconds)


class Waker:
    """Sleeps a resting loop until input may have come or the time is up."""

    def __init__(self, fd: int | None, frame: float) -> None:
        self.fd = fd  # the X connection's socket; None: look once a frame
        self.frame = frame
        self.look = FIRST_LOOK  # the next pause after an empty wake (doubles up to a frame)

    @classmethod
    def for_display(cls, frame: float) -> Waker:
        """A waker for the window pygame shows now: blocked on its X connection under X11,
        else a frame at a time."""
        import pygame

        fd = None
        try:
            if pygame.display.get_driver() == "x11":
                fd = _x11_fd(pygame.display.get_wm_info()["display"])
        except Exception as error:  # no X library, an unexpected capsule: poll instead
            log.info("waiting for input a frame at a time: %r", error)
        return cls(fd, frame)

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True when the X connection has something to read (the
        loop reads it now). Without one, sleep at most a frame and say False."""
        if self.fd is None:
            time.sleep(max(0.0, min(seconds, self.frame)))
            return False
        ready, _, _ = select.select([self.fd], [], [], max(0.0, seconds))
        return bool(ready)

    def pause(self, seconds: float) -> None:
        """Sleep up to ``seconds`` whatever comes, after a wake that brought no event: 1 ms the
        first time, then twice as long each time in a row, up to a frame. SDL often turns a
        press into an event only at its second look at the connection (a frame's pause there
        made a press from rest show 21 ms late, over a frame), and a socket that stays readable
        without events must still not make the loop spin: a few quick looks, then a frame's."""
        time.sleep(max(0.0, min(seconds, self.look)))
        self.look = min(self.frame, self.look * 2)

    def heard(self) -> None:
        """Events came: the next empty wake gets a quick second look again."""
        self.look = FIRST_LOOK


class FakePointer:
    """Mouse button 1 pressed and released through the XTest extension, on an X connection of
    its own: real input events, as a finger's (the bench's latency probe)."""

    def __init__(self) -> None:
        xlib = libx11()
        if xlib is None:
            raise OSError("no libX11")
        xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
        xlib.XOpenDisplay.restype = ctypes.c_void_p
        xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        xlib.XFlush.argtypes = [ctypes.c_void_p]
        xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
        xlib.XWarpPointer.argtypes = [
            ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
            ctypes.c_uint, ctypes.c_uint, ctypes.c_int, ctypes.c_int,
        ]  # fmt: skip
        xtst.XTestFakeButtonEvent.argtypes = [
            ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong
        ]  # fmt: skip
        self.xlib, self.xtst = xlib, xtst
        self.display = xlib.XOpenDisplay(None)
        if not self.display:
            raise OSError("cannot open the X display")

    def move(self, pos: tuple[int, int], window: int) -> None:
        """The pointer to ``pos`` of X ``window``."""
        self.xlib.XWarpPointer(self.display, 0, window, 0, 0, 0, 0, pos[0], pos[1])
        self.xlib.XFlush(self.display)

    def button(self, down: bool) -> None:
        """Button 1 down (``down``) or up where the pointer is."""
        self.xtst.XTestFakeButtonEvent(self.display, 1, int(down), 0)
        self.xlib.XFlush(self.display)

    def close(self) -> None:
        self.xlib.XCloseDisplay(self.display)


MAX_REST = 0.25  # a resting loop updates the scenes at least this often (seconds)


def rest_seconds(due: float | None, clock: FixedClock) -> float:
    """How long a resting loop may sleep after its last update when the earliest deadline is
    ``due`` (clock time; None: none): until the clock step that passes it (at least one step,
    so a deadline that has passed cannot make the loop spin), at most MAX_REST."""
    if due is None:
        return MAX_REST
    # The first step surely at or past ``due`` (the clock's time is a sum of floats).
    steps = max(1, math.ceil((due - clock.time) / clock.step + 1e-6))
    # The clock is already ``accumulated`` seconds on towards its next step.
    return min(MAX_REST, steps * clock.step - clock.accumulated + 1e-4)


class Rest:
    """The loop's rest and wake, as one policy. A loop with nothing moving, nothing to redraw
    and no event asks :meth:`sleep` first; when that says it slept, the loop looks at the
    events again; otherwise (or when anything came) it runs a frame and says so (:meth:`frame`).

    - Never past the next watchdog ping: a sleep longer than ``watchdog`` sleeps that long.
    - A wake on the X connection that brought no event yet is followed by a short pause
      (game.kiosk.wake.Waker.pause: longer each time in a row), never a spin on a busy socket.
    - A frame after events gives the next empty wake its quick second look again.
    """

    def __init__(self, waker: Waker) -> None:
        self.waker = waker
        self.woke = False  # the last sleep ended for the X connection, not for the time

    def sleep(self, wait: float, watchdog: float | None = None) -> bool:
        """Sleep up to ``wait`` seconds (the rest left until the next deadline); True when it
        slept (look at the events again), False when the time is up (run a frame now)."""
        if watchdog is not None and wait > watchdog:
            self.waker.wait(watchdog)  # the loop pings systemd, then rests on
            return True
        if wait <= 0:
            return False
        if self.woke:
            self.waker.pause(wait)
            self.woke = False
        else:
            self.woke = self.waker.wait(wait)
        return True

    def frame(self, events: bool) -> None:
        """The loop runs a frame (``events``: for input that came)."""
        self.woke = False
        if events:
            self.waker.heard()
