"""Kiosk flows played through python -m game.script on a locked kiosk config (a subprocess, as a
bug report would): the next visitor never inherits the last one's language, settings or open
screens; the operator's long press, PIN and menu."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from game.config import hash_pin
from game.i18n import Translator

ROOT = Path(__file__).resolve().parent.parent
PIN = "246813"
PIN_HASH = hash_pin(PIN, iterations=100_000)


def kiosk_config(tmp: Path, **kiosk: object) -> Path:
    """A locked kiosk in Finnish whose default game is classic Russian Solitaire."""
    values = {"lock": True, "operator_pin_hash": PIN_HASH, "exit_press_seconds": 2.0, **kiosk}
    lines = [f"{key} = {json.dumps(value)}" for key, value in values.items()]
    config = tmp / "config.toml"
    config.write_text(
        '[game]\nlocale = "fi"\ndefault_game = "russian"\nrussian_rules = "classic"\n'
        "[kiosk]\n" + "\n".join(lines) + "\n",
        encoding="utf-8",
    )
    return config


def script(tmp: Path, config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["SOLITAIRE_STATE_DIR"] = str(tmp / "state")
    env["SOLITAIRE_CONFIG"] = str(config)
    return subprocess.run(
        [sys.executable, "-m", "game.script", "--size", "800x480", *args],
        capture_output=True, text=True, env=env, timeout=300, cwd=ROOT,
    )  # fmt: skip


def state(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_visitor_who_made_no_move_leaves_nothing_behind(tmp_path: Path) -> None:
    """English, four-colour suits and the settings screen left open on a Seahaven deal without
    a move: when the kiosk goes idle the attract screen talks Finnish again, the settings are
    the operator's, and the table holds a deal of the operator's default game."""
    config = kiosk_config(tmp_path, idle_attract_minutes=0.02, idle_new_game_minutes=0.05)
    changed, attract, later = (tmp_path / f"{n}.json" for n in ("changed", "attract", "later"))
    proc = script(
        tmp_path, config, "--code", "SH1-C1-AAAAAAD",
        "press", "settings", "press", "en", "press", "four_colors", "state", str(changed),
        "wait", "2", "state", str(attract), "wait", "3", "state", str(later),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    before = state(changed)
    assert before["scene"] == "settings"
    assert (before["settings"]["locale"], before["settings"]["four_colors"]) == ("en", True)
    for data in (state(attract), state(later)):
        assert data["scene"] == "attract"
        assert Translator("fi")("kiosk.attract") in data["texts"]
        assert (data["settings"]["locale"], data["settings"]["four_colors"]) == ("fi", False)
        assert data["code"].startswith("RU1-C-")
        assert data["moves"] == 0
