"""What the game sets up before pygame starts, and nothing else, so that it costs nothing at
start-up: SDL's hints (through the environment) and the stop signals. The quitting design they
belong to is described in game.kiosk.models.

Must not import pygame at import time (game.launch calls both before the window opens).
"""

from __future__ import annotations

import os
import signal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.config import Config


def prepare_sdl(config: Config, environ: Any = None) -> None:
    """Set SDL hints through the environment; call before pygame.init()."""
    env = os.environ if environ is None else environ
    env["SDL_QUIT_ON_LAST_WINDOW_CLOSE"] = "0"  # closing the window: WINDOWCLOSE, never QUIT
    if config.kiosk.lock:
        env["SDL_GRAB_KEYBOARD"] = "1"  # with the grab (apply_lock), system shortcuts too
    # A fullscreen kiosk must not minimize itself when focus wanders.
    env.setdefault("SDL_VIDEO_MINIMIZE_ON_FOCUS_LOSS", "0")


def install_sigterm_handler() -> None:
    """systemd's stop (SIGTERM) and Ctrl+C (SIGINT) as a QUIT event: save, then exit 0, at any
    moment; neither is a crash (no KeyboardInterrupt, no entry in crashes.json).

    Installed before pygame starts, so SDL keeps its hands off both (it only takes a signal
    nobody handles). Before the window exists there is nothing unsaved: exit at once. After,
    the handler posts QUIT, which the loop reads within its 250 ms wait."""

    def on_stop(signum: int, frame: object) -> None:
        import pygame

        if pygame.display.get_init():
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        else:
            raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_stop)
    signal.signal(signal.SIGINT, on_stop)
