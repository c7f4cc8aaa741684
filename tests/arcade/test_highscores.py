"""High scores (game.arcade.highscores): who enters, in which place, what survives a restart or a
damaged file, and which initials are refused."""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.arcade.highscores import DEFAULT_SIZE, HIGHSCORES_FILE, KEEP_DAYS, Entry, HighScores, Rank
from game.arcade.initials import Blocklist, InitialsInput, is_valid_initials, shown_initials
from tests.helpers.profiles import examples

pytestmark = pytest.mark.unit

BLOCKED = Blocklist()
is_blocked, blocked_words = BLOCKED.is_blocked, BLOCKED.words

TODAY = dt.date(2026, 11, 30)
CODE = "RU1-C-AAAALUY"


class Clock:
    """The kiosk's date, moved by the test."""

    def __init__(self, day: dt.date = TODAY) -> None:
        self.day = day

    def __call__(self) -> dt.date:
        return self.day


def scores(path: Path, clock: Clock | None = None, **options: Any) -> HighScores:
    return HighScores.open(path, today=clock or Clock(), **options)


def win(score: int = 600, seconds: float = 300.0, moves: int = 150, **more: Any) -> Entry:
    return Entry(code=more.pop("code", CODE), score=score, seconds=seconds, moves=moves, **more)


def file_data(path: Path) -> Any:
    return json.loads((path / HIGHSCORES_FILE).read_text(encoding="utf-8"))


def write_file(path: Path, tables: Any) -> None:
    envelope = {"format": "highscores", "version": 1, "saved": "x", "data": {"tables": tables}}
    (path / HIGHSCORES_FILE).write_text(json.dumps(envelope), encoding="utf-8")


def stored(score: Any = 600, **more: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"code": CODE, "score": score, "seconds": 300.0, "moves": 150}
    row.update(initials="ABC", when="2026-11-30T10:00:00Z")
    row.update(more)
    return row


class TestOrder:
    def test_score_then_time_then_moves(self, tmp_path: Path) -> None:
        table = scores(tmp_path)
        table.add(win(600, 300, 150, initials="SLO"))
        table.add(win(600, 200, 150, initials="FST"))
        table.add(win(625, 900, 400, initials="TOP"))
        table.add(win(600, 200, 120, initials="FEW"))
        assert [e.initials for e in table.table("RU1-C")] == ["TOP", "FEW", "FST", "SLO"]

    def test_a_tie_goes_below_the_earlier_win(self, tmp_path: Path) -> None:
        table = scores(tmp_path)
        assert table.add(win(initials="ONE")) == Rank(None, 1)
        assert table.add(win(initials="TWO")) == Rank(None, 2)
        assert [e.initials for e in table.table("RU1-C")] == ["ONE", "TWO"]

    def test_rule_sets_have_their_own_tables(self, tmp_path: Path) -> None:
        table = scores(tmp_path)
        table.add(win(code="SH1-C4-AAAAAAB", initials="SEA"))
        table.add(win(initials="RUS"))
        assert [e.initials for e in table.table("SH1-C4")] == ["SEA"]
        assert [e.initials for e in table.table("RU1-C")] == ["RUS"]
        assert table.table("SH1-C1") == []


class TestTopN:
    def test_ten_by_default_and_the_eleventh_does_not_qualify(self, tmp_path: Path) -> None:
        table = scores(tmp_path)
        for k in range(DEFAULT_SIZE):
            assert table.add(win(600 - k)) == Rank(None, k + 1)
        worse = win(500)
        assert not table.qualifies(worse) and table.add(worse) == Rank(None, None)
        assert len(table.table("RU1-C")) == DEFAULT_SIZE
        better = win(595, seconds=100)  # beats the 595 in 300 s
        assert table.qualifies(better) and table.add(better) == Rank(None, 6)
        assert [e.score for e in table.table("RU1-C")][-1] == 592  # 591 fell out

    def test_the_operators_size(self, tmp_path: Path) -> None:
        table = scores(tmp_path, size=3)
        ranks = [table.add(win(s)) for s in (100, 200, 300, 50)]
        assert ranks == [Rank(None, 1), Rank(None, 1), Rank(None, 1), Rank(None, None)]
        assert [e.score for e in table.table("RU1-C")] == [300, 200, 100]
        assert len(file_data(tmp_path)["data"]["tables"]["RU1-C"]["all"]) == 3

    @pytest.mark.parametrize(("size", "used"), [(0, 1), (-5, 1), (1000, 100), ("10", 10)])
    def test_a_bad_size_is_clamped(self, tmp_path: Path, size: Any, used: int) -> None:
        assert scores(tmp_path, size=size).size == used

    def test_a_smaller_size_shows_fewer(self, tmp_path: Path) -> None:
        table = scores(tmp_path)
        for s in range(5):
            table.add(win(s))
        assert len(scores(tmp_path, size=2).table("RU1-C")) == 2


class TestToday:
    def test_todays_deal_enters_the_days_table_and_the_all_time_one(self, tmp_path: Path) -> None:
        table = scores(tmp_path)
        table.add(win(625, initials="OLD"))
        rank = table.add(win(600, day="2026-11-30", initials="DAY"))
        assert rank == Rank(today=1, all_time=2)
        assert [e.initials for e in table.table("RU1-C", TODAY)] == ["DAY"]
        assert table.table("RU1-C", "2026-11-30")[0].day == "2026-11-30"
        assert [e.initials for e in table.table("RU1-C")] == ["OLD", "DAY"]

    def test_rank_of_says_where_it_would_stand_without_adding(self, tmp_path: Path) -> None:
        table = scores(tmp_path)
        table.add(win(600, day="2026-11-30"))
        assert table.rank_of(win(700, day="2026-11-30")) == Rank(1, 1)
        assert table.rank_of(win(500, day="2026-11-30")) == Rank(2, 2)
        assert len(table.table("RU1-C")) == 1

    def test_old_days_are_hidden_by_the_clock_and_pruned_by_their_number(
        self, tmp_path: Path
    ) -> None:
        """A day's table shows for a week; the file keeps the newest KEEP_DAYS + 2 days that
        have a table, however far apart they are (issue 39, item 12: it measured their age
        from the newest day, which a clock set forward once moved years ahead)."""
        clock = Clock()
        table = scores(tmp_path, clock)
        table.add(win(day="2026-11-30"))
        clock.day = TODAY + dt.timedelta(days=KEEP_DAYS)
        assert len(scores(tmp_path, clock).table("RU1-C", TODAY)) == 1  # a week: still shown
        clock.day = TODAY + dt.timedelta(days=KEEP_DAYS + 1)
        later = scores(tmp_path, clock)
        assert later.table("RU1-C", TODAY) == []  # older than a week: not shown
        assert len(later.table("RU1-C")) == 1  # the all-time table stays
        later.add(win(day=clock.day.isoformat()))
        assert "2026-11-30" in file_data(tmp_path)["data"]["tables"]["RU1-C"]  # 2 days: kept
        for n in range(1, KEEP_DAYS + 2):  # a win on each of the next days
            clock.day = TODAY + dt.timedelta(days=KEEP_DAYS + 1 + n)
            scores(tmp_path, clock).add(win(day=clock.day.isoformat()))
        days = set(file_data(tmp_path)["data"]["tables"]["RU1-C"]) - {"all"}
        assert len(days) == KEEP_DAYS + 2 and "2026-11-30" not in days
        assert clock.day.isoformat() in days

    def test_a_win_of_a_pruned_day_enters_only_all_time(self, tmp_path: Path) -> None:
        table = scores(tmp_path)
        assert table.add(win(day="2026-01-01")) == Rank(None, 1)
        assert table.tables() == [("RU1-C", "all")]


class TestClockSetForward:
    """A Pi has no real-time clock: a wrong NTP answer can date a daily win years ahead. That
    day is set aside (not shown, one log line); it prunes no other day, and once the clock is
    right the daily tables take wins again (issue 29)."""

    AHEAD = "2099-06-01"

    def test_a_day_stamped_far_ahead_prunes_no_other_day(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        days = [(TODAY - dt.timedelta(days=n)).isoformat() for n in range(4)]
        write_file(tmp_path, {"RU1-C": {name: [stored()] for name in [*days, self.AHEAD]}})
        with caplog.at_level(logging.WARNING, logger="solitaire.highscores"):
            table = scores(tmp_path)
            assert all(len(table.table("RU1-C", day)) == 1 for day in days)
            assert table.table("RU1-C", self.AHEAD) == []  # not shown
            assert table.add(win(700, day=TODAY.isoformat())).today == 1
        assert set(days) <= set(file_data(tmp_path)["data"]["tables"]["RU1-C"])
        lines = [r.getMessage() for r in caplog.records if "set aside" in r.getMessage()]
        assert len(lines) == 1 and self.AHEAD in lines[0]  # once, not once per win

    def test_once_the_clock_is_right_the_days_tables_take_wins_again(self, tmp_path: Path) -> None:
        scores(tmp_path).add(win(day=TODAY.isoformat()))
        clock = Clock(dt.date.fromisoformat(self.AHEAD))  # a wrong NTP answer, then a win
        assert scores(tmp_path, clock).add(win(650, day=self.AHEAD)).today == 1
        clock.day = TODAY + dt.timedelta(days=1)  # the clock is right again: the next day
        table = scores(tmp_path, clock)
        assert table.add(win(500, day=clock.day.isoformat())) == Rank(today=1, all_time=3)
        assert [e.score for e in table.table("RU1-C", clock.day)] == [500]
        clock.day += dt.timedelta(days=1)
        assert scores(tmp_path, clock).add(win(400, day=clock.day.isoformat())).today == 1
        tables = file_data(tmp_path)["data"]["tables"]["RU1-C"]
        assert {(clock.day - dt.timedelta(days=1)).isoformat(), clock.day.isoformat()} <= set(
            tables
        )

    def test_a_win_while_the_clock_is_ahead_keeps_every_real_day(self, tmp_path: Path) -> None:
        """Issue 39, item 12: a week of real days' tables, then the clock jumps ahead once and
        a daily game is won in that state. Nothing real is lost: once the clock is right again
        every real day's table shows as before, and the day ahead is out of sight."""
        week = [(TODAY - dt.timedelta(days=n)).isoformat() for n in range(KEEP_DAYS + 1)]
        write_file(tmp_path, {"RU1-C": {name: [stored()] for name in week}})
        clock = Clock(dt.date.fromisoformat(self.AHEAD))
        ahead = scores(tmp_path, clock)
        assert ahead.add(win(650, day=self.AHEAD, initials="FWD")) == Rank(today=1, all_time=1)
        clock.day = TODAY  # the clock is right again
        table = scores(tmp_path, clock)
        assert all(len(table.table("RU1-C", day)) == 1 for day in week), [
            day for day in week if not table.table("RU1-C", day)
        ]
        assert [e.score for e in table.table("RU1-C", TODAY)] == [600]  # today's, not ahead's
        assert table.table("RU1-C", self.AHEAD) == []
        assert table.rank_of(win(700, day=self.AHEAD)).today is None  # takes no win either
        assert set(file_data(tmp_path)["data"]["tables"]["RU1-C"]) == {*week, self.AHEAD, "all"}

    def test_days_set_aside_do_not_push_real_days_out(self, tmp_path: Path) -> None:
        """Days after tomorrow are counted apart: a full set of them takes no real day's
        place, and they too are kept only as many as the screens could show."""
        week = [(TODAY - dt.timedelta(days=n)).isoformat() for n in range(KEEP_DAYS + 1)]
        far = [f"2099-06-{n:02d}" for n in range(1, KEEP_DAYS + 5)]  # 11 days ahead
        write_file(tmp_path, {"RU1-C": {name: [stored()] for name in [*week, *far]}})
        table = scores(tmp_path)
        assert table.add(win(700, day=TODAY.isoformat())).today == 1
        kept = set(file_data(tmp_path)["data"]["tables"]["RU1-C"]) - {"all"}
        assert set(week) <= kept
        assert kept - set(week) == set(far[-(KEEP_DAYS + 2) :])  # the newest such days
        assert all(table.table("RU1-C", day) == [] for day in far)

    def test_a_clock_set_back_far_deletes_no_day(self, tmp_path: Path) -> None:
        """A Pi that boots in 1970 sees every real day after tomorrow: all are set aside,
        none deleted, and they show again once the clock is right."""
        week = [(TODAY - dt.timedelta(days=n)).isoformat() for n in range(KEEP_DAYS + 1)]
        write_file(tmp_path, {"RU1-C": {name: [stored()] for name in week}})
        clock = Clock(dt.date(1970, 1, 1))
        assert scores(tmp_path, clock).add(win(500, day="1970-01-01")).today == 1
        clock.day = TODAY
        table = scores(tmp_path, clock)
        assert all(len(table.table("RU1-C", day)) == 1 for day in week)


class TestStorage:
    def test_survives_a_restart(self, tmp_path: Path) -> None:
        scores(tmp_path).add(win(612, 280.5, 131, initials="KAI", day="2026-11-30"))
        again = scores(tmp_path)
        entry = again.table("RU1-C", TODAY)[0]
        assert (entry.initials, entry.score, entry.seconds, entry.moves) == ("KAI", 612, 280.5, 131)
        assert entry.code == CODE and entry.when.endswith("Z")
        assert again.table("RU1-C")[0].initials == "KAI"

    def test_the_file_is_a_state_file(self, tmp_path: Path) -> None:
        scores(tmp_path).add(win())
        data = file_data(tmp_path)
        assert data["format"] == "highscores" and data["version"] == 1
        assert [p.name for p in tmp_path.iterdir()] == [HIGHSCORES_FILE]  # no temp file left

    def test_clear_one_table(self, tmp_path: Path) -> None:
        table = scores(tmp_path)
        table.add(win(day="2026-11-30"))
        table.add(win(code="SH1-C2-AAAAAAL"))
        table.clear_table("RU1-C", TODAY)
        assert table.table("RU1-C", TODAY) == [] and len(table.table("RU1-C")) == 1
        table.clear_table("RU1-C")
        again = scores(tmp_path)
        assert again.tables() == [("SH1-C2", "all")]

    def test_clear_all(self, tmp_path: Path) -> None:
        table = scores(tmp_path)
        table.add(win(day="2026-11-30"))
        table.add(win(code="SH1-C2-AAAAAAL"))
        table.clear_all()
        assert table.tables() == [] and scores(tmp_path).tables() == []

    def test_a_read_only_disk_keeps_the_game_going(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        table = scores(tmp_path / "missing" / "x")
        (tmp_path / "missing").write_text("a file where a directory should be")
        assert table.add(win()) == Rank(None, 1)  # shown this session, not saved
        assert "could not save" in caplog.text


class TestDamagedFiles:
    def test_not_json(self, tmp_path: Path) -> None:
        (tmp_path / HIGHSCORES_FILE).write_bytes(b'{"format": "highscores", "vers')
        assert scores(tmp_path).tables() == []
        assert any(p.name.startswith(HIGHSCORES_FILE + ".bad-") for p in tmp_path.iterdir())

    def test_a_number_of_five_thousand_digits(self, tmp_path: Path) -> None:
        """json refuses to convert it (a ValueError the store does not expect): moved aside."""
        text = '{"format":"highscores","version":1,"data":{"tables":{}},"x":' + "9" * 5000 + "}"
        (tmp_path / HIGHSCORES_FILE).write_text(text)
        table = scores(tmp_path)
        assert table.tables() == []
        assert table.add(win()) == Rank(None, 1)
        assert any(".bad-" in p.name for p in tmp_path.iterdir())

    @pytest.mark.parametrize("data", [None, [], "tables", {"tables": []}, {"other": {}}])
    def test_not_a_table_file(self, tmp_path: Path, data: Any) -> None:
        envelope = {"format": "highscores", "version": 1, "data": data}
        (tmp_path / HIGHSCORES_FILE).write_text(json.dumps(envelope))
        assert scores(tmp_path).tables() == []
        if data is not None:
            assert any(".bad-" in p.name for p in tmp_path.iterdir())

    def test_bad_entries_are_dropped_and_the_rest_kept(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        bad = [
            "not an entry",
            stored(score="600"),
            stored(score=True),
            stored(seconds=-1.0),
            stored(moves=2.5),
            stored(moves=-3),
            stored(code="SH1-C4-AAAAAAB"),  # another rule set's
            stored(code="RU1-C-!!!"),
            stored(code=None),
            stored(initials="abcd"),
            stored(initials=7),
            stored(when=["x"]),
        ]
        good = [stored(610, initials="WIN"), stored(600, initials="")]
        write_file(tmp_path, {"RU1-C": {"all": bad[:7] + good + bad[7:]}})
        with caplog.at_level(logging.WARNING):
            table = scores(tmp_path)
        assert [(e.score, e.initials) for e in table.table("RU1-C")] == [(610, "WIN"), (600, "")]
        assert f"dropped {len(bad)} damaged entries" in caplog.text

    def test_nan_and_infinity_in_the_file(self, tmp_path: Path) -> None:
        row = '{"code":"RU1-C-AAAALUY","score":600,"seconds":NaN,"moves":1}'
        row2 = '{"code":"RU1-C-AAAALUY","score":600,"seconds":Infinity,"moves":1}'
        text = (
            '{"format":"highscores","version":1,"data":{"tables":{"RU1-C":{"all":['
            + row
            + ","
            + row2
            + "]}}}}"
        )
        (tmp_path / HIGHSCORES_FILE).write_text(text)
        assert scores(tmp_path).tables() == []

    def test_unknown_rule_sets_and_table_names(self, tmp_path: Path) -> None:
        write_file(
            tmp_path,
            {
                "XX9-Z": {"all": [stored()]},
                "RU1-C": {
                    "2026-13-01": [stored()],
                    "2026-W48-1": [stored()],
                    "yesterday": [stored()],
                    "2026-11-29": "not a list",
                    "2026-11-30": [stored(initials="DAY")],
                },
                "SH1-C4": ["not", "tables"],
            },
        )
        table = scores(tmp_path)
        assert table.tables() == [("RU1-C", "2026-11-30")]

    def test_more_entries_than_the_table_holds(self, tmp_path: Path) -> None:
        write_file(tmp_path, {"RU1-C": {"all": [stored(k) for k in range(5000)]}})
        table = scores(tmp_path)
        assert [e.score for e in table.table("RU1-C")] == list(range(999, 989, -1))

    def test_blocked_initials_in_the_file_are_blanked(self, tmp_path: Path) -> None:
        write_file(tmp_path, {"RU1-C": {"all": [stored(initials="FUK")]}})
        assert scores(tmp_path).table("RU1-C")[0].initials == ""

    @settings(
        max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    @given(
        data=st.recursive(
            st.none()
            | st.booleans()
            | st.integers()
            | st.floats(allow_nan=False)
            | st.text(max_size=12),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(
                    st.sampled_from(["RU1-C", "all", "2026-11-30", "score", "code", "x"]),
                    inner,
                    max_size=4,
                )
            ),
            max_leaves=20,
        )
    )
    def test_any_json_at_all(self, tmp_path_factory: pytest.TempPathFactory, data: Any) -> None:
        path = tmp_path_factory.mktemp("any")
        write_file(path, data)
        table = scores(path)
        for key, name in table.tables():
            for entry in table.table(key, None if name == "all" else name):
                assert entry.rules_key == key and isinstance(entry.score, int)
        assert table.add(win()).all_time is not None


class TestAddRefuses:
    @pytest.mark.parametrize(
        "entry",
        [
            win(code="nonsense"),
            win(score=10**30),
            win(seconds=float("nan")),
            win(seconds=-1),
            win(moves=-1),
            win(day="tomorrow"),
        ],
    )
    def test_not_a_won_game(
        self, tmp_path: Path, entry: Entry, caplog: pytest.LogCaptureFixture
    ) -> None:
        table = scores(tmp_path)
        assert not table.qualifies(entry)
        assert table.add(entry) == Rank(None, None)
        assert "high score not entered" in caplog.text
        assert not (tmp_path / HIGHSCORES_FILE).exists()

    @pytest.mark.parametrize(("typed", "kept"), [("kai", "KAI"), ("FUK", ""), ("A1!", "")])
    def test_initials_are_cleaned(self, tmp_path: Path, typed: str, kept: str) -> None:
        table = scores(tmp_path)
        table.add(win(initials=typed))
        assert scores(tmp_path).table("RU1-C")[0].initials == kept


class TestInitials:
    @pytest.mark.parametrize(
        "word",
        ["ASS", "FUK", "KKK", "NIG", "vit", "PSK", "KYR", "HUY", "XUY", "BLY", "PZD", "SUK"],
    )
    def test_blocked_in_three_languages(self, word: str) -> None:
        assert is_blocked(word) and is_blocked(word.lower()) and is_blocked(f" {word} ")

    @pytest.mark.parametrize("word", ["ABC", "AAA", "KAI", "PER", "HER", "SAM", "ANA", "OLI"])
    def test_ordinary_initials_pass(self, word: str) -> None:
        assert not is_blocked(word)

    def test_the_list_is_three_letters_a_to_z(self) -> None:
        words = blocked_words()
        assert all(is_valid_initials(word) for word in words) and len(words) >= 300

    @pytest.mark.parametrize("text", ["AB", "ABCD", "abc", "A-C", "ÄBC", "ЖОП", 123, None])
    def test_not_initials(self, text: Any) -> None:
        assert not is_valid_initials(text)

    def test_the_keypad_refuses_a_blocked_word(self) -> None:
        keypad = InitialsInput()
        for letter in "fuk":
            keypad.type(letter)
        assert keypad.shown == "FUK" and keypad.refused and not keypad.ready
        keypad.erase()
        keypad.type("N")
        assert keypad.text == "FUN" and keypad.ready and not keypad.refused

    def test_the_keypad_takes_three_letters_only(self) -> None:
        keypad = InitialsInput()
        for key in ["K", "1", "", "AB", "Ж", "a", "i", "Z"]:
            keypad.type(key)
        assert keypad.text == "KAI" and keypad.shown == "KAI"
        keypad.erase()
        keypad.erase()
        assert keypad.shown == "K__" and not keypad.ready and not keypad.refused
        for _ in range(5):
            keypad.erase()
        assert keypad.text == ""

    def test_shown(self) -> None:
        assert shown_initials("") == "---" and shown_initials("KAI") == "KAI"


def test_entry_round_trip_keeps_the_day_in_the_table_name(tmp_path: Path) -> None:
    table = scores(tmp_path)
    table.add(win(day="2026-11-30", when="2026-11-30T09:00:00Z", initials="ZED"))
    rows = file_data(tmp_path)["data"]["tables"]["RU1-C"]
    assert rows["2026-11-30"] == [
        {
            "code": CODE,
            "score": 600,
            "seconds": 300.0,
            "moves": 150,
            "initials": "ZED",
            "when": "2026-11-30T09:00:00Z",
        }
    ]
    assert rows["all"] == rows["2026-11-30"]
    assert replace(table.table("RU1-C")[0], day=None) == table.table("RU1-C")[0]
    assert os.path.getsize(tmp_path / HIGHSCORES_FILE) < 1000


class TestOneEntryPerGame:
    def test_the_same_games_win_is_entered_once(self, tmp_path: Path) -> None:
        """A replay of the winning move after a power cut (same game id, a little more time)
        keeps the first entry and answers its place; another game with the same figures
        enters."""
        table = scores(tmp_path)
        first = table.add(win(game="0123456789abcdef"))
        again = table.add(win(seconds=301.5, game="0123456789abcdef"))
        assert first == again == Rank(None, 1)
        assert [row.seconds for row in scores(tmp_path).table("RU1-C")] == [300.0]
        assert scores(tmp_path).add(win(game="fedcba9876543210")) == Rank(None, 2)
        assert scores(tmp_path).entered(win(game="0123456789abcdef")) is not None

    def test_a_bad_game_id_drops_the_entry(self, tmp_path: Path) -> None:
        row = {**win().to_dict(), "game": {"id": 1}}
        write_file(tmp_path, {"RU1-C": {"all": [row, win(score=10).to_dict()]}})
        assert [row.score for row in scores(tmp_path).table("RU1-C")] == [10]


class TestRemoveOne:
    def test_a_win_goes_from_every_table_and_the_rest_stays(self, tmp_path: Path) -> None:
        table = scores(tmp_path)
        rude = win(score=625, initials="ABC", day=TODAY.isoformat(), when="2026-11-30T10:00:00Z")
        table.add(rude)
        table.add(win(score=500, initials="KAI", when="2026-11-29T10:00:00Z"))
        assert [(e.initials, e.score) for e in table.entries()] == [("ABC", 625), ("KAI", 500)]
        assert table.remove(rude) and not table.remove(rude)
        again = scores(tmp_path)
        assert [e.initials for e in again.entries()] == ["KAI"]
        assert again.table("RU1-C", TODAY) == [] and again.tables() == [("RU1-C", "all")]
