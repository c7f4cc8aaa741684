"""No text on any screen is smaller than the info bar's text at that size (issue 25, item 8):
every text a dialog draws, at the size it is drawn (after any shrinking to fit), is at least
the table layout's ``text_size``. Read from what the screen renders."""

from __future__ import annotations

import pygame
import pytest

from game.cards import font
from game.launch import show_scene
from tests.tablehelp import make_app

SIZES = [(800, 480), (1024, 600), (720, 1280), (1920, 1080)]
SCENES = ["newgame", "keypad", "settings", "rules", "win", "stats", "scores"]


class Rendered:
    """pygame.font.Font that notes the size of every text it renders (the last size of each:
    a text shrunk to fit is rendered at its final size last)."""

    def __init__(self) -> None:
        self.sizes: dict[str, int] = {}
        original = pygame.font.Font
        sizes = self.sizes

        class Font(original):  # type: ignore[misc, valid-type]
            def __init__(self, path: object, size: int) -> None:
                super().__init__(path, size)
                self.asked = size

            def render(self, text: str, *args: object, **kwargs: object) -> pygame.Surface:
                if any(ch.isalnum() for ch in str(text)):
                    sizes[str(text)] = self.asked
                return super().render(text, *args, **kwargs)

        self.font = Font


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", ["fi", "ru", "en"])
def test_no_text_is_smaller_than_the_info_bar(size, locale, monkeypatch):
    app = make_app("SH1-C2-AAAAAJ2", size=size)
    app.set_locale(locale)
    app.draw()  # the table under the dialogs, drawn (and its texts kept) before they open
    least = app.table.layout.text_size
    small: dict[str, list[tuple[str, int]]] = {}
    for scene in SCENES:
        rendered = Rendered()
        monkeypatch.setattr(pygame.font, "Font", rendered.font)
        font.cache_clear()  # every font made anew, each noting what it renders
        show_scene(app, scene)
        app.step()
        app.full_redraw = True
        app.draw()
        monkeypatch.undo()
        font.cache_clear()
        found = [(text, px) for text, px in rendered.sizes.items() if px < least]
        if found:
            small[scene] = found
        app.scenes.pop_to_bottom()
    assert not small, (least, small)
