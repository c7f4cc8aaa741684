"""The arcade's dialogs (operator menu, initials keypad, win screen) are as tall as what they
hold on every screen: no empty band under the last button, on a portrait screen least of all."""

from __future__ import annotations

import pytest

from game.i18n import LOCALES
from game.launch import show_scene
from game.scenes.dialog import Dialog
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

SIZES = [(800, 480), (720, 1280), (1920, 1080)]


@pytest.mark.parametrize("scene", ["operator", "initials", "win"])
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_dialog_ends_close_below_its_last_button(
    scene: str, locale: str, size: tuple[int, int]
) -> None:
    app = make_app(size=size)
    app.set_locale(locale)
    show_scene(app, scene)
    dialog = app.scenes.top
    assert isinstance(dialog, Dialog) and dialog.name == scene
    panel, u = dialog.panel, dialog.unit()
    content = dialog.controls[0].rect.unionall([c.rect for c in dialog.controls])
    assert panel.contains(content), (panel, content)
    below, above = panel.bottom - content.bottom, content.top - panel.top
    assert below <= 0.6 * u, f"{below}px empty under the last button ({u:.0f}px a row)"
    assert above <= 0.6 * u, f"{above}px empty above the title"
    app.close()
