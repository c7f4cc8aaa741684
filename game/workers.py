"""The solver's worker processes, all owned here: the hint, the winnable-from-here indicator and
the attract screen's search each run in a process of their own, off the frame loop, and
:meth:`Workers.close` is the one way they all stop (quit: nothing outlives the game).

A pool is started on first use; one that breaks (a dead worker, no /dev/shm) is stopped and the
next question starts a fresh one. Stopping gives a worker WORKER_GRACE seconds to exit, then
terminates it: ``shutdown(wait=False)`` alone can leave a stuck solve running (CPython's own
races around it, e.g. python/cpython#83386, #132969). Must not import pygame.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import threading
import time
from concurrent.futures import CancelledError, Executor, Future, ProcessPoolExecutor
from multiprocessing.connection import wait as wait_ready
from typing import TYPE_CHECKING, Any, Protocol

from engine import Game, IllegalMove, Move
from game.kiosk.lifeline import die_with_parent

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

log = logging.getLogger("solitaire.workers")

HINT_SECONDS = 1.0  # the solver's time for a hint (in the hint worker, off the frame loop)
WORKER_GRACE = 1.0  # seconds a stopped worker gets to exit before it is terminated


class LostPosition(LookupError):
    """The solver proved that no line of play wins from the position (moves may remain).
    A LookupError: to a caller that only wants a move, there is none to offer."""


class Indicator(Protocol):
    """What the table needs of the winnable indicator (engine.search.hints.Indicator)."""

    def update(self, game: Game) -> None: ...
    def poll(self) -> str: ...
    def ask(self, game: Game) -> str:
        """The verdict on an earlier position ("working" until it is known: ask again)."""
        ...

    def close(self) -> None: ...
    @property
    def executor(self) -> Executor | None:
        """Its worker pool now, whose processes close_indicator makes sure end."""


def _spawn_pool() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=die_with_parent
    )


def worker_processes(executor: Executor) -> list[BaseProcess]:
    """The executor's worker processes (multiprocessing.Process objects with ``pid``,
    ``is_alive()``); the one place that reads its ``_processes``, public only from Python 3.14."""
    return list((getattr(executor, "_processes", None) or {}).values())


def reap(processes: list[BaseProcess]) -> None:
    """Give ``processes`` WORKER_GRACE seconds to exit, then terminate (and kill) the rest.

    Watches each process's sentinel (readable once it has exited) rather than joining it: the
    executor's own thread may be joining the same processes, and two threads reaping one child
    race (the loser sees no child and takes it for alive)."""

    def still_running(left: list[BaseProcess], seconds: float) -> list[BaseProcess]:
        deadline = time.monotonic() + seconds
        while left:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            try:
                done = set(wait_ready([p.sentinel for p in left], remaining))
            except Exception:  # a closed or broken process object: nothing more to do
                return []
            left = [p for p in left if p.sentinel not in done]
        return left

    left = still_running(list(processes), WORKER_GRACE)
    for stop in ("terminate", "kill"):
        for process in left:
            with contextlib.suppress(Exception):
                getattr(process, stop)()
        left = still_running(left, 1.0)


def _stop(executor: Executor, *, wait: bool) -> None:
    """Shut ``executor`` down and make sure its processes end (see :func:`reap`)."""
    processes = worker_processes(executor)
    with contextlib.suppress(Exception):
        executor.shutdown(wait=False, cancel_futures=True)
    _reap(processes, wait=wait)


def _reap(processes: list[BaseProcess], *, wait: bool) -> None:
    """:func:`reap` now (``wait``) or in a background thread (the frame loop goes on)."""
    if wait:
        reap(processes)
    elif processes:
        threading.Thread(target=reap, args=(processes,), name="worker-reaper", daemon=True).start()


class Workers:
    """Every solver process of the game. Pools are named by their job ("hint", "demo"); an
    executor handed in with :meth:`use` (tests) belongs to whoever made it unless ``own``."""

    def __init__(self) -> None:
        self._pools: dict[str, Executor] = {}
        self._owned: set[str] = set()
        self._indicators: dict[int, Indicator] = {}
        self.spawned: dict[str, int] = {}  # pools started per job (restarts: game.kiosk.metrics)
        # False: no pool is started, a question stays unanswered (a screenshot is taken before
        # any answer could come, and a worker process would cost it more than the picture).
        self.starts = True

    # ----------------------------------------------------------------- pools
    def use(self, job: str, executor: Executor, *, own: bool = False) -> None:
        """Run ``job`` in ``executor`` (tests: a hand-driven executor)."""
        self.stop(job)
        self._owned.discard(job)
        self._pools[job] = executor
        if own:
            self._owned.add(job)

    def pools(self) -> list[Executor]:
        """Every pool the workers use now."""
        return list(self._pools.values())

    def pool(self, job: str) -> Executor | None:
        """The executor running ``job`` now, or None before its first question."""
        return self._pools.get(job)

    def _submit(self, job: str, fn: Any, *args: Any) -> Future[Any]:
        """``fn(*args)`` in the ``job`` pool (started when needed). A pool that cannot start
        or has broken gives a future that fails, and the next question gets a fresh one."""
        try:
            executor = self._pools.get(job)
            if executor is None and not self.starts:
                return Future()  # never answered
            if executor is None:
                executor = self._pools[job] = _spawn_pool()
                self._owned.add(job)
                self.spawned[job] = self.spawned.get(job, 0) + 1
            return executor.submit(fn, *args)
        except Exception as error:  # no worker (BrokenProcessPool, no /dev/shm, ...)
            log.warning("%s worker unavailable: %r", job, error)
            self.stop(job)
            failed: Future[Any] = Future()
            failed.set_exception(LookupError(f"no {job} worker"))
            return failed

    def stop(self, job: str, *, wait: bool = False) -> None:
        """Stop the ``job`` pool (it broke or got stuck); the next question starts a new one.
        An executor handed in from outside belongs to whoever made it and stays."""
        if job not in self._owned:
            return
        self._owned.discard(job)
        executor = self._pools.pop(job, None)
        if executor is not None:
            _stop(executor, wait=wait)

    def close(self, *, wait: bool = False) -> None:
        """Stop every worker: the one shutdown path (quit, operator exit). With ``wait`` no
        process is left when it returns."""
        for indicator in list(self._indicators.values()):
            self.close_indicator(indicator, wait=wait)
        for job in list(self._pools):
            self.stop(job, wait=wait)

    # ----------------------------------------------------------------- hints
    def ask_hint(self, game: Game) -> Future[Any]:
        """Start the solver on a copy of ``game`` in the hint worker and return at once; read
        the finished future with :meth:`hint_answer`."""
        from engine.search import hints  # the solver, imported with the first question

        return self._submit("hint", hints.hint_data, game.to_dict(), HINT_SECONDS)

    def hint_answer(self, future: Future[Any]) -> Move | None:
        """The finished ``future`` of :meth:`ask_hint`: the move, or None when the solver has
        none to offer. LookupError when the solver failed (the next hint gets a fresh worker);
        LostPosition when no line of play wins from here; IllegalMove("no_useful_moves") when
        the position is stuck."""
        try:
            result = future.result(timeout=0)
        except Exception as error:  # a dead worker or a solver bug: no hint, never a crash
            log.warning("hint failed: %r", error)
            if not isinstance(error, CancelledError):
                self.stop("hint")
            raise LookupError("the solver failed") from error
        return read_hint(result)

    # ----------------------------------------------------------------- the indicator
    def indicator(self) -> Indicator | None:
        """The winnable-from-here indicator (engine.search.hints.Indicator: a worker process of its
        own, made here so that it dies with the game, replaced when it breaks); None when none
        can start (the game goes on)."""
        from engine.search import hints

        try:
            made = hints.Indicator(pool=_spawn_pool)
        except Exception as error:
            log.warning("winnable indicator unavailable: %r", error)
            return None
        self._indicators[id(made)] = made
        return made

    def close_indicator(self, indicator: Indicator, *, wait: bool = False) -> None:
        """Stop ``indicator`` and make sure its worker process ends."""
        executor = getattr(indicator, "executor", None)  # its pool (a stand-in may have none)
        processes = worker_processes(executor) if executor is not None else []
        try:
            indicator.close()
        finally:
            self._indicators.pop(id(indicator), None)
            _reap(processes, wait=wait)

    # ----------------------------------------------------------------- the attract screen
    def solve(self, game: Game, seconds: float) -> Future[tuple[str, list[str]]]:
        """A search for a winning line from ``game`` (``(status, moves)``), in the demo
        worker: the attract screen's loop keeps running meanwhile."""
        from engine.search import hints

        return self._submit("demo", hints.verdict, game.to_dict(), seconds)


def read_hint(result: tuple[str | None, str, str | None]) -> Move | None:
    """The hint worker's ``(move notation or None, status, reason)`` (engine.search.hints.hint_data)
    as :meth:`Workers.hint_answer` answers it."""
    notation, status, reason = result
    if notation is None:
        if status == "lost":
            raise LostPosition
        if reason == "no_useful_moves":
            raise IllegalMove("no_useful_moves")
        return None
    try:
        return Move.parse(notation)
    except IllegalMove:  # a worker answer that is no move: no hint
        log.warning("hint worker answered %r, not a move", notation)
        return None
