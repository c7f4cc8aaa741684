"""The venue's high-score tables (issue 42): every kiosk of a building, one table per rule set,
table (all-time or a day) and level, as the local tables are (game.arcade.highscores).

:class:`VenueBoard` holds what each kiosk published of its tables (game.kiosk's venue client
puts a kiosk's whole table in as it arrives, or drops it when the kiosk cleared it) and reads this
kiosk's own tables straight from its :class:`HighScores` (``local``): a win shows on the venue's
table at once, offline too, and the broker's echo of this kiosk's tables never shows twice. A
venue table is the union of the kiosks' entries of that table, ranked as the local tables rank
(game.arcade.levels: within the deal's level, higher score, less time, fewer moves; on a full
tie the earlier win first, then this kiosk's, then by the kiosk's name), each win once
(:meth:`Entry.same_win`: a kiosk renamed, or a win heard twice, is one row), at most ``size`` of
each level.

Pure: no pygame, no network. ``put`` and ``drop`` may come from another thread (the MQTT client's);
they and the readers share a lock. The readers (``rows``, ``place``, ``levels``, ``kiosks``) also
read this kiosk's own tables, which only the frame loop changes: call them from the frame loop.
A ``put`` of this kiosk's own name (the broker's echo of its tables) is kept but not shown while
the board has ``local``: its own tables are its truth. Must not import pygame.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

from engine import daily
from game.arcade.days import days_to_drop
from game.arcade.highscores import ALL_TIME, KEEP_DAYS, MAX_SIZE, Entry, HighScores
from game.arcade.levels import best_per_level, deal_level, in_order, place_among


@dataclass(frozen=True)
class VenueRow(Entry):
    """An entry of the venue's table: the win, and the kiosk it was won on (its short name)."""

    kiosk: str = ""


Place = tuple[int, int]  # (rank among the venue, kiosks with entries in that table)


def venue_row(entry: Entry, kiosk: str, table: str) -> VenueRow:
    """``entry`` as a row of ``kiosk``'s ``table`` ("all" or an ISO day: the row's day)."""
    values = {field.name: getattr(entry, field.name) for field in fields(Entry)}
    values["day"] = None if table == ALL_TIME else table
    values["seconds"] = float(entry.seconds)
    return VenueRow(**values, kiosk=kiosk)


class VenueBoard:
    """The venue ``venue_name``'s tables as this kiosk (short name ``kiosk``) knows them;
    ``size``: the rows of a table of each level (1 .. MAX_SIZE, as the local tables');
    ``local``: this kiosk's tables; ``today``: the kiosk's date (default: the local tables')."""

    def __init__(
        self,
        venue_name: str,
        kiosk: str,
        size: int,
        *,
        local: HighScores | None = None,
        today: Callable[[], dt.date] | None = None,
        keep_days: int = KEEP_DAYS,
        level_of: Callable[[str], str] = deal_level,
    ) -> None:
        self.venue_name, self.kiosk = venue_name, kiosk
        self.size = min(max(int(size), 1), MAX_SIZE)
        self.local = local  # this kiosk's own tables: its truth, read as they are now
        self._today = today  # None: the local tables' date (tests move it), else the clock's
        self.keep_days, self.level_of = max(0, keep_days), level_of
        self.changes = 0  # counts what put and drop changed: a screen showing the board redraws
        self._held: dict[tuple[str, str], dict[str, tuple[VenueRow, ...]]] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ what arrives

    def put(self, kiosk: str, rules_key: str, table: str, entries: Sequence[Entry]) -> bool:
        """``kiosk``'s whole ``table`` of ``rules_key`` ("all" or an ISO day): it replaces what
        the board held of that table of that kiosk (no entries: dropped). True when it changed.
        Entries of another rule set, or a table name that is neither, are not taken."""
        if not self._is_table(table):
            return False
        rows = [venue_row(entry, kiosk, table) for entry in entries if entry.rules_key == rules_key]
        kept = tuple(best_per_level(self._ranked(rows), self.size, self.level_of))
        with self._lock:
            held = self._held.get((rules_key, table), {})
            if held.get(kiosk, ()) == kept:
                return False
            held = {name: rows for name, rows in held.items() if name != kiosk}  # readers keep
            if kept:  # their copy of the old one
                held[kiosk] = kept
            self._held[(rules_key, table)] = held
            self._tidy()
            self.changes += 1
        return True

    def drop(self, kiosk: str, rules_key: str, table: str) -> None:
        """Forget ``kiosk``'s ``table`` of ``rules_key`` (its retained message was cleared)."""
        self.put(kiosk, rules_key, table, ())

    # ------------------------------------------------------------------ reading

    def rows(self, rules_key: str, table: str, level: str | None = None) -> list[VenueRow]:
        """The venue's ``table`` ("all" or an ISO day) of ``rules_key`` and ``level`` (None: the
        best of each level), best first, at most ``size`` of a level."""
        ranked = self._ranked(
            [row for rows in self._kiosks_rows(rules_key, table).values() for row in rows]
        )
        if level is not None:
            return [row for row in ranked if self.level_of(row.code) == level][: self.size]
        return best_per_level(ranked, self.size, self.level_of)

    def place(self, entry: Entry, table: str) -> Place | None:
        """Where ``entry`` stands in the venue's ``table`` of its rule set and level (its own row
        when the board holds it, else where it would go, ties below), and how many kiosks have
        entries in that table (any level; this kiosk counted); None when it is not in the
        venue's best ``size``."""
        by_kiosk = self._kiosks_rows(entry.rules_key, table)
        rows = self.rows(entry.rules_key, table, self.level_of(entry.code))
        rank = next((i for i, row in enumerate(rows, 1) if row.same_win(entry)), None)
        if rank is None:
            rank = place_among(rows, entry, self.size, self.level_of)
        if rank is None:
            return None
        return rank, len({*by_kiosk, self.kiosk})

    def levels(self, rules_key: str) -> list[str]:
        """The levels of the wins in the venue's all-time tables of ``rules_key``, easiest
        first (a page each on the high-score screen, as HighScores.levels)."""
        return in_order(self.level_of(row.code) for row in self.rows(rules_key, ALL_TIME))

    def kiosks(self) -> list[str]:
        """The kiosks with an entry in any table (this one when it has), by name."""
        with self._lock:
            names = {kiosk for held in self._held.values() for kiosk in held}
        if self.local is not None and self.local.tables():
            names.add(self.kiosk)
        return sorted(names)

    # ------------------------------------------------------------------ inside

    def _kiosks_rows(self, rules_key: str, table: str) -> dict[str, tuple[VenueRow, ...]]:
        """Kiosk -> its rows of ``table``: this kiosk's from its own tables when it has them."""
        with self._lock:
            held = dict(self._held.get((rules_key, table), {}))
        if self.local is not None:
            day = None if table == ALL_TIME else table
            own = self.local.table(rules_key, day) if self._is_table(table) else []
            held[self.kiosk] = tuple(venue_row(entry, self.kiosk, table) for entry in own)
        return {kiosk: rows for kiosk, rows in held.items() if rows}

    def _ranked(self, rows: list[VenueRow]) -> list[VenueRow]:
        """``rows`` best first, each win once (this kiosk's copy, else the first kiosk's)."""
        seen: set[tuple[str, int, float, int, str]] = set()
        kept = []
        for row in sorted(
            rows, key=lambda row: (*row.order(), row.when, row.kiosk != self.kiosk, row.kiosk)
        ):
            if row.win() not in seen:
                seen.add(row.win())
                kept.append(row)
        return kept

    @staticmethod
    def _is_table(table: str) -> bool:
        if table == ALL_TIME:
            return True
        try:
            return len(table) == 10 and daily.parse_day(table).isoformat() == table
        except ValueError:
            return False

    def _tidy(self) -> None:
        """Keep the newest ``keep_days + 2`` days (as the local tables do: counted, never
        measured by one clock reading; game.arcade.days). Under the lock."""
        days = {table for _, table in self._held if table != ALL_TIME}
        today = self._today or (self.local.today if self.local is not None else daily.today)
        old, _ = days_to_drop(days, today(), self.keep_days + 2)
        for key, held in list(self._held.items()):
            if key[1] in old or not held:
                del self._held[key]
