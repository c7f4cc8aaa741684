"""A first-time player knows what to do (issue 14 item 9): on a fresh start one line on the
table says how to play and where the rules are; it goes away after the first move, and comes
back for the next visitor of an idle kiosk. Through the input layer, in all three languages."""

from __future__ import annotations

import pygame
import pytest

from engine import Game
from game.i18n import Translator
from game.saves.prefs import PlayerSettings
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app

LOCALES = ("en", "fi", "ru")


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


@pytest.mark.parametrize("locale", LOCALES)
def test_the_line_says_how_to_play_until_the_first_move(locale):
    app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale), first_line=True)
    finger, tr = Finger(app), app.tr
    line = tr("table.first_time")
    assert app.table.model.toast is not None and app.table.model.toast.text == line
    rules_are = {"en": "under Settings", "fi": "Asetuksista", "ru": "«Настройках»"}[locale]
    assert rules_are in line and tr("settings.rules").lower()[:5] in line.lower()
    finger.tap(finger.card("9S"))  # a tap that moves nothing: the line comes back
    finger.settle(0.1)
    assert app.table.model.toast is not None and app.table.model.toast.text == line
    finger.tap(finger.card("AH"))  # the first move
    finger.settle(10)
    assert app.table.model.toast is None or app.table.model.toast.text != line
    assert not app.table.model.first_line


def test_a_resumed_game_with_moves_has_no_line():
    game = Game.from_code("RU1-C-AAAAAAD")
    game.play("AH-f")
    app = make_app(game=game, first_line=None)  # as the table decides
    Finger(app).settle(0.1)
    assert app.table.model.toast is None


def test_the_next_visitor_of_an_idle_kiosk_sees_it_again():
    app = make_app("RU1-C-AAAAAAD", first_line=True)
    finger = Finger(app)
    finger.tap(finger.card("AH"))
    finger.settle(0.1)
    assert not app.table.model.first_line
    app.table.start_game(app.games.new(), left="idle")
    finger.settle(0.1)
    assert app.table.model.toast is not None and app.table.model.toast.text == app.tr(
        "table.first_time"
    )


def test_a_new_deal_of_the_same_visitor_has_no_line(tmp_path):
    """Once a visitor (issue 25, item 10): a new deal, even before any move, does not bring the
    line back; the next visitor of an idle kiosk sees it again (above)."""
    from tests.arcade.test_arcade import script, state

    first, again = tmp_path / "first.json", tmp_path / "again.json"
    proc = script(
        tmp_path, "--size", "800x480", "--locale", "en", "--code", "RU1-C-AAAAAAD",
        "state", str(first), "press", "newgame", "press", "deal", "state", str(again),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    line = Translator("en")("table.first_time")
    assert state(first)["message"] == line
    shown = state(again)
    assert shown["code"] != "RU1-C-AAAAAAD" and shown["moves"] == 0
    assert shown["message"] != line
