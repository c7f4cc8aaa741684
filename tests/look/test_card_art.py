"""Card art of issue 15: court figures, one index size for every rank, four-colour suits."""

from __future__ import annotations

import pygame
import pytest

from engine.cards import parse_card
from game.look.cards import BLACK, FOUR_COLORS, RED, CardArt
from game.look.switches import tap_point
from game.saves.prefs import PlayerSettings
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app

RU_RANKS = ("Т", "2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К")


@pytest.fixture(autouse=True)
def _display():
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    yield
    pygame.display.quit()


def colours(surface: pygame.Surface) -> set[tuple[int, int, int]]:
    w, h = surface.get_size()
    return {tuple(surface.get_at((x, y))[:3]) for x in range(w) for y in range(h)}


def ink_height(strip: pygame.Surface, left: int, right: int) -> int:
    rows = [
        y
        for y in range(strip.get_height())
        if any(strip.get_at((x, y))[:3] not in ((252, 251, 246),) and strip.get_at((x, y))[3]
               for x in range(left, right))
    ]  # fmt: skip
    return max(rows) - min(rows) + 1 if rows else 0


def test_a_tight_strip_draws_every_rank_at_one_size():
    """Д reaches below the line as К does not: at one size it is the taller ink (before, a tight
    strip drew Д smaller to fit its tail)."""
    art = CardArt(70, 98, RU_RANKS)
    half = art.width // 2
    queen, king = parse_card("QS"), parse_card("KS")
    for room in (10, 12, 14):
        q = ink_height(art.index_strip(queen, room + 6, room), 2, half)
        k = ink_height(art.index_strip(king, room + 6, room), 2, half)
        assert q > k, room


@pytest.mark.parametrize("width", [36, 70, 170])
def test_court_cards_are_figures_of_their_own(width):
    art = CardArt(width, int(width * 1.4))
    for suit in range(4):
        faces = [art.face(suit * 13 + rank) for rank in (10, 11, 12)]
        middles = [f.subsurface(f.get_rect().inflate(-width // 3, -width // 2)) for f in faces]
        pictures = [pygame.image.tobytes(m, "RGBA") for m in middles]
        assert len(set(pictures)) == 3  # jack, queen and king differ
        for face in faces:
            assert any(c[0] > 200 and 150 < c[1] < 200 and c[2] < 90 for c in colours(face))


def test_four_colour_suits():
    plain, four = CardArt(70, 98), CardArt(70, 98, four_colors=True)
    diamonds, clubs, hearts = parse_card("7D"), parse_card("7C"), parse_card("7H")
    assert FOUR_COLORS[2] in colours(four.face(diamonds)) and RED not in colours(
        four.face(diamonds)
    )
    assert FOUR_COLORS[3] in colours(four.face(clubs)) and BLACK not in colours(four.face(clubs))
    assert RED in colours(four.face(hearts))
    assert RED in colours(plain.face(diamonds)) and BLACK in colours(plain.face(clubs))


def test_the_setting_redraws_the_table():
    app = make_app("RU1-C-AAAAABB", size=(800, 480), settings=PlayerSettings(locale="en"))
    assert not app.table.art.four_colors
    Finger(app).tap(app.table.model.layout.buttons["settings"].center)
    scene = app.scenes.top
    switch = next(c for c in scene.controls if c.name == "four_colors")
    Finger(app).tap(tap_point(switch))  # its switch: a tap on its name only explains it
    assert app.settings.four_colors
    app.scenes.pop()
    Finger(app).settle(0.1)
    assert app.table.art.four_colors
