"""The loop: events -> gestures -> scenes, a fixed 60 Hz update, and a draw that only touches
what changed. At rest (nothing moving, nothing to redraw) the loop sleeps until the earliest
deadline the scenes and the kiosk report, looking at the event queue once a frame meanwhile
(pygame-ce's ``event.wait`` polls about a thousand times a second, so it is not used); when
and how it sleeps is one policy, game.kiosk.wake.Rest.

The App runs the loop and builds none of its parts: game.launch.compose makes them (screen,
settings, language, clock, gesture reader, games, workers, hooks with their listeners in order,
sounds, high scores, the play time, a saved run's session and the event filters) and hands them
in as :class:`Parts`; the kiosk (only for a kiosk) is made by a factory the App calls with
itself as its host, so nothing is patched in after construction."""

from __future__ import annotations

import faulthandler
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, cast

import pygame
from pygame import Rect

from engine import Game
from game.clock import FixedClock, FrameWindow, PlayTime
from game.host import Kiosk
from game.input import DoubleTap, Tap
from game.kiosk.notify import Notifier
from game.kiosk.wake import Rest, Waker, rest_seconds
from game.look.layout import estimate_px_per_mm
from game.scene import Event, Scene, SceneRegistry, SceneStack

if TYPE_CHECKING:
    from game.arcade.play import Arcade
    from game.games import Games
    from game.hooks import Hooks
    from game.host import AppHost, Stack
    from game.i18n import Translator
    from game.input import GestureReader
    from game.look.display import Presenter
    from game.player import Preferences
    from game.saves.prefs import PlayerSettings
    from game.saves.session import Session
    from game.sound import Sounds
    from game.table.scene import TableScene
    from game.workers import Workers

EventFilter = Callable[[pygame.event.Event], bool]  # False drops a raw event


class KioskPlug(Kiosk, Protocol):
    """The kiosk controller as the loop sees it: it filters raw events (the lock, the idle
    timer), has deadlines of its own and runs each update step after the table's listeners
    (game.kiosk.controller.KioskController)."""

    def filter(self, event: pygame.event.Event) -> bool: ...
    def deadline(self) -> float | None: ...
    def step(self, dt: float) -> None: ...


# Made by the App with itself as its host; its filter comes after the parts' event filters.
KioskFactory = Callable[["AppHost"], KioskPlug]


@dataclass
class Parts:
    """What the loop and its scenes share, composed by game.launch.compose."""

    presenter: Presenter  # the logical surface the game draws on, shown turned when asked
    prefs: Preferences  # the player's toggles and language, and their saving
    tr: Translator
    clock: FixedClock  # the one source of time
    reader: GestureReader  # the one reader of pointer events
    arcade: Arcade  # today's deal and the high-score tables
    games: Games  # new games: the player's choice, catalog deals, today's, random ones
    workers: Workers  # every solver process
    hooks: Hooks  # what the table reports goes to these listeners, in their order
    sounds: Sounds  # the card sounds
    scenes: SceneRegistry  # every scene, by name (game.scenes.register_scenes)
    play_time: PlayTime  # the visitor's game's (a saved run's: its session's clock)
    px_per_mm: float | None = None  # configured; None: a guess from the screen size
    frame_times: FrameWindow = field(default_factory=FrameWindow)  # the last minute's slowest
    session: Session | None = None  # a saved run's (autosave, statistics, logs); None: none
    event_filters: Sequence[EventFilter] = ()  # raw events pass these first (the metrics')


class App:
    """The loop. Shows the scene stack (the table at the bottom) with the parts it is given
    and serves its scenes' host Protocols (game.host.AppHost)."""

    def __init__(
        self,
        parts: Parts,
        game: Game,
        *,
        kiosk: KioskFactory | None = None,
    ) -> None:
        self.presenter = parts.presenter
        self.screen = self.presenter.surface
        self.prefs, self.tr, self.clock = parts.prefs, parts.tr, parts.clock
        self.reader, self.arcade, self.games = parts.reader, parts.arcade, parts.games
        self.workers, self.hooks, self.sounds = parts.workers, parts.hooks, parts.sounds
        self._px_per_mm = parts.px_per_mm
        self.frame_times, self.session = parts.frame_times, parts.session
        self.scenes = SceneStack(self, parts.scenes, on_change=self.redraw)
        self.running = True
        self.full_redraw = True
        self.frames_drawn = 0
        self.notifier = Notifier(None)  # systemd's notify socket, from run() on (game.kiosk.notify)
        self.exit_status = 0  # main.py's exit status (the operator's exit: 64)
        self._tapped: Scene | None = None  # the scene on top when the last tap came
        # The table at the bottom, built through its typed opener (game.host.Stack.factory).
        stack: Stack = self.scenes
        table = stack.factory("table")(self, game=game, play_time=parts.play_time)
        self.table = cast("TableScene", table)
        self.scenes.push(self.table)
        self.kiosk: KioskPlug | None = None  # (read while the kiosk is made: none yet)
        if kiosk is not None:
            self.kiosk = kiosk(self)
        # Raw events pass these first; one returning False drops it: the parts' (the metrics',
        # which see every event), then the kiosk's (its lock; input resets its idle timer).
        self.event_filters: list[EventFilter] = list(parts.event_filters)
        if self.kiosk is not None:
            self.event_filters.append(self.kiosk.filter)

    @property
    def settings(self) -> PlayerSettings:
        return self.prefs.settings

    @property
    def save_failed(self) -> bool:
        """The session's last autosave failed (no saved run: nothing is saved)."""
        return self.session is not None and self.session.save_failed

    @property
    def px_per_mm(self) -> float:
        """The configured pixels per millimetre, else a guess from the screen size."""
        return self._px_per_mm or estimate_px_per_mm(*self.screen.get_size())

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
                self.quit()
            elif self.asks_to_close(event):
                self.ask_to_close()
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

    def quit(self) -> None:
        """Save the game, stop the workers and the sound, and leave the loop."""
        self.hooks.shutdown(self.table.model.game)
        self.close()
        self.running = False

    def asks_to_close(self, event: pygame.event.Event) -> bool:
        """The window's close button, or Escape on the table (a screen over it closes on
        Escape): both reach here only without the kiosk lock, which drops them."""
        if event.type == pygame.WINDOWCLOSE:
            return True
        escape = event.type == pygame.KEYDOWN and getattr(event, "key", 0) == pygame.K_ESCAPE
        return escape and self.scenes.top is self.table

    def ask_to_close(self) -> None:
        """ "Close the game?": yes quits as systemd's stop does (the game saved), no keeps
        playing. Asked once: a second close while the question is up changes nothing."""
        question = self.tr("dialog.close_question")
        if getattr(self.scenes.top, "question", None) == question:
            return
        self.scenes.open("confirm", question=question, yes=self.tr("dialog.close_yes"),
                         no=self.tr("dialog.close_no"), on_yes=self.quit)  # fmt: skip

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
            if self.kiosk is not None:  # after the listeners (the session, the metrics)
                self.kiosk.step(dt)

    def busy(self) -> bool:
        return any(scene.busy() for scene in self.scenes)

    def deadline(self) -> float | None:
        """The earliest clock time at which a scene or the kiosk changes by itself."""
        times = [scene.deadline() for scene in self.scenes]
        if self.kiosk is not None:
            times.append(self.kiosk.deadline())
        return min((t for t in times if t is not None), default=None)

    def rest_seconds(self) -> float:
        """How long a resting loop may sleep after its last update
        (game.kiosk.wake.rest_seconds)."""
        return rest_seconds(self.deadline(), self.clock)

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
        the next deadline or the next input (game.kiosk.wake: at once under X11, else within a
        frame)."""
        rest = Rest(Waker.for_display(self.clock.step))
        notifier = self.notifier = Notifier.from_env()
        if notifier.interval is not None:  # the watchdog's SIGABRT shows where the loop hung
            faulthandler.enable()  # (every thread's stack on stderr: the journal)
        last = time.perf_counter()
        while self.running:
            events = pygame.event.get()
            now = time.perf_counter()
            notifier.ping(now)  # systemd's watchdog: from the loop, never from a thread
            resting = not (self.busy() or self.full_redraw)
            if resting and not events:
                wait = last + self.rest_seconds() - now
                if rest.sleep(wait, notifier.rest_limit(now)):  # (wakes for the next ping)
                    continue
            rest.frame(bool(events))
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
