"""Undo as seed 003 and the peers have it (issue 14 item 4): `undo_depth = 0` is unlimited,
Redo makes undone moves again until the next new move, the counter never goes down. Played
through the input layer."""

from __future__ import annotations

import pygame
import pytest

from engine import Game, Move, StateError
from game.saves.prefs import PlayerSettings
from game.scenes.rules import RulesScene
from tests.helpers.tablehelp import WIN_LINE, WON_CODE, Finger, make_app

pytestmark = pytest.mark.app

LOCALES = ("en", "fi", "ru")


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


class TestRedo:
    def test_redo_makes_undone_moves_again_and_the_counter_only_rises(self):
        app = make_app(WON_CODE)
        finger = Finger(app)
        game = app.table.model.game
        for text in WIN_LINE[:3]:
            assert app.table.model.make_move(Move.parse(text))
        after_three = game.to_dict()
        counts = [game.moves]
        for _ in range(2):
            finger.tap(finger.button("undo"))
            counts.append(game.moves)
        assert game.to_dict()["columns"] != after_three["columns"]
        for _ in range(2):
            finger.tap(finger.button("redo"))
            counts.append(game.moves)
        assert counts == sorted(counts)  # never down
        assert counts[-1] == 5  # three moves, two redone: undo takes nothing off the counter
        now = game.to_dict()
        for key in ("columns", "cells", "foundations", "score"):
            assert now[key] == after_three[key]
        finger.tap(finger.button("redo"))  # nothing left to redo
        assert game.moves == 5 and app.table.model.toast is not None

    def test_a_new_move_ends_redo(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        game = app.table.model.game
        finger.tap(finger.card("AH"))
        finger.tap(finger.button("undo"))
        assert game.found == [0, 0, 0, 0]
        finger.double_tap(finger.card("9S"))  # some other move
        moved = game.to_dict()
        finger.tap(finger.button("redo"))
        assert game.to_dict() == moved

    def test_redo_keys(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        finger.tap(finger.card("AH"))
        key = pygame.KEYDOWN
        app.dispatch(pygame.event.Event(key, key=pygame.K_z, mod=pygame.KMOD_CTRL))
        assert app.table.model.game.found == [0, 0, 0, 0]
        app.dispatch(pygame.event.Event(key, key=pygame.K_y, mod=pygame.KMOD_CTRL))
        assert app.table.model.game.found == [0, 1, 0, 0]

    @pytest.mark.parametrize("size", [(800, 480), (480, 800), (1280, 800), (1920, 1080)])
    def test_the_redo_button_is_on_the_screen_and_apart_from_the_others(self, size):
        app = make_app("RU1-C-AAAAAAD", size)
        buttons = app.table.model.layout.buttons
        screen = app.screen.get_rect()
        assert screen.contains(buttons["redo"])
        others = [r for name, r in buttons.items() if name != "redo"]
        assert buttons["redo"].collidelist(others) == -1


class TestRedoInTheEngine:
    """python-chess's push/pop, with redo beside them: the game keeps what pop took back."""

    def test_pop_returns_the_move_and_redo_makes_it_again(self):
        game = Game.from_code(WON_CODE)
        for text in WIN_LINE[:3]:
            game.play(text)
        after_three = game.to_dict()
        assert [str(game.pop()), str(game.pop())] == WIN_LINE[2:0:-1]
        assert game.undone == [Move.parse(WIN_LINE[2]), Move.parse(WIN_LINE[1])]
        assert [str(game.redo()), str(game.redo())] == WIN_LINE[1:3]
        assert {**game.to_dict(), "moves": 3} == after_three and game.moves == 5
        with pytest.raises(IndexError):
            game.redo()

    def test_a_different_move_clears_redo_and_the_same_move_keeps_the_rest(self):
        game = Game.from_code(WON_CODE)
        for text in WIN_LINE[:3]:
            game.play(text)
        game.pop()
        game.pop()
        game.play(WIN_LINE[1])  # the undone move made by hand: the next can still be redone
        assert game.undone == [Move.parse(WIN_LINE[2])]
        game.pop()
        other = next(m for m in game.legal_moves() if str(m) != WIN_LINE[1])
        game.play(other)
        assert not game.can_redo()

    def test_the_autosave_keeps_redo_and_a_save_without_it_still_loads(self):
        game = Game.from_code(WON_CODE)
        for text in WIN_LINE[:4]:
            game.play(text)
        game.pop()
        game.pop()
        saved = game.to_dict()
        assert saved["redo"] == WIN_LINE[3:1:-1]
        again = Game.from_dict(saved)
        assert again.to_dict() == saved and again.redo() == Move.parse(WIN_LINE[2])
        old = {key: value for key, value in saved.items() if key != "redo"}  # before redo was kept
        assert not Game.from_dict(old).can_redo()
        assert Game.from_dict(old).to_dict() == {**saved, "redo": []}

    @pytest.mark.parametrize("redo", ["7H-t5", ["7H-t5"], ["nonsense"]])
    def test_a_damaged_redo_is_refused_with_a_reason(self, redo):
        saved = {**Game.from_code(WON_CODE).to_dict(), "redo": redo}
        with pytest.raises(StateError, match="redo"):
            Game.from_dict(saved)


class TestUnlimitedUndo:
    def test_depth_zero_takes_back_every_move_of_a_long_game(self):
        game = Game.from_code(WON_CODE, history_limit=0)
        for text in WIN_LINE[:-1]:
            game.play(text)
        assert len(game.history) == len(WIN_LINE) - 1 > 100
        again = Game.from_dict(game.to_dict())
        while again.can_undo():
            again.pop()
        assert again.to_dict()["columns"] == Game.from_code(WON_CODE).to_dict()["columns"]

    def test_the_default_keeps_a_hundred(self):
        game = Game.from_code(WON_CODE)
        for text in WIN_LINE[:-1]:
            game.play(text)
        assert len(game.history) == 100


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("depth", [0, 100, 30])
def test_the_rules_screen_names_the_configured_depth(locale, depth):
    app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale))
    app.games.undo_depth = depth
    app.scenes.open("rules")
    scene = app.scenes.top
    assert isinstance(scene, RulesScene)
    text = " ".join(app.tr.paragraphs("rules.russian.body", undo="§"))
    assert "§" in text  # the sentence has its place in every language
    wanted = (
        app.tr("table.rules_undo", count=depth) if depth else app.tr("table.rules_undo_unlimited")
    )
    shown = " ".join(scene.paragraphs)
    assert wanted in shown and "{undo}" not in shown
