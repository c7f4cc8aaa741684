"""Issue 40 (a native reader's fourth pass over Finnish and Russian) and issue 38 item 11 (the
English refusal of a wrong suit), as a player reads them: through the input layer where a move
is refused, through the dialogs where a screen changed, and from the catalogs for the wording.
The line breaks (items 14 and 15) are in tests/i18n/test_line_breaks.py."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from engine import Game, IllegalMove, Move
from engine.cards import parse_card
from game.i18n import LOCALE_DIR, Translator, load_catalog
from game.launch import show_scene
from game.look import ui
from game.look.fonts import font
from game.saves.prefs import PlayerSettings
from game.table.refusals import explain
from tests.helpers.tablehelp import Finger, make_app
from tests.table.test_refusal_words import (
    drop_on_empty_column,
    position,
    queen_run,
    seed_004,
    toast,
)

pytestmark = pytest.mark.app

LOCALES = ("en", "fi", "ru")
SIZES = [(800, 480), (1024, 600), (720, 1280), (1920, 1080)]


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def refused(locale: str, card: str, column: int, code: str = "RU1-C-AAAAAAD") -> str:
    """The message of ``card`` dragged onto ``column`` (0-based), a refused move."""
    app = make_app(code, settings=PlayerSettings(locale=locale))
    finger = Finger(app)
    before = app.table.model.game.to_dict()
    finger.drag(finger.card(card), finger.column(column))
    assert app.table.model.game.to_dict() == before
    return toast(app)


# ------------------------------------------------------------------ a wrong suit (38.11, 40.1)


def test_english_names_the_suit_and_starts_with_the_card_moved():
    """38.11: the table says "Same suit", the refusal said "Same family only: 10♠ goes on
    6♣…", opening with a card the player never touched. RU1-C-AAAAAAD: 9♠ dropped on 6♣."""
    text = refused("en", "9S", 2)
    assert text == (
        "9♠ cannot go on 6♣: same suit only, so only 5♣ goes there. 9♠ goes only on 10♠. "
        "10♠ is marked on the table."
    )
    everything = " ".join(str(v) for v in load_catalog("en").values()).lower()
    assert "family" not in everything


def test_finnish_keeps_seed_000s_family_and_says_it_means_the_suit():
    """Seed 000: the refusal speaks of «samasta perheestä»; the reader: say it is the suit
    (never «Sama väri»: A♠ on 4♣, both black, would contradict itself)."""
    text = refused("fi", "9S", 2)
    assert text.startswith(
        "Vain samasta perheestä eli samaa maata: kortin 6♣ päälle sopii vain 5♣, ei 9♠."
    )
    assert "väri" not in text


def test_russian_wrong_suit_stays_as_the_reader_passed_it():
    text = refused("ru", "9S", 2)
    assert text.startswith("Не в масть: на 6♣ кладут только карту той же масти — 5♣, а не 9♠.")


# ------------------------------------------------------------------ a wrong rank (40.11)


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", "Only a 5 goes on 6♣: one rank lower. 4♣ goes only on 5♣. "
               "5♣ is marked on the table."),
        ("fi", "Kortin 6♣ päälle käy vain yhtä arvoa pienempi: 5. 4♣ sopii vain kortin 5♣ päälle. "
               "5♣ on korostettu pelialueella."),
        ("ru", "На 6♣ можно положить только пятёрку — карту на единицу младше. 4♣ кладут только "
               "на 5♣. Карта 5♣ отмечена на столе."),
    ],
)  # fmt: skip
def test_a_wrong_rank_links_the_card_moved_to_the_card_it_needs(locale, expected):
    """Item 11: "…vain 5. 5♣ on korostettu" left the player to guess why 5♣; the sentence that
    wrong_suit and no_destination have says it (RU1-C-AAAAAAD: 4♣ dropped on 6♣)."""
    assert refused(locale, "4C", 2) == expected


# ------------------------------------------------------------------ the kings marked (40.10)


def one_king_face_up() -> Game:
    """RU1-C-AAAAABB with column 1 emptied (its 4♣ face down under column 2) and K♣ swapped
    with Q♦ face down: of the kings that could fill it only K♥ is face up (K♦ lies at the
    bottom of column 7, where it stays)."""
    cols = Game.from_code("RU1-C-AAAAABB").to_dict()["columns"]
    cols[1] = ["#4C", *cols[1]]
    cols[0] = []
    cols[2] = [("QD" if card == "KC" else card) for card in cols[2]]
    cols[3] = [("#KC" if card == "#QD" else card) for card in cols[3]]
    return position("RU1-C-AAAAABB", cols, [], [0, 0, 0, 0])


@pytest.mark.parametrize(
    ("locale", "one"),
    [
        ("en", "The king that could go there is marked on the table."),
        ("fi", "Kuningas, joka sinne sopisi, on korostettu pelialueella."),
        ("ru", "Король, который мог бы туда лечь, отмечен на столе."),
    ],
)
def test_one_king_marked_is_one_king_in_the_sentence(locale, one):
    game = one_king_face_up()
    assert len(game.needed_cards(IllegalMove("king_only", card="QS", reveals=False))) > 1
    app, text = drop_on_empty_column(game, locale, "QS")
    assert app.table.model.marks == (parse_card("KH"),)  # type: ignore[attr-defined]
    assert text.endswith(one)


@pytest.mark.parametrize("locale", LOCALES)
def test_several_kings_marked_are_kings(locale):
    app, text = drop_on_empty_column(queen_run(), locale, "QS")
    marks = app.table.model.marks  # type: ignore[attr-defined]
    assert len(marks) == 3
    assert text.endswith(app.tr("table.kings_marked", count=3))  # type: ignore[attr-defined]
    assert text.endswith(load_catalog(locale)["table.kings_marked"]["other"])  # type: ignore[index]


# ------------------------------------------------------------------ {lift} as an object (40.12)

OBJECT = {
    "fi": {1: "voit nostaa 1 kortin,", 2: "voit nostaa 2 korttia,", 21: "voit nostaa 21 korttia,"},
    "ru": {1: "взять можно 1 карту,", 2: "взять можно 2 карты,", 5: "взять можно 5 карт,",
           21: "взять можно 21 карту,", 101: "взять можно 101 карту,"},
    "en": {1: "you may lift 1 card,", 8: "you may lift 8 cards,"},
}  # fmt: skip


@pytest.mark.parametrize("locale", LOCALES)
def test_the_cards_one_may_lift_are_the_verbs_object_at_every_count(locale):
    tr = Translator(locale)
    for count, words in OBJECT[locale].items():
        text = tr("table.run_empty_column", lift=tr("unit.cards_object", count=count))
        assert words in text


def test_the_empty_column_answer_uses_the_object_form(tmp_path: Path):
    """Seed 004's worked example through game.table.refusals, with a catalog whose object
    form differs from the plain one at 8 (in the shipped ones it is the same at every even
    count, and a lift is always even)."""
    for locale in ("en", "fi", "ru"):
        text = (LOCALE_DIR / f"{locale}.toml").read_text(encoding="utf-8")
        if locale == "en":
            text = text.replace(
                'cards_object = { one = "{count} card", other = "{count} cards" }',
                'cards_object = { one = "{count} card", other = "{count} cards (object)" }',
            )
        (tmp_path / f"{locale}.toml").write_text(text, encoding="utf-8")
    tr = Translator("en", directory=tmp_path)
    game = seed_004()
    empty = next(i for i, c in enumerate(game.cols) if not c)
    king_run = game.check(f"KS-t{empty + 1}")
    assert king_run is not None and king_run.reason == "run_too_long"
    answer = explain(tr, game, Move(parse_card("KS"), empty), king_run)
    assert "you may lift 8 cards (object)," in answer.text
    assert "at most 4 cards go there" in answer.text


# ------------------------------------------------------------------ the wording (40.2-9)


def test_finnish_wording_of_the_fourth_pass():
    fi = load_catalog("fi")
    assert fi["table.hint_deal_lost"] == (
        "Tätä jakoa ei voi voittaa edes alusta, joten vika ei ole siirroissasi. "
        "Jaetaanko uusi peli?"
    )
    assert str(fi["table.nothing_to_redo"]).startswith("Ei uudelleen tehtäviä siirtoja.")
    assert (fi["settings.one_tap"], fi["settings.tap_to_place"]) == (
        "Siirto yhdellä napautuksella",
        "Kortin ja kohteen valinta",
    )
    assert fi["stats.win_rate"] == "Voitettu {percent}\u00a0%"
    assert fi["dialog.close_question"] == (
        "Suljetaanko peli? Tilanne tallentuu, ja ensi kerralla jatkat tästä."
    )
    assert fi["win.look"] == "Katso pelialuetta"
    assert "pelialue" in str(fi["reason.no_destination"])  # the word the refusals use
    assert fi["settings.volume"] == "Voimakkuus"


@pytest.mark.parametrize("width", range(205, 520, 9))
def test_tee_uudelleen_stays_on_one_line(width):
    """Item 3: the button's name «Tee uudelleen ‑painike» never parts, at any width it fits."""
    pygame.init()
    text = Translator("fi")("table.nothing_to_redo")
    assert font(18).size("Tee uudelleen ‑painike")[0] <= width  # (narrower, it would break)
    lines = [line.replace("\u00a0", " ") for line in ui.wrap(text, width, 18)]
    assert any("Tee uudelleen ‑painike" in line for line in lines), lines


def test_russian_wording_of_the_fourth_pass():
    ru = load_catalog("ru")
    assert ru["table.hint_won"] == "Партия выиграна: «Новая игра» начнёт следующую."
    assert ru["arcade.initials_title"] == "Вы в таблице рекордов!"
    tr = Translator("ru")
    assert [tr("operator.entries", count=n) for n in (1, 2, 5, 21)] == [
        "В таблицах 1 запись.",
        "В таблицах 2 записи.",
        "В таблицах 5 записей.",
        "В таблицах 21 запись.",
    ]


def test_seed_003s_old_russian_patience_is_the_fortune_telling():
    """Item 8: without «старинным» the sentence says the game's own name means fortune
    telling; seed 003: «„Старинным русским пасьянсом“ часто называют гадание на картах»."""
    last = load_catalog("ru")["rules.russian.body"][-1]  # type: ignore[index]
    assert "«старинным русским пасьянсом» часто называют гадание на картах" in last


@pytest.mark.parametrize("game", ["russian", "seahaven"])
def test_every_russian_rules_paragraph_leads_in_with_a_colon(game):
    """Item 7: «Цель — собрать…» and «Каждый день — новая раздача» were set bold up to the
    dash by the lead-in rule; a lead-in ends with a colon, as in every other paragraph."""
    pygame.init()
    tr = Translator("ru")
    paragraphs = [*tr.paragraphs(f"rules.{game}.body"), tr("arcade.howto_daily")]
    for para in paragraphs:
        bold = [word for line in ui.paragraph_lines(para, 600, 18) for word, b, _ in line if b]
        assert not bold or bold[-1].endswith(":"), (bold, para)
    howto = ui.paragraph_lines(tr("arcade.howto_daily"), 600, 18)[0]
    assert [word for word, b, _ in howto if b] == ["Раздача", "дня:"]


# ------------------------------------------------------------------ the new-game dialog (5, 13)


def dialog_buttons(size: tuple[int, int], locale: str, code: str = "RU1-C-AAAAABB"):
    app = make_app(code, size=size)
    app.set_locale(locale)
    show_scene(app, "newgame")
    return app, [c for c in app.scenes.top.controls if c.kind == "button"]  # type: ignore[attr-defined]


def shown_lines(control: ui.Control) -> list[str]:
    split = control.extra.get("split", False)
    return ui.label_lines(control.label, control.rect.width - 10, control.rect.height,
                          control.size, split=split)  # fmt: skip


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", LOCALES)
def test_the_rule_set_buttons_are_set_alike(size, locale):
    """Item 13: "Klassinen · Sama väri" on one line beside "Helpotettu" / "Sekoitetut värit"
    on two; chosen or not, both are set the same way."""
    app, buttons = dialog_buttons(size, locale)
    names = [app.tr("variant.RU1-C"), app.tr("variant.RU1-R")]
    rule_sets = [c for c in buttons if c.label in names]
    assert len(rule_sets) == 2
    lines = [shown_lines(c) for c in rule_sets]
    assert len(lines[0]) == len(lines[1]), lines
    f = font(rule_sets[0].size)
    for control, shown in zip(rule_sets, lines, strict=True):
        assert all(f.size(line)[0] <= control.rect.width - 10 for line in shown)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", LOCALES)
def test_a_level_buttons_one_word_is_never_split(size, locale):
    """Item 5: «Satunnainen» was hyphenated «Satun-» / «nainen» on its button at both sizes;
    its neighbours make room and the row keeps the dialog's text size."""
    app, buttons = dialog_buttons(size, locale)
    names = {app.tr(f"names.{level}") for level in ("easy", "medium", "hard", "any")}
    levels = [c for c in buttons if c.label in names]
    assert len(levels) == 4
    for c in levels:
        assert shown_lines(c) == [c.label]
        assert font(c.size).size(c.label)[0] <= c.rect.width - 10, c.label
    deal = next(c for c in buttons if c.label == app.tr("newgame.deal"))
    assert levels[0].size == deal.size  # not shrunk below the other rows


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", LOCALES)
def test_the_volume_is_named_in_words_at_both_sizes(size, locale):
    """Item 6: «Äänenvoimakkuus» never fitted and a loudspeaker stood in its place at both
    sizes; «Voimakkuus» fits, so the row says "Volume" in words in every language."""
    app = make_app("RU1-C-AAAAABB", size=size, settings=PlayerSettings(locale=locale))
    show_scene(app, "settings")
    controls = app.scenes.top.controls  # type: ignore[attr-defined]
    volume = [c for c in controls if c.label == app.tr("settings.volume")]
    assert [c.kind for c in volume] == ["label"]
    assert font(volume[0].size).size(volume[0].label)[0] <= volume[0].rect.width
