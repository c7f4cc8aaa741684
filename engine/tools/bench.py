"""``python -m engine bench``: how fast the engine answers, on 1,000 random positions per rule set.

Prints, per rule set, the median time of ``legal_moves()``, of a checked ``play()`` of a move
in notation plus ``undo()``, and of the solver's unchecked ``push()`` plus ``undo()``.
Targets (issue 2): legal_moves under 40 µs for Russian and 60 µs for Seahaven, play+undo
under 30 µs.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence

from engine.game import Game, Move
from engine.moves import FOUNDATION
from engine.rules import ALL_RULES, Rules

TARGETS_US = {"russian": 40.0, "seahaven": 60.0}
PLAY_UNDO_TARGET_US = 30.0


def random_play(game: Game, rng: random.Random, steps: int) -> list[Move]:
    """Up to ``steps`` random legal moves, leaning towards the foundations as a player does;
    the moves made."""
    played: list[Move] = []
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        home = [m for m in moves if m.dest == FOUNDATION]
        move = rng.choice(home if home and rng.random() < 0.7 else moves)
        game.push(move)
        played.append(move)
    return played


def random_positions(rules: Rules, count: int, seed: int) -> list[Game]:
    """Positions reached by random play from random deals, leaning towards the foundations."""
    rng = random.Random(seed)
    positions: list[Game] = []
    while len(positions) < count:
        game = Game(rules, rng.randrange(2**35))
        random_play(game, rng, rng.randrange(0, 120))
        if game.legal_moves():
            positions.append(game)
    return positions


def _per_call_us(action: Callable[[], object], repeat: int) -> float:
    start = time.perf_counter_ns()
    for _ in range(repeat):
        action()
    return (time.perf_counter_ns() - start) / repeat / 1000


def measure(rules: Rules, count: int = 1000, repeat: int = 20, seed: int = 1) -> dict[str, float]:
    legal, play_undo, push_undo = [], [], []
    rng = random.Random(seed)
    for game in random_positions(rules, count, seed):
        legal.append(_per_call_us(game.legal_moves, repeat))
        move = rng.choice(game.legal_moves())
        text = str(move)

        def checked(game: Game = game, text: str = text) -> None:
            game.play(text)
            game.pop()

        def unchecked(game: Game = game, move: Move = move) -> None:
            game.push(move)
            game.pop()

        play_undo.append(_per_call_us(checked, repeat))
        push_undo.append(_per_call_us(unchecked, repeat))
    return {
        "positions": float(count),
        "legal_moves_us": statistics.median(legal),
        "legal_moves_p99_us": statistics.quantiles(legal, n=100)[98],
        "play_undo_us": statistics.median(play_undo),
        "push_undo_us": statistics.median(push_undo),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine bench", description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--count", type=int, default=1000, help="positions per rule set")
    args = parser.parse_args(argv)
    results = {r.key: measure(r, args.count) for r in ALL_RULES}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(
        f"{'rules':8} {'legal_moves':>12} {'p99':>9} {'play+undo':>10} {'push+undo':>10}  targets"
    )
    for rules in ALL_RULES:
        r = results[rules.key]
        print(
            f"{rules.key:8} {r['legal_moves_us']:10.1f}µs {r['legal_moves_p99_us']:7.1f}µs"
            f" {r['play_undo_us']:8.1f}µs {r['push_undo_us']:8.1f}µs"
            f"  legal < {TARGETS_US[rules.game]:.0f}µs, play+undo < {PLAY_UNDO_TARGET_US:.0f}µs"
        )
    print(f"(median over {args.count} random positions per rule set, 20 calls each)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
