"""A kiosk whose clock jumped ahead once (a bad NTP answer; a Pi has no clock of its own) and
won a daily game in that state (issue 39, item 12), played by the scripted player
(python -m game.script) as a visitor would: the real days' daily tables survive, and once the
clock is right the high scores show today's table by the clock's date, not the day ahead."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from engine import daily
from game.arcade.highscores import KEEP_DAYS, Entry, HighScores
from game.i18n import Translator
from tests.arcade.test_arcade import LAST, day_of_won_code, one_move_to_go, script, state, stored

pytestmark = pytest.mark.unit

RULES = "SH1-C4"


def test_a_daily_win_while_the_clock_is_ahead_loses_no_real_day(tmp_path: Path) -> None:
    ahead = dt.date.fromisoformat(day_of_won_code())  # the day whose deal the script wins
    real = ahead - dt.timedelta(days=40)  # the real date, before and after the jump
    week = [real - dt.timedelta(days=n) for n in range(KEEP_DAYS + 1)]
    for day in week:  # a won daily game on each real day of the last week
        scores = HighScores.open(tmp_path / "state", today=lambda day=day: day)
        code = daily.deal_of_day(RULES, day)
        entry = Entry(code=code, score=600, seconds=300.0, moves=150, initials="REA", day=day)
        assert scores.add(entry).today == 1
    one_move_to_go(tmp_path)
    won = tmp_path / "won.json"
    proc = script(  # the clock jumps ahead: the visitor wins that day's deal
        tmp_path, "--size", "800x480", "--locale", "en", "--date", ahead.isoformat(),
        *LAST, "wait", "4", "state", str(won),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert state(won)["scene"] == "win"
    assert ahead.isoformat() in stored(tmp_path)[RULES]  # it was entered, the clock believed
    shown = tmp_path / "shown.json"
    proc = script(  # the clock is right again
        tmp_path, "--size", "800x480", "--locale", "en", "--date", real.isoformat(),
        "--code", daily.deal_of_day(RULES, real), "press", "newgame", "press", "scores",
        "state", str(shown),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    tables = stored(tmp_path)[RULES]
    assert {day.isoformat() for day in week} <= set(tables), sorted(tables)
    texts = state(shown)["texts"]
    en = Translator("en")
    assert texts[0] == en("arcade.today_title")
    assert texts[1] == f"{en(f'stats.{RULES}')} · {daily.deal_of_day(RULES, real)}"
    assert "1. REA 5:00 150 600" in texts  # today's real table, not the day ahead's win
    assert not any(text.startswith("2. ") for text in texts)
