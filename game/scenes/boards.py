"""The attract screen's boards between the demo games: today's best, the all-time best (the
high-score tables of game.arcade.highscores) and how to play. Each board is a panel drawn once into
an
image, with the texts it shows (the scripted player reports them)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame
from pygame import Rect

from engine.rules import Rules
from game import rulesets
from game.arcade.highscores import ALL_TIME, Entry
from game.arcade.initials import shown_initials
from game.arcade.levels import LEVELED
from game.arcade.play import Arcade
from game.clock import format_clock
from game.i18n import Translator
from game.look import ui
from game.look.fonts import font


@dataclass
class Board:
    image: pygame.Surface
    texts: list[str]
    marked: int | None = None  # the marked row's place in ``texts`` (the win just entered)
    row_h: int = 0  # a score board's row height, pixels
    text_size: int = 0  # and its rows' text size


FEW = 5  # a table of fewer wins has rows as high as one of this many
EDGES = (0.1, 0.42, 0.64, 0.82, 1.0)  # the columns' right edges, as fractions of the width
KIOSK_EDGES = (0.1, 0.26, 0.55, 0.7, 0.85, 1.0)  # with the kiosk's name after the initials
MARKED_BAND = (74, 64, 26)  # under the row of the win just entered, outlined in BUTTON_ON


def _panel(
    size: tuple[int, int], panel: tuple[int, int] | None = None
) -> tuple[pygame.Surface, Rect, int]:
    """A transparent surface for a board's content on a screen of ``size`` (or of the given
    ``panel`` size), the area to fill and the base text size (:func:`_finish` puts the panel
    under what was drawn)."""
    w, h = size
    pw, ph = int(min(w * 0.92, max(w * 0.6, h * 1.3))), int(h * 0.74 if h < w else h * 0.6)
    if panel is not None:
        pw, ph = panel
    surface = pygame.Surface((pw, ph), pygame.SRCALPHA)
    unit = max(14, int(min(pw / 24, ph / 13)))
    return surface, surface.get_rect().inflate(-2 * unit, -2 * unit), unit


def _finish(content: pygame.Surface, bottom: int, unit: int) -> pygame.Surface:
    """The panel, only as tall as the content that ends at ``bottom``, with the content on it."""
    height = min(content.get_height(), bottom + unit)
    surface = pygame.Surface((content.get_width(), height), pygame.SRCALPHA)
    ui.panel(surface, surface.get_rect(), radius=max(8, unit // 2), alpha=245)
    surface.blit(content, (0, 0))
    return surface


def _header_height(unit: int, scale: float = 1.0) -> int:
    """The height :func:`_header` takes."""
    big, small = int(unit * 1.2 * scale), int(unit * 0.9 * scale)
    return font(big, True).get_height() + unit // 6 + font(small).get_height() + unit // 2


def _header(
    surface: pygame.Surface, inner: Rect, unit: int, title: str, subtitle: str, scale: float = 1.0
) -> int:
    """The title and a line under it (``scale``: smaller, for a long table on a short
    screen); returns the y below them."""
    # Each line takes the height of its full size, shrunk to fit or not: the rows below stay
    # where they are from one board to the next.
    big, small = unit * 1.2 * scale, unit * 0.9 * scale
    image = ui.fit_text(title, inner.width, big, ui.BUTTON_ON, bold=True)
    band = font(int(big), True).get_height()
    surface.blit(image, image.get_rect(center=(inner.centerx, inner.top + band // 2)))
    y = inner.top + band + unit // 6
    line = ui.fit_text(subtitle, inner.width, small, ui.INK_DIM)
    band = font(int(small)).get_height()
    surface.blit(line, line.get_rect(center=(inner.centerx, y + band // 2)))
    return y + band + unit // 2


def score_board(
    size: tuple[int, int],
    tr: Translator,
    *,
    title: str,
    subtitle: str,
    entries: list[Entry],
    empty: str,
    rows: int = 10,
    panel: tuple[int, int] | None = None,
    least: int = 10,
    mark: Entry | None = None,
    steady: bool = False,
    kiosks: bool = False,
) -> Board:
    """A high-score table: place, initials, time, moves (side by side: a won Russian deal
    always scores 625, so time and moves rank it), score (``kiosks``: the venue's table, the
    kiosk each was won on after the initials); ``empty`` when it has none. Its text
    is never smaller than ``least`` (the table's info bar's text size). The row of ``mark`` (the
    win just entered) is marked: a gold-edged band and a pointer beside it. A ``steady`` board
    (the pages of the high scores) has the size of a full table whatever it holds, so that
    paging never moves or resizes it; its rows take the room a few of them leave, so that a
    table of a few wins reads large, and a full one as large as fits."""
    surface, inner, unit = _panel(size, panel)
    # A full table's rows short of a finger's height on this screen: a smaller header (on
    # every page alike, so that paging moves nothing) leaves them more room.
    short = steady and (inner.height - _header_height(unit)) / (rows + 1) < unit * 0.9
    y = _header(surface, inner, unit, title, subtitle, 0.75 if short else 1.0)
    texts = [title, subtitle]
    shown = entries[:rows]

    room = inner.bottom - y

    def row_height(count: int) -> int:
        line_h = min(int(unit * 1.5), room // (count + 1))
        return max(line_h, math.ceil(least / 0.7))

    full = y + (rows + 1) * row_height(rows) if steady else 0  # a full table's bottom
    if not entries:
        y += unit
        y += ui.draw_wrapped(
            surface, empty, Rect(inner.left, y, inner.width, inner.bottom - y), int(unit * 1.1),
            ui.INK, center=True,
        )  # fmt: skip
        return Board(_finish(surface, max(y + unit, full), unit), [*texts, empty])
    line_h = row_height(max(len(shown), min(rows, FEW)))
    text_size = max(least, int(line_h * 0.7))
    # Columns: place | initials | (kiosk |) time | moves | score, as fractions of the width
    # (right edges); initials and the kiosk read from the left.
    edges = KIOSK_EDGES if kiosks else EDGES
    names = ("head_name", *(("head_kiosk",) if kiosks else ()), "head_time", "head_moves")
    head: tuple[str, ...] = ("", *(tr(f"arcade.{name}") for name in (*names, "head_score")))

    # The kiosks' names at one size, the largest at which the longest fits (never a short
    # name large beside a long one shrunk).
    column = int(inner.width * edges[2]) - int(inner.width * edges[1]) - unit // 2
    kiosk_size = text_size
    places = [getattr(entry, "kiosk", "") for entry in shown] if kiosks else []
    while kiosks and kiosk_size > least:
        if all(font(kiosk_size, True).size(name)[0] <= column for name in places):
            break
        kiosk_size -= 1

    def put(cells: tuple[str, ...], top: int, color: ui.Color, bold: bool, size: int) -> None:
        for k, (text, edge) in enumerate(zip(cells, edges, strict=True)):
            left = inner.left + int(inner.width * (edges[k - 1] if k else 0.0))
            right = inner.left + int(inner.width * edge)
            cell = min(size, kiosk_size) if kiosks and k == 2 else size
            image = ui.fit_text(text, right - left - unit // 2, cell, color, bold=bold)
            place = image.get_rect(midright=(right - unit // 4, top + line_h // 2))
            if k == 1 or (kiosks and k == 2):  # names read from the left
                place.midleft = (left + (unit if k == 1 else unit // 4), top + line_h // 2)
            surface.blit(image, place)

    put(head, y, ui.INK_DIM, False, max(least, int(text_size * 0.8)))
    y += line_h
    marked = None
    for place, entry in enumerate(shown, 1):
        cells: tuple[str, ...] = (f"{place}.", shown_initials(entry.initials))
        cells += (getattr(entry, "kiosk", ""),) if kiosks else ()
        cells += (format_clock(entry.seconds), str(entry.moves), str(entry.score))
        band = Rect(inner.left, y, inner.width, line_h)
        if mark is not None and entry.same_win(mark):
            marked = len(texts)
            _mark_row(surface, band, unit)
        elif place % 2:
            pygame.draw.rect(surface, (34, 60, 46), band, border_radius=unit // 3)
        bold = place == 1 or marked == len(texts)
        put(cells, y, ui.BUTTON_ON if place == 1 else ui.INK, bold, text_size)
        texts.append(" ".join(cells))
        y += line_h
    return Board(_finish(surface, max(y, full), unit), texts, marked, line_h, text_size)


def _mark_row(surface: pygame.Surface, band: Rect, unit: int) -> None:
    """The row of the win just entered: a band edged in gold, a gold pointer left of it."""
    pygame.draw.rect(surface, MARKED_BAND, band, border_radius=unit // 3)
    pygame.draw.rect(surface, ui.BUTTON_ON, band, max(2, unit // 8), border_radius=unit // 3)
    tip, half, y = band.left - unit // 6, max(4, min(unit // 3, band.height // 3)), band.centery
    points = [(tip - half, y - half), (tip, y), (tip - half, y + half)]
    pygame.draw.polygon(surface, ui.BUTTON_ON, points)


def howto_board(size: tuple[int, int], tr: Translator, rules: Rules) -> Board:
    """How to play the kiosk's game: its goal, how cards build, the gestures, today's deal."""
    surface, inner, unit = _panel(size)
    title = tr("arcade.howto_title")
    subtitle = rulesets.game_name(tr, rules.game)
    y = _header(surface, inner, unit, title, subtitle)
    body = tr.paragraphs(f"rules.{rules.game}.body", undo="")
    paragraphs = [body[0], body[2], tr("table.first_time"), tr("arcade.howto_daily")]
    text_size = int(unit * 0.95)
    while True:
        image, _ = ui.paragraphs_image(paragraphs, inner.width, text_size)
        if image.get_height() <= inner.bottom - y or text_size <= 10:
            break
        text_size = max(10, int(text_size * 0.92))
    surface.blit(image, (inner.left, y))
    return Board(_finish(surface, y + image.get_height(), unit), [title, subtitle, *paragraphs])


def rule_set_board(
    size: tuple[int, int],
    tr: Translator,
    arcade: Arcade,
    rules_key: str,
    showing: str,
    *,
    panel: tuple[int, int] | None = None,
    least: int = 10,
    mark: Entry | None = None,
    steady: bool = False,
    level: str | None = None,
    venue: bool = False,
) -> Board:
    """Today's table (``showing`` "today") or the all-time table ("all") of a rule set, of
    ``level`` (game.arcade.levels; None: every level), this kiosk's or (``venue``, when the
    arcade has a venue) the whole venue's, with the kiosk of each row and the venue's name; the
    row of ``mark`` marked when it is there (``steady``: see :func:`score_board`)."""
    name = tr(f"stats.{rules_key}")
    board = arcade.venue if venue else None
    where = f"{board.venue_name} · " if board is not None else ""
    day = arcade.today() if showing == "today" else None

    level = None if day is not None else level  # today's table: the day's deal, one level
    if board is None:
        entries = arcade.scores.table(rules_key, day, level)
    else:
        entries = list(board.rows(rules_key, ALL_TIME if day is None else day.isoformat(), level))
    if showing == "today":
        title, empty = tr("arcade.today_title"), tr("arcade.empty_today")
        subtitle = f"{where}{name} · {arcade.code_of_day(rules_key)}"
    else:
        title, empty = tr("arcade.all_title"), tr("arcade.empty_all")
        subtitle = where + (name if level is None else f"{name} · {level_name(tr, level)}")
    return score_board(
        size, tr, title=title, subtitle=subtitle, entries=entries, empty=empty, panel=panel,
        least=least, mark=mark, steady=steady, kiosks=board is not None,
    )  # fmt: skip


def level_name(tr: Translator, level: str) -> str:
    """A deal level in words: "Easy", ..., "Winnable deal", "Random deal"."""
    return tr(f"names.{level}") if level in LEVELED else tr(f"table.deal_{level}")


def shown_level(arcade: Arcade, rules_key: str, chosen: str) -> str:
    """The level whose all-time best to show of ``rules_key`` (the attract screen): ``chosen``
    (the level its New game deals; "any" is "random") when it has wins, else the first level
    that has, else ``chosen``."""
    chosen = "random" if chosen == "any" else chosen
    held = arcade.scores.levels(rules_key)
    return chosen if chosen in held or not held else held[0]
