"""``python -m engine bench hints``: how soon the solver decides positions met in play.

For each rule set, ``--count`` positions (default 200): a deal number and a number of moves
(0..40) drawn from a seeded generator (``--seed``, default 12), then that many random legal
moves from the deal, leaning towards the foundations as a player does. Each position is
solved with :func:`engine.search.solver.solve` (``--time-limit`` seconds at most) and timed in CPU
seconds (``time.process_time``, so other load on the machine matters little). Prints, per rule
set, the share decided within 0.2 s and 1 s, the p50 / p90 / p99 / max CPU time and the
verdict counts; then the hint itself (:func:`engine.search.hints.hint`: its work budget, and the
check of a fallback move): the share it decides and its CPU p99 / max. The Hint button has 1 s
on a Raspberry Pi 4 core, about a fifth of this machine: 0.2 s here.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

from engine.game import Game
from engine.rules import ALL_RULES, RULES_BY_KEY, Rules
from engine.search.hints import HINT_NODES, hint
from engine.search.solver import solve
from engine.tools.bench import random_play

MAX_MOVES = 40
PI_SECOND = 0.2  # the Pi's second of hint time, on this machine


@dataclass(frozen=True)
class Position:
    rules: str
    number: int
    moves: list[str]


@dataclass
class Figures:
    rules: str
    count: int
    within_02: float = 0.0
    within_1: float = 0.0
    p50: float = 0.0
    p90: float = 0.0
    p99: float = 0.0
    max: float = 0.0
    verdicts: dict[str, int] = field(default_factory=dict)
    slowest: str = ""
    hint_decided: float = 0.0  # share the hint's own budget decides
    hint_p99: float = 0.0  # CPU seconds of a whole hint (search, and fallback checks)
    hint_max: float = 0.0


def positions(rules: Rules, count: int, seed: int) -> list[Position]:
    """``count`` positions of ``rules`` in play: a pure function of the seed."""
    rng = random.Random(f"{seed}-{rules.key}")
    out: list[Position] = []
    while len(out) < count:
        number = rng.randrange(2**35)
        steps = rng.randrange(MAX_MOVES + 1)
        game = Game(rules, number)
        played = [str(move) for move in random_play(game, rng, steps)]
        if not game.is_won:
            out.append(Position(rules.key, number, played))
    return out


def replay(position: Position) -> Game:
    game = Game(RULES_BY_KEY[position.rules], position.number)
    for move in position.moves:
        game.play(move)
    return game


def _quantile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def measure(
    rules: Rules,
    count: int,
    seed: int,
    decide: Callable[[Game], str],
    ask: Callable[[Game], str] | None = None,
) -> tuple[Figures, list[float]]:
    """The figures of ``decide`` (a verdict) and, if given, of ``ask`` (a hint's status)."""
    figures = Figures(rules.key, count)
    times: list[float] = []
    decided_in: list[float] = []  # the CPU times of the positions decided
    hint_times: list[float] = []
    decided = 0
    worst = -1.0
    for position in positions(rules, count, seed):
        game = replay(position)
        if ask is not None:
            started = time.process_time()
            decided += ask(game) != "unknown"
            hint_times.append(time.process_time() - started)
        started = time.process_time()
        status = decide(game)
        spent = time.process_time() - started
        times.append(spent)
        if status != "unknown":
            decided_in.append(spent)
        figures.verdicts[status] = figures.verdicts.get(status, 0) + 1
        if spent > worst:
            worst = spent
            figures.slowest = f"deal {position.number} after {len(position.moves)} moves"
    figures.within_02 = sum(t <= PI_SECOND for t in decided_in) / count
    figures.within_1 = sum(t <= 1.0 for t in decided_in) / count
    figures.p50, figures.p90 = _quantile(times, 0.5), _quantile(times, 0.9)
    figures.p99, figures.max = _quantile(times, 0.99), max(times)
    if hint_times:
        figures.hint_decided = decided / count
        figures.hint_p99, figures.hint_max = _quantile(hint_times, 0.99), max(hint_times)
    return figures, times


def describe(f: Figures) -> str:
    verdicts = " ".join(f"{k} {f.verdicts.get(k, 0)}" for k in ("won", "lost", "unknown"))
    return (
        f"{f.rules:7} {f.count} positions: decided within 0.2 s {100 * f.within_02:.1f}%, "
        f"within 1 s {100 * f.within_1:.1f}% | CPU p50 {1000 * f.p50:.0f} ms, "
        f"p90 {1000 * f.p90:.0f} ms, p99 {1000 * f.p99:.0f} ms, max {f.max:.2f} s "
        f"({f.slowest}) | {verdicts}"
        + (
            f"\n        hint ({HINT_NODES} positions): decides {100 * f.hint_decided:.1f}%, "
            f"CPU p99 {1000 * f.hint_p99:.0f} ms, max {1000 * f.hint_max:.0f} ms"
            if f.hint_max
            else ""
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine bench hints",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--rules", nargs="*", choices=list(RULES_BY_KEY), default=[r.key for r in ALL_RULES]
    )
    parser.add_argument("--count", type=int, default=200, help="positions per rule set")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--time-limit", type=float, default=3.0, help="seconds per position")
    parser.add_argument("--no-hint", action="store_true", help="time the solver only")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.count <= 0 or args.time_limit <= 0:
        print("error: --count and --time-limit must be positive", file=sys.stderr)
        return 2

    def decide(game: Game) -> str:
        return solve(game, time_limit=args.time_limit).status

    def ask(game: Game) -> str:
        return hint(game, time_limit=60).status

    results = []
    for key in args.rules:
        figures, _ = measure(
            RULES_BY_KEY[key], args.count, args.seed, decide, None if args.no_hint else ask
        )
        results.append(figures)
        if not args.json:
            print(describe(figures), flush=True)
    if args.json:
        print(json.dumps([asdict(f) for f in results], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
