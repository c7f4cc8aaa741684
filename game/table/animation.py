"""Animations as data: a :class:`Tween` glides (and may turn over) one card between two points
with pytweening's easing; the functions here make the tweens of a move, an undo, a refused
drop. The scene advances them with the fixed clock; the view places the sprites from them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytweening

from engine.cards import Card

if TYPE_CHECKING:
    from game.look.layout import Layout
    from game.table.places import Rest

GLIDE_MIN = 0.15
GLIDE_MAX = 0.25
FLIP = 0.2
SHAKE = 0.32  # a refused tap's shake: seconds
SHAKE_SWINGS = 3  # swings to and fro
SHAKE_WIDTH = 0.07  # of a card's width

Pos = tuple[float, float]


@dataclass
class Tween:
    card: Card
    start: Pos
    end: Pos
    t0: float
    duration: float
    flip: int = 0  # +1 turns face up, -1 turns face down, 0 none
    z: int = 0
    wobble: float = 0.0  # a shake: the sideways swing in pixels, dying away
    shift: bool = False  # a card that stays in its column while the fan's gaps change

    def progress(self, now: float) -> float:
        if self.duration <= 0:
            return 1.0
        return min(1.0, max(0.0, (now - self.t0) / self.duration))

    def position(self, now: float) -> Pos:
        if self.wobble:
            t = self.progress(now)
            dx = self.wobble * math.sin(2 * math.pi * SHAKE_SWINGS * t) * (1 - t)
            return (self.start[0] + dx, self.start[1])
        t = pytweening.easeOutCubic(self.progress(now))
        return (
            self.start[0] + (self.end[0] - self.start[0]) * t,
            self.start[1] + (self.end[1] - self.start[1]) * t,
        )

    def done(self, now: float) -> bool:
        return now >= self.t0 + self.duration


def glide_time(start: Pos, end: Pos, layout: Layout) -> float:
    """Longer glides take a little longer (at most GLIDE_MAX, over half the table)."""
    dist = math.hypot(end[0] - start[0], end[1] - start[1])
    span = math.hypot(layout.width, layout.height) / 2
    return GLIDE_MIN + (GLIDE_MAX - GLIDE_MIN) * min(1.0, dist / span)


def change_tweens(
    before: dict[Card, Rest],
    piles_before: dict[Card, int],
    after: dict[Card, Rest],
    piles_after: dict[Card, int],
    origin: dict[Card, Pos],
    now: float,
    layout: Layout,
) -> list[Tween]:
    """Glide every card whose pile changed from where it was (or from ``origin``: a dragged
    card) to its new place, and turn over every card whose face
    changed. Cards that stay in their column while its fan opens or closes glide too (a
    ``shift``, listed last; the view lays shifts under every other card that moves)."""
    tweens: list[Tween] = []
    shifts: list[Tween] = []
    for card, (x, y, up) in after.items():
        bx, by, bup = before[card]
        start = origin.get(card, (float(bx), float(by)))
        end = (float(x), float(y))
        moved = piles_before[card] != piles_after[card]
        flip = 0 if up == bup else (1 if up else -1)
        if moved or flip:
            duration = glide_time(start, end, layout) if moved else FLIP
            if flip and moved:
                duration = max(duration, FLIP)
            tweens.append(Tween(card, start, end, now, duration, flip))
        elif start != end:
            shifts.append(Tween(card, start, end, now, glide_time(start, end, layout), shift=True))
    for z, tween in enumerate([*tweens, *shifts], 1):
        tween.z = z
    return tweens + shifts


def glide_on(running: list[Tween], new: list[Tween], now: float) -> list[Tween]:
    """The ``new`` tweens of a change made while ``running`` ones still glide (Finish plays
    its moves a few hundredths of a second apart): a card already gliding sets off again from
    where it is drawn now, and the new glides lie over the running ones (one tween a card)."""
    drawn = {t.card: t.position(now) for t in running if not t.wobble}
    for tween in new:
        tween.start = drawn.get(tween.card, tween.start)
    cards = {t.card for t in new}
    tweens = sorted((t for t in running if t.card not in cards), key=lambda t: t.z) + new
    for z, tween in enumerate(tweens, 1):
        tween.z = z
    return tweens


def fly_back(
    group: tuple[Card, ...],
    origin: dict[Card, Pos],
    rest: dict[Card, Rest],
    now: float,
    layout: Layout,
) -> list[Tween]:
    """A refused (or nowhere) drop: the group flies back to where it lies."""
    tweens = []
    for z, card in enumerate(group):
        x, y, _ = rest[card]
        start, end = origin[card], (float(x), float(y))
        tweens.append(Tween(card, start, end, now, glide_time(start, end, layout), 0, z))
    return tweens


def shake(cards: list[Card], rest: dict[Card, Rest], now: float, layout: Layout) -> list[Tween]:
    """A refusal: ``cards`` (bottom to top of their pile) swing sideways a few times where
    they lie, dying away."""
    width = max(3.0, layout.card_w * SHAKE_WIDTH)
    tweens = []
    for z, card in enumerate(cards):
        x, y, _ = rest[card]
        at = (float(x), float(y))
        tweens.append(Tween(card, at, at, now, SHAKE, 0, z + 1, width))
    return tweens
