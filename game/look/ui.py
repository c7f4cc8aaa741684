"""Small drawing helpers shared by the table and the dialogs: text that fits, wrapped text,
buttons, panels, switches and the button icons; a dialog's controls."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TypedDict

import pygame
from pygame import Rect

from game.look.fonts import font
from game.look.typeset import NBSP, SHY, bind, keep_last_sentence, mend_last_line

INK = (245, 245, 240)
INK_DIM = (190, 205, 195)
PANEL = (24, 44, 34)
PANEL_EDGE = (120, 170, 130)
BUTTON = (44, 84, 60)
BUTTON_ON = (226, 184, 64)
BUTTON_TEXT_ON = (30, 30, 20)
BUTTON_OFF = (58, 70, 64)
STACKED_LABEL = 0.26  # the largest label under an icon, of the button's height
ERROR = (255, 140, 120)

Color = tuple[int, int, int]


class Extra(TypedDict, total=False):
    """What some controls carry besides their label: ``center`` (a text centred),
    ``help_lines`` and ``help_size`` (a switch's help under it, as set), ``lead`` (the name a
    help band's text is about), ``height`` (a volume bar's, 0..1), ``split`` (a button's
    label set in two lines at its " · ", as its row's others are)."""

    center: bool
    help_lines: list[str]
    help_size: int
    lead: str
    height: float
    split: bool


@dataclass
class Control:
    """One thing on a dialog's panel (game.scenes.dialog.Dialog draws and taps it)."""

    rect: Rect
    label: str
    action: Callable[[], object] | None = None  # what a tap does (its value unused)
    kind: str = "button"  # button, switch, label, title, text, field, error
    selected: bool = False
    enabled: bool = True
    size: int = 0
    name: str = ""
    extra: Extra = field(default_factory=lambda: Extra())


def fit_text(
    text: str, max_w: int, size: float, color: Color = INK, bold: bool = False, min_size: int = 9
) -> pygame.Surface:
    """``text`` at ``size`` or smaller so that it is at most ``max_w`` wide."""
    size = max(min_size, int(size))
    while True:
        surface = font(size, bold).render(text, True, color)
        if surface.get_width() <= max_w or size <= min_size:
            return surface
        size = max(min_size, int(size * 0.9))


# A lone one where a line breaks goes: the break separates. Only "·": a dash in a sentence
# is a word of it and stays, at the end of the line before the break (game.look.typeset.bind).
SEPARATORS = ("·",)


def wrap(text: str, max_w: int, size: int, bold: bool = False) -> list[str]:
    """Words into lines no wider than ``max_w``; explicit newlines are kept. Lines break at
    plain spaces only, never where :func:`game.look.typeset.bind` says they must not (before a
    dash, after a short Russian preposition, between a number and its unit, inside a game's
    name that fits in ``max_w``) unless a bound group is wider than a line (:func:`unbind`),
    and a paragraph's last word is not left alone on its line where a narrower setting in as
    many lines avoids it (:func:`game.look.typeset.mend_last_line`), nor a short last sentence
    parted at the last break (:func:`game.look.typeset.keep_last_sentence`). A separator
    ("a · b") that falls where a line breaks is left out, never dangling at a line's end."""
    f = font(size, bold)

    def width_of(line: str) -> int:
        return f.size(line)[0]

    def set_lines(para: str, width: int) -> list[str]:
        # A bound group is broken only where it is wider than the whole line, not in the
        # narrower settings that mend_last_line and keep_last_sentence try.
        words = [piece for word in para.split(" ") for piece in unbind(word, max_w, width_of)]
        lines: list[str] = []
        line = ""
        for word in words:
            trial = f"{line} {word}" if line else word
            if width_of(trial) <= width or not line:
                line = trial
            else:
                head, _, last = line.rpartition(" ")
                lines.append(head if head and last in SEPARATORS else line)
                line = "" if word in SEPARATORS else word
        lines.append(line)
        return lines

    lines: list[str] = []
    for para in bind(text, lambda name: width_of(name) <= max_w).split("\n"):
        shown = set_lines(para, max_w)
        mended = mend_last_line(shown, max_w, partial(set_lines, para), width_of)
        mended = keep_last_sentence(para, mended, max_w, set_lines, width_of)
        lines += [drop_separator(line) for line in mended] if mended is not shown else shown
    return lines


def unbind(word: str, width: int, width_of: Callable[[str], int]) -> list[str]:
    """``word`` (words bound by no-break spaces) as one piece where it fits in ``width``, else
    broken at its no-break spaces into as few pieces as fill the lines: a rule of
    :func:`game.look.typeset.bind` gives way rather than a line running past its edge."""
    if NBSP not in word or width_of(word) <= width:
        return [word]
    parts = word.split(NBSP)
    pieces = [parts[0]]
    for part in parts[1:]:
        trial = f"{pieces[-1]}{NBSP}{part}"
        if width_of(trial) <= width:
            pieces[-1] = trial
        else:
            pieces.append(part)
    return pieces


def drop_separator(line: str) -> str:
    """``line`` without a separator left at its end or start by a word moved down."""
    for sep in SEPARATORS:
        if line.endswith(f" {sep}"):
            line = line[: -len(sep) - 1]
        if line.startswith(f"{sep} "):
            line = line[len(sep) + 1 :]
    return line


def draw_wrapped(
    surface: pygame.Surface,
    text: str,
    rect: Rect,
    size: int,
    color: Color = INK,
    *,
    bold: bool = False,
    center: bool = False,
    min_size: int = 9,
) -> int:
    """Wrap ``text`` into ``rect``, shrinking the font until it fits; returns the height used."""
    size = int(size)
    while True:
        lines = wrap(text, rect.width, size, bold)
        line_h = font(size, bold).get_linesize()
        if line_h * len(lines) <= rect.height or size <= min_size:
            break
        size = max(min_size, int(size * 0.9))
    y = rect.top
    for line in lines:
        img = font(size, bold).render(line, True, color)
        x = rect.centerx - img.get_width() // 2 if center else rect.left
        surface.blit(img, (x, y))
        y += line_h
    return y - rect.top


def panel(surface: pygame.Surface, rect: Rect, radius: int = 12, alpha: int = 250) -> None:
    box = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(box, (*PANEL, alpha), box.get_rect(), border_radius=radius)
    pygame.draw.rect(box, (*PANEL_EDGE, 255), box.get_rect(), 2, border_radius=radius)
    surface.blit(box, rect.topleft)


def button(
    surface: pygame.Surface,
    rect: Rect,
    label: str,
    *,
    selected: bool = False,
    enabled: bool = True,
    pressed: bool = False,
    size: int | None = None,
    icon: str = "",
    flat: bool = False,
    split: bool = False,
) -> None:
    """A rounded button with a label (and a drawn icon above it when ``icon`` is given);
    ``flat``: only the icon and the label, dimmed on the felt (a picture of the button);
    ``split``: the label in two lines at its " · " (:func:`label_lines`)."""
    radius = max(4, min(rect.width, rect.height) // 6)
    fill = BUTTON_ON if selected else (BUTTON if enabled else BUTTON_OFF)
    if pressed:
        fill = (min(255, fill[0] + 40), min(255, fill[1] + 40), min(255, fill[2] + 40))
    if not flat:
        shade = Rect(rect.left, rect.top + 2, rect.width, rect.height)
        pygame.draw.rect(surface, (0, 0, 0, 60), shade, border_radius=radius)
        pygame.draw.rect(surface, fill, rect, border_radius=radius)
        edge = (255, 240, 190) if selected else (110, 160, 125)
        pygame.draw.rect(surface, edge, rect, 1, border_radius=radius)
    color = BUTTON_TEXT_ON if selected else (INK if enabled else (140, 150, 145))
    if flat:
        color = INK_DIM if enabled else (120, 140, 128)
    text_size = size or max(11, int(min(rect.height * 0.34, rect.width * 0.16)))
    if icon and rect.height > rect.width * 0.55:
        size = int(min(text_size, rect.height * STACKED_LABEL))
        lines = wrap(label, rect.width - 6, size)
        if len(lines) == 1 or max(font(size).size(line)[0] for line in lines) > rect.width - 6:
            lines = [label]  # one line, shrunk to fit
        line_h = font(size).get_linesize()
        bottom = min(rect.top + rect.height * 0.78 + line_h / 2, rect.bottom - 2)
        y = bottom - line_h * (len(lines) - 0.5)  # the centre of the first line
        # The icon above the label's lines, in the room they leave (at most 0.42 of the height).
        icon_bottom = min(rect.top + int(rect.height * 0.59), int(y - 0.5 * line_h) - 2)
        side = int(min(rect.height * 0.42, icon_bottom - rect.top - rect.height * 0.1))
        icon_box = Rect(0, 0, side, side)
        icon_box.midbottom = (rect.centerx, icon_bottom)
        draw_icon(surface, icon, icon_box, color)
        for line in lines:
            label_img = fit_text(line, rect.width - 6, size, color)
            surface.blit(label_img, label_img.get_rect(center=(rect.centerx, int(y))))
            y += line_h
        return
    if icon:  # the icon beside the label: one line, or two where it is too wide for one
        side = int(rect.height * 0.5)
        room = rect.width - side - 18
        images = [
            fit_text(line, room, text_size, color)
            for line in label_lines(label, room, rect.height, text_size)
        ]
        total = side + 8 + max(image.get_width() for image in images)
        left = rect.centerx - total // 2
        draw_icon(surface, icon, Rect(left, rect.centery - side // 2, side, side), color)
        line_h = font(text_size).get_linesize()
        top = rect.centery - line_h * len(images) / 2
        for k, image in enumerate(images):
            middle = (left + side + 8, round(top + line_h * (k + 0.5)))
            surface.blit(image, image.get_rect(midleft=middle))
        return
    lines = label_lines(label, rect.width - 10, rect.height, text_size, split=split)
    line_h = font(text_size).get_linesize()
    top = rect.centery - line_h * len(lines) / 2
    for k, line in enumerate(lines):
        label_img = fit_text(line, rect.width - 10, text_size, color)
        center = (rect.centerx, round(top + line_h * (k + 0.5)))
        surface.blit(label_img, label_img.get_rect(center=center))


def label_lines(
    label: str, width: int, height: int, size: int, *, split: bool = False
) -> list[str]:
    """A button label as one line, or as two when it is too wide (or ``split`` says so, for a
    label with a " · ") and the button is tall enough: split at " · " when there is one, else
    between words (a game's name kept whole where it fits). A lone word is never split: it
    shrinks to fit (the row gives it room first, game.scenes.dialog.Dialog.row)."""
    f = font(size)
    plain = label.replace(SHY, "")
    if height < f.get_linesize() * 2 + 4:
        return [plain]
    if " · " in plain and (split or f.size(plain)[0] > width):
        first, _, second = plain.partition(" · ")
        return [first, second]
    if f.size(plain)[0] <= width:
        return [plain]
    words = bind(plain, lambda name: f.size(name)[0] <= width).split(" ")
    if len(words) < 2:
        return [plain]
    best = min(
        range(1, len(words)),
        key=lambda k: max(f.size(" ".join(words[:k]))[0], f.size(" ".join(words[k:]))[0]),
    )
    return [" ".join(words[:best]), " ".join(words[best:])]


def label_size(labels: list[str], width: int, height: int, size: int, floor: int = 11) -> int:
    """The largest text size up to ``size`` at which every label fits its button (on one line
    or two): buttons side by side share one size."""
    while size > floor:
        f = font(size)
        if all(
            f.size(line)[0] <= width
            for label in labels
            for line in label_lines(label, width, height, size)
        ):
            break
        size -= 1
    return size


def switch(surface: pygame.Surface, rect: Rect, on: bool) -> None:
    """An on/off switch drawn in ``rect`` (about twice as wide as tall)."""
    radius = rect.height // 2
    pygame.draw.rect(surface, BUTTON_ON if on else (90, 100, 95), rect, border_radius=radius)
    knob_r = radius - max(2, rect.height // 10)
    cx = rect.right - radius if on else rect.left + radius
    pygame.draw.circle(surface, (250, 250, 245), (cx, rect.centery), knob_r)


def draw_icon(surface: pygame.Surface, name: str, box: Rect, color: Color) -> None:
    """Simple line icons: new (a fanned pair of cards), undo (a curved arrow), redo (undo's
    arrow mirrored), hint (a bulb), settings (a cog), finish (fast forward: two triangles)."""
    w = max(2, box.width // 9)
    cx, cy = box.center
    r = box.width // 2
    if name == "new":
        back = Rect(0, 0, int(r * 1.1), int(r * 1.5))
        back.center = (cx - r // 4, cy - r // 8)
        front = back.move(r // 2, r // 4)
        pygame.draw.rect(surface, color, back, w, border_radius=max(2, r // 6))
        pygame.draw.rect(surface, color, front, border_radius=max(2, r // 6))
    elif name == "undo":
        arc = Rect(0, 0, int(r * 1.6), int(r * 1.6))
        arc.center = (cx + r // 8, cy + r // 6)
        pygame.draw.arc(surface, color, arc, -math.pi * 0.6, math.pi * 0.95, w)
        tip = (arc.left + w // 2, arc.centery - r // 8)
        pygame.draw.polygon(
            surface,
            color,
            [(tip[0] - r // 2, tip[1]), (tip[0] + r // 2, tip[1]), (tip[0], tip[1] + r // 2)],
        )
    elif name == "redo":  # undo's arrow, mirrored
        mirror = pygame.Surface(box.size, pygame.SRCALPHA)
        draw_icon(mirror, "undo", mirror.get_rect(), color)
        surface.blit(pygame.transform.flip(mirror, True, False), box)
    elif name == "hint":
        pygame.draw.circle(surface, color, (cx, cy - r // 5), int(r * 0.62), w)
        base = Rect(0, 0, int(r * 0.6), int(r * 0.4))
        base.midtop = (cx, cy + int(r * 0.42))
        pygame.draw.rect(surface, color, base, border_radius=max(1, r // 8))
    elif name == "finish":
        for dx in (-r * 0.55, r * 0.3):
            left = cx + dx
            top, bottom = cy - r * 0.62, cy + r * 0.62
            pygame.draw.polygon(surface, color, [(left, top), (left + r * 0.8, cy), (left, bottom)])
    elif name == "settings":
        teeth = 8
        outer, inner = r * 0.95, r * 0.68
        points = []
        for k in range(teeth * 2):
            angle = math.pi * k / teeth
            radius = outer if k % 2 == 0 else inner
            for da in (-0.18, 0.18):
                points.append(
                    (cx + radius * math.cos(angle + da), cy + radius * math.sin(angle + da))
                )
        pygame.draw.polygon(surface, color, points)
        pygame.draw.circle(surface, PANEL, (cx, cy), int(r * 0.3))


def _lead_in(text: str) -> tuple[str, str]:
    """The lead-in of a rules paragraph (``Goal:``, ``Цель —``): up to a colon or a dash in the
    first few words, else nothing."""
    for mark in (":", " —"):
        at = text.find(mark)
        if 0 < at <= 32 and text[:at].count(" ") <= 3:
            end = at + len(mark)
            return text[:end], text[end:]
    return "", text


def paragraph_lines(para: str, width: int, size: int) -> list[list[tuple[str, bool, int]]]:
    """A rules paragraph set in lines ``width`` wide after a bullet's hanging indent: each
    line's words as (word, in bold, x). Lines break at plain spaces only: a no-break space
    keeps "6,5 %" and "30 s" together, and game.look.typeset.bind puts one wherever a typesetter
    would."""
    regular, bold = font(size), font(size, True)
    indent = regular.size("•  ")[0]
    space = regular.size(" ")[0]
    lead, rest = _lead_in(para)

    def fits(name: str) -> bool:
        return indent + bold.size(name)[0] <= width

    words = [(w, True) for w in bind(lead, fits).split(" ") if w] + [
        (w, False) for w in bind(rest, fits).split(" ") if w
    ]
    lines: list[list[tuple[str, bool, int]]] = [[]]
    x = indent
    for word, is_bold in words:
        w = (bold if is_bold else regular).size(word)[0]
        if x > indent and x + w > width:
            x = indent
            lines.append([])
        lines[-1].append((word, is_bold, x))
        x += w + space
    return lines


def paragraphs_image(
    paragraphs: list[str], width: int, size: int, color: Color = INK
) -> tuple[pygame.Surface, int]:
    """Paragraphs as one tall transparent image ``width`` wide, each a bullet with a hanging
    indent and its lead-in in bold (:func:`paragraph_lines`); returns the image and the line
    height. Drawn once, then scrolled (the rules screen)."""
    regular, bold = font(size), font(size, True)
    line_h = regular.get_linesize()
    placed: list[tuple[pygame.Surface, int, int]] = []
    y = 0
    for para in paragraphs:
        placed.append((regular.render("•", True, color), 0, y))
        for line in paragraph_lines(para, width, size):
            for word, is_bold, x in line:
                placed.append(((bold if is_bold else regular).render(word, True, color), x, y))
            y += line_h
        y += line_h // 2
    surface = pygame.Surface((width, max(1, y - line_h // 2)), pygame.SRCALPHA)
    surface.fill((*color, 0))  # transparent in the text's colour: clean antialiased edges
    for image, x, top in placed:
        surface.blit(image, (x, top))
    return surface, line_h
