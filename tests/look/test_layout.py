"""The layout at every listed screen size: nothing overlaps, nothing leaves the screen (even the
longest column), touch targets stay finger-sized on the 7" 800x480 panel."""

from __future__ import annotations

import itertools

import pygame
import pytest

from engine import Game
from engine.rules import ALL_RULES
from game.look.layout import compute_layout
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

SIZES = [(800, 480), (1024, 600), (1280, 800), (1920, 1080), (720, 1280)]
RULES = [(r.columns, r.cells, r.key) for r in ALL_RULES]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("columns", "cells", "key"), RULES, ids=[r[2] for r in RULES])
def test_slots_do_not_overlap_and_stay_on_screen(size, columns, cells, key):
    lay = compute_layout(*size, columns=columns, cells=cells, px_per_mm=5.2)
    screen = pygame.Rect(0, 0, *size)
    assert len(lay.columns) == columns and len(lay.cells) == cells and len(lay.foundations) == 4
    # Foundations in the fixed order spades, hearts, diamonds, clubs: in reading order (a row,
    # or two rows of two beside the columns).
    order = [(r.y, r.x) for r in lay.foundations]
    assert order == sorted(order)
    slots = lay.slots()
    for rect in slots:
        assert screen.contains(rect), rect
    for a, b in itertools.combinations(slots, 2):
        assert not a.colliderect(b), (a, b)
    # The columns' full height stays clear of the buttons and the info bar.
    for i in range(columns):
        zone = lay.columns[i].union(
            lay.columns[i].move(0, lay.column_bottom - lay.card_h - lay.columns[i].y)
        )
        for other in [lay.info_bar, *lay.buttons.values()]:
            assert not zone.colliderect(other), (i, other)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("down", "total"), [(6, 11), (6, 26), (6, 52), (0, 52), (0, 19)])
def test_the_longest_column_stays_on_screen(size, down, total):
    lay = compute_layout(*size, columns=7, cells=0)
    ys = lay.fan_offsets(down, total)
    assert len(ys) == total
    assert ys == sorted(ys)
    assert ys[-1] + lay.card_h <= lay.column_bottom <= size[1]
    # A short column keeps its comfortable fan: every corner index readable.
    if total - down <= 6:
        assert all(b - a >= lay.fan_up_readable for a, b in itertools.pairwise(ys[down:]))


def test_finger_sized_targets_on_the_7_inch_panel():
    ppm = 5.2  # Raspberry Pi Touch Display, 800x480
    finger = 9 * ppm
    for rules in ALL_RULES:
        lay = compute_layout(800, 480, columns=rules.columns, cells=rules.cells, px_per_mm=ppm)
        for rect in lay.buttons.values():
            assert rect.width >= finger and rect.height >= finger
        assert lay.card_w >= finger
        # The corner index of a covered card stays visible in an ordinary column.
        assert lay.fan_up >= lay.fan_up_readable >= 0.19 * lay.card_h


def _longest_column_game(code: str) -> Game:
    """Every card in the last column (6 hidden), the most a column could ever hold."""
    game = Game.from_code(code)
    data = game.to_dict()
    cards = [c.lstrip("#") for col in data["columns"] for c in col]
    cards += [c for c in data["cells"] if c]
    columns = [[] for _ in data["columns"]]
    columns[-1] = ["#" + c for c in cards[:6]] + cards[6:]
    data["columns"] = columns
    data["cells"] = [None] * len(data["cells"])
    data["history"] = []
    return Game.from_dict(data)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("code", ["RU1-C-AAAAABB", "SH1-C1-AAAAAJ2"])
def test_the_real_table_keeps_every_card_on_screen(size, code):
    app = make_app(game=_longest_column_game(code), size=size)
    table = app.table
    screen = pygame.Rect(0, 0, *size)
    buttons = list(table.model.layout.buttons.values())
    for card in range(52):
        rect = table.model.card_rect(card)
        assert screen.contains(rect), (card, rect)
        assert not any(rect.colliderect(b) for b in buttons)
        assert not rect.colliderect(table.model.layout.info_bar)
    # The top card can still be picked up by a tap on it.
    top = table.model.game.cols[-1][-1]
    assert table.card_at(table.model.card_rect(top).center) == top
    pygame.display.quit()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", ["newgame", "keypad", "settings", "rules", "win"])
@pytest.mark.parametrize("locale", ["fi", "ru"])
def test_dialogs_fit_the_screen_and_do_not_overlap(size, scene, locale):
    from game.launch import show_scene

    app = make_app("SH1-C2-AAAAAJ2", size=size)
    app.set_locale(locale)
    show_scene(app, scene)
    app.step()
    dialog = app.scenes.top
    screen = pygame.Rect(0, 0, *size)
    assert screen.contains(dialog.panel)
    controls = dialog.controls
    for control in controls:
        assert dialog.panel.contains(control.rect), (control.label, control.rect, dialog.panel)
    for a, b in itertools.combinations(controls, 2):
        assert not a.rect.colliderect(b.rect), (a.label, b.label)
    # Everything a finger presses is at least 7 mm tall on this screen.
    for control in controls:
        if control.action:
            assert control.rect.height >= 7 * app.px_per_mm, (control.label, control.rect)
    pygame.display.quit()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_covered_card_shows_only_its_index(size):
    """Between the corner index and the fan line a card face is blank, so a fanned column
    reads cleanly (no pip or court frame peeking out under the next card)."""
    from game.look.cards import FACE, CardArt

    pygame.display.init()
    pygame.display.set_mode((64, 64))
    for columns, cells in ((7, 0), (10, 4)):
        lay = compute_layout(*size, columns=columns, cells=cells)
        art = CardArt(lay.card_w, lay.card_h)
        top, bottom = int(lay.card_h * 0.23), int(lay.fan_up) + 1
        for card in range(52):
            face = art.face(card)
            for y in range(top, bottom):
                for x in range(4, lay.card_w - 4, 2):
                    assert face.get_at((x, y))[:3] == FACE, (card, x, y)
    pygame.display.quit()
