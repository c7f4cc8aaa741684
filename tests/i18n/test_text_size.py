"""No text on any screen is smaller than the info bar's text at that size (issue 25, item 8):
every text a dialog draws (the initials keypad's too) and the table's own button labels, at the
size they are drawn (after any shrinking to fit), is at least the table layout's
``text_size``. Read from what the screen renders."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pytest

from game.launch import show_scene
from game.look.fonts import forget_fonts
from game.look.png import save_png
from game.table.scene import TableScene
from game.table.view import TableView
from tests.helpers.tablehelp import make_app
from tests.look.test_layout_json import ROOT
from tests.scenes.test_examples import open_examples

pytestmark = pytest.mark.app

SHOTS = ROOT / "out" / "screens" / "text-size"

SIZES = [(800, 480), (1024, 600), (720, 1280), (1920, 1080)]
SCENES = ["newgame", "keypad", "initials", "settings", "rules", "win", "stats", "scores"]


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
    least = app.table.model.layout.text_size
    small: dict[str, list[tuple[str, int]]] = {}
    for scene in SCENES:
        rendered = Rendered()
        monkeypatch.setattr(pygame.font, "Font", rendered.font)
        forget_fonts()  # every font made anew, each noting what it renders
        show_scene(app, scene)
        app.step()
        app.full_redraw = True
        app.draw()
        monkeypatch.undo()
        forget_fonts()
        found = [(text, px) for text, px in rendered.sizes.items() if px < least]
        if found:
            small[scene] = found
        app.scenes.pop_to_bottom()
    assert not small, (least, small)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", ["fi", "ru", "en"])
@pytest.mark.parametrize("code", ["RU1-C-AAAAABB", "SH1-C1-AAAAAJ2"])
def test_the_table_buttons_are_as_readable_as_the_info_bar(size, locale, code, monkeypatch):
    """Before: 20 px labels under the icons against the bar's 24 px at 720x1280 (Russian
    "Подсказка" and "Настройки" fit no larger in a fifth of the width)."""
    app = make_app(code, size=size)
    app.set_locale(locale)
    least = app.table.model.layout.text_size
    rendered = Rendered()
    monkeypatch.setattr(pygame.font, "Font", rendered.font)
    forget_fonts()
    app.table.view = TableView(app.table)  # the table's pictures drawn anew with the noting fonts
    app.table.resize()
    app.full_redraw = True
    app.draw()
    monkeypatch.undo()
    forget_fonts()
    labels = [app.tr(f"buttons.{name}") for name in app.table.model.layout.buttons]
    # A label on one line, or on two (each line rendered by itself).
    drawn = {
        label: [px for text, px in rendered.sizes.items() if len(text) > 2 and text in label]
        for label in labels
    }
    assert all(drawn.values()), drawn
    assert all(min(px) >= least for px in drawn.values()), (least, drawn)
    if size == (720, 1280):
        SHOTS.mkdir(parents=True, exist_ok=True)
        save_png(app.screen, SHOTS / f"table-{code[:6]}-{locale}-720x1280.png")


def drawn_sizes(draw: Callable[[], object], monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """The size of every text ``draw`` renders, with every font made anew."""
    rendered = Rendered()
    monkeypatch.setattr(pygame.font, "Font", rendered.font)
    forget_fonts()
    draw()
    monkeypatch.undo()
    forget_fonts()
    return rendered.sizes


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", ["fi", "ru", "en"])
def test_the_words_on_the_examples_table_are_as_readable_as_the_info_bar(size, locale, monkeypatch):
    """The Examples page's small table is a picture of a table: its cards' indices may be
    small, but its words (info bar, title, the pictured buttons) are there to be read, no
    smaller than the visitor's table's info bar. Before: 12 px against the bar's 13 at
    800x480, 20 against 23 at 720x1280."""
    app, _finger, page = open_examples(locale, size)

    def fresh(table: TableScene) -> None:
        table.view = TableView(table)  # its pictures drawn anew
        table.resize()
        table.draw(app.screen, True)

    bar = drawn_sizes(lambda: fresh(app.table), monkeypatch)[app.table.model.game.code]
    words = drawn_sizes(lambda: fresh(page.demo), monkeypatch)
    words = {text: px for text, px in words.items() if sum(c.isalpha() for c in text) > 1}
    assert app.tr("buttons.settings") in " ".join(words)
    small = {
        text: px for text, px in words.items() if px < min(bar, app.table.model.layout.text_size)
    }
    assert not small, (bar, small)
    if size == (720, 1280):
        app.full_redraw = True
        app.draw()
        SHOTS.mkdir(parents=True, exist_ok=True)
        save_png(app.screen, SHOTS / f"examples-{locale}-720x1280.png")
