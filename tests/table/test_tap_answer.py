"""A single tap that cannot send its card home gets a visible answer (issue 15, item 4): the card
shakes and, with interactive rules on, the rule says which card must go home first. The answer
waits out the double-tap window, so a double tap that moves the card shows no refusal."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from engine.cards import parse_card
from game.i18n import LOCALES
from game.saves.prefs import PlayerSettings
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app

CODE = "RU1-C-AAAAABB"  # column 7 ends in 2♣; A♣ lies in column 6, covered by nothing


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


def shaking(app: object) -> set[int]:
    return {t.card for t in app.table.model.tweens if t.wobble}  # type: ignore[attr-defined]


def shaken_within(app: object, seconds: float) -> set[int]:
    """Every card that shook while the clock ran ``seconds`` in frames of 0.05 s."""
    seen: set[int] = set()
    for _ in range(round(seconds / 0.05)):
        app.step(dt=0.05)  # type: ignore[attr-defined]
        seen |= shaking(app)
    return seen


@pytest.mark.parametrize("locale", LOCALES)
def test_a_tap_on_a_card_that_cannot_go_home_shakes_it_and_says_why(locale: str) -> None:
    app = make_app(CODE)
    app.set_locale(locale)
    finger = Finger(app)
    two = parse_card("2C")
    finger.tap(finger.card("2C"))
    assert not app.table.model.toast  # a second tap may still come
    finger.settle(0.5)  # past the double-tap window
    assert app.table.model.toast is not None
    text = app.table.model.toast.text
    assert app.tr.card("2C") in text and app.tr.card("AC") in text
    assert parse_card("AC") in app.table.model.marks  # where A♣ lies
    assert app.table.model.game.moves == 0
    finger.tap(finger.card("2C"))
    assert two in shaken_within(app, 0.6)


def test_without_interactive_rules_the_card_only_shakes() -> None:
    settings = PlayerSettings(interactive_rules=False)
    app = make_app(CODE, settings=settings)
    finger = Finger(app)
    finger.tap(finger.card("2C"))
    assert parse_card("2C") in shaken_within(app, 0.6)
    finger.settle(0.5)
    assert app.table.model.toast is None


def test_a_double_tap_that_moves_the_card_shows_no_refusal() -> None:
    app = make_app(CODE)
    finger = Finger(app)
    game = app.table.model.game
    card = parse_card("4D")  # goes on 5♦ by a double tap, never home
    assert game.double_tap_move(card) is not None
    finger.double_tap(finger.card("4D"))
    assert card not in shaken_within(app, 0.8)
    assert game.moves == 1 and app.table.model.toast is None and not app.table.model.marks


def test_a_tap_that_sends_the_card_home_is_no_refusal() -> None:
    app = make_app(CODE)
    finger = Finger(app)
    finger.tap(finger.card("AC"))
    finger.settle(0.8)
    assert app.table.model.game.moves == 1 and app.table.model.toast is None
