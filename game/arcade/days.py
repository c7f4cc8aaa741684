"""Which daily high-score tables a file keeps: counted, never measured by one clock reading.
Must not import pygame."""

from __future__ import annotations

import datetime as dt


def days_to_drop(names: set[str], today: dt.date, keep: int) -> tuple[set[str], list[str]]:
    """Of the daily tables named by ISO dates in ``names``: those to drop, and those set aside.
    The newest ``keep`` days are kept (as many days as the screens show: the week back to
    tomorrow), by their number, not by their distance from one clock reading: neither a clock
    set back nor one set forward deletes a day. A win dated ahead while the clock was wrong (a
    bad NTP answer; a Pi has no clock of its own) is one day of the count, and the real days
    before it stay. Once the clock is right, a day after tomorrow is set aside: not shown, not
    counted with the others, and kept in a count of its own (the newest ``keep`` such days)."""
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    newest = sorted(names, reverse=True)  # ISO dates sort as the days do
    aside = [name for name in newest if name > tomorrow]
    counted = [name for name in newest if name <= tomorrow]
    return set(aside[keep:]) | set(counted[keep:]), sorted(aside[:keep])
