"""Statistics per game and rule set: updates, streaks, bests, damaged files."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from game.saves.stats import RuleSetStats, Stats, rule_set_key, rule_set_keys
from game.saves.storage import stats_store

pytestmark = pytest.mark.unit


def test_rule_set_key() -> None:
    assert rule_set_key("RU1-C-AAAAABB") == "RU1-C"
    assert rule_set_key(" sh1-c2-aaaaaj2 ") == "SH1-C2"
    with pytest.raises(ValueError, match="unknown rule set"):
        rule_set_key("XX1-C-AAAAAAA")


def test_starts_empty_for_every_rule_set() -> None:
    stats = Stats()
    assert set(stats.to_dict()) == set(rule_set_keys())
    assert all(stats[key] == RuleSetStats() for key in rule_set_keys())
    assert stats["RU1-C"].win_rate == 0.0


def test_win_updates_only_its_rule_set() -> None:
    stats = Stats().record("RU1-C-AAAAABB", won=True, seconds=300.5, score=625, moves=120)
    ru = stats["RU1-C"]
    assert (ru.played, ru.won, ru.best_time, ru.best_score) == (1, 1, 300.5, 625)
    assert (ru.current_streak, ru.best_streak) == (1, 1)
    assert stats["RU1-R"] == RuleSetStats()
    assert stats["SH1-C4"] == RuleSetStats()


def test_streaks_and_bests_over_a_season() -> None:
    stats = Stats()
    results = [  # won, seconds, score, moves
        (True, 400.0, 625, 100),
        (True, 350.0, 625, 90),
        (False, 60.0, 45, 10),
        (True, 500.0, 625, 110),
        (True, 200.0, 640, 95),
        (True, 450.0, 625, 99),
    ]
    for won, seconds, score, moves in results:
        stats = stats.record("RU1-R-AAAAAAB", won=won, seconds=seconds, score=score, moves=moves)
    ru = stats["RU1-R"]
    assert ru.played == 6 and ru.won == 5
    assert ru.best_time == 200.0
    assert ru.best_score == 640
    assert ru.current_streak == 3
    assert ru.best_streak == 3
    assert ru.win_rate == pytest.approx(5 / 6)


def test_abandoned_game_breaks_the_streak_but_counts_its_score() -> None:
    stats = Stats().record("SH1-C1-AAAAAJ2", won=True, seconds=100, score=520, moves=80)
    stats = stats.record("SH1-C1-AAAAAJ3", won=False, seconds=50, score=30, moves=4)
    sh = stats["SH1-C1"]
    assert (sh.played, sh.won, sh.current_streak, sh.best_streak) == (2, 1, 0, 1)
    assert sh.best_time == 100 and sh.best_score == 520


def test_game_without_a_move_is_not_counted() -> None:
    stats = Stats().record("RU1-C-AAAAABB", won=True, seconds=10, score=625, moves=50)
    after = stats.record("RU1-C-AAAAABC", won=False, seconds=5, score=0, moves=0)
    assert after == stats


def test_unknown_code_changes_nothing() -> None:
    assert Stats().record("nonsense", won=True, seconds=1, score=1, moves=1) == Stats()


def test_bad_time_does_not_become_best() -> None:
    stats = Stats().record("RU1-C-AAAAABB", won=True, seconds=float("nan"), score=625, moves=9)
    assert stats["RU1-C"].best_time is None and stats["RU1-C"].won == 1


def test_round_trip_through_the_stats_file(tmp_path: Path) -> None:
    stats = Stats().record("SH1-C4-AAAAAJ2", won=True, seconds=321.0, score=520, moves=77)
    stats = stats.record("RU1-C-AAAAABB", won=False, seconds=12.0, score=15, moves=3)
    assert stats_store(tmp_path).save(stats.to_dict())
    loaded = Stats.from_dict(stats_store(tmp_path).load())
    assert loaded == stats
    assert loaded.to_dict() == stats.to_dict()


def test_missing_file_gives_empty_stats(tmp_path: Path) -> None:
    assert Stats.from_dict(stats_store(tmp_path).load()) == Stats()


@pytest.mark.parametrize("data", [None, [], "x", 3, {"RU1-C": "x"}, {"RU1-C": []}])
def test_garbage_gives_empty_stats(data: object) -> None:
    assert Stats.from_dict(data) == Stats()


def test_damaged_entries_are_repaired(caplog: pytest.LogCaptureFixture) -> None:
    data = {
        "RU1-C": {
            "played": -3,
            "won": 4,
            "best_time": "fast",
            "best_score": 625,
            "current_streak": 9,
            "best_streak": 2,
        },
        "SH1-C4": {"played": True, "won": 0, "best_time": 12.0, "best_score": -1},
        "SH1-C2": {"played": 5, "won": 2, "best_time": 99, "current_streak": 1, "best_streak": 2},
        "XX": {"played": 1},
    }
    with caplog.at_level(logging.WARNING, logger="solitaire.stats"):
        stats = Stats.from_dict(data)
    ru = stats["RU1-C"]
    assert (ru.played, ru.won) == (4, 4)  # won never exceeds played
    assert ru.best_time is None and ru.best_score == 625
    assert ru.current_streak <= ru.best_streak <= ru.won
    sh = stats["SH1-C4"]
    assert sh == RuleSetStats()  # a best time without a win, a negative score: cleared
    assert stats["SH1-C2"] == RuleSetStats(5, 2, 99.0, None, 1, 2)  # intact entry kept
    assert "RU1-C" in caplog.text and "'XX'" in caplog.text
    # Repaired statistics keep working.
    stats = stats.record("RU1-C-AAAAABB", won=True, seconds=90, score=625, moves=70)
    assert stats["RU1-C"].won == 5 and stats["RU1-C"].best_time == 90
