"""Shared fixtures of the kiosk tests."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import Game
from game.app import App
from game.config import Config
from game.kiosk.controller import KioskController
from game.launch import open_run
from game.logs import LOGGER_NAME
from tests.helpers.tablehelp import make_app

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
) -> tuple[App, KioskController]:
    """What launch.open_app does for a kiosk (``config`` must make one:
    game.kiosk.models.is_kiosk): a saved run, the kiosk controller on the App."""
    app = saved_app(state, config, code, size)
    assert isinstance(app.kiosk, KioskController)
    return app, app.kiosk


def saved_app(
    state: Path, config: Config, code: str = CODE, size: tuple[int, int] = (1280, 800)
) -> App:
    """What launch.open_app does for any saved run, a desktop's too: the session (its saved
    game resumed, else ``code`` dealt), the high scores wired to it, the kiosk for a kiosk."""
    run = open_run(config, state, crash_hook=False)
    game = None if run.resumed else Game.from_code(code)
    return make_app(size=size, game=game, run=run, step=False)


def wait(app: App, seconds: float) -> None:
    """Let time pass with no input, as the real loop does while it sleeps on the queue."""
    while seconds > 0:
        step = min(seconds, 5.0)
        app.update(step, clamp=False)
        app.draw()
        seconds -= step
