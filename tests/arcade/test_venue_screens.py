"""The venue on screen (issue 42, items 1 and 2): the high scores' This kiosk / Whole venue tabs,
switched by a tap, the venue's rows naming the kiosk each was won on, the venue's name over its
table, and the win panel's rank among the venue ("3rd today of all 4 kiosks"), in three
languages; without a venue nothing changes. The board is filled by hand from three kiosks (no
network); screenshots at four sizes in three languages: out/screens/venue/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.app import App
from game.arcade.highscores import Entry
from game.dev.script import Player
from game.dev.shown import dialog_buttons
from game.i18n import LOCALES, Translator
from game.look.png import save_png
from game.scenes.scores import ScoresScene
from tests.arcade.test_win_panel import press, seen, won_app
from tests.helpers.tablehelp import make_app
from tests.helpers.venuehelp import three_kiosks

pytestmark = pytest.mark.app

OUT = Path(__file__).resolve().parents[2] / "out" / "screens" / "venue"
SIZES = ((800, 480), (1024, 600), (720, 1280), (1920, 1080))
RANK_3_OF_4 = {
    "en": "3rd today of all 4 kiosks",
    "fi": "3. sija tänään kaikkien 4 kioskin kesken",
    "ru": "3-е место сегодня среди всех 4 киосков",
}


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


def scores(app: App) -> ScoresScene:
    app.scenes.open("scores")
    scene = app.scenes.top
    assert isinstance(scene, ScoresScene)
    return scene


def tabs(app: App) -> dict[str, bool]:
    """The tabs on screen: name -> chosen."""
    shown = dialog_buttons(app.scenes.top)
    return {str(b["name"]): bool(b["selected"]) for b in shown if b["name"] in TAB_NAMES}


TAB_NAMES = ("this_kiosk", "whole_venue")


def rows(scene: ScoresScene) -> list[str]:
    """The board's rows as read: "1. BOB upstairs 2:30 110 625" (title and subtitle left off)."""
    return scene.shown_texts()[2:]


@pytest.mark.parametrize("locale", LOCALES)
def test_this_kiosk_and_whole_venue_are_switched_by_a_tap(locale: str) -> None:
    app = make_app(size=(800, 480), px_per_mm=5.2)
    app.set_locale(locale)
    tr, player = app.tr, Player(app)
    three_kiosks(app)
    scene = scores(app)
    labels = {str(b["name"]): b["label"] for b in dialog_buttons(scene)}
    assert labels["this_kiosk"] == tr("scores.this_kiosk")
    assert labels["whole_venue"] == tr("scores.whole_venue")
    assert tabs(app) == {"this_kiosk": True, "whole_venue": False}
    assert rows(scene) == ["1. ANA 3:20 120 625", "2. ANA 3:51 121 625", "3. ANA 4:22 122 625"]
    assert not scene.shown_texts()[1].startswith("City Library")
    player.press("whole_venue")  # a tap on the tab, through the input layer
    assert tabs(app) == {"this_kiosk": False, "whole_venue": True}
    title, subtitle = scene.shown_texts()[:2]
    assert title == tr("arcade.today_title") and subtitle.startswith("City Library · ")
    assert rows(scene)[:5] == [
        "1. BOB upstairs 2:30 110 625",
        "2. --- children-rm 2:37 110 625",
        "3. BOB upstairs 3:10 111 625",
        "4. --- children-rm 3:17 111 625",
        "5. ANA cafe 3:20 120 625",
    ]
    assert len(rows(scene)) == 10 and sorted({row.split()[2] for row in rows(scene)}) == [
        "cafe",
        "children-rm",
        "upstairs",
    ]
    player.press("next")  # the all-time page: the venue's still, the kiosks named
    assert scene.shown_texts()[0] == tr("arcade.all_title") and tabs(app)["whole_venue"]
    assert rows(scene)[0] == "1. BOB upstairs 2:30 110 625"
    player.press("this_kiosk")  # the same page, this kiosk's
    assert scene.shown_texts()[0] == tr("arcade.all_title") and tabs(app)["this_kiosk"]
    assert rows(scene)[0] == "1. ANA 3:20 120 625"
    player.press("this_kiosk")  # the chosen tab again: nothing changes
    assert tabs(app)["this_kiosk"] and rows(scene)[0] == "1. ANA 3:20 120 625"
    app.close()


def test_without_a_venue_the_scores_are_as_before() -> None:
    app = make_app(size=(800, 480), px_per_mm=5.2)
    arcade = app.arcade
    arcade.scores.add(Entry(arcade.code_of_day("RU1-C"), 625, 200.0, 120, "ANA",
                            day=arcade.today().isoformat()))  # fmt: skip
    scene = scores(app)
    assert [b["name"] for b in dialog_buttons(scene)] == ["previous", "close", "next"]
    assert rows(scene) == ["1. ANA 3:20 120 625"]
    scene.whole_venue()  # no venue: no such tab, and nothing to switch to
    assert rows(scene) == ["1. ANA 3:20 120 625"] and not scene.venue
    app.close()


def test_a_win_without_a_venue_has_no_venue_line() -> None:
    app = won_app()
    assert not any("kiosk" in text.lower() for text in seen(app)[1])
    app.close()


@pytest.mark.parametrize("locale", LOCALES)
def test_the_win_panel_says_the_rank_among_the_venue(locale: str) -> None:
    app = won_app(locale=locale, before=lambda app: app.arcade.join_venue("City Library", "cafe"))
    tr = app.tr
    assert tr("arcade.venue_today_alone", nth=tr.ordinal(1)) in seen(app)[1]  # alone so far
    others_arrive(app)
    texts = seen(app)[1]
    assert RANK_3_OF_4[locale] in texts
    assert tr("arcade.rank_today", place=1) in texts  # this kiosk's rank stays
    app.close()


def others_arrive(app: App) -> None:
    """The other kiosks' tables of the day arrive while the win panel shows: two wins above
    this kiosk's last one, one below."""
    won, board = app.arcade.last, app.arcade.venue
    assert won is not None and won.entry.day is not None and board is not None
    entry, key, day = won.entry, won.entry.rules_key, won.entry.day
    board.put("hall", key, day, [Entry(entry.code, entry.score + 10, 100.0, 80, "BOB")])
    board.put("attic", key, day, [Entry(entry.code, entry.score + 5, 90.0, 70)])
    board.put("lobby", key, day, [Entry(entry.code, entry.score - 5, 9.0, 70)])
    app.step()


def test_ordinals_and_kiosk_counts_read_right_in_each_language() -> None:
    en, fi, ru = Translator("en"), Translator("fi"), Translator("ru")
    nths = [en.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)]
    assert nths == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "23rd",
        "101st",
        "111th",
        "112th",
    ]
    assert (fi.ordinal(3), ru.ordinal(3)) == ("3.", "3-е")
    assert en("arcade.venue_all", nth=en.ordinal(2), count=5) == "2nd all-time of all 5 kiosks"
    line = "{} место сегодня среди всех {} {}"
    for count, word in ((2, "киосков"), (5, "киосков"), (11, "киосков"), (21, "киоска")):
        text = ru("arcade.venue_today", nth=ru.ordinal(1), count=count)
        assert text == line.format("1-е", count, word)
    assert fi("arcade.venue_today", nth=fi.ordinal(2), count=21) == (
        "2. sija tänään kaikkien 21 kioskin kesken"
    )


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_venue_screenshots(size: tuple[int, int]) -> None:
    """The venue's today and all-time tables and the win panel's venue line in every
    language: the tabs as big as the other buttons, apart from them and the board, and the
    board in the same place whichever tab is chosen."""
    OUT.mkdir(parents=True, exist_ok=True)
    w, h = size
    for locale in LOCALES:
        app = make_app(size=size)
        app.set_locale(locale)
        three_kiosks(app)
        scene = scores(app)
        here = scene.board_rect.copy()
        press(app, "whole_venue")
        assert scene.board_rect == here  # the board stays put
        buttons = [c for c in scene.controls if c.action]
        assert len(buttons) == 5
        assert all(app.screen.get_rect().contains(b.rect) for b in buttons)
        assert not any(b.rect.colliderect(scene.board_rect) for b in buttons)
        assert not any(a is not b and a.rect.colliderect(b.rect) for a in buttons for b in buttons)
        assert len({b.rect.height for b in buttons}) == 1  # a finger's height, as the others
        for page in ("today", "all"):
            app.full_redraw = True
            app.draw()
            save_png(app.screen, str(OUT / f"venue-{page}-{w}x{h}-{locale}.png"))
            press(app, "next")
        app.close()
        app = won_app(size, locale, before=lambda app: app.arcade.join_venue("Library", "cafe"))
        others_arrive(app)
        assert RANK_3_OF_4[locale] in seen(app)[1]
        app.full_redraw = True
        app.draw()
        save_png(app.screen, str(OUT / f"venue-win-{w}x{h}-{locale}.png"))
        app.close()


def test_the_venues_page_shows_a_table_that_arrives_while_it_is_open() -> None:
    app = make_app(size=(720, 1280))
    board = three_kiosks(app)
    scene = scores(app)
    press(app, "whole_venue")
    assert len(rows(scene)) == 10 and "lobby" not in " ".join(rows(scene))
    code, day = app.arcade.code_of_day("RU1-C"), app.arcade.today().isoformat()
    board.put("lobby", "RU1-C", day, [Entry(code, 625, 60.0, 90, "ZED")])
    app.step()
    assert rows(scene)[0] == "1. ZED lobby 1:00 90 625" and len(rows(scene)) == 10
    app.close()
