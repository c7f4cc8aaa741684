"""What a refused move says and points at (issue 14 items 2, 6, 7), through the input layer in
all three languages: the needed card named and marked (or said to be face down / at home),
seed 000's "same family" words kept; an empty column's "only a king" and seed 004's worked
example; auto placement chooses a column; a king at the bottom of its column stays."""

from __future__ import annotations

import pygame
import pytest

from engine import Game
from engine.cards import parse_card
from game.saves.prefs import PlayerSettings
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app

LOCALES = ("en", "fi", "ru")


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def position(code: str, columns: list[list[str]], cells: list[str | None], found: list[int]):
    """A position built with the engine (every card placed exactly once)."""
    data = Game.from_code(code).to_dict()
    data.update(columns=columns, cells=cells, foundations=found, history=[], moves=0, score=0)
    data.update(won=False)
    return Game.from_dict(data)


def toast(app) -> str:
    assert app.table.model.toast is not None, "no message shown"
    return app.table.model.toast.text


@pytest.mark.parametrize("locale", LOCALES)
class TestNeededCard:
    def test_a_wrong_suit_names_and_marks_the_card_it_needs(self, locale):
        """RU1-C-AAAAAAD: 9♠ dropped on 6♣ (column 3) needs 10♠, face up in column 2."""
        app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale))
        finger, tr = Finger(app), app.tr
        game = app.table.model.game
        finger.drag(finger.card("9S"), finger.column(2))
        text = toast(app)
        assert tr.card("9S") in text and tr.card("TS") in text
        assert tr("table.goes_only_on", card=tr.card("9S"), needed=tr.card("TS")) in text
        if locale == "fi":
            assert "samasta perheestä" in text  # seed 000's words stay
        assert app.table.model.marks == (parse_card("TS"),)
        assert game.locate(parse_card("TS"))[0] < 10  # it lies in a column, face up

    def test_a_wrong_rank_in_same_suit_building_names_only_its_suits_card(self, locale):
        """RU1-C-AAAAAAD: 4♣ dropped on 6♣ (column 3) needs 5♣, not any five (docs/rules.md:
        the engine's Game.needed_cards)."""
        app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale))
        finger, tr = Finger(app), app.tr
        finger.drag(finger.card("4C"), finger.column(2))
        assert tr("table.needed_marked", needed=tr.card("5C")) in toast(app)
        assert app.table.model.marks == (parse_card("5C"),)

    def test_a_needed_card_face_down_is_said_to_be(self, locale):
        app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale))
        game = app.table.model.game
        # A face-up card whose needed card is face down in this deal.
        hidden = {c for i, col in enumerate(game.cols) for c in col[: game.down[i]]}
        card = next(
            c
            for i, col in enumerate(game.cols)
            for c in col[game.down[i] :]
            if c % 13 != 12 and c + 1 in hidden
        )
        target = next(
            i
            for i, col in enumerate(game.cols)
            if col and col[-1] // 13 != card // 13 and col[-1] % 13 != 0 and card not in col
        )
        finger, tr = Finger(app), app.tr
        finger.drag(finger.card(_name(card)), finger.column(target))
        assert tr("table.needed_down", needed=tr.card(_name(card + 1))) in toast(app)
        assert app.table.model.marks == ()

    def test_the_foundation_names_and_marks_its_next_card(self, locale):
        app = make_app(game=seed_004(), settings=PlayerSettings(locale=locale))
        finger, tr = Finger(app), app.tr
        finger.drag(finger.card("5S"), app.table.model.layout.foundations[0].center)
        text = toast(app)
        assert text.startswith(
            tr("reason.foundation_needs", card=tr.card("5S"), needed=tr.card("AS"))
        )
        assert tr("table.needed_marked", needed=tr.card("AS")) in text
        assert app.table.model.marks == (parse_card("AS"),)


def _name(card: int) -> str:
    from engine.cards import CARD_NAMES

    return CARD_NAMES[card]


HEARTS_LOW = ["AH", "2H", "3H", "4H", "5H", "6H"]
HEARTS_HIGH = ["7H", "8H", "9H", "TH", "JH", "QH", "KH"]
DIAMONDS = ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD"]
CLUBS = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]


def seahaven(code: str, spades: list[list[str]], cells: int) -> Game:
    """Hearts, diamonds and clubs in four columns, ``spades`` in the others, two empty
    columns, ``cells`` free cells (all empty)."""
    columns = [*spades, HEARTS_LOW, HEARTS_HIGH, DIAMONDS, CLUBS]
    columns += [[] for _ in range(10 - len(columns))]
    assert len(columns) == 10 and sum(1 for c in columns if not c) == 2
    return position(code, columns, [None] * cells, [0, 0, 0, 0])


def seed_004() -> Game:
    """Seed 004's worked example: 1 free cell and 2 empty columns; a king run of 6 may be
    lifted (8 could) but only 4 go into an empty column."""
    spades = [["KS", "QS", "JS", "TS", "9S", "8S"], ["AS", "2S", "3S", "4S", "5S"], ["7S"], ["6S"]]
    return seahaven("SH1-C1-AAAAAAA", spades, 1)


def queen_run(cells: int = 1) -> Game:
    """A king alone at the bottom of column 1, a 6-card queen run in column 2."""
    spades = [["KS"], ["QS", "JS", "TS", "9S", "8S", "7S"], ["AS", "2S", "3S"], ["4S", "5S", "6S"]]
    return seahaven("SH1-C1-AAAAAAA" if cells == 1 else "SH1-C4-AAAAAAA", spades, cells)


def empty_column(game: Game) -> int:
    return next(i for i, col in enumerate(game.cols) if not col)


def drop_on_empty_column(game: Game, locale: str, card: str) -> tuple[object, str]:
    """Drag ``card`` onto an empty column; the move must be refused. The app and its answer."""
    app = make_app(game=game, settings=PlayerSettings(locale=locale))
    finger = Finger(app)
    before = game.to_dict()
    finger.drag(finger.card(card), finger.column(empty_column(game)))
    assert app.table.model.game.to_dict() == before
    return app, toast(app)


@pytest.mark.parametrize("locale", LOCALES)
class TestEmptyColumn:
    def test_seed_004_a_king_run_too_long_for_an_empty_column(self, locale):
        app, text = drop_on_empty_column(seed_004(), locale, "KS")
        tr = app.tr  # type: ignore[attr-defined]
        expected = tr(
            "table.run_empty_column",
            size=tr("unit.cards", count=6),
            lift=tr("unit.cards", count=8),
            limit=tr("unit.cards", count=4),
            cells=tr("table.free_cells", count=1),
            columns=tr("table.empty_columns", count=2),
        )
        assert text == expected

    def test_a_non_king_run_onto_an_empty_column_hears_only_a_king(self, locale):
        app, text = drop_on_empty_column(queen_run(), locale, "QS")
        tr = app.tr  # type: ignore[attr-defined]
        assert text.startswith(tr("reason.king_only", card=tr.card("QS")))
        assert tr("unit.cards", count=6) not in text  # not "too long"
        assert tr("table.kings_marked") in text  # and where the kings that could go there lie
        assert parse_card("KH") in app.table.model.marks  # type: ignore[attr-defined]


class TestKingAtTheBottom:
    def test_a_double_tap_on_a_king_alone_in_its_column_does_nothing(self):
        app = make_app(game=queen_run(cells=4))
        finger, game = Finger(app), app.table.model.game
        before = game.to_dict()
        finger.double_tap(finger.card("KS"))
        finger.settle()
        assert game.to_dict() == before  # not to a free cell
        assert app.table.model.toast is None


class TestAutoPlacement:
    def test_a_drop_on_an_empty_column_never_lands_in_a_free_cell(self):
        """Today's bug: an illegal drop on an empty Seahaven column landed in cell 4."""
        settings = PlayerSettings(locale="en", auto_placement=True)
        app = make_app(game=queen_run(cells=4), settings=settings)
        finger, game = Finger(app), app.table.model.game
        before = game.to_dict()
        finger.drag(finger.card("6H"), finger.column(empty_column(game)))
        assert game.to_dict() == before
        assert game.cells == [-1, -1, -1, -1]
        assert app.tr("reason.king_only", card="6♥") in toast(app)

    def test_auto_placement_chooses_the_column_that_takes_the_card(self):
        settings = PlayerSettings(locale="en", auto_placement=True)
        app = make_app(game=seed_004(), settings=settings)
        finger, game = Finger(app), app.table.model.game
        finger.drag(finger.card("5S"), finger.column(empty_column(game)))
        finger.settle()
        six = game.locate(parse_card("6S"))[0]
        assert [c for c in game.cols[six]][-1] == parse_card("5S")
