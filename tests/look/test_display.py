"""The operator's rotation: a portrait panel showing the landscape table, touches turned back."""

from __future__ import annotations

import pygame
import pytest

from game.launch import plain_app
from game.look.display import Presenter
from game.saves.prefs import PlayerSettings

pytestmark = pytest.mark.app


@pytest.fixture(autouse=True)
def _display():
    pygame.display.init()
    yield
    pygame.display.quit()


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_points_go_to_the_window_and_back(rotate):
    window = pygame.display.set_mode((480, 800))
    presenter = Presenter(window, rotate)
    lw, lh = presenter.surface.get_size()
    assert (lw, lh) == ((800, 480) if rotate in (90, 270) else (480, 800))
    for point in [(0, 0), (10, 20), (lw - 1, lh - 1), (lw // 2, 7)]:
        spot = presenter.to_window(pygame.Rect(point, (1, 1)))
        assert window.get_rect().contains(spot)
        assert presenter.to_logical(spot.topleft) == point


def test_a_rotated_table_is_landscape_and_takes_touches_where_it_shows_them():
    window = pygame.display.set_mode((480, 800))  # a portrait panel, turned to landscape
    app = plain_app(window, "RU1-C-AAAAAAD", settings=PlayerSettings(locale="en"), rotate=90)
    assert app.screen.get_size() == (800, 480)
    app.step()
    app.presenter.present([app.screen.get_rect()])
    table = app.table
    card = table.model.game.cols[0][-1]  # AH, alone in column 1
    logical = table.model.card_rect(card).move(0, 0)
    target = app.presenter.to_window(pygame.Rect(logical.centerx, logical.top + 8, 1, 1))
    # The window shows the logical picture, turned.
    assert window.get_at(target.topleft) == app.screen.get_at((logical.centerx, logical.top + 8))
    touch = {"pos": target.topleft, "button": 1, "touch": True}
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, touch)])
    app.step([pygame.event.Event(pygame.MOUSEBUTTONUP, touch)])
    assert table.model.game.found == [0, 1, 0, 0]
