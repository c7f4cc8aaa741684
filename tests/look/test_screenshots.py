"""Screenshots of the table for people to look at (out/screens/, ignored by git): the deal, a game
in progress and a long column of both games (Seahaven with four, two and one free cells) at the
kiosk's screens, each with its layout report (in English; in Finnish and Russian too)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pygame
import pytest

from engine import FOUNDATION, Game
from engine.cards import CARD_NAMES
from game.dev.report import layout_report
from game.look.png import save_png
from game.saves.prefs import PlayerSettings
from tests.helpers.tablehelp import make_app
from tests.look.test_touch_layout import position

pytestmark = pytest.mark.app

OUT = Path(__file__).resolve().parents[2] / "out" / "screens"
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


def assert_a_table_one_can_read(game: Game, report: dict[str, Any]) -> None:
    """What a player sees of the position: all 52 cards on screen, each where the game has it
    and face up or down as the game has it; the corner index of every face-up card in a column
    or a free cell in sight; each column's top card whole; no card under a button."""
    cards = report["cards"]
    assert len(cards) == 52
    screen = pygame.Rect(0, 0, *report["size"])
    buttons = [pygame.Rect(b["rect"]) for b in report["buttons"]]
    for i, column in enumerate(game.cols):
        shown = [c for c in cards if c["pile"] == f"t{i + 1}"]
        assert [c["card"] for c in shown] == [CARD_NAMES[card] for card in column]
        assert [c["face_up"] for c in shown] == [k >= game.down[i] for k in range(len(column))]
        if shown:
            assert shown[-1]["visible"] == shown[-1]["rect"], shown[-1]
    for card in cards:
        rect = pygame.Rect(card["rect"])
        assert screen.contains(rect) and rect.collidelist(buttons) == -1, card
        if card["face_up"] and card["pile"] != "f":
            assert pygame.Rect(card["visible"]).contains(pygame.Rect(card["index"])), card


@pytest.mark.parametrize(("size", "ppm"), SCREENS, ids=lambda v: str(v))
@pytest.mark.parametrize("name", list(POSITIONS))
def test_screenshot(name, size, ppm):
    app = make_app(game=POSITIONS[name](), size=size, px_per_mm=ppm,
                   settings=PlayerSettings(locale="en"))  # fmt: skip
    app.full_redraw = True
    app.draw()
    OUT.mkdir(parents=True, exist_ok=True)
    stem = OUT / f"{name}-{size[0]}x{size[1]}"
    save_png(app.screen, f"{stem}.png")
    report = layout_report(app.table)
    stem.with_suffix(".json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    assert_a_table_one_can_read(app.table.model.game, report)
    for locale in ("fi", "ru"):  # the title and the bar in the other languages
        app.set_locale(locale)
        app.draw()
        save_png(app.screen, f"{stem}-{locale}.png")
    pygame.display.quit()
