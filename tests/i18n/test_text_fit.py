"""No text overflows its box at 800x480 or 720x1280 in any language.

Every dialog, the venue's high scores (issue 42), the table's buttons, title, info bar and every
refusal popup are drawn for real;
``ui.fit_text`` and ``ui.draw_wrapped`` (which every visible text goes through) are watched. A
text counts as fitting when it fits its box at a size a player can still read (FLOOR px, or the
size asked for when that is smaller): shrinking below that is an overflow in all but name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pygame
import pytest

from engine import CodeError, IllegalMove
from engine.reasons import CODE_REASONS, REASONS
from game.app import App
from game.arcade.highscores import Rank
from game.arcade.play import Won
from game.clock import PlayTime
from game.i18n import LOCALES
from game.look import ui
from game.look.fonts import font
from game.scenes.scores import ScoresScene
from game.table import chrome
from tests.helpers.tablehelp import make_app
from tests.helpers.venuehelp import LONG_VENUE, LONGEST, three_kiosks

pytestmark = pytest.mark.app

SIZES = [(800, 480), (720, 1280)]
FLOOR = 11  # px: the smallest DejaVu Sans text still readable on a 7" 800x480 panel

SAMPLES: dict[str, object] = {
    **dict.fromkeys(("card", "top", "target", "fits", "needed", "occupant"), "QD"),
    "dest": "t10",
    "cell": "c4",
    "rank": "Q",
    "reveals": True,
    "size": 24,
    "limit": 20,
    "length": 24,
    "text": "QD-t11",
    "kind": "NoneType",
    "code": "RU1C-AAAAABBB",
    "game": "XY1",
    "version": "9",
    "rules": "C9",
    "allowed": "C4, C2, C1",
    "number": "AAAAABBB",
    "letter": "1",
}


def every_locale_and_size(test: Callable[..., None]) -> Callable[..., None]:
    by_locale = pytest.mark.parametrize("locale", LOCALES)(test)
    both: Callable[..., None] = pytest.mark.parametrize(
        "size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}"
    )(by_locale)
    return both


@dataclass
class Watch:
    """What ui drew that did not fit at a readable size."""

    problems: list[str] = field(default_factory=list)
    seen: int = 0

    def fit_text(self, original: Callable[..., pygame.Surface]) -> Callable[..., pygame.Surface]:
        def watched(text: str, max_w: int, size: float, *args: Any, **kw: Any) -> pygame.Surface:
            bold = bool(kw.get("bold", args[1] if len(args) > 1 else False))
            surface = original(text, max_w, size, *args, **kw)
            self.seen += 1
            floor = FLOOR
            if surface.get_width() > max_w or font(floor, bold).size(text)[0] > max_w:
                self.problems.append(f"{text!r} needs more than {max_w} px at {floor} px")
            return surface

        return watched

    def draw_wrapped(self, original: Callable[..., int]) -> Callable[..., int]:
        def watched(
            surface: pygame.Surface, text: str, rect: pygame.Rect, size: int, *args: Any, **kw: Any
        ) -> int:
            bold = bool(kw.get("bold", False))
            self.seen += 1
            floor = FLOOR
            lines = ui.wrap(text, rect.width, floor, bold)
            height = font(floor, bold).get_linesize() * len(lines)
            widest = max(font(floor, bold).size(line)[0] for line in lines)
            if height > rect.height or widest > rect.width:
                self.problems.append(
                    f"{text[:60]!r}... needs {widest}x{height} px at {floor} px in {rect.size}"
                )
            return original(surface, text, rect, size, *args, **kw)

        return watched


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch) -> Iterator[Watch]:
    w = Watch()
    monkeypatch.setattr(ui, "fit_text", w.fit_text(ui.fit_text))
    monkeypatch.setattr(ui, "draw_wrapped", w.draw_wrapped(ui.draw_wrapped))
    yield w
    pygame.display.quit()


def open_app(locale: str, size: tuple[int, int], code: str = "RU1-C-AAAAABB") -> App:
    app = make_app(code, size)
    app.set_locale(locale)
    assert app.games.has_levels("RU1-C")  # the shipped catalog: the Level row is drawn too
    return app


def draw(app: App) -> None:
    app.full_redraw = True
    app.draw()


def dialogs_of(app: App) -> Iterator[str]:
    """Push each dialog in turn (both games where the text differs) and draw it."""
    hour = PlayTime(3599.0)
    for code in ("RU1-C-AAAAABB", "SH1-C1-AAAAAJ2"):
        app.table.start_game(app.games.new(code))
        draw(app)
        yield f"table {code}"
        for name, make in (
            ("newgame", lambda: app.scenes.build("newgame")),
            ("settings", lambda: app.scenes.build("settings")),
            ("rules", lambda: app.scenes.build("rules")),
            ("win", lambda: app.scenes.build("win", game=app.table.model.game, play_time=hour)),
            ("keypad", lambda: app.scenes.build("keypad", text="SH1-C4-AAAAAJ2")),
        ):
            scene = make()
            app.scenes.push(scene)
            draw(app)
            yield f"{name} {code}"
            app.scenes.pop(scene)


@every_locale_and_size
def test_every_screen_fits(watch: Watch, locale: str, size: tuple[int, int]) -> None:
    app = open_app(locale, size)
    shown = list(dialogs_of(app))
    assert len(shown) == 12
    assert watch.seen > 50
    assert not watch.problems, f"{locale} {size}: " + "\n".join(watch.problems)


@every_locale_and_size
def test_every_code_refusal_fits_the_keypad(
    watch: Watch, locale: str, size: tuple[int, int]
) -> None:
    app = open_app(locale, size)
    keypad = app.scenes.build("keypad", text="RU1-C-AAAAA1B")
    app.scenes.push(keypad)
    for reason, params in CODE_REASONS.items():
        keypad.error = app.tr.refusal(CodeError("x", reason, **{p: SAMPLES[p] for p in params}))
        keypad.rebuild()
        draw(app)
    assert watch.seen > len(CODE_REASONS)
    assert not watch.problems, f"{locale} {size}: " + "\n".join(watch.problems)


@every_locale_and_size
def test_every_refusal_popup_stays_on_screen(
    watch: Watch, locale: str, size: tuple[int, int]
) -> None:
    app = open_app(locale, size)
    table = app.table
    screen = app.screen.get_rect()
    texts = [
        app.tr.refusal(IllegalMove(reason, **{p: SAMPLES[p] for p in params}))
        for reason, params in REASONS.items()
    ]
    texts += [
        app.tr(
            "table.hint_move", move=table.model.hints.describe(table.model.game.legal_moves()[0])
        )
    ]
    for text in texts:
        table.model.show_toast(text)
        assert table.model.toast is not None
        assert screen.contains(table.model.toast.rect), f"{text!r} leaves the screen"
    assert not watch.problems, f"{locale} {size}: " + "\n".join(watch.problems)


@every_locale_and_size
def test_the_info_bar_fits_with_big_numbers(
    monkeypatch: pytest.MonkeyPatch, locale: str, size: tuple[int, int]
) -> None:
    """The bar shrinks its font until time, moves, score, the winnable indicator and the code
    fit (TableView.draw_bar); with the longest values it must stay at a readable size."""
    app = open_app(locale, size, "SH1-C4-AAAAAJ2")
    table, tr = app.table, app.tr
    table.model.play_time.reset(10 * 3600 - 1.0)
    table.model.game.moves = 1888
    table.model.hints.status = max(
        ("won", "lost", "working", "unknown"),
        key=lambda status: font(FLOOR).size(tr(f"table.winnable_{status}"))[0],
    )
    sizes: list[int] = []
    original = chrome.font

    def watched(size: int, bold: bool = False) -> pygame.font.Font:
        sizes.append(int(size))
        return original(size, bold)

    monkeypatch.setattr(chrome, "font", watched)
    assert table.view is not None
    texts = table.bar_text()
    assert "9:59:59" in texts[0] and "1888" in texts[1] and texts[4]
    table.view.chrome.draw_bar(app.screen, texts)
    assert sizes and min(sizes) >= FLOOR, f"{texts} drawn at {min(sizes)} px"
    pygame.display.quit()


@every_locale_and_size
def test_every_question_fits(watch: Watch, locale: str, size: tuple[int, int]) -> None:
    """The yes/no questions (going back to a winnable position, leaving a game, clearing the
    high scores) with long values: the question and both answers fit at a readable size."""
    app = open_app(locale, size)
    tr, table = app.tr, app.table
    move = table.model.hints.describe(table.model.game.legal_moves()[0])
    questions = [
        (tr("table.lost_question", count=122, move=move), "table.lost_undo", "table.leave_no"),
        (tr("table.leave_question", moves=tr("table.moves", count=1888)), "table.leave_yes",
         "table.leave_no"),
        (tr("operator.clear_question"), "operator.clear_yes", "operator.clear_no"),
    ]  # fmt: skip
    for question, yes, no in questions:
        scene = app.scenes.build(
            "confirm", question=question, yes=tr(yes), no=tr(no), on_yes=lambda: None
        )
        app.scenes.push(scene)
        draw(app)
        app.scenes.pop(scene)
    assert watch.seen >= 3 * len(questions)
    assert not watch.problems, f"{locale} {size}: " + "\n".join(watch.problems)


@every_locale_and_size
def test_the_venues_tables_and_win_line_fit(
    watch: Watch, locale: str, size: tuple[int, int]
) -> None:
    """Issue 42: the high scores' This kiosk / Whole venue tabs, the venue's tables with the
    longest kiosk names and venue name a config allows, on every page, and the win panel with
    every line it can have (today's, all time, the venue's, the initials, Add your initials)."""
    app = open_app(locale, size)
    board = three_kiosks(app, others=LONGEST, venue=LONG_VENUE)
    app.scenes.open("scores")
    scores = app.scenes.top
    assert isinstance(scores, ScoresScene)
    scores.whole_venue()
    for _ in scores.pages:
        draw(app)
        scores.next()
    scores.this_kiosk()
    draw(app)
    app.scenes.pop_to_bottom()
    arcade, game = app.arcade, app.table.model.game
    for day in (arcade.today(), None):  # the venue's line of today, then of all time
        entry = arcade.scores.table("RU1-C", day)[-1]
        arcade.last = Won(game, entry, Rank(3 if day else None, 10), asks=True)
        win = app.scenes.build("win", game=game, play_time=PlayTime(3599.0))
        app.scenes.push(win)
        draw(app)
        texts = [c.label for c in win.controls]  # type: ignore[attr-defined]
        key, table = ("today", day.isoformat()) if day else ("all", "all")
        place = board.place(entry, table)
        assert place is not None and place[1] == 3
        assert app.tr(f"arcade.venue_{key}", nth=app.tr.ordinal(place[0]), count=3) in texts
        app.scenes.pop(win)
    assert watch.seen > 50
    assert not watch.problems, f"{locale} {size}: " + "\n".join(watch.problems)
