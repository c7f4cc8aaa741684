"""The operator's list of high-score entries (operator menu, "Remove an entry"; issue 31 item
14): each row's rule set by the name the game shows elsewhere and its date as the language
writes one, and every row drawn at one text size (a long rule-set name is not smaller)."""

from __future__ import annotations

import pygame
import pytest

from game.arcade.highscores import Entry
from game.look import ui
from game.look.fonts import font
from game.saves.prefs import PlayerSettings
from game.scenes.entries import EntriesScene
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

DATES = {"en": "1\u00a0Dec 2026", "fi": "1.12.2026", "ru": "1\u00a0декабря 2026\u00a0г."}


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["800x480", "720x1280"])
@pytest.mark.parametrize("locale", ["en", "fi", "ru"])
def test_rows_name_the_rule_set_and_date_in_the_language_at_one_size(locale, size):
    app = make_app("RU1-C-AAAAAAD", size, settings=PlayerSettings(locale=locale))
    tr = app.tr
    for initials, code in (("VAL", "RU1-C-AAAAAAD"), ("OLI", "SH1-C4-AAAAAJ2")):
        when = "2026-12-01T10:00:00Z"
        app.arcade.scores.add(Entry(code, 500, 422.0, 162, initials, when=when))
    app.scenes.open("entries")
    page = app.scenes.top
    assert isinstance(page, EntriesScene)
    rows = [c for c in page.controls if c.kind == "text" and "\n" in c.label]
    assert [row.label.split()[0] for row in rows] == ["VAL", "OLI"]
    for row, key in zip(rows, ("RU1-C", "SH1-C4"), strict=True):
        assert row.label.endswith(f"{tr(f'stats.{key}')} · {DATES[locale]}")
        assert "2026-12-01" not in row.label and key not in row.label
    assert len({row.size for row in rows}) == 1 and rows[0].size >= page.least
    for row in rows:  # drawn at that size: its lines fit its room, nothing shrinks one row
        lines = ui.wrap(row.label, row.rect.width, row.size)
        assert font(row.size).get_linesize() * len(lines) <= row.rect.height, row.label
        assert len(lines) <= (2 if size[0] > size[1] else 3)  # landscape: unwrapped
