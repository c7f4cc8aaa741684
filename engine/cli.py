"""``python -m engine``: look at a deal, list its moves, solve it, time the engine, print
today's deals."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any

from engine import daily
from engine.cards import CARD_NAMES, SUITS
from engine.codes import CodeError
from engine.game import EMPTY, Game, IllegalMove
from engine.rules import REGISTRY


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's own exit status is 2 as well
        self.print_usage(sys.stderr)
        self.exit(2, f"error: {message}\n")


def _replay(code: str, moves: Sequence[str]) -> Game:
    game = Game.from_code(code)
    for k, move in enumerate(moves, 1):
        try:
            game.play(move)
        except IllegalMove as error:
            raise SystemExit(_fail(f"move {k} ({move!r}) is refused: {error}")) from None
    return game


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _daily(date: str | None) -> int:
    """Print the day's code of each rule set; a rule set without a usable catalog gets the
    date's fallback deal and a note on stderr."""
    try:
        day = daily.today() if date is None else daily.parse_day(date)
    except ValueError as error:
        return _fail(str(error))
    for rules in REGISTRY.all():
        try:
            code = daily.daily_code(rules.key, day)
            missing = daily.missing_catalog(rules.key)
            note = None if missing is None else f"{rules.key}: {missing}"
        except daily.DailyError as error:
            code, note = daily.fallback_code(rules.key, day), str(error)
        print(code)
        if note is not None:
            print(f"note: {note}; the fallback deal may not be winnable", file=sys.stderr)
    return 0


def render(game: Game) -> str:
    """The position as text: hidden cards as ``##``, empty cells as ``..``."""
    lines = [
        f"{game.code}  score {game.score}  moves {game.moves}" + ("  WON" if game.is_won else "")
    ]
    tops = []
    for suit, count in enumerate(game.found):
        top = game.foundation_top(suit)
        tops.append(f"{SUITS[suit]}:{CARD_NAMES[top] if top is not None else '--'}({count})")
    lines.append("foundations " + "  ".join(tops))
    if game.cells:
        lines.append("cells " + " ".join(CARD_NAMES[c] if c != EMPTY else ".." for c in game.cells))
    for i, col in enumerate(game.cols):
        shown = ["##" if k < game.down[i] else CARD_NAMES[c] for k, c in enumerate(col)]
        lines.append(f"t{i + 1:<2} " + " ".join(shown))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("show", "the position after the moves"),
        ("moves", "the legal moves there"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("code")
        p.add_argument("moves", nargs="*")
        p.add_argument("--json", action="store_true")
    p = sub.add_parser("solve", help="the verdict and the winning line")
    p.add_argument("code")
    p.add_argument("moves", nargs="*")
    p.add_argument("--time-limit", type=float, default=30.0)
    p.add_argument("--json", action="store_true")
    sub.add_parser(
        "bench", help="time the engine; 'bench solver', 'bench hints': the solver", add_help=False
    )
    p = sub.add_parser("daily", help="today's deal of each rule set")
    p.add_argument("--date", default=None, help="YYYY-MM-DD (default: today, local time)")
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["bench"]:  # the bench modules read their own options
        which = {"solver": "engine.tools.solver_bench", "hints": "engine.tools.hints_bench"}.get(
            argv[1] if len(argv) > 1 else ""
        )
        module = importlib.import_module(which or "engine.tools.bench")
        result: int = module.main(argv[2:] if which else argv[1:])
        return result
    args = parser.parse_args(argv)
    if args.command == "daily":
        return _daily(args.date)
    try:
        game = _replay(args.code, args.moves)
    except CodeError as error:
        return _fail(str(error))
    if args.command == "show":
        print(json.dumps(game.to_dict()) if args.json else render(game))
        return 0
    if args.command == "moves":
        moves = [str(m) for m in game.legal_moves()]
        print(json.dumps(moves) if args.json else "\n".join(moves))
        return 0
    if args.time_limit <= 0:
        return _fail("--time-limit must be a positive number of seconds")
    try:
        solver = importlib.import_module("engine.search.solver")
    except ModuleNotFoundError:
        print("the solver is not part of this version yet", file=sys.stderr)
        return 3
    result_ = solver.solve(game, time_limit=args.time_limit)
    if args.json:
        print(json.dumps({"status": result_.status, "moves": list(result_.moves or [])}))
    else:
        print(result_.status)
        if result_.moves:
            print(" ".join(result_.moves))
    return 0
