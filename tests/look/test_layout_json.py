"""main.py --layout-json: what is on screen, as data, read from the sprite layer."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from engine import Game, Move
from engine.cards import CARD_NAMES
from game.dev.report import layout_report
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def run_main(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=ROOT,
    )


@pytest.mark.process
def test_main_writes_every_card_and_button(tmp_path):
    out = tmp_path / "table.json"
    code = "SH1-C4-AAAAAAA"
    # Three moves to cells or foundations, chosen by the engine (not a card from cell to cell).
    game = Game.from_code(code)
    moves = []
    for _ in range(3):
        move = next(m for m in game.legal_moves() if m.dest >= 10 and not game.is_pointless(m))
        game.play(move)
        moves.append(str(move))
    proc = run_main(
        "--size", "800x480", "--code", code, "--moves", *moves,
        "--screenshot", str(tmp_path / "t.png"), "--layout-json", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    assert data["size"] == [800, 480]
    assert 5.0 < data["px_per_mm"] < 5.5  # the 7" panel's guess
    assert sorted(c["card"] for c in data["cards"]) == sorted(CARD_NAMES)  # every card
    assert {"f", "c1"} <= {c["pile"] for c in data["cards"]}
    assert {b["name"] for b in data["buttons"]} == {"newgame", "undo", "redo", "hint", "settings"}
    piles = {c["pile"] for c in data["cards"]}
    assert piles <= {f"t{i}" for i in range(1, 11)} | {f"c{i}" for i in range(1, 5)} | {"f"}
    for card in data["cards"]:
        x, y, w, h = card["rect"]
        vx, vy, vw, vh = card["visible"]
        assert x <= vx and vx + vw <= x + w and y <= vy and vy + vh <= y + h
        assert x >= 0 and x + w <= 800 and y >= 0 and y + h <= 480
        if card["face_up"]:
            ix, _iy, iw, ih = card["index"]
            assert x <= ix and ix + iw <= x + w and iw > 0 and ih > 0
        else:
            assert card["index"] is None


@pytest.mark.process
def test_layout_json_needs_a_screenshot(tmp_path):
    proc = run_main("--layout-json", str(tmp_path / "x.json"))
    assert proc.returncode == 2 and "--screenshot" in proc.stderr


def test_visible_parts_follow_the_fan_and_the_foundation():
    game = Game.from_code("RU1-C-AAAAAAN")
    app = make_app(game=game, size=(1024, 600))
    table = app.table
    table.model.make_move(Move.parse("AC-f"))
    for _ in range(30):
        app.step()
    data = layout_report(table)
    by_card = {c["card"]: c for c in data["cards"]}
    for col in game.cols:
        for below, above in itertools.pairwise(col):
            shown = by_card[_name(below)]
            top = by_card[_name(above)]["rect"][1]
            assert shown["visible"][1] == shown["rect"][1]
            assert shown["visible"][3] == top - shown["rect"][1]  # down to the next card
        last = by_card[_name(col[-1])]
        assert last["visible"] == last["rect"]  # the top card shows whole
    assert by_card["AC"]["pile"] == "f" and by_card["AC"]["visible"][3] > 0


def test_a_covered_foundation_card_shows_nothing():
    data = Game.from_code("RU1-C-AAAAAAN").to_dict()
    found = data["foundations"]
    assert found == [0, 0, 0, 0]
    # Two clubs home: the ace lies under the two.
    columns = [[c for c in col if c.lstrip("#") not in ("AC", "2C")] for col in data["columns"]]
    data.update(columns=columns, foundations=[0, 0, 0, 2], history=[])
    app = make_app(game=Game.from_dict(data), size=(800, 480))
    by_card = {c["card"]: c for c in layout_report(app.table)["cards"]}
    assert by_card["AC"]["visible"][3] == 0
    assert by_card["2C"]["visible"] == by_card["2C"]["rect"]


def _name(card: int) -> str:
    from engine.cards import card_name

    return card_name(card)
