"""The table's title (the game's name, its rules and its kind of deal: how a player sees that
the deal on the table is today's deal) is shown on every screen for every rule set, at least at
the info bar's text size, on free felt: never on a card, a slot or a button.

Bug: Seahaven Towers with 4 free cells at 1920x1080 showed no title at all, and at 720x1280 it
was squeezed into a tiny font between the cells and the foundations."""

from __future__ import annotations

import datetime as dt

import pygame
import pytest

from engine.rules import ALL_RULES
from game.look.fonts import font
from game.look.ui import wrap
from game.table.chrome import TITLE_INK
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

SIZES = [(800, 480), (720, 1280), (1280, 800), (1920, 1080)]
KEYS = [r.key for r in ALL_RULES]
LOCALES = ["en", "fi", "ru"]
# Every kind of deal the title names; a past day's deal in every month (the longest dates).
DEALS: list[tuple[str, dt.date | None]] = [
    ("daily", None),
    *[("daily", dt.date(2026, month, 28)) for month in range(1, 13)],
    ("easy", None),
    ("medium", None),
    ("hard", None),
    ("winnable", None),
    ("random", None),
]


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("key", KEYS)
def test_the_title_is_shown_readable_on_free_felt(size, key):
    app = make_app(f"{key}-AAAAAJ2", size=size)
    table = app.table
    lay = table.model.layout
    title = lay.title
    screen = pygame.Rect(0, 0, *size)
    assert title.width > 0 and title.height > 0, title
    assert screen.contains(title), title
    # Clear of every slot, the info bar and the buttons, and of each column down to the
    # lowest a card of it can go.
    for rect in lay.slots():
        assert not title.colliderect(rect), (title, rect)
    for col in lay.columns:
        zone = col.union(col.move(0, lay.column_bottom - lay.card_h - col.top))
        assert not title.colliderect(zone), (title, zone)

    bold = font(lay.text_size, True)
    view = table.view
    assert view is not None
    for locale in LOCALES:
        app.set_locale(locale)
        for deal, day in DEALS:
            table.model.deal, table.model.deal_day = deal, day
            text = view.chrome.title_text()
            # Every line whole, and all lines, at the info bar's text size.
            lines = wrap(text, title.width, lay.text_size, True)
            assert max(bold.size(line)[0] for line in lines) <= title.width, (locale, lines)
            assert len(lines) * bold.get_linesize() <= title.height, (locale, lines, title)
            assert view.chrome.title_size() >= lay.text_size
            # Where the line breaks at "cells · deal", the break separates: no dangling "·".
            drawn = wrap(text, title.width, view.chrome.title_size(), True)
            assert not any(line.endswith("·") or line.startswith("·") for line in drawn), drawn
    # And it is drawn there, today's deal named.
    app.set_locale("en")
    table.model.deal, table.model.deal_day = "daily", None
    assert "Today's deal" in view.chrome.title_text()
    image = view.chrome.chrome()
    inked = sum(
        image.get_at((x, y))[:3] == TITLE_INK
        for x in range(title.left, title.right, 2)
        for y in range(title.top, title.bottom, 2)
    )
    assert inked > 20
