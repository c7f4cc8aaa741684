"""Screenshots for people to look at (out/screens/, ignored by git): the Finish button in three
languages, a refusal's mark on a covered card, a card chosen by Tap to place (issue 25 items 2,
3, 9)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from engine import Game
from engine.cards import parse_card
from game.dev.report import layout_report
from game.look.png import save_png
from game.saves.prefs import PlayerSettings
from tests.helpers.tablehelp import WON_CODE, Finger, make_app
from tests.table.test_finish_button import LONG_FINISH

pytestmark = pytest.mark.app

OUT = Path(__file__).resolve().parents[2] / "out" / "screens"
SIZES = [((800, 480), 5.2), ((1024, 600), 6.6), ((720, 1280), 8.3), ((1920, 1080), None)]


def shoot(app, name: str) -> None:
    app.full_redraw = True
    app.draw()
    OUT.mkdir(parents=True, exist_ok=True)
    w, h = app.screen.get_size()
    save_png(app.screen, str(OUT / f"{name}-{w}x{h}.png"))


@pytest.mark.parametrize(("size", "ppm"), SIZES, ids=lambda v: str(v))
@pytest.mark.parametrize("locale", ["fi", "ru", "en"])
def test_finish_button(locale, size, ppm) -> None:
    game = Game.from_code(WON_CODE)
    for move in LONG_FINISH:
        game.play(move)
    app = make_app(game=game, size=size, px_per_mm=ppm, settings=PlayerSettings(locale=locale))
    buttons = {b["name"]: b["rect"] for b in layout_report(app.table)["buttons"]}
    assert "finish" in buttons and "hint" not in buttons
    shoot(app, f"finish-{locale}")
    Finger(app).tap(app.table.model.layout.buttons["hint"].center)
    Finger(app).settle(0.25)
    shoot(app, f"finishing-{locale}")  # part of the way: the cards fly home one after another
    pygame.display.quit()


@pytest.mark.parametrize(("size", "ppm"), SIZES, ids=lambda v: str(v))
@pytest.mark.parametrize("locale", ["fi", "ru", "en"])
def test_mark_on_a_covered_card(locale, size, ppm) -> None:
    settings = PlayerSettings(locale=locale)
    app = make_app("RU1-C-AAAAAAD", size=size, px_per_mm=ppm, settings=settings)
    finger, table = Finger(app), app.table
    seven = table.model.card_rect(parse_card("7C"))
    finger.drag((seven.centerx, seven.top + 6), finger.column(3))
    finger.settle(0.4)  # the shake is over, the mark and the words stay
    assert table.model.marks == (parse_card("8C"),)
    shoot(app, f"mark-covered-{locale}")
    pygame.display.quit()


@pytest.mark.parametrize(("size", "ppm"), SIZES, ids=lambda v: str(v))
def test_card_chosen_by_tap_to_place(size, ppm) -> None:
    settings = PlayerSettings(locale="en", tap_to_place=True)
    app = make_app("RU1-C-AAAAAAD", size=size, px_per_mm=ppm, settings=settings)
    finger, table = Finger(app), app.table
    finger.tap(finger.card("9S"))
    finger.settle(0.5)
    nine, on_it = parse_card("9S"), [parse_card("3C"), parse_card("9H")]  # they move with it
    column, at = table.model.game.locate(nine)
    assert [table.model.game.cols[column][at:], table.model.game.moves] == [
        (nine, *on_it),
        0,
    ]  # not moved
    chosen = table.model.chooser.current()
    assert chosen is not None and chosen.card == nine
    assert table.model.chooser.lit() == table.model.card_rect(nine).unionall(
        list(map(table.model.card_rect, on_it))
    )
    shoot(app, "tap-to-place")
    pygame.display.quit()
