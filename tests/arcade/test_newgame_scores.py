"""The new-game dialog stays put and opens the high scores (issue 25, items 4 and 6), played
by the scripted player (python -m game.script)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import daily
from game.arcade.highscores import Entry
from game.arcade.play import Arcade
from game.i18n import Translator
from tests.arcade.test_arcade import DAY, script, state

pytestmark = pytest.mark.unit

KEEP = ("open_keypad", "replay", "today", "close", "scores", "deal")


def test_choosing_a_game_moves_no_button(tmp_path: Path) -> None:
    a, b, c = (tmp_path / f"{n}.json" for n in "abc")
    proc = script(
        tmp_path, "--size", "800x480", "--locale", "en", "--code", "RU1-C-AAAAABB",
        "press", "newgame", "state", str(a), "press", "Seahaven Towers", "state", str(b),
        "press", "Russian Solitaire", "state", str(c),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    shown = [state(path) for path in (a, b, c)]
    assert [s["scene"] for s in shown] == ["newgame"] * 3
    chosen = [next(x["label"] for x in s["buttons"] if x["selected"]) for s in shown]
    assert chosen == ["Russian Solitaire", "Seahaven Towers", "Russian Solitaire"]
    where = [{x["label"]: x["rect"] for x in s["buttons"]} for s in shown]
    for game in ("Russian Solitaire", "Seahaven Towers"):
        assert where[0][game] == where[1][game] == where[2][game]
    for name in KEEP:
        rects = [[x["rect"] for x in s["buttons"] if x["name"] == name] for s in shown]
        assert rects[0] and rects[0] == rects[1] == rects[2], name


def test_it_opens_on_the_game_of_a_typed_code(tmp_path: Path) -> None:
    out = tmp_path / "after.json"
    code = [step for ch in "RU1-C-AAAAABB" for step in ("press", ch)]
    proc = script(
        tmp_path, "--size", "800x480", "--locale", "en", "--code", "SH1-C4-AAAAAJ2",
        "press", "newgame", "press", "open_keypad", "press", "clear", *code, "press", "submit",
        "press", "newgame", "state", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = state(out)
    assert data["code"] == "RU1-C-AAAAABB" and data["scene"] == "newgame"
    assert next(x["label"] for x in data["buttons"] if x["selected"]) == "Russian Solitaire"


LEVELS = ("winnable", "random")


def test_high_scores_open_from_the_new_game_dialog(tmp_path: Path) -> None:
    arcade = Arcade.open(tmp_path / "state")
    today = daily.deal_of_day("SH1-C2", DAY)
    arcade.scores.add(
        Entry(code=today, score=520, seconds=312.0, moves=140, initials="ANA", day=DAY)
    )
    arcade.scores.add(Entry(code="SH1-C2-AAAAABB", score=480, seconds=4000.0, moves=150))
    outs = [tmp_path / f"{n}.json" for n in range(5)]
    proc = script(
        tmp_path, "--size", "720x1280", "--locale", "fi", "--date", DAY, "--code",
        "SH1-C2-AAAAAJ2", "press", "newgame", "press", "scores", "state", str(outs[0]),
        "press", "next", "state", str(outs[1]), "press", "next", "state", str(outs[2]),
        "press", "next", "state", str(outs[3]), "press", "close", "state", str(outs[4]),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    fi = Translator("fi")
    first, second, third, fourth, back = (state(path) for path in outs)
    assert first["scene"] == "scores"
    # The rule set of the game on the table first: today's table, then the all-time ones,
    # one per level (issue 38, item 10): the day's deal is a winnable one, the other random.
    assert first["texts"][0] == fi("arcade.today_title")
    assert first["texts"][1] == f"{fi('stats.SH1-C2')} · {today}"
    assert "1. ANA 5:12 140 520" in first["texts"]  # time and moves side by side
    winnable, random = (f"{fi('stats.SH1-C2')} · {fi(f'table.deal_{n}')}" for n in LEVELS)
    assert second["texts"] == [fi("arcade.all_title"), winnable, "1. ANA 5:12 140 520"]
    assert third["texts"] == [fi("arcade.all_title"), random, "1. --- 1:06:40 150 480"]
    assert fourth["texts"][0] == fi("arcade.today_title")
    assert fi("stats.SH1-C2") not in fourth["texts"][1]  # the next rule set
    assert back["scene"] == "newgame"


def test_after_a_restart_it_opens_on_the_level_and_rule_set_in_play(tmp_path: Path) -> None:
    """Issue 31, item 5: a Mixed suits · Hard deal, the app started again from its save, New
    game: the dialog shows that rule set and that level chosen, not the config's (Easy)."""
    dealt, again = tmp_path / "dealt.json", tmp_path / "again.json"
    first = script(
        tmp_path, "--size", "800x480", "--locale", "en", "press", "newgame",
        "press", "Relaxed · Mixed suits", "press", "Hard", "press", "deal", "state", str(dealt),
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    second = script(
        tmp_path, "--size", "800x480", "--locale", "en", "press", "newgame", "state", str(again)
    )  # the restart: the saved game resumes
    assert second.returncode == 0, second.stderr
    before, after = state(dealt), state(again)
    assert before["code"].startswith("RU1-R-") and before["deal"] == "hard"
    assert after["code"] == before["code"] and after["scene"] == "newgame"
    chosen = [x["label"] for x in after["buttons"] if x["selected"]]
    assert chosen == ["Russian Solitaire", "Relaxed · Mixed suits", "Hard", "Deal"]
