"""What the table keeps of a gesture in progress: the lifted group of a drag (made by
:func:`lift_drag`), the last tap."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import Game
from engine.cards import Card
from game.table.animation import Pos

if TYPE_CHECKING:
    from game.table.places import Rest


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


def lift_drag(
    game: Game, card: Card, rest: dict[Card, Rest], start: tuple[int, int], pos: tuple[int, int]
) -> Drag:
    """The drag of ``card`` (and the cards on it) picked up at ``start``, now at ``pos``:
    ``Game.lift`` checks the pick-up (IllegalMove when refused), ``Game.targets`` says where
    it may go (placement help)."""
    group = game.lift(card)
    x, y, _ = rest[card]
    offsets = tuple(rest[c][1] - y for c in group)
    legal = frozenset(m.dest for m in game.targets(card))
    return Drag(card, group, (start[0] - x, start[1] - y), pos, offsets, legal)
