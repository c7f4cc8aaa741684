"""The "One tap moves" setting (issue 14 item 1, seed 003): off by default; on, one tap moves
a face-up card with everything on it to its place. Through the input layer."""

from __future__ import annotations

import pygame
import pytest

from engine.cards import CARD_NAMES, parse_card
from game.config import DefaultsConfig
from game.look.png import save_png
from game.saves.prefs import PlayerSettings
from game.scenes.settings import SettingsScene
from tests.helpers.tablehelp import Finger, make_app, names

pytestmark = pytest.mark.app

LOCALES = ("en", "fi", "ru")


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def one_tap_app(locale: str = "en", on: bool = True):
    return make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale, one_tap=on))


def test_off_by_default():
    assert DefaultsConfig().one_tap is False and PlayerSettings().one_tap is False
    app = make_app("RU1-C-AAAAAAD")
    finger = Finger(app)
    before = app.table.model.game.to_dict()
    finger.tap(finger.card("9S"))
    assert app.table.model.game.to_dict() == before


def test_one_tap_moves_a_card_with_everything_on_it_to_its_only_place():
    app = one_tap_app()
    finger = Finger(app)
    finger.tap(finger.card("9S"))
    game = app.table.model.game
    assert names(game.cols[6][-4:]) == ["TS", "9S", "3C", "9H"]
    assert game.moves == 1


def test_one_tap_sends_a_top_card_home_first():
    app = one_tap_app()
    finger = Finger(app)
    finger.tap(finger.card("AH"))
    assert app.table.model.game.found == [0, 1, 0, 0]


def test_a_double_tap_still_moves_once():
    """The first tap moves the card; the second, now a double tap, must not move it again, even
    where the card has another place (relaxed rules: the six of clubs fits the seven of column
    7, the longest, and the seven of column 1)."""
    app = make_app("RU1-R-AAAAAAB", settings=PlayerSettings(one_tap=True))
    finger, game, six = Finger(app), app.table.model.game, parse_card("6C")
    finger.double_tap(finger.card("6C"))
    assert game.moves == 1
    assert game.locate(six)[0] == 6
    assert [str(move) for move in game.targets(six)] == ["6C-t1"]  # it could have gone on


@pytest.mark.parametrize("locale", LOCALES)
def test_a_tap_that_finds_no_place_is_refused_visibly(locale):
    app = one_tap_app(locale)
    finger, game, tr = Finger(app), app.table.model.game, app.tr
    stuck = next(
        c
        for i, col in enumerate(game.cols)
        for c in col[game.down[i] :]
        if c % 13 != 12 and not game.targets(c)
    )
    before = game.to_dict()
    finger.tap(finger.card(CARD_NAMES[stuck]))
    assert game.to_dict() == before
    assert app.table.model.tweens  # the cards shake
    assert app.table.model.toast is not None
    assert tr.card(CARD_NAMES[stuck + 1]) in app.table.model.toast.text  # the card it needs


@pytest.mark.parametrize("locale", LOCALES)
def test_the_setting_is_in_the_settings_menu(locale):
    app = one_tap_app(locale, on=False)
    finger = Finger(app)
    finger.tap(finger.button("settings"))
    assert isinstance(app.scenes.top, SettingsScene)
    finger.tap(finger.control(app.tr("settings.one_tap")))
    assert app.settings.one_tap is True
    finger.tap(finger.control(app.tr("dialog.close")))
    finger.tap(finger.card("9S"))
    assert app.table.model.game.locate(parse_card("9S"))[0] == 6


def two_of_clubs_stuck():
    """2♣ on top of column 3 with nothing home: 3♣ face down somewhere, A♣ face up under 5♦
    in column 2 (a position made with the engine, the other cards face down)."""
    from game.examples import Example

    columns = (("KH",), ("AC", "5D"), ("2C",), ("QS",), ("9D",), ("JC",), ("4H",))
    game = Example("stuck", "RU1-C-AAAAAAA", columns).game()
    three = parse_card("3C")
    pile, pos = game.locate(three)
    assert pile < 7 and pos < game.down[pile]  # face down
    return game


@pytest.mark.parametrize("locale", LOCALES)
def test_a_refused_tap_names_the_card_that_must_go_home_first(locale):
    """Issue 31 item 12: a one-tap refusal of 2♣ says that A♣ must go home first (and marks
    it), not only that 3♣ is face down."""
    app = make_app(game=two_of_clubs_stuck(), settings=PlayerSettings(locale=locale, one_tap=True))
    finger, tr = Finger(app), app.tr
    before = app.table.model.game.to_dict()
    finger.tap(finger.card("2C"))
    assert app.table.model.game.to_dict() == before
    assert app.table.model.toast is not None
    text = app.table.model.toast.text
    assert tr("table.home_first", needed=tr.card("AC"), card=tr.card("2C")) in text
    assert tr("table.needed_marked", needed=tr.card("AC")) in text
    assert tr("table.needed_down", needed=tr.card("3C")) in text  # the other way, still said
    assert parse_card("AC") in app.table.model.marks


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280), (1920, 1080)])
def test_the_longer_refusal_fits_clear_of_its_cards(size):
    """The refusal that names A♣ too stays on the screen, clear of 2♣ and of A♣ (marked), in
    every language (screenshots in out/screens/refusals/ for people to look at)."""
    from pathlib import Path

    out = Path(__file__).resolve().parents[2] / "out" / "screens" / "refusals"
    out.mkdir(parents=True, exist_ok=True)
    for locale in LOCALES:
        settings = PlayerSettings(locale=locale, one_tap=True)
        app = make_app(size=size, game=two_of_clubs_stuck(), settings=settings)
        finger = Finger(app)
        finger.tap(finger.card("2C"))
        table = app.table
        assert table.model.toast is not None
        assert app.screen.get_rect().contains(table.model.toast.rect), (size, locale)
        for card in ("2C", "AC"):
            group = table.model.places.group_rect(parse_card(card))
            assert not table.model.toast.rect.colliderect(group), (size, locale, card)
        app.full_redraw = True
        app.draw()
        save_png(app.screen, str(out / f"home-first-{size[0]}x{size[1]}-{locale}.png"))
        pygame.display.quit()
