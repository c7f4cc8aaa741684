"""Statistics per game and rule set: played, won, best time, best score, win streaks.

Pure data: `Stats.record(...)` returns new statistics, `to_dict` / `from_dict` round-trip through
the stats file (game.saves.storage), and `from_dict` repairs damaged input entry by entry instead of
failing. Must not import pygame.

What counts: a game is recorded once, when it ends: won, or abandoned (a new deal, or the
idle timeout's fresh deal) after at least one move. A game left without a single move is not
recorded at all, so a visitor browsing deals does not break anybody's streak. An abandoned game
ends the current win streak.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TypedDict

from engine.rules import REGISTRY
from game.saves.storage import bounded

log = logging.getLogger("solitaire.stats")


def rule_set_keys() -> tuple[str, ...]:
    """Every rule set's key, from the engine's registry (engine.rules.REGISTRY)."""
    return tuple(REGISTRY)


def rule_set_key(code: str) -> str:
    """The rule-set part of a game code: "RU1-C-AAAAABB" -> "RU1-C". ValueError if unknown."""
    key = code.strip().upper().rsplit("-", 1)[0]
    if key not in rule_set_keys():
        raise ValueError(f"game code {code!r}: unknown rule set {key!r}")
    return key


class RuleSetStatsDict(TypedDict):
    """One rule set's statistics as ``stats.json`` keeps them (docs/save-format.md)."""

    played: int
    won: int
    best_time: float | None
    best_score: int | None
    current_streak: int
    best_streak: int


@dataclass(frozen=True)
class RuleSetStats:
    played: int = 0
    won: int = 0
    best_time: float | None = None  # seconds of the fastest win
    best_score: int | None = None  # highest score of any recorded game, won or not
    current_streak: int = 0
    best_streak: int = 0

    @property
    def win_rate(self) -> float:
        """Won / played, 0.0 when nothing was played."""
        return self.won / self.played if self.played else 0.0

    def record(self, *, won: bool, seconds: float, score: int) -> RuleSetStats:
        """These statistics after one more finished game."""
        best_score = score if self.best_score is None else max(score, self.best_score)
        played = bounded(self.played + 1)  # a count at the reader's limit stays there
        if not won:
            return replace(self, played=played, current_streak=0, best_score=best_score)
        streak = bounded(self.current_streak + 1)
        good_time = math.isfinite(seconds) and seconds > 0
        best_time = self.best_time
        if good_time and (best_time is None or seconds < best_time):
            best_time = seconds
        return RuleSetStats(
            played=played,
            won=bounded(self.won + 1),
            best_time=best_time,
            best_score=best_score,
            current_streak=streak,
            best_streak=max(streak, self.best_streak),
        )

    def to_dict(self) -> RuleSetStatsDict:
        return {
            "played": self.played,
            "won": self.won,
            "best_time": self.best_time,
            "best_score": self.best_score,
            "current_streak": self.current_streak,
            "best_streak": self.best_streak,
        }

    @classmethod
    def from_dict(cls, data: object) -> tuple[RuleSetStats, list[str]]:
        """Statistics from a saved dict; damaged entries are repaired and reported."""
        if not isinstance(data, dict):
            return cls(), [f"expected an object, got {type(data).__name__}; reset"]
        problems: list[str] = []

        def count(name: str) -> int:
            value = data.get(name, 0)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                return value
            problems.append(f"{name} = {value!r} is not a count; reset to 0")
            return 0

        played, won = count("played"), count("won")
        current, best = count("current_streak"), count("best_streak")
        best_time = data.get("best_time")
        if best_time is not None and not (
            isinstance(best_time, (int, float))
            and not isinstance(best_time, bool)
            and math.isfinite(best_time)
            and best_time > 0
        ):
            problems.append(f"best_time = {best_time!r} is not a time in seconds; cleared")
            best_time = None
        best_score = data.get("best_score")
        if best_score is not None and not (
            isinstance(best_score, int) and not isinstance(best_score, bool) and best_score >= 0
        ):
            problems.append(f"best_score = {best_score!r} is not a score; cleared")
            best_score = None
        if won > played:
            problems.append(f"won = {won} is more than played = {played}; played raised")
            played = won
        if best > won or current > best:
            problems.append(
                f"streaks current = {current}, best = {best} do not fit won = {won}; clamped"
            )
            best = min(max(best, current), won)
            current = min(current, best)
        if won == 0 and best_time is not None:
            problems.append("best time without a won game; cleared")
            best_time = None
        if played == 0 and best_score is not None:
            problems.append("best score without a played game; cleared")
            best_score = None
        return (
            cls(
                played=played,
                won=won,
                best_time=float(best_time) if best_time is not None else None,
                best_score=best_score,
                current_streak=current,
                best_streak=best,
            ),
            problems,
        )


@dataclass(frozen=True)
class Stats:
    """Statistics of every rule set (rule_set_keys()), each starting empty."""

    by_rule_set: Mapping[str, RuleSetStats] = field(
        default_factory=lambda: {key: RuleSetStats() for key in rule_set_keys()}
    )

    def __getitem__(self, key: str) -> RuleSetStats:
        return self.by_rule_set.get(key, RuleSetStats())

    def record(self, code: str, *, won: bool, seconds: float, score: int, moves: int) -> Stats:
        """The statistics after the game `code` ended (won, or abandoned after `moves` moves).

        An abandoned game with no move is not recorded; an unknown code changes nothing."""
        try:
            key = rule_set_key(code)
        except ValueError as error:
            log.warning("not recorded: %s", error)
            return self
        if not won and moves <= 0:
            return self
        updated = dict(self.by_rule_set)
        updated[key] = self[key].record(won=won, seconds=seconds, score=score)
        return Stats(updated)

    def to_dict(self) -> dict[str, RuleSetStatsDict]:
        """``stats.json``'s data: each rule set's statistics by its key."""
        return {key: self[key].to_dict() for key in rule_set_keys()}

    @classmethod
    def from_dict(cls, data: object) -> Stats:
        """Statistics from the stats file, repairing what is damaged (and logging it)."""
        if not isinstance(data, dict):
            if data is not None:
                log.warning("statistics are %s, not an object; starting empty", type(data))
            return cls()
        by_key: dict[str, RuleSetStats] = {}
        known = rule_set_keys()
        for key in known:
            entry, problems = RuleSetStats.from_dict(data.get(key, {}))
            for problem in problems:
                log.warning("statistics of %s: %s", key, problem)
            by_key[key] = entry
        for key in data:
            if key not in known:
                log.warning("statistics: unknown rule set %r ignored", key)
        return cls(by_key)
