"""Card faces, backs, the felt and empty-slot marks, drawn procedurally with the shipped DejaVu
font (game.look.fonts; ``font`` is also reached from here): once per size, then cached. Nothing here
is scaled per frame."""

from __future__ import annotations

import functools
from collections import OrderedDict

import pygame

from engine.cards import RANKS, SUIT_SYMBOLS, Card
from engine.cards import rank as card_rank
from game.look import fonts
from game.look.courts import court_figure
from game.look.fonts import font

RED = (198, 24, 40)
BLACK = (24, 24, 30)
FACE = (252, 251, 246)
EDGE = (120, 120, 120)
BACK_MAIN = (28, 62, 140)
BACK_DARK = (18, 40, 98)
BACK_LINE = (70, 110, 200)
FELT_CENTER = (34, 116, 62)
FELT_EDGE = (14, 64, 34)
HIGHLIGHT = (255, 214, 64)
STRIP_CACHE = 260  # index strips kept (five column sizes' worth of every card)
TARGET = (120, 255, 160)
FOUR_COLORS = {2: (20, 90, 200), 3: (16, 128, 56)}  # diamonds, clubs

# Pip positions (x, y) in 0..1 of the pip area for ranks 2..10; flipped pips are y > 0.5.
_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [
        (0, 0),
        (1, 0),
        (0.5, 1 / 6),
        (0, 1 / 3),
        (1, 1 / 3),
        (0, 2 / 3),
        (1, 2 / 3),
        (0.5, 5 / 6),
        (0, 1),
        (1, 1),
    ],
}


def suit_color(suit: int, four_colors: bool = False) -> tuple[int, int, int]:
    """Spades and clubs black, hearts and diamonds red; with ``four_colors`` diamonds blue and
    clubs green (easier at a glance on a small screen, and for colour-blind players)."""
    if four_colors and suit in (2, 3):
        return FOUR_COLORS[suit]
    return RED if suit in (1, 2) else BLACK


def _glyph(text: str, size: int, color: tuple[int, int, int], bold: bool) -> pygame.Surface:
    return font(size, bold).render(text, True, color)


def _fit_glyph(
    text: str, height: float, color: tuple[int, int, int], bold: bool = True
) -> pygame.Surface:
    """Text whose ink is about ``height`` pixels tall (capital height)."""
    size = max(6, int(height / 0.73))
    return _glyph(text, size, color, bold)


def _trimmed(surface: pygame.Surface) -> pygame.Surface:
    rect = surface.get_bounding_rect()
    return surface.subsurface(rect).copy() if rect.width and rect.height else surface


class CardArt:
    """Every card image for one card size."""

    def __init__(
        self,
        width: int,
        height: int,
        ranks: tuple[str, ...] | None = None,
        *,
        index_scale: float = 1.0,
        four_colors: bool = False,
    ) -> None:
        """``ranks``: the 13 indices as this language prints them (ru: Т 2 .. 10 В Д К).
        ``index_scale``: a larger corner index where the fan leaves room for it (portrait)."""
        self.width, self.height = width, height
        self.index_scale = index_scale
        self.four_colors = four_colors
        self.ranks = ranks or tuple("10" if r == "T" else r for r in RANKS)
        self.radius = max(3, width // 12)
        self._faces: dict[Card, pygame.Surface] = {}
        self._covered: dict[Card, pygame.Surface] = {}
        self._strips: dict[tuple[Card, int, int], pygame.Surface] = {}
        self._index_clear: int | None = None
        self._caps: dict[int, float] = {}  # a strip's index size, by the room it has
        self._back: pygame.Surface | None = None
        self._shadow: pygame.Surface | None = None

    # ----------------------------------------------------------------- public
    def face(self, card: Card) -> pygame.Surface:
        surface = self._faces.get(card)
        if surface is None:
            surface = self._draw_face(card)
            self._faces[card] = surface
        return surface

    def back(self) -> pygame.Surface:
        if self._back is None:
            self._back = self._draw_back()
        return self._back

    def image(self, card: Card, face_up: bool, covered: bool = False) -> pygame.Surface:
        """The card as it lies: its back, its face, or (``covered``: another card lies on it)
        :meth:`covered`."""
        if not face_up:
            return self.back()
        return self.covered(card) if covered else self.face(card)

    def covered(self, card: Card) -> pygame.Surface:
        """A face-up card with another lying on it: the face blank below its corner index, so
        that however far a fan opens, only the index shows above the next card (no pip or
        court frame peeking out), as in a tight fan."""
        surface = self._covered.get(card)
        if surface is None:
            w, h, r = self.width, self.height, self.radius
            surface = self.face(card).copy()
            top = self.blank_below_index + 1
            surface.fill(FACE, (2, top, w - 4, h - top - r))
            surface.fill(FACE, (r, h - r, w - 2 * r, r - 2))  # between the round corners
            self._covered[card] = surface
        return surface

    # ----------------------------------------------------------------- tight fans
    def _index_metrics(self) -> tuple[float, int, int]:
        """The corner index's capital height, its top and its side padding."""
        w, h = self.width, self.height
        return h * 0.135 * self.index_scale, max(2, round(h * 0.045)), max(2, round(w * 0.07))

    @property
    def index_clear(self) -> int:
        """How much of a covered card must show for its corner index to be read whole."""
        if self._index_clear is None:
            index_h, top, _ = self._index_metrics()
            tallest = max(
                _trimmed(_fit_glyph(text, index_h, BLACK)).get_height() for text in self.ranks
            )
            suit = max(
                _trimmed(_fit_glyph(mark, index_h * 1.05, BLACK, bold=False)).get_height()
                for mark in SUIT_SYMBOLS
            )
            self._index_clear = top + max(tallest, suit) + 1
        return self._index_clear

    @property
    def blank_below_index(self) -> int:
        """The face is blank from the index down to this y (a covered card showing no more than
        this shows only its index)."""
        return int(self.height * 0.315)

    def index_strip(self, card: Card, height: int, room: int | None = None) -> pygame.Surface:
        """The top ``height`` pixels of a face-up card in a fan too tight for its corner index
        (a long column on a small screen): the same index, rank left and suit right, redrawn
        to show whole in the top ``room`` pixels (default ``height``). Drawn over the card's
        top; cached per card and size."""
        room = height if room is None else min(room, height)
        key = (card, height, room)
        strip = self._strips.get(key)
        if strip is None:
            if len(self._strips) >= STRIP_CACHE:  # columns change length all game long
                self._strips.clear()
            strip = self._draw_strip(card, height, room)
            self._strips[key] = strip
        return strip

    def _strip_glyphs(self, card: Card, room: int) -> tuple[pygame.Surface, pygame.Surface, int]:
        """A strip's rank and suit images and the y they are drawn at, to show whole in the
        top ``room`` pixels."""
        index_h, top, _ = self._index_metrics()
        if room >= self.index_clear:  # room for the card's own index where it is
            rank_img, suit_img = self._corner_glyphs(card)
            return rank_img, suit_img, top
        # From just under the card's edge to just above the next card's edge.
        y = 1 if room < 14 else min(top, 2)
        cap = self._strip_cap(room, y, index_h)
        color = suit_color(card // 13, self.four_colors)
        rank_img = _trimmed(_fit_glyph(self.ranks[card % 13], cap, color))
        suit_img = _trimmed(_fit_glyph(SUIT_SYMBOLS[card // 13], cap * 1.05, color, bold=False))
        height = max(rank_img.get_height(), suit_img.get_height())
        return rank_img, suit_img, max(0, min(y, room - 1 - height))

    def _strip_cap(self, room: int, y: int, index_h: float) -> float:
        """One index size for every rank in ``room`` pixels: the largest at which the tallest
        letter (a descender: Д, Q) fits."""
        cap = self._caps.get(room)
        if cap is None:
            cap = min(index_h, max(4.0, room - y - 1))
            while (
                cap > 4
                and max(_trimmed(_fit_glyph(text, cap, BLACK)).get_height() for text in self.ranks)
                > room - y - 1
            ):
                cap -= 1
            self._caps[room] = cap
        return cap

    def _draw_strip(self, card: Card, height: int, room: int) -> pygame.Surface:
        w = self.width
        height = max(3, min(height, self.height))
        strip = self._blank(FACE).subsurface((0, 0, w, height)).copy()
        _, _, pad = self._index_metrics()
        rank_img, suit_img, y = self._strip_glyphs(card, room)
        for image, x in ((rank_img, pad), (suit_img, w - pad - suit_img.get_width())):
            strip.blit(image, (x, max(0, min(y, room - 1 - image.get_height()))))
        return strip.convert_alpha() if pygame.display.get_surface() else strip

    def index_box(self, card: Card, strip: tuple[int, int] | None = None) -> pygame.Rect:
        """The corner index's box (rank to suit) on the card, relative to its corner; on its
        index strip when ``strip`` (height, room) is given."""
        _, top, pad = self._index_metrics()
        if strip is None:
            rank_img, suit_img = self._corner_glyphs(card)
        else:
            rank_img, suit_img, top = self._strip_glyphs(card, min(strip[1], strip[0]))
        height = max(rank_img.get_height(), suit_img.get_height())
        return pygame.Rect(pad, top, self.width - 2 * pad, height)

    def _corner_glyphs(self, card: Card) -> tuple[pygame.Surface, pygame.Surface]:
        """The corner index's rank and suit images."""
        w = self.width
        color = suit_color(card // 13, self.four_colors)
        index_h, _, _ = self._index_metrics()
        rank_img = _trimmed(_fit_glyph(self.ranks[card % 13], index_h, color))
        if rank_img.get_width() > w * 0.5:
            rank_img = pygame.transform.smoothscale(
                rank_img,
                (int(w * 0.5), int(rank_img.get_height() * w * 0.5 / rank_img.get_width())),
            )
        suit_img = _trimmed(_fit_glyph(SUIT_SYMBOLS[card // 13], index_h * 1.05, color, bold=False))
        return rank_img, suit_img

    def shadow(self) -> pygame.Surface:
        if self._shadow is None:
            w, h = self.width, self.height
            pad = max(2, w // 14)
            s = pygame.Surface((w + 2 * pad, h + 2 * pad), pygame.SRCALPHA)
            for i in range(pad, 0, -1):
                alpha = int(60 * (1 - i / (pad + 1)))
                pygame.draw.rect(
                    s,
                    (0, 0, 0, alpha),
                    (pad - i, pad - i + pad // 2, w + 2 * i, h + 2 * i),
                    border_radius=self.radius + i,
                )
            self._shadow = s
        return self._shadow

    def warm(self) -> None:
        """Draw every image now (used before timing)."""
        for card in range(52):
            self.face(card)
        self.back()

    # ----------------------------------------------------------------- drawing
    def _blank(self, fill: tuple[int, int, int]) -> pygame.Surface:
        w, h, r = self.width, self.height, self.radius
        surface = pygame.Surface((w, h), pygame.SRCALPHA)
        pygame.draw.rect(surface, (0, 0, 0, 90), (0, 0, w, h), border_radius=r)
        pygame.draw.rect(surface, fill, (1, 1, w - 2, h - 2), border_radius=max(1, r - 1))
        return surface

    def _draw_face(self, card: Card) -> pygame.Surface:
        w, h = self.width, self.height
        suit = card // 13
        rank = card_rank(card)
        color = suit_color(suit, self.four_colors)
        surface = self._blank(FACE)
        symbol = SUIT_SYMBOLS[suit]
        # Corner index: rank top-left and suit top-right, big enough to read in a tight fan.
        _, top, pad = self._index_metrics()
        rank_img, suit_img = self._corner_glyphs(card)
        surface.blit(rank_img, (pad, top))
        surface.blit(suit_img, (w - pad - suit_img.get_width(), top))
        # Bottom-right mirror of the index (rotated), as on a real card.
        small_rank = pygame.transform.rotate(rank_img, 180)
        surface.blit(
            small_rank, (w - pad - small_rank.get_width(), h - top - small_rank.get_height())
        )
        small_suit = pygame.transform.rotate(suit_img, 180)
        surface.blit(small_suit, (pad, h - top - small_suit.get_height()))
        # The middle: pips, or a framed court card, or one big ace.
        # Below the fan line (a covered card shows at most its top 0.3 h): nothing peeks out.
        inner = pygame.Rect(0, 0, int(w * 0.62), int(h * 0.49))
        inner.top = self.blank_below_index + 1
        inner.centerx = w // 2
        if rank == 1:
            big = _trimmed(_fit_glyph(symbol, h * 0.34, color, bold=False))
            surface.blit(big, big.get_rect(center=inner.center))
        elif rank >= 11:
            court = inner.inflate(int(w * 0.72) - inner.width, 0)
            self._draw_court(surface, court, rank, suit, color)
        else:
            pip_h = h * (0.13 if rank <= 3 else 0.11)
            pip = _trimmed(_fit_glyph(symbol, pip_h, color, bold=False))
            pip_flipped = pygame.transform.rotate(pip, 180)
            area = inner.inflate(-pip.get_width(), -pip.get_height())
            for px, py in _PIPS[rank]:
                image = pip_flipped if py > 0.5 else pip
                cx = area.left + px * area.width
                cy = area.top + py * area.height
                surface.blit(image, image.get_rect(center=(round(cx), round(cy))))
        return surface.convert_alpha() if pygame.display.get_surface() else surface

    def _draw_court(
        self,
        surface: pygame.Surface,
        inner: pygame.Rect,
        rank: int,
        suit: int,
        color: tuple[int, int, int],
    ) -> None:
        """A framed figure (game.look.courts) with the suit's mark on each side of its middle."""
        tint = (252, 236, 214) if suit in (1, 2) else (230, 236, 248)
        surface.blit(court_figure(inner.size, rank, color, tint), inner)
        mark = _trimmed(_fit_glyph(SUIT_SYMBOLS[suit], inner.height * 0.13, color, bold=False))
        pad = max(2, inner.width // 10)
        surface.blit(mark, mark.get_rect(topleft=(inner.left + pad, inner.top + pad)))
        flipped = pygame.transform.rotate(mark, 180)
        surface.blit(flipped, flipped.get_rect(bottomright=(inner.right - pad, inner.bottom - pad)))

    def _draw_back(self) -> pygame.Surface:
        w, h = self.width, self.height
        surface = self._blank((250, 250, 250))
        border = max(3, w // 14)
        inner = pygame.Rect(border, border, w - 2 * border, h - 2 * border)
        pygame.draw.rect(surface, BACK_MAIN, inner, border_radius=max(2, self.radius - 2))
        pattern = pygame.Surface(inner.size, pygame.SRCALPHA)
        step = max(6, w // 7)
        for k in range(-inner.height, inner.width + inner.height, step):
            pygame.draw.line(pattern, BACK_LINE, (k, 0), (k + inner.height, inner.height), 1)
            pygame.draw.line(pattern, BACK_LINE, (k, inner.height), (k + inner.height, 0), 1)
        mask = pygame.Surface(inner.size, pygame.SRCALPHA)
        pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=self.radius)
        pattern.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        surface.blit(pattern, inner.topleft)
        pygame.draw.rect(surface, BACK_DARK, inner, max(1, w // 40), border_radius=self.radius - 2)
        diamond = [
            (w / 2, h / 2 - h * 0.16),
            (w / 2 + w * 0.16, h / 2),
            (w / 2, h / 2 + h * 0.16),
            (w / 2 - w * 0.16, h / 2),
        ]
        pygame.draw.polygon(surface, BACK_DARK, diamond)
        pygame.draw.polygon(surface, (235, 196, 90), diamond, max(1, w // 40))
        return surface.convert_alpha() if pygame.display.get_surface() else surface


ARTS_KEPT = 6  # card sets kept for a switch back (sizes and languages; up to ~10 MB each)
_ARTS: OrderedDict[tuple[object, ...], CardArt] = OrderedDict()


def _display_format() -> tuple[object, ...] | None:
    """What a surface converted for the display depends on: its pixel format, or None when
    there is no display (surfaces are then left unconverted)."""
    display = pygame.display.get_surface() if pygame.display.get_init() else None
    return (display.get_bitsize(), display.get_masks()) if display else None


def shared_art(
    width: int,
    height: int,
    ranks: tuple[str, ...] | None = None,
    *,
    index_scale: float = 1.0,
    four_colors: bool = False,
) -> CardArt:
    """The CardArt for these arguments, shared: the same one again while the fonts and the
    display's pixel format are unchanged (the latest ARTS_KEPT kinds kept), so a language switch,
    a resize back and a new visitor's table draw no card again. Its images are blitted, never
    drawn on."""
    key = (
        width,
        height,
        ranks,
        index_scale,
        four_colors,
        _display_format(),
        fonts.SHELF.generation,
    )
    art = _ARTS.get(key)
    if art is None:
        art = CardArt(width, height, ranks, index_scale=index_scale, four_colors=four_colors)
        _ARTS[key] = art
        while len(_ARTS) > ARTS_KEPT:
            _ARTS.popitem(last=False)
    _ARTS.move_to_end(key)
    return art


def felt(size: tuple[int, int]) -> pygame.Surface:
    """A green table with a soft light in the middle (a tiny gradient scaled up smoothly): the
    one drawn for this size and display format before (the latest four kept), so only blit it."""
    return _felt((size[0], size[1]), _display_format())


@functools.lru_cache(maxsize=4)
def _felt(size: tuple[int, int], shape: object) -> pygame.Surface:
    (r, g, b), (r1, g1, b1) = FELT_CENTER, FELT_EDGE
    pixels = bytearray()  # 48x32 RGB, written at once (set_at for each pixel took 6 ms)
    for y in range(32):
        for x in range(48):
            dx, dy = (x - 23.5) / 24, (y - 13) / 19
            t = min(1.0, (dx * dx + dy * dy) ** 0.5 / 1.25)
            t = t * t
            pixel = (round(r + (r1 - r) * t), round(g + (g1 - g) * t), round(b + (b1 - b) * t))
            pixels += bytes(pixel)
    small = pygame.image.frombuffer(bytes(pixels), (48, 32), "RGB")
    surface = pygame.transform.smoothscale(small, size)
    return surface.convert() if pygame.display.get_surface() else surface


def slot(
    size: tuple[int, int], radius: int, mark: str = "", mark_color: tuple[int, int, int] = BLACK
) -> pygame.Surface:
    """An empty pile: a faint rounded outline, with a faint mark (a suit, a K) inside."""
    w, h = size
    surface = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(surface, (0, 0, 0, 40), (0, 0, w, h), border_radius=radius)
    pygame.draw.rect(surface, (255, 255, 255, 90), (0, 0, w, h), 2, border_radius=radius)
    if mark:
        glyph = _trimmed(_fit_glyph(mark, h * 0.3, (255, 255, 255), bold=False))
        glyph.set_alpha(80)
        surface.blit(glyph, glyph.get_rect(center=(w // 2, h // 2)))
    return surface
