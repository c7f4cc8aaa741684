"""Line breaks a typesetter would accept (issue 32): every prose string of the catalogs, with
its numbers in each plural form, set by the game's own wrapping code at the widths the screens
use (the rules page, the toast over the table, a question's dialog, the settings' help lines)
at 800x480 and 720x1280. No line starts with a dash, no line ends with a short Russian
preposition, conjunction or particle (в, и, на, со, не, под, ...: issue 40 item 14), no number is
parted from its unit at a break, no game's name is split (Seahaven / Towers, item 15), and no
word but a "·" is left out where a line breaks (a dash used to be).

The rules checked are written out here again, not taken from game.look.typeset: the test reads the
lines the screens would show."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from types import ModuleType

import pygame
import pytest

from game.i18n import Translator, load_catalog
from game.launch import show_scene
from game.look import ui
from game.look.typeset import SHY
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

SIZES = [(800, 480), (720, 1280)]
LOCALES = ["fi", "ru", "en"]
COUNTS = (1, 2, 5, 21)  # one, few, many (ru); one, other (fi, en)

DASH_WORDS = {"—", "–"}
RUSSIAN_SHORT = set("вксуоиая") | {
    *("во", "ко", "со", "об", "от", "до", "за", "из", "на", "по", "не", "ни", "но"),
    *("под", "над", "при", "про", "без", "для", "обо", "ото", "изо"),
}
# A name's first word (its start, as Russian declines it) and its second, as set.
GAME_NAMES = [("Seahaven", "Towers"), ("Russian", "Solitaire"), ("русск", "пасьянс")]
NUMBER = re.compile(r"[+−]?\d+(?:[.,]\d+)?")
OPENERS = "([«„\"'“"


def starts_with_dash(word: str) -> bool:
    return word in DASH_WORDS or (word[:1] in ("-", "\u2011") and word[1:2].isalpha())


def faults(lines: list[str]) -> list[str]:
    """What a typesetter would refuse at the breaks between ``lines`` (each line as shown:
    words are split at any space, a no-break one too)."""
    found = []
    words = [line.split() for line in lines]
    for k, line in enumerate(words):
        if k and line and starts_with_dash(line[0]):  # a lone "–" (no value) is no break
            found.append(f"line starts with a dash: {lines[k]!r}")
        if not line or k + 1 == len(words) or not words[k + 1]:
            continue
        last, following = line[-1].lstrip(OPENERS), words[k + 1][0]
        if last.lower() in RUSSIAN_SHORT:
            found.append(f"line ends with «{last}»: {lines[k]!r} / {lines[k + 1]!r}")
        for first, second in GAME_NAMES:
            if last.lower().startswith(first.lower()) and following.startswith(second):
                found.append(f"a game's name split: {lines[k]!r} / {lines[k + 1]!r}")
        if NUMBER.fullmatch(last) and (following[0].isalpha() or following[0] in "%("):
            found.append(f"number parted from its unit: {lines[k]!r} / {lines[k + 1]!r}")
    return found


def test_the_check_sees_each_fault():
    """The check itself: each fault the issue reports, as the screens showed it before."""
    assert faults(["Тупик: отмените несколько ходов. Раздача уровня", "— значит, к победе"])
    assert faults(["Правила — в", "«Настройках»."])
    assert faults(["Укладка в масть: На 8♥ (в", "упрощённых правилах)"])
    assert faults(["Sarja ei mahdu: enintään 4", "korttia."])
    assert faults(["Свободно: 2 пустых столбца — взять можно 8", "карт"])
    assert faults(["Tee uudelleen", "\u2011painike palauttaa"])
    assert not faults(["Свободно: 2 пустых столбца —", "взять можно 8\u00a0карт, но"])
    assert faults(["Apuruutuja on 4", "(Helppo), 2 (Keskitaso)"])
    assert not faults(["Ячеек может быть 4 («Лёгкий»),", "2 («Средний») или 1 («Сложный»)."])
    # Issue 40 items 14 and 15, as the native reader found them.
    assert faults(["…переносится вместе со", "всем, что на ней"])
    assert faults(["карту той же масти, младшую на", "единицу."])
    assert faults(["Четыре дома, по одному на", "масть"])
    assert faults(["даже дама, под", "которой лежит закрытая карта"])
    assert faults(["пока не", "сделан новый ход."])
    assert faults(["Удалить запись ABC (Seahaven", "Towers, 4 ячейки)?"])
    assert faults(["Бросить «русский", "пасьянс»?"])
    assert not faults(["…переносится вместе", "со всем, что на ней"])


class Sample(dict[str, object]):
    """Values for every placeholder of the catalogs, in ``tr``'s language, with ``count`` (and
    every counted phrase) at ``n``."""

    def __init__(self, tr: Translator, n: int) -> None:
        cards = tr("unit.cards", count=n)
        day = tr.date(dt.date(2026, 11, 30))
        super().__init__(
            count=n, place=n, percent=56, seconds=30, score=625, version=2, column=3,
            moves=tr("table.moves", count=n), size=cards, lift=cards, limit=cards,
            size_cards=cards, limit_cards=cards, length_chars=tr("unit.chars", count=n),
            limit_chars=tr("unit.chars", count=n), cells=tr("table.free_cells", count=n),
            columns=tr("table.empty_columns", count=n), rank=tr("rank_word.Q"),
            move=tr("table.to_column", card=tr.card("QS"), column=3),
            dest=tr("dest.column", number=3), cell=tr("dest.cell", number=2),
            text="7X9", code="RU1-C-AAAAABB", number="AAAAAB",
            game=tr("stats.SH1-C4" if n % 2 else "stats.RU1-C"),  # both names in a question
            letter="1", kind="42", rules="C9", allowed="C, R", date=day, day=day,
            time="12:34", initials="ABC", undo=tr("table.rules_undo", count=n),
        )  # fmt: skip
        for name in ("card", "needed", "top", "target", "fits", "occupant"):
            self[name] = tr.card("7H")


def prose(tr: Translator) -> list[str]:
    """Every string and plural entry of ``tr``'s catalog (the rules' paragraphs have their
    own page), formatted with each count of COUNTS."""
    texts: dict[str, None] = {}
    for key, entry in load_catalog(tr.locale).items():
        if isinstance(entry, list):
            continue
        for n in COUNTS:
            texts[tr(key, **Sample(tr, n))] = None
    return list(texts)


class Recorder:
    """The lines of every call of ``name`` in ``module`` (the real one runs)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: ModuleType, name: str) -> None:
        self.calls: list[tuple[str, list[str]]] = []
        real: Callable[..., list[str | list[tuple[str, bool, int]]]] = getattr(module, name)

        def spy(text: str, *args: object, **kwargs: object) -> list[object]:
            lines = real(text, *args, **kwargs)
            shown = [
                line if isinstance(line, str) else " ".join(word for word, *_ in line)
                for line in lines
            ]
            self.calls.append((text, shown))
            return lines

        monkeypatch.setattr(module, name, spy)

    def faults(self) -> Iterator[str]:
        for text, lines in self.calls:
            for fault in faults(lines):
                yield f"{fault}  (in {text[:60]!r}…)"
            # Nothing left out at a break but a "·" (a dash used to be dropped there).
            shown = [word for word in " ".join(lines).split() if word != "·"]
            # A soft hyphen is never shown (nor a break at one: a word is never split).
            if shown != [word for word in text.replace(SHY, "").split() if word != "·"]:
                yield f"words lost at a break: {lines!r}  (of {text!r})"


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_breaks_where_a_typesetter_would(size, locale, monkeypatch):
    """Each prose string as a toast over the table and as a question in a dialog."""
    app = make_app("SH1-C2-AAAAAJ2", size=size)
    app.set_locale(locale)
    wraps = Recorder(monkeypatch, ui, "wrap")
    for text in prose(app.tr):
        app.table.model.show_toast(text)
        app.scenes.open("confirm", question=text, yes="+", no="-", on_yes=lambda: None)
        app.scenes.top.paint(app.screen)
        app.scenes.pop()
    assert len(wraps.calls) > 400
    assert not list(wraps.faults())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("code", ["RU1-C-AAAAABB", "SH1-C1-AAAAAJ2"])
def test_the_rules_page_and_settings_help_break_where_a_typesetter_would(
    size, locale, code, monkeypatch
):
    app = make_app(code, size=size)
    app.set_locale(locale)
    paragraphs = Recorder(monkeypatch, ui, "paragraph_lines")
    wraps = Recorder(monkeypatch, ui, "wrap")
    for scene in ("settings", "rules"):
        show_scene(app, scene)
        app.step()
        app.full_redraw = True
        app.draw()
        app.scenes.pop_to_bottom()
    game = "russian" if code.startswith("RU") else "seahaven"
    assert len(paragraphs.calls) >= len(app.tr.paragraphs(f"rules.{game}.body"))
    helps = [app.tr(key) for key in ("settings.double_tap_help", "settings.sound_help")]
    assert {text for text, _ in wraps.calls} >= set(helps)
    assert not [*paragraphs.faults(), *wraps.faults()]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("code", ["SH1-C4-AAAAAJ2", "SH1-C1-AAAAAJ2", "RU1-R-AAAAABB"])
def test_the_tables_title_keeps_the_games_name_on_one_line(size, locale, code, monkeypatch):
    """Issue 40 item 15: at 800x480 the Seahaven caption beside four free cells stacked five
    lines, «Seahaven» / «Towers» / …; the title is set smaller rather than split the name."""
    wraps = Recorder(monkeypatch, ui, "wrap")
    app = make_app(code, size=size)
    app.set_locale(locale)
    app.full_redraw = True
    app.draw()
    name = app.tr("names.seahaven" if code.startswith("SH") else "names.russian")
    titles = [lines for text, lines in wraps.calls if text.startswith(name + "\n")]
    assert titles, "no title drawn"
    shown = titles[-1]  # as drawn (the sizes tried before it may split it)
    assert name in [line.replace("\u00a0", " ") for line in shown], shown
    assert not faults(shown)


# Issue 38 item 12: text that scales with the table, and no needless wraps.
ALL_SIZES = [(800, 480), (1024, 600), (720, 1280), (1920, 1080)]


@pytest.mark.parametrize("size", ALL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", LOCALES)
def test_a_table_button_label_that_fits_on_one_line_is_never_wrapped(size, locale, monkeypatch):
    """ "New / game" wrapped in a 170 px button at 1920x1080 though "New game" fits it at a
    size larger than the info bar's: a label wraps only where on one line it would have to
    be smaller than the info bar's text."""
    app = make_app("RU1-C-AAAAABB", size=size)
    app.set_locale(locale)
    wraps = Recorder(monkeypatch, ui, "wrap")
    labels = Recorder(monkeypatch, ui, "label_lines")
    app.table.view.chrome.resize()
    app.table.view.chrome.chrome()
    lay = app.table.model.layout
    rect = lay.buttons["new"]
    room = rect.width - 6 if rect.height > rect.width * 0.55 else rect.width - rect.height // 2 - 22
    drawn = dict(wraps.calls + labels.calls)
    bar = ui.font(lay.text_size)
    for name in ("new", "undo", "redo", "hint", "settings"):
        label = app.tr(f"buttons.{name}")
        if bar.size(label)[0] <= room:
            assert drawn.get(label, [label]) == [label], (label, drawn.get(label))


def test_the_info_bar_grows_with_a_large_table():
    """At 1920x1080 the bar's words were 16 px high beside 30 px button labels: the bar's
    text now grows with the screen, as the labels and dialogs do."""
    small, large = make_app(size=(800, 480)), None
    small_text = small.table.model.layout.text_size
    pygame.display.quit()
    large = make_app(size=(1920, 1080))
    lay = large.table.model.layout
    labels = large.table.view.chrome.label_size()
    assert lay.text_size >= 24 and lay.text_size >= 0.8 * labels, (lay.text_size, labels)
    assert small_text == 13  # a 7" panel's bar as it was


@pytest.mark.parametrize("locale", LOCALES)
def test_the_close_question_stays_on_one_line_where_the_screen_has_room(locale, monkeypatch):
    """At 1920x1080 "Close the game?" wrapped inside a box ten rows wide: the box now widens
    to hold the question on one line, up to 0.8 of the screen (else it breaks between its
    sentences where it can)."""
    app = make_app(size=(1920, 1080))
    app.set_locale(locale)
    wraps = Recorder(monkeypatch, ui, "wrap")
    app.ask_to_close()
    question = app.tr("dialog.close_question")
    lines = [shown for text, shown in wraps.calls if text == question][-1]
    dialog = app.scenes.top
    text = next(c for c in dialog.controls if c.kind == "text")
    if ui.font(text.size).size(question)[0] <= 0.8 * 1920 - 2 * dialog.unit():
        assert len(lines) == 1, lines
    else:
        assert len(lines) == 2 and lines[0].endswith("?"), lines


@pytest.mark.parametrize("locale", LOCALES)
def test_a_short_last_sentence_is_not_parted_at_the_last_break(locale, monkeypatch):
    """800x480: "Nobody has won today's deal yet. Be / the first!" keeps "Be the first!"
    whole; the start tip's last line is never one word."""
    app = make_app(size=(800, 480), first_line=None)
    app.set_locale(locale)
    wraps = Recorder(monkeypatch, ui, "wrap")
    show_scene(app, "scores")
    app.step()
    app.full_redraw = True
    app.draw()
    empty = app.tr("arcade.empty_today")
    last = empty.rsplit(". ", 1)[-1].rsplit("? ", 1)[-1]
    shown = [lines for text, lines in wraps.calls if text == empty]
    assert shown, "the empty board's words are drawn"
    assert shown[-1][-1].replace("\u00a0", " ").endswith(last), shown[-1]
    app.scenes.pop_to_bottom()
    tip = app.tr("table.first_time")
    app.table.model.show_toast(tip)
    assert app.table.model.toast is not None
    lines = app.table.model.toast.lines
    assert len(lines) == 1 or " " in lines[-1].replace("\u00a0", " "), lines


def test_keep_last_sentence_moves_only_a_parted_short_sentence():
    from game.look.typeset import keep_last_sentence

    def width_of(line: str) -> int:
        return len(line)

    def set_text(text: str, width: int) -> list[str]:
        return ui_wrap_chars(text, width)

    para = "Nobody has won today's deal yet. Be the first!"
    assert keep_last_sentence(para, ["Nobody has won today's deal yet. Be", "the first!"], 36,
                              set_text, width_of) == ["Nobody has won today's deal yet.",
                                                      "Be the first!"]  # fmt: skip
    whole = ["Nobody has won today's deal yet.", "Be the first!"]
    assert keep_last_sentence(para, whole, 36, set_text, width_of) == whole
    # Too long for one line: left as set.
    parted = ["Nobody has won today's deal yet. Be", "the first!"]
    assert keep_last_sentence(para, parted, 12, set_text, width_of) == parted


def ui_wrap_chars(text: str, width: int) -> list[str]:
    """Greedy setting by characters (a stand-in font: one unit a character)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines
