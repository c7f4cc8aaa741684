"""Today's deal: one deal per day for each rule set, from the date alone.

Every kiosk with the same catalogs deals the same code on the same calendar day, so a code can
be shared ("beat my time on today's deal"). The day's deal comes from the rule set's winnable
catalog (``assets/deals/<KEY>.txt``, :mod:`engine.catalog`) at :data:`DAILY_LEVEL`: *medium*
for every rule set. For Russian that is the issue's choice; for Seahaven, whose difficulty is
already the number of free cells, medium is chosen too: an easy deal makes the day's table a
pure race of time (everybody wins with the same score), and a hard one is a deal the honest
player of :mod:`engine.search.levels` never wins by itself, so on many days nobody at the kiosk
would
reach the table at all. Medium is winnable by a visitor and still worth a second try.

How a day maps to a code: the days are counted from 0001-01-01 (the
proleptic Gregorian ordinal) and cut into cycles of ``n`` days, ``n`` the number of medium
deals. Each cycle plays every medium deal once, in an order shuffled by SplitMix64 seeded from
``sha256("<KEY> <cycle>")``; when a cycle would start with the deal that ended the previous one,
its first two deals swap. So no two consecutive days deal the same code (with at least two
deals), and the days spread evenly over the catalog. Neither Python's ``random`` nor ``hash``
is used: both differ between versions or runs.

The schedule depends on the catalog's medium list: a regraded or extended catalog changes the
codes of the days to come (``tests/engine/test_daily.py`` pins a few days so that this is noticed).

A rule set without a catalog (a new one: docs/development.md, "A new rule set") gets
:func:`fallback_code`, a deal number derived from the date the same way (the same on every
kiosk, but not proved winnable). When the catalog is damaged or has no medium deal,
:func:`daily_code` raises :class:`DailyError` (the operator should hear of it); the caller may
fall back to :func:`fallback_code` too (:func:`deal_of_day` does).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
from pathlib import Path

from engine import catalog_file
from engine.codes import CodeError, format_code, parse_code
from engine.deal import DEAL_NUMBERS, splitmix64
from engine.rules import REGISTRY

DAILY_LEVEL = "medium"
"""The catalog level of every rule set's daily deal."""


class DailyError(Exception):
    """No daily deal from the catalog (missing, damaged, or no deal at the level). The message
    says why; ``rules_key`` names the rule set."""

    def __init__(self, rules_key: str, message: str) -> None:
        super().__init__(f"{rules_key}: {message}")
        self.rules_key = rules_key


def parse_day(text: object) -> dt.date:
    """A date from ``YYYY-MM-DD`` (a ``date`` passes through). ValueError says what is wrong.

    >>> parse_day("2026-12-06")
    datetime.date(2026, 12, 6)
    >>> parse_day("2026-W49-7")
    Traceback (most recent call last):
    ValueError: '2026-W49-7' is not a date like 2026-11-30 (YYYY-MM-DD)
    """
    if isinstance(text, dt.datetime):
        return text.date()
    if isinstance(text, dt.date):
        return text
    if not isinstance(text, str):
        raise ValueError(f"a day is text like 2026-11-30, not {type(text).__name__}")
    stripped = text.strip()
    if len(stripped) != 10:
        raise ValueError(f"{text!r} is not a date like 2026-11-30 (YYYY-MM-DD)")
    try:
        day = dt.date.fromisoformat(stripped)
    except ValueError:
        day = None
    if day is None or day.isoformat() != stripped:  # not 2026-W48-1 and the like
        raise ValueError(f"{text!r} is not a date like 2026-11-30 (YYYY-MM-DD)")
    return day


def today() -> dt.date:
    """The kiosk's local calendar date: the daily deal changes at local midnight."""
    return dt.date.today()


def _seed(*parts: object) -> int:
    text = " ".join(str(part) for part in parts)
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


@functools.lru_cache(maxsize=32)
def _order(rules_key: str, cycle: int, n: int) -> tuple[int, ...]:
    """The catalog positions in the order cycle ``cycle`` plays them (before the swap). Kept
    for the latest cycles asked (a seeded shuffle of a few hundred places, asked twice for each
    day by every today's-deal title, new-game dialog and App): a tuple, as it is shared."""
    order = list(range(n))
    draws = splitmix64(_seed(rules_key, cycle))
    for i in range(n - 1, 0, -1):
        j = next(draws) % (i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def schedule_index(rules_key: str, day: dt.date, n: int) -> int:
    """The position in a list of ``n`` deals that ``day`` plays (pure; see the module text)."""
    if n <= 0:
        raise ValueError("no deals to choose from")
    ordinal = day.toordinal()
    if n <= 2:
        return ordinal % n
    cycle, position = divmod(ordinal, n)
    order = list(_order(rules_key, cycle, n))  # a copy: two places may swap
    if order[0] == _order(rules_key, cycle - 1, n)[-1]:
        order[0], order[1] = order[1], order[0]
    return order[position]


def missing_catalog(rules_key: str, directory: Path | None = None) -> str | None:
    """Why ``rules_key`` has no catalog ("no deal catalog assets/deals/X.txt"), or None when
    its file exists: its days then get :func:`fallback_code`."""
    path = catalog_file.catalog_path(rules_key, directory)
    return None if path.exists() else f"no deal catalog {path}"


def _daily_deals(rules_key: str, directory: Path | None) -> list[str] | None:
    """``rules_key``'s deals at the daily level, from the one cache of catalog files
    (engine.catalog_file.CATALOGS); None when there is no catalog."""
    path = catalog_file.catalog_path(rules_key, directory)
    try:
        codes = catalog_file.CATALOGS.get(rules_key, directory).levels[DAILY_LEVEL]
    except FileNotFoundError:
        return None
    except catalog_file.CatalogError as error:
        raise DailyError(rules_key, f"deal catalog damaged: {error}") from None
    except OSError as error:
        raise DailyError(rules_key, f"deal catalog unreadable: {error}") from None
    if not codes:
        raise DailyError(rules_key, f"deal catalog {path} has no {DAILY_LEVEL} deals")
    return codes


def _rules_key(rules_key: str) -> str:
    if rules_key not in REGISTRY:
        raise ValueError(f"unknown rule set {rules_key!r}; known: {', '.join(REGISTRY)}")
    return rules_key


def daily_code(rules_key: str, day: dt.date | str, *, directory: Path | None = None) -> str:
    """The game code of ``day``'s deal for ``rules_key`` (``RU1-C``, ``SH1-C4``, ...): from
    its catalog, :func:`fallback_code` when it has none.

    ValueError for an unknown rule set or a bad date; DailyError when the catalog is damaged
    or has no deal at the level (then :func:`fallback_code` still gives the day a deal).

    >>> daily_code("SH1-C4", "2026-12-06")  # the catalog's deal for that day
    'SH1-C4-AAAAA3N'
    """
    key = _rules_key(rules_key)
    deals = _daily_deals(key, directory)
    if deals is None:
        return fallback_code(key, day)
    return deals[schedule_index(key, parse_day(day), len(deals))]


def fallback_code(rules_key: str, day: dt.date | str) -> str:
    """A deal for ``day`` without a catalog: a number derived from the date and rule set, the
    same everywhere, but not proved winnable.

    >>> fallback_code("SH1-C4", "2026-12-06")
    'SH1-C4-CLSBK4W'
    """
    key = _rules_key(rules_key)
    number = _seed("fallback", key, parse_day(day).isoformat()) % DEAL_NUMBERS
    return format_code(REGISTRY[key], number)


def daily_codes(day: dt.date | str, *, directory: Path | None = None) -> dict[str, str | None]:
    """Every rule set's code for ``day``; None where the catalog gives none."""
    codes: dict[str, str | None] = {}
    for rules in REGISTRY.all():
        try:
            codes[rules.key] = daily_code(rules.key, day, directory=directory)
        except DailyError:
            codes[rules.key] = None
    return codes


def deal_of_day(rules_key: str, day: dt.date | str, *, directory: Path | None = None) -> str:
    """The code the game deals as ``day``'s deal: :func:`daily_code`, or :func:`fallback_code`
    when the catalog cannot give one."""
    try:
        return daily_code(rules_key, day, directory=directory)
    except DailyError:
        return fallback_code(rules_key, day)


def day_of(
    code: str, *, on: dt.date | None = None, days: int = 2, directory: Path | None = None
) -> dt.date | None:
    """The day whose deal ``code`` is, looking at ``on`` (default today) and the ``days - 1``
    days before it (a game started before midnight and won after is still that day's); None
    when it is none of them, or not a game code. The table's title and the win screen ask
    this, so a typed code of today's deal counts as today's deal too.

    >>> day = parse_day("2026-12-06")
    >>> code = daily_code("RU1-C", day)
    >>> day_of(code, on=day + dt.timedelta(days=1))  # won after midnight: still that day's
    datetime.date(2026, 12, 6)
    >>> day_of(code, on=day + dt.timedelta(days=2)) is None
    True
    """
    try:
        key = parse_code(code)[0].key
    except CodeError:
        return None
    wanted = code.strip().upper()
    first = on or today()
    for back in range(max(1, days)):
        day = first - dt.timedelta(days=back)
        if deal_of_day(key, day, directory=directory) == wanted:
            return day
    return None
