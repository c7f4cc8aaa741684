"""Workers die with the game; a destroyed X window still saves; a failed save shows a mark."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from engine import Game
from game.config import Config
from game.saves.savemark import MARK_RED, draw_save_mark, mark_rect
from game.saves.session import Session
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)

pytestmark = pytest.mark.app

REPO = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper counts as dead)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_dead(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return not alive(pid)


POOL_PARENT = """
import multiprocessing, os, sys, time
from concurrent.futures import ProcessPoolExecutor
from game.kiosk.lifeline import die_with_parent
if __name__ == "__main__":
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=die_with_parent, initargs=({use_prctl},))
    print(pool.submit(os.getpid).result(), flush=True)
    time.sleep(600)
"""

APP_PARENT = """
import os, sys, time
os.environ["SDL_VIDEODRIVER"] = "dummy"
from engine import Game
from tests.helpers.tablehelp import make_app
app = make_app(game=Game.from_code("RU1-C-AAAAABB"))
future = app.workers.ask_hint(app.table.model.game)
future.result(timeout=60)
from game.workers import worker_processes
pools = app.workers.pools()
print(" ".join(str(p.pid) for pool in pools for p in worker_processes(pool)), flush=True)
time.sleep(600)
"""

INDICATOR_PARENT = """
import os, sys, time
from engine import Game
from game.workers import Workers, worker_processes
workers = Workers()
indicator = workers.indicator()
indicator.update(Game.from_code("RU1-C-AAAAABB"))
while indicator.poll() == "working":
    time.sleep(0.05)
print(" ".join(str(p.pid) for p in worker_processes(indicator.executor)), flush=True)
time.sleep(600)
"""


def start_parent(program: str) -> tuple[subprocess.Popen[str], list[int]]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    parent = subprocess.Popen(
        [sys.executable, "-c", program], cwd=REPO, env=env, stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    line = parent.stdout.readline()
    pids = [int(p) for p in line.split()]
    assert pids and all(alive(p) for p in pids), line
    return parent, pids


@pytest.mark.process
@pytest.mark.parametrize("use_prctl", [True, False], ids=["pdeathsig", "watch-thread"])
def test_a_worker_dies_when_its_parent_is_killed_hard(use_prctl: bool) -> None:
    parent, (worker,) = start_parent(POOL_PARENT.format(use_prctl=use_prctl))
    parent.kill()  # SIGKILL: no cleanup in the parent at all
    parent.wait()
    assert wait_dead(worker, 3.0), f"worker {worker} outlived its parent"


@pytest.mark.process
def test_the_hint_worker_of_the_game_dies_with_the_game() -> None:
    parent, workers = start_parent(APP_PARENT)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    for pid in workers:
        assert wait_dead(pid, 3.0), f"hint worker {pid} outlived the game"


@pytest.mark.process
def test_the_winnable_indicators_worker_dies_with_the_game() -> None:
    """The indicator's pool comes from game.workers, so its worker dies with the game too."""
    parent, workers = start_parent(INDICATOR_PARENT)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    for pid in workers:
        assert wait_dead(pid, 3.0), f"indicator worker {pid} outlived the game"


# ---------------------------------------------------------------- the failed-save mark


@pytest.fixture()
def screen() -> Iterator[pygame.Surface]:
    pygame.display.init()
    yield pygame.display.set_mode((800, 480))
    pygame.display.quit()


def test_a_failed_save_is_noted_until_a_save_works_again(tmp_path: Path) -> None:
    state = tmp_path / "state"
    session = Session.open(Config(), state, logging_on=False, crash_hook=False)
    game = Game.from_code("RU1-C-AAAAAAD")
    session.started(game)
    assert not session.save_failed
    shutil.rmtree(state)
    state.write_text("a file where the directory should be: every save fails")
    game.play("AH-f")
    session.moved(game, game.move_stack[-1])
    assert session.save_failed
    session.clock.tick(1.0)
    session.checkpoint(game)
    assert session.save_failed  # still failing: the mark stays
    state.unlink()
    session.checkpoint(game)
    assert not session.save_failed
    saved = json.loads((state / "autosave.json").read_text())["data"]["game"]
    assert saved["moves"] == 1


def test_the_mark_is_drawn_only_while_saving_fails(screen: pygame.Surface) -> None:
    bar = pygame.Rect(0, 0, 800, 40)
    where = mark_rect(bar)
    assert bar.contains(where)
    screen.fill((0, 0, 0))
    assert draw_save_mark(screen, where, False) is None
    assert screen.get_at(where.center)[:3] == (0, 0, 0)
    drawn = draw_save_mark(screen, where, True)
    assert drawn is not None and bar.contains(drawn)
    reds = sum(
        1
        for x in range(where.left, where.right)
        for y in range(where.top, where.bottom)
        if screen.get_at((x, y))[:3] == MARK_RED
    )
    assert reds > where.width * where.height // 4  # a visible red disk


# ---------------------------------------------------------------- a destroyed X window


needs_x = pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool")), reason="needs Xvfb and xdotool"
)


@pytest.fixture()
def xvfb() -> Iterator[str]:
    display = f":{90 + os.getpid() % 50}"
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)
    yield display
    server.terminate()
    server.wait(timeout=10)


def window_of(display: str, game: subprocess.Popen[str], timeout: float = 40.0) -> str:
    """The X window of ``game`` (a loaded machine starts Python slowly); a game that ended
    first fails with what it printed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if game.poll() is not None:
            raise AssertionError(f"the game ended before its window appeared: {game.communicate()}")
        found = subprocess.run(
            ["xdotool", "search", "--pid", str(game.pid)],
            env={**os.environ, "DISPLAY": display},
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split()
        if found:
            return found[0]
        time.sleep(0.2)
    raise AssertionError("the game's window never appeared")


@pytest.mark.system
@needs_x
@pytest.mark.parametrize("how", ["windowclose", "windowkill"])
def test_a_destroyed_x_window_still_saves_and_exits(tmp_path: Path, xvfb: str, how: str) -> None:
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text("[kiosk]\nlock = true\n")
    env = {**os.environ, "DISPLAY": xvfb, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"}
    env.pop("STATE_DIRECTORY", None)
    game = subprocess.Popen(
        [
            sys.executable,
            "main.py",
            "--windowed",
            "--size",
            "640x400",
            "--config",
            str(config),
            "--state-dir",
            str(state),
            "--code",
            "RU1-C-AAAAAAD",
            "--moves",
            "AH-f",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    window = window_of(xvfb, game)
    time.sleep(1.0)
    subprocess.run(["xdotool", how, window], env={**os.environ, "DISPLAY": xvfb}, check=True)
    try:
        _out, err = game.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        game.kill()
        raise
    assert game.returncode == 0, err[-3000:]
    log = (state / "logs" / "solitaire.log").read_text()
    assert "saving and exiting" in log
    if how == "windowclose":
        assert "shutting down" in log  # the usual QUIT path: save, log, workers closed
    saved = json.loads((state / "autosave.json").read_text())["data"]["game"]
    assert (saved["code"], saved["moves"]) == ("RU1-C-AAAAAAD", 1)


def test_the_table_shows_the_mark_while_its_game_is_not_saved(tmp_path: Path) -> None:
    """On the real table: a move whose save fails puts the mark at the info bar's left end;
    the next save that works takes it away."""
    from game.config import config_from_dict
    from game.launch import open_run
    from tests.helpers.tablehelp import Finger, make_app

    state = tmp_path / "state"
    config, _ = config_from_dict({"kiosk": {"lock": False}})
    run = open_run(config, state, logging_on=False, crash_hook=False)
    app = make_app("RU1-C-AAAAAAD", size=(800, 480), run=run)
    finger = Finger(app)
    where = mark_rect(app.table.model.layout.info_bar)

    def red_pixels() -> int:
        app.draw()
        return sum(
            1
            for x in range(where.left, where.right)
            for y in range(where.top, where.bottom)
            if app.screen.get_at((x, y))[:3] == MARK_RED
        )

    finger.settle()
    assert red_pixels() == 0
    shutil.rmtree(state)
    state.write_text("a file where the directory should be: every save fails")
    finger.tap(finger.card("AH"))  # goes home; its save fails
    finger.settle()
    assert run.session.save_failed and red_pixels() > 20
    state.unlink()
    run.session.checkpoint(app.table.model.game)  # a save that works
    finger.settle()
    assert not run.session.save_failed and red_pixels() == 0
