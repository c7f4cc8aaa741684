"""A short soak run: random gestures through the input layer, no exception, no violation."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.dev.soak import Soak
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)
from tests.helpers.profiles import examples

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("kiosk", [False, True])
def test_short_soak_is_clean(kiosk: bool) -> None:
    soak = Soak(seed=11, size=(800, 480), kiosk=kiosk)
    try:
        soak.run(examples(600, least=300))  # the fast profile: 300 gestures, 40-odd moves
        assert (soak.exceptions, soak.violations) == (0, 0)
        assert soak.moves_played >= 20  # the gestures really play
        assert soak.games_started >= 1  # and deal new games
        # Without the lock, Escape or the close button and then Close end the game, which
        # starts again from its save; the lock drops both.
        assert (soak.closes >= 1) is not kiosk
    finally:
        soak.close()


def test_invariant_checks_catch_a_broken_table() -> None:
    soak = Soak(seed=1, size=(800, 480), kiosk=False)
    try:
        soak.check(full=True)
        assert soak.violations == 0
        game = soak.app.table.model.game
        game.cols[0] = (*game.cols[0], game.cols[1][-1])  # a card in two places
        soak.check(full=True)
        assert soak.violations >= 1
    finally:
        soak.close()


@pytest.mark.process
def test_command_line_last_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "game.dev.soak", "--events", "150", "--seed", "5", "--quiet"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    last = result.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"150 events, 0 exceptions, 0 invariant violations, \+\d+\.\d MB", last), (
        result.stdout + result.stderr
    )
    assert result.returncode == 0


def test_a_dead_indicator_worker_does_not_break_the_table() -> None:
    """Found by the soak: a worker process that died (BrokenProcessPool) made every later
    move raise from Indicator.update."""
    from concurrent.futures import Executor, Future
    from concurrent.futures.process import BrokenProcessPool

    from engine import Game
    from engine.search.hints import Indicator

    class DeadPool(Executor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            raise BrokenProcessPool("a child process terminated abruptly")

        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            pass

    game = Game.from_code("RU1-C-AAAAABB")
    indicator = Indicator(executor=DeadPool())
    indicator.update(game)
    assert indicator.poll() == "unknown"
    game.play(game.legal_moves()[0])
    indicator.update(game)  # and again: still no exception
    assert indicator.poll() == "unknown"
    own = Indicator(pool=DeadPool)  # its own worker, started by the indicator
    own.update(game)
    assert own.poll() == "unknown" and own.executor is None  # a fresh worker next time
    own.close()
