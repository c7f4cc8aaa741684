"""Catalogs of winnable deals, graded by level, and how the game picks one.

``assets/deals/<KEY>.txt`` (``RU1-C.txt``, ``SH1-C4.txt``, ...) lists the game codes the solver
proved winnable, one ``CODE LEVEL`` per line, level ``easy`` / ``medium`` / ``hard`` from
:mod:`engine.search.levels`. Comment lines start with ``#``; one of them records how far the scan
got
(``# scanned: FIRST NEXT won=.. lost=.. unknown=..``), so the build resumes where it stopped::

    python -m engine.catalog build --rules RU1-C --count 200000
    python -m engine.catalog build --all --count 200000 --jobs 2
    python -m engine.catalog regrade --rules RU1-C
    python -m engine.catalog redecide --rules RU1-R --node-limit 1000000
    python -m engine.catalog stats

The build runs the solver and the grading on every core (multiprocessing), prints progress, and
rewrites the file (atomically) every few seconds. Each level takes the first ``--target`` deals
graded to it; the build stops at ``--count`` deal numbers or when every level is full. The
solver gets a node limit per deal (``--node-limit``; it and the target are recorded in the file
and reused on resume), so a scan gives the same catalog on any machine; deals it cannot decide
within it are counted as unknown and left out. Only deals proved winnable are listed. Once only
hard deals are wanted, a deal the honest player wins in one of its plays counts as won without
the solver (that play is the winning line) and is not listed (it is not hard).
``regrade`` grades the listed deals again after :mod:`engine.search.levels` changes (no solving).
``redecide`` solves only the deals the scan left unknown again, with a larger node limit (the
scan's verdicts are proofs, so that is what a new scan would give). The file format, reading
it and picking a deal from it are in :mod:`engine.catalog_file`.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from engine.catalog_file import (
    CATALOG_DIR,
    NODE_LIMIT,
    PICKS,
    SOLVE_LIMIT,
    TARGET,
    Catalog,
    CatalogError,
    catalog_path,
    load,
    parse,
    pick,
    save,
)
from engine.codes import parse_code
from engine.deal import DEAL_NUMBERS
from engine.game import Game
from engine.rules import REGISTRY, RULES_BY_KEY
from engine.search.levels import LEVELS, judge, wins_once

__all__ = [
    "CATALOG_DIR",
    "PICKS",
    "Catalog",
    "CatalogError",
    "build",
    "catalog_path",
    "load",
    "main",
    "parse",
    "pick",
    "redecide",
    "regrade",
    "save",
]

SAVE_EVERY = 20.0  # seconds between rewrites of the file during a build

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
    from engine.search.solver import solve  # in the builder's workers, not at import

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
    """Grade the listed deals again (after a change to :mod:`engine.search.levels`), in deal number
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
    """One deal of :func:`redecide`: ``kind`` "won" (the honest player wins it: grade only) or
    "open" (solve it, and grade it when won). ``(number, status, level)``. Runs in a worker."""
    key, number, kind, time_limit, node_limit, want = job
    game = Game(RULES_BY_KEY[key], number)
    if kind == "won":
        status = "won"
    else:
        from engine.search.solver import solve

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


def _redecide_kinds(
    catalog: Catalog, listed: dict[int, str], jobs: int, side: Path, out: TextIO
) -> tuple[dict[int, str], int, int]:
    """What :func:`redecide` does with each unlisted deal ("open": solve it; "won": grade it),
    and the won and lost counts of the deals it leaves as they are."""
    if catalog.unknowns is not None:
        return dict.fromkeys(catalog.unknowns, "open"), catalog.won, catalog.lost
    counts = catalog.counts()
    # Where easy and medium were both full (each the first `target` of its level): a deal the
    # honest player wins above it (not hard) is none of the levels still wanted.
    full = catalog.target and all(counts[lv] >= catalog.target for lv in ("easy", "medium"))
    fill = (
        max(parse_code(catalog.levels[lv][-1])[1] for lv in ("easy", "medium"))
        if full
        else catalog.next
    )
    kinds: dict[int, str] = {}
    unlisted = [n for n in range(catalog.first, catalog.next) if n not in listed]
    honest = _honest_wins(catalog.key, unlisted, jobs, side, out)
    won = len(listed)
    for number in unlisted:
        if not honest[number]:
            kinds[number] = "open"
        elif number <= fill:
            kinds[number] = "won"  # graded: the scan may have left it unknown
        else:
            won += 1  # not hard, and easy and medium were full here: listed nowhere
    return kinds, won, 0


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
    player wins (the scan's own shortcut), and it is graded when a level it can reach (easy
    or medium) was still short at its number, since the scan may have left it unknown; the
    rest are solved again. The honest plays are kept beside the file as they are made, and
    the file is rewritten every minute or so while solving: an interrupted run keeps the
    deals decided so far and records the rest as unknown, so running it again resumes."""

    catalog = load(key, directory)
    listed = {parse_code(code)[1]: lv for lv, codes in catalog.levels.items() for code in codes}
    side = catalog_path(key, directory).with_suffix(".honest")
    kinds, won, lost = _redecide_kinds(catalog, listed, jobs, side, out)
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


def _parser() -> argparse.ArgumentParser:
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
    r = sub.add_parser(
        "regrade", help="grade the listed deals again, after engine.search.levels changed"
    )
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
    return parser


def _stats(args: argparse.Namespace) -> int:
    for rules in REGISTRY.all():
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


def _run(
    work: Callable[[], object], interrupted: str, errors: tuple[type[Exception], ...] = ()
) -> int:
    """Run a long command: a kill saves what was done, like Ctrl+C (even when started with
    ``nohup &``); a damaged catalog (or one of ``errors``) is exit status 2, an interruption
    130."""
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    refused: tuple[type[Exception], ...] = (CatalogError, *errors)
    try:
        work()
    except refused as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"interrupted: {interrupted}", file=sys.stderr)
        return 130
    return 0


def _redecide(args: argparse.Namespace) -> int:
    if args.node_limit <= 0 or args.time_limit <= 0 or args.jobs <= 0:
        print("error: --node-limit, --time-limit and --jobs must be positive", file=sys.stderr)
        return 2
    return _run(
        lambda: redecide(
            args.rules,
            node_limit=args.node_limit,
            time_limit=args.time_limit,
            jobs=args.jobs,
            directory=args.dir,
        ),
        "the catalog keeps the deals decided so far",
    )


def _regrade(args: argparse.Namespace) -> int:
    return _run(
        lambda: regrade(args.rules, jobs=args.jobs, target=args.target, directory=args.dir),
        "the catalog is unchanged",
    )


def _build(args: argparse.Namespace) -> int:
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
    keys = list(REGISTRY) if args.all else [args.rules]

    def work() -> None:
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

    resume = "the catalog keeps every deal examined; run the same command to resume"
    return _run(work, resume, (ValueError,))


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    commands = {"stats": _stats, "redecide": _redecide, "regrade": _regrade, "build": _build}
    return commands[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
