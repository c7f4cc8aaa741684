"""The toast: a short message over the table (a refused move's rule, a hint), drawn once as
an image that the view shows until the scene lets it go."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame
from pygame import Rect

from game.look import ui
from game.look.cards import HIGHLIGHT
from game.look.fonts import font
from game.look.layout import Layout

TOAST_SECONDS = 3.2


@dataclass
class Toast:
    text: str
    until: float
    surface: pygame.Surface
    rect: Rect
    text_size: int = 0


def make_toast(
    text: str, lay: Layout, lowest: int, now: float, avoid: Sequence[Rect] = ()
) -> Toast:
    """``text`` in a box centred under the columns: just under the cards where there is room
    (``lowest``: the bottom of the lowest card; a tall portrait table), else at the bottom;
    when that would cover a rectangle of ``avoid`` (the cards of the move it is about), a banner
    at the top of the screen over the info bar, else wherever it covers the least of them. It
    leaves the table's title readable where it can: beside the columns (landscape), the box is
    no wider than the room left of the title and moves clear of it."""
    # Readable on the panel: at least 3 mm (small cards on a dense portrait panel).
    size = max(13, int(lay.card_h * 0.15), int(3.0 * lay.px_per_mm))
    max_w = min(int(lay.width * 0.8), int(size * 28))
    if lay.title.width and lay.title.left >= lay.columns[-1].right:  # the title beside
        max_w = max(min(max_w, lay.title.left - lay.gap - lay.margin), size * 12)
    lines = ui.wrap(text, max_w - 2 * size, size)
    line_h = font(size).get_linesize()
    w = min(max_w, max(font(size).size(line)[0] for line in lines) + 2 * size)
    h = line_h * len(lines) + size
    surface = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surface, (20, 24, 22, 235), surface.get_rect(), border_radius=size // 2)
    pygame.draw.rect(surface, (*HIGHLIGHT, 255), surface.get_rect(), 2, border_radius=size // 2)
    ui.draw_wrapped(surface, text, Rect(size, size // 2, w - 2 * size, h - size), size)
    area_bottom = lay.column_bottom - lay.margin
    bottom = min(area_bottom, max(lowest + 2 * lay.gap + h, lay.columns[0].bottom))
    row = lay.columns[-1].right - lay.columns[0].left
    centre = lay.columns[0].left + row // 2
    places = [
        surface.get_rect(midbottom=(centre, bottom)),
        surface.get_rect(midtop=(centre, lay.info_bar.top + 2)),
        surface.get_rect(midbottom=(centre, lay.height - lay.margin)),
    ]
    rect = _clear_place([_beside_title(r, lay) for r in places], avoid, lay.title)
    return Toast(text, now + TOAST_SECONDS, surface.convert_alpha(), rect, size)


def _beside_title(rect: Rect, lay: Layout) -> Rect:
    """``rect`` moved sideways clear of the title's room where the screen has room for that
    (a landscape table's title beside the columns), else as it was."""
    title = lay.title
    if not rect.colliderect(title):
        return rect
    left = rect.move(title.left - lay.gap - rect.right, 0)
    if left.left >= lay.margin:
        return left
    right = rect.move(title.right + lay.gap - rect.left, 0)
    return right if right.right <= lay.width - lay.margin else rect


def _clear_place(candidates: list[Rect], avoid: Sequence[Rect], title: Rect) -> Rect:
    """The first candidate that covers nothing of ``avoid`` nor the title, else the first that
    covers nothing of ``avoid``, else the one covering least of it."""

    def covered(rect: Rect) -> int:
        return sum(rect.clip(a).width * rect.clip(a).height for a in avoid)

    clear = [rect for rect in candidates if covered(rect) == 0]
    for rect in clear:
        if not rect.colliderect(title):
            return rect
    return clear[0] if clear else min(candidates, key=covered)
