"""Every string a player reads, in Finnish, Russian and English, from ``assets/locales/*.toml``.

A catalog is a TOML file of tables; a key is the dotted path to a leaf (``menu.new_game``).
A leaf is one of:

- a string with ``str.format`` placeholders (``"{count} moves"``);
- a plural table ``{one = "...", few = "...", many = "...", other = "..."}``, chosen by the
  ``count`` param with the CLDR rules of the language (Russian: one/few/many/other; Finnish and
  English: one/other);
- an array of strings (the paragraphs of a rules screen: :meth:`Translator.paragraphs`).

A key missing from a locale falls back to English; a key missing from English too comes back as
the key itself (logged once), so a typo shows on screen instead of crashing a kiosk.

Card names: ranks are written the way players of the language read them on their own cards.
Finnish decks carry the international indices A, K, Q, J (the words are ässä, kuningas,
kuningatar or rouva, jätkä or sotilas), so Finnish shows ``J``/``Q``/``K`` like English.
Russian decks carry Т, К, Д, В (туз, король, дама, валет). The ten is always ``10``.
Inside sentences a card is written in its short form with the suit symbol (``7♥``): it needs no
grammatical case, which Russian and Finnish nouns would (``на семёрку червей``,
``hertta 7:n päälle``).
"""

from __future__ import annotations

import datetime as dt
import logging
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, TypeAlias

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 only
    import tomli as tomllib

from engine.cards import RANKS, card_name, parse_card
from engine.safe_read import not_utf8, read_bytes, reason

log = logging.getLogger("solitaire.i18n")  # the kiosk log takes the "solitaire" tree

LOCALES: Final = ("fi", "ru", "en")
FALLBACK: Final = "en"
LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "assets" / "locales"
MAX_LOCALE_BYTES: Final = 1_000_000

PLURAL_CATEGORIES: Final = frozenset({"zero", "one", "two", "few", "many", "other"})
# The categories a plural entry must have in each language (CLDR, integers plus "other").
PLURAL_FORMS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("one", "other"),
    "fi": ("one", "other"),
    "ru": ("one", "few", "many", "other"),
}

Plural: TypeAlias = dict[str, str]
Entry: TypeAlias = str | Plural | list[str]
Catalog: TypeAlias = dict[str, Entry]

# Refusal params that name a card, a destination (move notation) or a rank.
CARD_PARAMS: Final = frozenset({"card", "top", "target", "fits", "needed", "occupant"})
DEST_PARAMS: Final = frozenset({"dest", "cell"})
RANK_PARAMS: Final = frozenset({"rank"})
# Numbers in refusals also come as a counted phrase: {size_cards} -> "5 карт", {length_chars}.
MOVE_NUMBER_UNIT: Final = "unit.cards"
CODE_NUMBER_UNIT: Final = "unit.chars"


def plural_category(locale: str, count: object) -> str:
    """The CLDR plural category of ``count`` in ``locale`` ("other" for anything not an int)."""
    if isinstance(count, bool) or not isinstance(count, int):
        return "other"
    n = abs(count)
    if locale == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def is_plural(value: object) -> bool:
    """A TOML table that is a plural entry rather than a section."""
    return (
        isinstance(value, dict)
        and "other" in value
        and set(value) <= PLURAL_CATEGORIES
        and all(isinstance(v, str) for v in value.values())
    )


def flatten(table: Mapping[str, Any], prefix: str = "") -> Catalog:
    """Dotted keys to leaves; anything that is not a string, plural or list of strings is dropped
    with a warning."""
    out: Catalog = {}
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, str):
            out[key] = value
        elif is_plural(value):
            out[key] = dict(value)
        elif isinstance(value, dict):
            out.update(flatten(value, key + "."))
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            out[key] = list(value)
        else:
            log.warning("locale key %s: unsupported value %r ignored", key, value)
    return out


# The shipped catalogs parsed (about 13 ms a file), by file: with the file's modification time
# and size when it was read, so a changed file is read again. A language switch, a new visitor's
# App and the tests' many Apps then copy a dictionary instead.
_PARSED: dict[Path, tuple[tuple[int, int], Catalog]] = {}


def load_catalog(locale: str, directory: Path | None = None) -> Catalog:
    """The flattened catalog of ``locale`` (in ``directory``, default LOCALE_DIR); empty (with
    one logged error) when the file is missing or damaged in any way: English stands in. A
    shipped file (in LOCALE_DIR) is parsed once while it is unchanged; each call gets its own
    dictionary. Another directory's files are read at every call."""
    folder = LOCALE_DIR if directory is None else directory
    path = folder / f"{locale}.toml"
    seen: tuple[int, int] | None = None
    if Path(folder).resolve() == Path(LOCALE_DIR).resolve():
        try:
            stat = path.stat()
            if path.is_file():
                seen = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            pass  # read_catalog says why
    kept = _PARSED.get(path)
    if seen is not None and kept is not None and kept[0] == seen:
        return dict(kept[1])
    catalog = read_catalog(locale, path)
    if seen is not None and catalog:
        _PARSED[path] = (seen, catalog)
        return dict(catalog)
    return catalog


def read_catalog(locale: str, path: Path) -> Catalog:
    """The flattened catalog in the file ``path``, read now (see load_catalog)."""
    try:
        data = tomllib.loads(read_bytes(path, MAX_LOCALE_BYTES).decode("utf-8"))
    except UnicodeDecodeError as error:
        why = not_utf8(error)
    except OSError as error:  # missing, a FIFO or a device, too large
        why = reason(error)
    except (ValueError, RecursionError, MemoryError) as error:  # not TOML (TOMLDecodeError)
        why = f"not a locale file ({str(error)[:200]})"
    else:
        catalog = flatten(data)
        if catalog:
            return catalog
        why = "no strings in it"
    instead = "keys instead of English strings" if locale == FALLBACK else "English strings"
    log.error("cannot read locale file %s: %s; showing %s", path, why, instead)
    return {}


class _KeepMissing(dict[str, Any]):
    """format_map helper: an unknown placeholder stays visible as ``{name}``."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Translator:
    """Looks up and formats catalog strings for one locale, switchable at run time."""

    def __init__(self, locale: str = FALLBACK, *, directory: Path | None = None) -> None:
        self._directory = directory
        self._fallback: Catalog = load_catalog(FALLBACK, directory)
        self._catalog: Catalog = self._fallback
        self._locale: str = FALLBACK
        self._reported: set[tuple[str, str]] = set()
        self._loaded: dict[str, Catalog] = {FALLBACK: self._fallback}  # each file read once
        self.set_locale(locale)  # an unknown locale is logged and English stays

    # ------------------------------------------------------------------ locale

    @property
    def locale(self) -> str:
        return self._locale

    def set_locale(self, locale: object) -> bool:
        """Switch at once; False (and no change) for a locale that is not in LOCALES."""
        if not isinstance(locale, str) or locale.strip().lower() not in LOCALES:
            log.warning("locale %r is not one of %s; keeping %r", locale, LOCALES, self._locale)
            return False
        locale = locale.strip().lower()
        if locale not in self._loaded:
            self._loaded[locale] = load_catalog(locale, self._directory)
        self._catalog = self._loaded[locale]
        self._locale = locale
        return True

    # ------------------------------------------------------------------ lookup

    def has(self, key: str) -> bool:
        return key in self._catalog or key in self._fallback

    def entry(self, key: str) -> Entry | None:
        """The raw entry of ``key`` (own locale first, then English), or None."""
        found = self._catalog.get(key)
        if found is None:
            found = self._fallback.get(key)
            if found is not None and self._catalog:  # an unreadable file was logged once
                self._report(key, "missing in %s, English used")
        return found

    def _report(self, key: str, message: str) -> None:
        if (self._locale, key) not in self._reported:
            self._reported.add((self._locale, key))
            log.warning("locale key %s: " + message, key, self._locale)

    def __call__(self, key: str, /, **params: Any) -> str:
        """The formatted string for ``key``; the key itself when no catalog has it."""
        found = self.entry(key)
        if found is None:
            if self._fallback:  # an unreadable en.toml was logged once
                self._report(key, "missing (locale %s and English)")
            return key
        if isinstance(found, list):
            return "\n\n".join(self._format(key, text, params) for text in found)
        if isinstance(found, dict):
            category = plural_category(self._locale, params.get("count"))
            found = found.get(category, found["other"])
        return self._format(key, found, params)

    def paragraphs(self, key: str, /, **params: Any) -> list[str]:
        """A multi-paragraph entry (e.g. ``rules.russian.body``) as a list of strings."""
        found = self.entry(key)
        if isinstance(found, list):
            return [self._format(key, text, params) for text in found]
        return [self(key, **params)]

    def _format(self, key: str, template: str, params: Mapping[str, Any]) -> str:
        try:
            return template.format_map(_KeepMissing(params))
        except (ValueError, IndexError, KeyError, AttributeError, TypeError) as error:
            if (self._locale, key) not in self._reported:
                self._reported.add((self._locale, key))
                log.warning("locale key %s: bad template in %s: %s", key, self._locale, error)
            return template

    def date(self, day: dt.date) -> str:
        """``day`` as this language writes a date: ``arcade.date`` with its month from the list
        ``arcade.months`` ("30 Nov 2026", "30.11.2026", "30 ноября 2026 г.")."""
        months = self.paragraphs("arcade.months")
        month = months[day.month - 1] if len(months) == 12 else str(day.month)
        return self("arcade.date", day=day.day, month=month, year=day.year)

    def ordinal(self, place: int) -> str:
        """``place`` as this language writes a place in a list: the number and its ending from
        the list ``arcade.ordinal`` (the ending of 4th, 1st, 2nd, 3rd: English's four; the
        Finnish "3." and the Russian "3-е", neuter as «место» takes, have one)."""
        endings = self.paragraphs("arcade.ordinal")
        tens, last = place % 100, place % 10
        kind = 0 if 11 <= tens <= 13 or last > 3 else last
        return f"{place}{endings[kind] if len(endings) == 4 else ''}"

    # ------------------------------------------------------------------ cards

    def rank(self, rank: str) -> str:
        """A rank letter (``A 2 .. 9 T J Q K``, or ``10``) as printed on this language's cards."""
        letter = "T" if rank.strip() == "10" else rank.strip().upper()
        if letter not in RANKS:
            return rank
        return self(f"rank.{letter}")

    def card(self, name: str) -> str:
        """Short display name with the suit symbol: ``7♥``, ``10♠``, ru ``Д♣``."""
        parsed = _parse(name)
        if parsed is None:
            return name
        rank, suit = parsed
        return self.rank(rank) + self(f"suit.{suit}")

    def card_long(self, name: str) -> str:
        """The full name for sentences: en "7 of hearts", fi "hertta 7", ru "семёрка червей"."""
        parsed = _parse(name)
        if parsed is None:
            return name
        rank, suit = parsed
        # Finnish joins a face card or an ace to its suit: "herttakuningas", "pataässä".
        pattern = "card_long.pattern_face" if rank in "AJQK" else "card_long.pattern"
        return self(
            pattern,
            rank=self(f"rank_long.{rank}"),
            suit=self(f"suit_long.{suit}"),
            symbol=self(f"suit.{suit}"),
        )

    def dest(self, notation: str) -> str:
        """Move notation to words: ``t5`` -> "column 5", ``f`` -> "foundation", ``c2``."""
        text = notation.strip().lower()
        if text == "f":
            return self("dest.foundation")
        kind, number = text[:1], text[1:]
        if number.isdigit() and kind in ("t", "c"):
            return self("dest.column" if kind == "t" else "dest.cell", number=int(number))
        return notation

    # ------------------------------------------------------------------ refusals

    def refusal(self, error: BaseException) -> str:
        """An IllegalMove or CodeError (``.reason``, ``.params``) as one localized sentence."""
        reason = getattr(error, "reason", None)
        raw = getattr(error, "params", None)
        if not isinstance(reason, str):
            return str(error)
        params: dict[str, Any] = dict(raw) if isinstance(raw, Mapping) else {}
        is_code = reason.startswith("code_")
        section = "code" if is_code else "reason"
        unit = CODE_NUMBER_UNIT if is_code else MOVE_NUMBER_UNIT
        shown: dict[str, Any] = {}
        for name, value in params.items():
            if isinstance(value, bool):
                shown[name] = value
            elif isinstance(value, int):
                shown[name] = value
                shown[f"{name}_{unit.split('.')[1]}"] = self(unit, count=value)
            elif name in CARD_PARAMS and isinstance(value, str):
                shown[name] = self.card(value)
            elif name in DEST_PARAMS and isinstance(value, str):
                shown[name] = self.dest(value)
            elif name in RANK_PARAMS and isinstance(value, str):
                shown[name] = self(f"rank_word.{value}") if value in RANKS else value
            else:
                shown[name] = value
        key = f"{section}.{reason}"
        # A true flag may pick a variant sentence: reason.king_only_reveals.
        for name, value in params.items():
            if value is True and self.has(f"{key}_{name}"):
                key = f"{key}_{name}"
                break
        if not self.has(key):
            self._report(key, "no sentence for this refusal in %s")
            return str(error)
        return _capitalize(self(key, **shown))


def _parse(name: str) -> tuple[str, str] | None:
    try:
        text = card_name(parse_card(name))
    except ValueError:
        log.warning("not a card name: %r", name)
        return None
    return text[0], text[1]


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


__all__ = [
    "LOCALES",
    "PLURAL_FORMS",
    "Translator",
    "flatten",
    "is_plural",
    "load_catalog",
    "plural_category",
]
