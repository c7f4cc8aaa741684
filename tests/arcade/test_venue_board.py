"""The venue's board (game.arcade.venue, issue 42): the union of the kiosks' tables, ranked as the
local tables rank, each win once, at most ``size`` of a level; where a win stands among the venue
and among how many kiosks; this kiosk's own wins on it at once, from its own tables."""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine import catalog
from game.arcade.highscores import Entry, HighScores, highscores_store
from game.arcade.venue import VenueBoard, VenueRow

pytestmark = pytest.mark.unit

TODAY = dt.date(2026, 12, 6)
DAY = TODAY.isoformat()
LEVELS = catalog.load("RU1-C").levels
EASY, HARD = LEVELS["easy"], LEVELS["hard"]
SEAHAVEN = catalog.load("SH1-C4").levels["hard"][0]


def win(seconds: float, *, code: str = EASY[0], score: int = 625, **more: Any) -> Entry:
    more.setdefault("when", f"2026-12-06T10:{int(seconds) % 60:02d}:00Z")
    return Entry(code, score, seconds, more.pop("moves", 120), **more)


def board(size: int = 10, local: HighScores | None = None) -> VenueBoard:
    return VenueBoard("City Library", "cafe", size, local=local, today=lambda: TODAY)


def local_scores(directory: Path) -> HighScores:
    return HighScores(highscores_store(directory), today=lambda: TODAY)


def shown(rows: list[VenueRow]) -> list[tuple[str, float]]:
    return [(row.kiosk, row.seconds) for row in rows]


def test_the_venue_table_is_the_union_of_the_kiosks_ranked_as_a_local_table() -> None:
    venue = board()
    assert venue.put("cafe", "RU1-C", "all", [win(300), win(200, moves=90)])
    assert venue.put("upstairs", "RU1-C", "all", [win(250), win(200, moves=80)])
    venue.put("lobby", "RU1-C", "all", [win(100, score=600)])  # a lower score ranks below
    rows = venue.rows("RU1-C", "all", "easy")
    assert shown(rows) == [
        ("upstairs", 200.0),  # a tie on time: fewer moves first
        ("cafe", 200.0),
        ("upstairs", 250.0),
        ("cafe", 300.0),
        ("lobby", 100.0),
    ]
    assert all(isinstance(row, Entry) and row.day is None for row in rows)
    assert venue.kiosks() == ["cafe", "lobby", "upstairs"]


def test_a_full_tie_puts_the_earlier_win_first() -> None:
    venue = board()
    venue.put("a", "RU1-C", "all", [win(200, when="2026-12-06T12:00:00Z")])
    venue.put("b", "RU1-C", "all", [win(200, when="2026-12-06T09:00:00Z")])
    assert [row.kiosk for row in venue.rows("RU1-C", "all", "easy")] == ["b", "a"]


def test_levels_and_rule_sets_and_tables_are_apart() -> None:
    venue = board()
    venue.put("cafe", "RU1-C", "all", [win(100, code=HARD[0]), win(300)])
    venue.put("cafe", "RU1-C", DAY, [win(50)])
    venue.put("hall", "SH1-C4", "all", [win(80, code=SEAHAVEN, score=52)])
    assert shown(venue.rows("RU1-C", "all", "easy")) == [("cafe", 300.0)]
    assert shown(venue.rows("RU1-C", "all", "hard")) == [("cafe", 100.0)]
    assert shown(venue.rows("RU1-C", DAY, "easy")) == [("cafe", 50.0)]
    assert venue.rows("RU1-C", DAY, "easy")[0].day == DAY
    assert shown(venue.rows("SH1-C4", "all", "winnable")) == [("hall", 80.0)]
    assert venue.rows("SH1-C4", DAY, "winnable") == []
    # No level: the best of each, as the local tables' table(level=None).
    assert len(venue.rows("RU1-C", "all")) == 2


def test_a_win_heard_twice_counts_once() -> None:
    venue = board()
    first = win(200, initials="ANA", game="0123456789abcdef")
    assert venue.put("cafe", "RU1-C", "all", [first, first, win(300)])
    assert not venue.put("cafe", "RU1-C", "all", [first, win(300)])  # re-published: no change
    venue.put("cafe-old", "RU1-C", "all", [first])  # the kiosk's topics under its old name
    rows = venue.rows("RU1-C", "all", "easy")
    assert shown(rows) == [("cafe", 200.0), ("cafe", 300.0)]


def test_a_kiosks_new_table_replaces_its_old_one() -> None:
    venue = board()
    venue.put("hall", "RU1-C", "all", [win(200), win(300)])
    venue.put("cafe", "RU1-C", "all", [win(250)])
    assert venue.put("hall", "RU1-C", "all", [win(400)])  # an entry removed by its operator
    assert shown(venue.rows("RU1-C", "all", "easy")) == [("cafe", 250.0), ("hall", 400.0)]
    signed = replace(win(400), initials="BOB")
    assert venue.put("hall", "RU1-C", "all", [signed])  # signed later: the same row, signed
    assert [row.initials for row in venue.rows("RU1-C", "all", "easy")] == ["", "BOB"]


def test_drop_forgets_a_kiosks_table() -> None:
    venue = board()
    venue.put("hall", "RU1-C", DAY, [win(200)])
    venue.put("cafe", "RU1-C", DAY, [win(250)])
    changes = venue.changes
    venue.drop("hall", "RU1-C", DAY)
    assert shown(venue.rows("RU1-C", DAY, "easy")) == [("cafe", 250.0)]
    assert venue.kiosks() == ["cafe"] and venue.changes == changes + 1
    venue.drop("cafe", "RU1-C", DAY)
    venue.drop("nobody", "RU1-C", DAY)  # nothing held: nothing happens
    assert venue.rows("RU1-C", DAY, "easy") == [] and venue.kiosks() == []


def test_at_most_size_rows_of_a_level() -> None:
    venue = board(size=3)
    venue.put("a", "RU1-C", "all", [win(100 + i) for i in range(5)])
    venue.put("b", "RU1-C", "all", [win(100.5 + i) for i in range(5)])
    venue.put("b", "RU1-C", "all", [win(100.5 + i, code=HARD[0]) for i in range(5)])
    assert [row.seconds for row in venue.rows("RU1-C", "all", "easy")] == [100, 101, 102]
    venue.put("c", "RU1-C", "all", [win(10 + i, code=HARD[0]) for i in range(4)])
    assert len(venue.rows("RU1-C", "all")) == 6  # three of each level


def test_what_is_no_table_or_of_another_rule_set_is_not_taken() -> None:
    venue = board()
    assert not venue.put("a", "RU1-C", "yesterday", [win(100)])
    assert not venue.put("a", "RU1-C", "2026-12-6", [win(100)])
    venue.put("a", "SH1-C4", "all", [win(100)])  # a Russian code on Seahaven's table
    assert venue.rows("SH1-C4", "all") == [] and venue.kiosks() == []


def test_place_says_the_rank_among_the_venue_and_how_many_kiosks(tmp_path: Path) -> None:
    scores = local_scores(tmp_path)
    venue = board(local=scores)
    venue.put("hall", "RU1-C", DAY, [win(100), win(400)])
    venue.put("lobby", "RU1-C", DAY, [win(150)])
    venue.put("attic", "RU1-C", DAY, [win(90, code=HARD[0])])  # another level: counted kiosk
    mine = win(200, day=DAY)
    scores.add(mine)
    assert venue.place(mine, DAY) == (3, 4)  # 100, 150, mine; four kiosks have today's wins
    assert venue.place(mine, "all") == (1, 1)  # the all-time table: only this kiosk's
    slower = win(500, day=DAY)
    assert venue.place(slower, DAY) == (5, 4)  # not entered: where it would go
    small = board(size=2, local=scores)
    small.put("hall", "RU1-C", "all", [win(100), win(150)])
    assert small.place(mine, "all") is None  # past the venue's best two


def test_this_kiosks_wins_are_on_the_board_at_once_and_never_twice(tmp_path: Path) -> None:
    scores = local_scores(tmp_path)
    venue = board(local=scores)
    assert venue.kiosks() == []
    entry = win(180, day=DAY)
    scores.add(entry)  # a win here: on the venue's tables with no message from the broker
    assert shown(venue.rows("RU1-C", DAY, "easy")) == [("cafe", 180.0)]
    assert shown(venue.rows("RU1-C", "all", "easy")) == [("cafe", 180.0)]
    assert venue.kiosks() == ["cafe"]
    # The broker echoes this kiosk's table (and an old copy of it): still one row.
    venue.put("cafe", "RU1-C", DAY, [entry, win(999)])
    assert shown(venue.rows("RU1-C", DAY, "easy")) == [("cafe", 180.0)]
    scores.sign(entry, "ZED")
    assert venue.rows("RU1-C", "all", "easy")[0].initials == "ZED"  # signed: at once
    scores.clear_all()  # the operator cleared the tables: gone from the venue's too
    assert venue.rows("RU1-C", DAY, "easy") == []


def test_old_days_go_as_the_local_tables_days_go() -> None:
    venue = board()
    for back in range(12):
        day = (TODAY - dt.timedelta(days=back)).isoformat()
        venue.put("hall", "RU1-C", day, [win(100 + back)])
    kept = [
        back
        for back in range(12)
        if venue.rows("RU1-C", (TODAY - dt.timedelta(days=back)).isoformat())
    ]
    assert kept == list(range(9))  # the newest keep_days + 2 days, as highscores.json keeps


def test_put_from_another_thread_while_the_screen_reads() -> None:
    venue = board()
    done = threading.Event()

    def publish() -> None:
        for i in range(300):
            venue.put(f"k{i % 7}", "RU1-C", "all", [win(100 + i)])
            venue.put(f"k{i % 5}", "RU1-C", DAY, [win(100 + i)])
        done.set()

    worker = threading.Thread(target=publish)
    worker.start()
    while not done.is_set():
        venue.rows("RU1-C", "all", "easy")
        venue.kiosks()
    worker.join()
    assert len(venue.kiosks()) == 7
