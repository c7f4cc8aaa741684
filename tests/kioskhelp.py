"""Shared fixtures of the kiosk tests."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from tablehelp import make_app

from engine import Game
from game.app import App, Watcher
from game.config import Config
from game.kiosk.controller import KioskController, kiosk_factory
from game.logs import LOGGER_NAME
from game.saves.session import Session

CODE = "RU1-C-AAAAAAD"  # AH is alone in column 1: a tap sends it home


@pytest.fixture(autouse=True)
def isolated_logging() -> Iterator[None]:
    """Remove the log handlers a test installed (setup_logging), closing their files."""
    logger = logging.getLogger(LOGGER_NAME)
    before = list(logger.handlers)
    yield
    for handler in list(logger.handlers):
        if handler not in before:
            logger.removeHandler(handler)
            handler.close()


def kiosk_app(
    state: Path,
    config: Config,
    code: str = CODE,
    size: tuple[int, int] = (1280, 800),
    watchers: Sequence[Watcher] = (),
) -> tuple[App, KioskController]:
    """What launch.open_app does: a session, the saved game resumed, the kiosk on the App."""
    session = Session.open(config, state, crash_hook=False)
    resumed = session.resume()
    game = resumed.game if resumed else Game.from_code(code)
    elapsed = resumed.elapsed if resumed else 0.0
    kiosk = kiosk_factory(config, session, resumed=resumed is not None)
    app = make_app(
        size=size, game=game, elapsed=elapsed, kiosk=kiosk, watchers=watchers, step=False
    )
    assert isinstance(app.kiosk, KioskController)
    return app, app.kiosk


def wait(app: App, seconds: float) -> None:
    """Let time pass with no input, as the real loop does while it sleeps on the queue."""
    while seconds > 0:
        step = min(seconds, 5.0)
        app.update(step, clamp=False)
        app.draw()
        seconds -= step
