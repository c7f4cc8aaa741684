"""The table scene: what lies under the finger, and the view.

The table's state and its commands are its model's (``self.model``: game.table.model.TableModel:
every move through ``push_move``, undo, redo, a tap, a double tap, a lift and a drop), which
reports to ``app.hooks`` (``moved``, ``undone``, ``lifted``, ``refused``) through the scene
(the model's ``Outside``); a new deal goes through :meth:`TableScene.start_game` (``ended``,
``started``). The scene hit-tests (game.table.touch hands the card or button under a gesture
to the model), makes its helpers after the model, each given it and the callbacks it needs
(game.table.hints, finish, select; game.table.flow's functions get plain values), and last
the view (game.table.view), which reads the scene and changes nothing in it. Time is
``app.clock.time``.
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
from game.table.finish import Finisher, shown_buttons
from game.table.flow import deal_day, deal_label, replace_game, shown_code
from game.table.hints import HintClient, HintJob, HintMark
from game.table.model import BLINK_HZ, TableModel
from game.table.select import Chooser
from game.table.toast import ScreenBoard
from game.table.view import TableView

if TYPE_CHECKING:
    from game.hooks import Hooks, Left
    from game.host import Host
    from game.look.cards import CardArt
    from game.saves.prefs import PlayerSettings


class TableScene(Scene):
    """The table: gestures to engine commands. It owns its state (``self.model``:
    game.table.model.TableModel, the one place its fields are reached: ``table.model.toast``)
    and makes its helpers after it: the hint, the finish, the chosen
    card (each given the state and the table's callbacks it needs) and, last, the view."""

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
            double_tap_window=window,
        )
        self.hints = HintClient(
            self.model,
            app.workers,
            tr=lambda: self.tr,
            now=self.now,
            wanted=lambda: self.app.settings.winnable_indicator,
            toast=self.model.show_toast,
            undo=self.model.undo,
            confirm=self.ask,
            back=self.back,
            new_deal=lambda: self.start_game(self.app.games.new()),
        )
        self.finisher = Finisher(self.model, self.model.make_move)  # the Finish button's run
        self.chooser = Chooser(  # "Tap to place": the chosen card (game.table.select)
            self.model, play=self.model.make_move, button_at=self.button_at, card_at=self.card_at
        )
        self.view = TableView(self)  # last: it reads the scene and its helpers
        self.hints.sync_indicator()

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
        return shown_buttons(self.finisher.offered(), self.model.layout)

    def finish_offered(self) -> bool:
        """Whether Finish is shown in Hint's place (game.table.finish)."""
        return self.finisher.offered()

    @property
    def hint_mark(self) -> HintMark | None:
        return self.hints.mark

    @property
    def hint_job(self) -> HintJob | None:
        return self.hints.job

    @property
    def indicator_status(self) -> str:
        return self.hints.status

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
        return (time, moves, score, shown_code(game, self.model.deal), self.hints.label())

    @property
    def hooks(self) -> Hooks:  # the model's Outside: what its commands report to
        return self.app.hooks

    def position_changed(self) -> None:  # the model's Outside: the hint goes, the indicator is told
        self.hints.moved()

    def ask_hint(self) -> None:  # the model's Outside: the solver is asked (game.table.hints)
        self.hints.ask()

    def finish(self) -> None:  # the model's Outside: the Finish run starts (game.table.finish)
        self.finisher.start(self.now())

    def hinted(self) -> list[Rect]:  # the model's Outside: a message keeps off the hint's cards
        return self.hints.marked()

    def deal_label(self) -> str:
        """The kind of deal on the table, in words (the title, the win screen)."""
        return deal_label(self.tr, self.model.deal, self.model.deal_day, self.app.arcade.today())

    def keep_first_line(self) -> None:
        """A fresh start (and the next visitor of an idle kiosk) sees one line on how to play
        and where the rules are, shown again whenever nothing else is, until the first move."""
        if not self.model.first_line:
            return
        text = self.tr("table.first_time")
        if self.model.game.moves:
            self.model.first_line = False
            self.model.drop_toast(text)
        elif self.model.toast is None and self.model.active and not self.model.drag:
            cards = [self.model.places.group_rect(col[0]) for col in self.model.game.cols if col]
            self.model.show_toast(text, cards)  # clear of the cards: a banner at the top if need be

    def forget_visitor(self) -> None:
        """The kiosk went idle (game.kiosk.controller): nothing of the last visitor's touch waits
        for the next one (a Finish stops, the chosen card and the hint go: TableModel.forget_touch
        says the rest; tests/kiosk/test_next_visitor.py lists what is kept and what is reset)."""
        self.finisher.stop()
        self.chooser.drop()
        self.hints.forget_visitor()
        self.model.forget_touch()

    def busy(self) -> bool:
        busy = (
            self.model.tweens
            or self.model.drag
            or self.model.pending_win
            or self.finisher.busy(self.now())
        )
        return bool(busy or self.hints.thinking)

    def blink(self) -> bool:
        """Whether the hinted move's outline is lit now (it blinks at BLINK_HZ)."""
        return int(self.now() * BLINK_HZ) % 2 == 0

    def deadline(self) -> float | None:
        """When the table next changes by itself (TableModel.deadline; the hint's too)."""
        now = self.now()
        return self.model.deadline(now, self.hints.deadline(now), self.hints.mark is not None)

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

    def start_game(self, game: Game, *, left: Left = "abandoned") -> None:
        """Show a new game (from the new-game dialog, a code, the win screen, the idle timer).
        An unfinished game with moves is reported as ended with ``left`` (game.hooks.Left)."""
        self.model.finish_tweens()
        old = self.model.game
        shape = (old.rules.columns, old.rules.cells)
        columns_changed = (game.rules.columns, game.rules.cells) != shape
        if old is not game and old.moves and not old.is_won:
            self.app.hooks.ended(old, left)
        self.model.game = game
        self.model.first_line = left == "idle"  # once a visitor: again only for the next one
        self.model.deal = self.app.games.level_of(game)
        self.model.deal_day = deal_day(self.app, game, self.model.deal)
        self.model.play_time.reset()
        self.model.drag = None
        self.model.toast = None
        self.model.last_tap = None
        self.model.pending_win = False
        if columns_changed:
            self.resize()
        self.model.changed()
        self.hints.moved()
        self.app.hooks.started(game)

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
        self.hints.sync_indicator()  # the setting may have changed

    def close(self) -> None:
        """The table goes away: forget the hint, stop the indicator (app.workers.close stops
        every worker process on quit)."""
        self.hints.drop()
        self.hints.close_indicator()

    def update(self, dt: float) -> None:
        now, model = self.app.clock.time, self.model
        model.tick(now, dt)  # the clock, the glides, the toast, the marks, a held column
        self.hints.poll(now)
        self.finisher.step(now)
        model.answer_due(now)  # a tap's refusal, once no double tap can follow
        self.keep_first_line()
        if model.pending_win and not model.tweens and model.active:
            model.pending_win = False
            self.app.scenes.open("win", game=model.game, play_time=model.play_time)
