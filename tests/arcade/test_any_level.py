"""'Any' means any (issue 14 item 3, seed 003): the level "any" deals a random deal whatever
`winnable_only` says, the rules screen says so in all three languages, and the kind of deal is
on the table's title and the win screen. Through the input layer."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest

from engine import catalog
from game.games import GameChoice, Games
from game.look import ui
from game.look.fonts import font
from game.look.png import save_png
from game.look.typeset import SHY
from game.saves.prefs import PlayerSettings
from game.scenes.win import WinScene
from tests.helpers.tablehelp import Finger, almost_won, make_app

pytestmark = pytest.mark.app

LOCALES = ("en", "fi", "ru")


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def catalog_codes(key: str) -> set[str]:
    return {code for codes in catalog.load(key).levels.values() for code in codes}


def test_any_is_random_even_with_winnable_only():
    choice = GameChoice(game="russian", level="any", winnable_only=True)
    assert choice.deal_level() == "any"
    games = Games(choice, rng=random.Random(7))
    known = catalog_codes("RU1-C")
    dealt = [games.new().code for _ in range(20)]
    assert not known.issuperset(dealt)  # not all from the catalog of winnable deals
    seahaven = GameChoice(game="seahaven", winnable_only=True)
    assert seahaven.deal_level() == "winnable"  # Seahaven's difficulty is its free cells


@pytest.mark.parametrize("locale", LOCALES)
def test_the_rules_screen_calls_any_a_random_deal(locale):
    app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale))
    tr = app.tr
    text = " ".join(tr.paragraphs("rules.russian.body"))
    assert tr("names.any").replace(SHY, "") in text  # the name the level button shows
    random_word = {"en": "random", "fi": "satunnainen", "ru": "случайная"}[locale]
    assert random_word in text


def title(app) -> str:
    return app.table.view.chrome.title_text()


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("level", ["any", "easy", "hard"])
def test_the_level_chosen_is_on_the_title(locale, level):
    app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale=locale))
    finger, tr = Finger(app), app.tr
    finger.tap(finger.button("new"))
    finger.tap(finger.control(tr(f"names.{level}")))
    finger.tap(finger.control(tr("newgame.deal")))
    code = app.table.model.game.code
    if level == "any":
        assert code not in catalog_codes("RU1-C")
        assert tr("table.deal_random") in title(app)
    else:
        assert code in catalog.load("RU1-C").levels[level]
        assert tr(f"names.{level}") in title(app)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_win_screen_tells_the_kind_of_deal(locale):
    game = almost_won("SH1-C4-AAAAAJ2")
    app = make_app(game=game, settings=PlayerSettings(locale=locale))
    finger = Finger(app)
    for king in ("KS", "KH", "KD", "KC"):
        finger.tap(finger.card(king))
    finger.settle(1.5)
    win = app.scenes.top
    assert isinstance(win, WinScene)
    expected = app.tr("table.deal_random")  # SH1-C4-AAAAAJ2 is not a catalog deal
    if "SH1-C4-AAAAAJ2" in catalog_codes("SH1-C4"):
        expected = app.tr("table.deal_winnable")
    assert expected in [c.label for c in win.controls]


SIZES = [(800, 480), (1024, 600), (720, 1280), (1920, 1080)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", LOCALES)
def test_the_new_game_dialog_says_any_may_not_be_winnable(locale, size):
    """Where the level is chosen (issue 38 item 3): under the levels, "Any" says its deal is
    random and often cannot be won; the other levels that every deal of theirs can be won. The
    line lies on the panel, clear of the buttons, and every button keeps its place whichever
    level or game is chosen (Seahaven, without levels, leaves the line's room empty)."""
    app = make_app("RU1-C-AAAAAAD", size=size, settings=PlayerSettings(locale=locale))
    finger, tr = Finger(app), app.tr
    finger.tap(finger.button("new"))
    scene = app.scenes.top

    def note() -> str:
        notes = [c for c in scene.controls if c.name == "level_note"]
        assert len(notes) <= 1
        if notes:  # on the panel, every line of it inside its box, clear of every button
            c = notes[0]
            assert scene.panel.contains(c.rect)
            assert not any(b.rect.colliderect(c.rect) for b in scene.controls if b.action)
            lines = ui.wrap(c.label, c.rect.width, c.size)
            assert len(lines) * font(c.size).get_linesize() <= c.rect.height
            assert c.size >= app.table.model.layout.text_size
        return notes[0].label if notes else ""

    def places() -> list[tuple[int, int, int, int]]:
        return [tuple(c.rect) for c in scene.controls if c.action and c.label != tr("names.any")]

    finger.tap(finger.control(tr("names.easy")))
    assert note() == tr("newgame.level_note")
    easy = places()
    finger.tap(finger.control(tr("names.any")))
    assert note() == tr("newgame.level_note_any")
    assert places() == easy
    finger.tap(finger.control(tr("names.seahaven")))
    assert note() == ""
    bottom = [c.rect for c in scene.controls if c.label == tr("newgame.deal")]
    finger.tap(finger.control(tr("names.russian")))
    assert [c.rect for c in scene.controls if c.label == tr("newgame.deal")] == bottom
    assert note() == tr("newgame.level_note_any")
    app.full_redraw = True
    app.draw()
    out = Path(__file__).resolve().parents[2] / "out" / "screens"
    out.mkdir(parents=True, exist_ok=True)
    save_png(app.screen, out / f"newgame-any-{size[0]}x{size[1]}-{locale}.png")
