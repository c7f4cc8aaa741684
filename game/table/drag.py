"""What a gesture in progress holds: the dragged group, and the last tap (for the double tap
that may follow)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from game.table.animation import Pos


@dataclass
class Drag:
    card: Card
    group: tuple[Card, ...]
    grab: tuple[int, int]  # pointer minus the card's corner
    pos: tuple[int, int]
    offsets: tuple[int, ...]  # y of each group card relative to the first
    legal: frozenset[int]  # destinations that take the group

    def corner(self) -> tuple[int, int]:
        """Where the top-left corner of the group's first card is drawn now."""
        return (self.pos[0] - self.grab[0], self.pos[1] - self.grab[1])

    def origin(self) -> dict[Card, Pos]:
        """Where each card of the group is drawn now."""
        x, y = self.pos[0] - self.grab[0], self.pos[1] - self.grab[1]
        pairs = zip(self.group, self.offsets, strict=True)
        return {c: (float(x), float(y + off)) for c, off in pairs}


@dataclass
class LastTap:
    card: Card | None
    acted: bool
