"""Issue 16, the arcade: today's deal, the high-score tables, the initials keypad, the attract
screen's boards and the operator menu, played by the scripted player (python -m game.script)
as a visitor would, and on the App in process where a subprocess would only be slower."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import Game, catalog, daily
from game.arcade.highscores import Entry, highscores_store
from game.arcade.play import TODAY_ENV, Arcade, today_from_env
from game.config import config_from_dict
from game.i18n import Translator
from game.saves.persist import Autosave
from game.saves.storage import autosave_store
from game.table.flow import day_deal_label
from tests.helpers.tablehelp import WIN_LINE, WON_CODE, Finger, almost_won, make_app

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
DAY = "2026-11-30"
NEXT_DAY = "2026-12-01"


def script(tmp: Path, *args: str, config: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["SOLITAIRE_STATE_DIR"] = str(tmp / "state")
    env.pop(TODAY_ENV, None)
    if config:
        (tmp / "config.toml").write_text(config, encoding="utf-8")
        env["SOLITAIRE_CONFIG"] = str(tmp / "config.toml")
    return subprocess.run(
        [sys.executable, "-m", "game.script", *args],
        capture_output=True, text=True, env=env, timeout=300, cwd=ROOT,
    )  # fmt: skip


def state(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def stored(tmp: Path) -> dict[str, Any]:
    data = highscores_store(tmp / "state").load()
    assert isinstance(data, dict)
    return data["tables"]  # type: ignore[no-any-return]


def day_of_won_code() -> str:
    """The day (from DAY on) whose Seahaven deal is WON_CODE, whose win the tests know."""
    first = dt.date.fromisoformat(DAY)
    for back in range(2 * len(catalog.load("SH1-C4").levels["medium"]) + 2):
        day = first + dt.timedelta(days=back)
        if daily.deal_of_day("SH1-C4", day) == WON_CODE:
            return day.isoformat()
    pytest.skip(f"{WON_CODE} is no longer a medium deal of the catalog")


def one_move_to_go(tmp: Path) -> None:
    """The autosave the script resumes: WON_CODE one move (KS home) before its win."""
    (tmp / "state").mkdir(parents=True, exist_ok=True)
    game = Game.from_code(WON_CODE)
    for move in WIN_LINE[:-1]:
        game.play(move)
    autosave = Autosave(autosave_store(tmp / "state"))
    assert autosave.save(game, 95.0, line=list(WIN_LINE[:-1]))


LAST = ["tap", "KS"]


# ------------------------------------------------------------------ today's deal


@pytest.mark.process
def test_todays_deal_is_the_same_for_a_date_and_changes_the_next_day(tmp_path: Path) -> None:
    outs = []
    for run, day in enumerate((DAY, DAY, NEXT_DAY)):
        out = tmp_path / f"{run}.json"
        proc = script(
            tmp_path, "--size", "800x480", "--code", "RU1-C-AAAAABB", "--locale", "fi",
            "--date", day, "press", "newgame", "press", "today", "state", str(out),
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        outs.append(state(out))
    first, again, next_day = outs
    assert first["scene"] == "table" and first["deal"] == "daily"  # the title says so
    assert first["code"] == again["code"]
    assert next_day["code"] != first["code"] and next_day["deal"] == "daily"
    medium = catalog.load("RU1-C").levels["medium"]
    assert first["code"] in medium and next_day["code"] in medium
    assert first["code"] == daily.deal_of_day("RU1-C", DAY)


def test_the_table_title_names_todays_deal_in_every_language() -> None:
    code = daily.deal_of_day("SH1-C4", DAY)
    app = make_app(code)
    app.arcade.today = lambda: dt.date.fromisoformat(DAY)
    app.table.start_game(Game.from_code(code))
    for locale, words in (("fi", "Päivän jako"), ("ru", "Раздача дня"), ("en", "Today's deal")):
        app.set_locale(locale)
        assert words in app.table.view.chrome.title_text()  # type: ignore[union-attr]
    app.arcade.today = lambda: dt.date.fromisoformat(DAY) + dt.timedelta(days=2)
    app.table.start_game(Game.from_code(code))
    assert "Today's deal" not in app.table.view.chrome.title_text()  # type: ignore[union-attr]


@pytest.mark.process
def test_yesterdays_deal_after_midnight_is_named_by_its_date(tmp_path: Path) -> None:
    """A day's deal played the day after (begun before midnight, or typed in by its code) is
    not "Today's deal": the table's title and the win screen name its date, and the rank is in
    that day's high scores, not today's."""
    day = dt.date.fromisoformat(day_of_won_code())
    one_move_to_go(tmp_path)
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    proc = script(
        tmp_path, "--size", "800x480", "--locale", "en", "--date", str(day + dt.timedelta(days=1)),
        "state", str(before), *LAST, "wait", "2", "press", "sign", "press", "skip",
        "state", str(after),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    named = day_deal_label(Translator("en"), day)
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    assert named == f"Deal of {day.day}\u00a0{months[day.month - 1]} {day.year}"
    shown = state(before)
    assert shown["deal"] == "daily" and named in shown["title"]
    assert "Today's deal" not in shown["title"]
    won = state(after)
    assert won["scene"] == "win" and named in won["texts"] and "Today's deal" not in won["texts"]
    en = Translator("en")
    assert en("arcade.rank_past", place=1, date=en.date(day)) in won["texts"]
    assert en("arcade.rank_today", place=1) not in won["texts"]


def test_a_past_days_deal_in_words() -> None:
    day = dt.date(2026, 11, 30)
    """The day and its month stay on one line (a no-break space) where the title wraps."""
    assert day_deal_label(Translator("en"), day) == "Deal of 30\u00a0Nov 2026"
    assert day_deal_label(Translator("fi"), day) == "Päivän jako 30.11.2026"
    assert day_deal_label(Translator("ru"), day) == "Раздача дня за 30\u00a0ноября 2026\u00a0г."
    may_day = day_deal_label(Translator("ru"), dt.date(2027, 5, 1))
    assert may_day == "Раздача дня за 1\u00a0мая 2027\u00a0г."
    fi = Translator("fi")
    assert fi("arcade.rank_past", place=2, date=fi.date(day)) == (
        "2. sija päivän 30.11.2026 tulostaululla"
    )


def test_the_date_comes_from_the_environment_and_a_bad_one_is_ignored() -> None:
    assert today_from_env({TODAY_ENV: DAY})() == dt.date(2026, 11, 30)
    assert today_from_env({TODAY_ENV: "30.11.2026"}) is daily.today
    assert today_from_env({}) is daily.today


# ------------------------------------------------------------------ a win enters the table


@pytest.mark.process
def test_a_win_of_todays_deal_enters_both_tables_signed_with_initials(tmp_path: Path) -> None:
    day = day_of_won_code()
    one_move_to_go(tmp_path)
    asked, refused, still, signed = (tmp_path / f"{n}.json" for n in "abcd")
    proc = script(
        tmp_path, "--size", "800x480", "--locale", "en", "--date", day, *LAST, "wait", "2",
        "press", "sign", "state", str(asked), "press", "V", "press", "I", "press", "T",
        "state", str(refused),
        "press", "save", "state", str(still), "press", "erase", "press", "P",
        "press", "save", "state", str(signed),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    en = Translator("en")
    first = state(asked)
    assert first["won"] and first["scene"] == "initials"
    assert "___" in first["texts"]
    assert any(en("arcade.rank_today", place=1) in text for text in first["texts"])
    blocked = state(refused)
    assert "VIT" in blocked["texts"] and en("arcade.initials_blocked") in blocked["texts"]
    assert state(still)["scene"] == "initials"  # Save is off for a blocked word
    after = state(signed)
    assert after["scene"] == "win"
    assert en("arcade.rank_today", place=1) in after["texts"]
    assert en("arcade.rank_all", place=1) in after["texts"]
    tables = stored(tmp_path)["SH1-C4"]
    for name in (day, "all"):
        (entry,) = tables[name]
        assert entry["initials"] == "VIP" and entry["code"] == WON_CODE
        assert entry["score"] == first["score"] and entry["moves"] == first["moves"]


@pytest.mark.process
def test_a_skipped_win_of_another_deal_enters_the_all_time_table_only(tmp_path: Path) -> None:
    day = dt.date.fromisoformat(day_of_won_code()) + dt.timedelta(days=3)
    one_move_to_go(tmp_path)
    out = tmp_path / "won.json"
    proc = script(
        tmp_path, "--size", "720x1280", "--locale", "ru", "--date", str(day), *LAST, "wait", "2",
        "press", "sign", "press", "skip", "state", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert state(out)["scene"] == "win"
    tables = stored(tmp_path)["SH1-C4"]
    assert list(tables) == ["all"] and tables["all"][0]["initials"] == ""


@pytest.mark.process
def test_with_initials_off_a_win_enters_the_table_without_asking(tmp_path: Path) -> None:
    one_move_to_go(tmp_path)
    out = tmp_path / "won.json"
    config = "[arcade]\ninitials = false\ntable_size = 3\n"
    proc = script(
        tmp_path, "--size", "800x480", *LAST, "wait", "5", "state", str(out), config=config
    )
    assert proc.returncode == 0, proc.stderr
    assert state(out)["scene"] == "win"
    assert "sign" not in [button["name"] for button in state(out)["buttons"]]
    assert len(stored(tmp_path)["SH1-C4"]["all"]) == 1


def test_a_win_below_a_full_table_asks_nothing(tmp_path: Path) -> None:
    app = make_app("SH1-C4-AAAAAJ2")
    app.arcade.scores.size = 2
    for _ in range(2):
        app.arcade.scores.add(Entry(code="SH1-C4-AAAAAJ2", score=9999, seconds=1.0, moves=1))
    game = almost_won()
    app.table.start_game(game)
    finger = Finger(app)
    for card in ("KS", "KH", "KD", "KC"):
        finger.tap(finger.card(card))
    for _ in range(300):  # past the seconds the win shows before asking
        app.step()
    assert game.is_won and app.scenes.top.name == "win"
    won = app.arcade.won(game)
    assert won is not None and not won.rank and not won.asks


# ------------------------------------------------------------------ the attract screen


@pytest.mark.process
def test_the_attract_screen_shows_todays_best_and_the_all_time_table(tmp_path: Path) -> None:
    code = daily.deal_of_day("RU1-C", DAY)
    arcade = Arcade.open(tmp_path / "state")
    arcade.scores.add(
        Entry(code=code, score=625, seconds=312.0, moves=140, initials="ANA", day=DAY)
    )
    arcade.scores.add(Entry(code="RU1-C-AAAAABB", score=600, seconds=4000.0, moves=150))
    steps = []
    for n in range(9):
        steps += ["wait", "4", "state", str(tmp_path / f"{n}.json")]
    config = "[kiosk]\nidle_attract_minutes = 0.02\nidle_unlocked = true\n"
    proc = script(
        tmp_path, "--size", "800x480", "--code", "RU1-C-AAAAABB", "--locale", "fi",
        "--date", DAY, "wait", "28", *steps, config=config,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    fi = Translator("fi")
    seen = {}
    for n in range(9):
        data = state(tmp_path / f"{n}.json")
        assert data["scene"] == "attract"
        seen[data["texts"][0]] = data["texts"]
    assert "1. ANA 5:12 140 625" in seen[fi("arcade.today_title")]  # time, moves, score
    assert any(code in text for text in seen[fi("arcade.today_title")])
    # The all-time best of a level (issue 38, item 10): the default's (Easy) has no win, so
    # the first level that has: the day's deal is a Medium one; the random deal's win is not
    # ranked with it.
    best = seen[fi("arcade.all_title")]
    assert best[1] == f"{fi('stats.RU1-C')} · {fi('names.medium')}"
    assert best[2:] == ["1. ANA 5:12 140 625", fi("kiosk.attract")]  # and the banner
    assert fi("arcade.howto_daily") in seen[fi("arcade.howto_title")]


# ------------------------------------------------------------------ the operator's side


def test_the_operator_menu_clears_the_tables_after_asking() -> None:
    app = make_app()
    app.arcade.scores.add(Entry(code="RU1-C-AAAAABB", score=100, seconds=60.0, moves=80))
    app.scenes.open("operator")
    finger = Finger(app)
    finger.tap(finger.control("Clear the high scores"))
    assert app.scenes.top.name == "confirm"
    finger.tap(finger.control("Keep them"))
    assert app.arcade.scores.tables() and app.scenes.top.name == "operator"
    finger.tap(finger.control("Clear the high scores"))
    finger.tap(finger.control("Clear them"))
    assert app.scenes.top.name == "operator" and not app.arcade.scores.tables()
    assert "The high-score tables are empty." in [c.label for c in app.scenes.top.controls]  # type: ignore[attr-defined]
    finger.tap(finger.control("Statistics"))
    assert app.scenes.top.name == "stats"


@pytest.mark.parametrize(
    ("raw", "initials", "size", "problems"),
    [
        ({}, True, 10, 0),
        ({"initials": False, "table_size": 5}, False, 5, 0),
        ({"initials": "no", "table_size": 0}, True, 10, 2),
        ({"table_size": 101, "size": 3}, True, 10, 2),
    ],
)
def test_arcade_config_keys(raw: dict[str, Any], initials: bool, size: int, problems: int) -> None:
    config, found = config_from_dict({"arcade": raw})
    assert (config.arcade.initials, config.arcade.table_size) == (initials, size)
    assert len(found) == problems, found


# ------------------------------------------------------------------ game.arcade.play itself


def won_game() -> Game:
    game = Game.from_code(WON_CODE, history_limit=0)
    for move in WIN_LINE:
        game.play(move)
    assert game.is_won
    return game


def test_signing_refuses_a_blocked_word_and_keeps_good_letters(tmp_path: Path) -> None:
    arcade = Arcade.open(tmp_path)
    won = arcade.record(won_game(), 312.46)
    assert won.asks and won.rank.all_time == 1 and won.rank.today is None  # not a day's deal
    assert not arcade.sign("vit") and arcade.last is not None and arcade.last.asks
    assert arcade.scores.table("SH1-C4")[0].initials == ""
    assert arcade.sign("ABC") and not arcade.last.asks
    (entry,) = Arcade.open(tmp_path).scores.table("SH1-C4")  # as stored on disk
    assert (entry.initials, entry.seconds, entry.moves) == ("ABC", 312.5, len(WIN_LINE))


def test_a_win_after_midnight_of_yesterdays_deal_enters_yesterdays_table(tmp_path: Path) -> None:
    day = dt.date.fromisoformat(day_of_won_code())
    arcade = Arcade.open(tmp_path)
    arcade.today = arcade.scores.today = lambda: day + dt.timedelta(days=1)
    won = arcade.record(won_game(), 200.0)
    assert won.entry.day == day.isoformat() and won.rank.today == 1
    assert len(arcade.scores.table("SH1-C4", day)) == 1
    arcade.today = arcade.scores.today = lambda: day + dt.timedelta(days=2)
    assert arcade.record(won_game(), 100.0).rank.today is None  # two days on: no day's deal


def test_the_same_games_win_again_is_the_stored_entry_and_can_be_signed(tmp_path: Path) -> None:
    """After a power cut the visitor wins the same game again (same game id): the stored entry
    answers, its place is kept, and the initials go onto it; nothing is entered twice."""
    arcade = Arcade.open(tmp_path, game_id=lambda: "0123456789abcdef")
    first = arcade.record(won_game(), 312.46)
    arcade = Arcade.open(tmp_path, game_id=lambda: "0123456789abcdef")  # the restart
    again = arcade.record(won_game(), 330.0)
    assert again.entry == first.entry and again.rank == first.rank and again.asks
    assert arcade.sign("ABC")
    (entry,) = Arcade.open(tmp_path).scores.table("SH1-C4")
    assert (entry.initials, entry.seconds) == ("ABC", 312.5)
