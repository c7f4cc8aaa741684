"""High-score initials: three letters A-Z (:class:`InitialsInput`, what the initials keypad
holds), and the three-letter words refused as initials (:class:`Blocklist`).

The keypad offers the Latin letters A-Z in every language (arcade style, and one alphabet on the
shared tables), so the list holds English words and the Latin spellings a visitor would type
for Finnish and Russian ones (``HUI``, ``XUY``, ``VIT``, ...), with the usual look-alikes
(C/K/Q, I/J/Y, U/V/Y, X for the Cyrillic Х). It lives in ``assets/blocked_initials.txt`` (one
word a line, ``#`` starts a comment), read defensively: a regular file only, at most
:data:`MAX_BYTES`, UTF-8; a line that is not three letters A-Z is skipped with a warning; a
file that cannot be read at all leaves :data:`CORE`, a built-in list that is always blocked.
The operator adds words in config.toml (``[arcade] blocked_initials``): the arcade's
:class:`Blocklist` (game.arcade.play) holds them beside the list, and the high-score tables and the
keypad ask it. Must not import pygame.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.safe_read import read_bytes

log = logging.getLogger("solitaire.highscores")

BLOCKED_FILE = Path(__file__).resolve().parents[2] / "assets" / "blocked_initials.txt"
MAX_BYTES = 64 * 1024
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
INITIALS_LENGTH = 3

_CORE = (
    # English
    "ASS CNT COK CUM DIC DIK FAG FAP FCK FGT FKU FUC FUK FUQ FUX JIZ KKK KYS NGA NGR NIG SEX SHT"
    " TIT TWT VAG WTF XXX",
    # Finnish (vittu, paska, kyrpä, mulkku, pillu, huora, nussia, kusi, perse)
    "VIT VTU VTN PSK KYR MLK PIL HUO NUS KUS PRS",
    # Russian (хуй, блядь, ебать, пизда, сука, пидор, мудак)
    "HUY HUI HUJ HYI XUY XUI XUJ XYI XYU BLY BLJ BLD EBL EBU EBI EBA PZD PIZ SUK PDR PID MDK",
)
CORE: frozenset[str] = frozenset(word for group in _CORE for word in group.split())


def is_valid_initials(text: object) -> bool:
    """Exactly three letters A-Z (upper case)."""
    return (
        isinstance(text, str) and len(text) == INITIALS_LENGTH and all(ch in LETTERS for ch in text)
    )


def read_words(path: Path = BLOCKED_FILE) -> frozenset[str]:
    """The words of the list file ``path`` with CORE; CORE alone when the file is damaged
    (missing, not a regular file, too large, not UTF-8), with one line in the log."""
    try:
        text = _read(path)
    except (OSError, ValueError) as error:
        log.warning("blocked initials: cannot read %s (%s); using the built-in list", path, error)
        return CORE
    words: set[str] = set()
    bad: list[str] = []
    for line in text.splitlines():
        word = line.partition("#")[0].strip().upper()
        if word and is_valid_initials(word):
            words.add(word)
        elif word:
            bad.append(word[:20])
    if not words:
        log.warning("blocked initials: %s holds no words; using the built-in list", path)
    if bad:
        log.warning(
            "blocked initials: %d lines of %s are not three letters A-Z (first: %r); skipped",
            len(bad),
            path,
            bad[0],
        )
    return CORE | words


def _read(path: Path) -> str:
    """A regular file's text, never blocking on a FIFO or reading past MAX_BYTES."""
    return read_bytes(path, MAX_BYTES).decode("utf-8")  # UnicodeDecodeError is a ValueError


class Blocklist:
    """The refused words: the list file's (``path``, read when first asked), CORE and the
    operator's own ``extra`` (config.toml ``[arcade] blocked_initials``, checked there)."""

    def __init__(self, extra: Iterable[str] = (), path: Path = BLOCKED_FILE) -> None:
        self.path = path
        self.extra = frozenset(w.upper() for w in extra if is_valid_initials(w.upper()))
        self._words: frozenset[str] | None = None  # the file's words and CORE, read once

    def words(self) -> frozenset[str]:
        """Every refused word."""
        if self._words is None:
            self._words = read_words(self.path) | self.extra
        return self._words

    def is_blocked(self, initials: str) -> bool:
        """Whether ``initials`` (any case, spaces around ignored) is a refused word."""
        return initials.strip().upper() in self.words()


def shown_initials(initials: str) -> str:
    """How a table shows an entry's initials: ``---`` for none."""
    return initials or "-" * INITIALS_LENGTH


@dataclass
class InitialsInput:
    """What the initials keypad holds: up to three letters A-Z. The scene shows ``text``
    (padded with ``_``), enables OK when :attr:`ready`, and says so when :attr:`refused`."""

    text: str = ""
    blocked: Blocklist = field(default_factory=Blocklist, repr=False)  # the arcade's

    def type(self, letter: str) -> None:
        """Add ``letter`` (A-Z, any case) if there is room; anything else is ignored."""
        letter = letter.upper()
        if len(letter) == 1 and letter in LETTERS and len(self.text) < INITIALS_LENGTH:
            self.text += letter

    def erase(self) -> None:
        self.text = self.text[:-1]

    @property
    def shown(self) -> str:
        return self.text.ljust(INITIALS_LENGTH, "_")

    @property
    def refused(self) -> bool:
        """Three letters that spell a blocked word (the scene says so; OK stays off)."""
        return len(self.text) == INITIALS_LENGTH and self.blocked.is_blocked(self.text)

    @property
    def ready(self) -> bool:
        return is_valid_initials(self.text) and not self.blocked.is_blocked(self.text)
