"""The table scene: what lies under the finger, and the view.

The table's state and its commands are its model's (``self.model``: game.table.model.TableModel:
every move through ``push_move``, undo, redo, a tap, a double tap, a choice, a lift and a drop,
the hint and the Finish run, a new game, the next visitor's reset), which reports to
``app.hooks`` (``moved``, ``undone``, ``lifted``, ``refused``, ``ended``, ``started``) through
the scene (the model's ``Outside``: game.table.around). The scene hit-tests (game.table.touch
hands the card, button or place under a gesture to the model), opens the dialogs the model
asks for, lays the table out on the screen, and makes the view (game.table.view), which reads
the model and changes nothing in it. Time is ``app.clock.time``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame
from pygame import Rect

import game.table.touch as touch
from engine import Game
from engine.cards import Card
from game.clock import PlayTime
from game.look.layout import Command, Layout, compute_layout
from game.scene import Event, Scene
from game.table.finish import shown_buttons
from game.table.flow import deal_day, deal_label, replace_game, shown_code
from game.table.model import TableModel
from game.table.toast import ScreenBoard
from game.table.view import TableView

if TYPE_CHECKING:
    from game.hooks import Hooks, Left
    from game.host import Host
    from game.look.cards import CardArt
    from game.saves.prefs import PlayerSettings


class TableScene(Scene):
    """The table: gestures to the model's commands. It owns the model (``self.model``:
    game.table.model.TableModel, the one place its state is reached: ``table.model.toast``,
    ``table.model.hints``) and, made after it, the view."""

    name = "table"
    opaque = True

    def __init__(
        self,
        app: Host,
        game: Game,
        *,
        pictures: bool = False,
        least_text: Callable[[], int] = lambda: 0,
        play_time: PlayTime | None = None,
    ) -> None:
        """How it shows itself is its own: ``pictures``, its buttons do nothing here (a demo's
        table) and are drawn flat; ``least_text``, the smallest text size (px) it may draw its
        words at (0: its layout's own; an Examples table's is the visitor's info bar text);
        ``play_time``: the game's (the App's table: the session's; None: its own)."""
        super().__init__(app)
        self.buttons_are_pictures, self.least_text = pictures, least_text
        deal = app.games.level_of(game)  # "easy" .. "hard", "winnable", "random", "daily"
        day, board = deal_day(app, game, deal), ScreenBoard()
        window = app.reader.tuning.double_tap_ms / 1000  # a tap's refusal waits this long
        self.model = TableModel(
            game,
            self.fit(game),
            deal,
            day,
            play_time,
            board=board,
            outside=self,
            workers=app.workers,
            double_tap_window=window,
        )
        self.view = TableView(self)  # last: it reads the scene and its model
        self.model.hints.sync_indicator()

    # ================================================================= geometry
    def fit(self, game: Game) -> Layout:
        """The layout of ``game``'s table on the screen as it is now."""
        (w, h), mm, rules = self.app.screen.get_size(), self.app.px_per_mm, game.rules
        least = self.least_text()
        return compute_layout(
            w, h, columns=rules.columns, cells=rules.cells, px_per_mm=mm, least_text=least
        )

    def resize(self) -> None:
        self.model.layout = self.fit(self.model.game)
        self.model.changed()  # where the cards lie now (nothing held at a new size)
        self.view.resize()
        self.model.drag = None  # a resize in mid-drag drops nothing anywhere
        if self.model.toast:
            self.model.show_toast(self.model.toast.text)

    def card_at(self, pos: tuple[int, int]) -> Card | None:
        """The card drawn at ``pos`` (top-most; foundation: its top card): the view's."""
        return self.view.card_at(pos)

    def button_at(self, pos: tuple[int, int]) -> Command | None:
        return next((n for n, r in self.shown_buttons().items() if r.collidepoint(pos)), None)

    # ================================================================= what is shown
    @property
    def art(self) -> CardArt:
        return self.view.art

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        return self.view.draw(screen, full)

    def shown_buttons(self) -> dict[Command, Rect]:
        """The buttons shown now, by action (Finish in Hint's place: game.table.finish)."""
        return shown_buttons(self.model.finisher.offered(), self.model.layout)

    @property
    def settings(self) -> PlayerSettings:  # the view's and the chrome's
        return self.app.settings

    @property
    def save_failed(self) -> bool:  # shown until a save works
        return self.app.save_failed

    def now(self) -> float:
        return self.app.clock.time

    def bar_text(self) -> tuple[str, ...]:
        tr, game = self.tr, self.model.game
        time = tr("table.time", time=self.model.play_time.text())
        moves, score = tr("table.moves", count=game.moves), tr("table.score", score=game.score)
        return (time, moves, score, shown_code(game, self.model.deal), self.model.hints.label())

    @property
    def hooks(self) -> Hooks:  # the model's Outside: what its commands report to
        return self.app.hooks

    def deal_label(self) -> str:
        """The kind of deal on the table, in words (the title, the win screen)."""
        return deal_label(self.tr, self.model.deal, self.model.deal_day, self.app.arcade.today())

    def forget_visitor(self) -> None:
        """The kiosk went idle (game.kiosk.controller): TableModel.forget_visitor."""
        self.model.forget_visitor()

    def busy(self) -> bool:
        return self.model.busy(self.now())

    def blink(self) -> bool:
        """Whether the hinted move's outline is lit now (TableModel.blink)."""
        return self.model.blink(self.now())

    def deadline(self) -> float | None:
        """When the table next changes by itself (TableModel.deadline)."""
        return self.model.deadline(self.now())

    # ================================================================= commands
    def replace_game(self, make: Callable[[], Game]) -> None:
        """Another game, asked first when moves would be thrown away (game.table.flow)."""
        replace_game(
            self.model.game, make, start=self.start_game, tr=self.tr, ask=self.ask, back=self.back
        )

    def ask(self, question: str, yes: str, no: str, on_yes: Callable[[], None]) -> None:
        """A yes/no question over the table; "no" comes back to the table."""
        self.app.scenes.open(
            "confirm", question=question, yes=yes, no=no, on_yes=on_yes, on_no=self.back
        )

    def back(self) -> None:
        """Back to the table: every scene over it goes."""
        self.app.scenes.pop_to_bottom()

    def new_deal(self) -> None:  # the model's Outside: a new deal at once (the lost hint's offer)
        self.start_game(self.app.games.new())

    def start_game(self, game: Game, *, left: Left = "abandoned") -> None:
        """Show a new game (from the new-game dialog, a code, the win screen, the idle timer):
        TableModel.start, laid out again at a new number of columns or cells."""
        old = self.model.game.rules
        relaid = (game.rules.columns, game.rules.cells) != (old.columns, old.cells)
        deal = self.app.games.level_of(game)
        day, layout = deal_day(self.app, game, deal), self.fit(game) if relaid else None
        self.model.start(game, deal, day, layout=layout, left=left)
        if relaid:
            self.view.resize()

    # ================================================================= gestures
    def handle(self, event: Event) -> bool:
        return touch.handle(self, event)  # game.table.touch

    def press_button(self, name: Command) -> None:
        """A button: the model's command (undo, redo, hint, Finish), else a dialog."""
        if self.model.button(name):
            return
        if name == "new":
            self.app.scenes.open("newgame")
        elif name == "settings":
            self.app.scenes.open("settings")

    # ================================================================= time
    def pause(self) -> None:
        self.model.active = False
        self.model.finish_tweens()
        if self.model.drag:
            self.model.drag = None
            self.model.repaint()

    def resume(self) -> None:
        self.model.active = True
        self.model.repaint()
        self.model.hints.sync_indicator()  # the setting may have changed

    def close(self) -> None:
        """The table goes away: forget the hint, stop the indicator (app.workers.close stops
        every worker process on quit)."""
        self.model.hints.drop()
        self.model.hints.close_indicator()

    def update(self, dt: float) -> None:
        model = self.model
        if model.update(self.app.clock.time, dt):  # the win screen is due
            self.app.scenes.open("win", game=model.game, play_time=model.play_time)
