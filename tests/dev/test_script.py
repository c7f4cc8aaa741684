"""python -m game.script: a headless session through the real input layer, run as a subprocess
as a bug report or a test would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Game, Move
from engine.cards import parse_card
from game.i18n import Translator

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]
CODE = "RU1-C-AAAAAAD"


def script(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["SOLITAIRE_STATE_DIR"] = str(tmp / "state")
    return subprocess.run(
        [sys.executable, "-m", "game.script", *args],
        capture_output=True, text=True, env=env, timeout=120, cwd=ROOT,
    )  # fmt: skip


def state(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_drag_and_a_refused_drag(tmp_path):
    out, refused = tmp_path / "moved.json", tmp_path / "refused.json"
    proc = script(
        tmp_path, "--size", "800x480", "--code", CODE, "--locale", "en",
        "drag", "9S", "t7", "state", str(out), "drag", "8C", "t3", "state", str(refused),
        "shot", str(tmp_path / "end.png"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    expected = Game.from_code(CODE)
    expected.play("9S-t7")
    data = state(out)
    assert data["columns"] == expected.to_dict()["columns"]
    assert data["scene"] == "table" and data["message"] is None
    after = state(refused)
    assert after["columns"] == data["columns"]  # refused: nothing moved
    reason = expected.check(Move(parse_card("8C"), 2))
    assert reason is not None
    assert after["message"].startswith(Translator("en").refusal(reason))  # and where 9C lies
    assert (tmp_path / "end.png").stat().st_size > 1000


def test_buttons_of_the_table_and_of_a_dialog(tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    proc = script(
        tmp_path, "--size", "720x1280", "--code", CODE,
        "press", "settings", "state", str(first), "key", "escape", "wait", "0.5",
        "state", str(second),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert state(first)["scene"] == "settings"
    assert state(second)["scene"] == "table"


def test_without_a_code_the_saved_game_resumes(tmp_path):
    out = tmp_path / "resumed.json"
    assert script(tmp_path, "--size", "800x480", "--code", CODE, "drag", "9S", "t7").returncode == 0
    proc = script(tmp_path, "--size", "1024x600", "state", str(out))
    assert proc.returncode == 0, proc.stderr
    data = state(out)
    assert data["code"] == CODE and data["moves"] == 1


def test_settings_for_the_run(tmp_path):
    out = tmp_path / "quiet.json"
    proc = script(
        tmp_path, "--size", "800x480", "--code", CODE, "--set", "interactive_rules=false",
        "drag", "9S", "t7", "drag", "8C", "t3", "state", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    # After a first move (the how-to-play line is gone), the refused drag is silent but for
    # the shake.
    assert state(out)["message"] is None
    bad = script(tmp_path, "--size", "800x480", "--code", CODE, "--set", "colour=blue")
    assert bad.returncode == 1 and "--set" in bad.stderr


def test_a_step_that_cannot_be_done_fails_with_a_message(tmp_path):
    game = Game.from_code(CODE)
    covered = game.cols[6][game.down[6]]  # face up, but not the top card: shows a strip
    hidden = game.cols[6][0]
    from engine.cards import card_name

    cases = [
        (["tap", "XX"], "not on the table"),
        (["fly", "9S"], "unknown step"),
        (["press", "launch"], "no button"),
        (["drag", "9S"], "needs 2"),
        (["press", "settings", "tap", card_name(covered)], "settings screen is on top"),
    ]
    for steps, words in cases:
        proc = script(tmp_path, "--size", "800x480", "--code", CODE, *steps)
        assert proc.returncode == 1, (steps, proc.stderr)
        assert words in proc.stderr, (steps, proc.stderr)
    # A hidden card can be touched (its back shows); a card under the one above shows nothing
    # only on a foundation.
    assert (
        script(tmp_path, "--size", "800x480", "--code", CODE, "tap", card_name(hidden)).returncode
        == 0
    )


def test_dialog_buttons_are_pressed_by_their_action_name(tmp_path):
    """Settings' Rules button opens the rules by `press rules` in any language, and the rules
    screen's Examples button by `press examples`."""
    out = tmp_path / "examples.json"
    proc = script(
        tmp_path, "--size", "800x480", "--code", CODE, "--locale", "ru",
        "press", "settings", "press", "rules", "press", "examples", "state", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert state(out)["scene"] == "examples"
