"""The kiosk on the real table, headless: autosave and resume, the lock, the operator's exit,
the idle attract screen and fresh deal, the statistics screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from engine import Game
from game.app import App
from game.config import EXIT_OPERATOR, Config, config_from_dict, hash_pin
from game.hooks import TableHooks
from game.kiosk.controller import KioskController
from game.saves.persist import load_stats
from game.saves.session import Session
from game.scenes.attract import AttractScene
from game.scenes.pin import PinScene
from game.scenes.stats import StatsScene
from game.table.scene import TableScene
from tests.helpers.kioskhelp import (
    CODE,
    isolated_logging,  # noqa: F401 (autouse fixture)
    kiosk_app,
    saved_app,
    wait,
)
from tests.helpers.tablehelp import Finger, almost_won, make_app

pytestmark = pytest.mark.app

PIN = "246813"
PIN_HASH = hash_pin(PIN, iterations=100_000)


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


def kiosk_config(**kiosk: object) -> Config:
    settings = {"lock": True, "operator_pin_hash": PIN_HASH, "idle_attract_minutes": 0.05}
    settings.update(kiosk)
    config, problems = config_from_dict({"kiosk": settings})
    assert len(problems) == (1 if settings["lock"] and not settings["operator_pin_hash"] else 0)
    return config


def test_every_move_is_saved_and_resumed_exactly(tmp_path: Path) -> None:
    app, _ = kiosk_app(tmp_path, kiosk_config())
    finger = Finger(app)
    finger.tap(finger.card("AH"))
    finger.settle(2.0)
    finger.tap(finger.button("undo"))
    finger.settle(1.0)
    finger.tap(finger.card("AH"))
    clock_at_last_move = app.table.model.play_time.seconds
    finger.settle(1.0)  # time after the last move is not saved until the next save
    played = app.table.model.game
    assert played.moves == 2
    again, _ = kiosk_app(tmp_path, kiosk_config())
    assert again.table.model.game.to_dict() == played.to_dict()  # cards, score, counter, history
    assert again.table.model.play_time.seconds == pytest.approx(clock_at_last_move, abs=0.02)
    assert again.table.model.play_time.seconds > 2.5
    assert again.table.model.game.pop()  # the undo history came back too


def test_quit_from_systemd_saves_and_stops_even_when_locked(tmp_path: Path) -> None:
    app, _ = kiosk_app(tmp_path, kiosk_config())
    Finger(app).tap(Finger(app).card("AH"))
    app.step([pygame.event.Event(pygame.QUIT)])
    assert app.running is False and app.exit_status == 0
    resumed = Session(kiosk_config(), tmp_path).resume()
    assert resumed is not None and resumed.game.moves == 1


@pytest.mark.parametrize(
    "event",
    [
        pygame.event.Event(pygame.WINDOWCLOSE),
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"),
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F4, mod=pygame.KMOD_LALT, unicode=""),
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=pygame.KMOD_LCTRL, unicode="q"),
    ],
)
def test_lock_ignores_close_and_shortcuts(tmp_path: Path, event: pygame.event.Event) -> None:
    app, _ = kiosk_app(tmp_path, kiosk_config())
    Finger(app).tap(Finger(app).button("settings"))
    assert type(app.scenes.top).__name__ == "SettingsScene"
    app.step([event])
    assert app.running
    assert type(app.scenes.top).__name__ == "SettingsScene"  # not even Escape closes a dialog


def test_without_lock_escape_still_closes_a_dialog(tmp_path: Path) -> None:
    app = saved_app(tmp_path, kiosk_config(lock=False))
    Finger(app).tap(Finger(app).button("settings"))
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")])
    assert app.scenes.top is app.table


CLOSE = pygame.event.Event(pygame.WINDOWCLOSE)
ESCAPE = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b")


@pytest.mark.parametrize("event", [ESCAPE, CLOSE], ids=["Escape", "close button"])
def test_without_lock_escape_and_the_close_button_ask_then_close(
    tmp_path: Path, event: pygame.event.Event
) -> None:
    """A desktop game (lock off): Escape on the table, or the window's close button, asks
    "Close the game?"; No keeps playing, Close saves the game and ends the loop (exit 0)."""
    app = saved_app(tmp_path, kiosk_config(lock=False))
    finger = Finger(app)
    finger.tap(finger.card("AH"))
    app.step([event])
    question = app.tr("dialog.close_question")
    assert getattr(app.scenes.top, "question", None) == question
    app.step([event])  # Escape again is No, as on every screen; the close button asks once
    asked = sum(getattr(scene, "question", None) == question for scene in app.scenes)
    assert asked == (0 if event is ESCAPE else 1) and app.running
    if asked:
        finger.tap(finger.control(app.tr("dialog.close_no")))
    assert app.scenes.top is app.table and app.running
    app.step([event])
    finger.tap(finger.control(app.tr("dialog.close_yes")))
    assert app.running is False and app.exit_status == 0
    resumed = Session(kiosk_config(lock=False), tmp_path).resume()
    assert resumed is not None and resumed.game.moves == 1


def test_with_the_lock_escape_and_the_close_button_do_nothing_on_the_table(
    tmp_path: Path,
) -> None:
    app, _ = kiosk_app(tmp_path, kiosk_config())
    app.step([ESCAPE, CLOSE])
    Finger(app).settle(0.2)
    assert app.running and app.scenes.top is app.table


def hold_on_the_code(app: App, controller: KioskController, seconds: float) -> None:
    finger = Finger(app)
    area = controller.code_area()
    finger.down(area.center)
    for _ in range(int(seconds * 60)):
        app.step()
    finger.up(area.center)


def type_pin(app: App, pin: str) -> None:
    finger = Finger(app)
    for digit in pin:
        finger.tap(finger.control(digit))
    finger.tap(finger.control("OK"))


def test_operator_leaves_with_a_long_press_and_the_pin(tmp_path: Path) -> None:
    app, controller = kiosk_app(tmp_path, kiosk_config())
    Finger(app).tap(Finger(app).card("AH"))
    hold_on_the_code(app, controller, 3.0)
    assert app.scenes.top is app.table  # too short
    hold_on_the_code(app, controller, 5.2)
    assert isinstance(app.scenes.top, PinScene)
    type_pin(app, "1111")
    assert app.running and isinstance(app.scenes.top, PinScene)
    type_pin(app, PIN)
    assert app.running and app.scenes.top.name == "operator"  # leave, clear tables, statistics
    Finger(app).tap(Finger(app).control("Close the game"))
    assert app.running and app.scenes.top.name == "confirm"  # asked first
    Finger(app).tap(Finger(app).control("Close it"))
    assert app.running is False
    assert app.exit_status == EXIT_OPERATOR
    resumed = Session(kiosk_config(), tmp_path).resume()
    assert resumed is not None and resumed.game.moves == 1


class HearsTheEnd(TableHooks):
    """A listener like the metrics and the venue link: what it heard of the game's end."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.heard: list[tuple[int, bool]] = []

    def shutdown(self, game: Game) -> None:
        self.heard.append((game.moves, self.app.running))


def test_the_operators_exit_ends_the_game_as_a_quit_does(tmp_path: Path) -> None:
    """The PIN's exit goes through every listener's shutdown, as systemd's stop does: the
    metrics are written a last time and the venue link disconnects, not only the save. Once,
    while the loop still runs; then the loop ends with the operator's exit status."""
    app, controller = kiosk_app(tmp_path, kiosk_config())
    Finger(app).tap(Finger(app).card("AH"))
    last = HearsTheEnd(app)
    app.hooks.add(last)
    hold_on_the_code(app, controller, 5.2)
    type_pin(app, PIN)
    Finger(app).tap(Finger(app).control("Close the game"))
    Finger(app).tap(Finger(app).control("Close it"))
    assert last.heard == [(1, True)]
    assert app.running is False and app.exit_status == EXIT_OPERATOR
    resumed = Session(kiosk_config(), tmp_path).resume()
    assert resumed is not None and resumed.game.moves == 1


def test_the_keypad_takes_no_empty_try_and_makes_no_one_wait_over_two_minutes(
    tmp_path: Path,
) -> None:
    """Issue 39, item 11, on the screen: OK with nothing typed says nothing and counts nothing;
    a visitor who keeps trying gets waits of 30 s, 1 and 2 minutes, never more, and the wait
    shown is the wait (120 s, not 121)."""
    app, controller = kiosk_app(tmp_path, kiosk_config())
    hold_on_the_code(app, controller, 5.2)
    scene = app.scenes.top
    assert isinstance(scene, PinScene)

    def message() -> str:
        return next(c.label for c in scene.controls if c.kind in ("error", "text"))

    hint = message()
    for _ in range(5):
        Finger(app).tap(Finger(app).control("OK"))
    assert message() == hint and controller.pin.wrong == 0
    shown = []
    for _ in range(6):
        controller.pin.locked_until = 0.0  # (the wait over, without waiting for it)
        for key in ("1", "1", "1", "1", "ok"):
            scene.press(key)
        shown.append(message())  # as drawn at once, in the frame of the touch
    assert shown[:2] == ["Wrong PIN."] * 2
    waits = [f"Too many wrong PINs. Try again in {s}\u00a0s." for s in (30, 60, 120, 120)]
    assert shown[2:] == waits


def test_a_long_press_elsewhere_or_a_cancel_changes_nothing(tmp_path: Path) -> None:
    app, controller = kiosk_app(tmp_path, kiosk_config())
    finger = Finger(app)
    finger.down(app.table.model.layout.info_bar.midleft)
    for _ in range(6 * 60):
        app.step()
    finger.up(app.table.model.layout.info_bar.midleft)
    assert app.scenes.top is app.table
    hold_on_the_code(app, controller, 5.2)
    finger.tap(finger.control("Cancel"))
    assert app.scenes.top is app.table and app.running


def test_no_exit_gesture_without_a_pin(tmp_path: Path) -> None:
    app, controller = kiosk_app(tmp_path, kiosk_config(operator_pin_hash=""))
    hold_on_the_code(app, controller, 6.0)
    assert app.scenes.top is app.table


def test_idle_attract_then_the_waking_tap_plays_no_move(tmp_path: Path) -> None:
    app, _ = kiosk_app(tmp_path, kiosk_config(idle_attract_minutes=0.05))
    finger = Finger(app)
    before = app.table.model.game.to_dict()
    wait(app, 2.0)
    assert app.scenes.top is app.table
    wait(app, 2.0)
    assert isinstance(app.scenes.top, AttractScene)
    wait(app, 10.0)  # the computer plays its own deal meanwhile
    assert app.table.model.game.to_dict() == before
    finger.tap(finger.card("AH"))  # a tap on a card that would go home
    assert app.scenes.top is app.table
    assert app.table.model.game.to_dict() == before
    finger.settle(0.6)  # past the double-tap window: not the second half of the waking tap
    finger.tap(finger.card("AH"))  # the next tap plays
    assert app.table.model.game.moves == 1


def test_idle_fresh_deal_for_the_next_visitor(tmp_path: Path) -> None:
    config = kiosk_config(idle_attract_minutes=0.05, idle_new_game_minutes=0.2)
    app, _ = kiosk_app(tmp_path, config)
    finger = Finger(app)
    finger.tap(finger.card("AH"))
    finger.settle(0.5)
    wait(app, 13.0)
    assert isinstance(app.scenes.top, AttractScene)
    assert app.table.model.game.code != CODE and app.table.model.game.moves == 0
    stats = load_stats(tmp_path)["RU1-C"]
    assert (stats.played, stats.won) == (1, 0)
    assert "result=idle" in (tmp_path / "logs" / "solitaire.log").read_text()
    fresh = app.table.model.game.code
    wait(app, 30.0)  # no second fresh deal for an untouched game
    assert app.table.model.game.code == fresh
    resumed = Session(config, tmp_path).resume()
    assert resumed is not None and resumed.game.code == fresh


def test_statistics_screen_from_settings(tmp_path: Path) -> None:
    app = saved_app(tmp_path, kiosk_config(lock=False))
    finger = Finger(app)
    finger.tap(finger.card("AH"))
    finger.settle(0.3)
    app.table.start_game(Game.from_code("SH1-C2-AAAAAJ2"))  # the first game is abandoned
    finger.tap(finger.button("settings"))
    finger.tap(finger.control("Statistics"))
    assert isinstance(app.scenes.top, StatsScene)
    labels = [c.label for c in app.scenes.top.controls]
    assert "Russian Solitaire, same suit" in labels
    assert "Played 1 · Won 0\u00a0%" in labels
    finger.settle(0.5)  # Close lies where Statistics was: not the second click of a double click
    finger.tap(finger.control("Close"))
    assert type(app.scenes.top).__name__ == "SettingsScene"


def test_table_without_a_kiosk_has_no_statistics_button() -> None:
    app = make_app()
    finger = Finger(app)
    finger.tap(finger.button("settings"))
    labels = [c.label for c in app.scenes.top.controls]  # type: ignore[attr-defined]
    assert "Statistics" not in labels
    assert isinstance(app.table, TableScene)


def test_a_lost_release_does_not_keep_the_kiosk_awake(tmp_path: Path) -> None:
    app, _ = kiosk_app(tmp_path, kiosk_config(idle_attract_minutes=0.05))
    finger = Finger(app)
    finger.down(app.table.model.layout.info_bar.center)  # ...and the release never comes
    wait(app, 60.0)
    assert app.scenes.top is app.table  # a finger held still is not idle
    wait(app, 70.0)
    assert isinstance(app.scenes.top, AttractScene)


def test_attract_plays_the_solvers_winning_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    app, _ = kiosk_app(tmp_path, kiosk_config())
    deals = [almost_won(), Game.from_code("RU1-C-AAAAABB")]
    monkeypatch.setattr(
        app.games, "new", lambda code=None, **_: deals.pop(0) if deals else Game.from_code(CODE)
    )
    scene = AttractScene(app)
    app.scenes.push(scene)
    first = scene.demo.model.game
    deadline = time.monotonic() + 20
    while scene.solved is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert scene.solved is not None and len(scene.solved[1]) == 4  # the four kings home
    wait(app, 8.0)
    assert first.is_won  # the computer played the line to the end
    assert scene.demo.model.game is not first  # and dealt itself the next game
    assert app.table.model.game.moves == 0  # the visitor's game was never touched


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["800x480", "720x1280"])
@pytest.mark.parametrize("locale", ["fi", "ru", "en"])
def test_kiosk_screens_fit_in_every_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, locale: str, size: tuple[int, int]
) -> None:
    """Statistics (with big numbers), the PIN keypad (every message) and the attract banner,
    drawn for real and watched as tests/i18n/test_text_fit.py watches the table's dialogs."""
    from game.look import ui
    from game.saves.stats import RuleSetStats, Stats, rule_set_keys
    from tests.i18n.test_text_fit import Watch

    watch = Watch()
    monkeypatch.setattr(ui, "fit_text", watch.fit_text(ui.fit_text))
    monkeypatch.setattr(ui, "draw_wrapped", watch.draw_wrapped(ui.draw_wrapped))
    app, controller = kiosk_app(tmp_path, kiosk_config(), size=size)
    app.set_locale(locale)
    big = RuleSetStats(9999, 8888, 35999.0, 9999, 888, 999)
    controller.session.stats = Stats(dict.fromkeys(rule_set_keys(), big))

    def show(scene: object) -> None:
        app.scenes.push(scene)  # type: ignore[arg-type]
        app.full_redraw = True
        app.draw()

    show(StatsScene(app))
    app.scenes.pop_to_bottom()
    pin = PinScene(app, controller)
    show(pin)
    for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "1", "2", "ok"):
        pin.press(key)  # twelve digits, then a wrong PIN
    for _ in range(3):
        pin.press("7")  # (OK with nothing typed is no try)
        pin.press("ok")  # ...until the keypad makes the operator wait
    app.full_redraw = True
    app.draw()
    app.scenes.pop_to_bottom()
    show(AttractScene(app))
    assert watch.seen > 20
    assert not watch.problems, f"{locale} {size}: " + "\n".join(watch.problems)
