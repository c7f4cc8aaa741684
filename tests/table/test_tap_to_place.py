"""Tap, then tap where it goes (issue 25 item 9; the "Tap to place" setting, off by default): a
tap chooses a card that cannot go home, the next tap on a column, free cell or the foundations
puts it there or says why not; a tap, a double tap and One tap moves keep their meaning."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from engine import Game
from engine.cards import parse_card
from game.config import Config, config_from_dict
from game.i18n import Translator
from game.look.cards import HIGHLIGHT
from game.saves.prefs import PlayerSettings, load_prefs, reset_visitor_settings
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
CODE = "RU1-C-AAAAAAD"  # 9S (with 3C 9H on it) fits on TS, the top of column 7
ON = ("--set", "tap_to_place=true")


def script(tmp: Path, code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["SOLITAIRE_STATE_DIR"] = str(tmp / "state")
    return subprocess.run(
        [sys.executable, "-m", "game.script", "--size", "800x480", "--locale", "en",
         "--code", code, *args],
        capture_output=True, text=True, env=env, timeout=120, cwd=ROOT,
    )  # fmt: skip


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def after(code: str, *moves: str) -> dict:
    game = Game.from_code(code)
    for move in moves:
        game.play(move)
    return game.to_dict()


@pytest.mark.process
def test_tap_a_card_then_a_column_moves_it_there(tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    proc = script(tmp_path, CODE, *ON, "tap", "9S", "tap", "t7", "state", str(out))
    assert proc.returncode == 0, proc.stderr
    data = read(out)
    assert data["columns"] == after(CODE, "9S-t7")["columns"] and data["moves"] == 1


@pytest.mark.process
def test_the_second_tap_on_a_wrong_place_says_why(tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    proc = script(tmp_path, CODE, *ON, "tap", "8C", "tap", "t3", "state", str(out))
    assert proc.returncode == 0, proc.stderr
    data = read(out)
    game = Game.from_code(CODE)
    assert data["columns"] == game.to_dict()["columns"] and data["moves"] == 0
    why = game.check("8C-t3")
    assert why is not None and data["message"].startswith(Translator("en").refusal(why))


@pytest.mark.process
def test_a_free_cell_takes_the_chosen_card(tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    proc = script(tmp_path, "SH1-C4-AAAAAJ2", *ON, "tap", "6C", "tap", "c3", "state", str(out))
    assert proc.returncode == 0, proc.stderr
    assert read(out)["cells"] == ["3C", "4H", "6C", None]


@pytest.mark.process
def test_off_by_default_a_tap_and_a_double_tap_keep_their_meaning(tmp_path: Path) -> None:
    off, home, double = (tmp_path / f"{n}.json" for n in ("off", "home", "double"))
    proc = script(tmp_path, CODE, "tap", "9S", "tap", "t7", "state", str(off))
    assert proc.returncode == 0, proc.stderr
    assert read(off)["moves"] == 0  # off: the taps only said 9S cannot go home
    proc = script(tmp_path, CODE, *ON, "tap", "AH", "state", str(home),
                  "double", "5C", "state", str(double))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert read(home)["columns"] == after(CODE, "AH-f")["columns"]  # a tap sends it home
    assert read(double)["columns"] == after(CODE, "AH-f", "5C-t3")["columns"]


@pytest.fixture
def app():
    app = make_app(CODE, size=(800, 480), px_per_mm=5.2,
                   settings=PlayerSettings(locale="en", tap_to_place=True))  # fmt: skip
    yield app
    pygame.display.quit()


def test_the_chosen_card_is_lit_and_a_tap_elsewhere_drops_it(app) -> None:
    finger, table = Finger(app), app.table
    nine = parse_card("9S")
    finger.tap(finger.card("9S"))
    finger.settle(0.5)
    lit = table.model.chooser.lit()
    assert lit == table.model.places.group_rect(nine)  # with 3C and 9H, which move with it
    helped = [p.rect for p in table.view.help if p.alive()]  # placement help: where it goes
    assert len(helped) == 1 and helped[0].contains(table.model.card_rect(parse_card("TS")))
    app.full_redraw = True
    app.draw()
    edge = app.screen.get_at((lit.left - 2, lit.centery))[:3]
    assert tuple(edge) == HIGHLIGHT
    assert table.model.toast is None  # chosen, not refused: no "cannot go home" answer
    finger.tap((table.model.layout.title.centerx, table.model.layout.title.bottom - 2))  # bare felt
    finger.settle(0.5)
    assert table.model.chooser.lit() is None and table.model.game.moves == 0
    finger.tap(finger.card("9S"))
    finger.settle(0.5)
    finger.tap(finger.card("9S"))  # its own pile: dropped, nothing moves
    finger.settle(0.5)
    assert table.model.chooser.lit() is None and table.model.game.moves == 0


def test_the_setting_is_on_screen_saved_and_reset_for_the_next_visitor(tmp_path: Path) -> None:
    app = make_app(CODE, state_dir=tmp_path)
    finger = Finger(app)
    app.table.press_button("settings")
    finger.settle(0.3)
    label = app.tr("settings.tap_to_place")
    assert not app.settings.tap_to_place
    finger.tap(finger.control(label))
    finger.settle(0.3)
    assert app.settings.tap_to_place
    assert "tap_to_place" in (tmp_path / "settings.json").read_text()  # saved like the others
    assert load_prefs(Config(), tmp_path).tap_to_place
    locked = config_from_dict({"kiosk": {"lock": True}})[0]  # a kiosk (no PIN: no matter)
    assert reset_visitor_settings(app, locked, tmp_path)
    assert not app.settings.tap_to_place
    pygame.display.quit()
