"""How the settings dialog draws its own controls: a toggle (its name, its switch and its help
lines), the help band, a step of the volume control and the loudspeaker; and where a toggle's
switch lies in its row (the only part of the row that turns it on or off)."""

from __future__ import annotations

import math

import pygame
from pygame import Rect

from game.look import ui
from game.look.fonts import font
from game.look.typeset import bind, mend_last_line
from game.look.ui import Control

TEXT_INSET = 8  # a switch row's text from its sides (px)
DIVIDER = (46, 72, 58)  # the hairline between two toggles with help
BOLD = "\x01"  # marks a word of the help band's lead while its lines are set


def title_band(size: int) -> int:
    """The height of a switch row's first line: its title at ``size``, the switch beside it."""
    return max(font(size, True).get_linesize(), switch_knob(size)[1])


def switch_knob(title_size: int) -> tuple[int, int]:
    """The on/off switch beside a title of ``title_size``: about as tall as its line."""
    height = max(18, round(title_size * 1.1))
    return round(height * 2.1), height


def switch_layout(c: Control) -> tuple[Rect, int, int]:
    """Where a toggle's parts lie in its row ``c``: its switch, the top of its block (the title's
    line, then its help lines) and the height of the title's line."""
    size, lines = c.size, c.extra.get("help_lines", [])
    # Beside a title with help under it, the switch is as tall as the title's line; alone in
    # its row, it takes 0.6 of the row (up to a 70 px row).
    knob = Rect(0, 0, *switch_knob(size if lines else round(min(c.rect.height, 70) * 0.55)))
    band = title_band(size) if lines else c.rect.height
    line_h = font(c.extra.get("help_size", 0)).get_linesize() if lines else 0
    top = c.rect.centery - (band + line_h * len(lines)) // 2
    knob.midright = (c.rect.right - TEXT_INSET, top + band // 2)
    return knob, top, band


def switch_zone(c: Control) -> Rect:
    """The part of a toggle's row a tap on which turns it on or off: its switch, with a
    margin around it as wide as the switch is tall, from the row's top down to the switch's
    line (a little below it) where help lines follow, else to the row's bottom. The rest of the
    row (its name, its help) only explains it."""
    knob = switch_layout(c)[0]
    left = max(c.rect.left, knob.left - max(2 * TEXT_INSET, knob.height))
    bottom = c.rect.bottom
    if c.extra.get("help_lines"):
        bottom = min(bottom, knob.bottom + max(TEXT_INSET, knob.height // 2))
    return Rect(left, c.rect.top, c.rect.right - left, bottom - c.rect.top)


def paint_switch(screen: pygame.Surface, c: Control, *, pressed: Rect | None) -> None:
    """A toggle: its name in bold with the switch at the right end of the row, and its help
    lines under both, the whole block centred in the row; ``pressed``: the part of the row
    under a finger, lit."""
    if pressed is not None:
        pygame.draw.rect(screen, (60, 100, 75), pressed, border_radius=8)
    size, help_size = c.size, c.extra.get("help_size", 0)
    lines = c.extra.get("help_lines", [])
    if lines:  # a hairline under each toggle with its help: which lines belong to which
        y = c.rect.bottom + 1
        pygame.draw.line(screen, DIVIDER, (c.rect.left + TEXT_INSET, y), (c.rect.right, y))
    knob, top, band = switch_layout(c)
    line_h = font(help_size).get_linesize() if lines else 0
    ui.switch(screen, knob, c.selected)
    text_w = c.rect.width - knob.width - 3 * TEXT_INSET
    title = ui.fit_text(c.label, text_w, size, ui.INK, bold=True)
    screen.blit(title, title.get_rect(midleft=(c.rect.left + TEXT_INSET, top + band // 2)))
    y = top + band
    for line in lines:
        screen.blit(font(help_size).render(line, True, ui.INK_DIM), (c.rect.left + TEXT_INSET, y))
        y += line_h


def paint_help(screen: pygame.Surface, c: Control) -> None:
    """The help band: the name of the toggle last touched in bold, then what it does (its last
    word never alone on a line, game.look.typeset.mend_last_line)."""
    lead, size = c.extra.get("lead", ""), c.size
    # The lead's words carry a mark (BOLD) through the setting: they are drawn in bold.
    words = [BOLD + word for word in bind(f"{lead}:").split(" ")] if lead else []
    words += bind(c.label).split(" ")
    space = font(size).size(" ")[0]

    def word_image(word: str) -> pygame.Surface:
        bold = word.startswith(BOLD)
        color = ui.INK if bold else ui.INK_DIM
        return font(size, bold).render(word.removeprefix(BOLD), True, color)

    def width_of(line: str) -> int:
        bold = [w.startswith(BOLD) for w in line.split(" ")]
        plain = [w.removeprefix(BOLD) for w in line.split(" ")]
        return (
            sum(font(size, b).size(w)[0] + space for w, b in zip(plain, bold, strict=True)) - space
        )

    def set_lines(width: int) -> list[str]:
        lines = [""]
        for word in words:
            trial = f"{lines[-1]} {word}" if lines[-1] else word
            if lines[-1] and width_of(trial) > width:
                lines.append(word)
            else:
                lines[-1] = trial
        return lines

    width = c.rect.width - 2 * TEXT_INSET
    lines = mend_last_line(set_lines(width), width, set_lines, width_of)
    line_h = font(size).get_linesize()
    y = c.rect.centery - line_h * len(lines) // 2
    for line in lines:
        x = c.rect.left + TEXT_INSET
        for word in line.split(" "):
            image = word_image(word)
            screen.blit(image, (x, y))
            x += image.get_width() + space
        y += line_h


def paint_level(screen: pygame.Surface, c: Control, *, pressed: bool) -> None:
    """One step of the volume control: a button with a bar as tall as its loudness, gold up to
    the volume chosen."""
    ui.button(screen, c.rect, "", enabled=c.enabled, pressed=pressed)
    full = c.rect.height * 0.66
    width = round(min(c.rect.width * 0.5, c.rect.height * 0.28))
    height = max(3, round(full * c.extra.get("height", 1.0)))
    bar = Rect(0, 0, width, height)
    bar.midbottom = (c.rect.centerx, round(c.rect.centery + full / 2))
    if c.enabled:
        color = ui.BUTTON_ON if c.selected else (96, 128, 108)
    else:  # sound off: the volume kept for when it comes back, dimmed
        color = (150, 136, 84) if c.selected else (84, 96, 90)
    pygame.draw.rect(screen, color, bar, border_radius=max(2, width // 5))


def paint_speaker(screen: pygame.Surface, box: Rect, color: ui.Color) -> None:
    """A loudspeaker with two sound waves, filling the square ``box``."""
    x, y, s = box.left, box.top, box.width
    body = [(x, y + s * 0.36), (x + s * 0.18, y + s * 0.36), (x + s * 0.44, y + s * 0.12)]
    body += [(x + s * 0.44, y + s * 0.88), (x + s * 0.18, y + s * 0.64), (x, y + s * 0.64)]
    pygame.draw.polygon(screen, color, body)
    width = max(2, round(s / 12))
    for k in (1, 2):
        wave = Rect(0, 0, round(s * 0.5 * k), round(s * 0.5 * k))
        wave.center = (round(x + s * 0.42), box.centery)
        pygame.draw.arc(screen, color, wave, -math.pi * 0.28, math.pi * 0.28, width)


def tap_point(c: Control) -> tuple[int, int]:
    """Where a finger taps control ``c`` to act on it: a toggle on its switch, else the middle."""
    return switch_zone(c).center if c.kind == "switch" else c.rect.center
