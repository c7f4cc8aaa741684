"""Bugs found by playing the table (review of issue 4), one named test each."""

from __future__ import annotations

import itertools

import pygame
import pytest

import engine.catalog
from game.input import DoubleTap, Tap
from game.look import ui
from game.look.fonts import font
from game.scenes.rules import RulesScene
from game.scenes.settings import SettingsScene
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


class TestDoubleClickAcrossScreens:
    """A desktop player double-clicks buttons out of habit: the first click opens or closes a
    screen, and the second must not act on whatever lies under the pointer on the new one."""

    def test_double_click_on_rules_does_not_close_the_rules_again(self):
        app = make_app(size=(800, 480))
        finger = Finger(app, touch=False)
        finger.tap(finger.button("settings"))
        finger.settle()
        assert isinstance(app.scenes.top, SettingsScene)
        # At 800x480 the rules screen's Close button lies under the Settings' Rules button.
        finger.double_tap(finger.control(app.tr("settings.rules")))
        assert isinstance(app.scenes.top, RulesScene)

    def test_double_click_on_close_does_not_tap_the_table_beneath(self):
        app = make_app(size=(800, 480))
        finger = Finger(app, touch=False)
        finger.tap(finger.button("settings"))
        finger.settle()
        seen: list[object] = []
        handle = app.table.handle

        def spy(event: object) -> bool:
            seen.append(event)
            return handle(event)  # type: ignore[arg-type]

        app.table.handle = spy  # type: ignore[method-assign]
        finger.double_tap(finger.control(app.tr("dialog.close")))
        assert len(app.scenes) == 1
        assert not [e for e in seen if isinstance(e, Tap | DoubleTap)]

    def test_two_quick_taps_on_one_screen_still_act_twice(self):
        """Undo twice in a row (and keypad letters) stay quick."""
        app = make_app("RU1-C-AAAAABB", size=(800, 480))
        finger = Finger(app, touch=False)
        table = app.table
        table.model.make_move(table.model.game.tap_move(table.model.game.cols[5][-1]))  # AC home
        table.model.make_move(table.model.game.tap_move(table.model.game.cols[6][-1]))  # 2C home
        finger.settle()
        finger.double_tap(finger.button("undo"))
        assert table.model.game.found == [0, 0, 0, 0]


def level_row(app) -> set[str]:
    """The labels of the new-game dialog's Level row that are on screen."""
    keys = ("newgame.level", "names.easy", "names.medium", "names.hard", "names.any")
    labels = {c.label for c in app.scenes.top.controls}
    return {app.tr(key) for key in keys} & labels


class TestNewGameDialog:
    def test_seahaven_shows_no_level_row_that_would_do_nothing(self):
        """Seahaven's difficulty is its free cells (the seed): the Russian levels row must not
        appear there, since a Seahaven deal ignores it."""
        app = make_app("SH1-C2-AAAAAJ2", size=(1024, 600))
        finger = Finger(app)
        finger.tap(finger.button("new"))
        assert app.tr("newgame.cells") in {c.label for c in app.scenes.top.controls}
        assert level_row(app) == set()
        finger.settle()
        finger.tap(finger.control(app.tr("names.russian")))
        assert len(level_row(app)) == 5

    def test_a_rule_set_without_catalog_deals_shows_no_level_row(self, monkeypatch, caplog):
        """A level only picks a deal from the catalog: when the relaxed rules' catalog is
        damaged (or empty) the row would do nothing, so it is not shown; the classic rules
        keep theirs, and a new game is still dealt."""
        real_load = engine.catalog.load

        def load(key, directory=None):
            if key == "RU1-R":
                raise engine.catalog.CatalogError("RU1-R.txt: no catalog entries in 3 lines")
            return real_load(key, directory)

        monkeypatch.setattr(engine.catalog, "load", load)
        app = make_app("RU1-R-AAAAABB", size=(1024, 600))
        finger = Finger(app)
        finger.tap(finger.button("new"))
        assert app.tr("newgame.rules") in {c.label for c in app.scenes.top.controls}
        assert level_row(app) == set()
        assert "no catalog entries" in caplog.text  # the kiosk's log says why
        finger.settle()
        finger.tap(finger.control(f"{app.tr('names.classic')} · {app.tr('names.same_suit')}"))
        assert len(level_row(app)) == 5
        finger.settle()
        finger.tap(finger.control(app.tr("newgame.deal")))
        assert app.scenes.top is app.table and app.table.model.game.code.startswith("RU1-C-")

    @pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=str)
    def test_buttons_in_a_row_share_one_text_size(self, size):
        """A long label wraps to two lines instead of shrinking alone."""
        app = make_app("RU1-C-AAAAABB", size=size)
        app.set_locale("fi")
        finger = Finger(app)
        finger.tap(finger.button("new"))
        dialog = app.scenes.top
        rows: dict[int, set[int]] = {}
        for c in dialog.controls:  # type: ignore[attr-defined]
            if not c.action:
                continue
            rows.setdefault(c.rect.top, set()).add(c.size)
            # The label is drawn whole at that size (one or two lines), never squeezed.
            lines = ui.label_lines(c.label, c.rect.width - 10, c.rect.height, c.size)
            assert all(font(c.size).size(line)[0] <= c.rect.width - 10 for line in lines)
            assert len(lines) * font(c.size).get_linesize() <= c.rect.height
            assert c.size >= 0.3 * dialog.unit(), (c.label, c.size)  # type: ignore[attr-defined]
        assert all(len(sizes) == 1 for sizes in rows.values()), rows


class TestFan:
    def test_a_slightly_long_column_squeezes_its_hidden_cards_only_as_needed(self):
        """Bug: a column a few pixels too long (6 hidden + 6 face up at 800x480, after a
        take-back) squeezed its hidden cards to slivers while the face-up gaps stayed wide."""
        from game.look.layout import compute_layout

        lay = compute_layout(800, 480, columns=7, cells=0, px_per_mm=5.2)
        room = lay.column_bottom - lay.card_h - lay.columns[0].top
        fu = max(lay.fan_up, lay.fan_open)
        slack = 6 * (lay.fan_down - lay.fan_down_min)  # what the hidden gaps can give
        squeezed = 0
        for total in range(7, 30):
            overflow = 6 * lay.fan_down + (total - 7) * fu - room
            if overflow <= 0:
                continue
            squeezed += 1
            ys = lay.fan_offsets(6, total)
            hidden = [b - a for a, b in itertools.pairwise(ys[:7])]
            face_up = [b - a for a, b in itertools.pairwise(ys[6:])]
            assert ys[-1] + lay.card_h <= lay.column_bottom
            assert min(hidden) >= int(lay.fan_down_min)  # hidden cards still show as a stack
            assert max(hidden) <= min(face_up) + 1  # face-up cards never closer than hidden
            if overflow <= slack:  # the hidden gaps alone make room
                assert min(face_up) >= int(fu)
            # and the room is used: the column ends within a few pixels of the bottom
            assert lay.column_bottom - (ys[-1] + lay.card_h) <= 6
        assert squeezed

    @pytest.mark.parametrize("code", ["RU1-C-AAAAABB", "SH1-C1-AAAAAJ2"])
    def test_portrait_cards_carry_a_larger_index_that_still_reads_in_the_fan(self, code):
        """720x1280: cards are about 11 mm wide, and the landscape-sized index was 2 mm tall;
        the portrait fan leaves room for a larger one, shown whole on a covered card, with
        nothing else of the face peeking out below it."""
        from game.look.cards import FACE, CardArt

        app = make_app(code, size=(720, 1280), px_per_mm=8.3)
        view, lay = app.table.view, app.table.model.layout
        assert view is not None
        art = view.art
        plain = CardArt(lay.card_w, lay.card_h)
        assert art.index_clear > plain.index_clear
        assert art.index_clear <= int(lay.fan_up)
        for card in range(52):
            face = art.face(card)
            for y in range(art.index_clear, int(lay.fan_up)):
                for x in range(4, lay.card_w - 4, 2):
                    assert face.get_at((x, y))[:3] == FACE, (card, x, y)


class TestDragImage:
    def test_a_group_dragged_after_a_language_change_shows_the_new_indices(self):
        """A language change must not leave the old language's indices on a dragged group
        (Q in English, Д in Russian): the lifted cards are drawn with the new card images."""
        app = make_app("RU1-C-AAAAABB", size=(800, 480))
        finger = Finger(app)
        start = finger.card("QS")

        def dragged_corner() -> pygame.Surface:
            finger.down(start)
            finger.move((start[0] + 4, start[1] + 100))
            finger.move((start[0] + 8, start[1] + 200))
            drag = app.table.model.drag
            assert drag is not None
            x, y = drag.origin()[drag.card]
            return app.screen.subsurface((int(x), int(y), app.table.model.layout.card_w, 30)).copy()

        english = dragged_corner()
        finger.up((start[0] + 8, start[1] + 200))  # dropped nowhere: flies back
        finger.settle()
        app.set_locale("ru")
        finger.settle()
        russian = dragged_corner()
        differs = any(
            english.get_at((x, y)) != russian.get_at((x, y))
            for x in range(0, english.get_width(), 2)
            for y in range(0, 30)
        )
        assert differs
        finger.up((start[0] + 8, start[1] + 200))
