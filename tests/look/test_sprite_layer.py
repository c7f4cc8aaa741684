"""The table as a sprite layer: every card a DirtySprite in a LayeredDirty group, stacked in
play order; hit-testing asks the layer; a frame redraws only what moved, and the pieces it
redraws add up to exactly the picture a full redraw gives."""

from __future__ import annotations

import pygame
import pytest

from engine import Game
from engine.cards import card_name, parse_card
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app

# A game in progress with long, squeezed columns (game.dev.bench's position).
MOVES = (
    "AC-t7 4D-t3 3D-t3 AS-t4 3C-t1 QC-t3 TC-t5 2C-t1 TH-t7 7S-t2 9C-t5 9H-t7 8H-t7 8S-t7 "
    "KC-t2 5D-t6 8D-t4 JH-t7 AD-f 5H-t3"
)


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def played(size: tuple[int, int] = (800, 480)):
    game = Game.from_code("RU1-C-AAAAABB")
    for move in MOVES.split():
        game.play(move)
    return make_app(game=game, size=size)


def full_picture(app) -> pygame.Surface:
    """What a full redraw of everything (felt, every card) shows now."""
    view = app.table.view
    view.repaint_all()
    view.draw(app.screen, True)
    return app.screen.copy()


def differing(a: pygame.Surface, b: pygame.Surface) -> int:
    """How many pixels differ (compared whole first: counting pixel by pixel took 0.4 s)."""
    if a.get_size() == b.get_size() and pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(
        b, "RGBA"
    ):
        return 0
    w, h = a.get_size()
    return sum(1 for x in range(w) for y in range(h) if a.get_at((x, y)) != b.get_at((x, y)))


class TestLayer:
    def test_every_card_is_a_dirty_sprite_stacked_in_play_order(self):
        app = played()
        view, game = app.table.view, app.table.model.game
        assert isinstance(view.rest, pygame.sprite.LayeredDirty)
        assert all(isinstance(sprite, pygame.sprite.DirtySprite) for sprite in view.cards)
        for col in game.cols:
            layers = [view.rest.get_layer_of_sprite(view.cards[card]) for card in col]
            assert layers == sorted(layers) and len(set(layers)) == len(layers)

    def test_hit_testing_finds_the_top_most_card_under_the_finger(self):
        app = played()
        table, finger = app.table, Finger(app)
        game = table.model.game
        for col in game.cols:
            top = table.model.card_rect(col[-1])
            assert table.card_at(top.center) == col[-1]
        for col in game.cols:
            for card in col[len(col) // 2 : -1]:  # covered: only a strip of it shows
                assert table.card_at(finger.card(card_name(card))) == card
        diamonds = parse_card("AD") // 13
        assert table.card_at(table.model.layout.foundations[diamonds].center) == parse_card("AD")
        spades = parse_card("AS") // 13
        assert table.card_at(table.model.layout.foundations[spades].center) is None  # empty slot
        assert table.card_at((2, table.model.layout.height // 2)) is None  # the felt

    def test_a_lifted_group_is_not_hit_where_it_rested(self):
        app = played()
        finger = Finger(app)
        start = finger.card("JH")
        finger.down(start)
        finger.move((start[0] + 30, start[1] + 60))
        finger.move((start[0] + 60, start[1] + 120))
        assert app.table.model.drag is not None
        assert app.table.view.card_at(start) != parse_card("JH")


class TestDirtyDrawing:
    @pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
    def test_frames_drawn_in_pieces_add_up_to_the_full_picture(self, size):
        """Named for a bug: overlapping areas to repaint blitted a resting card twice and
        darkened its soft edges after a drop and after a glide."""
        app = played(size)
        table, finger = app.table, Finger(app)
        start = finger.card("JH")
        finger.down(start)
        for k in range(1, 8):
            finger.move((start[0] - 11 * k, start[1] + 5 * k))
        finger.up((start[0] - 77, start[1] + 35))  # dropped on another column or flying back
        for _ in range(4):
            app.step()
        assert differing(app.screen.copy(), full_picture(app)) == 0
        finger.settle()
        game = table.model.game
        move = next(m for m in game.legal_moves() if not game.is_pointless(m))
        table.model.make_move(move)
        for _ in range(5):
            app.step()
        assert differing(app.screen.copy(), full_picture(app)) == 0
        finger.settle()
        table.model.undo()
        finger.settle()
        assert differing(app.screen.copy(), full_picture(app)) == 0

    def test_a_move_redraws_only_what_moves(self):
        app = played((1920, 1080))
        table = app.table
        for _ in range(5):
            app.step()
        game = table.model.game
        move = next(m for m in game.legal_moves() if not game.is_pointless(m))
        table.model.make_move(move)
        screen = app.screen.get_width() * app.screen.get_height()
        while table.model.tweens:
            rects = app.step()
            assert 0 < sum(r.width * r.height for r in rects) < screen // 4

    def test_a_resize_in_mid_drag_leaves_no_lifted_group_behind(self):
        app = played()
        finger = Finger(app)
        start = finger.card("JH")
        finger.down(start)
        finger.move((start[0] + 30, start[1] + 60))
        finger.move((start[0] + 60, start[1] + 120))
        assert app.table.view.lifted.alive()
        app.resize(pygame.display.set_mode((720, 1280)))
        app.step()
        view = app.table.view
        assert app.table.model.drag is None and not view.lifted.alive() and not view.shadow.alive()
        assert view.card_at(finger.card("JH")) == parse_card("JH")
        assert differing(app.screen.copy(), full_picture(app)) == 0
