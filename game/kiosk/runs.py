"""What the metrics keep across runs of the game: ``metrics.json`` in the state directory.

The day's figures (games, wins, crashes, watchdog restarts of the kiosk's local date), the
crashes and watchdog restarts ever seen, the last input and when the game last started.

Why the previous run ended is not something a game can see by itself: a loop that systemd's
watchdog killed never ran another line. The units' ``ExecStopPost=`` (kiosk/record-exit.sh)
writes systemd's ``$SERVICE_RESULT``, ``$EXIT_CODE`` and ``$EXIT_STATUS`` to ``last-exit`` in
the state directory after every stop; the next start reads it once and removes it:
``watchdog`` is a watchdog restart; any other failure, except the operator's exit (status 64),
a crash. Without that file (a run outside systemd) a crash recorded in ``crashes.json`` since
the previous start (game.saves.persist.CrashGuard) counts. Must not import pygame.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from game.config import EXIT_OPERATOR
from game.saves.stats import Stats
from game.saves.storage import JsonStore, bounded

log = logging.getLogger("solitaire.runs")

LAST_EXIT_FILE = "last-exit"
RECORD_FILE = "metrics.json"


@dataclass(frozen=True)
class Today:
    day: str = ""  # YYYY-MM-DD, the kiosk's local date
    games: int = 0
    wins: int = 0
    crashes: int = 0
    restarts: int = 0


def previous_exit(directory: Path) -> str | None:
    """How the previous run ended by systemd's record (then removed): "watchdog", "crash", or
    "clean"; None without a record."""
    path = directory / LAST_EXIT_FILE
    try:
        with path.open("rb") as file:
            raw = file.read(4096)
        path.unlink()
    except FileNotFoundError:
        return None
    except OSError as error:
        log.warning("could not read %s: %s", path, error)
        return None
    fields = dict(line.partition("=")[::2] for line in raw.decode("utf-8", "replace").splitlines())
    result = fields.get("SERVICE_RESULT", "").strip()
    status = fields.get("EXIT_STATUS", "").strip()
    if result == "watchdog":
        return "watchdog"
    if result in ("", "success") or (result == "exit-code" and status == str(EXIT_OPERATOR)):
        return "clean"
    log.warning("the previous run ended: %s", ", ".join(f"{k}={v}" for k, v in fields.items()))
    return "crash"


def _count(data: dict[str, Any], key: str) -> int:
    value = data.get(key, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _time(data: dict[str, Any], key: str) -> float:
    value = data.get(key, 0.0)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
    return float(value) if ok and value < 1e11 else 0.0


class RunRecord:
    """``metrics.json``: read at start, written when a figure changes (never every frame)."""

    def __init__(self, directory: Path, today: Callable[[], dt.date]) -> None:
        self.store = JsonStore(directory / RECORD_FILE, kind="metrics", version=1)
        self.today_of = today
        data = self.store.load()
        data = data if isinstance(data, dict) else {}
        day = data.get("day")
        self.today = Today(
            day=day if isinstance(day, str) else "",
            **{k: _count(data, k) for k in ("games", "wins", "crashes", "restarts")},
        )
        self.crashes = _count(data, "crashes_total")
        self.watchdog_restarts = _count(data, "watchdog_restarts_total")
        self.last_input = _time(data, "last_input")
        self.started = _time(data, "started")
        self.seen: tuple[int, int] | None = None  # the statistics' played and won last seen
        if "played_seen" in data:
            self.seen = (_count(data, "played_seen"), _count(data, "won_seen"))

    @classmethod
    def open(
        cls,
        directory: Path,
        today: Callable[[], dt.date],
        *,
        now: float,
        crash_times: list[float],
    ) -> RunRecord:
        """The record at a start: the previous run's end counted, this start noted."""
        record = cls(directory, today)
        ended = previous_exit(directory)
        if ended is None and any(t > record.started for t in crash_times):
            ended = "crash"
        record._roll()
        if ended == "watchdog":
            record.watchdog_restarts = bounded(record.watchdog_restarts + 1)
            record.today = replace(record.today, restarts=record.today.restarts + 1)
        elif ended == "crash":
            record.crashes = bounded(record.crashes + 1)
            record.today = replace(record.today, crashes=record.today.crashes + 1)
        record.started = now
        record.save()
        return record

    def _roll(self) -> bool:
        """A new day starts the day's figures from 0; True when it did."""
        day = self.today_of().isoformat()
        if self.today.day == day:
            return False
        self.today = Today(day=day)
        return True

    def follow(self, stats: Stats, *, last_input: float, keep_input: bool = False) -> Today:
        """The day's figures with the games the statistics counted since the last look, saved
        when they changed. The last input alone is saved only with ``keep_input`` (a game's
        end, the shutdown): a durable write every half minute of play would stall the loop on
        a slow SD card."""
        changed = self._roll()
        totals = stats.to_dict()
        played = sum(entry["played"] for entry in totals.values())
        won = sum(entry["won"] for entry in totals.values())
        if self.seen is not None:
            games, wins = max(0, played - self.seen[0]), max(0, won - self.seen[1])
            if games or wins:
                t = self.today
                self.today = replace(t, games=t.games + games, wins=t.wins + wins)
        if self.seen != (played, won):
            self.seen, changed = (played, won), True
        if keep_input and last_input != self.last_input:
            self.last_input, changed = last_input, True
        if changed:
            self.save()
        return self.today

    def save(self) -> bool:
        data: dict[str, Any] = {
            **asdict(self.today),
            "crashes_total": self.crashes,
            "watchdog_restarts_total": self.watchdog_restarts,
            "last_input": self.last_input,
            "started": self.started,
        }
        if self.seen is not None:
            data["played_seen"], data["won_seen"] = self.seen
        return self.store.save(data)
