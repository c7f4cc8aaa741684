"""Issue 15's targets on the kiosk's own screens, read from what is drawn (the layout report of
``main.py --layout-json``) on the hardest positions: long Russian columns, 13-card Seahaven runs,
every rule set. Every face-up card shows its whole corner index; up to 20 cards a column keeps
strips a finger can pick (3 mm, 4.5 mm on the portrait panel); nothing leaves the screen; a
face-down card shows its back."""

from __future__ import annotations

import itertools

import pygame
import pytest

from engine import Game
from engine.rules import ALL_RULES
from game.dev.report import layout_report
from game.look.cards import BACK_LINE, BACK_MAIN
from game.look.layout import longest_column
from game.saves.prefs import PlayerSettings
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

# size, px per mm, the least strip of a covered face-up card in mm
SCREENS = [
    ((800, 480), 5.2, 3.0),
    ((1024, 600), 6.6, 3.0),
    ((720, 1280), 8.2, 4.5),
    ((1920, 1080), 96 / 25.4, 3.0),
]
KEYS = [r.key for r in ALL_RULES]
SPADES_RUN = ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AS"]


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def position(key: str, column: int, down: int, up: int, run: bool = False) -> Game:
    """Column ``column`` holds ``down`` hidden and ``up`` face-up cards (with ``run``: ending in
    the 13 spades from king to ace); the other cards spread over the other columns."""
    data = Game.from_code(f"{key}-AAAAAJ2").to_dict()
    cards = [c.lstrip("#") for col in data["columns"] for c in col]
    cards += [c for c in data["cells"] if c]
    if run:
        cards = [c for c in cards if c not in SPADES_RUN]
        mine = cards[: down + up - 13] + SPADES_RUN
        rest = cards[down + up - 13 :]
    else:
        mine, rest = cards[: down + up], cards[down + up :]
    columns: list[list[str]] = [[] for _ in data["columns"]]
    columns[column] = ["#" + c for c in mine[:down]] + mine[down:]
    others = [i for i in range(len(columns)) if i != column]
    for i, card in enumerate(rest):
        columns[others[i % len(others)]].append(card)
    data.update(columns=columns, cells=[None] * len(data["cells"]), history=[])
    return Game.from_dict(data)


def hardest(key: str) -> list[tuple[str, Game, bool]]:
    """(name, position, whether the 20-card strip target applies)."""
    cases: list[tuple[str, Game, bool]] = []
    for column in (0, 6) if key.startswith("RU") else (0, 1, 9):
        if key.startswith("RU"):
            cases += [
                (f"t{column + 1} 6+14", position(key, column, 6, 14), True),
                (f"t{column + 1} 0+20", position(key, column, 0, 20), True),
                (f"t{column + 1} 6+20", position(key, column, 6, 20), False),
                (f"t{column + 1} 0+26", position(key, column, 0, 26), False),
            ]
        else:
            # A Seahaven column never holds more than its dealt cards and a run of twelve on a
            # king among them (17 cards, 18 on column 2 with one free cell): the strip target
            # holds up to that; longer columns (made up here) still show every index whole.
            longest = longest_column(10, int(key[-1]), column)
            cases += [
                (f"t{column + 1} {longest} run", position(key, column, 0, longest, True), True),
                (f"t{column + 1} 18 run", position(key, column, 0, 18, run=True), False),
                (f"t{column + 1} 20", position(key, column, 0, 20), False),
                (f"t{column + 1} 24", position(key, column, 0, 24), False),
            ]
    return cases


def inside(inner: list[int], outer: list[int]) -> bool:
    x, y, w, h = inner
    ox, oy, ow, oh = outer
    return ox <= x and x + w <= ox + ow and oy <= y and y + h <= oy + oh


@pytest.mark.parametrize(("size", "ppm", "strip_mm"), SCREENS, ids=lambda v: str(v))
@pytest.mark.parametrize("key", KEYS)
def test_every_card_readable_and_reachable(size, ppm, strip_mm, key):
    for name, game, strip_target in hardest(key):
        app = make_app(game=game, size=size, px_per_mm=ppm, settings=PlayerSettings(locale="en"))
        app.full_redraw = True
        app.draw()
        data = layout_report(app.table)
        assert len(data["cards"]) == 52
        screen = [0, 0, *size]
        for card in data["cards"]:
            where = (name, card["card"], card["pile"])
            assert inside(card["rect"], screen), where
            x, y, w, h = card["visible"]
            if card["pile"] == "f":
                continue
            if card["face_up"]:
                assert inside(card["index"], card["visible"]), where
                if strip_target and h < card["rect"][3]:
                    assert h >= strip_mm * ppm, (where, h / ppm)
            else:  # its back shows: the blue of the pattern in its visible strip
                colours = {
                    tuple(app.screen.get_at((x + dx, y + dy))[:3])
                    for dx in range(w // 4, 3 * w // 4)
                    for dy in range(h)
                }
                assert BACK_MAIN in colours or BACK_LINE in colours, where
        pygame.display.quit()


def test_the_side_block_sits_beside_the_columns_on_the_7_inch_panel():
    """800x480: the foundations stand beside the columns, which start under the info bar."""
    app = make_app("RU1-C-AAAAABB", size=(800, 480), px_per_mm=5.2)
    lay = app.table.model.layout
    assert lay.columns[0].top < lay.info_bar.bottom + lay.margin + 2
    assert min(f.left for f in lay.foundations) > lay.columns[-1].right
    assert max(f.right for f in lay.foundations) < min(b.left for b in lay.buttons.values())


def test_portrait_seahaven_opens_its_fan():
    app = make_app("SH1-C4-AAAAAJ2", size=(720, 1280), px_per_mm=8.2)
    table = app.table
    col = table.model.game.cols[0]
    ys = [table.model.rest()[c][1] for c in col]
    assert min(b - a for a, b in itertools.pairwise(ys)) >= 4.5 * 8.2
