"""The honest player and the levels it grades (issue 3, as on the website of seed 003).

The honest player sees only face-up cards, never undoes and never takes a card back from a
foundation. Each turn it sorts the moves it can see into a few plain categories (to a
foundation, turn up a hidden card, free a column, ...), plays one of the best category, and
breaks ties with a seeded SplitMix64 draw, so a play is a pure function of the deal and the
seed. It never returns to a position it has already been in, and stops when it has nothing left
but idle shuffles.

Each winnable deal is played :data:`PLAYS` times. As the website puts it, Easy deals are those
where the player "wins at least 24 of 32, or where one hint of ours leads to victory": each lost
play is replayed with one hint, given where the player went wrong (the last position of its
play from which our solver still finds a win), and a deal is Easy when at least
:data:`EASY_WINS` plays win by themselves or with that one hint. Hard: the player never wins
by itself (and it is not Easy); Medium: between.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from engine.game import Game
from engine.moves import IMove, Mode
from engine.search.honest import MAX_MOVES, play_path
from engine.search.position import State, apply, state_key, state_of

PLAYS = 32
EASY_WINS = 24
HINT_NODES = 5000  # positions the solver may search for the one hint a lost play gets
HINT_SALT = 0x5BD1E995  # the tie-break stream after a hint differs from the one before
LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Grade:
    """``wins`` of ``plays`` unaided; ``hinted``: lost plays won with one hint (counted until
    the level was settled, so at most what easy needs)."""

    wins: int
    plays: int
    hinted: int = 0

    @property
    def level(self) -> str:
        if level_of(self.wins + self.hinted, self.plays) == "easy":
            return "easy"  # it wins by itself, or one hint of ours leads it to victory
        return level_of(self.wins, self.plays)


def level_of(wins: int, plays: int = PLAYS) -> str:
    """Easy: at least 24 of 32 (the same share of other counts); Hard: none; Medium: between."""
    if wins <= 0:
        return "hard"
    if wins * PLAYS >= EASY_WINS * plays:
        return "easy"
    return "medium"


def honest_play(game: Game, seed: int, *, max_moves: int = MAX_MOVES) -> bool:
    """One play of the honest player from the position of ``game`` (unchanged); True if won."""
    return play_path(state_of(game), Mode.of(game.rules), seed, max_moves=max_moves)[0]


Hints = dict[bytes, "IMove | None"]


def hinted_play(path: list[State], mode: Mode, seed: int, hints: Hints | None = None) -> bool:
    """Replay a lost honest play with one hint: at the last position of ``path`` from which our
    solver still finds a win (within :data:`HINT_NODES` positions), the player takes the hint's
    move instead of its own and plays on honestly. True if that wins. ``hints`` caches the
    solver's answers per position (plays of one deal share positions)."""
    hints = {} if hints is None else hints
    at = hint_point(path, mode, hints)
    if at < 0:
        return False  # no position of this play is won within the hint's search
    move = hints[state_key(path[at])]
    assert move is not None
    seen = {state_key(p) for p in path[: at + 1]}
    return play_path(apply(path[at], move), mode, seed ^ HINT_SALT, seen)[0]


def hint_point(path: list[State], mode: Mode, hints: Hints) -> int:
    """Where a lost play went wrong: the index of the last position of ``path`` from which the
    solver finds a win within :data:`HINT_NODES` positions (-1: none). Fills ``hints``."""
    from engine.search.solver import first_move  # the game reads only LEVELS: not at import

    def winnable(i: int) -> bool:
        key = state_key(path[i])
        if key not in hints:
            hints[key] = first_move(path[i], mode, HINT_NODES)
        return hints[key] is not None

    # Once a play has left every winning line it cannot come back (it never undoes), so the
    # winnable positions are a prefix of the path: find its end by bisection.
    lo, hi = -1, len(path)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if winnable(mid):
            lo = mid
        else:
            hi = mid
    return lo


def wins_once(game: Game, *, plays: int = PLAYS, seed: int = 0) -> bool:
    """Does one of the honest player's ``plays`` plays of ``game`` win (the plays of
    :func:`judge`, in the same order)? Such a win proves the deal winnable and not hard."""
    mode = Mode.of(game.rules)
    start = state_of(game)
    return any(play_path(start, mode, play_seed(game.number, seed, k))[0] for k in range(plays))


def play_seed(number: int, seed: int, play: int) -> int:
    """The tie-break seed of one play: a pure function of deal number, grading seed and play."""
    return (number * 0x9E3779B1 + seed * 0x85EBCA77 + play * 0xC2B2AE3D) & ((1 << 64) - 1)


def grade(game: Game, *, plays: int = PLAYS, seed: int = 0) -> Grade:
    """Play ``game`` ``plays`` times with the honest player (and each lost play once more with
    one hint, until the level is settled); deterministic for ``seed``."""
    result = judge(game, LEVELS, plays=plays, seed=seed)
    assert result is not None
    return result


def judge(game: Game, want: Collection[str], *, plays: int = PLAYS, seed: int = 0) -> Grade | None:
    """:func:`grade`, or None as soon as the level is sure not to be one of ``want`` (the
    catalog build asks only for the levels it still needs, which saves most of the work)."""
    mode = Mode.of(game.rules)
    start = state_of(game)
    easy_at = -(-EASY_WINS * plays // PLAYS)  # the fewest wins that make a deal easy
    wins = 0
    lost: list[tuple[int, list[State]]] = []
    for k in range(plays):
        play = play_seed(game.number, seed, k)
        won, path = play_path(start, mode, play)
        if won:
            wins += 1
            if "easy" not in want and ("medium" not in want or wins >= easy_at):
                return None  # won once: not hard; won often enough: easy
        else:
            lost.append((play, path))
    if wins >= easy_at:
        return Grade(wins, plays) if "easy" in want else None
    if "easy" not in want and level_of(wins, plays) not in want:
        return None
    hinted = failed = 0
    spare = len(lost) - (easy_at - wins)  # hinted plays that may fail with the deal still easy
    hints: Hints = {}
    for play, path in lost:
        if wins + hinted >= easy_at or failed > spare:
            break
        if hinted_play(path, mode, play, hints):
            hinted += 1
        else:
            failed += 1
    result = Grade(wins, plays, hinted)
    return result if result.level in want else None
