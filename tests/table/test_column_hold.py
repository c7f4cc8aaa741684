"""A column keeps its spacing while the finger works on it (issue 38 item 13): when cards leave
it, the cards left stay where they lay, so the next card is still under the finger; once the
finger goes elsewhere or pauses, the column spreads out again, gliding. Synthetic gestures
through the input layer, the clock stepped by hand."""

from __future__ import annotations

import pygame
import pytest

from engine import Game
from engine.cards import parse_card
from game.table.picture import HOLD_PAUSE
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app

RUN = ["QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C", "AC"]


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def long_column() -> Game:
    """Column 4 holds four hidden cards and the clubs from queen down to ace on top (a fan
    squeezed to the bottom of the screen); the other cards spread over the other columns."""
    data = Game.from_code("RU1-C-AAAAABB").to_dict()
    cards = [c.lstrip("#") for col in data["columns"] for c in col]
    rest = [c for c in cards if c not in RUN]
    columns: list[list[str]] = [[] for _ in data["columns"]]
    columns[3] = ["#" + c for c in rest[:4]] + RUN
    for i, card in enumerate(rest[4:]):
        columns[[0, 1, 2, 4, 5, 6][i % 6]].append(card)
    data.update(columns=columns, history=[])
    return Game.from_dict(data)


def index_point(app, name: str) -> tuple[int, int]:
    """A point on the corner strip of ``name`` as it lies now."""
    rect = app.table.model.card_rect(parse_card(name))
    return (rect.left + rect.width // 4, rect.top + 4)


def tops(app, names: list[str]) -> list[int]:
    return [app.table.model.card_rect(parse_card(n)).top for n in names]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_next_card_stays_under_the_finger(size):
    app = make_app(game=long_column(), size=size)
    finger = Finger(app)
    rest = RUN[:-1]
    before = tops(app, rest)
    # The finger taps the ace, then each next club where its corner showed a moment ago.
    finger.tap(index_point(app, "AC"))
    assert app.table.model.game.found[3] == 1
    assert tops(app, rest) == before  # nothing jumped
    for k, name in enumerate(["2C", "3C", "4C"], 2):
        point = index_point(app, name)
        finger.settle(0.5)  # past the double tap's window, within the pause
        finger.tap(point)
        assert app.table.model.game.found[3] == k, f"{name} was no longer under the finger"
    assert tops(app, RUN[:-4]) == before[:-3]


def test_a_pause_spreads_the_column_out_with_a_glide():
    app = make_app(game=long_column(), size=(800, 480))
    finger, table = Finger(app), app.table
    finger.tap(index_point(app, "AC"))
    held = tops(app, RUN[:-1])
    finger.settle(HOLD_PAUSE - 0.2)
    assert tops(app, RUN[:-1]) == held and not table.model.tweens  # still held
    finger.settle(0.3)  # the pause: it spreads out, gliding
    glides = [t for t in table.model.tweens if t.shift]
    assert glides, "the column spread out without a glide"
    assert {t.card for t in glides} <= set(table.model.game.cols[3])  # only the held column
    finger.settle(0.5)
    spread = tops(app, RUN[:-1])
    assert spread != held
    col = table.model.game.cols[3]
    expected = table.model.layout.fan_offsets(table.model.game.down[3], len(col), 3)
    assert [table.model.card_rect(c).top for c in col] == expected
    assert table.deadline() is None or table.deadline() > app.clock.time


def test_a_touch_elsewhere_lets_the_column_go():
    app = make_app(game=long_column(), size=(800, 480))
    finger, table = Finger(app), app.table
    finger.tap(index_point(app, "AC"))
    held = tops(app, RUN[:-1])
    elsewhere = table.model.card_rect(table.model.game.cols[0][-1]).center  # another column
    finger.down(elsewhere)
    finger.up(elsewhere)
    assert any(t.shift for t in table.model.tweens)  # it glides out, not cut short by the tap
    finger.settle(0.1)
    assert any(t.shift for t in table.model.tweens)  # still gliding
    finger.settle(0.5)
    assert tops(app, RUN[:-1]) != held
    col = table.model.game.cols[3]
    expected = table.model.layout.fan_offsets(table.model.game.down[3], len(col), 3)
    assert [table.model.card_rect(c).top for c in col] == expected


def test_a_column_that_grows_or_a_new_deal_is_laid_out_afresh():
    app = make_app(game=long_column(), size=(800, 480))
    finger, table = Finger(app), app.table
    finger.tap(index_point(app, "AC"))
    finger.settle(0.5)
    finger.tap(table.model.layout.buttons["undo"].center)  # the ace comes back: a press elsewhere
    finger.settle(0.5)
    col = table.model.game.cols[3]
    assert col[-1] == parse_card("AC")
    expected = table.model.layout.fan_offsets(table.model.game.down[3], len(col), 3)
    assert [table.model.card_rect(c).top for c in col] == expected
    finger.tap(index_point(app, "AC"))
    table.start_game(Game.from_code("RU1-C-AAAAABB"))
    for i, col in enumerate(table.model.game.cols):
        expected = table.model.layout.fan_offsets(table.model.game.down[i], len(col), i)
        assert [table.model.card_rect(c).top for c in col] == expected
