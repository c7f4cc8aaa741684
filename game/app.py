"""The loop: events -> gestures -> scenes, a fixed 60 Hz update, and a draw that only touches
what changed (an idle table draws nothing and the loop sleeps on the event queue)."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import pygame
from pygame import Rect

from engine import Game, catalog
from engine.rules import Rules
from game.clock import FixedClock
from game.display import Presenter
from game.i18n import Translator
from game.input import DoubleTap, GestureReader, InputTuning, Tap
from game.layout import estimate_px_per_mm
from game.prefs import PlayerSettings
from game.scene import Event, Scene, SceneStack
from game.scenes import register_scenes
from game.table import TableScene
from game.workers import Workers

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
        self.scenes = SceneStack(self, on_change=self.redraw)
        register_scenes(self.scenes)
        # Every solver process (hint, winnable indicator, attract screen): game.workers.
        self.workers = Workers()
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
        self._has_levels: dict[str, bool] = {}  # per rule set: see has_levels
        if game is None:
            game = self.new_game(code) if code else self.new_game()
        self.table = TableScene(self, game)
        self.table.elapsed = elapsed
        self.scenes.push(self.table)

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
    def redraw(self) -> None:
        """Paint every scene again on the next draw."""
        self.full_redraw = True

    @property
    def top(self) -> Scene:
        return self.scenes.top

    def push(self, scene: Scene) -> None:
        self.scenes.push(scene)

    def pop(self, scene: Scene | None = None) -> None:
        """Remove the top scene (or ``scene`` and everything above it)."""
        self.scenes.pop(scene)

    def pop_to_table(self) -> None:
        self.scenes.pop_to_bottom()

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
                self.close()
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
        self.close()  # however the loop ended: no worker process is left behind

    def close(self) -> None:
        """Stop the table's solver work and every worker process (they are gone on return)."""
        self.table.close()
        self.workers.close(wait=True)


def _number_code(number: int) -> str:
    from engine.codes import format_number

    return format_number(number)
