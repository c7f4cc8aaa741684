"""The loop: events -> gestures -> scenes, a fixed 60 Hz update, and a draw that only touches
what changed. At rest (nothing moving, nothing to redraw) the loop sleeps until the earliest
deadline the scenes and listeners report, looking at the event queue once a frame meanwhile
(pygame-ce's ``event.wait`` polls about a thousand times a second, so it is not used)."""

from __future__ import annotations

import faulthandler
import math
import random
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import pygame
from pygame import Rect

from engine import Game
from game.arcade import Arcade
from game.clock import FixedClock, FrameWindow
from game.display import Presenter
from game.games import GameChoice, Games
from game.hooks import Hooks
from game.i18n import Translator
from game.input import DoubleTap, GestureReader, InputTuning, Tap
from game.layout import estimate_px_per_mm
from game.notify import Notifier
from game.player import Preferences
from game.prefs import PlayerSettings
from game.scene import Event, Scene, SceneStack
from game.scenes import register_scenes
from game.sound import CardSounds, Sounds
from game.table import TableScene
from game.wake import Waker
from game.workers import Workers

if TYPE_CHECKING:
    from game.host import AppHost, Kiosk

MAX_REST = 0.25  # a resting loop updates the scenes at least this often (seconds)


class App:
    """The loop. Owns the screen, the clock, the gesture reader and the scene stack; holds the
    parts the scenes share (settings, language, game factory, workers, hooks)."""

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
        arcade: Arcade | None = None,
        audio: bool = True,
    ) -> None:
        # The game draws on a logical surface; the presenter shows it (turned when asked).
        self.presenter = Presenter(screen, rotate)
        self.screen = self.presenter.surface
        # The player's toggles and language, and their saving (game.player).
        self.prefs = Preferences(settings, save_settings)
        self.tr = Translator(self.settings.locale)
        self._px_per_mm = px_per_mm
        self.clock = FixedClock()
        self.reader = GestureReader(tuning, self.px_per_mm)
        # Today's deal and the high-score tables (game.arcade). Without one (tools, tests) the
        # tables are kept in memory and nobody is asked to sign a table that is not kept.
        self.arcade = arcade or Arcade.open(None, initials=False)
        # New games: the player's choice, catalog deals, today's deal, random deals (game.games).
        self.games = Games(
            choice or GameChoice(),
            rng=rng or random.Random(),
            undo_depth=undo_depth,
            day_of=self.arcade.day_of,
        )
        self.scenes = SceneStack(self, on_change=self.redraw)
        register_scenes(self.scenes)
        # Every solver process (hint, winnable indicator, attract screen): game.workers.
        self.workers = Workers()
        self.running = True
        self.full_redraw = True
        self.frames_drawn = 0
        self.frame_times = FrameWindow()  # the slowest frame of the last minute (game.clock)
        self.notifier = Notifier(None)  # systemd's notify socket, from run() on (game.notify)
        # What the table reports goes to these listeners: autosave, statistics, logs (game.hooks).
        self.hooks = Hooks()
        # The card sounds (game.sound): on or off and their volume follow the player's settings.
        # ``audio`` False (a screenshot run): never sound, the saved setting shown as it is.
        self.audio = audio
        self.sounds = Sounds(enabled=self.settings.sound and audio, volume=self.settings.volume)
        self.prefs.listeners.append(self._follow_sound)
        self.hooks.add(CardSounds(self.sounds))
        self.hooks.add(self.arcade)  # a win enters the high-score tables
        # Raw events pass these first (kiosk lock, idle timer); one returning False drops it.
        self.event_filters: list[Callable[[pygame.event.Event], bool]] = []
        # When a listener (the kiosk's idle timers) next needs an update, in clock time.
        self.deadlines: list[Callable[[], float | None]] = []
        self.kiosk: Kiosk | None = None  # set by game.kiosk_ui.attach_kiosk
        self.buttons_are_pictures = False  # the visitor's table: its buttons act
        self.least_text = 0  # its layout's own text sizes
        self.exit_status = 0  # main.py's exit status (the operator's exit: 64)
        self._tapped: Scene | None = None  # the scene on top when the last tap came
        if game is None:
            game = self.games.new(code)
        self.table = TableScene(self, game)
        self.arcade.seconds = lambda: self.table.play_time.seconds
        self.table.play_time.reset(elapsed)
        self.scenes.push(self.table)

    @property
    def settings(self) -> PlayerSettings:
        return self.prefs.settings

    @property
    def save_failed(self) -> bool:
        """The kiosk session's last autosave failed (no kiosk: nothing is saved)."""
        return self.kiosk is not None and self.kiosk.session.save_failed

    @property
    def px_per_mm(self) -> float:
        """The configured pixels per millimetre, else a guess from the screen size."""
        return self._px_per_mm or estimate_px_per_mm(*self.screen.get_size())

    def _follow_sound(self, settings: PlayerSettings) -> None:
        self.sounds.set_volume(settings.volume)
        self.sounds.set_enabled(settings.sound and self.audio)

    def set_locale(self, locale: str) -> None:
        """Show everything in ``locale`` now, and keep it."""
        self.tr.set_locale(locale)
        self.prefs.change("locale", locale)
        for scene in self.scenes:
            scene.resize()
        self.full_redraw = True

    # ----------------------------------------------------------------- stack
    def redraw(self) -> None:
        """Paint every scene again on the next draw."""
        self.full_redraw = True

    # ----------------------------------------------------------------- events
    def dispatch(self, event: Event) -> None:
        if isinstance(event, Tap):
            self._tapped = self.scenes.top
        elif isinstance(event, DoubleTap) and self._tapped is not self.scenes.top:
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
                self.hooks.shutdown(self.table.game)
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
                for gesture in self.reader.feed(event, self.clock.now_ms):
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
            dt = self.clock.tick()  # each step sees its own time (app.clock.time)
            for scene in list(self.scenes):
                scene.update(dt)
            self.hooks.step(dt)

    def busy(self) -> bool:
        return any(scene.busy() for scene in self.scenes)

    def deadline(self) -> float | None:
        """The earliest clock time at which a scene or a listener changes by itself."""
        times = [scene.deadline() for scene in self.scenes] + [due() for due in self.deadlines]
        return min((t for t in times if t is not None), default=None)

    def rest_seconds(self) -> float:
        """How long a resting loop may sleep after its last update: until the clock step that
        passes the earliest deadline (at least one step, so a deadline that has passed cannot
        make the loop spin), at most MAX_REST."""
        due = self.deadline()
        if due is None:
            return MAX_REST
        clock = self.clock
        # The first step surely at or past ``due`` (the clock's time is a sum of floats).
        steps = max(1, math.ceil((due - clock.time) / clock.step + 1e-6))
        # The clock is already ``accumulated`` seconds on towards its next step.
        return min(MAX_REST, steps * clock.step - clock.accumulated + 1e-4)

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
            rects = self.scenes.top.draw(self.screen, False)
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
        """The real loop: a frame at a time while something moves; at rest it sleeps until
        the next deadline or the next input (game.wake: at once under X11, else within a
        frame)."""
        waker = Waker.for_display(self.clock.step)
        notifier = self.notifier = Notifier.from_env()
        if notifier.interval is not None:  # the watchdog's SIGABRT shows where the loop hung
            faulthandler.enable()  # (every thread's stack on stderr: the journal)
        last = time.perf_counter()
        woke = False  # the last sleep ended for the X connection, not for the time
        while self.running:
            events = pygame.event.get()
            now = time.perf_counter()
            notifier.ping(now)  # systemd's watchdog: from the loop, never from a thread
            resting = not (self.busy() or self.full_redraw)
            if resting and not events:
                wait = last + self.rest_seconds() - now
                limit = notifier.rest_limit(now)  # wake for the next WATCHDOG=1
                if limit is not None and wait > limit:
                    waker.wait(limit)
                    continue
                if wait > 0:
                    if woke:  # the socket woke us but brought no event yet: a short pause,
                        waker.pause(wait)  # longer each time, never a spin on a busy socket
                        woke = False
                    else:
                        woke = waker.wait(wait)
                    continue
            woke = False
            if events:
                waker.heard()
            if resting and events:  # the clock catches up first: input carries its own time
                self.update(now - last, clamp=False)
                last = now
            self.process(events)
            self.update(now - last, clamp=not resting)
            last = now
            rects = self.draw()
            if rects:
                self.presenter.present(rects)
                self.frame_times.add(now, time.perf_counter() - now)
                notifier.ready(now)  # the first frame is on the screen
            if self.busy():
                # Pace to about 60 frames a second without spinning.
                spare = self.clock.step - (time.perf_counter() - now)
                if spare > 0.001:
                    time.sleep(spare)
        notifier.stopping()
        self.close()  # however the loop ended: no worker process is left behind

    def close(self) -> None:
        """Stop the table's solver work and every worker process (they are gone on return),
        and the sound."""
        self.table.close()
        self.workers.close(wait=True)
        self.sounds.close()


if TYPE_CHECKING:

    def _serves(app: App) -> AppHost:
        """The App serves every scene's host Protocol (mypy checks this)."""
        return app
