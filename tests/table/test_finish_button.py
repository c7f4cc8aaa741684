"""Finish (issue 25): once the rest of the game is certain, the Hint button becomes Finish; one
tap sends the cards home one after another, each a move that counts, scores and undoes alone.
Played through ``python -m game.script`` on an autosaved position, as a bug report would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from engine import Game
from engine.finish import finish_line
from game.saves.persist import Autosave
from game.saves.storage import autosave_store
from tests.helpers.tablehelp import WIN_LINE, WON_CODE, Finger, make_app

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
CERTAIN_AT = (
    92  # WIN_LINE's moves before only foundation moves remain (tests/engine/test_finish.py)
)
# From there, hearts, diamonds and clubs taken back from the foundations onto empty columns as
# runs: a real position with 50 cards to finish.
TAKE_BACK = [f"{r}{s}-t{c}" for s, c in (("H", 2), ("D", 4), ("C", 5)) for r in "KQJT98765432A"]
LONG_FINISH = [*WIN_LINE[:CERTAIN_AT], *TAKE_BACK]


def saved(tmp: Path, line: list[str]) -> Game:
    """The autosave the script resumes: WON_CODE after ``line``."""
    game = Game.from_code(WON_CODE)
    for move in line:
        game.play(move)
    (tmp / "state").mkdir(parents=True, exist_ok=True)
    assert Autosave(autosave_store(tmp / "state")).save(game, 60.0, line=line)
    return game


def script(tmp: Path, *steps: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["SOLITAIRE_STATE_DIR"] = str(tmp / "state")
    return subprocess.run(
        [sys.executable, "-m", "game.script", "--size", "800x480", "--locale", "en", *steps],
        capture_output=True, text=True, env=env, timeout=120, cwd=ROOT,
    )  # fmt: skip


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def home(data: dict) -> int:
    return sum(data["foundations"])


@pytest.mark.process
def test_no_finish_button_before_the_rest_is_certain(tmp_path: Path) -> None:
    game = saved(tmp_path, WIN_LINE[: CERTAIN_AT - 1])
    assert finish_line(game) is None  # 9S-t1 is still to be played by hand
    proc = script(tmp_path, "press", "finish")
    assert proc.returncode == 1
    assert "no button 'finish' on the table (newgame, undo, redo, hint, settings)" in proc.stderr


@pytest.mark.process
def test_finish_takes_the_hint_buttons_place_and_nothing_goes_home_untapped(
    tmp_path: Path,
) -> None:
    saved(tmp_path, LONG_FINISH)
    out = tmp_path / "waited.json"
    proc = script(tmp_path, "wait", "3", "state", str(out), "press", "hint")
    assert proc.returncode == 1
    assert "no button 'hint' on the table (newgame, undo, redo, finish, settings)" in proc.stderr
    data = read(out)  # seed 004: no card goes home by itself, even when the rest is certain
    assert (home(data), data["moves"], data["won"]) == (2, len(LONG_FINISH), False)


@pytest.mark.process
def test_one_tap_wins_each_card_a_move_and_undo_takes_back_one_card(tmp_path: Path) -> None:
    game = saved(tmp_path, LONG_FINISH)
    score = game.score
    paths = {name: tmp_path / f"{name}.json" for name in ("running", "undone", "still", "won")}
    proc = script(
        tmp_path, "press", "finish", "state", str(paths["running"]),
        "press", "undo", "state", str(paths["undone"]),
        "wait", "2", "state", str(paths["still"]),
        "press", "finish", "wait", "4", "state", str(paths["won"]),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    running, undone, still, won = (read(paths[name]) for name in paths)
    # A quick animation: part of the way after 0.6 s, each card a move scored as usual.
    sent = home(running) - 2
    assert 0 < sent < 50
    assert running["moves"] == len(LONG_FINISH) + sent
    assert running["score"] == score + 10 * sent
    assert [step["move"][-2:] for step in running["history"][-sent:]] == ["-f"] * sent
    # Undo (the run stops) takes back one card, as after a single tapped move.
    played = undone["moves"] - len(LONG_FINISH)  # the cards sent before the undo
    assert home(undone) == 2 + played - 1
    assert undone["score"] == score + 10 * (played - 1)
    assert still == undone  # stopped: nothing more goes home by itself
    # Finish again: every card home, each a move and +10.
    left = 52 - home(undone)
    assert won["won"] and home(won) == 52
    assert won["moves"] == undone["moves"] + left
    assert won["score"] == undone["score"] + 10 * left
    assert won["scene"] != "table"  # the win (or its initials) is on screen


@pytest.fixture
def table_app(tmp_path: Path):
    game = Game.from_code(WON_CODE)
    for move in LONG_FINISH:
        game.play(move)
    app = make_app(game=game, size=(800, 480), px_per_mm=5.2)
    yield app
    pygame.display.quit()


def test_the_finish_plays_card_by_card_and_a_drag_stops_it(table_app) -> None:
    finger, table = Finger(table_app), table_app.table
    where = table.model.layout.buttons["hint"].center
    assert table.button_at(where) == "finish"
    finger.tap(where)
    first = sum(table.model.game.found)
    assert first == 3 and table.model.finisher.running  # the first card goes at once, then the rest
    finger.settle(0.2)
    assert sum(table.model.game.found) > first and table.busy()
    # Lifting a card stops the run; the button is Finish again.
    column = table.model.game.cols[1]
    finger.down(table.model.card_rect(column[-1]).center)
    finger.move((400, 300))
    at = sum(table.model.game.found)
    finger.settle(0.5)
    assert sum(table.model.game.found) == at and not table.model.finisher.running
    finger.up((400, 300))
    finger.settle(0.5)
    assert table.button_at(where) == "finish"


def test_a_dialog_pauses_the_run_and_it_goes_on_card_by_card(table_app) -> None:
    finger, table = Finger(table_app), table_app.table
    finger.tap(table.model.layout.buttons["hint"].center)
    table.press_button("settings")
    finger.settle(0.1)
    paused = sum(table.model.game.found)
    finger.settle(1.0)
    assert sum(table.model.game.found) == paused < 52  # nothing goes home under the dialog
    assert not table_app.busy()  # and the loop may sleep meanwhile
    table_app.scenes.pop()
    table_app.step()
    assert sum(table.model.game.found) <= paused + 1  # back at the table: one card, not a burst
    finger.settle(3.0)
    assert table.model.game.is_won
