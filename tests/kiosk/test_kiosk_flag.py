"""``main.py --kiosk`` (issue 29, item 8): the kiosk units say that they run the kiosk, and then a
config the game cannot use (a typo that breaks the TOML, a missing file, a bad value) never
leaves it unlocked: the kiosk defaults stand in (lock on, fullscreen, no cursor), with one log
line naming the error. Without a PIN the exit gesture stays off, as documented."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

import main
from game.config import load_config
from game.launch import LaunchOptions, open_app
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)
from tests.helpers.tablehelp import Finger

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
# The operator meant a locked kiosk, but one bracket is missing: not TOML at all.
BROKEN = "[display\nfullscreen = true\n\n[kiosk]\nlock = true\nidle_attract_minutes = 0\n"
ESCAPE = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


def broken_config(tmp: Path) -> Path:
    path = tmp / "config.toml"
    path.write_text(BROKEN, encoding="utf-8")
    return path


def toml_lines(state: Path) -> list[str]:
    log = (state / "logs" / "solitaire.log").read_text(encoding="utf-8")
    return [line for line in log.splitlines() if "is not valid TOML" in line]


@pytest.mark.parametrize("kiosk", [True, False], ids=["--kiosk", "desktop"])
def test_a_config_that_is_not_toml_leaves_the_kiosk_locked(tmp_path: Path, kiosk: bool) -> None:
    """As the kiosk unit: Escape no longer closes a screen, closing the window does nothing,
    the cursor is hidden, and a long press on the game code opens no keypad (no PIN: the exit
    gesture is off). As a desktop game the same file leaves the defaults: unlocked."""
    state = tmp_path / "state"
    options = LaunchOptions(broken_config(tmp_path), windowed=True, size=(800, 480),
                            state_dir=state, kiosk=kiosk)  # fmt: skip
    app = open_app(options)
    try:
        finger = Finger(app)
        finger.tap(finger.button("settings"))
        app.step([ESCAPE])
        assert (app.scenes.top.name == "settings") is kiosk  # locked: Escape is dropped
        app.step([pygame.event.Event(pygame.WINDOWCLOSE)])
        assert app.running
        assert pygame.mouse.get_visible() is not kiosk
        app.scenes.pop_to_bottom()
        assert (app.kiosk is not None) is kiosk  # a desktop run has no kiosk controller
        bar = app.table.model.layout.info_bar
        code = (bar.right - bar.width // 8, bar.centery)  # on the game code
        finger.down(code)
        finger.settle(6.0)  # longer than any exit press
        finger.up(code)
        assert app.scenes.top is app.table  # no keypad
        lines = toml_lines(state)
        assert len(lines) == 1, lines
        assert "line 1" in lines[0]  # the parser's own words: where the file breaks
        assert ("using the kiosk defaults (locked, fullscreen, no cursor)" in lines[0]) is kiosk
    finally:
        app.close()


@pytest.mark.process
def test_main_runs_the_kiosk_locked_and_logs_the_error_once(tmp_path: Path) -> None:
    """``python main.py --kiosk`` as the unit starts it (through the wrappers, which pass their
    arguments on): it runs, logs the TOML error once, and systemd's stop saves and ends it."""
    state = tmp_path / "state"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env |= {"SOLITAIRE_CONFIG": str(broken_config(tmp_path)), "SOLITAIRE_STATE_DIR": str(state)}
    game = subprocess.Popen(
        [sys.executable, "main.py", "--kiosk", "--windowed", "--size", "800x480"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and game.poll() is None:
            if (state / "autosave.json").exists():
                break
            time.sleep(0.2)
        assert game.poll() is None, game.communicate()
        game.send_signal(signal.SIGTERM)
        _out, err = game.communicate(timeout=30)
    finally:
        game.kill()
    assert game.returncode == 0, err
    lines = toml_lines(state)
    assert len(lines) == 1 and "using the kiosk defaults (locked" in lines[0], lines
    assert err.count("is not valid TOML") == 1  # and once on the journal


def test_check_config_says_what_the_kiosk_units_would_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = broken_config(tmp_path)
    assert main.main(["--kiosk", "--check-config", str(path)]) == 1
    out = capsys.readouterr().out
    assert "is not valid TOML" in out and "using the kiosk defaults" in out
    assert main.main(["--check-config", str(path)]) == 1
    assert "; using the defaults" in capsys.readouterr().out


@pytest.mark.parametrize(
    "text",
    ['[kiosk]\nlock = "yes"\n', "[display]\nwidth = 800\n", "", None],
    ids=["a bad lock value", "no lock key", "an empty file", "no file"],
)
def test_what_the_config_does_not_say_well_is_the_kiosks_default(
    tmp_path: Path, text: str | None
) -> None:
    path = tmp_path / "config.toml"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    config, _problems = load_config(path, kiosk=True)
    display = config.display
    assert (config.kiosk.lock, display.fullscreen, display.show_cursor) == (True, True, False)
    assert load_config(path)[0].kiosk.lock is False  # a desktop game: unlocked, as before
    written = tmp_path / "unlocked.toml"
    written.write_text("[kiosk]\nlock = false\n", encoding="utf-8")
    assert load_config(written, kiosk=True)[0].kiosk.lock is False  # said so: as said
