"""Court cards drawn procedurally: a half-length figure (king, queen, jack) in the suit's colour,
mirrored top and bottom as on a real card. Drawn at three times the size and smoothed down, so
it is crisp at any card size."""

from __future__ import annotations

import pygame
from pygame import Rect

Color = tuple[int, int, int]
SUPER = 3  # drawn this many times larger, then smoothed down
SKIN = (246, 214, 180)
GOLD = (226, 178, 52)
GOLD_DARK = (150, 108, 24)
HAIR = {11: (120, 72, 30), 12: (196, 132, 40), 13: (236, 236, 236)}  # jack, queen, king
INK = (40, 32, 30)


def court_figure(size: tuple[int, int], rank: int, color: Color, tint: Color) -> pygame.Surface:
    """The framed picture of a jack (11), queen (12) or king (13), ``size`` pixels."""
    w, h = size[0] * SUPER, size[1] * SUPER
    big = pygame.Surface((w, h), pygame.SRCALPHA)
    radius = max(2, w // 14)
    pygame.draw.rect(big, tint, big.get_rect(), border_radius=radius)
    half = pygame.Surface((w, h // 2), pygame.SRCALPHA)
    _half_figure(half, rank, color)
    big.blit(half, (0, 0))
    big.blit(pygame.transform.rotate(half, 180), (0, h - h // 2))
    line = max(1, w // 60)
    pygame.draw.line(big, GOLD_DARK, (w * 0.08, h // 2), (w * 0.92, h // 2), line)
    pygame.draw.rect(big, color, big.get_rect(), max(2, w // 40), border_radius=radius)
    inner = big.get_rect().inflate(-w // 9, -w // 9)
    pygame.draw.rect(big, GOLD, inner, max(1, w // 80), border_radius=max(1, radius // 2))
    return pygame.transform.smoothscale(big, size)


def _half_figure(s: pygame.Surface, rank: int, color: Color) -> None:
    """The upper half: shoulders and robe, head, and what tells the rank (crown, beard, cap)."""
    w, h = s.get_size()
    cx = w / 2
    u = min(w, 1.5 * h)  # the figure's width unit: a wide panel keeps it in proportion
    line = max(1, int(u) // 90)
    light = tuple(min(255, c + (255 - c) * 55 // 100) for c in color)
    # Robe: shoulders down to the middle line, a light stripe, a gold-edged collar.
    robe = [(cx - u * 0.42, h), (cx - u * 0.36, h * 0.74), (cx - u * 0.16, h * 0.66)]
    robe += [(cx + u * 0.16, h * 0.66), (cx + u * 0.36, h * 0.74), (cx + u * 0.42, h)]
    pygame.draw.polygon(s, color, robe)
    stripe = [(cx - u * 0.08, h), (cx - u * 0.05, h * 0.7), (cx + u * 0.05, h * 0.7)]
    pygame.draw.polygon(s, light, [*stripe, (cx + u * 0.08, h)])
    collar = [(cx - u * 0.2, h * 0.68), (cx, h * 0.84), (cx + u * 0.2, h * 0.68), (cx, h * 0.74)]
    pygame.draw.polygon(s, GOLD, collar)
    pygame.draw.polygon(s, GOLD_DARK, collar, line)
    hair = HAIR[rank]
    head_r = h * 0.19
    head_c = (cx, h * 0.5)
    if rank == 12:  # the queen's hair falls to her shoulders
        pygame.draw.ellipse(s, hair, Rect(cx - head_r * 1.45, h * 0.36, head_r * 2.9, h * 0.44))
    pygame.draw.circle(s, SKIN, head_c, head_r)
    pygame.draw.circle(s, INK, head_c, head_r, line)
    mouth = Rect(cx - head_r * 0.35, head_c[1] + head_r * 0.25, head_r * 0.7, head_r * 0.4)
    top = head_c[1] - head_r
    if rank == 13:  # king: a white beard and a tall crown
        beard = [(cx - head_r * 0.95, head_c[1] + head_r * 0.1), (cx, head_c[1] + head_r * 1.7)]
        beard.append((cx + head_r * 0.95, head_c[1] + head_r * 0.1))
        pygame.draw.polygon(s, hair, beard)
        pygame.draw.polygon(s, INK, beard, line)
        pygame.draw.circle(s, SKIN, (cx, head_c[1] - head_r * 0.2), head_r * 0.6)
        _crown(s, cx, top + head_r * 0.25, head_r * 1.0, head_r * 1.0, 3, color)
    else:
        pygame.draw.arc(s, (170, 60, 60), mouth, 3.6, 5.8, line)
    eye_y = head_c[1] - head_r * 0.1  # the eyes last: over the king's beard line too
    for dx in (-0.38, 0.38):
        pygame.draw.circle(s, INK, (cx + dx * head_r, eye_y), max(1.0, head_r * 0.09))
    if rank == 12:  # queen: a low crown with pearls
        _crown(s, cx, top + head_r * 0.2, head_r * 0.95, head_r * 0.65, 5, color, pearls=True)
    elif rank == 11:  # jack: a flat cap with a feather
        cap = Rect(cx - head_r * 1.15, top - head_r * 0.3, head_r * 2.3, head_r * 0.8)
        pygame.draw.ellipse(s, color, cap)
        pygame.draw.ellipse(s, GOLD, cap, line)
        feather = [(cx + head_r * 0.6, top), (cx + head_r * 1.7, top - head_r * 0.75)]
        feather.append((cx + head_r * 0.9, top + head_r * 0.05))
        pygame.draw.polygon(s, light, feather)
        pygame.draw.polygon(s, INK, feather, line)


def _crown(
    s: pygame.Surface,
    cx: float,
    base: float,
    half_w: float,
    tall: float,
    points: int,
    color: Color,
    *,
    pearls: bool = False,
) -> None:
    """A gold crown standing on ``base``, ``points`` tips, a jewel of the suit's colour."""
    left, right = cx - half_w, cx + half_w
    shape = [(left, base)]
    for k in range(points):
        x0 = left + (right - left) * k / points
        x1 = left + (right - left) * (k + 0.5) / points
        shape += [(x0, base - tall * 0.45), (x1, base - tall)]
    shape += [(right, base - tall * 0.45), (right, base)]
    pygame.draw.polygon(s, GOLD, shape)
    pygame.draw.polygon(s, GOLD_DARK, shape, max(1, int(half_w / 14)))
    if pearls:
        for k in range(points):
            x1 = left + (right - left) * (k + 0.5) / points
            pygame.draw.circle(s, (250, 250, 246), (x1, base - tall), max(1.0, half_w * 0.09))
    pygame.draw.circle(s, color, (cx, base - tall * 0.25), max(1.0, half_w * 0.14))
