"""Finish stands out when it appears (issue 31, item 8): drawn in its own colour (the palette's
gold with dark words, where Hint is green), and it pulses once as it takes Hint's place (grows
and lights up for game.table.finish.PULSE seconds of the fixed clock), then stands still. The
clock is stepped by hand, a frame at a time; what is drawn is read off the screen."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from engine import Game
from game.look import ui
from game.look.png import save_png
from tests.helpers.tablehelp import WIN_LINE, WON_CODE, Finger, make_app
from tests.table.test_finish_button import CERTAIN_AT

pytestmark = pytest.mark.app

OUT = Path(__file__).resolve().parents[2] / "out" / "screens"
SIZES = ((800, 480), (1024, 600), (720, 1280), (1920, 1080))


def luminance(color: tuple[int, int, int]) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = map(channel, color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def rgb(screen: pygame.Surface, pos: tuple[int, int]) -> tuple[int, int, int]:
    color = screen.get_at(pos)
    return (color.r, color.g, color.b)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_finish_has_its_own_colour_and_pulses_once_when_it_appears(size: tuple[int, int]) -> None:
    game = Game.from_code(WON_CODE)
    for move in WIN_LINE[: CERTAIN_AT - 1]:  # 9S-t1 by hand makes the rest certain
        game.play(move)
    app = make_app(game=game, size=size)
    table, finger, screen = app.table, Finger(app), app.screen
    rect = table.model.layout.buttons["hint"]
    fill, above = (rect.left + 3, rect.centery), (rect.centerx, rect.top - 2)
    assert "hint" in table.shown_buttons()
    finger.settle(1.0)
    hint, felt = rgb(screen, fill), rgb(screen, above)
    assert hint == ui.BUTTON and not app.busy()

    finger.drag(finger.card("9S"), finger.column(0))
    assert "finish" in table.shown_buttons()
    seen: list[tuple[tuple[int, int, int], bool]] = []
    peak = None
    for _ in range(150):  # 2.5 s, a frame at a time
        app.step()
        color = rgb(screen, fill)
        seen.append((color, rgb(screen, above) != felt))
        if peak is None or sum(color) > sum(peak[0]):
            peak = (color, screen.copy())
    finish = seen[-1][0]
    assert finish == ui.BUTTON_ON != hint  # its own colour, Hint's place
    assert contrast(ui.BUTTON_TEXT_ON, finish) >= 4.5  # its words read
    assert contrast(finish, felt) >= 3.0  # the button stands out from the felt
    # One pulse: brighter and larger for a while, then steady to the end.
    lit = [sum(color) > sum(finish) + 30 for color, _ in seen]
    runs = sum(1 for k, on in enumerate(lit) if on and (k == 0 or not lit[k - 1]))
    assert runs == 1 and 15 <= lit.count(True) <= 40  # about 0.6 s of 60 frames a second
    grown = [out for _, out in seen]
    assert any(grown) and not any(grown[60:])
    assert all(color == finish for color, _ in seen[60:])
    assert not app.busy()  # steady: the loop may rest again
    assert peak is not None
    OUT.mkdir(parents=True, exist_ok=True)
    save_png(peak[1], str(OUT / f"finish-pulse-{size[0]}x{size[1]}.png"))
    others = [r for name, r in table.model.layout.buttons.items() if name != "hint"]
    image, pos = table.view.chrome.pulsed(0.5)  # the height of the pulse: clear of the others
    assert not any(image.get_rect(topleft=pos).colliderect(r) for r in others)
