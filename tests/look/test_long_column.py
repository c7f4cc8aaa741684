"""A long column on a small screen: the fan squeezes, hidden cards first, and every covered
face-up card still shows its whole corner index (redrawn small in the strip that shows)."""

from __future__ import annotations

import itertools

import pygame
import pytest

from engine import Game
from game.look.cards import FACE
from game.saves.prefs import PlayerSettings
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def long_column_game(down: int = 6, up: int = 20) -> Game:
    """Column 7 with ``down`` hidden and ``up`` face-up cards (26: a 20-card group on the
    deal's longest column); the other cards spread face up over the other columns."""
    data = Game.from_code("RU1-C-AAAAABB").to_dict()
    cards = [c.lstrip("#") for col in data["columns"] for c in col]
    columns: list[list[str]] = [[] for _ in data["columns"]]
    columns[-1] = ["#" + c for c in cards[:down]] + cards[down : down + up]
    for i, card in enumerate(cards[down + up :]):
        columns[i % 6].append(card)
    data["columns"] = columns
    data["history"] = []
    return Game.from_dict(data)


def ink_rows(image: pygame.Surface, left: int, right: int) -> list[int]:
    """Rows (from 1) with anything but the card's face colour between ``left`` and ``right``."""
    rows = []
    for y in range(1, image.get_height()):
        if any(image.get_at((x, y))[:3] != FACE for x in range(left, right)):
            rows.append(y)
    return rows


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1920, 1080)], ids=str)
@pytest.mark.parametrize("locale", ["ru", "en"])
def test_every_covered_index_in_a_long_column_shows_whole(size, locale):
    app = make_app(game=long_column_game(), size=size, settings=PlayerSettings(locale=locale))
    app.full_redraw = True
    app.draw()
    table, view = app.table, app.table.view
    assert view is not None
    art = view.art
    col = table.model.game.cols[6]
    down = table.model.game.down[6]
    ys = [table.model.rest()[c][1] for c in col]
    # Hidden cards give way first: they sit closer than the face-up ones.
    hidden_gaps = [b - a for a, b in itertools.pairwise(ys[: down + 1])]
    up_gaps = [b - a for a, b in itertools.pairwise(ys[down:])]
    assert max(hidden_gaps) < min(up_gaps)
    strip = view.chrome.strip_size(ys[down:])
    assert strip is not None, "the fan is tight: the index strip is drawn"
    height, room = strip
    pad = art.radius
    for k in range(down, len(col) - 1):
        card = col[k]
        image = art.index_strip(card, height, room)
        rows = ink_rows(image, pad, art.width - pad)
        assert rows, f"card {card}: no index"
        assert max(rows) < room, f"card {card}: the index reaches under the next card"
        # The screen shows exactly that strip where the card peeks out.
        x, y, _ = table.model.rest()[card]
        gap = ys[k + 1] - ys[k]
        for dy in rows:
            if dy >= gap:
                continue
            for dx in range(pad, art.width - pad, 3):
                assert app.screen.get_at((x + dx, y + dy))[:3] == image.get_at((dx, dy))[:3]


def test_an_ordinary_column_keeps_the_big_index():
    app = make_app("RU1-C-AAAAABB", size=(800, 480))
    view, table = app.table.view, app.table
    assert view is not None
    for i, col in enumerate(table.model.game.cols):
        ys = [table.model.rest()[c][1] for c in col[table.model.game.down[i] :]]
        assert view.chrome.strip_size(ys) is None
