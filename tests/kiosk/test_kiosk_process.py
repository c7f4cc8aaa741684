"""The real program as systemd runs it: main.py in its own process, stopped with SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.config import hash_pin

pytestmark = pytest.mark.process

REPO = Path(__file__).resolve().parents[2]


def start(state: Path, config: Path, *args: str) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    }
    env.pop("STATE_DIRECTORY", None)
    command = [sys.executable, "main.py", "--windowed", "--size", "800x480"]
    command += ["--state-dir", str(state), "--config", str(config), *args]
    return subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def wait_for(
    path: Path, process: subprocess.Popen[str], text: str = "", timeout: float = 30.0
) -> None:
    """Until ``path`` exists (and holds ``text``)."""
    deadline = time.monotonic() + timeout
    while not path.exists() or text not in path.read_text():
        if process.poll() is not None:
            raise AssertionError(f"the game ended early: {process.communicate()}")
        if time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"{path} never appeared")
        time.sleep(0.05)


@pytest.mark.parametrize(
    ("lock", "stop"),
    [(False, signal.SIGTERM), (True, signal.SIGTERM), (True, signal.SIGINT)],
)
def test_a_stop_signal_saves_and_exits_cleanly(
    tmp_path: Path, lock: bool, stop: signal.Signals
) -> None:
    """systemd's SIGTERM and Ctrl+C's SIGINT alike: save, exit 0, no crash counted (three
    counted crashes would move the saved game aside at the next start)."""
    config = tmp_path / "config.toml"
    stored = hash_pin("123456", iterations=100_000)
    config.write_text(f'[kiosk]\nlock = {str(lock).lower()}\noperator_pin_hash = "{stored}"\n')
    state = tmp_path / "state"
    game = start(state, config, "--code", "RU1-C-AAAAAAD", "--moves", "AH-f")
    wait_for(state / "autosave.json", game)
    time.sleep(0.5)  # the window is up: a stop now goes through the loop (QUIT)
    game.send_signal(stop)
    try:
        _out, err = game.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        game.kill()
        raise
    assert game.returncode == 0, err
    assert not (state / "crashes.json").exists()
    assert "Traceback" not in err
    log = (state / "logs" / "solitaire.log").read_text()
    assert "game=RU1-C-AAAAAAD event=start" in log
    assert "shutting down" in log
    saved = json.loads((state / "autosave.json").read_text())["data"]
    assert saved["game"]["code"] == "RU1-C-AAAAAAD"
    assert saved["game"]["moves"] == 1

    # The next start resumes that game.
    again = start(state, config)
    wait_for(state / "logs" / "solitaire.log", again, "event=resume")
    again.send_signal(signal.SIGTERM)
    again.communicate(timeout=10)
    assert again.returncode == 0
    log = (state / "logs" / "solitaire.log").read_text()
    assert "game=RU1-C-AAAAAAD event=resume n=1 score=10" in log


def test_check_config_from_main(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text('[display]\nwidth = "wide"\n[game]\nlocale = "sv"\n')
    result = subprocess.run(
        [sys.executable, "main.py", "--check-config", str(bad)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert 'display.width = "wide"' in result.stdout
    assert 'game.locale = "sv"' in result.stdout
    ok = subprocess.run(
        [sys.executable, "main.py", "--check-config", str(REPO / "config.toml")],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stdout


CRASHING_TABLE = """
import sys
import main
from game.table.scene import TableScene

calls = 0
real_update = TableScene.update

def update(self, dt):
    global calls
    calls += 1
    if calls == 30:
        raise RuntimeError("a bug in the table")
    real_update(self, dt)

TableScene.update = update
sys.exit(main.main(sys.argv[1:]))
"""


def test_an_uncaught_error_is_logged_saved_and_exits_for_a_restart(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[kiosk]\nlock = false\n")
    state = tmp_path / "state"
    args = ["--windowed", "--size", "800x480", "--state-dir", str(state), "--config", str(config)]
    args += ["--code", "RU1-C-AAAAAAD", "--moves", "AH-f"]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("STATE_DIRECTORY", None)
    result = subprocess.run(
        [sys.executable, "-c", CRASHING_TABLE, *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 70, result.stderr  # EXIT_CRASH: systemd restarts the game
    log = (state / "logs" / "solitaire.log").read_text()
    assert "RuntimeError: a bug in the table" in log
    saved = json.loads((state / "autosave.json").read_text())["data"]["game"]
    assert (saved["code"], saved["moves"]) == ("RU1-C-AAAAAAD", 1)
    crashes = json.loads((state / "crashes.json").read_text())["data"]
    assert len(crashes) == 1
