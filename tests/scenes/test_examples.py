"""The Examples page (issue 14 item 11): from the rules screen, short situations built with the
engine and moved by the real table code, one line of text each, in all three languages."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from engine.cards import parse_card
from game.examples import EXAMPLES
from game.look.png import save_png
from game.saves.prefs import PlayerSettings
from game.scenes.examples import ExamplesScene
from game.scenes.rules import RulesScene
from tests.helpers.tablehelp import Finger, make_app, names

pytestmark = pytest.mark.app

LOCALES = ("en", "fi", "ru")


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def open_examples(locale: str, size: tuple[int, int] = (800, 480)):
    app = make_app("RU1-C-AAAAAAD", size, settings=PlayerSettings(locale=locale))
    finger = Finger(app)
    finger.tap(finger.button("settings"))
    finger.tap(finger.control(app.tr("settings.rules")))
    assert isinstance(app.scenes.top, RulesScene)
    finger.tap(finger.control(app.tr("examples.title")))
    page = app.scenes.top
    assert isinstance(page, ExamplesScene)
    return app, finger, page


def text_of(page: ExamplesScene) -> str:
    return next(c.label for c in page.controls if c.kind == "text")


def play_through(finger: Finger, page: ExamplesScene) -> None:
    """Until the example's last step has been made and the table has settled."""
    steps = len(EXAMPLES[page.index].steps)
    for _ in range(60 * 12):
        finger.app.step()
        if page.step >= steps and not page.demo.busy():  # type: ignore[union-attr]
            return
    raise AssertionError("the example did not finish")


@pytest.mark.parametrize("locale", LOCALES)
def test_every_example_has_its_line_and_plays_on_the_real_table(locale):
    app, finger, page = open_examples(locale)
    visitor = app.table.model.game.to_dict()
    for k, example in enumerate(EXAMPLES):
        assert page.index == k
        line = app.tr(f"examples.{example.key}")
        assert line != f"examples.{example.key}" and line in text_of(page)
        play_through(finger, page)
        check = CHECKS[example.key]
        check(app, page)
        finger.tap(finger.control(app.tr("examples.next") + " ▶"))
    assert page.index == 0  # round again
    assert app.table.model.game.to_dict() == visitor  # the visitor's game is untouched
    finger.tap(finger.control(app.tr("dialog.close")))
    assert isinstance(app.scenes.top, RulesScene)


def check_group(app, page):
    game = page.demo.model.game
    four = game.locate(parse_card("4C"))[0]
    assert names(game.cols[four][-6:]) == ["4C", "3C", "7D", "AS", "4S", "TH"]


def check_king_only(app, page):
    game = page.demo.model.game
    assert names(game.cols[1]) == ["KH"]  # the king went; the queen did not
    assert game.locate(parse_card("QD"))[0] == 2
    assert game.moves == 1


def check_takeback(app, page):
    game = page.demo.model.game
    assert game.found[1] == 7 and game.moves == 2  # back to a column, then home again


def check_capacity(app, page):
    game = page.demo.model.game
    assert names(game.cols[2]) == ["KH", "QH", "JH", "TH"]  # 4 go into the empty column
    assert len(game.cols[0]) == 6  # 6 do not


def check_one_cell(app, page):
    game = page.demo.model.game
    assert len(game.cols[1]) == 6 and len(game.cells) == 1
    assert page.demo.model.marks == (game.cols[1][-1],)


CHECKS = {
    "group": check_group,
    "king_only": check_king_only,
    "takeback": check_takeback,
    "capacity": check_capacity,
    "one_cell": check_one_cell,
}


def test_the_refusals_of_the_examples_say_their_rule():
    app, _finger, page = open_examples("en")
    page.load(1)  # king_only: the queen is refused first
    for _ in range(60 * 3):
        app.step()
        if page.step >= 1 and page.demo.model.toast is not None:
            break
    text = page.demo.model.toast.text
    assert text.startswith(app.tr("reason.king_only_reveals", card="Q♦"))


@pytest.mark.parametrize("size", [(800, 480), (480, 800), (1920, 1080)])
def test_the_page_fits_every_screen(size):
    app, _finger, page = open_examples("fi", size)
    screen = app.screen.get_rect()
    for control in page.controls:
        assert screen.contains(control.rect)
    assert page.host.screen.get_height() < screen.height  # the small table above the band


def test_the_examples_start_no_solver_even_with_the_indicator_on():
    app = make_app("RU1-C-AAAAAAD", settings=PlayerSettings(locale="en", winnable_indicator=True))
    app.scenes.open("examples")
    page = app.scenes.top
    assert isinstance(page, ExamplesScene)
    assert page.demo is not None and page.demo.model.hints.indicator is None
    assert app.table.model.hints.indicator is not None  # the visitor's table keeps its own
    app.table.model.hints.close_indicator()


def test_the_example_tables_buttons_are_pictures_not_buttons():
    """Issue 25, item 10: the Examples page's small table does nothing when its buttons are
    touched, so they are drawn as pictures (icon and label on the felt), never as buttons."""
    from game.look import ui

    app = make_app("RU1-C-AAAAAAD", size=(800, 480))
    app.scenes.open("examples")
    app.step()
    app.full_redraw = True
    app.draw()
    demo = app.scenes.top.demo
    for name, rect in demo.model.layout.buttons.items():
        fill = sum(
            app.screen.get_at((x, y))[:3] in (ui.BUTTON, ui.BUTTON_OFF)
            for x in range(rect.left, rect.right, 2)
            for y in range(rect.top, rect.bottom, 2)
        )
        assert fill == 0, name
    pygame.display.quit()


def pictures(app, page) -> dict[str, bytes]:
    """The pixels of each of the small table's pictured buttons, as drawn now."""
    app.full_redraw = True
    app.draw()
    shown = {}
    for name, rect in page.demo.model.layout.buttons.items():
        shown[name] = pygame.image.tobytes(app.screen.subsurface(rect), "RGB")
    return shown


def test_the_pictured_buttons_stay_alike_and_do_nothing_when_touched():
    """Issue 31 item 9: the small table's buttons are pictures: they do not light up as its
    game gains a move to undo (the visitor took that for a live Undo), and a tap on any of
    them changes nothing of the example or of the visitor's game."""
    app, finger, page = open_examples("en")
    before = pictures(app, page)
    play_through(finger, page)  # 3♣ moved: the small table's game could be undone
    assert page.demo.model.game.moves == 1 and page.demo.model.game.can_undo()
    assert pictures(app, page) == before
    shown = page.demo.model.game.to_dict()
    for name, rect in page.demo.model.layout.buttons.items():
        finger.tap(rect.center)
        app.step()
        assert app.scenes.top is page, name
        assert page.demo.model.game.to_dict() == shown, name
    assert app.table.model.game.moves == 0


@pytest.mark.parametrize("locale", LOCALES)
def test_the_example_table_is_titled_example_with_no_game_code(locale):
    """Issue 31 item 9: a position made for the page is no deal: its title names the rule set
    and "Example", never "Random deal", and the info bar shows no game code."""
    app, _finger, page = open_examples(locale)
    for _ in EXAMPLES:
        title = page.demo.view.chrome.title_text()
        assert title.endswith(app.tr("table.deal_example"))
        assert app.tr("table.deal_random") not in title
        bar = page.demo.bar_text()
        assert page.demo.model.game.code not in bar and not any(
            t.startswith(("RU1", "SH1")) for t in bar
        )
        page.next()


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280), (1920, 1080)])
def test_the_refusal_box_leaves_the_title_readable(size):
    """Issue 31 item 9: the refused queen's box (king_only) lies clear of the small table's
    title at every screen, in every language (screenshots in out/screens/examples/)."""
    out = Path(__file__).resolve().parents[2] / "out" / "screens" / "examples"
    out.mkdir(parents=True, exist_ok=True)
    for locale in LOCALES:
        app, _finger, page = open_examples(locale, size)
        page.load(1)
        for _ in range(60 * 3):
            app.step()
            if page.demo.model.toast is not None:
                break
        toast = page.demo.model.toast
        assert toast is not None and toast.text.startswith(
            app.tr("reason.king_only_reveals", card=app.tr.card("QD"))
        )
        assert not toast.rect.colliderect(page.demo.model.layout.title), (size, locale)
        app.full_redraw = True
        app.draw()
        save_png(app.screen, str(out / f"refusal-{size[0]}x{size[1]}-{locale}.png"))
