"""A destroyed X11 window still saves.

`xdotool windowclose` (XDestroyWindow) or a window manager that destroys the window instead of
asking it to close makes SDL's next request about the window fail with BadWindow, and Xlib's
default error handler then ends the process at once (`exit(1)`): no save, no log line. A lost
connection to the X server (`xdotool windowkill`, a dying server) goes through Xlib's I/O error
handler, which must not return.

`WindowGuard().install(on_lost)` (X11 only, after the window exists) replaces both handlers
through ctypes:
- a protocol error is noted and ignored; the App hook `WindowGuard.step` then posts QUIT, and
  the game leaves through its usual path (save, log "shutting down", close the workers, exit 0);
- an I/O error calls `on_lost` (the session's save) at once and ends the process with status 0,
  as Xlib would have ended it anyway.

Nothing here imports pygame at module level.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import logging
import os
import sys
from collections.abc import Callable

from game.hooks import TableHooks
from game.kiosk.wake import libx11

log = logging.getLogger("solitaire.xguard")

_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
_IO_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)


class _XErrorEvent(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("resourceid", ctypes.c_ulong),
        ("serial", ctypes.c_ulong),
        ("error_code", ctypes.c_ubyte),
        ("request_code", ctypes.c_ubyte),
        ("minor_code", ctypes.c_ubyte),
    ]


class WindowGuard(TableHooks):
    """Xlib's error handlers replaced (:meth:`install`), and an App hook
    (`app.hooks.add(guard)`): after an X error, post QUIT once."""

    def __init__(self) -> None:
        self.posted = False
        self.errors: list[int] = []  # the X protocol errors seen
        self.handlers: tuple[object, ...] = ()  # the ctypes callbacks Xlib calls

    def install(self, on_lost: Callable[[], object]) -> bool:
        """Replace Xlib's error handlers (see the module text); False when there is no libX11."""
        lib = libx11()
        if lib is None:
            return False

        def on_error(display: int, event: int) -> int:
            code = -1
            with contextlib.suppress(Exception):
                code = int(ctypes.cast(event, ctypes.POINTER(_XErrorEvent)).contents.error_code)
            self.errors.append(code)
            return 0

        def on_io_error(display: int) -> int:
            with contextlib.suppress(BaseException):
                log.error("the connection to the X server is lost; saving and exiting")
                on_lost()
            with contextlib.suppress(BaseException):
                for handler in logging.getLogger("solitaire").handlers:
                    handler.flush()
            os._exit(0)

        handlers = (_ERROR_HANDLER(on_error), _IO_ERROR_HANDLER(on_io_error))
        self.handlers = handlers
        # Xlib calls them until the process ends, SDL's clean-up at exit included: atexit
        # holds this guard (and so the callbacks) until the last exit function has run.
        atexit.register(self._held_until_exit)
        lib.XSetErrorHandler.restype = ctypes.c_void_p
        lib.XSetIOErrorHandler.restype = ctypes.c_void_p
        lib.XSetErrorHandler(handlers[0])
        lib.XSetIOErrorHandler(handlers[1])
        return True

    def _held_until_exit(self) -> None:
        pass

    def window_lost(self) -> bool:
        """True once an X protocol error was seen (the window is gone or unusable)."""
        return bool(self.errors)

    def step(self, dt: float) -> None:
        if self.posted or not self.window_lost():
            return
        import pygame

        self.posted = True
        log.warning("the window was destroyed (X error %s); saving and exiting", self.errors[0])
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        # Registered after pygame's own exit handler, so it runs first: SDL's clean-up would
        # destroy the window again, with Xlib's default handler back in place (exit 1).
        atexit.register(_leave_without_sdl_cleanup)


def _leave_without_sdl_cleanup() -> None:
    with contextlib.suppress(BaseException):
        logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()
    os._exit(0)
