"""Soak test: random gestures through the real input layer, headless, for a long time.

    python -m game.dev.soak --events 1000000 --seed 7 [--kiosk] [--size 1024x600]

Each event is one gesture made of raw pygame events fed to App.step (so SDL-style duplicates,
touch echoes and finger events go through the gesture reader): taps and double taps (on cards
or anywhere), drags from anywhere to anywhere, undo, hints, the settings and new-game dialogs
(tapping their controls, typing codes), window resizes (portrait too), idle time. With
--kiosk the session (autosave, statistics, logs; in a temporary state directory) and the kiosk
controller (lock, idle attract, long press) are attached too.

After every gesture the invariants are checked: 52 distinct cards, a score that is never
negative, a move counter that never goes down within a game, the table at the bottom of the
scene stack; a close (lock off: Escape or the close button, then Close) only as the player's
answer, after which the game starts again from what the close saved with no move lost; every 100
gestures also the exact save round trip and every resting card inside
the window. The last line is `N events, E exceptions, V invariant violations, +X MB` (memory
growth after warm-up); the exit status is 1 when E or V is not 0.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from engine import Game, Move
from engine.saved import GameDict
from game.app import App
from game.hooks import TableHooks
from game.launch import compose, plain_app
from game.saves.prefs import PlayerSettings

SIZES = [(800, 480), (1024, 600), (1280, 800), (720, 1280), (1920, 1080), (600, 1024)]
STEP = 1 / 60
MAX_REPORTED = 5


def settled_rss_mb() -> float:
    """Resident memory after a garbage collection and, on glibc, handing freed heap back to
    the system (so that fragmentation from surfaces of changing sizes is not read as growth)."""
    import ctypes
    import gc

    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    return rss_mb()


def rss_mb() -> float:
    """The resident memory of this process in MB (Linux), else the peak."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Soak(TableHooks):
    def __init__(self, seed: int, size: tuple[int, int], *, kiosk: bool) -> None:
        self.rng = random.Random(seed)
        self.exceptions = 0
        self.violations = 0
        self.reported = 0
        self.last_moves = 0
        self.last_game: Game | None = None
        self.state: tempfile.TemporaryDirectory[str] | None = None
        self.kiosk = kiosk
        self.closes = 0  # the player's "Close the game?" answered Close (lock off only)
        self.saved: GameDict | None = None  # the game as the close saved it
        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.app = (
            self._plain_app(screen, Game.from_code("RU1-C-AAAAABB"), seed)
            if not kiosk
            else self._kiosk_app(screen, random.Random(seed))
        )
        self._listen()
        self.moves_played = 0
        self.done = 0
        self.games_started = 0
        self.app.step()

    def _plain_app(self, screen: pygame.Surface, game: Game, seed: int) -> App:
        return plain_app(
            screen, game=game, settings=PlayerSettings(locale="en"), rng=random.Random(seed)
        )

    def _listen(self) -> None:
        # A hook that fails is counted (the App only logs it); this one counts moves and deals.
        self.app.hooks.on_error = lambda event, error: self.exception(f"hook {event}")
        self.app.hooks.add(self)

    def relaunch(self) -> None:
        """The player closed the game (lock off): start it again from what the close saved,
        as the next launch does, and check that no finished move was lost."""
        assert self.saved is not None
        saved, self.saved = self.saved, None
        self.closes += 1
        game = Game.from_dict(saved)
        if game.moves != self.last_moves or game.to_dict() != saved:
            self.violation(f"{game.code}: the close lost a move")
        window = pygame.display.get_surface()
        assert window is not None
        self.app = self._plain_app(window, game, self.closes)
        self._listen()
        self.last_game, self.last_moves = game, game.moves
        self.app.step()

    def _kiosk_app(self, screen: pygame.Surface, rng: random.Random) -> App:
        from game.config import config_from_dict, hash_pin
        from game.launch import build_app, open_run

        self.state = tempfile.TemporaryDirectory(prefix="solitaire-soak-")
        config, _ = config_from_dict(
            {
                "kiosk": {
                    "lock": True,
                    "operator_pin_hash": hash_pin("123456", iterations=100_000),
                    "idle_attract_minutes": 0.5,
                    "idle_new_game_minutes": 2.0,
                }
            }
        )
        run = open_run(config, Path(self.state.name), logging_on=False, crash_hook=False)
        parts = compose(screen, settings=PlayerSettings(locale="en"), rng=rng, run=run)
        return build_app(parts, parts.games.new("RU1-C-AAAAABB"), run)

    def close(self) -> None:
        self.app.close()  # every solver worker (the indicator, when a tap turned it on)
        if self.state is not None:
            self.state.cleanup()
        pygame.display.quit()

    # ---------------------------------------------------------------- hook
    def shutdown(self, game: Game) -> None:
        self.saved = game.to_dict()

    def moved(self, game: Game, move: Move) -> None:
        self.moves_played += 1

    def started(self, game: Game) -> None:
        self.games_started += 1

    # ---------------------------------------------------------------- reporting
    def exception(self, where: str) -> None:
        self.exceptions += 1
        if self.reported < MAX_REPORTED:
            self.reported += 1
            print(f"soak: exception in {where}:", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)

    def violation(self, message: str) -> None:
        self.violations += 1
        if self.reported < MAX_REPORTED:
            self.reported += 1
            print(f"soak: invariant violated: {message}", file=sys.stderr)

    # ---------------------------------------------------------------- raw input
    def feed(self, *events: pygame.event.Event, dt: float = STEP) -> None:
        self.app.step(list(events), dt)

    def mouse(self, kind: int, pos: tuple[int, int], touch: bool) -> pygame.event.Event:
        extra: dict[str, Any] = {"pos": pos, "touch": touch}
        if kind == pygame.MOUSEMOTION:
            extra.update(rel=(0, 0), buttons=(1, 0, 0))
        else:
            extra["button"] = 1
        return pygame.event.Event(kind, extra)

    def press(self, pos: tuple[int, int], touch: bool) -> None:
        self.feed(self.mouse(pygame.MOUSEBUTTONDOWN, pos, touch))
        if touch and self.rng.random() < 0.3:  # SDL's finger event beside the mouse one
            w, h = self.app.screen.get_size()
            self.feed(
                pygame.event.Event(
                    pygame.FINGERDOWN, x=pos[0] / w, y=pos[1] / h, finger_id=0, touch_id=0
                )
            )

    def release(self, pos: tuple[int, int], touch: bool) -> None:
        self.feed(self.mouse(pygame.MOUSEBUTTONUP, pos, touch))
        if touch and self.rng.random() < 0.1:  # a late mouse echo of the touch
            self.feed(self.mouse(pygame.MOUSEBUTTONDOWN, pos, False))
            self.feed(self.mouse(pygame.MOUSEBUTTONUP, pos, False))

    # ---------------------------------------------------------------- where to touch
    def point(self) -> tuple[int, int]:
        w, h = self.app.screen.get_size()
        roll = self.rng.random()
        top, table = self.app.scenes.top, self.app.table
        controls = getattr(top, "controls", None)
        if controls and roll < 0.7:
            # A visitor leaves a dialog by its last button (Close, Deal, OK) more often than
            # by any other one; without that the walk can stay in a many-control dialog for
            # hundreds of gestures and never reach the table again.
            leave = self.rng.random() < 0.25
            rect = (controls[-1] if leave else self.rng.choice(controls)).rect
        elif top is table and roll < 0.75:
            rect = table.model.card_rect(self.rng.randrange(52))
            return (rect.centerx, rect.top + max(1, rect.height // 10))
        elif top is table and roll < 0.85:
            rect = self.rng.choice(list(table.model.layout.buttons.values()))
        else:
            return (self.rng.randrange(-5, w + 5), self.rng.randrange(-5, h + 5))
        return (
            self.rng.randint(rect.left, max(rect.left, rect.right - 1)),
            self.rng.randint(rect.top, max(rect.top, rect.bottom - 1)),
        )

    # ---------------------------------------------------------------- gestures
    def tap(self) -> None:
        pos, touch = self.point(), self.rng.random() < 0.7
        self.press(pos, touch)
        self.release(pos, touch)

    def double_tap(self) -> None:
        pos, touch = self.point(), self.rng.random() < 0.7
        for _ in range(2):
            self.press(pos, touch)
            self.release(pos, touch)

    def legal_drag(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """A drag that plays a legal move (from the card's visible corner to its place)."""
        table = self.app.table
        if self.app.scenes.top is not table:
            return None
        moves = table.model.game.legal_moves()
        if not moves:
            return None
        move = self.rng.choice(moves)
        card = table.model.card_rect(move.card)
        target = table.model.places.move_rect(move)
        return (card.centerx, card.top + max(1, card.height // 12)), target.center

    def drag(self) -> None:
        start, end, touch = self.point(), self.point(), self.rng.random() < 0.7
        if self.rng.random() < 0.5:
            start, end = self.legal_drag() or (start, end)
        self.press(start, touch)
        for k in range(1, self.rng.randint(0, 6) + 1):
            x = start[0] + (end[0] - start[0]) * k // 6
            y = start[1] + (end[1] - start[1]) * k // 6
            self.feed(self.mouse(pygame.MOUSEMOTION, (x, y), touch))
        if self.rng.random() < 0.05:
            self.feed(pygame.event.Event(pygame.WINDOWFOCUSLOST))
        self.release(end, touch)

    def key(self) -> None:
        key = self.rng.choice(
            [
                (pygame.K_BACKSPACE, 0, ""),
                (pygame.K_z, pygame.KMOD_LCTRL, "z"),
                (pygame.K_h, 0, "h"),
                (pygame.K_n, 0, "n"),
                (pygame.K_ESCAPE, 0, ""),
                (pygame.K_RETURN, 0, "\r"),
                (pygame.K_a, 0, "a"),
                (pygame.K_1, 0, "1"),
                (pygame.K_MINUS, 0, "-"),
                (pygame.K_F4, pygame.KMOD_LALT, ""),
            ]
        )
        self.feed(pygame.event.Event(pygame.KEYDOWN, key=key[0], mod=key[1], unicode=key[2]))

    def resize(self) -> None:
        size = self.rng.choice(SIZES)
        pygame.display.set_mode(size, pygame.RESIZABLE)
        self.feed(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))

    def idle(self) -> None:
        seconds = self.rng.choice([0.2, 1.0, 5.0, 40.0])
        self.app.update(seconds, clamp=False)
        self.app.draw()

    def gesture(self) -> None:
        roll = self.rng.random()
        if roll < 0.35:
            self.tap()
        elif roll < 0.5:
            self.double_tap()
        elif roll < 0.8:
            self.drag()
        elif roll < 0.9:
            self.key()
        elif roll < 0.93:
            self.resize()
        else:
            self.idle()

    # ---------------------------------------------------------------- invariants
    def check(self, full: bool) -> None:
        app, table = self.app, self.app.table
        if not app.scenes or app.scenes[0] is not table:
            self.violation("the table is not at the bottom of the scene stack")
        if len(set(map(id, app.scenes))) != len(app.scenes):
            self.violation("a scene is twice on the stack")
        if not app.running:
            if self.kiosk or self.saved is None:
                self.violation("the app stopped")  # the lock drops Escape and the close button
                app.running = True
            else:
                self.relaunch()
            return
        game = table.model.game
        cards = [c for col in game.cols for c in col] + [c for c in game.cells if c >= 0]
        if len(set(cards)) != len(cards) or len(cards) + sum(game.found) != 52:
            self.violation(f"{game.code}: the table does not hold 52 distinct cards")
        if game.score < 0:
            self.violation(f"{game.code}: score {game.score}")
        if game is self.last_game and game.moves < self.last_moves:
            self.violation(f"{game.code}: the move counter went down")
        self.last_game, self.last_moves = game, game.moves
        if not full:
            return
        data = game.to_dict()
        try:
            if Game.from_dict(data).to_dict() != data:
                self.violation(f"{game.code}: the save does not round-trip")
        except ValueError as error:
            self.violation(f"{game.code}: the save does not load: {error}")
        if app.scenes.top is table and not table.busy():
            screen = app.screen.get_rect()
            for card in table.model.rest():
                if not screen.contains(table.model.card_rect(card)):
                    self.violation(f"{game.code}: a card lies off the {screen.size} screen")
                    break

    def run(self, events: int, progress: Callable[[int], None] | None = None) -> float:
        """Run the gestures; returns the memory growth after warm-up in MB.

        Memory is read (settled) at 20 checkpoints after the warm-up (the first tenth). The
        resident size swings by several MB with the heap's fragmentation (surfaces of changing
        sizes), so growth is the rise of the floor: the lowest of the last three readings
        minus the lowest of the first three. A leak raises the floor; a swing does not."""
        warm_up = min(events, max(200, events // 10))
        every = max(1, (events - warm_up) // 20)
        readings: list[float] = []
        for n in range(1, events + 1):
            self.done = n
            try:
                self.gesture()
                self.check(full=n % 100 == 0)
            except Exception:
                self.exception(f"gesture {n}")
            if n >= warm_up and (n - warm_up) % every == 0:
                readings.append(settled_rss_mb())
            if progress is not None and n % 10_000 == 0:
                progress(n)
        readings.append(settled_rss_mb())
        return min(readings[-3:]) - min(readings[:3])


@contextlib.contextmanager
def _soak(seed: int, size: tuple[int, int], kiosk: bool) -> Iterator[Soak]:
    soak = Soak(seed, size, kiosk=kiosk)
    try:
        yield soak
    finally:
        soak.close()


def parse_size(text: str) -> tuple[int, int]:
    w, h = (int(v) for v in text.lower().split("x"))
    return w, h


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m game.dev.soak", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--events", type=int, default=10_000, help="how many gestures")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=parse_size, default=(1024, 600), help="e.g. 800x480")
    parser.add_argument("--kiosk", action="store_true", help="with autosave, stats, lock, idle")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    if args.events < 1:
        parser.error("--events must be at least 1")
    started = time.perf_counter()

    def progress(n: int) -> None:
        if not args.quiet:
            rate = n / (time.perf_counter() - started)
            print(f"{n} events, {rate:.0f}/s, {settled_rss_mb():.1f} MB", file=sys.stderr)

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    # Our own handlers, before pygame starts: SDL would turn SIGTERM into a QUIT event that
    # nobody reads here. A stopped run still prints its verdict line (for the events done).
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    with _soak(args.seed, args.size, args.kiosk) as soak:
        try:
            growth = soak.run(args.events, progress)
            done = args.events
        except KeyboardInterrupt:
            growth, done = 0.0, max(0, soak.done - 1)
            print(f"stopped after {done} events (no memory figure)", file=sys.stderr)
        if soak.closes:
            print(f"the player closed the game {soak.closes} times; it started again each time",
                  file=sys.stderr)  # fmt: skip
        print(
            f"{done} events, {soak.exceptions} exceptions, "
            f"{soak.violations} invariant violations, +{max(0.0, growth):.1f} MB"
        )
        return 1 if soak.exceptions or soak.violations or done < args.events else 0


if __name__ == "__main__":
    sys.exit(main())
