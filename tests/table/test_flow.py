"""The flow around the moves (issue 14 item 5): a won game stays won, and a new deal asks
before it throws away a game in progress. Played through the input layer."""

from __future__ import annotations

import pygame
import pytest

from engine import Game
from game.saves.prefs import PlayerSettings
from game.scenes.confirm import ConfirmScene
from game.scenes.newgame import NewGameScene
from game.scenes.win import WinScene
from game.table.scene import TableScene
from tests.helpers.tablehelp import Finger, almost_won, make_app

pytestmark = pytest.mark.app

LOCALES = ("en", "fi", "ru")


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def won_game() -> Game:
    game = almost_won()
    for king in ("KS", "KH", "KD", "KC"):
        game.play(f"{king}-f")
    assert game.is_won
    return game


class TestAWonGameIsFinished:
    def test_a_won_game_restored_after_a_quit_opens_on_its_win_screen(self):
        """Quitting while the win screen is up and starting again shows the win screen, not
        an empty table whose Undo un-wins the game."""
        app = make_app(game=won_game())
        Finger(app).settle(0.2)
        assert isinstance(app.scenes.top, WinScene)

    def test_no_undo_after_a_win(self):
        app = make_app(game=won_game())
        finger = Finger(app)
        finger.settle(0.2)
        app.scenes.pop_to_bottom()  # even were the table reached again
        app.table.model.pending_win = False
        before = app.table.model.game.to_dict()
        app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_CTRL))
        finger.tap(finger.button("undo"))
        assert app.table.model.game.to_dict() == before
        assert app.table.model.game.is_won

    def test_winning_by_taps_then_the_new_deal_asks_nothing(self):
        app = make_app(game=almost_won())
        finger = Finger(app)
        for king in ("KS", "KH", "KD", "KC"):
            finger.tap(finger.card(king))
        finger.settle(1.5)
        assert isinstance(app.scenes.top, WinScene)
        finger.tap(finger.control(app.tr("win.new_deal")))
        assert isinstance(app.scenes.top, TableScene)
        assert app.table.model.game.moves == 0


def open_new_game(finger: Finger) -> None:
    finger.tap(finger.button("new"))
    assert isinstance(finger.app.scenes.top, NewGameScene)
    finger.tap(finger.control(finger.app.tr("newgame.deal")))


@pytest.mark.parametrize("locale", LOCALES)
class TestNewGameAsks:
    def test_a_game_in_progress_is_kept_unless_the_player_says_leave(self, locale):
        app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale))
        finger = Finger(app)
        finger.tap(finger.card("AH"))  # one move
        code = app.table.model.game.code
        open_new_game(finger)
        top = app.scenes.top
        assert isinstance(top, ConfirmScene)
        assert app.tr("table.moves", count=1) in top.question
        finger.tap(finger.control(app.tr("table.leave_no")))
        assert app.scenes.top is app.table
        assert app.table.model.game.code == code and app.table.model.game.moves == 1
        open_new_game(finger)
        finger.tap(finger.control(app.tr("table.leave_yes")))
        assert app.scenes.top is app.table
        assert app.table.model.game.moves == 0

    def test_a_game_without_moves_goes_without_a_question(self, locale):
        app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale))
        finger = Finger(app)
        first = app.table.model.game
        open_new_game(finger)
        assert app.scenes.top is app.table
        assert app.table.model.game is not first

    def test_a_typed_code_asks_too(self, locale):
        app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale))
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        finger.tap(finger.button("new"))
        finger.tap(finger.control(app.tr("newgame.code")))
        for char in "AAAAABB":
            app.scenes.top.type(char)  # type: ignore[attr-defined]
        finger.tap(finger.control(app.tr("keypad.play")))
        assert isinstance(app.scenes.top, ConfirmScene)
        finger.tap(finger.control(app.tr("table.leave_yes")))
        assert app.table.model.game.code == "RU1-C-AAAAABB"
