"""Fans that use the room they have (issue 31, items 1 and 6): a column opens its gaps to fill
the height it has now and closes them only as it grows, so at the deal a covered face-up card
shows at least 36 px on the 7" 800x480 panel (24-26 px before) and never less than the 3 mm
floor at a column's longest; when the gaps change the cards glide; a press lifts the card and
the cards on it at once, and a release without moving is still a tap. Seahaven's ten columns
start level at every free-cell count. Read from what is drawn (game.dev.report)."""

from __future__ import annotations

import itertools

import pygame
import pytest

import game.table.placement as place
from engine import Game
from engine.codes import format_code
from engine.rules import ALL_RULES
from game.dev.report import layout_report
from game.look.layout import STRIP_MM, compute_layout, longest_column
from game.saves.prefs import PlayerSettings
from game.table.sprites import lift_offset
from tests.helpers.tablehelp import Finger, make_app
from tests.look.test_touch_layout import position

pytestmark = pytest.mark.app

PANEL, PANEL_PPM = (800, 480), 5.2
DEALS = (1, 314, 2026)  # three deals of each rule set
SIZES = [((800, 480), 5.2), ((1024, 600), 6.6), ((720, 1280), 8.2), ((1920, 1080), None)]


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def strips(app) -> list[int]:
    """How many pixels show of each covered face-up card of a column, as drawn."""
    return [c["strip"] for c in layout_report(app.table)["cards"] if c["strip"] is not None]


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.key)
def test_at_the_deal_a_covered_card_shows_36_px_on_the_7_inch_panel(rules):
    app = make_app(format_code(rules, DEALS[0]), size=PANEL, px_per_mm=PANEL_PPM)
    for number in DEALS:
        app.table.start_game(Game.from_code(format_code(rules, number)))
        shown = strips(app)
        assert shown and min(shown) >= 36, (format_code(rules, number), min(shown))


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.key)
def test_a_column_tightens_only_as_it_grows_and_never_under_the_floor(rules):
    """Column by column, one more card never opens the fan, and a column as long as the game
    lets it grow keeps the 3 mm strips the layout was planned for."""
    lay = compute_layout(*PANEL, columns=rules.columns, cells=rules.cells, px_per_mm=PANEL_PPM)
    floor = STRIP_MM * PANEL_PPM
    for column in range(rules.columns):
        if rules.cells:
            down, longest = 0, longest_column(rules.columns, rules.cells, column)
        else:
            down, longest = column, 20  # 20 cards: its hidden ones, the rest face up
        widest = []
        for total in range(down + 2, longest + 1):
            ys = lay.fan_offsets(down, total, column)
            widest.append(min(b - a for a, b in itertools.pairwise(ys[down:])))
            assert ys[-1] + lay.card_h <= lay.column_bottom
        assert widest == sorted(widest, reverse=True), (column, widest)
        assert widest[0] >= 36  # short, it opens wide
        assert widest[-1] >= floor, (column, widest[-1])


def test_a_press_lifts_the_card_and_those_on_it_and_a_still_release_is_a_tap():
    app = make_app("RU1-C-AAAAABB", size=PANEL, px_per_mm=PANEL_PPM,
                   settings=PlayerSettings(locale="en", one_tap=True))  # fmt: skip
    table, view, finger = app.table, app.table.view, Finger(app)
    assert view is not None
    game = table.model.game
    covered = [c for i, col in enumerate(game.cols) for c in col[game.down[i] : -1]]
    card = next(c for c in covered if place.double_tap_move(game, c) is not None)
    pile, k = game.locate(card)
    group = game.cols[pile][k:]
    x, y, w, h = next(
        c["visible"]
        for c in layout_report(table)["cards"]
        if c["rect"] == [*table.model.card_rect(card)]
    )
    press = (x + w // 2, y + h // 2)
    finger.down(press)  # no movement yet
    assert table.model.pressed_card == card
    lift = lift_offset(table.model.layout.card_h)
    lifted = table.model.places.group_rect(card).move(-(lift // 2), -lift)
    assert view.peek_group.alive() and view.peek_group.rect == lifted
    image = view.peek_group.image
    for dy in range(4, image.get_height() - 4, 5):  # drawn on the screen, raised
        colour = image.get_at((w // 2, dy))
        if colour.a == 255:
            assert app.screen.get_at((lifted.x + w // 2, lifted.y + dy)) == colour, dy
    move = place.double_tap_move(game, card)
    finger.up(press)  # let go where it was pressed: a tap, which moves the group
    assert not view.peek_group.alive() and table.model.drag is None
    assert table.model.last_tap is not None and table.model.last_tap.card == card
    assert game.moves == 1 and move is not None and game.cols[move.dest][-len(group) :] == group


def test_when_a_column_opens_up_its_cards_glide():
    """A long column that gives up its top card opens its fan: the cards that stay glide to
    their wider places (under the card that leaves), and rest there."""
    app = make_app(game=position("RU1-C", 6, 6, 16), size=PANEL, px_per_mm=PANEL_PPM)
    table = app.table
    game = table.model.game
    before = {c: table.model.rest()[c][1] for c in game.cols[6]}
    move = next(m for m in game.legal_moves() if m.card == game.cols[6][-1])
    table.model.make_move(move)
    staying = game.cols[6]
    shifts = {t.card: t for t in table.model.tweens if t.shift}
    assert set(shifts) == {c for c in staying if table.model.rest()[c][1] != before[c]}
    assert staying[-1] in shifts
    for card, tween in shifts.items():
        mid = tween.position(tween.t0 + tween.duration / 2)[1]
        assert before[card] < mid < table.model.rest()[card][1]
    app.step()
    view = table.view
    assert view is not None
    glide = view.top.get_layer_of_sprite(view.cards[move.card])
    assert all(view.top.get_layer_of_sprite(view.cards[c]) < glide for c in shifts)
    for _ in range(30):
        app.step()
    assert not table.model.tweens
    assert all(view.cards[c].rect.y == table.model.rest()[c][1] for c in staying)


@pytest.mark.parametrize(("size", "ppm"), SIZES, ids=lambda v: str(v))
@pytest.mark.parametrize("key", ["SH1-C4", "SH1-C2", "SH1-C1"])
def test_seahaven_columns_start_level_at_every_free_cell_count(size, ppm, key):
    app = make_app(f"{key}-AAAAAJ2", size=size, px_per_mm=ppm)
    table = app.table
    tops = {table.model.rest()[col[0]][1] for col in table.model.game.cols}
    assert len(tops) == 1, tops
    assert len({r.top for r in table.model.layout.columns}) == 1
    if size == PANEL:
        assert table.model.layout.card_w >= 64
