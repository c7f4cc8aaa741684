"""A hint on a deal that cannot be won from the start (issue 31 item 13): at the deal itself
no undo helps, so the hint says the deal cannot be won and offers a new deal (a button that
deals one); after moves it still advises undoing them. The solver's answer is scripted; the
table is played through the input layer, in all three languages."""

from __future__ import annotations

import pygame
import pytest

import engine.search.hints
from game.look.png import save_png
from game.saves.prefs import PlayerSettings
from game.scenes.confirm import ConfirmScene
from tests.helpers.tablehelp import Finger, ManualExecutor, make_app

pytestmark = pytest.mark.app

LOCALES = ("en", "fi", "ru")
CODE = "RU1-C-AAAAAAD"


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def lost_app(monkeypatch: pytest.MonkeyPatch, locale: str):
    """A table whose solver proves every position lost, its hint worker run by the test."""
    app = make_app(CODE, (800, 480), settings=PlayerSettings(locale=locale))
    lost = lambda data, limit: (None, "lost", "no_useful_moves")  # noqa: E731
    monkeypatch.setattr(engine.search.hints, "hint_data", lost)
    pool = ManualExecutor()
    app.workers.use("hint", pool)
    return app, pool, Finger(app)


def ask_hint(app, pool: ManualExecutor, finger: Finger) -> None:
    finger.tap(finger.button("hint"))
    pool.finish()
    app.step()


@pytest.mark.parametrize("locale", LOCALES)
def test_a_hint_at_a_lost_deal_says_so_and_offers_a_new_deal(monkeypatch, locale):
    app, pool, finger = lost_app(monkeypatch, locale)
    tr = app.tr
    ask_hint(app, pool, finger)
    question = app.scenes.top
    assert isinstance(question, ConfirmScene)
    assert question.question == tr("table.hint_deal_lost")
    said = question.question.lower()
    assert "undo" not in said and "peru" not in said and "отмени" not in said
    finger.tap(finger.control(tr("table.hint_new_deal")))
    assert app.scenes.top is app.table
    assert (
        app.table.model.game.code != CODE and app.table.model.game.moves == 0
    )  # a new deal, dealt


def test_keep_playing_leaves_the_deal_on_the_table(monkeypatch):
    app, pool, finger = lost_app(monkeypatch, "en")
    ask_hint(app, pool, finger)
    finger.tap(finger.control(app.tr("table.leave_no")))
    assert app.scenes.top is app.table and app.table.model.game.code == CODE


def test_after_a_move_the_hint_still_advises_undoing(monkeypatch):
    """Moves made: the position may be lost by them, so the hint says what it said before."""
    app, pool, finger = lost_app(monkeypatch, "en")
    finger.tap(finger.card("AH"))
    ask_hint(app, pool, finger)
    assert app.scenes.top is app.table
    tip = app.tr("table.hint_lost_tip", setting=app.tr("settings.winnable_indicator"))
    assert (
        app.table.model.toast is not None and app.table.model.toast.text == tip
    )  # first: the indicator too


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280), (1920, 1080)])
def test_the_offer_fits_every_screen(monkeypatch, size):
    """The question and its buttons inside the screen in every language (screenshots in
    out/screens/hint-lost/ for people to look at)."""
    from pathlib import Path

    out = Path(__file__).resolve().parents[2] / "out" / "screens" / "hint-lost"
    out.mkdir(parents=True, exist_ok=True)
    for locale in LOCALES:
        app = make_app(CODE, size, settings=PlayerSettings(locale=locale))
        lost = lambda data, limit: (None, "lost", "no_useful_moves")  # noqa: E731
        monkeypatch.setattr(engine.search.hints, "hint_data", lost)
        app.workers.use("hint", pool := ManualExecutor())
        ask_hint(app, pool, Finger(app))
        question = app.scenes.top
        assert isinstance(question, ConfirmScene)
        screen = app.screen.get_rect()
        assert all(screen.contains(c.rect) for c in question.controls), (size, locale)
        app.full_redraw = True
        app.draw()
        save_png(app.screen, str(out / f"offer-{size[0]}x{size[1]}-{locale}.png"))
        pygame.display.quit()
