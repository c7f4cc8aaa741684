"""The attract screen of an idle kiosk: the computer plays a deal of its own."""

from __future__ import annotations

import logging
import random
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, cast

import pygame
from pygame import Rect

from engine import FOUNDATION, Game, Move
from engine.hints import heuristic_move
from game import ui
from game.input import DoubleTap, DragCancel, Drop, Tap
from game.scene import Event, Scene
from game.scenes.demo import DemoApp

if TYPE_CHECKING:
    from game.app import App
    from game.table import TableScene


log = logging.getLogger("solitaire.kiosk")


def demo_move(game: Game, seen: set[Any], rng: random.Random) -> Move | None:
    """The attract screen's player: foundation moves first, then moves that turn up a hidden
    card, then any useful move to a position not seen before; None when stuck."""
    candidates: list[tuple[int, float, Move]] = []
    for move in game.legal_moves():
        pile, pos = game.locate(move.card)
        if pile == FOUNDATION or game.is_pointless(move):
            continue
        after = game.copy()
        after.push(move)
        key = after.position_key()
        if key in seen:
            continue
        if move.dest == FOUNDATION:
            rank = 0
        elif pile < FOUNDATION and pos and pos == game.down[pile]:
            rank = 1
        elif pile < FOUNDATION and pos == 0:
            rank = 2  # empties a column
        else:
            rank = 3
        candidates.append((rank, rng.random(), move))
    if not candidates:
        return None
    return min(candidates)[2]


class AttractScene(Scene):
    """An idle kiosk: the computer plays a deal under "Touch the screen to play". The deal is
    solved in the demo worker process first (a few seconds, the loop keeps running); a winning line
    is then played move by move, else the honest player's moves (engine.hints) or a simple
    player's. The touch that wakes the kiosk is swallowed (it plays no move) and the
    visitor's table comes back."""

    name = "attract"

    opaque = True
    modal = True
    MOVE_EVERY = 0.9
    PAUSE_AFTER_DEAL = 2.0
    SOLVE_SECONDS = 5.0

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.rng = random.Random()
        self.seen: set[Any] = set()
        self.line: list[str] = []
        self.solving: Game | None = None  # the demo game the solver works on
        self.search: tuple[Game, Future[tuple[str, list[str]]]] | None = None
        # The demo's table is a table scene of its own, on a DemoApp (all it asks of an App).
        host = cast("App", DemoApp(app))
        self.demo = cast("TableScene", app.scenes.factory("table")(host, game=self._deal()))
        self.demo.first_line = False  # the computer needs no how-to-play line
        self.wait = self.PAUSE_AFTER_DEAL  # the demo rests this long after it settles
        self.settled = app.clock.time  # when it last settled (the fixed clock's time)
        self.banner: pygame.Surface | None = None
        self.banner_rect = Rect(0, 0, 0, 0)
        self.resize()

    def _deal(self) -> Game:
        try:
            game = self.app.games.new()
        except Exception:  # a damaged catalog must not stop the attract screen
            game = Game.from_code("RU1-C-AAAAABB")
        self.seen, self.line, self.search = set(), [], None
        self._solve(game)
        return game

    def _solve(self, game: Game) -> None:
        """Look for a winning line in the demo worker (app.workers): the loop keeps answering
        touches while it works."""
        self.solving = game
        self.search = (game, self.app.workers.solve(game, self.SOLVE_SECONDS))

    @property
    def solved(self) -> tuple[Game, list[str]] | None:
        """The demo game and its winning line (empty: none found) once the search is done."""
        if self.search is None or not self.search[1].done():
            return None
        game, future = self.search
        try:
            status, line = future.result()
        except Exception as error:  # a solver bug must not stop the attract screen
            log.warning("attract solver failed: %r", error)
            status, line = "unknown", []
        return game, (list(line) if status == "won" else [])

    def resize(self) -> None:
        if not hasattr(self, "demo"):
            return
        self.demo.resize()
        w, h = self.app.screen.get_size()
        size = max(18, int(min(w, h) * 0.06))
        room = int(w * 0.94) - 2 * size
        text = ui.fit_text(self.tr("kiosk.attract"), room, size, ui.BUTTON_ON, True)
        box = Rect(0, 0, text.get_width() + size * 2, text.get_height() + size)
        self.banner = pygame.Surface(box.size).convert()
        self.banner.fill((16, 30, 22))
        pygame.draw.rect(self.banner, ui.PANEL_EDGE, box, 3)
        self.banner.blit(text, text.get_rect(center=box.center))
        lay = self.demo.layout
        self.banner_rect = box
        self.banner_rect.center = (w // 2, (lay.columns[0].top + h) // 2)

    def handle(self, event: Event) -> bool:
        if isinstance(event, pygame.event.EventType):
            if event.type == pygame.KEYDOWN:
                self.wake()
            return True
        if isinstance(event, Tap | DoubleTap | Drop | DragCancel):
            self.wake()
        return True

    def wake(self) -> None:
        log.info("idle: woken")
        self.app.scenes.pop(self)

    def update(self, dt: float) -> None:
        self.demo.update(dt)
        now = self.app.clock.time
        if self.demo.busy():
            self.settled = now
            return
        if now - self.settled < self.wait:
            return
        game = self.demo.game
        if self.solving is game:
            solved = self.solved
            if solved is not None and solved[0] is game:
                self.line, self.solving = solved[1], None
            else:
                if now - self.settled - self.wait < self.SOLVE_SECONDS + 2.0:
                    return  # the deal rests on the table while the solver thinks
                self.solving = None
        self.wait, self.settled = self.MOVE_EVERY, now
        move = None if game.is_won else self._next(game)
        if move is None:
            self.demo.start_game(self._deal())
            self.wait = self.PAUSE_AFTER_DEAL
            return
        self.seen.add(game.position_key())
        self.demo.make_move(move)

    def _next(self, game: Game) -> Move | None:
        """The winning line's next move, else the honest player's, else the simple one's."""
        while self.line:
            planned = Move.parse(self.line.pop(0))
            if game.is_legal(planned):
                return planned
            self.line = []  # off the line (cannot happen unless the solver erred)
        move = heuristic_move(game)
        if move is not None and game.is_legal(move):
            after = game.copy()
            after.push(move)
            if after.position_key() not in self.seen:
                return move
        return demo_move(game, self.seen, self.rng)

    def busy(self) -> bool:
        return self.demo.busy()

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        rects = self.demo.draw(screen, full)
        if (full or rects) and self.banner is not None:
            screen.blit(self.banner, self.banner_rect)
            if not full:
                rects.append(Rect(self.banner_rect))
        return rects
