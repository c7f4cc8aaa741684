"""The mark of a failed save: a small red disk with a white "!" that stays on screen while the
game on the table is not saved (a full or read-only disk), and goes away with the next save
that works. No words, so no language is needed.

The state lives in the session (`Session.save_failed`, set by every autosave); the table's info
bar (`game.table.chrome`) draws the mark with `draw_save_mark` at the bar's left end and keeps
the flag in its cache key, so the bar redraws when a save fails or works again.
"""

from __future__ import annotations

import pygame
from pygame import Rect

MARK_RED = (205, 40, 40)
MARK_INK = (255, 255, 255)


def mark_rect(bar: Rect) -> Rect:
    """Where the mark goes in the info bar: a square of 60 % of its height at its left end."""
    side = max(8, int(bar.height * 0.6))
    return Rect(bar.left + max(2, bar.height // 10), bar.centery - side // 2, side, side)


def draw_save_mark(surface: pygame.Surface, where: Rect, failed: bool) -> Rect | None:
    """Draw the mark in `where` when `failed`; the rectangle drawn, or None."""
    if not failed:
        return None
    radius = max(4, min(where.width, where.height) // 2)
    center = where.center
    pygame.draw.circle(surface, MARK_RED, center, radius)
    pygame.draw.circle(surface, MARK_INK, center, radius, max(1, radius // 6))
    stroke = max(2, radius // 4)
    top = (center[0], center[1] - radius * 5 // 10)
    bottom = (center[0], center[1] + radius * 1 // 10)
    pygame.draw.line(surface, MARK_INK, top, bottom, stroke)
    pygame.draw.circle(
        surface, MARK_INK, (center[0], center[1] + radius * 4 // 10), stroke // 2 + 1
    )
    return Rect(center[0] - radius, center[1] - radius, 2 * radius, 2 * radius)
