"""Screenshots of the table for people to look at (out/screens/, ignored by git): the deal, a game
in progress and a long column of both games (Seahaven with four, two and one free cells) at the
kiosk's screens, each with its layout report (in English; in Finnish and Russian too)."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from engine import FOUNDATION, Game
from game.saves.prefs import PlayerSettings
from game.table.report import layout_report
from tests.tablehelp import make_app
from tests.test_touch_layout import position

OUT = Path(__file__).resolve().parent.parent / "out" / "screens"
SCREENS = [((800, 480), 5.2), ((1024, 600), 6.6), ((720, 1280), 8.2), ((1920, 1080), None)]


def mid_game(code: str, moves: int = 14) -> Game:
    """The deal ``code`` after ``moves`` moves: home where a card can go, else the first move
    that reaches a position not seen yet (a game in progress, the same every run)."""
    game = Game.from_code(code)
    seen = {game.position_key()}
    for _ in range(moves):
        legal = [m for m in game.legal_moves() if not game.is_pointless(m)]
        legal.sort(key=lambda m: m.dest != FOUNDATION)
        for move in legal:
            game.push(move)
            if game.position_key() not in seen:
                seen.add(game.position_key())
                break
            game.pop()
        else:
            break
    return game


POSITIONS = {
    "russian-start": lambda: Game.from_code("RU1-C-AAAAABB"),
    "russian-mid": lambda: mid_game("RU1-C-AAAAABB"),
    "russian-long": lambda: position("RU1-C", 6, 6, 20),
    "seahaven-start": lambda: Game.from_code("SH1-C4-AAAAAJ2"),
    "seahaven1-start": lambda: Game.from_code("SH1-C1-AAAAAJ2"),
    "seahaven2-mid": lambda: mid_game("SH1-C2-AAAAAAD"),
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
