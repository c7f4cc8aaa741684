"""A catalog file of winnable deals (``assets/deals/<KEY>.txt``): what it holds, how it is
read and written, and how the game picks a deal from it. Built by :mod:`engine.catalog`.

One ``CODE LEVEL`` per line, level ``easy`` / ``medium`` / ``hard`` from
:mod:`engine.search.levels`.
Comment lines start with ``#``; one records how far the scan got (``# scanned: FIRST NEXT
won=.. lost=.. unknown=..`` and the limits it used), ``# unknown:`` lines the deal numbers the
scan could not decide, ``# redecided:`` the node limit they were last tried with.
"""

from __future__ import annotations

import logging
import os
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from engine.codes import ALPHABET, DIGITS, CodeError, format_code, parse_code
from engine.deal import DEAL_NUMBERS
from engine.rules import RULES_BY_KEY
from engine.safe_read import not_utf8, read_bytes, reason
from engine.search.levels import EASY_WINS, LEVELS, PLAYS

log = logging.getLogger("solitaire.catalog")  # the kiosk log takes the "solitaire" tree

CATALOG_DIR = Path(__file__).resolve().parent.parent / "assets" / "deals"
TARGET = 500
MAX_CATALOG_BYTES = 8_000_000  # a catalog of many thousand deals is well below a megabyte
SOLVE_LIMIT = 60.0  # seconds per deal: only a safety net behind the node limit
NODE_LIMIT = 100_000  # positions per deal: the same verdicts on any machine under any load
PICKS = (*LEVELS, "winnable", "any")
_UNKNOWN = re.compile(r"#\s*unknown:((?:\s+\d+)+)\s*$")
_UNKNOWN_COUNT = re.compile(r"#\s*unknown deals:\s*(\d+)\s*$")
_REDECIDED = re.compile(r"#\s*redecided:.*node_limit=(\d+)")
_SCANNED = re.compile(
    r"#\s*scanned:\s*(\d+)\s+(\d+)\s+won=(\d+)\s+lost=(\d+)\s+unknown=(\d+)(?:\s+time_limit=(\S+))?(?:\s+node_limit=(\d+))?(?:\s+target=(\d+))?"
)


class CatalogError(ValueError):
    """A catalog file that cannot be read as a catalog."""


@dataclass
class Catalog:
    """One rule set's catalog: the codes per level and how far the scan got."""

    key: str
    levels: dict[str, list[str]] = field(default_factory=lambda: {lv: [] for lv in LEVELS})
    first: int = 0
    next: int = 0
    won: int = 0
    lost: int = 0
    unknown: int = 0
    time_limit: float = SOLVE_LIMIT
    node_limit: int = 0  # 0: none (catalogs scanned before the node limit existed)
    target: int = 0  # a level takes deals until it holds this many (0: no cap)
    bad_lines: int = 0
    # The deal numbers left unknown, when recorded (scans before the record: None).
    unknowns: list[int] | None = None
    redecided: int = 0  # node limit of the last `redecide` of the unknown deals (0: none)

    def _nodes(self, prefix: str) -> str:
        return f"{prefix}{self.node_limit}" if self.node_limit else ""

    def _target(self, prefix: str) -> str:
        return f"{prefix}{self.target}" if self.target else ""

    def counts(self) -> dict[str, int]:
        return {lv: len(codes) for lv, codes in self.levels.items()}

    def summary(self) -> str:
        return " ".join(f"{lv} {n}" for lv, n in self.counts().items())

    def wanted(self) -> tuple[str, ...]:
        """The levels that still take deals: each takes the first ``target`` (0: no cap)."""
        return tuple(
            lv for lv, codes in self.levels.items() if not self.target or len(codes) < self.target
        )

    def take(self, number: int, level: str) -> None:
        """List deal ``number`` at ``level`` (``""``: none) if that level still takes deals."""
        if level in self.wanted():
            self.levels[level].append(format_code(RULES_BY_KEY[self.key], number))

    def text(self) -> str:
        rules = RULES_BY_KEY.get(self.key)
        title = rules.title if rules else self.key
        head = [
            f"# Winnable deals of {self.key}: {title}.",
            "# Each code was proved winnable by engine.search.solver and graded by "
            "engine.search.levels:",
            f"# {PLAYS} plays of the honest player (easy: at least {EASY_WINS} wins by itself or"
            " with one hint of ours",
            "# where it went wrong, hard: no win by itself, medium: between). One 'CODE LEVEL'",
            "# per line, in deal number order"
            + (
                f"; each level lists the first {self.target} deals of the scan."
                if self.target
                else "."
            ),
            "# Build or extend (resumes): python -m engine.catalog build --rules "
            f"{self.key} --time-limit {self.time_limit:g}"
            + self._nodes(" --node-limit ")
            + self._target(" --target "),
            f"# scanned: {self.first} {self.next} won={self.won} lost={self.lost} "
            f"unknown={self.unknown} time_limit={self.time_limit:g}"
            + self._nodes(" node_limit=")
            + self._target(" target="),
        ]
        if self.redecided:
            head.append(
                f"# redecided: the deals left unknown, again with node_limit={self.redecided}"
            )
        if self.unknowns is not None:
            numbers = sorted(self.unknowns)
            head.append(f"# unknown deals: {len(numbers)}")
            head += [
                "# unknown: " + " ".join(map(str, numbers[i : i + 12]))
                for i in range(0, len(numbers), 12)
            ]
        entries = sorted(
            ((parse_code(code)[1], code, lv) for lv, codes in self.levels.items() for code in codes)
        )
        return "\n".join(head + [f"{code} {lv}" for _, code, lv in entries]) + "\n"


def catalog_path(key: str, directory: Path | None = None) -> Path:
    return (directory or CATALOG_DIR) / f"{key}.txt"


def parse(text: str, key: str) -> Catalog:
    """Read a catalog; lines that are not ``CODE LEVEL`` of this rule set are counted in
    ``bad_lines`` and skipped. CatalogError when nothing in it looks like a catalog."""
    catalog = Catalog(key)
    seen: set[str] = set()
    # A code written as the builder writes it (this rule set's key, seven digits) is read as
    # it stands; anything else goes through parse_code, which also says what is wrong with it.
    canonical = re.compile(rf"{re.escape(key)}-[{ALPHABET}]{{{DIGITS}}}").fullmatch
    if key not in RULES_BY_KEY:
        canonical = re.compile("(?!)").fullmatch  # no rule set: parse_code refuses each one
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            listed = _UNKNOWN.match(line)
            if listed:
                catalog.unknowns = (catalog.unknowns or []) + [
                    int(n) for n in listed.group(1).split()
                ]
                continue
            if _UNKNOWN_COUNT.match(line):
                catalog.unknowns = catalog.unknowns or []
                continue
            again = _REDECIDED.match(line)
            if again:
                catalog.redecided = int(again.group(1))
                continue
            match = _SCANNED.match(line)
            if match:
                first, nxt, won, lost, unknown, limit, nodes, target = match.groups()
                catalog.node_limit = int(nodes or 0)
                catalog.target = int(target or 0)
                catalog.first, catalog.next = int(first), int(nxt)
                catalog.won, catalog.lost, catalog.unknown = int(won), int(lost), int(unknown)
                if limit:
                    try:
                        catalog.time_limit = float(limit)
                    except ValueError:
                        catalog.bad_lines += 1
            continue
        parts = line.split()
        if len(parts) == 2 and parts[1] in LEVELS and canonical(parts[0]):
            code = parts[0]
        else:
            try:
                if len(parts) != 2 or parts[1] not in LEVELS:
                    raise CodeError("not 'CODE LEVEL'", "code_empty")
                rules, number = parse_code(parts[0])
            except CodeError:
                catalog.bad_lines += 1
                continue
            if rules.key != key:
                catalog.bad_lines += 1
                continue
            code = format_code(rules, number)
        if code in seen:
            catalog.bad_lines += 1
            continue
        seen.add(code)
        catalog.levels[parts[1]].append(code)
    if catalog.unknowns is not None and len(catalog.unknowns) != catalog.unknown:
        catalog.unknowns = None  # a damaged record: redecide finds the unknown deals again
        catalog.bad_lines += 1
    if catalog.bad_lines and not seen:
        raise CatalogError(f"no catalog entries in {catalog.bad_lines} lines")
    return catalog


def load(key: str, directory: Path | None = None) -> Catalog:
    """The catalog of ``key``; an empty one when there is no file. CatalogError when damaged
    (also empty, not UTF-8, not a regular file, larger than MAX_CATALOG_BYTES)."""
    if key not in RULES_BY_KEY:
        raise ValueError(f"unknown rule set {key!r}; known: {', '.join(RULES_BY_KEY)}")
    path = catalog_path(key, directory)
    try:
        text = read_bytes(path, MAX_CATALOG_BYTES).decode("utf-8")  # never a FIFO or a device
    except FileNotFoundError:
        return Catalog(key)
    except UnicodeDecodeError as error:
        raise CatalogError(f"{path}: {not_utf8(error)}") from None
    except OSError as error:
        raise CatalogError(f"{path}: {reason(error)}") from None
    if not text.strip():  # the builder replaces the file whole: an empty one is damage
        raise CatalogError(f"{path}: the file is empty")
    try:
        return parse(text, key)
    except CatalogError as error:
        raise CatalogError(f"{path}: {error}") from None


class CatalogShelf:
    """The deal catalogs :func:`pick` has read, once per version of each file (its path and
    time stamp); a damaged line is logged once per version."""

    def __init__(self) -> None:
        self.read: dict[tuple[Path, float], Catalog] = {}

    def get(self, rules_key: str, directory: Path | None) -> Catalog:
        """``rules_key``'s catalog; FileNotFoundError, OSError or CatalogError when unusable."""
        path = catalog_path(rules_key, directory)
        stamp = path.stat().st_mtime
        catalog = self.read.get((path, stamp))
        if catalog is None:
            catalog = load(rules_key, directory)
            self.read[(path, stamp)] = catalog
            if catalog.bad_lines:
                log.warning("deal catalog %s: skipped %d damaged lines", path, catalog.bad_lines)
        return catalog


# The catalogs the deals are picked from (read as they are first asked for).
CATALOGS = CatalogShelf()


def pick(rules_key: str, level: str, rng: random.Random, *, directory: Path | None = None) -> str:
    """A game code for ``rules_key`` at ``level`` (easy, medium, hard, winnable = any level,
    any = a random deal). Falls back to a random deal, and logs why, when the catalog is
    missing, damaged or has nothing at that level. ValueError on an unknown rule set or level."""
    rules = RULES_BY_KEY.get(rules_key)
    if rules is None:
        raise ValueError(f"unknown rule set {rules_key!r}; known: {', '.join(RULES_BY_KEY)}")
    if level not in PICKS:
        raise ValueError(f"unknown level {level!r}; known: {', '.join(PICKS)}")
    random_code = format_code(rules, rng.randrange(DEAL_NUMBERS))
    if level == "any":
        return random_code
    path = catalog_path(rules_key, directory)
    try:
        catalog = CATALOGS.get(rules_key, directory)
    except FileNotFoundError:
        log.warning("no deal catalog %s: dealing %s, which may not be winnable", path, random_code)
        return random_code
    except (OSError, CatalogError) as error:
        log.warning(
            "deal catalog unusable (%s): dealing %s, which may not be winnable", error, random_code
        )
        return random_code
    if level == "winnable":
        codes = [code for lv in LEVELS for code in catalog.levels[lv]]
    else:
        codes = catalog.levels[level]
    if not codes:
        log.warning(
            "deal catalog %s has no %s deals: dealing %s, which may not be winnable",
            path,
            level,
            random_code,
        )
        return random_code
    return codes[rng.randrange(len(codes))]


def save(catalog: Catalog, directory: Path | None = None) -> Path:
    path = catalog_path(catalog.key, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(catalog.text(), encoding="utf-8")
    os.replace(tmp, path)
    return path
