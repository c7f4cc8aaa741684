"""Catalogs of winnable deals, graded by level, and how the game picks one.

``assets/deals/<KEY>.txt`` (``RU1-C.txt``, ``SH1-C4.txt``, ...) lists the game codes the solver
proved winnable, one ``CODE LEVEL`` per line, level ``easy`` / ``medium`` / ``hard`` from
:mod:`engine.levels`. Comment lines start with ``#``; one of them records how far the scan got
(``# scanned: FIRST NEXT won=.. lost=.. unknown=..``), so the build resumes where it stopped::

    python -m engine.catalog build --rules RU1-C --count 200000
    python -m engine.catalog build --all --count 200000 --jobs 2
    python -m engine.catalog regrade --rules RU1-C
    python -m engine.catalog stats

The build runs the solver and the grading on every core (multiprocessing), prints progress, and
rewrites the file (atomically) every few seconds. Each level takes the first ``--target`` deals
graded to it; the build stops at ``--count`` deal numbers or when every level is full. The
solver gets a node limit per deal (``--node-limit``; it and the target are recorded in the file
and reused on resume), so a scan gives the same catalog on any machine; deals it cannot decide
within it are counted as unknown and left out. Only deals proved winnable are listed. Once only
hard deals are wanted, a deal the honest player wins in one of its plays counts as won without
the solver (that play is the winning line) and is not listed (it is not hard).
``regrade`` grades the listed deals again after :mod:`engine.levels` changes (no solving).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import multiprocessing
import os
import random
import re
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from engine.codes import CodeError, format_code, parse_code
from engine.deal import DEAL_NUMBERS
from engine.game import Game
from engine.levels import EASY_WINS, LEVELS, PLAYS, judge, wins_once
from engine.rules import ALL_RULES, RULES_BY_KEY
from engine.solver import solve

log = logging.getLogger(__name__)

CATALOG_DIR = Path(__file__).resolve().parent.parent / "assets" / "deals"
TARGET = 500
SOLVE_LIMIT = 60.0  # seconds per deal: only a safety net behind the node limit
NODE_LIMIT = 100_000  # positions per deal: the same verdicts on any machine under any load
SAVE_EVERY = 20.0  # seconds between rewrites of the file during a build
PICKS = (*LEVELS, "winnable", "any")
_UNKNOWN = re.compile(r"#\s*unknown:((?:\s+\d+)+)\s*$")
_UNKNOWN_COUNT = re.compile(r"#\s*unknown deals:\s*(\d+)\s*$")
_REDECIDED = re.compile(r"#\s*redecided:.*node_limit=(\d+)")
_SCANNED = re.compile(
    r"#\s*scanned:\s*(\d+)\s+(\d+)\s+won=(\d+)\s+lost=(\d+)\s+unknown=(\d+)(?:\s+time_limit=(\S+))?(?:\s+node_limit=(\d+))?(?:\s+target=(\d+))?"
)
_TITLES = {
    "RU1-C": "Russian Solitaire, classic (same suit)",
    "RU1-R": "Russian Solitaire, relaxed (any suit)",
    "SH1-C4": "Seahaven Towers, 4 free cells",
    "SH1-C2": "Seahaven Towers, 2 free cells",
    "SH1-C1": "Seahaven Towers, 1 free cell",
}


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
        title = _TITLES.get(self.key, self.key)
        head = [
            f"# Winnable deals of {self.key}: {title}.",
            "# Each code was proved winnable by engine.solver and graded by engine.levels:",
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
        try:
            if len(parts) != 2 or parts[1] not in LEVELS:
                raise CodeError("not 'CODE LEVEL'", "code_empty")
            rules, number = parse_code(parts[0])
        except CodeError:
            catalog.bad_lines += 1
            continue
        code = format_code(rules, number)
        if rules.key != key or code in seen:
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
    """The catalog of ``key``; an empty one when there is no file. CatalogError when damaged."""
    if key not in RULES_BY_KEY:
        raise ValueError(f"unknown rule set {key!r}; known: {', '.join(RULES_BY_KEY)}")
    path = catalog_path(key, directory)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Catalog(key)
    except (OSError, UnicodeDecodeError) as error:
        raise CatalogError(f"{path}: {error}") from None
    try:
        return parse(text, key)
    except CatalogError as error:
        raise CatalogError(f"{path}: {error}") from None


_CACHE: dict[tuple[Path, float], Catalog] = {}


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
        stamp = path.stat().st_mtime
        catalog = _CACHE.get((path, stamp))
        if catalog is None:
            catalog = load(rules_key, directory)
            _CACHE[(path, stamp)] = catalog
            if catalog.bad_lines:
                log.warning("deal catalog %s: skipped %d damaged lines", path, catalog.bad_lines)
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


# --------------------------------------------------------------------------- building


Job = tuple[str, int, float, int, tuple[str, ...]]


def examine(job: Job) -> tuple[int, str, str]:
    """Solve one deal and, when won, grade it: ``(number, status, level)``, the level ``""``
    when it is none of the levels the job still wants. Runs in a worker."""
    key, number, time_limit, node_limit, want = job
    game = Game(RULES_BY_KEY[key], number)
    if "easy" not in want and "medium" not in want and wins_once(game):
        # Only hard deals are still wanted: one win of the honest player proves the deal
        # winnable (the win is the line) and not hard, so the solver need not run.
        return number, "won", ""
    status = solve(game, time_limit=time_limit, node_limit=node_limit).status
    return number, status, _level(game, want) if status == "won" else ""


def regrade_one(job: tuple[str, int, tuple[str, ...]]) -> tuple[int, str]:
    """Grade one deal known to be winnable: ``(number, level or "")``. Runs in a worker."""
    key, number, want = job
    return number, _level(Game(RULES_BY_KEY[key], number), want)


def _level(game: Game, want: tuple[str, ...]) -> str:
    result = judge(game, want) if want else None
    return result.level if result else ""


def _quiet_worker() -> None:
    """Workers leave Ctrl+C to the parent, which saves and stops them (with SIGTERM)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def save(catalog: Catalog, directory: Path | None = None) -> Path:
    path = catalog_path(catalog.key, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(catalog.text(), encoding="utf-8")
    os.replace(tmp, path)
    return path


def _jobs(catalog: Catalog, start: int, stop: int) -> Iterator[Job]:
    # Made one at a time as the pool asks, so each job asks only for the levels still short
    # (a level that fills up while a job is out is simply not added to: the same result).
    for number in range(start, stop):
        yield catalog.key, number, catalog.time_limit, catalog.node_limit, catalog.wanted()


def build(
    key: str,
    *,
    start: int = 0,
    count: int = 200_000,
    jobs: int = 0,
    time_limit: float | None = None,
    node_limit: int | None = None,
    target: int | None = None,
    directory: Path | None = None,
    out: TextIO = sys.stderr,
) -> Catalog:
    """Scan deal numbers ``start .. start + count - 1`` (continuing where the file stopped,
    with the solver limits and level target the file records, so a catalog is one
    reproducible scan). Each level takes the first ``target`` deals graded to it; the scan
    stops early when every level is full."""
    catalog = load(key, directory)
    if catalog.next > catalog.first:
        if not catalog.first <= start <= catalog.next:
            raise ValueError(
                f"{key}: the catalog covers {catalog.first}..{catalog.next - 1}; "
                f"--start {start} would leave a gap (use --start {catalog.first})"
            )
        if (
            (time_limit is not None and time_limit != catalog.time_limit)
            or (node_limit is not None and node_limit != catalog.node_limit)
            or (target is not None and catalog.target and target != catalog.target)
        ):
            raise ValueError(
                f"{key}: the catalog was scanned with --time-limit {catalog.time_limit:g}"
                f"{catalog._nodes(' --node-limit ')}{catalog._target(' --target ')}; resume "
                "with the same limits (or leave them out)"
            )
        begin = catalog.next
        catalog.target = catalog.target or target or TARGET
    else:
        catalog.unknowns = []
        catalog.target = TARGET if target is None else target
        catalog.first = catalog.next = begin = start
        catalog.time_limit = SOLVE_LIMIT if time_limit is None else time_limit
        catalog.node_limit = NODE_LIMIT if node_limit is None else node_limit
    stop = min(start + count, DEAL_NUMBERS)
    workers = jobs or os.cpu_count() or 1

    def report(final: bool = False) -> None:
        done = catalog.next - begin
        rate = done / max(time.monotonic() - t0, 1e-9)
        left = (stop - catalog.next) / rate if rate > 0 else 0.0
        print(
            f"{key}: scanned {catalog.first}..{catalog.next - 1} won {catalog.won} "
            f"lost {catalog.lost} unknown {catalog.unknown} | {catalog.summary()} | "
            f"{rate:.1f} deals/s" + ("" if final else f", at most {left / 60:.0f} min left"),
            file=out,
            flush=True,
        )

    t0 = time.monotonic()
    last_save = t0
    if begin < stop and catalog.wanted():
        pool = multiprocessing.Pool(workers, initializer=_quiet_worker)
        try:
            results = pool.imap(
                examine, _jobs(catalog, begin, stop)
            )  # chunksize 1: an iterator with next(timeout)
            while catalog.next < stop and catalog.wanted():
                try:
                    # A short wait, so that Ctrl+C and SIGTERM reach this loop at once.
                    number, status, level = results.next(timeout=0.5)
                except multiprocessing.TimeoutError:
                    continue
                except StopIteration:
                    break
                catalog.next = number + 1
                if status == "won":
                    catalog.won += 1
                    catalog.take(number, level)
                elif status == "lost":
                    catalog.lost += 1
                else:
                    catalog.unknown += 1
                    if catalog.unknowns is not None:
                        catalog.unknowns.append(number)
                now = time.monotonic()
                if now - last_save > SAVE_EVERY:
                    save(catalog, directory)
                    report()
                    last_save = now
        finally:
            pool.terminate()
            pool.join()
            save(catalog, directory)  # every deal examined so far, also when interrupted
    save(catalog, directory)
    report(final=True)
    return catalog


def regrade(
    key: str,
    *,
    jobs: int = 0,
    target: int | None = None,
    directory: Path | None = None,
    out: TextIO = sys.stderr,
) -> Catalog:
    """Grade the listed deals again (after a change to :mod:`engine.levels`), in deal number
    order, each level taking the first ``target``. The solver's verdicts stand, so no deal is
    solved again: the result is what a new scan of the same range would list. The file is
    rewritten once, at the end; an interrupted regrade leaves it as it was."""
    catalog = load(key, directory)
    numbers = sorted(parse_code(code)[1] for codes in catalog.levels.values() for code in codes)
    catalog.target = target or catalog.target or TARGET
    catalog.levels = {lv: [] for lv in LEVELS}
    t0 = last = time.monotonic()
    done = 0

    def work() -> Iterator[tuple[str, int, tuple[str, ...]]]:
        for number in numbers:
            want = catalog.wanted()
            if not want:
                return
            yield key, number, want

    with multiprocessing.Pool(jobs or os.cpu_count() or 1, initializer=_quiet_worker) as pool:
        for number, level in pool.imap(regrade_one, work()):
            done += 1
            catalog.take(number, level)
            if not catalog.wanted():
                break
            if time.monotonic() - last > 10:
                last = time.monotonic()
                print(
                    f"{key}: regraded {done} of {len(numbers)} | {catalog.summary()}",
                    file=out,
                    flush=True,
                )
    save(catalog, directory)
    print(
        f"{key}: regraded {done} of {len(numbers)} in {time.monotonic() - t0:.0f} s | "
        f"{catalog.summary()}",
        file=out,
        flush=True,
    )
    return catalog


# --------------------------------------------------------------------------- redeciding


RedecideJob = tuple[str, int, str, float, int, tuple[str, ...]]


def honest_win(job: tuple[str, int]) -> tuple[int, bool]:
    """Does the honest player win deal ``number`` in one of its plays? Runs in a worker."""
    key, number = job
    return number, wins_once(Game(RULES_BY_KEY[key], number))


def redecide_one(job: RedecideJob) -> tuple[int, str, str]:
    """Solve one deal of :func:`redecide` and grade it when won: ``(number, status, level)``.
    Runs in a worker."""
    key, number, _, time_limit, node_limit, want = job
    game = Game(RULES_BY_KEY[key], number)
    status = solve(game, time_limit=time_limit, node_limit=node_limit).status
    return number, status, _level(game, want) if status == "won" else ""


def _honest_wins(
    key: str, numbers: list[int], jobs: int, side: Path, out: TextIO
) -> dict[int, bool]:
    """``wins_once`` of every deal in ``numbers``, kept in the file ``side`` as it goes so an
    interrupted run resumes (one ``NUMBER 0|1`` per line)."""
    done: dict[int, bool] = {}
    if side.exists():
        for line in side.read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0].isdigit() and parts[1] in ("0", "1"):
                done[int(parts[0])] = parts[1] == "1"
    todo = [n for n in numbers if n not in done]
    t0 = last = time.monotonic()
    with (
        side.open("a", encoding="utf-8") as file,
        multiprocessing.Pool(jobs, initializer=_quiet_worker) as pool,
    ):
        for k, (number, won) in enumerate(
            pool.imap(honest_win, ((key, n) for n in todo), chunksize=64), 1
        ):
            done[number] = won
            file.write(f"{number} {int(won)}\n")
            if time.monotonic() - last > 30:
                last = time.monotonic()
                file.flush()
                print(
                    f"{key}: honest plays of {k} of {len(todo)} unlisted deals, "
                    f"{k / (last - t0):.0f} deals/s",
                    file=out,
                    flush=True,
                )
    return done


def redecide(
    key: str,
    *,
    node_limit: int,
    time_limit: float = 600.0,
    jobs: int = 1,
    directory: Path | None = None,
    out: TextIO = sys.stderr,
) -> Catalog:
    """Decide again, with ``node_limit`` positions each, the deals the scan left unknown, and
    list the ones now proved winnable as a new scan would (in deal number order, each level
    taking the first ``target``). A verdict of the scan is a proof (a won line, or an
    exhaustive search that found none) and no later solver changes it, so deciding only the
    unknown deals gives what a new scan with the better solver would give.

    The catalog records its unknown deals (``# unknown:`` lines). An older catalog that does
    not is first replayed the cheap way: a deal that is listed is won; so is one the honest
    player wins (the scan's own shortcut), and it stays listed or not as the scan had it (the
    scan's unknown deals are deals the honest player never wins: its solver, at 100,000
    positions, decides every deal the player wins; checked for RU1-R, see README); the
    rest are solved again. The honest plays are kept beside the file as they are made, and
    the file is rewritten every minute or so while solving: an interrupted run keeps the
    deals decided so far and records the rest as unknown, so running it again resumes."""
    catalog = load(key, directory)
    listed = {parse_code(code)[1]: lv for lv, codes in catalog.levels.items() for code in codes}
    side = catalog_path(key, directory).with_suffix(".honest")
    kinds: dict[int, str] = {}
    if catalog.unknowns is not None:
        kinds = dict.fromkeys(catalog.unknowns, "open")
        won, lost = catalog.won, catalog.lost
    else:
        unlisted = [n for n in range(catalog.first, catalog.next) if n not in listed]
        honest = _honest_wins(key, unlisted, jobs, side, out)
        won, lost = len(listed), 0
        for number in unlisted:
            if honest[number]:
                won += 1  # as the scan had it: listed or not (see above)
            else:
                kinds[number] = "open"
    items = sorted({**dict.fromkeys(listed, "listed"), **kinds}.items())
    catalog.levels = {lv: [] for lv in LEVELS}
    unknowns: list[int] = []
    t0 = last = time.monotonic()

    def work() -> Iterator[RedecideJob]:
        for number, kind in items:
            if kind != "listed":
                yield key, number, kind, time_limit, node_limit, catalog.wanted()

    def snapshot(done: int) -> Catalog:
        """The catalog with the first ``done`` items decided: the deals not reached yet keep
        their listing, or stay unknown (a later run takes them up again)."""
        copy = dataclasses.replace(
            catalog, levels={lv: list(codes) for lv, codes in catalog.levels.items()}
        )
        rest = items[done:]
        for number, kind in rest:
            if kind == "listed":
                copy.take(number, listed[number])
        copy.unknowns = unknowns + [n for n, kind in rest if kind != "listed"]
        copy.won, copy.lost, copy.unknown = won, lost, len(copy.unknowns)
        copy.redecided = catalog.redecided if rest else node_limit
        return copy

    done = 0
    pool = multiprocessing.Pool(jobs, initializer=_quiet_worker)
    try:
        results = pool.imap(redecide_one, work())
        for number, kind in items:
            if kind == "listed":
                catalog.take(number, listed[number])
                done += 1
                continue
            while True:
                try:
                    got, status, level = results.next(timeout=0.5)
                    break
                except multiprocessing.TimeoutError:
                    continue
            assert got == number
            if status == "won":
                won += 1
                catalog.take(number, level)
            elif status == "lost":
                lost += 1
            else:
                unknowns.append(number)
            done += 1
            if time.monotonic() - last > 3 * SAVE_EVERY:
                last = time.monotonic()
                save(snapshot(done), directory)
                print(
                    f"{key}: redecided up to deal {number} ({done} of {len(items)}), "
                    f"{len(unknowns)} still unknown | {catalog.summary()}",
                    file=out,
                    flush=True,
                )
    finally:
        pool.terminate()
        pool.join()
        catalog = snapshot(done)  # also when interrupted: every deal decided so far
        save(catalog, directory)
    side.unlink(missing_ok=True)
    print(
        f"{key}: redecided in {time.monotonic() - t0:.0f} s: won {won} lost {lost} "
        f"unknown {len(unknowns)} | {catalog.summary()}",
        file=out,
        flush=True,
    )
    return catalog


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.catalog",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="scan deal numbers and extend the catalog")
    which = b.add_mutually_exclusive_group(required=True)
    which.add_argument("--rules", choices=list(RULES_BY_KEY))
    which.add_argument("--all", action="store_true", help="every rule set, one after another")
    b.add_argument("--start", type=int, default=0)
    b.add_argument("--count", type=int, default=200_000)
    b.add_argument("--jobs", type=int, default=0, help="worker processes (default: every core)")
    b.add_argument(
        "--time-limit",
        type=float,
        default=None,
        help=f"seconds per deal for the solver (default: the file's, else {SOLVE_LIMIT:g})",
    )
    b.add_argument(
        "--node-limit",
        type=int,
        default=None,
        help=f"positions per deal for the solver (default: the file's, else {NODE_LIMIT})",
    )
    b.add_argument(
        "--target",
        type=int,
        default=None,
        help=f"deals per level: a level takes no more, and the scan stops when every level has "
        f"this many (default: the file's, else {TARGET})",
    )
    b.add_argument("--dir", type=Path, default=None, help="catalog directory (assets/deals)")
    r = sub.add_parser("regrade", help="grade the listed deals again, after engine.levels changed")
    r.add_argument("--rules", choices=list(RULES_BY_KEY), required=True)
    r.add_argument("--jobs", type=int, default=0, help="worker processes (default: every core)")
    r.add_argument("--target", type=int, default=None, help=f"deals per level (default {TARGET})")
    r.add_argument("--dir", type=Path, default=None, help="catalog directory (assets/deals)")
    d = sub.add_parser(
        "redecide", help="decide the deals left unknown again, with a larger node limit"
    )
    d.add_argument("--rules", choices=list(RULES_BY_KEY), required=True)
    d.add_argument("--node-limit", type=int, required=True, help="positions per deal")
    d.add_argument("--time-limit", type=float, default=600.0, help="seconds per deal (safety)")
    d.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    d.add_argument("--dir", type=Path, default=None, help="catalog directory (assets/deals)")
    s = sub.add_parser("stats", help="what each catalog holds")
    s.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.command == "stats":
        for rules in ALL_RULES:
            try:
                cat = load(rules.key, args.dir)
            except CatalogError as error:
                print(f"{rules.key}: damaged: {error}")
                continue
            counts = cat.summary()
            if cat.next <= cat.first:
                print(f"{rules.key}: not scanned yet")
                continue
            print(
                f"{rules.key}: {counts} (scanned {cat.first}..{cat.next - 1}, won {cat.won}, "
                f"lost {cat.lost}, unknown {cat.unknown})"
            )
        return 0
    if args.command == "redecide":
        if args.node_limit <= 0 or args.time_limit <= 0 or args.jobs <= 0:
            print("error: --node-limit, --time-limit and --jobs must be positive", file=sys.stderr)
            return 2
        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            redecide(
                args.rules,
                node_limit=args.node_limit,
                time_limit=args.time_limit,
                jobs=args.jobs,
                directory=args.dir,
            )
        except CatalogError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("interrupted: the catalog keeps the deals decided so far", file=sys.stderr)
            return 130
        return 0
    if args.command == "regrade":
        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            regrade(args.rules, jobs=args.jobs, target=args.target, directory=args.dir)
        except CatalogError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("interrupted: the catalog is unchanged", file=sys.stderr)
            return 130
        return 0
    limit = args.time_limit
    nodes = args.node_limit
    if (
        args.count <= 0
        or args.start < 0
        or (limit is not None and limit <= 0)
        or (nodes is not None and nodes < 0)
        or args.jobs < 0
    ):
        print(
            "error: --count and --time-limit must be positive, --start and --jobs >= 0",
            file=sys.stderr,
        )
        return 2
    keys = [r.key for r in ALL_RULES] if args.all else [args.rules]
    signal.signal(signal.SIGTERM, _stop)  # kill: save what was examined, like Ctrl+C
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started with nohup &
    try:
        for key in keys:
            build(
                key,
                start=args.start,
                count=args.count,
                jobs=args.jobs,
                time_limit=args.time_limit,
                node_limit=args.node_limit,
                target=args.target,
                directory=args.dir,
            )
    except (ValueError, CatalogError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            "interrupted: the catalog keeps every deal examined; run the same command to resume",
            file=sys.stderr,
        )
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
