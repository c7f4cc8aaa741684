"""The rules screen: text at a readable size in every language and on every screen, all of it
reachable by a finger (drag, arrow buttons) and by mouse wheel and keys."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest

from game.i18n import LOCALES
from game.look import ui
from game.look.fonts import font
from game.scenes.rules import RulesScene
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app

SIZES = [(800, 480), (1024, 600), (1280, 800), (1920, 1080), (720, 1280)]


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def open_rules(code: str, size: tuple[int, int], locale: str = "ru") -> RulesScene:
    app = make_app(code, size)
    app.set_locale(locale)
    scene = RulesScene(app)
    app.scenes.push(scene)
    app.step()
    return scene


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("code", ["RU1-C-AAAAABB", "SH1-C4-AAAAAJ2"])
def test_rules_text_is_readable_and_never_shrinks(size, locale, code):
    """At least 3.4 mm (16 px on a desktop): no squeezing the text to fit the panel."""
    scene = open_rules(code, size, locale)
    size_px = scene.text_size()
    assert size_px >= max(16, 3.4 * scene.app.px_per_mm)
    assert scene.line_h == font(size_px).get_linesize()
    # What is not shown can be scrolled to; what is shown fits the text area.
    assert scene.body is not None
    assert scene.max_scroll == max(0, scene.body.get_height() - scene.view.height)
    assert scene.panel.contains(scene.view)


def test_a_finger_drags_the_text_to_read_on():
    scene = open_rules("RU1-C-AAAAABB", (800, 480))
    app = scene.app
    assert scene.max_scroll > 0 and scene.scroll == 0
    finger = Finger(app)
    x, y = scene.view.center
    finger.drag((x, y + 80), (x, y - 80))
    assert scene.scroll == 160
    assert isinstance(app.scenes.top, RulesScene)  # a drag is no tap: nothing closed
    finger.drag((x, y - 100), (x, y + 150))  # back past the top: stops there
    assert scene.scroll == 0


def test_the_arrow_buttons_page_through_to_the_end_and_back():
    scene = open_rules("RU1-C-AAAAABB", (800, 480), "ru")
    app = scene.app
    finger = Finger(app)
    down, up = finger.control("▼"), finger.control("▲")
    pages = 0
    while scene.scroll < scene.max_scroll:
        finger.tap(down)
        finger.settle(0.4)
        pages += 1
        assert pages < 20
    assert pages >= 1
    assert not next(c for c in scene.controls if c.name == "down").enabled
    for _ in range(pages):
        finger.tap(up)
        finger.settle(0.4)
    assert scene.scroll == 0


def test_mouse_wheel_and_keys_scroll():
    scene = open_rules("RU1-C-AAAAABB", (800, 480))
    app = scene.app
    app.step([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1)])
    assert scene.scroll == 3 * scene.line_h
    app.step([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2)])
    assert scene.scroll == 0
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, mod=0, unicode="")])
    assert scene.scroll == scene.max_scroll
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_HOME, mod=0, unicode="")])
    assert scene.scroll == 0


def test_scrolling_shows_the_last_line():
    """Scrolled to the end, the bottom of the text area shows the end of the body."""
    scene = open_rules("RU1-C-AAAAABB", (800, 480))
    scene.scroll_to(10**6)
    app = scene.app
    app.step()
    assert scene.body is not None
    bottom = scene.body.get_height() - 1
    shown = scene.view.top + bottom - scene.scroll
    assert shown == scene.view.bottom - 1


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("ru", ["32", "24", "одна наша подсказка", "«Любой»"]),  # seed 003's own words
        ("en", ["32", "24", "one hint of ours", "“Any”"]),
        ("fi", ["32", "24", "yksi vihjeemme", "Satunnainen: mikä tahansa jako"]),
    ],
)
def test_the_russian_rules_say_how_the_levels_were_made(locale, words):
    """Seed 003 answers "how do the levels differ?": the rules screen says it too, in every
    language, next to the rules a player reads before choosing a level."""
    app = make_app("RU1-C-AAAAABB", (800, 480))
    app.set_locale(locale)
    levels = [p for p in app.tr.paragraphs("rules.russian.body") if " 32 " in p]
    assert len(levels) == 1
    for word in words:
        assert word in levels[0]


# ---------------------------------------------------------------- tips and questions

SOLVER_DOC = Path(__file__).resolve().parents[2] / "docs" / "solver.md"

# One phrase per tip or question, in each language: the list, in that order.
TIPS = {
    "russian": {
        "en": ["next higher card of its suit", "Right-hand columns first", "aces and twos",
               "face-up king is waiting", "send them home at once", "undo a few moves",
               "random deal rarely comes out", "Unlike Yukon", "game of reckoning"],
        "fi": ["yhtä arvoa suuremman kortin", "Oikean laidan sarakkeet ensin", "Ässät ja kakkoset",
               "kuningas odottaa", "heti peruspinoon", "peru muutama siirto",
               "menee harvoin läpi", "Ero Yukoniin", "harkinnalla eikä onnella"],
        "ru": ["старшую на единицу", "Правые столбцы — первыми", "тузы и двойки",
               "король уже ждёт", "в дом сразу", "отмените несколько ходов",
               "сходится редко", "Отличие от юкона", "пасьянс на расчёт"],
    },
    "seahaven": {
        "en": ["Save your free cells", "Kings to empty columns", "doubles the limit"],
        "fi": ["Säästä apuruutuja", "Kuninkaat tyhjiin sarakkeisiin", "kaksinkertaistaa"],
        "ru": ["Берегите ячейки", "Пустой столбец — королю", "пустой столбец удваивает"],
    },
}  # fmt: skip


def documented_share(rules: str) -> str:
    """The share of winnable deals docs/solver.md's table gives for ``rules`` ("6.5")."""
    text = SOLVER_DOC.read_text("utf-8")
    found = re.search(rf"\({rules}\) \| [\d,]+ \| [\d,]+ \| ([\d.]+) %", text)
    assert found, f"docs/solver.md has no share of winnable {rules} deals"
    return found.group(1)


def shown_paragraphs(monkeypatch: pytest.MonkeyPatch, code: str, size, locale: str) -> list[str]:
    """What the rules screen really draws: the paragraphs handed to ui.paragraphs_image."""
    drawn: list[list[str]] = []
    original = ui.paragraphs_image

    def watched(paragraphs: list[str], *args, **kwargs):
        drawn.append(list(paragraphs))
        return original(paragraphs, *args, **kwargs)

    monkeypatch.setattr(ui, "paragraphs_image", watched)
    open_rules(code, size, locale)
    assert drawn
    return drawn[-1]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(
    ("game", "code"), [("russian", "RU1-C-AAAAABB"), ("seahaven", "SH1-C1-AAAAAJ2")]
)
def test_the_rules_screen_carries_the_tips(monkeypatch, game, code, locale, size):
    shown = shown_paragraphs(monkeypatch, code, size, locale)
    text = "\n".join(shown)
    missing = [tip for tip in TIPS[game][locale] if tip not in text]
    assert not missing, f"{locale} {game}: no tip saying {missing}"
    # The tips come after the rules: the first paragraph is still the goal.
    assert "52" in shown[0]
    assert all(tip not in "\n".join(shown[:6]) for tip in TIPS[game][locale][1:])


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(
    ("game", "rules"),
    [("russian", "RU1-C"), ("russian", "RU1-R"), ("seahaven", "SH1-C4"),
     ("seahaven", "SH1-C2"), ("seahaven", "SH1-C1")],
)  # fmt: skip
def test_the_chances_are_the_measured_shares(game, rules, locale):
    """ "How often can a random deal be won?" answers with the measured share in docs/solver.md,
    written the way the language writes decimals (6.5 %, 6,5 %)."""
    share = documented_share(rules)
    if locale != "en":
        share = share.replace(".", ",")
    tr = make_app("RU1-C-AAAAABB", (800, 480)).tr
    tr.set_locale(locale)
    assert f"{share}\u00a0%" in " ".join(tr.paragraphs(f"rules.{game}.body"))


def test_a_unit_never_starts_a_line_of_the_rules():
    """«6,5 %»: in a column too narrow for the whole share the number and its unit go down
    together, as one word, instead of leaving «%» alone on a line, whether the catalog wrote a
    no-break space or a plain one (game.look.typeset binds a number to its unit)."""
    pygame.init()
    size = 20
    narrow = font(size).size("6,5")[0] + font(size).size("•  ")[0] + 2
    one_line, _ = ui.paragraphs_image(["6,5"], narrow, size)
    words, _ = ui.paragraphs_image(["ja 6,5"], narrow, size)
    plain, _ = ui.paragraphs_image(["6,5 %"], narrow, size)
    bound, _ = ui.paragraphs_image(["6,5\u00a0%"], narrow, size)
    assert words.get_height() > one_line.get_height()  # a plain space breaks here
    assert plain.get_height() == bound.get_height() == one_line.get_height()
