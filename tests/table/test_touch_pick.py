"""Picking a card out of a dense fan by finger: the card under the finger's centre lifts at once,
whole, with a shadow (so the player sees which card they hold), and a drag from there takes that
very card."""

from __future__ import annotations

import pygame
import pytest

from game.dev.report import layout_report
from game.saves.prefs import PlayerSettings
from game.table.sprites import lift_offset
from tests.helpers.tablehelp import Finger, make_app
from tests.look.test_touch_layout import position

pytestmark = pytest.mark.app


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


@pytest.mark.parametrize(
    ("size", "ppm", "key", "down", "up"),
    [((800, 480), 5.2, "RU1-C", 6, 20), ((720, 1280), 8.2, "SH1-C4", 0, 18)],
    ids=["800x480-russian-26", "720x1280-seahaven-20"],
)
def test_the_card_under_the_finger_lifts_and_is_the_one_dragged(size, ppm, key, down, up):
    app = make_app(
        game=position(key, 6, down, up, run=key.startswith('SH')), size=size, px_per_mm=ppm,
        settings=PlayerSettings(locale="en"),
    )  # fmt: skip
    table, finger = app.table, Finger(app)
    view = table.view
    assert view is not None
    lift = lift_offset(table.model.layout.card_h)
    column = table.model.game.cols[6]
    report = {c["card"]: c for c in layout_report(table)["cards"]}
    from engine.cards import card_name

    for card in column[down:]:
        x, y, w, h = report[card_name(card)]["visible"]
        centre = (x + w // 2, y + h // 2)
        finger.down(centre)
        assert table.model.pressed_card == card
        rest = table.model.rest()[card]
        assert view.peek.alive() and view.peek.image is view.art.face(card)
        assert view.peek.rect.topleft == (rest[0] - lift // 2, rest[1] - lift)
        assert view.peek_shadow.alive()
        finger.up(centre)
        assert not view.peek.alive()
        finger.settle(0.4)
    # A drag from the centre of the strip of a card in the middle takes that card and those on it.
    card = column[down + 7] if key.startswith("RU") else column[-2]  # (a Seahaven run: 2S AS)
    x, y, w, h = report[card_name(card)]["visible"]
    start = (x + w // 2, y + h // 2)
    finger.down(start)
    finger.move((start[0] - 60, start[1] + 10))
    finger.move((start[0] - 120, start[1] + 20))
    assert table.model.drag is not None and table.model.drag.card == card
    assert not view.peek.alive()  # the lifted group shows now, with its own shadow
    assert view.shadow.alive() and view.lifted.alive()
    finger.up((start[0] - 120, start[1] + 20))


def test_a_pressed_face_down_card_does_not_lift():
    app = make_app("RU1-C-AAAAABB", size=(800, 480), px_per_mm=5.2)
    table, finger = app.table, Finger(app)
    hidden = table.model.game.cols[6][0]
    rect = table.model.card_rect(hidden)
    finger.down((rect.centerx, rect.top + 3))
    assert table.model.pressed_card == hidden
    assert not table.view.peek.alive()
