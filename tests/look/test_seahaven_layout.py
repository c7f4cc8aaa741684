"""Seahaven uses the screen (issue 25, item 1): in landscape its free cells and foundations
stand in a row over the ten columns, as wide as they are, so the cards are as large as the width
allows: at least 64 px wide on the 7" 800x480 panel and 82 px at 1024x600 (52 and 67 with the
block beside the columns), and no smaller than before at 720x1280 and 1920x1080. Read from
``main.py --layout-json``; the long-column targets are in test_touch_layout.py."""

from __future__ import annotations

import itertools
import json

import pygame
import pytest

from game.look.png import save_png
from game.saves.prefs import PlayerSettings
from tests.helpers.tablehelp import make_app
from tests.look.test_layout_json import ROOT, run_main
from tests.look.test_touch_layout import SCREENS, position

pytestmark = pytest.mark.app

SHOTS = ROOT / "out" / "screens" / "seahaven"

# size, least card width (before: 52 at 800x480, 67 at 1024x600, with the block beside the
# columns; 64 and 128 at 720x1280 and 1920x1080). One free cell was 59 and 75 px before its
# column 2 (18 cards at most) started under the title.
LEAST = {"800x480": 64, "1024x600": 82, "720x1280": 64, "1920x1080": 128}
CASES = [(size, f"{key}-AAAAAJ2") for size in LEAST for key in ("SH1-C4", "SH1-C2", "SH1-C1")]


@pytest.mark.process
@pytest.mark.parametrize(("size", "code"), CASES, ids=[f"{c[0]}-{c[1][:6]}" for c in CASES])
def test_seahaven_cards_use_the_width(tmp_path, size, code):
    out = tmp_path / "table.json"
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / f"{code[:6]}-{size}.png"
    proc = run_main(
        "--size", size, "--code", code, "--layout-json", str(out), "--screenshot", str(shot)
    )
    assert proc.returncode == 0, proc.stderr
    cards = json.loads(out.read_text())["cards"]
    widths = {c["rect"][2] for c in cards}
    assert len(widths) == 1 and widths.pop() >= LEAST[size]
    # The free cells and the foundations lie above every column card under them.
    row = [c for c in cards if c["pile"] not in {f"t{i}" for i in range(1, 11)}]
    columns = [c for c in cards if c not in row]
    assert row, "the deal puts cards in the free cells"
    for slot in row:
        x, y, w, h = slot["rect"]
        under = [c["rect"] for c in columns if c["rect"][0] < x + w and x < c["rect"][0] + w]
        assert all(y + h < top for _, top, _, _ in under), (slot, under)


@pytest.mark.parametrize(("size", "ppm", "strip_mm"), SCREENS, ids=lambda v: str(v))
def test_one_free_cell_keeps_its_longest_column_readable(size, ppm, strip_mm):
    """SH1-C1 with column 2 at its longest (six dealt cards and the king's run of twelve: 18
    cards): the cards keep their width, the column stays on screen with strips of 3 mm
    (4.5 mm in portrait), and it never runs under the free cell or the foundations."""
    game = position("SH1-C1", 1, 0, 18, run=True)
    app = make_app(game=game, size=size, px_per_mm=ppm, settings=PlayerSettings(locale="en"))
    app.full_redraw = True
    app.draw()
    SHOTS.mkdir(parents=True, exist_ok=True)
    save_png(app.screen, SHOTS / f"SH1-C1-column2-18-{size[0]}x{size[1]}.png")
    lay = app.table.model.layout
    assert lay.card_w >= LEAST[f"{size[0]}x{size[1]}"]
    ys = [app.table.model.rest()[card][1] for card in app.table.model.game.cols[1]]
    assert len(ys) == 18 and ys[-1] + lay.card_h <= size[1]
    strip = min(b - a for a, b in itertools.pairwise(ys))
    assert strip >= strip_mm * ppm, strip / ppm
    slots = [*lay.cells, *lay.foundations]
    assert not any(lay.columns[1].colliderect(slot) for slot in slots)
    pygame.display.quit()
