"""Screenshots of the table for people to look at (out/screens/, ignored by git): a start position
and a long-column position of both games at the kiosk's screens, each with its layout report
(in English; in Finnish and Russian too)."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from engine import Game
from game.saves.prefs import PlayerSettings
from game.table.report import layout_report
from tests.tablehelp import make_app
from tests.test_touch_layout import position

OUT = Path(__file__).resolve().parent.parent / "out" / "screens"
SCREENS = [((800, 480), 5.2), ((1024, 600), 6.6), ((720, 1280), 8.2), ((1920, 1080), None)]
POSITIONS = {
    "russian-start": lambda: Game.from_code("RU1-C-AAAAABB"),
    "russian-long": lambda: position("RU1-C", 6, 6, 20),
    "seahaven-start": lambda: Game.from_code("SH1-C4-AAAAAJ2"),
    "seahaven-long": lambda: position("SH1-C4", 9, 0, 17, run=True),
    "seahaven1-long": lambda: position("SH1-C1", 1, 0, 18, run=True),
}


@pytest.mark.parametrize(("size", "ppm"), SCREENS, ids=lambda v: str(v))
@pytest.mark.parametrize("name", list(POSITIONS))
def test_screenshot(name, size, ppm):
    app = make_app(game=POSITIONS[name](), size=size, px_per_mm=ppm,
                   settings=PlayerSettings(locale="en"))  # fmt: skip
    app.full_redraw = True
    app.draw()
    OUT.mkdir(parents=True, exist_ok=True)
    stem = OUT / f"{name}-{size[0]}x{size[1]}"
    pygame.image.save(app.screen, f"{stem}.png")
    report = layout_report(app.table)
    stem.with_suffix(".json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    assert len(report["cards"]) == 52
    screen = pygame.Rect(0, 0, *size)
    assert all(screen.contains(pygame.Rect(c["rect"])) for c in report["cards"])
    for locale in ("fi", "ru"):  # the title and the bar in the other languages
        app.set_locale(locale)
        app.draw()
        pygame.image.save(app.screen, f"{stem}-{locale}.png")
    pygame.display.quit()
