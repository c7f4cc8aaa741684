"""The toast: a short message over the table (a refused move's rule, a hint, the start tip, the
indicator's notice), drawn once as an image that the view shows until the scene lets it go.

It goes where it hides nothing (:class:`Room`): over free felt beside the foundations or
under the columns, its clearance kept from every card, never over the info bar or the buttons;
where the box does not fit, it is set narrower (more lines), then in smaller text (never below
SMALLEST_MM); only then over the table's title; only where no size finds
free felt does it cover a card, never one it names or the one under the last touch where any
other place is left."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import pygame
from pygame import Rect

from engine import Game, Move
from engine.cards import Card
from game.look import ui
from game.look.cards import HIGHLIGHT
from game.look.fonts import font
from game.look.layout import Layout
from game.look.typeset import bind
from game.table.around import Toast
from game.table.placement import distance_from
from game.table.places import Places

TOAST_SECONDS = 3.2
SMALLEST = 0.6  # the smallest text a toast shrinks to, of its usual size...
SMALLEST_MM = 2.4  # ...and never smaller than this on the panel
WIDTHS = (1.0, 0.72, 0.5, 0.36)  # narrower boxes tried, of the widest


def toast_size(lay: Layout) -> int:
    """The toast's usual text size: readable on the panel, at least 3 mm (small cards on a
    dense portrait panel), growing with the cards."""
    return max(13, int(lay.card_h * 0.15), int(3.0 * lay.px_per_mm))


def make_toast(text: str, lay: Layout, now: float, room: Room) -> Toast:
    """``text`` in a box in the free room of ``room``: the largest text and the widest box
    that find free felt there clear of the title, else over it; else, at the smallest text,
    the shape and place that cover least (Room.least_covering)."""
    shapes: list[tuple[int, list[str], tuple[int, int]]] = []  # set as far as they are tried
    later = _shapes(text, lay)
    for over_title in (False, True):  # the title hidden only where nothing else is free
        for size, lines, box in itertools.chain(list(shapes), later):
            if not over_title:
                shapes.append((size, lines, box))
            rect = room.free(box, over_title=over_title)
            if rect is not None:
                return _toast(text, size, lines, rect, now)
    least = shapes[-1][0]
    places = [(room.least_covering(box), size, lines) for size, lines, box in shapes]
    rect, size, lines = min((p for p in places if p[1] == least), key=lambda p: room.cost(p[0]))
    return _toast(text, size, lines, rect, now)


def _shapes(text: str, lay: Layout) -> Iterator[tuple[int, list[str], tuple[int, int]]]:
    """Each text size from the usual one down to the smallest, and at each the box set at
    each of WIDTHS: (size, lines, box size); largest text first, widest box first."""
    usual = toast_size(lay)
    least = max(11, round(usual * SMALLEST), int(SMALLEST_MM * lay.px_per_mm))
    size = usual
    seen: set[tuple[int, int]] = set()
    # No box so narrow that a bound group (a game's name, "Tee uudelleen ‑painike") must
    # break, where the widest one holds it.
    groups = bind(text).replace("\n", " ").split(" ")
    while True:
        widest = min(int(lay.width * 0.8), int(size * 28))
        line_h = font(size).get_linesize()
        whole = max(font(size).size(group)[0] for group in groups)
        narrowest = max(size * 11, min(widest, whole + 2 * size))
        for part in WIDTHS:
            max_w = max(int(widest * part), narrowest)
            lines = ui.wrap(text, max_w - 2 * size, size)
            w = min(max_w, max(font(size).size(line)[0] for line in lines) + 2 * size)
            box = (w, line_h * len(lines) + size)
            if (size, box[0]) not in seen:
                seen.add((size, box[0]))
                yield size, lines, box
        if size <= least:
            return
        size = max(least, int(size * 0.88))


def _toast(text: str, size: int, lines: list[str], rect: Rect, now: float) -> Toast:
    return Toast(text, now + TOAST_SECONDS, rect, size, tuple(lines))


class ToastImage:
    """The toast as drawn (the view's): made again only when its words, their setting or its
    box change (one toast at a time)."""

    def __init__(self) -> None:
        self.key: tuple[object, ...] | None = None
        self.image: pygame.Surface | None = None

    @staticmethod
    def key_of(toast: Toast) -> tuple[object, ...]:
        return (toast.text, toast.text_size, toast.lines, tuple(toast.rect))

    def __call__(self, toast: Toast) -> pygame.Surface:
        """The box with its border and its lines, as set (``text_size``, ``lines``)."""
        key, image = self.key_of(toast), self.image
        if image is not None and key == self.key:
            return image
        size = toast.text_size
        image = pygame.Surface(toast.rect.size, pygame.SRCALPHA)
        pygame.draw.rect(image, (20, 24, 22, 235), image.get_rect(), border_radius=size // 2)
        pygame.draw.rect(image, (*HIGHLIGHT, 255), image.get_rect(), 2, border_radius=size // 2)
        text_font = font(size)
        y = size // 2
        for line in toast.lines:
            image.blit(text_font.render(line, True, ui.INK), (size, y))
            y += text_font.get_linesize()
        if pygame.display.get_surface() is not None:
            image = image.convert_alpha()
        self.key, self.image = key, image
        return image


@dataclass(frozen=True)
class Room:
    """What a message box may and may not cover.

    ``felt``: where it may lie at all (under the info bar, inside the screen's margins);
    ``never``: what it must not cover even when nothing else is left (the buttons, the cards
    the message names, the card under the last touch); ``cards``: every card and slot on the
    table (covered only where no size and shape of the box finds free felt); ``title``: the
    table's title (covered only where nothing else is free, but rather than a card);
    ``clearance``: the felt kept between the box and what it avoids (it never touches a card
    it points at); ``home``: where the player looks, the box goes as near it as it can."""

    felt: Rect
    never: tuple[Rect, ...]
    cards: tuple[Rect, ...]
    title: Rect
    clearance: int
    home: tuple[int, int]

    def free(self, size: tuple[int, int], *, over_title: bool = False) -> Rect | None:
        """The place nearest ``home`` for a box of ``size`` that covers no card, slot or
        button (its clearance kept), nor the title unless ``over_title``; None when there is
        none."""
        w, h = size
        if w > self.felt.width or h > self.felt.height:
            return None
        blocks = [r.inflate(2 * self.clearance, 2 * self.clearance) for r in self.blocking()]
        if not over_title:
            blocks.append(self.title)
        places = [Rect(x, y, w, h) for x, y in self._corners(w, h, blocks)]
        free = [box for box in places if box.collidelist(blocks) == -1]
        return min(free, key=self._distance, default=None)

    def least_covering(self, size: tuple[int, int]) -> Rect:
        """Where no free place is left: the place covering least of ``never``, then least of
        the cards, then nearest ``home``."""
        w, h = min(size[0], self.felt.width), min(size[1], self.felt.height)
        boxes = [Rect(x, y, w, h) for x, y in self._corners(w, h, self.blocking())]
        return min(boxes, key=self.cost)  # the felt's own corner is always one

    def cost(self, box: Rect) -> tuple[int, int, float]:
        """What ``box`` covers of ``never`` (and of the clearance around it), of the cards,
        and how far it lies from home."""
        c = 2 * self.clearance
        never = [r.inflate(c, c) for r in self.never]
        return (_covered(box, never), _covered(box, self.cards), self._distance(box))

    def blocking(self) -> tuple[Rect, ...]:
        return (*self.never, *self.cards)

    def _distance(self, box: Rect) -> float:
        return math.hypot(box.centerx - self.home[0], box.centery - self.home[1])

    def _corners(self, w: int, h: int, blocks: Sequence[Rect]) -> list[tuple[int, int]]:
        """The places worth trying: against the felt's edges and each block's, and centred on
        ``home``, inside the felt."""
        felt = self.felt
        xs = {felt.left, felt.right - w, self.home[0] - w // 2}
        ys = {felt.top, felt.bottom - h, self.home[1] - h // 2}
        for r in (*blocks, self.title):
            xs.update((r.right, r.left - w))
            ys.update((r.bottom, r.top - h))
        xs = {x for x in xs if felt.left <= x <= felt.right - w}
        ys = {y for y in ys if felt.top <= y <= felt.bottom - h}
        return [(x, y) for x in sorted(xs) for y in sorted(ys)]


def _covered(box: Rect, rects: Sequence[Rect]) -> int:
    total = 0
    for rect in rects:
        clip = box.clip(rect)
        total += clip.width * clip.height
    return total


def table_room(places: Places, named: Sequence[Rect]) -> Room:
    """The room on ``places``' table: the felt under the info bar; never the buttons nor
    ``named`` (the cards a message is about, the card under the last touch); every column (its
    cards as one block, an empty one's slot), free cell and foundation as a card; home under
    the middle of the columns, just below their lowest card."""
    lay, game = places.layout, places.game
    bar, margin = lay.info_bar, lay.margin
    felt = Rect(margin, bar.bottom + margin, lay.width - 2 * margin, 0)
    felt.height = lay.height - margin - felt.top
    cards = [Rect(r) for r in (*lay.foundations, *lay.cells)]  # (a free card lies on its cell)
    for i, col in enumerate(game.cols):
        cards.append(places.group_rect(col[0]) if col else Rect(lay.columns[i]))
    row = lay.columns[0].unionall(lay.columns[1:])
    lowest = max((r.bottom for r in cards if r.left < row.right), default=row.bottom)
    home = (row.centerx, min(lowest + lay.gap, felt.bottom))
    never = (*(Rect(r) for r in lay.buttons.values()), *named)
    clearance = max(2, lay.gap)
    return Room(felt, never, tuple(cards), Rect(lay.title), clearance, home)


class ScreenBoard:
    """The table model's geometry on the screen (game.table.model.Board): where the cards lie
    (game.table.places), where a message goes, where a dragged card was let go."""

    def places(self, game: Game, layout: Layout, held: dict[int, dict[Card, int]]) -> Places:
        return Places(game, layout, held)

    def toast(
        self, text: str, layout: Layout, now: float, places: Places, named: list[Rect]
    ) -> Toast:
        return make_toast(text, layout, now, table_room(places, named))

    def dropped(
        self, places: Places, corner: tuple[float, float]
    ) -> tuple[int | None, Callable[[Move], float]]:
        lay = places.layout
        rect = Rect(int(corner[0]), int(corner[1]), lay.card_w, lay.card_h)
        return places.drop_dest(rect), distance_from(rect, places.move_rect)
