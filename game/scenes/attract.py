"""The attract screen of an idle kiosk: the computer plays a deal of its own, and between its
moves the screen rotates through today's best, the all-time best and how to play."""

from __future__ import annotations

import logging
import random
from concurrent.futures import Future
from dataclasses import replace
from typing import TYPE_CHECKING, cast

import pygame
from pygame import Rect

from engine import FOUNDATION, Game, Move
from engine.game import PositionKey
from engine.rules import REGISTRY, Rules
from engine.search.hints import heuristic_move
from game.input import DoubleTap, DragCancel, Drop, Tap
from game.look import ui
from game.scene import Event, Scene
from game.scenes.boards import Board, howto_board, rule_set_board, shown_level
from game.scenes.demo import DemoHost

if TYPE_CHECKING:
    from game.games import GameChoice
    from game.host import AppHost, Showing
    from game.table.scene import TableScene


log = logging.getLogger("solitaire.kiosk")


def demo_move(game: Game, seen: set[PositionKey], rng: random.Random) -> Move | None:
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
    """An idle kiosk: the computer plays a deal under "Touch the screen to play". Each turn of
    the rotation is about one game, the games taking turns (the player's or the operator's
    chosen game first): the demo deals it, and the boards show its high scores and how to
    play it. The deal is
    solved in the demo worker process first (a few seconds, the loop keeps running); a winning line
    is then played move by move, else the honest player's moves (engine.search.hints) or a simple
    player's. The touch that wakes the kiosk is swallowed (it plays no move) and the
    visitor's table comes back."""

    app: AppHost  # over the visitor's table (game.host)
    name = "attract"

    opaque = True
    modal = True
    MOVE_EVERY = 0.9
    PAUSE_AFTER_DEAL = 2.0
    SOLVE_SECONDS = 5.0
    # The rotation: the demo plays, then each board shows for a while (seconds).
    ROTATION: tuple[tuple[Showing, float], ...] = (
        ("demo", 30.0),
        ("today", 8.0),
        ("all", 8.0),
        ("howto", 8.0),
    )

    def __init__(self, app: AppHost, showing: Showing = "demo") -> None:
        super().__init__(app)
        names = [name for name, _ in self.ROTATION]
        self.phase = names.index(showing) if showing in names else 0
        self.phase_since = app.clock.time
        games = REGISTRY.games()
        first = app.games.choice.game
        start = games.index(first) if first in games else 0
        self.games = games[start:] + games[:start]  # a turn of the rotation each
        self.turn = 0
        self.board: Board | None = None
        self.rng = random.Random()
        self.seen: set[PositionKey] = set()
        self.line: list[str] = []
        self.solving: Game | None = None  # the demo game the solver works on
        self.search: tuple[Game, Future[tuple[str, list[str]]]] | None = None
        # The demo's table is a table scene of its own, on a host of its own (game.host.Host).
        host = DemoHost(app)
        table = app.scenes.factory("table")(host, game=self._deal(), pictures=True)
        self.demo = cast("TableScene", table)
        self.demo.model.quiet()  # the computer needs no how-to-play line
        self.wait = self.PAUSE_AFTER_DEAL  # the demo rests this long after it settles
        self.settled = app.clock.time  # when it last settled (the fixed clock's time)
        self.banner: pygame.Surface | None = None
        self.banner_rect = Rect(0, 0, 0, 0)
        self.resize()

    def _choice(self) -> GameChoice:
        """The game choice this turn of the rotation is about: its game, with the rule set
        chosen for it."""
        return replace(self.app.games.choice, game=self.games[self.turn % len(self.games)])

    @property
    def rules(self) -> Rules:
        """The rule set this turn of the rotation is about (the chosen one of its game)."""
        return self._choice().rules

    def _deal(self) -> Game:
        try:
            game = self.app.games.new(choice=self._choice())
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
        lay = self.demo.model.layout
        self.banner_rect = box
        self.banner_rect.center = (w // 2, (lay.columns[0].top + h) // 2)
        self.board = self._board()
        if self.board is not None:  # the banner under the board
            bottom = (h + self.board.image.get_height()) // 2
            self.banner_rect.centery = min(h - box.height // 2 - 2, (bottom + h) // 2)

    @property
    def showing(self) -> Showing:
        """What the screen shows now: "demo", "today", "all" or "howto"."""
        return self.ROTATION[self.phase][0]

    def _board(self) -> Board | None:
        """The board of the current phase (None while the demo plays)."""
        showing, tr = self.showing, self.tr
        size = self.app.screen.get_size()
        rules = self.rules
        if showing == "howto":
            return howto_board(size, tr, rules)
        if showing not in ("today", "all"):
            return None
        arcade, chosen = self.app.arcade, self.app.games.choice.following(rules).deal_level()
        level = shown_level(arcade, rules.key, chosen) if showing == "all" else None
        return rule_set_board(size, tr, arcade, rules.key, showing, level=level)

    def shown_texts(self) -> list[str]:
        """The texts on screen (the scripted player's ``state`` reports them)."""
        if self.board is not None:
            board = self.board.texts
        else:  # the demo table, and its title naming its game
            view = self.demo.view
            board = [view.chrome.title_text()] if view is not None else []
        return [*board, self.tr("kiosk.attract")]

    def _rotate(self) -> None:
        """The next phase when this one has run its time."""
        now = self.app.clock.time
        if now - self.phase_since < self.ROTATION[self.phase][1]:
            return
        if self.showing == "demo" and self.demo.busy():
            return  # a card in flight lands first
        self.phase = (self.phase + 1) % len(self.ROTATION)
        self.phase_since = now
        self.settled = now  # the demo rests a moment when it comes back
        if self.phase == 0:  # the next game's turn: its deal
            self.turn += 1
            self.demo.start_game(self._deal())
            self.wait = self.PAUSE_AFTER_DEAL
        self.resize()
        self.app.redraw()

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
        self._rotate()
        if self.board is not None:
            return  # the demo waits under the board
        self.demo.update(dt)
        now = self.app.clock.time
        if self.demo.busy():
            self.settled = now
            return
        if now - self.settled < self.wait:
            return
        game = self.demo.model.game
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
        self.demo.model.make_move(move)

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

    def deadline(self) -> float | None:
        """A board shows until its time is up; the demo plays on a frame at a time."""
        if self.board is not None:
            return self.phase_since + self.ROTATION[self.phase][1]
        return self.app.clock.time + self.app.clock.step

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        if self.board is not None:
            if not full:
                return []
            self.demo.draw(screen, True)
            shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
            shade.fill((0, 0, 0, 140))
            screen.blit(shade, (0, 0))
            image = self.board.image
            w, h = screen.get_size()
            screen.blit(image, image.get_rect(center=(w // 2, h // 2 - h // 20)))
            if self.banner is not None:
                screen.blit(self.banner, self.banner_rect)
            return [screen.get_rect()]
        rects = self.demo.draw(screen, full)
        if (full or rects) and self.banner is not None:
            screen.blit(self.banner, self.banner_rect)
            if not full:
                rects.append(Rect(self.banner_rect))
        return rects
