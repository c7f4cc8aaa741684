"""Hints and the winnable-from-here indicator, both built on :mod:`engine.search.solver`.

``hint(game)`` answers the H key: the next move of a winning line when the solver finds one
within its work budget (:data:`HINT_NODES` positions, about a second on a Raspberry Pi 4 core;
the same hint on any machine, the clock only a safety net), else the best move by the honest
player's judgement that is not known to lose, else the reason id ``no_useful_moves`` ("undo
or start a new game"). A position proved lost gets no move at all.

The indicator runs the solver off the frame loop, in a worker process::

    indicator = Indicator()              # one worker process (spawned on first use)
    indicator.update(game)               # after every accepted move, undo or new game
    indicator.poll()                     # each frame: "won", "lost", "working" or "unknown"
    indicator.ask(earlier)               # an earlier position's verdict, worked out after
    indicator.close()                    # when the table closes

``verdict(data)`` and ``hint_data(data)`` are the same answers on ``Game.to_dict()`` with plain
data out, for any executor. ``poll`` only looks at a finished future, so it costs nothing per
frame. Positions already
decided are answered at once from a cache: every position along a found winning line is
winnable, and every move from a position proved lost stays lost.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass

from engine.game import CELL0, Game, Move, PositionKey
from engine.moves import CELL, Limit, Mode
from engine.saved import EMPTY, StateError
from engine.search.dominance import is_dead, settle
from engine.search.honest import visible_moves
from engine.search.position import apply, state_key, state_of
from engine.search.solver import solve

HINT_TIME = 2.0  # seconds: only a safety net behind HINT_NODES
# Positions the hint's search may visit. A Raspberry Pi 4 core does about a fifth of this
# machine's work, so the Pi's one second is 0.2 s of CPU here; with the stronger rule 5 (which
# costs more per position in relaxed Russian) a whole hint of 3,000 positions, fallback checks
# included, takes at most 170 ms at p99 in every rule set here (`bench hints`); 4,000 took 250.
HINT_NODES = 3000
CHECK_NODES = 300  # positions for checking a fallback move (is it known to lose?)
CHECKS = 4  # fallback moves checked so at most (the hint's whole work stays near HINT_NODES)
INDICATOR_TIME = 10.0  # seconds: only a safety net behind INDICATOR_NODES
INDICATOR_NODES = 40_000  # about ten seconds on a Pi 4 core
CACHE_SIZE = 5000
NO_USEFUL_MOVES = "no_useful_moves"


@dataclass(frozen=True)
class Hint:
    """``move`` to highlight (None when there is nothing useful to do: ``reason`` says so).
    ``status`` is the solver's verdict on the position: a ``won`` hint is on a winning line, a
    ``lost`` position gets no move at all, an ``unknown`` one a heuristic move."""

    move: Move | None
    status: str
    reason: str | None = None


def heuristic_move(game: Game) -> Move | None:
    """The honest player's favourite move here (first of its best category, no seeded
    randomness), skipping moves back to a position in the undo history and moves known to
    lose (the position after them is proved lost by rule 5 of :mod:`engine.search.solver`, or, for
    the first :data:`CHECKS` candidates, by a search of :data:`CHECK_NODES` positions). None if
    only idle shuffles are left."""
    mode = Mode.of(game.rules)
    state = state_of(game)
    earlier = {state_key(state)}
    for step in game.history:
        old = game.copy()
        before = step.before
        old.cols, old.down = list(before.cols), list(before.down)
        old.cells, old.found = list(before.cells), list(before.found)
        earlier.add(state_key(state_of(old)))
    options = sorted(visible_moves(state, mode), key=lambda item: -item[0])
    checks = CHECKS
    for category, move in options:
        if category <= 0:
            break
        after = apply(state, move)
        if state_key(after) in earlier:
            continue
        if mode.dead_check and is_dead(settle(after, mode, [], Limit()), mode):
            continue
        card, _src, _pos, dest = move
        if dest == CELL:
            dest = CELL0 + game.cells.index(EMPTY)
        chosen = Move(card, dest)
        if checks:
            checks -= 1
            trial = game.copy()
            trial.push(chosen)
            if solve(trial, time_limit=HINT_TIME, node_limit=CHECK_NODES).status == "lost":
                continue
        return chosen
    return None


def hint(game: Game, time_limit: float = HINT_TIME, *, nodes: int = HINT_NODES) -> Hint:
    """What to do next (never changes ``game``): the solver gets ``nodes`` positions, and
    ``time_limit`` seconds only as a safety net for a machine far slower than expected."""
    result = solve(game, time_limit=time_limit, node_limit=nodes)
    if result.status == "won" and result.moves:
        return Hint(Move.parse(result.moves[0]), "won")
    if result.status == "unknown":
        move = heuristic_move(game)
        if move is not None:
            return Hint(move, "unknown")
    return Hint(None, result.status, NO_USEFUL_MOVES)


def hint_data(data: object, time_limit: float = HINT_TIME) -> tuple[str | None, str, str | None]:
    """:func:`hint` on a saved game, plain data in and out (``(move notation or None, status,
    reason)``), so the table can run it in the indicator's worker instead of the frame loop.
    A damaged save gives ``(None, "unknown", "no_useful_moves")``."""
    try:
        game = Game.from_dict(data)
    except StateError:
        return None, "unknown", NO_USEFUL_MOVES
    shown = hint(game, time_limit=time_limit)
    return (str(shown.move) if shown.move else None), shown.status, shown.reason


# --------------------------------------------------------------------------- indicator


def verdict(data: object, time_limit: float = INDICATOR_TIME) -> tuple[str, list[str]]:
    """Worker entry point: ``(status, winning line)`` for a saved game (``Game.to_dict()``).
    Plain data in and out, so it runs in any executor. A damaged save gives ``unknown``."""
    try:
        game = Game.from_dict(data)
    except StateError:
        return "unknown", []
    result = solve(game, time_limit=time_limit, node_limit=INDICATOR_NODES)
    return result.status, result.moves


Key = PositionKey


def _plain_pool() -> Executor:
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


class Indicator:
    """Is the position still winnable? Worked out off the frame loop; see the module doc."""

    def __init__(
        self,
        *,
        time_limit: float = INDICATOR_TIME,
        executor: Executor | None = None,
        pool: Callable[[], Executor] | None = None,
    ) -> None:
        """``executor``: run the verdicts there (it belongs to the caller). Otherwise the
        indicator starts its worker with ``pool()`` on first use and again after one breaks
        (the game passes game.workers' factory, whose processes die with the game); without
        it, a plain one-process spawn pool."""
        self.time_limit = time_limit
        self._executor = executor
        self._own_executor = executor is None
        self._pool = pool or _plain_pool
        self._cache: OrderedDict[Key, str] = OrderedDict()
        self._current: Key | None = None
        self._status = "unknown"
        self._pending: Game | None = None
        self._running: tuple[Future[tuple[str, list[str]]], Game] | None = None
        self._asked: Game | None = None  # an earlier position asked about (:meth:`ask`)
        self._undecided: set[Key] = set()  # asked about, and the solver ran out of work

    @property
    def executor(self) -> Executor | None:
        """The pool its verdicts run in now (None before the first position, after a broken
        worker and after :meth:`close`): the game's worker registry stops its processes."""
        return self._executor

    def _remember(self, key: Key, status: str) -> None:
        self._cache[key] = status
        self._cache.move_to_end(key)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def update(self, game: Game) -> None:
        """The position changed (a move, an undo, a new game)."""
        key = game.position_key()
        self._current = key
        known = self._cache.get(key)
        if known is None and game.is_won:
            known = "won"
        if known is None and game.history:
            before = game.history[-1].before.position_key()
            if self._cache.get(before) == "lost":
                known = "lost"  # no move turns a lost position into a winnable one
        if known is not None:
            self._remember(key, known)
            self._status = known
            self._pending = None
            return
        self._status = "working"
        self._pending = game.copy()
        self._start()

    def ask(self, game: Game) -> str:
        """The verdict on ``game``'s position, which need not be the one on the table (an
        earlier one, to find the move that lost the game): "won", "lost" or "unknown" when
        decided, else "working", and it is worked out after the table's own position (the
        latest asked replaces one not yet started). Ask again for the answer."""
        key = game.position_key()
        known = self._cache.get(key)
        if known is not None:
            return known
        if key in self._undecided:
            return "unknown"
        running = self._running is not None and self._running[1].position_key() == key
        if not running:
            self._asked = game.copy()
            self._start()
        return "working"

    def _start(self) -> None:
        if self._running is not None or (self._pending is None and self._asked is None):
            return
        if self._executor is None:
            self._executor = self._pool()
        if self._pending is not None:  # the position on the table first
            game, self._pending = self._pending, None
        else:
            assert self._asked is not None
            game, self._asked = self._asked, None
        try:
            future = self._executor.submit(verdict, game.to_dict(), self.time_limit)
        except Exception:  # a dead worker (BrokenProcessPool) must not take the table down
            if self._own_executor:
                with contextlib.suppress(Exception):
                    self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None  # the next position gets a fresh worker
            if game.position_key() == self._current:
                self._status = "unknown"
            else:
                self._undecided.add(game.position_key())
            return
        self._running = (future, game)

    def poll(self) -> str:
        """``won`` (can still be won), ``lost`` (can no longer be won), ``working`` or
        ``unknown`` (the solver ran out of time). Cheap: call it every frame."""
        if self._running is not None and self._running[0].done():
            future, game = self._running
            self._running = None
            try:
                status, line = future.result()
            except Exception:  # a dead worker must not take the table down
                status, line = "unknown", []
            key = game.position_key()
            if status == "won":
                self._remember(key, "won")
                walk = game.copy()
                for move in line:
                    walk.play(move)
                    self._remember(walk.position_key(), "won")
            elif status == "lost":
                self._remember(key, "lost")
            elif key != self._current:
                if len(self._undecided) >= CACHE_SIZE:
                    self._undecided.clear()
                self._undecided.add(key)  # asked about: "unknown" from now on
            if key == self._current:
                self._status = status
            elif self._current is not None and self._current in self._cache:
                self._status = self._cache[self._current]
            self._start()
        return self._status

    def close(self) -> None:
        if self._own_executor and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
        self._running = None
