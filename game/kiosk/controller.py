"""The kiosk on screen: the controller the App is given, only for a kiosk (``is_kiosk``: the
lock on, or the idle times asked for without it). Its screens are scenes of their own
(game/scenes: stats, pin, attract), opened by name.

``App(parts, game, kiosk=kiosk_factory(config, session))``: the App makes the controller with
itself as host. The controller filters raw events (kiosk lock, idle timer, the long press on the
game code), tells the loop its deadlines and runs once per update step (idle deadlines, the long
press), after the table's listeners (game.launch lists them). Saving is the session's
(game.saves.session), which every saved run has, a desktop's too.
"""

from __future__ import annotations

import copy
import logging
from typing import TYPE_CHECKING

import pygame
from pygame import Rect

from game.config import EXIT_OPERATOR, Config
from game.hooks import Left
from game.kiosk.models import EventAction, IdleTimer, LongPress, PinPad, classify_event
from game.saves.prefs import reset_visitor_settings, resets_visitors
from game.saves.session import Session, SetAside

if TYPE_CHECKING:
    from game.app import KioskFactory
    from game.host import AppHost

log = logging.getLogger("solitaire.kiosk")

INPUT_EVENTS = frozenset(
    {
        pygame.MOUSEBUTTONDOWN,
        pygame.MOUSEBUTTONUP,
        pygame.MOUSEMOTION,
        pygame.MOUSEWHEEL,
        pygame.FINGERDOWN,
        pygame.FINGERUP,
        pygame.FINGERMOTION,
        pygame.KEYDOWN,
        pygame.KEYUP,
    }
)
MAX_HOLD_S = 120.0  # a press longer than this is a lost release, not a person
CODE_AREA = 0.36  # the right part of the info bar, where the game code is, takes the long press


class KioskController:
    """Event filter, deadline and update step of the App (see kiosk_factory), made with the App
    as host; ``session``: the run's (its state directory, its saves)."""

    def __init__(self, app: AppHost, config: Config, session: Session) -> None:
        self.app = app
        self.config = config
        self.session = session
        self.lock = config.kiosk.lock
        now = app.clock.time
        self.idle = IdleTimer.from_config(config, now)
        ppm = app.px_per_mm or 4.0
        self.long_press = LongPress(config.kiosk.exit_press_seconds, slop_px=4 * ppm)
        self.pin = PinPad.persistent(config.kiosk.operator_pin_hash, session.directory, now)
        self.exit_enabled = self.lock and bool(config.kiosk.operator_pin_hash)
        self.fresh_dealt = False  # the idle period's fresh deal is done
        self.default_choice = copy.deepcopy(app.games.choice)  # the operator's (config)
        self.pressing = False  # a finger held still is not idle...
        self.press_since = 0.0  # ...for a while: a lost release must not keep the kiosk awake
        self.hold_since: float | None = None  # when the press the long press follows began

    # ---------------------------------------------------------------- raw events
    def filter(self, event: pygame.event.Event) -> bool:
        """False drops the event (the kiosk lock); input also resets the idle timer."""
        action = classify_event(event, lock=self.lock)
        if action is EventAction.DROP:
            return False
        if event.type == pygame.WINDOWFOCUSLOST:
            self.pressing = False
        if event.type in INPUT_EVENTS:
            if event.type == pygame.MOUSEBUTTONDOWN:
                self.pressing, self.press_since = True, self.app.clock.time
            elif event.type == pygame.MOUSEBUTTONUP:
                self.pressing = False
            self.idle.touch(self.app.clock.time)
            self.fresh_dealt = False
        return True

    def code_area(self) -> Rect:
        bar = self.app.table.model.layout.info_bar
        width = int(bar.width * CODE_AREA)
        return Rect(bar.right - width, bar.top, width, bar.height)

    def _follow_press(self) -> None:
        """The long press on the game code, as the gesture reader sees the press in progress
        (game.input.GestureReader.held: table coordinates, still within the tap slop)."""
        hold = self.app.reader.held(self.app.clock.now_ms) if self.exit_enabled else None
        if hold is None:
            self.long_press.release()
            self.hold_since = None
        elif hold.since != self.hold_since:  # a new press
            self.hold_since = hold.since
            on_table = self.app.scenes.top.name == "table"  # the bottom scene
            inside = on_table and self.code_area().collidepoint(hold.pos)
            self.long_press.press(hold.pos, hold.since / 1000, inside=inside)

    def deadline(self) -> float | None:
        """When the kiosk next acts by itself (the App's loop sleeps until then): the next idle
        deadline; every frame while a finger holds the game code."""
        now = self.app.clock.time
        if self.long_press.is_pressing:
            return now + self.app.clock.step
        wait = self.idle.next_deadline(now)
        return None if wait is None else now + wait

    # ---------------------------------------------------------------- every update step
    def step(self, dt: float) -> None:
        now = self.app.clock.time
        self._follow_press()
        if self.long_press.update(now):
            self.long_press.release()
            log.info("operator exit gesture: PIN keypad opened")
            self.app.scenes.open("pin", controller=self)
            return
        if self.pressing and now - self.press_since < MAX_HOLD_S:
            self.idle.touch(now)
        if self.app.scenes.find("pin") is not None:
            return
        if self.idle.fresh_deal_due(now) and not self.fresh_dealt:
            self.fresh_dealt = True
            self.fresh_deal()
        if self.idle.attract_due(now) and self.app.scenes.top.name != "attract":
            table = self.app.table
            if table.busy() and table.model.drag is None:  # a drag this old lost its release
                return
            self.start_attract()

    def fresh_deal(self) -> None:
        """The next visitor gets the operator's settings and a new deal (an unfinished game is
        counted and logged as left)."""
        attract = self.app.scenes.top.name == "attract"
        self.next_visitor(deal=True)
        if attract:
            self.app.scenes.open("attract")

    def next_visitor(self, *, deal: bool) -> None:
        """Undo what the last visitor changed, moves or not: the open screens close, nothing of
        the table's transient state stays (TableScene.forget_visitor); in kiosk mode
        (game.saves.prefs.resets_visitors) the settings, sound, language and game choice are the
        operator's again. The table gets a new deal when ``deal`` and the game has a move, when
        the game is won, or when it has no move and is not of the (operator's) chosen game."""
        app, table = self.app, self.app.table
        app.scenes.pop_to_bottom()
        table.forget_visitor()  # a paused Finish, a chosen card, a drag, a hint, a toast...
        app.reader.reset()  # ...and the input layer's half-read gesture
        resets = resets_visitors(self.config)
        chose = resets and app.games.choice != self.default_choice
        if chose:
            app.games.choice = copy.deepcopy(self.default_choice)
            log.info("idle: the game choice is back to the operator's default")
        reset_visitor_settings(app, self.config, self.session.directory)
        game = table.model.game
        other = resets and (chose or game.rules.key != app.games.choice.rules_key())
        if game.is_won or (game.moves and deal) or (not game.moves and other):
            left: Left = "idle"
            if not self.lock and game.moves and not game.is_won:  # idle_unlocked: resumable
                left = "aside"
                self.session.set_aside(game)
            table.start_game(app.games.new(), left=left)
            log.info("idle: fresh deal %s", table.model.game.code)

    @property
    def aside(self) -> SetAside | None:
        """The game an unlocked idle deal replaced, kept by the session to resume."""
        return self.session.aside

    def resume_aside(self) -> None:
        """New game's "Resume the game left idle": the set-aside game back on the table (the
        one there now asked about first when it has moves)."""
        aside = self.aside
        if aside is not None:
            self.app.table.replace_game(lambda: aside.game)

    def start_attract(self) -> None:
        table = self.app.table
        self.next_visitor(deal=False)
        self.session.checkpoint(table.model.game)  # saved with the clock
        self.app.scenes.open("attract")
        log.info("idle: attract screen")

    def operator_exit(self) -> None:
        log.info("operator exit with the PIN")
        self.app.exit_status = EXIT_OPERATOR
        # As any quit: every listener's shutdown (the session's save, the metrics' last write,
        # the venue's disconnect), then the workers and the sound stop and the loop ends.
        self.app.quit()


def kiosk_factory(config: Config, session: Session) -> KioskFactory:
    """What makes the kiosk controller for the App (``App(..., kiosk=...)``)."""

    def make(app: AppHost) -> KioskController:
        return KioskController(app, config, session)

    return make
