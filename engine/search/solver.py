"""Exact solver: is there a line of play that wins from here, and which one (docs/codes.md).

The solver sees the hidden cards. It searches its own compact position, with a set of
canonical keys (every column is interchangeable, and so is every free cell), and never
recurses. A verdict is ``won`` (with a line that replays through :meth:`Game.play`), ``lost``
(every reachable position was searched or proved lost) or ``unknown`` (the work budget or the
time ran out).

Two searches share the work (:func:`solve`): a best-first search (:class:`_BestFirst`, the
most promising position by :func:`promise` first), which finds most wins soonest and whose
queue running dry proves ``lost``, and short depth-first probes (:class:`_Search`, moves
scored by kind: turn a card up, free a column, dig where a foundation waits, ...; in Seahaven
each child settled first and ranked by :func:`promise`) with a seeded shuffle of similar moves
on each retry, which dive to a win that the best-first order would reach late. Where building
ignores suits, a few plays of the honest player (:mod:`engine.search.honest`) come first, and beam
searches (:mod:`engine.search.beam`: a narrow one after the first best-first round, a wide one
later) run where the budget can pay for them. Move order decides how fast a win is found,
never the verdict.

The position and its moves are in :mod:`engine.search.position`, the move order in
:mod:`engine.search.ordering`, and why the search may skip moves and still be exact (lemmas 1 and 2,
rules 3 to 5, completeness) in :mod:`engine.search.dominance`.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.game import CELL0, EMPTY, Game, Move
from engine.moves import CELL, IMove, Limit, Mode
from engine.search.beam import beam_search
from engine.search.dominance import is_dead, settle
from engine.search.honest import MAX_MOVES, play_path
from engine.search.ordering import generate, promise
from engine.search.position import State, apply, is_won_state, state_key, state_of

CHECK_EVERY = 256  # nodes between clock checks
DEAD_EVERY = 8  # rule 5 is asked while the count of new positions is a multiple of this
FIRST_BUDGET = 1000  # nodes for the first best-first round; each round gets twice as many
PROBE_SHARE = 4  # a depth-first probe gets a quarter of the next best-first round
HONEST_PLAYS = 8  # plays of the honest player tried first where building ignores suits
# The beam searches (engine.search.beam) where building ignores suits: round of solve() -> (width,
# positions at most). A beam runs only where its whole budget is left: a narrow one early, a
# wide one (slower, but it wins the long rearrangements the narrow one misses) later.
BEAMS = {1: (20, 8_000), 4: (300, 150_000)}
BEAM_WIDTH = BEAMS[1][0]  # the narrow beam's width


@dataclass(frozen=True)
class SolveResult:
    """``status`` is ``won`` / ``lost`` / ``unknown``; ``moves`` the winning line (move strings)."""

    status: str
    moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


class _OutOfTime(Exception):
    pass


class _OutOfBudget(Exception):
    pass


class _Search:
    def __init__(
        self, mode: Mode, deadline: float, budget: int = 0, noise: random.Random | None = None
    ) -> None:
        self.mode = mode
        self.deadline = deadline
        self.budget = budget or (1 << 62)
        self.noise = noise
        self.limit = Limit()
        self.nodes = 0

    def run(self, start: State) -> tuple[str, list[IMove]]:
        """Depth-first search with an explicit stack; ``won`` with the internal line, ``lost``
        when every reachable position was seen (in any move order, that is a proof). Raises
        _OutOfTime at the deadline and _OutOfBudget past the node budget."""
        mode, limit, noise = self.mode, self.limit, self.noise
        line: list[IMove] = []
        state = settle(start, mode, line, limit)
        if is_won_state(state):
            return "won", line
        seen = {state_key(state)}
        ranked = mode.ranked
        frame = self._children(state, seen, noise) if ranked else []
        stack: list[tuple[State, list[Any], int]] = [
            (state, frame if ranked else generate(state, mode, limit, noise), 0)
        ]
        path: list[list[IMove]] = []
        nodes = 0
        deadline, budget = self.deadline, self.budget
        clock = time.monotonic
        while stack:
            state, moves, k = stack[-1]
            if k >= len(moves):
                stack.pop()
                if path:
                    path.pop()
                continue
            stack[-1] = (state, moves, k + 1)
            if ranked:
                child, edge = moves[k]
            else:
                edge = [moves[k]]
                child = settle(apply(state, moves[k]), mode, edge, limit)
            if is_won_state(child):
                self.nodes = nodes
                return "won", line + [m for step in path for m in step] + edge
            if not ranked:
                key = state_key(child)
                if key in seen:
                    continue
                seen.add(key)
            nodes += 1
            if nodes % CHECK_EVERY == 0:
                self.nodes = nodes
                if clock() > deadline:
                    raise _OutOfTime
                if nodes > budget:
                    raise _OutOfBudget
            if ranked:
                children: list[Any] = self._children(child, seen, noise)
                stack.append((child, children, 0))
            else:
                stack.append((child, generate(child, mode, limit, noise), 0))
            path.append(edge)
        self.nodes = nodes
        return "lost", []

    def _children(
        self, state: State, seen: set[bytes], noise: random.Random | None
    ) -> list[tuple[State, list[IMove]]]:
        """Every new settled child, most promising first (by :func:`promise`, then
        by move order). Children are marked seen here; each is searched from this frame."""
        mode, limit = self.mode, self.limit
        scored: list[tuple[int, int, State, list[IMove]]] = []
        for k, move in enumerate(generate(state, mode, limit, noise)):
            edge = [move]
            child = settle(apply(state, move), mode, edge, limit)
            if is_won_state(child):
                return [(child, edge)]
            key = state_key(child)
            if key in seen:
                continue
            seen.add(key)
            scored.append((-promise(child, mode), k, child, edge))
        scored.sort(key=_two)
        return [(child, edge) for _, _, child, edge in scored]


class _BestFirst:
    """Best-first search over settled positions, most promising (:func:`promise`) first, ties
    to the newest; resumable, so :func:`solve` can share its time with the depth-first probes.

    It is exhaustive: every generated move of every position taken from the queue is tried,
    unless rule 5 proves that position lost (asked of the start, of every position taken while
    the count of new positions is a multiple of DEAD_EVERY, which does not move while
    expansions find only positions met before, and while the queue is nearly empty: where
    positions are lost, most expansions find nothing new, so the rule is asked most where it
    pays; counting expansions instead made two relaxed bench positions far slower); and a
    position is dropped
    only when it (or the unsettled position it settles from) was met before. Settling is a
    function of the position, so an unsettled position met again settles to a position met
    before. The queue running dry is therefore a proof of ``lost``, on the same grounds as the
    depth-first search's (the lemmas and rules above).
    """

    def __init__(self, start: State, mode: Mode) -> None:
        self.mode = mode
        self.limit = Limit()
        self.line: list[IMove] = []
        state = settle(start, mode, self.line, self.limit)
        self.start = state  # settled
        key = state_key(state)
        self.won: list[IMove] | None = list(self.line) if is_won_state(state) else None
        self.parents: dict[bytes, tuple[bytes, list[IMove]]] = {key: (b"", [])}
        self.seen: set[bytes] = {key}  # settled keys and the unsettled ones met
        self.queue: list[tuple[int, int, State, bytes]] = [(0, 0, state, key)]
        self.nodes = 0

    def step(self, budget: int, deadline: float) -> str | None:
        """Search ``budget`` more positions at most: ``won`` / ``lost``, or None when the
        budget is spent. Raises _OutOfTime at the deadline."""
        if self.won is not None:
            return "won"
        mode, limit, seen, parents, queue = (
            self.mode,
            self.limit,
            self.seen,
            self.parents,
            self.queue,
        )
        stop = self.nodes + budget
        nodes = self.nodes
        clock = time.monotonic
        push, pop = heapq.heappush, heapq.heappop
        while queue:
            if nodes >= stop:
                self.nodes = nodes
                return None
            _, _, state, key = pop(queue)
            if (
                mode.dead_check
                and (nodes % DEAD_EVERY == 0 or len(queue) < 2)
                and is_dead(state, mode)
            ):
                continue  # rule 5: lost, and so is everything after it
            for move in generate(state, mode, limit):
                raw = apply(state, move)
                raw_key = state_key(raw)
                if raw_key in seen:
                    continue
                seen.add(raw_key)
                edge = [move]
                child = settle(raw, mode, edge, limit)
                if is_won_state(child):
                    self.nodes = nodes
                    self.won = self._path(key) + edge
                    return "won"
                child_key = state_key(child)
                if child_key != raw_key:
                    if child_key in seen:
                        continue
                    seen.add(child_key)
                parents[child_key] = (key, edge)
                nodes += 1
                if nodes % CHECK_EVERY == 0 and clock() > deadline:
                    self.nodes = nodes
                    raise _OutOfTime
                push(queue, (-promise(child, mode), -nodes, child, child_key))
        self.nodes = nodes
        return "lost"

    def _path(self, key: bytes) -> list[IMove]:
        steps: list[list[IMove]] = []
        while key:
            key, edge = self.parents[key]
            steps.append(edge)
        return self.line + [m for edge in reversed(steps) for m in edge]


def _two(item: tuple[int, int, State, list[IMove]]) -> tuple[int, int]:
    return item[0], item[1]


def to_notation(game: Game, line: Iterable[IMove]) -> list[str]:
    """Replay an internal line on a copy of ``game`` through :meth:`Game.play`, naming real free
    cells; IllegalMove if the line is wrong (a bug: tests replay every line)."""
    replay = game.copy()
    out: list[str] = []
    for card, _src, _pos, dest in line:
        if dest == CELL:
            dest = CELL0 + replay.cells.index(EMPTY)
        out.append(str(replay.play(Move(card, dest))))
    if not replay.is_won:
        raise AssertionError(f"solver line does not win {game.code}")
    return out


def solve(game: Game, time_limit: float = 10.0, *, node_limit: int = 0) -> SolveResult:
    """Decide ``game`` from its current position; never changes it. ``unknown`` when ``time_limit``
    seconds pass or, if given, ``node_limit`` positions have been searched (a node limit gives the
    same verdicts on any machine under any load: the catalogs and the hint use it; the clock is only
    a safety net):

    >>> solve(Game.from_code("SH1-C4-AAAAAJ2"), node_limit=2000).moves[:4]  # a win's first moves
    ['4D-c3', 'AD-f', '2D-f', '5S-t4']

    The two searches of the module text share the work, in rounds. In round k the best-first search
    goes on where it stopped for ``FIRST_BUDGET << k`` positions, and a depth-first probe gets a
    quarter of that, from the start, its move order shuffled a little by a generator seeded with k
    (so results never depend on chance). Where building ignores suits (:attr:`Mode.dive_first`: most
    positions are won, and a quick dive finds many wins at once) the probe comes first in each
    round, else after; there the first round also tries the honest plays, and the rounds of
    ``BEAMS`` start with a beam search when its whole budget is left (never in a hint's 3,000: a
    beam pays off only whole). Any search that ends decides the position: a win is a win, and a
    search that saw every reachable position (or proved it lost by rule 5) proves ``lost`` whatever
    its order. The probes repeat work, but take at most a fifth of it."""
    started = time.monotonic()
    if game.is_won:
        return SolveResult("won", [], 0, 0.0)
    mode = Mode.of(game.rules)
    start = state_of(game)
    deadline = started + max(0.0, time_limit)
    best = _BestFirst(start, mode)
    probed = 0
    attempt = 0
    status: str | None = None
    line: list[IMove] = []

    def left() -> int:
        return node_limit - best.nodes - probed if node_limit else 1 << 62

    def probe(budget: int) -> str | None:
        nonlocal line, probed
        noise = random.Random(attempt) if attempt else None
        search = _Search(mode, deadline, min(budget, left()), noise)
        try:
            verdict, line = search.run(start)
        except _OutOfBudget:
            verdict = None
        probed += search.nodes
        return verdict

    def honest() -> str | None:
        """A few plays of the honest player (engine.search.honest): where building ignores suits it
        wins most won positions that the first probe misses, in a few dozen moves. Each move
        counts as a position searched, so the budget and the verdicts stay machine-free."""
        nonlocal line, probed
        for seed in range(HONEST_PLAYS):
            if left() <= 0:
                break
            made: list[IMove] = []
            won, path = play_path(start, mode, seed, moves=made, max_moves=min(MAX_MOVES, left()))
            probed += len(path)
            if won:
                line = made
                return "won"
        return None

    def beam(width: int, budget: int) -> str | None:
        """The beam search of engine.search.beam from the settled start, within the budget."""
        nonlocal line, probed
        found, made = beam_search(best.start, mode, width, budget, deadline)
        probed += made
        if found is None:
            return None
        line = best.line + found
        return "won"

    if best.won is None and mode.dead_check and is_dead(best.start, mode):
        status = "lost"  # rule 5 at once: no probe needed

    try:
        while status is None and left() > 0:
            budget = FIRST_BUDGET << attempt
            if mode.dive_first:
                status = probe(budget // PROBE_SHARE)
                if status is None and attempt == 0 and left() > 0:
                    status = honest()
                width, most = BEAMS.get(attempt, (0, 0))
                if status is None and width and left() >= most:
                    status = beam(width, most)
                if status is not None or left() <= 0:
                    break
            status = best.step(min(budget, left()), deadline)
            if status is not None:
                line = best.won or []
                break
            if not mode.dive_first and left() > 0:
                status = probe(budget // PROBE_SHARE)
            attempt += 1
    except _OutOfTime:
        status = None
    nodes = best.nodes + probed
    if status is None:
        return SolveResult("unknown", [], nodes, time.monotonic() - started)
    moves = to_notation(game, line) if status == "won" else []
    return SolveResult(status, moves, nodes, time.monotonic() - started)


def first_move(state: State, mode: Mode, node_limit: int) -> IMove | None:
    """The first move of a winning line from an internal position, found by one search of at
    most ``node_limit`` positions (no clock: the same answer on any machine); None when the
    search proves the position lost or runs out of positions. The honest player's one hint."""
    search = _Search(mode, float("inf"), node_limit)
    try:
        status, line = search.run(state)
    except _OutOfBudget:
        return None
    return line[0] if status == "won" and line else None
