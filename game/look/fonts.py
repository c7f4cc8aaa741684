"""The shipped DejaVu fonts, read once per file and made once per size, with a stand-in when a
file is missing or damaged (one log line each)."""

from __future__ import annotations

import functools
import io
import logging
from pathlib import Path

import pygame

from engine.cards import SUIT_SYMBOLS
from engine.safe_read import read_bytes, reason

log = logging.getLogger("solitaire.fonts")

FONT_DIR = Path(__file__).resolve().parents[2] / "assets" / "fonts"
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
MAX_FONT_BYTES = 32_000_000


class FontShelf:
    """The font files read (once each) and the fonts made (once per size and weight), with what
    went wrong: one log line for each damaged file until forget() is called."""

    def __init__(self) -> None:
        self.failed: set[Path] = set()  # files already logged as unusable
        self.read_errors: dict[Path, str] = {}  # why a font file could not be read
        self.file = functools.lru_cache(maxsize=2)(self._read)
        self.font = functools.lru_cache(maxsize=64)(self._make)
        self.generation = 0  # one more at each forget(): what was drawn with the fonts is stale

    def _read(self, path: Path) -> bytes | None:
        """The font file's bytes, or None when it cannot be read (the reason kept)."""
        try:
            return read_bytes(path, MAX_FONT_BYTES)
        except OSError as error:
            self.read_errors[path] = reason(error)
            return None

    def _failed(self, path: Path, why: str, instead: str) -> None:
        if path not in self.failed:  # one line per file, not one per size
            self.failed.add(path)
            log.error("font file %s unusable: %s; using %s", path, why, instead)

    def _load(self, path: Path, size: int) -> tuple[pygame.font.Font | None, str]:
        """The font file at ``size`` px, or None and why not."""
        data = self.file(path)
        if data is None:
            return None, self.read_errors.get(path, "cannot be read")
        try:
            made = pygame.font.Font(io.BytesIO(data), size)
            made.size("Ag")  # a damaged file can fail only when it is used
            return made, ""
        except Exception as error:  # pygame.error, ValueError, ...: any damage of the file
            return None, f"not a font ({str(error)[:200]})"

    def _make(self, size: int, bold: bool) -> pygame.font.Font:
        if not pygame.font.get_init():
            pygame.font.init()
        size = max(6, int(size))
        wanted, other = (FONT_BOLD, FONT_REGULAR) if bold else (FONT_REGULAR, FONT_BOLD)
        made, why = self._load(wanted, size)
        if made is not None:
            return made
        stand_in, _ = self._load(other, size)
        if stand_in is not None and has_glyphs(stand_in, SUIT_SYMBOLS):
            self._failed(wanted, why, other.name)
            return stand_in
        self._failed(wanted, why, "pygame's default font")
        return pygame.font.Font(None, size)

    def forget(self) -> None:
        self.generation += 1
        self.font.cache_clear()
        self.file.cache_clear()
        self.failed.clear()
        self.read_errors.clear()


def has_glyphs(made: pygame.font.Font, text: str) -> bool:
    """Whether ``made`` draws every character of ``text`` as itself, not as the box it draws
    for a character it lacks (its glyph for U+FFFF, a non-character)."""

    def look(char: str) -> bytes:
        return pygame.image.tobytes(made.render(char, True, (0, 0, 0)), "RGBA")

    missing = look("\uffff")
    return all(look(char) != missing for char in text)


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The shipped DejaVu font at ``size`` px. When its file is missing or damaged, the other
    shipped font (bold for regular, regular for bold) where it has the suit symbols, else
    pygame's own default font (it has no suit symbols, but the game goes on); one log line
    for each damaged file."""
    return SHELF.font(size, bold)


def forget_fonts() -> None:
    """Read the font files afresh at the next text drawn, and log a damaged one again (after the
    files changed, or FONT_REGULAR / FONT_BOLD were pointed elsewhere)."""
    SHELF.forget()


# The one shelf the game draws its text from (made at import, as pygame's own font module is).
SHELF = FontShelf()
