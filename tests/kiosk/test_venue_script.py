"""Three games, each its own process (``python -m game.script``, the scripted player, headless),
of one venue on a real mosquitto (tests/helpers/broker.py): each wins today's deal from its own
saved game one move before the win, through its table, then starts again (resuming its won
game) and shows the whole venue's high scores, where every kiosk's win is once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Game
from game.saves.persist import Autosave
from game.saves.storage import autosave_store
from tests.arcade.test_arcade import day_of_won_code
from tests.helpers.broker import Broker
from tests.helpers.tablehelp import WIN_LINE, WON_CODE

pytestmark = pytest.mark.system

REPO = Path(__file__).resolve().parents[2]
KIOSKS = ("cafe", "hall", "attic")


def start(tmp: Path, broker: Broker, kiosk: str, *steps: str) -> subprocess.Popen[str]:
    """``python -m game.script`` as ``kiosk``, its state and config.toml in tmp/kiosk."""
    home = tmp / kiosk
    venue = broker.venue(kiosk)
    lines = [f"{key} = {json.dumps(value)}" for key, value in venue._asdict().items()]
    (home / "config.toml").write_text("[arcade]\ninitials = false\n[venue]\n" + "\n".join(lines))
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["SOLITAIRE_STATE_DIR"] = str(home / "state")
    env["SOLITAIRE_CONFIG"] = str(home / "config.toml")
    return subprocess.Popen(
        [sys.executable, "-m", "game.script", "--size", "800x480", "--locale", "en",
         "--date", day_of_won_code(), *steps],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def finish(process: subprocess.Popen[str]) -> None:
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0, err


def test_three_games_win_todays_deal_and_each_shows_the_others_once(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker", KIOSKS)
    broker.start()
    try:
        for kiosk in KIOSKS:
            (tmp_path / kiosk / "state").mkdir(parents=True)
            game = Game.from_code(WON_CODE)
            for move in WIN_LINE[:-1]:
                game.play(move)
            seconds = {"cafe": 300.0, "hall": 200.0, "attic": 250.0}[kiosk]
            assert Autosave(autosave_store(tmp_path / kiosk / "state")).save(
                game, seconds, line=list(WIN_LINE[:-1])
            )
        # All three at once: the last move, the win entered and published.
        for process in [start(tmp_path, broker, k, "tap", "KS", "sleep", "2") for k in KIOSKS]:
            finish(process)
        # Each again: its won game resumed, the venue's tables from the broker, the venue's page.
        outs = {kiosk: tmp_path / f"{kiosk}.json" for kiosk in KIOSKS}
        for process in [
            start(tmp_path, broker, k, "sleep", "4", "press", "scores", "press", "whole_venue",
                  "state", str(outs[k]))
            for k in KIOSKS
        ]:  # fmt: skip
            finish(process)
    finally:
        broker.stop()
    for kiosk, out in outs.items():
        texts = json.loads(out.read_text())["texts"]
        rows = [text for text in texts if any(f" {k} " in f" {text} " for k in KIOSKS)]
        assert rows == [  # rank, no initials, kiosk, time, moves, score: each win once
            "1. --- hall 3:20 103 520",
            "2. --- attic 4:10 103 520",
            "3. --- cafe 5:00 103 520",
        ], (kiosk, texts)
        assert any("City Library" in text for text in texts), texts
