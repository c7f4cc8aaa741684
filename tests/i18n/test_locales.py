"""The catalogs themselves: one key set, the same placeholders, every refusal, every glyph."""

from __future__ import annotations

import string
from functools import cache

import pytest

from engine import CodeError, IllegalMove
from engine.reasons import CODE_REASONS, REASONS
from game.i18n import LOCALE_DIR, LOCALES, PLURAL_FORMS, Catalog, Translator, load_catalog

pytestmark = pytest.mark.app

OTHERS = [locale for locale in LOCALES if locale != "en"]
RANK_LETTERS = "A23456789TJQK"


@cache
def catalog(locale: str) -> Catalog:
    return load_catalog(locale)


def texts(entry: str | dict[str, str] | list[str]) -> list[str]:
    if isinstance(entry, str):
        return [entry]
    if isinstance(entry, dict):
        return list(entry.values())
    return list(entry)


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def entry_placeholders(entry: str | dict[str, str] | list[str]) -> set[str]:
    found: set[str] = set()
    for text in texts(entry):
        found |= placeholders(text)
    return found


def test_every_locale_file_parses_to_a_real_catalog() -> None:
    for locale in LOCALES:
        assert (LOCALE_DIR / f"{locale}.toml").is_file()
        assert len(catalog(locale)) > 100, locale


@pytest.mark.parametrize("locale", OTHERS)
def test_same_keys_as_english(locale: str) -> None:
    missing = sorted(set(catalog("en")) - set(catalog(locale)))
    extra = sorted(set(catalog(locale)) - set(catalog("en")))
    assert not missing, f"{locale} lacks {missing}"
    assert not extra, f"{locale} has keys English lacks: {extra}"


@pytest.mark.parametrize("locale", OTHERS)
def test_same_placeholders_as_english(locale: str) -> None:
    english = catalog("en")
    differing = {
        key: (sorted(entry_placeholders(entry)), sorted(entry_placeholders(english[key])))
        for key, entry in catalog(locale).items()
        if key in english and entry_placeholders(entry) != entry_placeholders(english[key])
    }
    assert not differing, f"{locale} placeholders differ from English: {differing}"


@pytest.mark.parametrize("locale", LOCALES)
def test_same_kind_of_entry_as_english(locale: str) -> None:
    english = catalog("en")
    for key, entry in catalog(locale).items():
        if key in english:
            assert type(entry) is type(english[key]), key


@pytest.mark.parametrize("locale", LOCALES)
def test_plural_entries_have_exactly_the_language_forms(locale: str) -> None:
    plurals = {k: v for k, v in catalog(locale).items() if isinstance(v, dict)}
    assert plurals, "no plural entries at all"
    for key, forms in plurals.items():
        assert sorted(forms) == sorted(PLURAL_FORMS[locale]), f"{locale} {key}"


@pytest.mark.parametrize("locale", LOCALES)
def test_placeholders_are_plain_names(locale: str) -> None:
    for key, entry in catalog(locale).items():
        for name in entry_placeholders(entry):
            assert name.isidentifier(), f"{locale} {key}: {{{name}}}"


def sample_value(name: str) -> object:
    cards = {"card": "7H", "top": "9S", "target": "8H", "fits": "7C", "needed": "5D"}
    samples: dict[str, object] = {
        **cards,
        "occupant": "QC",
        "dest": "t5",
        "cell": "c2",
        "rank": "Q",
        "size": 22,
        "limit": 21,
        "length": 25,
        "text": "zz-q9",
        "kind": "int",
        "code": "RU1C",
        "game": "XX",
        "version": "9",
        "rules": "Q",
        "allowed": "C4, C2, C1",
        "number": "AAAA",
        "letter": "1",
    }
    return samples[name]


SECTIONS = [("reason", REASONS, "cards"), ("code", CODE_REASONS, "chars")]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("section", "reasons", "unit"), SECTIONS)
def test_every_reason_has_a_sentence_with_known_params(
    locale: str, section: str, reasons: dict[str, tuple[str, ...]], unit: str
) -> None:
    """Each sentence uses only its reason's params (or their counted {param_unit} form)."""
    for reason, params in reasons.items():
        key = f"{section}.{reason}"
        assert key in catalog(locale), f"{locale} lacks {key}"
        allowed = set(params) | {f"{p}_{unit}" for p in params}
        assert entry_placeholders(catalog(locale)[key]) <= allowed, key
    # Nothing else in the section but flag variants such as reason.king_only_reveals.
    known = {f"{section}.{r}" for r in reasons} | {
        f"{section}.{r}_{p}" for r, params in reasons.items() for p in params
    }
    assert {k for k in catalog(locale) if k.startswith(f"{section}.")} <= known


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("reason", sorted(REASONS))
@pytest.mark.parametrize("flag", [False, True])
def test_every_refusal_renders_completely(locale: str, reason: str, flag: bool) -> None:
    params = {p: (flag if p == "reveals" else sample_value(p)) for p in REASONS[reason]}
    text = Translator(locale).refusal(IllegalMove(reason, **params))
    assert text and "{" not in text and "}" not in text
    assert text[0] == text[0].upper()
    assert "_" not in text.replace("zz-q9", ""), text  # no raw key or id leaked
    for name in ("card", "target", "fits", "needed", "occupant", "top"):
        if name in params and f"{{{name}}}" in str(catalog(locale)[f"reason.{reason}"]):
            assert Translator(locale).card(str(params[name])) in text


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("reason", sorted(CODE_REASONS))
def test_every_code_refusal_renders_completely(locale: str, reason: str) -> None:
    params = {p: sample_value(p) for p in CODE_REASONS[reason]}
    text = Translator(locale).refusal(CodeError("message", reason, **params))
    assert text and "{" not in text and "}" not in text and "code_" not in text


@pytest.mark.parametrize("locale", LOCALES)
def test_card_tables_are_complete(locale: str) -> None:
    keys = catalog(locale)
    for section in ("rank", "rank_long", "rank_word"):
        for letter in RANK_LETTERS:
            assert f"{section}.{letter}" in keys
    for section in ("suit", "suit_long"):
        for suit in "SHDC":
            assert f"{section}.{suit}" in keys
    assert [keys[f"suit.{s}"] for s in "SHDC"] == ["♠", "♥", "♦", "♣"]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", ["russian", "seahaven"])
def test_rules_screens(locale: str, game: str) -> None:
    tr = Translator(locale)
    assert tr.has(f"rules.{game}.title")
    body = tr.paragraphs(f"rules.{game}.body")
    assert 4 <= len(body) <= 20  # the rules, then tips (and a player's questions)
    assert len(body) == len(Translator("en").paragraphs(f"rules.{game}.body"))
    text = " ".join(body)
    assert "52" in text and "{undo}" in text  # the undo depth: the rules screen fills it in
    if game == "russian":
        assert "20" in text and "625" in text
    else:
        assert "× 2" in text and "−10" in text
        # The power in words where the source documents say it so (issue 32), not "^".
        power = {"fi": "× 2 potenssiin (", "ru": "× 2 в степени (", "en": "× 2^("}
        assert power[locale] in text


def test_language_names_in_themselves() -> None:
    for locale in LOCALES:
        tr = Translator(locale)
        assert [tr(f"language.{code}") for code in LOCALES] == ["Suomi", "Русский", "English"]


FINNISH_WORDS = ["Sama väri", "Sekoitetut värit", "Klassinen", "Helpotettu", "Sijoitusapu",
                 "Vuorovaikutteiset säännöt", "Automaattinen sijoitus", "Kaksoisnapautus",
                 "Uusi peli", "Helppo", "Keskitaso", "Vaikea", "pelikoodi",
                 "samasta perheestä"]  # fmt: skip
RUSSIAN_WORDS = [
    "в масть",
    "дом",
    "Лёгкий",
    "Средний",
    "Сложный",
    "Любой",
    "той же масти",
    "подсказка",
]


@pytest.mark.parametrize(("locale", "words"), [("fi", FINNISH_WORDS), ("ru", RUSSIAN_WORDS)])
def test_the_seeds_own_words(locale: str, words: list[str]) -> None:
    everything = "\n".join(t for entry in catalog(locale).values() for t in texts(entry))
    missing = [word for word in words if word not in everything]
    assert not missing


@pytest.mark.parametrize("font", ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"])
def test_the_font_has_every_glyph(font: str) -> None:
    import pygame.freetype

    pygame.freetype.init()
    face = pygame.freetype.Font(str(LOCALE_DIR.parent / "fonts" / font), 16)
    tr = Translator("en")
    chars: set[str] = set()
    for locale in LOCALES:
        for entry in catalog(locale).values():
            for text in texts(entry):
                chars |= set(text)
        tr.set_locale(locale)
        chars |= {ch for n in ("AS", "TH", "QD", "KC") for ch in tr.card(n) + tr.card_long(n)}
    chars.discard("\n")
    ordered = sorted(chars)
    metrics = face.get_metrics("".join(ordered))
    missing = [ch for ch, metric in zip(ordered, metrics, strict=True) if metric is None]
    assert not missing, f"{font} lacks glyphs for {missing}"
