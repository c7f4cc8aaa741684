"""High-score tables, arcade style: per rule set an all-time table, and one for each day's deal.

Every win may enter the all-time table of its rule set (``RU1-C``, ``SH1-C4``, ...); a win of
the day's deal (engine.daily) may also enter that day's table. Wins rank within the level of
their deal (game.arcade.levels: easy, medium, hard, winnable or random, read from the code, so
files from before levels read as they are): a table keeps the best :attr:`HighScores.size`
entries of each level (the operator's size, default 10): higher score first, then less time,
then fewer moves; on a full tie the earlier win keeps its place. A player signs an
entry with three letters A-Z (or not: "" shows as "---"); offensive words are refused
(game.arcade.initials: a list of several hundred, and the operator's own).

Stored with the other state files (game.saves.storage: one atomic, durable write; a damaged file
moved aside) as ``highscores.json``::

    {"tables": {"RU1-C": {"all": [ENTRY, ...], "2026-11-30": [ENTRY, ...]}, ...}}
    ENTRY = {"initials": "ABC", "score": 625, "seconds": 312.5, "moves": 140,
             "code": "RU1-C-AAAALUY", "when": "2026-11-30T14:03:00Z"}

Read defensively: an entry that is not what it should be (a wrong type, a number out of range,
a code of another rule set, ...) is dropped with a warning and the rest is kept; a file that is
not a table at all is moved aside. Nothing in here raises to the caller. Of the daily tables
only the newest :data:`KEEP_DAYS` + 2 days are kept, counted, never measured by one clock
reading (see :meth:`HighScores._prune`). Must not import pygame.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from engine.codes import CodeError, format_code, parse_code
from engine.daily import parse_day
from engine.daily import today as local_today
from engine.rules import RULES_BY_KEY
from game.arcade.days import days_to_drop
from game.arcade.initials import Blocklist, is_valid_initials
from game.arcade.levels import best_per_level, deal_level, in_order, level_rows, place_among
from game.arcade.scoreform import EntryForm, ScoresForm, entry_problem, read_entry
from game.saves.storage import JsonStore, state_dir

log = logging.getLogger("solitaire.highscores")

HIGHSCORES_FILE = "highscores.json"
DEFAULT_SIZE = 10
MAX_SIZE = 100
KEEP_DAYS = 7  # the daily tables shown: today's, the 7 days before, and tomorrow's
ALL_TIME = "all"
MAX_READ = 1000  # entries of one table looked at when reading a file (a table holds <= 100)


@dataclass(frozen=True)
class Entry:
    """One won game. ``day``: the ISO date of the daily deal it was, None for another deal;
    ``when``: the UTC time of the win (filled in by :meth:`HighScores.add` when empty); ``game``:
    the won game's id (game.saves.session; "" unknown): the same game enters once."""

    code: str
    score: int
    seconds: float
    moves: int
    initials: str = ""
    day: str | None = None
    when: str = ""
    game: str = ""

    @property
    def rules_key(self) -> str:
        """The rule set of the code (``RU1-C``); "" when the code is not a game code."""
        try:
            return parse_code(self.code)[0].key
        except CodeError:
            return ""

    def same_win(self, other: Entry) -> bool:
        """The same win: code, figures and time stamp (the day's table and the all-time one
        each hold a copy; the venue's board may hear of it twice)."""
        return self.win() == other.win()

    def win(self) -> tuple[str, int, float, int, str]:
        """What makes a win the same win (:meth:`same_win`): a key to count it once by."""
        return (self.code, self.score, float(self.seconds), self.moves, self.when)

    def order(self) -> tuple[int, float, int]:
        """Sorts best first: higher score, then less time, then fewer moves."""
        return (-self.score, self.seconds, self.moves)

    def to_dict(self) -> EntryForm:
        data: EntryForm = {  # no day: the table it is in says that
            "code": self.code,
            "score": self.score,
            "seconds": self.seconds,
            "moves": self.moves,
            "initials": self.initials,
            "when": self.when,
        }
        if self.game:
            data["game"] = self.game
        return data


class Rank(NamedTuple):
    """Where an entry stands (1 = best) in the day's table and the all-time table of its rule
    set; None where it does not enter."""

    today: int | None
    all_time: int | None

    def __bool__(self) -> bool:
        return self.today is not None or self.all_time is not None


def highscores_store(directory: Path | None = None) -> JsonStore:
    """The high-score tables (this module's format, version 1)."""
    return JsonStore((directory or state_dir()) / HIGHSCORES_FILE, kind="highscores", version=1)


Tables = dict[str, dict[str, list[Entry]]]  # rules key -> "all" or ISO day -> entries, best first


class HighScores:
    """The tables of every rule set, loaded from ``store`` when made; every change is saved at
    once. ``size``: entries per table (1 .. MAX_SIZE, the operator's setting); ``today``: the
    kiosk's date (a parameter so that tests can move time)."""

    def __init__(
        self,
        store: JsonStore,
        *,
        size: int = DEFAULT_SIZE,
        keep_days: int = KEEP_DAYS,
        today: Callable[[], dt.date] = local_today,
        blocked: Blocklist | None = None,
        level_of: Callable[[str], str] = deal_level,
    ) -> None:
        self.store, self.today, self.keep_days = store, today, max(0, keep_days)
        self.level_of = level_of  # a code's level: wins rank within it
        self.blocked = Blocklist() if blocked is None else blocked  # initials refused
        self._size = DEFAULT_SIZE
        self.size = size
        self._tables: Tables = self._read()
        self._aside: list[str] = []  # the days after tomorrow last logged as set aside
        self.saved: list[Callable[[], object]] = []  # told after each change (the venue link)
        self._prune()

    @classmethod
    def open(cls, directory: Path | None = None, **options: Any) -> HighScores:
        """The tables in the state directory (``directory``, default game.saves.storage's)."""
        return cls(highscores_store(directory), **options)

    # ------------------------------------------------------------------ size

    @property
    def size(self) -> int:
        return self._size

    @size.setter
    def size(self, value: int) -> None:
        """A size out of 1 .. MAX_SIZE (or not a number) is clamped, with a warning."""
        if not isinstance(value, int) or isinstance(value, bool):
            log.warning("high-score table size %r is not a number; using %d", value, DEFAULT_SIZE)
            value = DEFAULT_SIZE
        elif not 1 <= value <= MAX_SIZE:
            log.warning("high-score table size %d is not within 1..%d; clamped", value, MAX_SIZE)
            value = min(max(value, 1), MAX_SIZE)
        self._size = value

    # ------------------------------------------------------------------ reading

    def table(
        self, rules_key: str, day: dt.date | str | None = None, level: str | None = None
    ) -> list[Entry]:
        """The best ``size`` entries of ``level`` (None: of each level) of the all-time table
        (``day`` None) or of ``day``'s table of ``rules_key``, best first; [] when there is none
        (or ``day`` is no date)."""
        name = self._table_name(day)
        if name is None or not self._is_shown(name):
            return []
        rows = self._best(self._tables.get(rules_key, {}).get(name, []))
        return [row for row in rows if level is None or self.level_of(row.code) == level]

    def levels(self, rules_key: str) -> list[str]:
        """The levels of the wins in ``rules_key``'s all-time table, easiest first."""
        rows = self._tables.get(rules_key, {}).get(ALL_TIME, [])
        return in_order(self.level_of(row.code) for row in rows)

    def tables(self) -> list[tuple[str, str]]:
        """The non-empty tables as (rules key, "all" or ISO day)."""
        return [(key, name) for key, named in self._tables.items() for name in named]

    def rank_of(self, entry: Entry) -> Rank:
        """Where ``entry`` would stand if added now (ties go below the earlier entries)."""
        if self._check(entry):
            return Rank(None, None)
        key = entry.rules_key
        named = self._tables.get(key, {})
        day = self._table_name(entry.day) if entry.day is not None else None
        if day is not None and not self._is_shown(day):
            day = None
        return Rank(
            self._place(named.get(day, []), entry) if day is not None else None,
            self._place(named.get(ALL_TIME, []), entry),
        )

    def qualifies(self, entry: Entry) -> bool:
        """Whether ``entry`` enters a table (then the win screen asks for initials)."""
        return bool(self.rank_of(entry))

    # ------------------------------------------------------------------ changing

    def add(self, entry: Entry) -> Rank:
        """Enter ``entry`` where it qualifies, save, and say where it stands. Blocked or
        malformed initials are stored as none; an entry that is not a won game's (bad code,
        numbers out of range) enters nowhere, with a warning."""
        problem = self._check(entry)
        if problem:
            log.warning("high score not entered: %s", problem)
            return Rank(None, None)
        known = self.entered(entry)
        if known is not None:  # the same game won again (replayed after a power cut)
            log.info("high score of game %s is entered already; not again", entry.game)
            return known[1]
        initials = entry.initials.strip().upper()
        if not is_valid_initials(initials) or self.blocked.is_blocked(initials):
            initials = ""
        entry = replace(
            entry,
            initials=initials,
            seconds=float(entry.seconds),
            when=entry.when or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        )
        rank = self.rank_of(entry)
        if not rank:
            return rank
        named = self._tables.setdefault(entry.rules_key, {})
        day = self._table_name(entry.day) if entry.day is not None else None
        for name, place in ((day, rank.today), (ALL_TIME, rank.all_time)):
            if name is not None and place is not None:
                rows = named.setdefault(name, [])
                rows.append(replace(entry, day=None if name == ALL_TIME else name))
                rows[:] = self._best(sorted(rows, key=Entry.order))  # stable: ties keep order
        self._prune()  # a newer day may make the oldest stored ones old enough to go
        self._save()
        return rank

    def sign(self, entry: Entry, initials: str) -> bool:
        """Put ``initials`` on ``entry`` (the same code, figures and time stamp) in every table
        that holds it, and save; False when none does or the letters are refused."""
        initials = initials.strip().upper()
        if not is_valid_initials(initials) or self.blocked.is_blocked(initials):
            return False
        found = False
        for rows in self._tables.get(entry.rules_key, {}).values():
            for i, row in enumerate(rows):
                if row.same_win(entry):
                    rows[i], found = replace(row, initials=initials), True
        if found:
            self._save()
        return found

    def remove(self, entry: Entry) -> bool:
        """Take ``entry``'s win out of every table that holds it (the operator menu), and save;
        False when none does."""
        named = self._tables.get(entry.rules_key, {})
        kept = {
            name: [row for row in rows if not row.same_win(entry)] for name, rows in named.items()
        }
        if kept == named:
            return False
        self._tables[entry.rules_key] = {name: rows for name, rows in kept.items() if rows}
        self._prune()  # a rule set without tables goes
        self._save()
        return True

    def entries(self) -> list[Entry]:
        """Every stored win once (a day's deal is in two tables), by rule set, best first."""
        seen: list[Entry] = []
        for named in self._tables.values():
            wins = [row for rows in named.values() for row in self._best(rows)]
            for row in sorted(wins, key=Entry.order):
                if not any(row.same_win(other) for other in seen):
                    seen.append(row)
        return seen

    def entered(self, entry: Entry) -> tuple[Entry, Rank] | None:
        """The stored entry of ``entry``'s game (same ``game`` id) and where it stands."""
        found, places = None, {}
        for name, rows in self._tables.get(entry.rules_key, {}).items() if entry.game else ():
            for place, row in enumerate(self._level_rows(rows, entry.code), 1):
                if row.game == entry.game:
                    found, places[name == ALL_TIME] = row, place
        return None if found is None else (found, Rank(places.get(False), places.get(True)))

    def clear_table(self, rules_key: str, day: dt.date | str | None = None) -> None:
        """Empty one table: the all-time one of ``rules_key`` (``day`` None) or ``day``'s."""
        name = self._table_name(day)
        named = self._tables.get(rules_key, {})
        if name is not None and named.pop(name, None) is not None:
            if not named:
                del self._tables[rules_key]
            self._save()

    def clear_all(self) -> None:
        """Empty every table (the operator menu's "clear tables")."""
        self._tables = {}
        self._save()

    # ------------------------------------------------------------------ inside

    def _place(self, rows: list[Entry], entry: Entry) -> int | None:
        return place_among(rows, entry, self.size, self.level_of)

    def _level_rows(self, rows: list[Entry], code: str) -> list[Entry]:
        """The best ``size`` of ``rows`` (best first) of the level of ``code``."""
        return level_rows(rows, code, self.size, self.level_of)

    def _best(self, rows: list[Entry]) -> list[Entry]:
        """The best ``size`` of ``rows`` (best first) of each level, in their order."""
        return best_per_level(rows, self.size, self.level_of)

    @staticmethod
    def _table_name(day: dt.date | str | None) -> str | None:
        if day is None:
            return ALL_TIME
        try:
            return parse_day(day).isoformat()
        except ValueError:
            return None

    def _is_shown(self, name: str) -> bool:
        """The all-time table, or a day's from ``keep_days`` back to tomorrow by the clock
        (shown, and taking a win)."""
        if name == ALL_TIME:
            return True
        today, one = self.today(), dt.timedelta(days=1)
        return today - self.keep_days * one <= dt.date.fromisoformat(name) <= today + one

    def _check(self, entry: Entry) -> str:
        key = entry.rules_key
        if not key:
            return f"{entry.code!r} is not a game code"
        data = entry.to_dict()
        data["initials"] = ""  # initials are cleaned, not refused
        problem = entry_problem(data, key)
        if not problem and entry.day is not None and self._table_name(entry.day) is None:
            problem = f"day {entry.day!r} is not a date"
        return problem

    def _prune(self) -> None:
        """Keep the newest ``keep_days + 2`` days that have a daily table, by their number
        (:func:`days_to_drop`); log once which days are set aside."""
        names = {name for named in self._tables.values() for name in named} - {ALL_TIME}
        old, later = days_to_drop(names, self.today(), self.keep_days + 2)
        for key in list(self._tables):
            for name in old & set(self._tables[key]):
                del self._tables[key][name]
            if not self._tables[key]:
                del self._tables[key]
        if later and later != self._aside:  # one line, not one per win
            log.warning("daily high scores of %s set aside: after tomorrow (clock wrong?)", later)
        self._aside = later

    def _save(self) -> None:
        data: ScoresForm = {
            "tables": {
                key: {name: [row.to_dict() for row in rows] for name, rows in named.items()}
                for key, named in self._tables.items()
            }
        }
        self.store.save(data)
        for listener in self.saved:
            listener()

    def _read(self) -> Tables:
        try:
            data = self.store.load()
        except Exception as error:  # e.g. a number of 5000 digits: json refuses to convert it
            self.store.move_aside(f"unreadable ({type(error).__name__}: {error})")
            return {}
        if data is None:
            return {}
        tables = data.get("tables") if isinstance(data, dict) else None
        if not isinstance(tables, dict):
            self.store.move_aside("not a high-score file (no tables)")
            return {}
        result: Tables = {}
        for key, named in tables.items():
            if key not in RULES_BY_KEY or not isinstance(named, dict):
                log.warning("high scores: %r is not a rule set's tables; dropped", key)
                continue
            for name, rows in named.items():
                table = self._read_table(key, name, rows)
                if table:
                    result.setdefault(key, {})[name] = table
        return result

    def _read_table(self, key: str, name: str, rows: object) -> list[Entry]:
        if name != ALL_TIME and (self._table_name(name) != name or len(name) != 10):
            log.warning("high scores of %s: %r is not a table name; dropped", key, name[:40])
            return []
        if not isinstance(rows, list):
            log.warning("high scores of %s %s: not a list; dropped", key, name)
            return []
        entries: list[Entry] = []
        dropped: list[str] = []
        for row in rows[:MAX_READ]:
            form = read_entry(row, key)
            if isinstance(form, str):
                dropped.append(form)
                continue
            initials = form.get("initials", "")
            entries.append(
                Entry(
                    code=format_code(*parse_code(form["code"])),
                    score=form["score"],
                    seconds=float(form["seconds"]),
                    moves=form["moves"],
                    initials="" if self.blocked.is_blocked(initials) else initials,
                    day=None if name == ALL_TIME else name,
                    when=form.get("when", ""),
                    game=form.get("game", ""),
                )
            )
        if dropped or len(rows) > MAX_READ:
            log.warning(
                "high scores of %s %s: dropped %d damaged entries (first: %s)",
                key,
                name,
                len(dropped) + max(0, len(rows) - MAX_READ),
                dropped[0] if dropped else "too many",
            )
        entries.sort(key=Entry.order)  # stable: equal entries keep their stored order
        return self._best(entries)
