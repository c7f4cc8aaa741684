"""Waiting never throws a game away on a desktop (issue 38, item 1): without the kiosk lock, eleven
minutes without input end, replace and count nothing, not even a game with Finish on offer; the
locked kiosk still saves, shows its attract screen and deals the next visitor a fresh game; an
operator who sets ``idle_unlocked = true`` gets the idle deal without the lock, and the game it
replaced is not counted and comes back from New game. Played through ``python -m game.script``
(a subprocess, as a bug report would)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import Game
from game.saves.persist import Autosave
from game.saves.storage import autosave_store
from tests.helpers.tablehelp import WIN_LINE, WON_CODE
from tests.kiosk.test_kiosk_flows import script, state

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]
CERTAIN_AT = (
    92  # WIN_LINE's moves before only foundation moves remain (tests/engine/test_finish.py)
)
HOLD = "660"  # eleven minutes without input: past the shipped 3 and 10 minutes


def config(tmp: Path, **kiosk: object) -> Path:
    """The shipped idle times (3 and 10 minutes), in English, with ``kiosk``'s keys."""
    lines = [f"{key} = {json.dumps(value)}" for key, value in kiosk.items()]
    path = tmp / "config.toml"
    path.write_text('[game]\nlocale = "en"\n[kiosk]\n' + "\n".join(lines) + "\n", "utf-8")
    return path


def saved(tmp: Path, line: list[str]) -> Game:
    """The autosave the script resumes: WON_CODE after ``line``."""
    game = Game.from_code(WON_CODE)
    for move in line:
        game.play(move)
    (tmp / "state").mkdir(parents=True, exist_ok=True)
    assert Autosave(autosave_store(tmp / "state")).save(game, 60.0, line=line)
    return game


def played(tmp: Path) -> int:
    """Games the statistics counted, all rule sets (no statistics file: none)."""
    path = tmp / "state" / "stats.json"
    if not path.exists():
        return 0
    return sum(rule_set["played"] for rule_set in state(path)["data"].values())


def buttons(data: Any) -> list[str]:
    return [button["name"] for button in data["layout"]["buttons"]]


def test_without_the_lock_eleven_idle_minutes_keep_the_game_and_its_finish(tmp_path: Path) -> None:
    """The shipped config (lock off): a game with Finish on offer is still on the table after
    eleven minutes, Finish still offered, nothing counted, no attract screen."""
    saved(tmp_path, WIN_LINE[:CERTAIN_AT])
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    toml = config(tmp_path, lock=False)
    proc = script(tmp_path, toml, "state", str(before), "wait", HOLD, "state", str(after))
    assert proc.returncode == 0, proc.stderr
    first, last = state(before), state(after)
    assert "finish" in buttons(first)
    assert (last["code"], last["moves"], last["scene"]) == (WON_CODE, CERTAIN_AT, "table")
    assert "finish" in buttons(last)
    assert played(tmp_path) == 0
    log = (tmp_path / "state" / "logs" / "solitaire.log").read_text(encoding="utf-8")
    assert "idle: attract screen" not in log and "idle: fresh deal" not in log


def test_the_locked_kiosk_still_deals_the_next_visitor_a_fresh_game(tmp_path: Path) -> None:
    """Lock on, the same eleven minutes: the attract screen, a fresh deal, the game counted."""
    saved(tmp_path, WIN_LINE[:CERTAIN_AT])
    after = tmp_path / "after.json"
    proc = script(tmp_path, config(tmp_path, lock=True), "wait", HOLD, "state", str(after))
    assert proc.returncode == 0, proc.stderr
    last = state(after)
    assert last["scene"] == "attract"
    assert last["code"] != WON_CODE and last["moves"] == 0
    assert played(tmp_path) == 1


def test_idle_unlocked_deals_afresh_and_new_game_resumes_the_game_left(tmp_path: Path) -> None:
    """``idle_unlocked = true`` without the lock: the idle deal replaces the game (not counted);
    New game offers it back, and it returns with its moves, score and clock."""
    game = saved(tmp_path, WIN_LINE[:CERTAIN_AT])
    idle, dialog, back = (tmp_path / f"{n}.json" for n in ("idle", "dialog", "back"))
    toml = config(tmp_path, lock=False, idle_unlocked=True)
    proc = script(
        tmp_path, toml, "wait", HOLD, "state", str(idle), "key", "space", "press", "newgame",
        "state", str(dialog), "press", "resume_aside", "state", str(back), "wait", "2",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert state(idle)["scene"] == "attract"
    assert (state(idle)["code"], state(idle)["moves"]) != (WON_CODE, CERTAIN_AT)
    offered = [b for b in state(dialog)["buttons"] if b["name"] == "resume_aside"]
    assert [b["label"] for b in offered] == [f"Back to the game left idle ({CERTAIN_AT} moves)"]
    last = state(back)
    assert (last["code"], last["moves"], last["score"]) == (WON_CODE, CERTAIN_AT, game.score)
    assert last["scene"] == "table" and "finish" in buttons(last)
    assert played(tmp_path) == 0
    resumed = state(tmp_path / "state" / "autosave.json")["data"]
    assert (resumed["game"]["code"], resumed["game"]["moves"]) == (WON_CODE, CERTAIN_AT)
    assert resumed["elapsed"] >= 60.0  # the clock came back with the game (saved at 60 s)


def test_idle_unlocked_is_a_checked_config_value(tmp_path: Path) -> None:
    """--check-config knows the key and refuses a value that is not true or false."""
    good = config(tmp_path, lock=False, idle_unlocked=True)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    check = [sys.executable, "main.py", "--check-config"]
    ok = subprocess.run([*check, str(good)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('[kiosk]\nidle_unlocked = "yes"\n', "utf-8")
    no = subprocess.run([*check, str(bad)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert no.returncode != 0 and "idle_unlocked" in no.stdout + no.stderr
