"""Where the cards of a game lie on a laid-out table, and which pile a dropped card is over:
pure geometry of (game, layout), worked out once per position. A column the finger works on
may be *held*: its cards stay where they lay while cards leave it (game.table.model), instead
of the column spreading out at once under the finger."""

from __future__ import annotations

from collections.abc import Mapping

from pygame import Rect

from engine import FOUNDATION, Game, Move
from engine.cards import Card
from engine.game import CELL0, EMPTY
from game.look.layout import Layout

Rest = tuple[int, int, bool]  # where a card lies when nothing moves: x, y, face up
Held = Mapping[int, Mapping[Card, int]]  # a held column: the y where each of its cards lay


class Places:
    def __init__(self, game: Game, layout: Layout, held: Held | None = None) -> None:
        self.game = game
        self.layout = layout
        self.held = held or {}
        self._rest: dict[Card, Rest] | None = None

    def column_ys(self, i: int) -> list[int]:
        """The top of each card of column ``i``: where they lay when the column is held and
        has only lost cards since, else as its fan spreads them (Layout.fan_offsets)."""
        game, kept = self.game, self.held.get(i, {})
        col = game.cols[i]
        if col and all(card in kept for card in col):
            ys = [kept[card] for card in col]
            if ys == sorted(ys):
                return ys
        return self.layout.fan_offsets(game.down[i], len(col), i)

    def rest(self) -> dict[Card, Rest]:
        """Where every card lies when nothing moves: (x, y, face up)."""
        if self._rest is None:
            game, lay = self.game, self.layout
            pos: dict[Card, Rest] = {}
            for i, col in enumerate(game.cols):
                ys = self.column_ys(i)
                x = lay.columns[i].x
                for k, card in enumerate(col):
                    pos[card] = (x, ys[k], k >= game.down[i])
            for i, card in enumerate(game.cells):
                if card != EMPTY:
                    pos[card] = (lay.cells[i].x, lay.cells[i].y, True)
            for suit in range(4):
                r = lay.foundations[suit]
                for rank in range(game.found[suit]):
                    pos[suit * 13 + rank] = (r.x, r.y, True)
            self._rest = pos
        return self._rest

    def piles(self) -> dict[Card, int]:
        """Which pile each card is in (column index, FOUNDATION, CELL0 + i)."""
        game = self.game
        where: dict[Card, int] = {}
        for i, col in enumerate(game.cols):
            for card in col:
                where[card] = i
        for i, card in enumerate(game.cells):
            if card != EMPTY:
                where[card] = CELL0 + i
        for suit in range(4):
            for rank in range(game.found[suit]):
                where[suit * 13 + rank] = FOUNDATION
        return where

    def card_rect(self, card: Card) -> Rect:
        x, y, _ = self.rest()[card]
        return Rect(x, y, self.layout.card_w, self.layout.card_h)

    def group_rect(self, card: Card) -> Rect:
        """The area of ``card`` and every card lying on it."""
        pile, pos = self.game.locate(card)
        rect = self.card_rect(card)
        if pile < FOUNDATION:
            for other in self.game.cols[pile][pos + 1 :]:
                rect.union_ip(self.card_rect(other))
        return rect

    def visible_rect(self, card: Card) -> Rect:
        """What shows of ``card``: the whole card, or under other cards of its column the strip
        above the next one (a mark frames only this, never the cards lying on it)."""
        rect = self.card_rect(card)
        pile, pos = self.game.locate(card)
        if pile < FOUNDATION and pos + 1 < len(self.game.cols[pile]):
            above = self.rest()[self.game.cols[pile][pos + 1]][1]
            rect.height = max(0, min(rect.height, above - rect.top))
        return rect

    def dest_rect(self, dest: int) -> Rect:
        """The rectangle that shows a destination: a column's top card (or empty slot), the
        foundations, a free cell."""
        lay = self.layout
        if dest < FOUNDATION:
            col = self.game.cols[dest]
            return self.card_rect(col[-1]) if col else Rect(lay.columns[dest])
        if dest >= CELL0:
            return Rect(lay.cells[dest - CELL0])
        return lay.foundation_zone()

    def target_rect(self, card: Card, dest: int) -> Rect:
        """Where ``card`` would go on ``dest``: the destination, or its suit's foundation."""
        if dest == FOUNDATION:
            return Rect(self.layout.foundations[card // 13])
        return self.dest_rect(dest)

    def move_rect(self, move: Move) -> Rect:
        return self.target_rect(move.card, move.dest)

    def drop_dest(self, rect: Rect) -> int | None:
        """The pile a dragged card at ``rect`` is dropped on: the one it overlaps most."""
        lay = self.layout
        zones: list[tuple[int, Rect]] = [(i, lay.column_zone(i)) for i in range(len(lay.columns))]
        zones.append((FOUNDATION, lay.foundation_zone()))
        zones += [(CELL0 + i, r.inflate(lay.gap, lay.gap)) for i, r in enumerate(lay.cells)]
        best, best_area = None, 0
        for dest, zone in zones:
            clip = zone.clip(rect)
            area = clip.width * clip.height
            if area > best_area:
                best, best_area = dest, area
        return best
