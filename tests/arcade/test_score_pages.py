"""The high-score pages (New game -> High scores, issue 31 item 10): the panel keeps its place and
its size from "Today's best" to "All-time best" and on through the rule sets, full or empty;
and no word stands alone on a line ("Be the / first!"). The pages are written to out/screens/."""

from __future__ import annotations

import itertools
from pathlib import Path

import pygame
import pytest

from game.arcade.highscores import Entry
from game.i18n import LOCALES, Translator
from game.look import ui
from game.look.fonts import font
from game.look.png import save_png
from game.look.typeset import mend_last_line
from game.scenes.scores import ScoresScene
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

OUT = Path(__file__).resolve().parents[2] / "out" / "screens"
SIZES = [((800, 480), 5.2), ((1024, 600), 6.6), ((720, 1280), 8.2), ((1920, 1080), None)]


@pytest.mark.parametrize(("size", "ppm"), SIZES, ids=lambda v: str(v))
def test_the_panel_keeps_its_place_and_size_on_every_page(size, ppm) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    app = make_app(size=size, px_per_mm=ppm)
    try:
        arcade = app.arcade
        today = arcade.today().isoformat()
        # Today's table of the game on the table holds one win; the all-time tables hold that
        # win, or three more of another rule set; the other pages are empty.
        arcade.scores.add(Entry(code=arcade.code_of_day("RU1-C"), score=520, seconds=312.0,
                                moves=140, initials="ANA", day=today))  # fmt: skip
        for k in range(3):
            arcade.scores.add(Entry(code="SH1-C4-AAAAAJ2", score=400 + k, seconds=300.0 + k,
                                    moves=90 + k, initials="BOB"))  # fmt: skip
        for locale in LOCALES:
            app.set_locale(locale)
            app.scenes.open("scores")
            scene = app.scenes.top
            assert isinstance(scene, ScoresScene)
            rects, filled = [], []
            for page in range(len(scene.pages)):
                rects.append(scene.board_rect.copy())
                filled.append(len(scene.shown_texts()))
                if page < 2 and (locale == "en" or size == (720, 1280)):
                    app.full_redraw = True
                    app.draw()
                    stem = f"scores-{size[0]}x{size[1]}-{locale}-{page}"
                    save_png(app.screen, OUT / f"{stem}.png")
                scene.next()
            assert len(set(filled)) > 1  # full and empty pages...
            assert all(rect == rects[0] for rect in rects), rects  # ...in one rectangle
            assert app.screen.get_rect().contains(rects[0])
            app.scenes.pop_to_bottom()
    finally:
        app.close()


def test_the_empty_pages_leave_no_word_alone_on_a_line() -> None:
    """ "Nobody has won today's deal yet. Be the first!" at every width from its longest pair
    of words to its own length, in each language: its last line holds two words or more."""
    pygame.font.init()
    size = 24
    for locale in LOCALES:
        tr = Translator(locale)
        for key in ("arcade.empty_today", "arcade.empty_all"):
            text = tr(key)
            words = text.split()
            pair = max(font(size).size(f"{a} {b}")[0] for a, b in itertools.pairwise(words))
            for width in range(pair, font(size).size(text)[0], 5):
                lines = ui.wrap(text, width, size)
                assert " " in lines[-1].replace("\u00a0", " "), (locale, width, lines)
                assert all(font(size).size(line)[0] <= width for line in lines)


def test_the_last_word_comes_down_only_where_it_helps() -> None:
    """Set again narrower while that keeps the number of lines; never a line more."""

    def setter(text: str):
        def rewrap(width: int) -> list[str]:
            lines, line = [], ""
            for word in text.split(" "):
                if line and len(f"{line} {word}") > width:
                    lines.append(line)
                    line = word
                else:
                    line = f"{line} {word}" if line else word
            return [*lines, line]

        return rewrap

    def mend(text: str, width: int) -> list[str]:
        rewrap = setter(text)
        return mend_last_line(rewrap(width), width, rewrap, len)

    assert setter("Be the first!")(9) == ["Be the", "first!"]
    assert mend("Be the first!", 9) == ["Be the", "first!"]  # else "Be" would stand alone
    assert mend("Be the first!", 20) == ["Be the first!"]
    assert setter("yet. Be the first!")(15) == ["yet. Be the", "first!"]
    assert mend("yet. Be the first!", 15) == ["yet. Be", "the first!"]
    assert setter("deal. Ole ensimmäinen!")(12) == ["deal. Ole", "ensimmäinen!"]
    assert mend("deal. Ole ensimmäinen!", 12) == ["deal. Ole", "ensimmäinen!"]  # no room
    # The line before keeps one word only: set narrower, in as many lines.
    assert setter("aaaaaaaa b cc dd")(10) == ["aaaaaaaa b", "cc dd"]
    assert setter("aaa bbbbbbb c dd")(11) == ["aaa bbbbbbb", "c dd"]
    assert setter("aaaa bb cccc dd ee ffff")(13) == ["aaaa bb cccc", "dd ee ffff"]
    assert setter("aa bbbbbbbbb ccc dd")(13) == ["aa bbbbbbbbb", "ccc dd"]
    assert setter("aaaa bbbbbbbb cccc")(13) == ["aaaa bbbbbbbb", "cccc"]
    assert mend("aaaa bbbbbbbb cccc", 13) == ["aaaa bbbbbbbb", "cccc"]  # no better way
    assert mend("aaaa bb cccc dd ee ffff", 13) == ["aaaa bb cccc", "dd ee ffff"]
    assert mend("Sound", 3) == ["Sound"]
