"""The loop: events -> gestures -> scenes, a fixed 60 Hz update, and a draw that only touches
what changed (an idle table draws nothing and the loop sleeps on the event queue)."""

from __future__ import annotations

import contextlib
import multiprocessing
import random
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import CancelledError, Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
from pygame import Rect

from engine import Game, IllegalMove, Move, catalog, hints
from engine.rules import Rules
from game.clock import FixedClock
from game.display import Presenter
from game.i18n import Translator
from game.input import DoubleTap, GestureReader, InputTuning, Tap
from game.layout import estimate_px_per_mm
from game.lifeline import die_with_parent
from game.prefs import PlayerSettings
from game.scenes import Event, Scene

if TYPE_CHECKING:
    from game.kiosk_ui import KioskController

DEAL_NUMBERS = 2**35


@dataclass
class GameChoice:
    """What a new game is made of when no code is given."""

    game: str = "russian"  # "russian" / "seahaven"
    russian_rules: str = "classic"  # "classic" / "relaxed"
    seahaven_cells: int = 4
    level: str = "any"  # "easy" / "medium" / "hard" / "any"
    winnable_only: bool = False

    def deal_level(self) -> str:
        """The catalog level to pick from: Russian has levels; Seahaven's difficulty is its
        free cells, so it asks only for a winnable deal (or any)."""
        if self.game == "russian" and self.level in ("easy", "medium", "hard"):
            return self.level
        return "winnable" if self.winnable_only else "any"

    def following(self, rules: Rules) -> GameChoice:
        """This choice for the game and rules of ``rules`` (level and the like kept)."""
        if rules.game == "seahaven":
            return replace(self, game="seahaven", seahaven_cells=rules.cells)
        return replace(
            self, game="russian", russian_rules="classic" if rules.same_suit else "relaxed"
        )

    def rules_key(self) -> str:
        if self.game == "seahaven":
            return f"SH1-C{self.seahaven_cells}"
        return "RU1-R" if self.russian_rules == "relaxed" else "RU1-C"


class TableHooks:
    """What the table reports; subclass or duck-type any subset (game.session.Session does).
    A move that wins is reported by ``moved`` (check ``game.is_won``)."""

    def started(self, game: Game) -> None: ...
    def moved(self, game: Game, move: object) -> None: ...
    def undone(self, game: Game) -> None: ...
    def ended(self, game: Game, result: str) -> None: ...
    def tick(self, dt: float) -> None: ...
    def shutdown(self, game: Game) -> None: ...


HINT_SECONDS = 1.0  # the solver's time for a hint (in the hint worker, off the frame loop)
WORKER_GRACE = 1.0  # seconds a stopped hint worker gets to exit before it is terminated


class LostPosition(LookupError):
    """The solver proved that no line of play wins from the position (moves may remain).
    A LookupError: to a caller that only wants a move, there is none to offer."""


def _reap(processes: list[Any]) -> None:
    """Give ``processes`` WORKER_GRACE seconds to exit, then terminate (and kill) the rest.

    Watches each process's sentinel (readable once it has exited) rather than joining it: the
    executor's own thread may be joining the same processes, and two threads reaping one child
    race (the loser sees no child and takes it for alive)."""
    from multiprocessing.connection import wait as wait_ready

    def still_running(left: list[Any], seconds: float) -> list[Any]:
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


class App:
    """Owns the screen, the clock, the gesture reader, the settings and the scene stack."""

    def __init__(
        self,
        screen: pygame.Surface,
        *,
        settings: PlayerSettings | None = None,
        save_settings: Callable[[PlayerSettings], object] | None = None,
        tuning: InputTuning | None = None,
        px_per_mm: float | None = None,
        choice: GameChoice | None = None,
        code: str | None = None,
        game: Game | None = None,
        elapsed: float = 0.0,
        rng: random.Random | None = None,
        undo_depth: int = 100,
        rotate: int = 0,
    ) -> None:
        # The game draws on a logical surface; the presenter shows it (turned when asked).
        self.presenter = Presenter(screen, rotate)
        self.screen = self.presenter.surface
        # The player's toggles and language (game.prefs); saving is whoever owns the state
        # directory (launch: prefs.save_prefs into the state directory).
        self.settings = settings if settings is not None else PlayerSettings()
        self._save_settings = save_settings
        self.tr = Translator(self.settings.locale)
        self._px_per_mm = px_per_mm
        self.clock = FixedClock()
        self.reader = GestureReader(tuning, self.px_per_mm)
        self.choice = choice or GameChoice()
        self.rng = rng or random.Random()
        self.undo_depth = undo_depth
        self.scenes: list[Scene] = []
        self.running = True
        self.full_redraw = True
        self.frames_drawn = 0
        # Autosave, statistics and logs hook in here (see TableHooks); the kiosk's Session fits.
        self.hooks: list[TableHooks] = []
        # Raw events pass these first (kiosk lock, idle timer); one returning False drops it.
        self.event_filters: list[Callable[[pygame.event.Event], bool]] = []
        self.kiosk: KioskController | None = None  # set by game.kiosk_ui.attach_kiosk
        self.exit_status = 0  # main.py's exit status (the operator's exit: 64)
        self._tapped: Scene | None = None  # the scene on top when the last tap came
        # The hint search runs here, off the frame loop: one worker process started on the
        # first hint (tests may set any Executor before that; the App does not own it then).
        self.hint_executor: Executor | None = None
        self._own_hint_executor = False
        self._has_levels: dict[str, bool] = {}  # per rule set: see has_levels
        from game.table import TableScene

        if game is None:
            game = self.new_game(code) if code else self.new_game()
        self.table = TableScene(self, game)
        self.table.elapsed = elapsed
        self.push(self.table)

    @property
    def px_per_mm(self) -> float:
        """The configured pixels per millimetre, else a guess from the screen size."""
        return self._px_per_mm or estimate_px_per_mm(*self.screen.get_size())

    # ----------------------------------------------------------------- games
    def new_game(self, code: str | None = None) -> Game:
        """A game from ``code`` (CodeError when bad), else a deal for the current choice: from
        the solver's catalog at the chosen level when there is one, else a random deal."""
        if code:
            return Game.from_code(code, history_limit=self.undo_depth)
        key = self.choice.rules_key()
        level = self.choice.deal_level()
        if level != "any":
            try:
                picked = catalog.pick(key, level, self.rng)
                return Game.from_code(picked, history_limit=self.undo_depth)
            except Exception as error:  # a missing or damaged catalog never stops a new game
                print(f"deal catalog: {error!r}; dealing at random", file=sys.stderr)
        number = self.rng.randrange(DEAL_NUMBERS)
        return Game.from_code(f"{key}-{_number_code(number)}", history_limit=self.undo_depth)

    def make_indicator(self) -> hints.Indicator | None:
        """The solver's winnable-from-here indicator (a worker process), or None."""
        try:
            return hints.Indicator()
        except Exception as error:  # no worker: no indicator, the game goes on
            print(f"winnable indicator unavailable: {error!r}", file=sys.stderr)
            return None

    def has_levels(self, rules_key: str) -> bool:
        """Whether the deal catalog of ``rules_key`` has deals to choose a level from (read
        once: the catalogs ship with the game). A missing or damaged one has none."""
        known = self._has_levels.get(rules_key)
        if known is None:
            try:
                known = any(catalog.load(rules_key).levels.values())
            except Exception as error:  # a damaged catalog hides the levels, nothing else
                print(f"deal catalog: {error!r}; no levels to choose", file=sys.stderr)
                known = False
            self._has_levels[rules_key] = known
        return known

    def hint(self, game: Game) -> Move | None:
        """The solver's next move for ``game``, worked out here and now (the caller waits up to
        HINT_SECONDS); None when it has none to offer. LookupError when the solver failed;
        LostPosition when no line of play wins from here; IllegalMove("no_useful_moves") when
        the position is stuck. The table uses :meth:`ask_hint` instead, which never blocks the
        frame loop."""
        try:
            result = hints.hint(game, time_limit=HINT_SECONDS)
        except IllegalMove:
            raise
        except Exception as error:  # a solver bug must not end a game in a public place
            print(f"hint failed: {error!r}", file=sys.stderr)
            raise LookupError("the solver failed") from error
        return read_hint(result)

    def ask_hint(self, game: Game) -> Future[Any]:
        """Start the solver on a copy of ``game`` in the hint worker and return at once. The
        future's answer goes through :meth:`hint_answer`; a worker that cannot start or has
        died gives a future that fails (the next hint gets a fresh worker)."""
        try:
            if self.hint_executor is None:
                self.hint_executor = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=die_with_parent,  # no worker outlives a hard-killed game
                )
                self._own_hint_executor = True
            return self.hint_executor.submit(hints.hint_data, game.to_dict(), HINT_SECONDS)
        except Exception as error:  # no worker (BrokenProcessPool, no /dev/shm, ...)
            print(f"hint worker unavailable: {error!r}", file=sys.stderr)
            self.close_hint_worker()
            failed: Future[Any] = Future()
            failed.set_exception(LookupError("no hint worker"))
            return failed

    def hint_answer(self, future: Future[Any]) -> Move | None:
        """The finished ``future`` of :meth:`ask_hint` read as :meth:`hint` answers (the same
        move, None or exceptions)."""
        try:
            result = future.result(timeout=0)
        except Exception as error:  # a dead worker or a solver bug: no hint, never a crash
            print(f"hint failed: {error!r}", file=sys.stderr)
            if not isinstance(error, CancelledError):
                self.close_hint_worker()  # a fresh worker for the next hint
            raise LookupError("the solver failed") from error
        return read_hint(result)

    def close_hint_worker(self, *, wait: bool = False) -> None:
        """Stop the hint worker (quit, or it broke); the next hint starts a new one. An
        executor set from outside belongs to whoever set it and stays.

        ``shutdown(wait=False)`` alone can leave a worker running (a stuck solve; CPython's
        own races around it, e.g. python/cpython#83386, #132969), so the worker processes get
        :data:`WORKER_GRACE` seconds to exit and are then terminated: at once in the
        background, or before returning when ``wait`` (quit: no process outlives the game)."""
        if self.hint_executor is None or not self._own_hint_executor:
            return
        executor, self.hint_executor = self.hint_executor, None
        # The executor's only handle on its processes (public only from Python 3.14 on).
        processes = list((getattr(executor, "_processes", None) or {}).values())
        with contextlib.suppress(Exception):
            executor.shutdown(wait=False, cancel_futures=True)
        if wait:
            _reap(processes)
        elif processes:
            threading.Thread(
                target=_reap, args=(processes,), name="hint-reaper", daemon=True
            ).start()

    def notify(self, event: str, *args: Any) -> None:
        """Tell every hook what happened (``started``, ``moved``, ``undone``, ``ended``,
        ``tick``, ``shutdown``); a hook that fails is reported and never stops the game."""
        for hook in self.hooks:
            method = getattr(hook, event, None)
            if method is None:
                continue
            try:
                method(*args)
            except Exception as error:  # a full disk must not end a game in a public place
                print(f"hook {type(hook).__name__}.{event} failed: {error!r}", file=sys.stderr)

    def change_setting(self, name: str, value: Any) -> None:
        """The one place a player's setting changes (frozen settings objects work too)."""
        self.settings = replace(self.settings, **{name: value})
        if self._save_settings is not None:
            try:
                self._save_settings(self.settings)
            except Exception as error:  # a read-only disk keeps the change for this session
                print(f"cannot save settings: {error!r}", file=sys.stderr)

    def set_locale(self, locale: str) -> None:
        self.tr.set_locale(locale)
        self.change_setting("locale", locale)
        for scene in self.scenes:
            scene.resize()
        self.full_redraw = True

    # ----------------------------------------------------------------- stack
    @property
    def top(self) -> Scene:
        return self.scenes[-1]

    def push(self, scene: Scene) -> None:
        if self.scenes:
            self.top.pause()
        self.scenes.append(scene)
        scene.enter()
        self.full_redraw = True

    def pop(self, scene: Scene | None = None) -> None:
        """Remove the top scene (or ``scene`` and everything above it)."""
        if scene is not None and scene in self.scenes:
            while self.scenes[-1] is not scene:
                self.scenes.pop().leave()
        if len(self.scenes) > 1:
            self.scenes.pop().leave()
            self.top.resume()
        self.full_redraw = True

    def pop_to_table(self) -> None:
        while len(self.scenes) > 1:
            self.scenes.pop().leave()
        self.top.resume()
        self.full_redraw = True

    # ----------------------------------------------------------------- events
    @property
    def now_ms(self) -> float:
        return self.clock.now_ms

    def dispatch(self, event: Event) -> None:
        if isinstance(event, Tap):
            self._tapped = self.top
        elif isinstance(event, DoubleTap) and self._tapped is not self.top:
            # The first tap opened or closed a screen (or the win screen came up): the second
            # click of a habitual double click must not act on whatever is there now.
            return
        for scene in reversed(self.scenes):
            if scene.handle(event):
                return

    def process(self, events: Iterable[pygame.event.Event]) -> None:
        for event in events:
            if not all(keep(event) for keep in self.event_filters):
                continue
            if event.type == pygame.QUIT:
                # systemd's SIGTERM arrives as QUIT: save, then leave the loop.
                self.notify("shutdown", self.table.game)
                self.table.close()  # the winnable indicator's and the hint's workers
                self.running = False
            elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                self.resize(pygame.display.get_surface())
            elif event.type == pygame.WINDOWEXPOSED:
                self.full_redraw = True
            elif event.type in (pygame.KEYDOWN, pygame.MOUSEWHEEL):
                self.dispatch(event)
            else:
                event = self.presenter.map_event(event)
                for gesture in self.reader.feed(event, self.now_ms):
                    self.dispatch(gesture)

    def resize(self, window: pygame.Surface | None = None) -> None:
        """The window changed size (or is a new surface): lay everything out again."""
        if window is not None:
            self.presenter.resize(window)
            self.screen = self.presenter.surface
        self.reader.set_scale(self.px_per_mm)
        for scene in self.scenes:
            scene.resize()
        self.full_redraw = True

    # ----------------------------------------------------------------- time and drawing
    def update(self, real_dt: float, *, clamp: bool = True) -> None:
        for _ in range(self.clock.advance(real_dt, clamp=clamp)):
            for scene in list(self.scenes):
                scene.update(self.clock.step)
            self.notify("step", self.clock.step)

    def busy(self) -> bool:
        return any(scene.busy() for scene in self.scenes)

    def draw(self) -> list[Rect]:
        """Paint what changed; returns the changed rectangles (empty when idle)."""
        if self.full_redraw:
            self.full_redraw = False
            start = 0
            for i, scene in enumerate(self.scenes):
                if scene.opaque:
                    start = i
            for scene in self.scenes[start:]:
                scene.draw(self.screen, True)
            rects = [self.screen.get_rect()]
        else:
            rects = self.top.draw(self.screen, False)
        if rects:
            self.frames_drawn += 1
        return rects

    def step(
        self, events: Iterable[pygame.event.Event] = (), dt: float | None = None
    ) -> list[Rect]:
        """One pass of the loop, by hand (tests and tools): events, one clock step, a draw."""
        self.process(events)
        self.update(self.clock.step if dt is None else dt)
        return self.draw()

    def run(self) -> None:
        """The real loop: sleeps on the event queue when nothing moves."""
        last = time.perf_counter()
        while self.running:
            idle = not (self.busy() or self.full_redraw)
            if not idle:
                events = pygame.event.get()
            else:
                first = pygame.event.wait(250)
                events = [first, *pygame.event.get()] if first.type != pygame.NOEVENT else []
            now = time.perf_counter()
            self.process(events)
            self.update(now - last, clamp=not idle)
            last = now
            rects = self.draw()
            if rects:
                self.presenter.present(rects)
            if self.busy():
                # Pace to about 60 frames a second without spinning.
                spare = self.clock.step - (time.perf_counter() - now)
                if spare > 0.001:
                    time.sleep(spare)
        self.table.close()  # however the loop ended: no worker process is left behind


def _number_code(number: int) -> str:
    from engine.codes import format_number

    return format_number(number)


def state_path(state_dir: Path | None, name: str) -> Path | None:
    return state_dir / name if state_dir else None


def read_hint(result: object) -> Move | None:
    """A solver hint (a ``Hint``-like object, or ``hint_data``'s ``(move, status, reason)``)
    as :meth:`App.hint` answers it."""
    if isinstance(result, tuple) and len(result) == 3:
        move, status, reason = _as_move(result[0]), result[1], result[2]
    else:
        move, status = _as_move(result), getattr(result, "status", "")
        reason = getattr(result, "reason", None)
    if move is None and status == "lost":
        raise LostPosition
    if move is None and reason == "no_useful_moves":
        raise IllegalMove("no_useful_moves")
    return move


def _as_move(result: object) -> Move | None:
    """Read a solver hint: a Move, its notation, or an object with a ``move``."""
    if result is None:
        return None
    if isinstance(result, Move):
        return result
    if isinstance(result, str):
        try:
            return Move.parse(result)
        except IllegalMove:
            return None
    inner = getattr(result, "move", None)
    return _as_move(inner) if inner is not None else None
