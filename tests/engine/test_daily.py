"""Today's deal (engine.daily): the same code everywhere on a day, another one the next day."""

from __future__ import annotations

import datetime as dt
import itertools
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine import catalog, catalog_file, daily
from engine.cli import main
from engine.codes import format_code, parse_code
from engine.rules import ALL_RULES, RULES_BY_KEY

pytestmark = pytest.mark.unit

KEYS = [rules.key for rules in ALL_RULES]
CATALOGUED = [key for key in KEYS if catalog.catalog_path(key).exists()]  # with a schedule
YEAR = [dt.date(2026, 1, 1) + dt.timedelta(days=k) for k in range(366)]


def medium(key: str) -> list[str]:
    return catalog.load(key).levels["medium"]


def write_catalog(directory: Path, key: str, entries: list[tuple[int, str]]) -> None:
    rules = RULES_BY_KEY[key]
    lines = ["# a test catalog"]
    lines += [f"{format_code(rules, number)} {level}" for number, level in entries]
    (directory / f"{key}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_pinned_days() -> None:
    """The shipped catalogs give these codes: a regraded catalog changes the days to come, and
    this test says so (every kiosk must ship the same catalogs to deal the same daily)."""
    assert daily.daily_codes("2026-12-01") == {
        "RU1-C": "RU1-C-AAAALUY",
        "RU1-R": "RU1-R-AAAAEKH",  # since the RU1-R re-decide of issue 12 (was AAAAEOZ)
        "SH1-C4": "SH1-C4-AAAAA7J",
        "SH1-C2": "SH1-C2-AAAAL5E",
        "SH1-C1": "SH1-C1-AAABYDT",
    }


@pytest.mark.parametrize("key", CATALOGUED)
def test_a_year_of_days(key: str) -> None:
    codes = [daily.daily_code(key, day) for day in YEAR]
    deals = set(medium(key))
    assert all(code in deals for code in codes), "every daily deal is a medium catalog deal"
    assert all(a != b for a, b in itertools.pairwise(codes)), "two days alike"
    # A cycle of n days plays each of the n medium deals once, so a year repeats almost none.
    assert len(set(codes)) >= 340
    assert max(Counter(codes).values()) <= 2


@pytest.mark.parametrize("key", CATALOGUED)
def test_a_full_cycle_plays_every_deal_once(key: str) -> None:
    n = len(medium(key))
    start = dt.date.fromordinal(n * (dt.date(2026, 6, 1).toordinal() // n))  # a cycle's first day
    indices = [daily.schedule_index(key, start + dt.timedelta(days=k), n) for k in range(2 * n)]
    assert sorted(indices[:n]) == list(range(n)) and sorted(indices[n:]) == list(range(n))
    assert indices[:n] != indices[n:], "each cycle has its own order"


def test_same_day_same_code_date_or_text() -> None:
    day = dt.date(2027, 2, 28)
    for key in KEYS:
        assert daily.daily_code(key, day) == daily.daily_code(key, "2027-02-28")
        assert daily.daily_code(key, dt.datetime(2027, 2, 28, 23, 59)) == daily.daily_code(key, day)


@pytest.mark.process
def test_every_run_and_machine_agrees() -> None:
    """Another process with another hash seed prints the same five codes (no hash(), no
    random): what a kiosk elsewhere would deal today."""
    expected = [daily.daily_code(key, "2026-11-30") for key in KEYS]
    for seed in ("1", "12345"):
        done = subprocess.run(
            [sys.executable, "-m", "engine", "daily", "--date", "2026-11-30"],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == expected


def test_the_rule_sets_get_different_deals_the_same_day() -> None:
    numbers = [parse_code(daily.daily_code(key, "2026-11-30"))[1] for key in KEYS]
    assert len(set(numbers)) == len(KEYS)


def test_cli_today_and_a_date(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["daily"]) == 0
    today = capsys.readouterr().out.split()
    assert today == [daily.daily_code(key, daily.today()) for key in KEYS]
    assert main(["daily", "--date", "2026-12-02"]) == 0
    assert capsys.readouterr().out.split() == [daily.daily_code(k, "2026-12-02") for k in KEYS]


@pytest.mark.parametrize("bad", ["2026-13-01", "yesterday", "2026-1-1", ""])
def test_cli_bad_date(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["daily", "--date", bad]) == 2
    captured = capsys.readouterr()
    assert "YYYY-MM-DD" in captured.err and captured.out == ""


@pytest.mark.parametrize(
    "bad", ["2026-02-30", "30.11.2026", "20261130", "2026-W48-1", 20261130, None]
)
def test_parse_day_refuses(bad: object) -> None:
    with pytest.raises(ValueError, match="2026-11-30"):
        daily.parse_day(bad)


def test_unknown_rule_set() -> None:
    with pytest.raises(ValueError, match="unknown rule set 'RU2-C'"):
        daily.daily_code("RU2-C", "2026-11-30")


def test_missing_catalog(tmp_path: Path) -> None:
    """A rule set without a catalog (a new one: docs/development.md) still has a deal a day:
    the date's fallback deal (issue 30; it raised DailyError before)."""
    code = daily.daily_code("RU1-C", "2026-11-30", directory=tmp_path)
    assert code == daily.fallback_code("RU1-C", "2026-11-30")
    assert daily.missing_catalog("RU1-C", tmp_path) == f"no deal catalog {tmp_path / 'RU1-C.txt'}"
    assert daily.missing_catalog("RU1-C") is None  # the shipped one


def test_damaged_catalog(tmp_path: Path) -> None:
    (tmp_path / "SH1-C2.txt").write_bytes(b"\x00\xff garbage\nnot a catalog\n")
    with pytest.raises(daily.DailyError, match="damaged"):
        daily.daily_code("SH1-C2", "2026-11-30", directory=tmp_path)


def test_catalog_without_medium_deals(tmp_path: Path) -> None:
    write_catalog(tmp_path, "RU1-R", [(1, "easy"), (2, "hard")])
    with pytest.raises(daily.DailyError, match="no medium deals"):
        daily.daily_code("RU1-R", "2026-11-30", directory=tmp_path)


def test_cli_falls_back_without_catalogs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(catalog_file, "CATALOG_DIR", tmp_path)
    assert main(["daily", "--date", "2026-11-30"]) == 0
    captured = capsys.readouterr()
    assert captured.out.split() == [daily.fallback_code(key, "2026-11-30") for key in KEYS]
    assert captured.err.count("may not be winnable") == len(KEYS)


def test_fallback_is_a_deal_of_the_day() -> None:
    for key in KEYS:
        codes = [daily.fallback_code(key, day) for day in YEAR[:60]]
        assert all(parse_code(code)[0].key == key for code in codes)
        assert len(set(codes)) == 60
        assert daily.fallback_code(key, "2026-11-30") == daily.fallback_code(
            key, dt.date(2026, 11, 30)
        )


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_small_catalogs(tmp_path: Path, size: int) -> None:
    """Even a catalog of two deals never repeats a day; with three and more, every cycle plays
    each deal once (the cycle boundary included)."""
    write_catalog(tmp_path, "SH1-C1", [(n, "medium") for n in range(10, 10 + size)])
    codes = [daily.daily_code("SH1-C1", day, directory=tmp_path) for day in YEAR]
    assert len(set(codes)) == size
    if size > 1:
        assert all(a != b for a, b in itertools.pairwise(codes))


def test_a_changed_catalog_is_read_again(tmp_path: Path) -> None:
    write_catalog(tmp_path, "RU1-C", [(5, "medium")])
    assert daily.daily_code("RU1-C", "2026-11-30", directory=tmp_path) == "RU1-C-AAAAAAF"
    write_catalog(tmp_path, "RU1-C", [(6, "medium")])
    os.utime(tmp_path / "RU1-C.txt", (0, 12345))  # a new stamp even on a coarse clock
    assert daily.daily_code("RU1-C", "2026-11-30", directory=tmp_path) == "RU1-C-AAAAAAG"


def test_day_of_a_code() -> None:
    day = dt.date(2026, 11, 30)
    code = daily.daily_code("SH1-C4", day)
    assert daily.day_of(code, on=day) == day
    assert daily.day_of(code.lower(), on=day + dt.timedelta(days=1)) == day  # won after midnight
    assert daily.day_of(code, on=day + dt.timedelta(days=2)) is None
    assert daily.day_of(code, on=day - dt.timedelta(days=1)) is None
    assert daily.day_of("RU1-C-AAAAABB", on=day) is None
    assert daily.day_of("nonsense", on=day) is None


def test_day_of_a_fallback_deal(tmp_path: Path) -> None:
    day = dt.date(2026, 11, 30)
    code = daily.deal_of_day("RU1-R", day, directory=tmp_path)
    assert code == daily.fallback_code("RU1-R", day)
    assert daily.day_of(code, on=day, directory=tmp_path) == day
