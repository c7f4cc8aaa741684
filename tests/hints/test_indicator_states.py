"""The winnable indicator's three states (issue 14 item 8, as kpat's): winnable; no longer
winnable, with the move that lost it and an offer to undo back to it; never winnable from the
deal. The solver's verdicts are scripted; the table is played through the input layer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from engine import Game
from game.look.png import save_png
from game.saves.prefs import PlayerSettings
from game.scenes.confirm import ConfirmScene
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app

LOCALES = ("en", "fi", "ru")


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


class ScriptedIndicator:
    """The indicator's interface with verdicts from ``lost(game)``, at once."""

    def __init__(self, lost: Callable[[Game], bool]) -> None:
        self.lost = lost
        self.game: Game | None = None

    def update(self, game: Game) -> None:
        self.game = game

    def poll(self) -> str:
        assert self.game is not None
        return self.ask(self.game)

    def ask(self, game: Game) -> str:
        return "lost" if self.lost(game) else "won"

    def close(self) -> None:
        pass


def app_with(lost: Callable[[Game], bool], locale: str):
    app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale))
    app.workers.indicator = lambda: ScriptedIndicator(lost)  # type: ignore[method-assign]
    app.prefs.change("winnable_indicator", True)
    app.table.model.hints.sync_indicator()
    app.step()
    return app


def bar(app) -> str:
    return app.table.bar_text()[-1]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_move_that_loses_the_game_is_named_and_can_be_undone(locale):
    app = app_with(lambda game: len(game.history) >= 2, locale)
    finger, tr = Finger(app), app.tr
    assert bar(app) == tr("table.winnable_won")
    finger.tap(finger.card("AH"))  # still winnable
    assert bar(app) == tr("table.winnable_won")
    finger.double_tap(finger.card("9S"))  # this one loses it
    assert bar(app) == tr("table.winnable_lost_since", card=tr.card("9S"))
    assert app.table.model.toast is not None and tr.card("9S") in app.table.model.toast.text
    finger.tap(app.table.model.layout.info_bar.center)  # the offer
    confirm = app.scenes.top
    assert isinstance(confirm, ConfirmScene)
    assert tr.card("9S") in confirm.question
    finger.tap(finger.control(tr("table.lost_undo")))
    assert app.scenes.top is app.table
    assert len(app.table.model.game.history) == 1 and app.table.model.game.found == [0, 1, 0, 0]
    assert bar(app) == tr("table.winnable_won")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_deal_that_cannot_be_won_says_so_from_the_start(locale):
    app = app_with(lambda game: True, locale)
    finger, tr = Finger(app), app.tr
    assert bar(app) == tr("table.winnable_never")
    finger.tap(finger.card("AH"))
    assert bar(app) == tr("table.winnable_never")
    finger.tap(app.table.model.layout.info_bar.center)  # nothing to go back to
    assert app.scenes.top is app.table


def shot(app, name: str) -> None:
    """A screenshot for people to look at, in out/screens/indicator/."""
    out = Path(__file__).resolve().parents[2] / "out" / "screens" / "indicator"
    out.mkdir(parents=True, exist_ok=True)
    app.full_redraw = True
    app.draw()
    save_png(app.screen, str(out / name))


def switch_indicator_on(app, finger: Finger) -> None:
    """On the settings screen, as a player does: the toggle, then back to the table."""
    finger.tap(finger.button("settings"))
    finger.tap(finger.control(app.tr("settings.winnable_indicator")))
    finger.tap(finger.control(app.tr("dialog.close")))
    assert app.scenes.top is app.table and app.settings.winnable_indicator


@pytest.mark.parametrize("locale", LOCALES)
def test_switched_on_after_the_losing_move_it_names_the_move_at_once(locale):
    """Issue 31 item 11: the indicator off, the game lost by 9♠; switched on, the bar names
    9♠ at once (it never saw the winnable position: it asks about the earlier ones) and the
    offer to go back is there, without an undo and a redo first."""
    app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale))
    app.workers.indicator = lambda: ScriptedIndicator(lambda g: len(g.history) >= 2)  # type: ignore[method-assign]
    finger, tr = Finger(app), app.tr
    finger.tap(finger.card("AH"))
    finger.double_tap(finger.card("9S"))  # this one loses it, unseen
    assert len(app.table.model.game.history) == 2 and bar(app) == ""
    switch_indicator_on(app, finger)
    assert bar(app) == tr("table.winnable_lost_since", card=tr.card("9S"))
    assert app.table.model.toast is not None and tr.card("9S") in app.table.model.toast.text
    shot(app, f"switched-on-{locale}.png")
    finger.tap(app.table.model.layout.info_bar.center)  # the offer
    confirm = app.scenes.top
    assert isinstance(confirm, ConfirmScene) and tr.card("9S") in confirm.question
    finger.tap(finger.control(tr("table.lost_undo")))
    assert len(app.table.model.game.history) == 1 and app.table.model.game.found == [0, 1, 0, 0]
    assert bar(app) == tr("table.winnable_won")


def test_switched_on_after_moves_of_a_lost_deal_it_says_never_winnable():
    """Issue 31 item 11: every earlier position lost too: the deal was never winnable, as the
    indicator says when it is on from the start."""
    app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale="en"))
    app.workers.indicator = lambda: ScriptedIndicator(lambda g: True)  # type: ignore[method-assign]
    finger = Finger(app)
    finger.tap(finger.card("AH"))
    switch_indicator_on(app, finger)
    assert bar(app) == app.tr("table.winnable_never")
    finger.tap(app.table.model.layout.info_bar.center)  # nothing to go back to
    assert app.scenes.top is app.table
