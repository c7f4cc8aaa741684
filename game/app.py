"""The loop: events -> gestures -> scenes, a fixed 60 Hz update, and a draw that only touches
what changed (an idle table draws nothing and the loop sleeps on the event queue)."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
from pygame import Rect

from engine import Game
from game.clock import FixedClock
from game.i18n import Translator
from game.input import GestureReader, InputTuning
from game.scenes import Event, Scene
from game.settings import Settings, SettingsStore

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


def _catalog() -> Any:
    try:
        from engine import catalog  # type: ignore[attr-defined]
    except ImportError:
        return None
    return catalog


def _solver() -> Any:
    try:
        from engine import solver  # type: ignore[attr-defined]
    except ImportError:
        return None
    return solver


class App:
    """Owns the screen, the clock, the gesture reader, the settings and the scene stack."""

    def __init__(
        self,
        screen: pygame.Surface,
        *,
        settings: Settings | None = None,
        store: SettingsStore | None = None,
        tuning: InputTuning | None = None,
        px_per_mm: float | None = None,
        choice: GameChoice | None = None,
        code: str | None = None,
        game: Game | None = None,
        elapsed: float = 0.0,
        rng: random.Random | None = None,
        undo_depth: int = 100,
    ) -> None:
        self.screen = screen
        self.store = store or SettingsStore(None)
        self.settings = settings or self.store.load()
        self.tr = Translator(self.settings.locale)
        self.px_per_mm = px_per_mm
        self.clock = FixedClock()
        self.reader = GestureReader(tuning, px_per_mm or 4.0)
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
        from game.table import TableScene

        if game is None:
            game = self.new_game(code) if code else self.new_game()
        self.table = TableScene(self, game)
        self.table.elapsed = elapsed
        self.push(self.table)

    # ----------------------------------------------------------------- games
    def new_game(self, code: str | None = None) -> Game:
        """A game from ``code`` (CodeError when bad), else a deal for the current choice."""
        if code:
            return Game.from_code(code, history_limit=self.undo_depth)
        key = self.choice.rules_key()
        catalog = _catalog()
        if catalog is not None and (self.choice.level != "any" or self.choice.winnable_only):
            try:
                picked = catalog.pick(key, self.choice.level, self.rng)
            except Exception:  # a missing or damaged catalog must never stop a new game
                picked = None
            if isinstance(picked, str):
                return Game.from_code(picked, history_limit=self.undo_depth)
            if isinstance(picked, int):
                return Game.from_code(
                    f"{key}-{_number_code(picked)}", history_limit=self.undo_depth
                )
        number = self.rng.randrange(DEAL_NUMBERS)
        return Game.from_code(f"{key}-{_number_code(number)}", history_limit=self.undo_depth)

    def has_levels(self) -> bool:
        return _catalog() is not None

    def hint(self, game: Game) -> Any:
        """The solver's hint for ``game`` (None when there is no solver)."""
        solver = _solver()
        if solver is None or not hasattr(solver, "hint"):
            raise LookupError("no solver")
        try:
            return solver.hint(game, time_limit=1.0)
        except Exception as error:  # a solver bug must not end a game in a public place
            print(f"hint failed: {error!r}", file=sys.stderr)
            raise LookupError("the solver failed") from error

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
        self.save_settings()

    def save_settings(self) -> None:
        self.store.save(self.settings)

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
                self.running = False
            elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                surface = pygame.display.get_surface()
                if surface is not None:
                    self.screen = surface
                self.resize()
            elif event.type == pygame.WINDOWEXPOSED:
                self.full_redraw = True
            elif event.type == pygame.KEYDOWN:
                self.dispatch(event)
            else:
                for gesture in self.reader.feed(event, self.now_ms):
                    self.dispatch(gesture)

    def resize(self, screen: pygame.Surface | None = None) -> None:
        if screen is not None:
            self.screen = screen
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
                pygame.display.update(rects)
            if self.busy():
                # Pace to about 60 frames a second without spinning.
                spare = self.clock.step - (time.perf_counter() - now)
                if spare > 0.001:
                    time.sleep(spare)


def _number_code(number: int) -> str:
    from engine.codes import format_number

    return format_number(number)


def state_path(state_dir: Path | None, name: str) -> Path | None:
    return state_dir / name if state_dir else None
