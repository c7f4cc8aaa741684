"""The visible answer to a refused tap or drop (TableModel.refuse): the cards shake where they
lie, the rule shows where the play is not, and a card the rule points at is marked."""

from __future__ import annotations

import pytest

from engine import Move
from engine.cards import parse_card
from game.saves.prefs import PlayerSettings
from game.table.feedback import MARK_SECONDS
from tests.helpers.tablehelp import Finger, make_app, names

pytestmark = pytest.mark.app


def _x_of(app, card: int) -> int:
    """Where the card is drawn now (its sprite, on whichever layer it is)."""
    app.table.view.sync()
    return app.table.view.cards[card].rect.x


class TestShake:
    def test_a_stuck_double_tap_shakes_the_card_and_what_lies_on_it(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        game = app.table.model.game
        card = game.cols[3][-1]
        assert game.double_tap_move(card) is None
        home = app.table.model.card_rect(card).x
        finger.double_tap(finger.card(names([card])[0]))
        shaking = {t.card for t in app.table.model.tweens if t.wobble}
        assert shaking == {card}
        seen = set()
        for _ in range(20):
            app.step()
            seen.add(_x_of(app, card))
        assert len(seen) > 2 and min(seen) < home < max(seen)  # it swings both ways
        Finger(app).settle()
        assert not app.table.model.tweens
        assert _x_of(app, card) == home
        assert game.cols[3][-1] == card  # nothing moved

    def test_a_covered_card_shakes_with_the_cards_on_it(self):
        app = make_app("RU1-C-AAAAAAD")
        table = app.table
        col = table.model.game.cols[6]
        table.model.refuse([col[-3]])
        assert [t.card for t in table.model.tweens] == list(col[-3:])
        assert [t.z for t in table.model.tweens] == sorted(t.z for t in table.model.tweens)

    def test_a_refused_drop_flies_back_without_shaking(self):
        app = make_app("RU1-C-AAAAAAD")
        finger = Finger(app)
        finger.drag(finger.card("9S"), finger.column(2))
        assert app.table.model.tweens and not any(t.wobble for t in app.table.model.tweens)

    def test_message_only_with_interactive_rules(self):
        app = make_app(
            "RU1-C-AAAAAAD", settings=PlayerSettings(locale="en", interactive_rules=False)
        )
        finger = Finger(app)
        card = app.table.model.game.cols[3][-1]
        finger.double_tap(finger.card(names([card])[0]))
        assert app.table.model.toast is None
        assert any(t.wobble for t in app.table.model.tweens)  # still a visible answer


SIZES = [(800, 480), (1024, 600), (720, 1280), (1920, 1080)]


class TestWhereTheMessageGoes:
    @pytest.mark.parametrize("size", SIZES)
    def test_never_over_the_cards_of_the_move(self, size):
        app = make_app("RU1-C-AAAAAAD", size=size)
        table = app.table
        text = "A long sentence about why this card cannot go there, long enough to wrap."
        for col in table.model.game.cols:
            for card in (col[-1], col[len(col) // 2]):
                table.model.refuse([card], text)
                assert table.model.toast is not None
                group = table.model.places.group_rect(card)
                assert not table.model.toast.rect.colliderect(group), (size, names([card]))
                assert table.model.toast.rect.top >= 0 and table.model.toast.rect.bottom <= size[1]
                table.model.finish_tweens()

    def test_marks_are_outlined_then_go(self):
        app = make_app("RU1-C-AAAAAAD")
        table = app.table
        ace = parse_card("AS")
        table.model.refuse([table.model.game.cols[0][-1]], "first the ace", marks=[ace])
        assert table.model.marks == (ace,)
        table.view.sync()
        shown = [p for p in table.view.marks if p.alive()]
        assert len(shown) == 1
        # AS lies under other cards: only what shows of it is framed (issue 25 item 3)
        assert shown[0].rect.contains(table.model.places.visible_rect(ace))
        assert not shown[0].rect.contains(table.model.card_rect(ace))
        assert not table.model.toast.rect.colliderect(table.model.card_rect(ace))
        Finger(app).settle(MARK_SECONDS + 0.1)
        assert table.model.marks == ()
        table.view.sync()
        assert not any(p.alive() for p in table.view.marks)


@pytest.mark.parametrize("size", SIZES)
def test_a_hint_never_covers_the_cards_it_points_at(size):
    from game.table.hints import HintMark
    from tests.look.test_touch_layout import position

    app = make_app(game=position("RU1-C", 3, 6, 20), size=size)  # a long middle column
    table = app.table
    text = "Hint: a long sentence naming the card and where it goes, long enough to wrap."
    cols = table.model.game.cols
    moves = [Move(c[-1], j) for i, c in enumerate(cols) if c for j in range(7) if j != i]
    for move in moves:  # every top card to every other column (a mark need not be legal)
        table.model.hints.mark = HintMark(move, app.clock.time + 5)
        table.model.show_toast(text)
        assert table.model.toast is not None
        for rect in (table.model.places.group_rect(move.card), table.model.places.move_rect(move)):
            assert not table.model.toast.rect.colliderect(rect), (size, str(move))


def test_a_gliding_card_casts_a_shadow_that_goes_when_it_lands():
    app = make_app("RU1-C-AAAAAAD")
    finger = Finger(app)
    table, view = app.table, app.table.view
    finger.drag(finger.card("9S"), finger.column(6))
    assert table.model.tweens
    app.step()
    lead = min((t for t in table.model.tweens if t.start != t.end), key=lambda t: t.z)
    assert view.glide_shadow.alive()
    sprite = view.cards[lead.card]
    assert view.glide_shadow.rect.contains(sprite.rect.inflate(-4, -4))
    assert view.top.get_layer_of_sprite(view.glide_shadow) < view.top.get_layer_of_sprite(sprite)
    finger.settle()
    assert not table.model.tweens and not view.glide_shadow.alive()
