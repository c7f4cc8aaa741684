"""``python -m engine bench solver``: how fast and how decisive the solver is.

Solves deals 0..999 (``--count``) of each rule set, one after another in this process, and
prints the verdict counts, the share of winnable deals and the median / p99 / max time per
deal. Where Freecell Solver is installed (Debian: ``apt-get install freecell-solver-bin``), it
also runs ``fc-solve -g seahaven --freecells-num N`` on the same Seahaven deals: fc-solve moves
at most (free cells + 1) cards at once and our rules allow more, so every deal it wins we must
win too (a deal it wins that we prove lost is a bug, and the bench says so).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from engine.cards import CARD_NAMES
from engine.game import EMPTY, Game
from engine.moves import FOUNDATION, Mode, candidates
from engine.rules import ALL_RULES, RULES_BY_KEY, Rules, takers
from engine.search.position import State, apply, is_won_state, state_key, state_of
from engine.search.solver import solve


def baseline_solve(game: Game, time_limit: float) -> str:
    """The yardstick: a plain depth-first search with a foundation "settle" step, for Russian
    classic only (same-suit building, no take-backs: lemma 1 of :mod:`engine.search.solver`). Every
    candidate move of the engine's move core (:func:`engine.moves.candidates`: every face-up
    group that fits goes everywhere it fits, in column order) is tried; a column top its
    foundation wants goes there at once; a set of sorted-column keys stops repeats. No move
    ordering, no other dominance, no restarts. ``won`` / ``lost`` / ``unknown``."""
    if not game.rules.same_suit or game.rules.runs_only:
        raise ValueError("the baseline search plays Russian classic only")
    deadline = time.monotonic() + time_limit
    mode = Mode.of(game.rules)

    def settle(state: State) -> State:
        moved = True
        while moved:
            moved = False
            for i, col in enumerate(state[0]):
                if col and state[3][col[-1] // 13] == col[-1] % 13:
                    state = apply(state, (col[-1], i, len(col) - 1, FOUNDATION))
                    moved = True
        return state

    def children(state: State) -> list[State]:
        by_key, empties = takers(mode.rules, state[0])
        return [settle(apply(state, move)) for move in candidates(state, mode, by_key, empties)]

    seen: set[bytes] = set()
    stack = [[settle(state_of(game))]]
    nodes = 0
    while stack:
        if not stack[-1]:
            stack.pop()
            continue
        state = stack[-1].pop()
        if is_won_state(state):
            return "won"
        key = state_key(state)
        if key in seen:
            continue
        seen.add(key)
        nodes += 1
        if nodes % 256 == 0 and time.monotonic() > deadline:
            return "unknown"
        stack.append(children(state))
    return "lost"


WEBSITE = "the website of seed 003: 1,996 of 30,000 (6.7%) for Russian classic"


@dataclass
class Figures:
    rules: str
    first: int
    count: int
    time_limit: float
    verdicts: dict[str, int] = field(default_factory=dict)
    total: float = 0.0
    median: float = 0.0
    p99: float = 0.0
    max: float = 0.0
    slowest: int = -1
    fc: dict[str, object] | None = None
    baseline: dict[str, float] | None = None


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def fc_board(game: Game) -> str:
    """The position in Freecell Solver's board format (each column bottom first)."""
    cells = " ".join(CARD_NAMES[c] if c != EMPTY else "-" for c in game.cells)
    lines = [f"Freecells: {cells}"]
    lines += [" ".join(CARD_NAMES[c] for c in col) for col in game.cols]
    return "\n".join(lines) + "\n"


def fc_solve(game: Game, time_limit: float, program: str) -> tuple[str, float]:
    """fc-solve's verdict (``won`` / ``lost`` / ``unknown``) and its wall time."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [program, "-g", "seahaven", "--freecells-num", str(game.rules.cells), "-"],
            input=fc_board(game),
            capture_output=True,
            text=True,
            timeout=time_limit,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "unknown", time.perf_counter() - started
    seconds = time.perf_counter() - started
    if "This game is solveable" in done.stdout:
        return "won", seconds
    if "I could not solve" in done.stdout:
        return "lost", seconds
    return "unknown", seconds


def bench(
    rules: Rules,
    first: int,
    count: int,
    time_limit: float,
    fc_program: str | None,
    *,
    baseline: bool = True,
) -> Figures:
    figures = Figures(rules.key, first, count, time_limit)
    times: list[float] = []
    ours: list[str] = []
    for number in range(first, first + count):
        game = Game(rules, number)
        started = time.perf_counter()
        status = solve(game, time_limit=time_limit).status
        seconds = time.perf_counter() - started
        times.append(seconds)
        ours.append(status)
        figures.verdicts[status] = figures.verdicts.get(status, 0) + 1
        if seconds >= max(times):
            figures.slowest = number
    figures.total = sum(times)
    figures.median = statistics.median(times)
    figures.p99 = percentile(times, 0.99)
    figures.max = max(times)
    if baseline and rules.same_suit and not rules.runs_only and not rules.cells:
        # The yardstick in the same run: CPU seconds of both over the same deals.
        ours_cpu = base_cpu = 0.0
        agree = 0
        for number in range(first, first + count):
            game = Game(rules, number)
            started = time.process_time()
            mine = solve(game, time_limit=time_limit).status
            ours_cpu += time.process_time() - started
            started = time.process_time()
            theirs = baseline_solve(game, time_limit)
            base_cpu += time.process_time() - started
            agree += mine == theirs or "unknown" in (mine, theirs)
        figures.baseline = {
            "ours_cpu": ours_cpu,
            "baseline_cpu": base_cpu,
            "speedup": base_cpu / ours_cpu if ours_cpu else 0.0,
            "disagreements": float(count - agree),
        }
    if fc_program and rules.game == "seahaven":
        fc_verdicts: dict[str, int] = {}
        agree = fc_won_we_lost = fc_won_we_unknown = 0
        fc_time = 0.0
        our_time_same = 0.0
        for k, number in enumerate(range(first, first + count)):
            status, seconds = fc_solve(Game(rules, number), time_limit, fc_program)
            fc_verdicts[status] = fc_verdicts.get(status, 0) + 1
            fc_time += seconds
            our_time_same += times[k]
            agree += status == ours[k]
            if status == "won" and ours[k] == "lost":
                fc_won_we_lost += 1
            if status == "won" and ours[k] == "unknown":
                fc_won_we_unknown += 1
        figures.fc = {
            "verdicts": fc_verdicts,
            "agreement": agree / count,
            "fc_won_we_lost": fc_won_we_lost,
            "fc_won_we_unknown": fc_won_we_unknown,
            "time_ratio": our_time_same / fc_time if fc_time else 0.0,
            "fc_total": fc_time,
        }
    return figures


def describe(f: Figures) -> str:
    won = f.verdicts.get("won", 0)
    decided = won + f.verdicts.get("lost", 0)
    verdicts = " ".join(f"{k} {f.verdicts.get(k, 0)}" for k in ("won", "lost", "unknown"))
    lines = [
        f"{f.rules:7} deals {f.first}..{f.first + f.count - 1}: {verdicts} "
        f"(decided {100 * decided / f.count:.1f}%, winnable {100 * won / f.count:.1f}% "
        f"= {won} of {f.count})",
        f"        time per deal: median {f.median * 1000:.1f} ms, p99 {f.p99:.2f} s, "
        f"max {f.max:.2f} s (deal {f.slowest}), total {f.total:.1f} s, limit {f.time_limit:g} s",
    ]
    if f.baseline is not None:
        b = f.baseline
        lines.append(
            f"        plain depth-first search with settle, same deals, same run: "
            f"{b['baseline_cpu']:.1f} s CPU against our {b['ours_cpu']:.1f} s: "
            f"{b['speedup']:.1f}x as fast; verdicts that differ: {b['disagreements']:.0f}"
        )
    if f.fc is not None:
        fc = f.fc
        fv = fc["verdicts"]
        assert isinstance(fv, dict)
        lines.append(
            f"        fc-solve -g seahaven --freecells-num {RULES_BY_KEY[f.rules].cells}: "
            + " ".join(f"{k} {fv.get(k, 0)}" for k in ("won", "lost", "unknown"))
            + f"; same verdict {100 * float(str(fc['agreement'])):.1f}%; "
            f"fc-solve wins we prove lost: {fc['fc_won_we_lost']} (must be 0); "
            f"fc-solve wins we leave unknown: {fc['fc_won_we_unknown']}; "
            f"time ours / fc-solve: {float(str(fc['time_ratio'])):.1f}x"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine bench solver",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--rules", nargs="*", choices=list(RULES_BY_KEY), default=[r.key for r in ALL_RULES]
    )
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--no-fc-solve", action="store_true", help="skip Freecell Solver")
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the plain depth-first yardstick"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.count <= 0 or args.start < 0 or args.time_limit <= 0:
        print("error: --count and --time-limit must be positive, --start >= 0", file=sys.stderr)
        return 2
    program = None if args.no_fc_solve else shutil.which("fc-solve")
    if program is None and not args.no_fc_solve:
        print(
            "fc-solve not found (apt-get install freecell-solver-bin): comparison skipped",
            file=sys.stderr,
        )
    results = []
    for key in args.rules:
        figures = bench(
            RULES_BY_KEY[key],
            args.start,
            args.count,
            args.time_limit,
            program,
            baseline=not args.no_baseline,
        )
        results.append(figures)
        if not args.json:
            print(describe(figures), flush=True)
    if args.json:
        print(json.dumps([asdict(f) for f in results], indent=1))
    else:
        print(f"For comparison, {WEBSITE}.")
    bad = sum(int(str(f.fc["fc_won_we_lost"])) for f in results if f.fc is not None)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
