"""The kiosk on screen: the controller that hooks into the App, the statistics screen, the
operator's PIN keypad and the attract screen of an idle kiosk.

`attach_kiosk(app, config, session)` wires everything: the session gets the table's reports
(autosave, statistics, logs), the controller filters raw events (kiosk lock, idle timer, the
long press on the game code) and runs once per update step (idle deadlines, the long press).
"""

from __future__ import annotations

import logging
import random
import threading
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame
from pygame import Rect

from engine import FOUNDATION, Game, Move
from game import ui
from game.config import EXIT_OPERATOR, Config
from game.dialogs import Dialog
from game.input import DoubleTap, DragCancel, Drop, Tap
from game.keypad import Key, KeypadLook, add_keypad
from game.kiosk import (
    EventAction,
    IdleTimer,
    LongPress,
    PinPad,
    PinResult,
    apply_lock,
    classify_event,
)
from game.prefs import reset_visitor_settings
from game.scenes import Event, Scene
from game.session import Session
from game.stats import RULE_SET_KEYS, RuleSetStats
from game.ui import Control

if TYPE_CHECKING:
    from game.app import App
    from game.table import TableScene

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
PIN_KEYPAD = KeypadLook(columns=3, max_w=7.5, max_h=10, title_size=0.45, message_h=0.8)
CODE_AREA = 0.36  # the right part of the info bar, where the game code is, takes the long press


class KioskController:
    """Event filter and per-step hook of the App (see attach_kiosk)."""

    def __init__(self, app: App, config: Config, session: Session) -> None:
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
        self.pressing = False  # a finger held still is not idle...
        self.press_since = 0.0  # ...for a while: a lost release must not keep the kiosk awake

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
            self._track_long_press(event)
        return True

    def code_area(self) -> Rect:
        bar = self.app.table.layout.info_bar
        width = int(bar.width * CODE_AREA)
        return Rect(bar.right - width, bar.top, width, bar.height)

    def _track_long_press(self, event: pygame.event.Event) -> None:
        if not self.exit_enabled:
            return
        event = self.app.presenter.map_event(event)  # window -> table coordinates (rotate)
        if event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1:
            on_table = self.app.top is self.app.table
            inside = on_table and self.code_area().collidepoint(event.pos)
            self.long_press.press(event.pos, self.app.clock.time, inside=inside)
        elif event.type == pygame.MOUSEMOTION:
            self.long_press.move(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.long_press.release()

    # ---------------------------------------------------------------- every update step
    def step(self, dt: float) -> None:
        now = self.app.clock.time
        if self.long_press.update(now):
            self.long_press.release()
            log.info("operator exit gesture: PIN keypad opened")
            self.app.push(PinScene(self.app, self))
            return
        if self.pressing and now - self.press_since < MAX_HOLD_S:
            self.idle.touch(now)
        if any(isinstance(s, PinScene) for s in self.app.scenes):
            return
        table = self.app.table
        if self.idle.fresh_deal_due(now) and not self.fresh_dealt:
            self.fresh_dealt = True
            if table.game.moves or table.game.is_won:
                self.fresh_deal()
        if self.idle.attract_due(now) and not isinstance(self.app.top, AttractScene):
            if table.busy():
                return
            self.start_attract()

    def fresh_deal(self) -> None:
        """The next visitor gets a new deal (the abandoned game is counted and logged)."""
        app, table = self.app, self.app.table
        attract = isinstance(app.top, AttractScene)
        app.pop_to_table()
        reset_visitor_settings(app, self.config, self.session.directory)
        table.start_game(app.new_game(), left="idle")
        log.info("idle: fresh deal %s", table.game.code)
        if attract:
            app.push(AttractScene(app))

    def start_attract(self) -> None:
        table = self.app.table
        if table.game.is_won:
            self.fresh_deal()
        self.session.checkpoint(table.game)  # saved with the clock
        self.app.pop_to_table()
        self.app.push(AttractScene(self.app))
        log.info("idle: attract screen")

    def operator_exit(self) -> None:
        log.info("operator exit with the PIN")
        self.session.shutdown(self.app.table.game)
        self.app.table.close()
        self.app.exit_status = EXIT_OPERATOR
        self.app.running = False


def attach_kiosk(app: App, config: Config, session: Session, *, resumed: bool) -> KioskController:
    """Hook the session and the kiosk controller into the App. When the game on the table is
    not the resumed one, it is reported as a fresh deal (saved and logged)."""
    controller = KioskController(app, config, session)
    app.hooks.append(session)  # type: ignore[arg-type]  # duck-typed TableHooks (no pygame)
    app.hooks.append(controller)  # type: ignore[arg-type]  # duck-typed: step()
    app.event_filters.append(controller.filter)
    app.kiosk = controller
    apply_lock(config)
    if not resumed:
        session.started(app.table.game)
    return controller


# ============================================================================== statistics


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return ""
    s = round(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


class StatsScene(Dialog):
    """Games played and won per game and rule set, best time and score, win streaks."""

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        w, h = self.app.screen.get_size()
        kiosk = self.app.kiosk
        stats = kiosk.session.stats if kiosk is not None else None
        portrait = h > w
        self.panel = self.panel_rect(max_w=u * 18, max_h=u * 13)
        pad = int(u * 0.35)
        inner = self.panel.inflate(-2 * pad, -2 * pad)
        gap = max(6, int(u * 0.2))
        title_h = int(u * 0.8)
        button_h = int(u * 0.9)
        self.add(
            Control(
                Rect(inner.left, inner.top, inner.width, title_h),
                tr("stats.title"),
                kind="title",
                size=int(u * 0.5),
            )
        )
        cols = 1 if portrait or inner.width < u * 9 else 2
        rows = len(RULE_SET_KEYS) if cols == 1 else 3
        area = Rect(
            inner.left,
            inner.top + title_h + gap,
            inner.width,
            inner.height - title_h - button_h - 2 * gap,
        )
        card_w = (area.width - gap * (cols - 1)) / cols
        card_h = min((area.height - gap * (rows - 1)) / rows, u * 3.2)
        self.cards: list[Rect] = []
        for i, key in enumerate(RULE_SET_KEYS):
            r, c = i, 0
            if cols == 2:  # the Russian games on the left, the Seahaven ones on the right
                r, c = (i, 0) if key.startswith("RU") else (i - 2, 1)
            card = Rect(
                round(area.left + c * (card_w + gap)),
                round(area.top + r * (card_h + gap)),
                round(card_w),
                round(card_h),
            )
            self.cards.append(card)
            entry = stats[key] if stats is not None else RuleSetStats()
            self._card(card, tr(f"stats.{key}"), self._lines(entry))
        close = Rect(0, 0, int(inner.width * 0.4), button_h)
        close.midbottom = inner.midbottom
        self.add(Control(close, tr("dialog.close"), self.close, selected=True))

    def _lines(self, s: RuleSetStats) -> list[str]:
        tr = self.tr
        none = tr("stats.none")
        percent = round(100 * s.win_rate)
        return [
            f"{tr('stats.played')} {s.played} · {tr('stats.win_rate', percent=percent)}",
            f"{tr('stats.best_time')} {_clock(s.best_time) or none} · "
            f"{tr('stats.best_score')} {none if s.best_score is None else s.best_score}",
            f"{tr('stats.streak')} {s.current_streak} · {tr('stats.best_streak')} {s.best_streak}",
        ]

    def _card(self, card: Rect, title: str, lines: list[str]) -> None:
        inner = card.inflate(-int(card.height * 0.12), -int(card.height * 0.1))
        line_h = inner.height / (len(lines) + 1.3)
        size = int(min(line_h * 0.62, self.unit() * 0.4))
        self.add(
            Control(
                Rect(inner.left, inner.top, inner.width, round(line_h * 1.3)),
                title,
                kind="title",
                size=int(size * 1.1),
            )
        )
        for k, line in enumerate(lines):
            y = inner.top + line_h * (1.3 + k)
            self.add(
                Control(Rect(inner.left, round(y), inner.width, round(line_h)), line, kind="label")
            )
            self.controls[-1].size = size

    def paint(self, screen: pygame.Surface) -> None:
        ui.panel(screen, self.panel, radius=max(8, int(self.unit() * 0.25)))
        radius = max(6, int(self.unit() * 0.18))
        for card in self.cards:
            pygame.draw.rect(screen, (34, 60, 46), card, border_radius=radius)
        for control in self.controls:
            self.paint_control(screen, control)


# ============================================================================== operator PIN


class PinScene(Dialog):
    """The operator's keypad: digits, erase, OK, cancel. The right PIN ends the game with
    EXIT_OPERATOR; wrong ones are throttled (PinPad); an untouched keypad closes itself."""

    closable = True

    def __init__(self, app: App, controller: KioskController) -> None:
        self.controller = controller
        self.pad = controller.pin
        self.message = ""
        self.shown_wait = -1
        self.pad.open(app.clock.time)
        super().__init__(app)

    def build(self) -> None:
        tr = self.tr
        now = self.app.clock.time
        if not self.pad.stored_hash:
            message, error = tr("kiosk.pin_none"), True
        elif self.pad.is_locked(now):
            wait = int(self.pad.wait_left(now)) + 1
            self.shown_wait = wait
            message, error = tr("kiosk.pin_wait", seconds=wait), True
        elif self.message:
            message, error = self.message, True
        else:
            message, error = tr("kiosk.pin_hint"), False
        digits = [Key(digit, partial(self.press, digit)) for digit in "123456789"]
        add_keypad(
            self,
            PIN_KEYPAD,
            title=tr("kiosk.pin_title"),
            text=self.pad.masked,
            message=message,
            error=error,
            rows=[
                digits[0:3],
                digits[3:6],
                digits[6:9],
                [
                    Key("⌫", partial(self.press, "back")),
                    Key("0", partial(self.press, "0")),
                    Key(tr("kiosk.ok"), partial(self.press, "ok"), text="short", selected=True),
                ],
                [Key(tr("dialog.cancel"), partial(self.press, "cancel"), 3.0, "plain")],
            ],
        )

    def press(self, key: str) -> None:
        result = self.pad.press(key, self.app.clock.time)
        self.message = ""
        if result is PinResult.ACCEPTED:
            self.app.pop(self)
            self.controller.operator_exit()
            return
        if result is PinResult.CANCELLED:
            self.close()
            return
        if result is PinResult.REJECTED:
            self.message = self.tr("kiosk.pin_wrong")
            log.warning("operator PIN: wrong PIN")
        elif result is PinResult.LOCKED:
            log.warning("operator PIN: too many wrong PINs, waiting")
        self.rebuild()

    def on_key(self, event: pygame.event.Event) -> None:
        char = getattr(event, "unicode", "") or ""
        if event.key == pygame.K_ESCAPE:
            self.press("cancel")
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.press("ok")
        elif event.key == pygame.K_BACKSPACE:
            self.press("back")
        elif char.isdigit() and char.isascii():
            self.press(char)

    def update(self, dt: float) -> None:
        now = self.app.clock.time
        if self.pad.expired(now):
            self.press("cancel")
            return
        if self.pad.is_locked(now) and int(self.pad.wait_left(now)) + 1 != self.shown_wait:
            self.rebuild()
        elif not self.pad.is_locked(now) and self.shown_wait != -1:
            self.shown_wait = -1
            self.rebuild()


# ============================================================================== attract


class _DemoApp:
    """What a TableScene needs of the App, for the attract screen's own table: reports and
    pushed scenes go nowhere, so the demo never touches the visitor's game or the saves."""

    def __init__(self, app: App) -> None:
        self._app = app

    def __getattr__(self, name: str) -> Any:
        return getattr(self._app, name)

    def notify(self, event: str, *args: Any) -> None:
        pass

    def push(self, scene: Scene) -> None:
        pass


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
    solved in a background thread first (a few seconds, the loop keeps running); a winning line
    is then played move by move, else the honest player's moves (engine.hints) or a simple
    player's. The touch that wakes the kiosk is swallowed (it plays no move) and the
    visitor's table comes back."""

    opaque = True
    modal = True
    MOVE_EVERY = 0.9
    PAUSE_AFTER_DEAL = 2.0
    SOLVE_SECONDS = 5.0

    def __init__(self, app: App) -> None:
        super().__init__(app)
        from game.table import TableScene

        self.rng = random.Random()
        self.seen: set[Any] = set()
        self.line: list[str] = []
        self.solving: Game | None = None  # the demo game the solver thread works on
        self.solved: tuple[Game, list[str]] | None = None  # set by that thread
        self.solve_wait = 0.0
        self.demo: TableScene = TableScene(_DemoApp(app), self._deal())  # type: ignore[arg-type]
        self.wait = self.PAUSE_AFTER_DEAL
        self.banner: pygame.Surface | None = None
        self.banner_rect = Rect(0, 0, 0, 0)
        self.resize()

    def _deal(self) -> Game:
        try:
            game = self.app.new_game()
        except Exception:  # a damaged catalog must not stop the attract screen
            game = Game.from_code("RU1-C-AAAAABB")
        self.seen, self.line, self.solved = set(), [], None
        self._solve(game)
        return game

    def _solve(self, game: Game) -> None:
        """Look for a winning line off the frame loop (a daemon thread: it never holds up the
        exit, and the loop keeps answering touches while it works)."""
        try:
            from engine.solver import solve
        except ImportError:
            self.solving = None
            return
        self.solving, self.solve_wait = game, 0.0
        start = game.copy()

        def work() -> None:
            try:
                result = solve(start, time_limit=self.SOLVE_SECONDS)
                line = list(result.moves) if result.status == "won" else []
            except Exception:  # a solver bug must not stop the attract screen
                line = []
            self.solved = (game, line)

        threading.Thread(target=work, name="attract-solver", daemon=True).start()

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
        self.app.pop(self)

    def update(self, dt: float) -> None:
        self.demo.update(dt)
        if self.demo.busy():
            return
        self.wait -= dt
        if self.wait > 0:
            return
        game = self.demo.game
        if self.solving is game:
            solved = self.solved
            if solved is not None and solved[0] is game:
                self.line, self.solving = solved[1], None
            else:
                self.solve_wait += dt
                if self.solve_wait < self.SOLVE_SECONDS + 2.0:
                    return  # the deal rests on the table while the solver thinks
                self.solving = None
        self.wait = self.MOVE_EVERY
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
            move = Move.parse(self.line.pop(0))
            if game.is_legal(move):
                return move
            self.line = []  # off the line (cannot happen unless the solver erred)
        try:
            from engine.hints import heuristic_move

            move = heuristic_move(game)
            if move is not None and game.is_legal(move):
                after = game.copy()
                after.push(move)
                if after.position_key() not in self.seen:
                    return move
        except ImportError:
            pass
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
