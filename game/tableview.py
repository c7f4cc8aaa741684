"""Drawing the table: a view that reads the TableScene and changes nothing in it.

A *static* layer (felt, slots, title and buttons as one cached "chrome" image, the resting
cards, the placement-help outlines, the info bar) is rebuilt only when the scene's picture
``version`` changes. Each frame restores the areas where moving things (a dragged group,
gliding or turning cards, a popup, a hint) were, joined into few rectangles, and draws them
again. With nothing moving, a frame draws nothing at all.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame
from pygame import Rect

from engine import FOUNDATION
from engine.cards import RANKS
from engine.game import EMPTY
from game import ui
from game.cards import HIGHLIGHT, TARGET, CardArt, felt, font, slot
from game.layout import BUTTONS

if TYPE_CHECKING:
    from game.table import TableScene

SUIT_MARKS = "♠♥♦♣"
PORTRAIT_INDEX = 1.22  # the corner index's size in portrait, relative to landscape
INDICATOR_COLORS = {"won": (120, 230, 140), "lost": (255, 150, 120)}
BUTTON_ICONS = {"new": "new", "undo": "undo", "hint": "hint", "settings": "settings"}


@dataclass
class _Frame:
    rects: list[Rect] = field(default_factory=list)
    key: tuple[object, ...] = ()


class TableView:
    def __init__(self, scene: TableScene) -> None:
        self.scene = scene
        self._arts: dict[tuple[tuple[int, int], tuple[str, ...], float], CardArt] = {}
        self.static: pygame.Surface | None = None
        self._built = -1  # the scene version the static layer shows
        self._bar_text: tuple[str, ...] = ()
        self._frame = _Frame()
        self._group: tuple[tuple[object, ...], pygame.Surface] | None = None
        self._chrome: tuple[tuple[object, ...], pygame.Surface] | None = None
        self._bar_image: tuple[tuple[str, ...], pygame.Surface] | None = None
        self.art: CardArt
        self.resize()

    def resize(self) -> None:
        """New layout or language: card images for the size (and the language's indices),
        the felt, the slot marks; every cached layer is dropped."""
        lay = self.scene.layout
        size = (lay.card_w, lay.card_h)
        ranks = tuple(self.scene.tr.rank(r) for r in RANKS)
        # Portrait cards are narrow in millimetres, and the portrait fan (0.295 of a card)
        # leaves room for a larger corner index.
        scale = PORTRAIT_INDEX if lay.portrait else 1.0
        if (size, ranks, scale) not in self._arts:
            self._arts = {(size, ranks, scale): CardArt(*size, ranks, index_scale=scale)}
        self.art = self._arts[(size, ranks, scale)]
        self.felt = felt((lay.width, lay.height))
        radius = self.art.radius
        self.slot_found = [slot(size, radius, mark) for mark in SUIT_MARKS]
        self.slot_cell = slot(size, radius)
        self.slot_column = slot(size, radius, "K")
        self.static = None
        self._group = None
        self._chrome = None
        self._bar_image = None
        self._bar_text = ()

    def draw_bar(self, surface: pygame.Surface, texts: tuple[str, ...]) -> None:
        """Put the info bar on ``surface``; its image is drawn once per text."""
        if self._bar_image is None or self._bar_image[0] != texts:
            self._bar_image = (texts, self._render_bar(texts))
        surface.blit(self._bar_image[1], self.scene.layout.info_bar)

    def _render_bar(self, texts: tuple[str, ...]) -> pygame.Surface:
        area = self.scene.layout.info_bar
        surface = pygame.Surface(area.size).convert()
        surface.blit(self.felt, (0, 0), area)
        bar = surface.get_rect()
        shade = pygame.Surface(bar.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 110))
        surface.blit(shade, bar)
        pad = self.scene.layout.margin * 2
        size = max(10, int(bar.height * 0.55))
        while size > 10:
            f, bold = font(size), font(size, True)
            need = (
                sum(f.size(t)[0] for t in (*texts[:3], texts[4]))
                + bold.size(texts[3])[0]
                + size * (9 if texts[4] else 6)
                + 2 * pad
            )
            if need <= bar.width:
                break
            size -= 1
        x = bar.left + pad
        for text in texts[:3]:
            img = font(size).render(text, True, ui.INK)
            surface.blit(img, img.get_rect(midleft=(x, bar.centery)))
            x += img.get_width() + size * 2
        if texts[4]:
            color = INDICATOR_COLORS.get(self.scene.indicator_status, ui.INK_DIM)
            pygame.draw.circle(surface, color, (x + size // 3, bar.centery), max(3, size // 3))
            img = font(size).render(texts[4], True, color)
            surface.blit(img, img.get_rect(midleft=(x + size, bar.centery)))
        code = font(size, True).render(texts[3], True, HIGHLIGHT)
        surface.blit(code, code.get_rect(midright=(bar.right - pad, bar.centery)))
        return surface

    def title_text(self) -> str:
        """The game's name and its rules, for the free room in the top row."""
        rules, tr = self.scene.game.rules, self.scene.tr
        if rules.game == "seahaven":
            return tr("names.seahaven") + "\n" + tr("table.free_cells", count=rules.cells)
        variant = tr("names.same_suit") if rules.same_suit else tr("names.mixed_suits")
        return tr("names.russian") + "\n" + variant

    def chrome(self) -> pygame.Surface:
        """Felt, title, pile slots and buttons: drawn once per size, language and Undo state,
        so that rebuilding the static layer is mostly blitting cards."""
        lay, game = self.scene.layout, self.scene.game
        key = (lay.width, lay.height, self.scene.tr.locale, game.can_undo(), self.title_text())
        if self._chrome is not None and self._chrome[0] == key:
            return self._chrome[1]
        s = pygame.Surface((lay.width, lay.height)).convert()
        s.blit(self.felt, (0, 0))
        if lay.title.width > lay.card_w // 2:
            ui.draw_wrapped(
                s,
                self.title_text(),
                lay.title.inflate(-lay.gap, -lay.gap),
                int(lay.card_h * 0.16),
                (200, 230, 205),
                bold=True,
            )
        for suit, rect in enumerate(lay.foundations):
            s.blit(self.slot_found[suit], rect)
        for rect in lay.cells:
            s.blit(self.slot_cell, rect)
        enabled = {"undo": game.can_undo()}
        labels = {name: self.scene.tr(f"buttons.{name}") for name in BUTTONS}
        text_size = self._button_text_size(labels)
        for name in BUTTONS:
            ui.button(
                s,
                lay.buttons[name],
                labels[name],
                enabled=enabled.get(name, True),
                icon=BUTTON_ICONS[name],
                size=text_size,
            )
        self._chrome = (key, s)
        return s

    def build_static(self) -> pygame.Surface:
        lay, game = self.scene.layout, self.scene.game
        size = (lay.width, lay.height)
        if self.static is None or self.static.get_size() != size:
            self.static = pygame.Surface(size).convert()
        s = self.static
        s.blit(self.chrome(), (0, 0))
        for i, rect in enumerate(lay.columns):
            if not game.cols[i]:
                s.blit(self.slot_column, rect)
        moving = self.scene.moving()
        rest = self.scene.rest()
        art = self.art
        blits: list[tuple[pygame.Surface, tuple[int, int]]] = []
        for col in game.cols:
            strip = self.strip_size([rest[card][1] for card in col if rest[card][2]])
            for k, card in enumerate(col):
                if card not in moving:
                    x, y, up = rest[card]
                    blits.append((art.image(card, up), (x, y)))
                    if strip and up and k < len(col) - 1:
                        blits.append((art.index_strip(card, *strip), (x, y)))
        for card in game.cells:
            if card != EMPTY and card not in moving:
                x, y, _ = rest[card]
                blits.append((art.face(card), (x, y)))
        for suit in range(4):
            for rank in range(game.found[suit] - 1, -1, -1):
                card = suit * 13 + rank
                if card not in moving:
                    x, y, _ = rest[card]
                    blits.append((art.face(card), (x, y)))
                    break
        s.fblits(blits)
        if self.scene.drag and self.scene.app.settings.placement_help:
            for dest in self.scene.drag.legal:
                rect = self.scene.dest_rect(dest)
                if dest == FOUNDATION:
                    rect = Rect(lay.foundations[self.scene.drag.card // 13])
                _outline(s, rect, TARGET, self.art.radius, 3)
        self._bar_text = self.scene.bar_text()
        self.draw_bar(s, self._bar_text)
        self._built = self.scene.version
        return s

    def group_image(self, group: tuple[int, ...], offsets: tuple[int, ...]) -> pygame.Surface:
        """A dragged group as one image (drawn once per drag: a frame blits it once)."""
        art = self.art
        key = (group, offsets, id(art))  # a new size or language makes a new CardArt
        if self._group is None or self._group[0] != key:
            image = pygame.Surface((art.width, offsets[-1] + art.height), pygame.SRCALPHA)
            strip = self.strip_size(list(offsets))
            for k, (card, y) in enumerate(zip(group, offsets, strict=True)):
                image.blit(art.face(card), (0, y))
                if strip and k < len(group) - 1:
                    image.blit(art.index_strip(card, *strip), (0, y))
            self._group = (key, image)
        return self._group[1]

    def strip_size(self, ys: list[int]) -> tuple[int, int] | None:
        """For face-up cards fanned at ``ys`` (bottom to top): the index strip the covered ones
        need, as (height, room): a little taller than the widest gap, its index sized for the
        narrowest (one size for the whole column). None when the fan shows every corner index
        whole."""
        if len(ys) < 2:
            return None
        gaps = [b - a for a, b in itertools.pairwise(ys)]
        if min(gaps) >= self.art.index_clear:
            return None
        # Taller than the gap: the next card's soft edge and round corners show what is
        # beneath them, which must be the strip and not the big index.
        return min(self.art.height, max(gaps) + self.art.radius), min(gaps)

    def _button_text_size(self, labels: dict[str, str]) -> int:
        """One text size for all buttons: the largest at which every label fits."""
        rect = self.scene.layout.buttons[BUTTONS[0]]
        stacked = rect.height > rect.width * 0.55
        size = int(rect.height * 0.2) if stacked else int(rect.height * 0.34)
        room = rect.width - 10 if stacked else int(rect.width - rect.height * 0.5 - 22)
        while size > 9 and any(font(size).size(text)[0] > room for text in labels.values()):
            size -= 1
        return size

    def items(self) -> list[tuple[pygame.Surface, tuple[int, int]]]:
        """What is drawn over the static layer this frame, bottom to top."""
        out: list[tuple[pygame.Surface, tuple[int, int]]] = []
        lay, art = self.scene.layout, self.art
        if self.scene.pressed_button:
            rect = lay.buttons[self.scene.pressed_button]
            image = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(image, (255, 255, 255, 60), image.get_rect(), border_radius=8)
            out.append((image, rect.topleft))
        if self.scene.hint_mark:
            blink = int(self.scene.now * 3) % 2 == 0
            if blink:
                move = self.scene.hint_mark.move
                for rect in (self.scene.group_rect(move.card), self.scene.move_rect(move)):
                    out.append(_outline_image(rect, HIGHLIGHT, art.radius, 4))
        for tween in sorted(self.scene.tweens, key=lambda t: t.z):
            x, y = tween.position(self.scene.now)
            up = self.scene.rest()[tween.card][2]
            if tween.flip:
                t = tween.progress(self.scene.now)
                showing_face = t >= 0.5 if tween.flip > 0 else t < 0.5
                image = art.image(tween.card, showing_face)
                scale = abs(1 - 2 * t)
                w = max(1, int(lay.card_w * scale))
                image = pygame.transform.scale(image, (w, lay.card_h))
                out.append((image, (int(x) + (lay.card_w - w) // 2, int(y))))
            else:
                out.append((art.image(tween.card, up), (int(x), int(y))))
        if self.scene.drag:
            drag = self.scene.drag
            origin = self.scene.drag_origin(drag)
            if self.scene.app.settings.placement_help:
                first = origin[drag.card]
                rect = Rect(int(first[0]), int(first[1]), lay.card_w, lay.card_h)
                dest = self.scene.drop_dest(rect)
                if dest is not None and dest in drag.legal:
                    target = self.scene.dest_rect(dest)
                    if dest == FOUNDATION:
                        target = Rect(lay.foundations[drag.card // 13])
                    out.append(_outline_image(target, HIGHLIGHT, art.radius, 4))
            shadow = art.shadow()
            pad = (shadow.get_width() - lay.card_w) // 2
            first = origin[drag.card]
            out.append((shadow, (int(first[0]) - pad, int(first[1]) - pad)))
            out.append((self.group_image(drag.group, drag.offsets), (int(first[0]), int(first[1]))))
        if self.scene.toast:
            out.append((self.scene.toast.surface, self.scene.toast.rect.topleft))
        return out

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        dirty: list[Rect] = []
        if self.static is None or self._built != self.scene.version:
            self.build_static()
            full = True
        assert self.static is not None
        texts = self.scene.bar_text()
        if texts != self._bar_text:
            self._bar_text = texts
            self.draw_bar(self.static, texts)
            dirty.append(Rect(self.scene.layout.info_bar))
        items = self.items()
        key = tuple((id(image), pos) for image, pos in items)
        rects = [image.get_rect(topleft=pos) for image, pos in items]
        if full:
            screen.blit(self.static, (0, 0))
            screen.fblits(items)
            self._frame = _Frame(rects, key)
            return [screen.get_rect()]
        if not dirty and key == self._frame.key:
            return []
        dirty = merge_rects(dirty + self._frame.rects + rects)
        for rect in dirty:
            screen.blit(self.static, rect, rect)
        screen.fblits(items)
        self._frame = _Frame(rects, key)
        return dirty


def merge_rects(rects: list[Rect]) -> list[Rect]:
    """Fewer, larger rectangles: overlapping ones are joined when their union costs no more
    than the two apart (a dragged group's cards and shadow become one area to restore)."""
    merged: list[Rect] = []
    for rect in rects:
        rect = Rect(rect)
        joined = True
        while joined:
            joined = False
            for i, other in enumerate(merged):
                if other.colliderect(rect):
                    union = other.union(rect)
                    if union.w * union.h <= other.w * other.h + rect.w * rect.h:
                        rect = union
                        del merged[i]
                        joined = True
                        break
        merged.append(rect)
    return merged


def _outline(
    surface: pygame.Surface, rect: Rect, color: tuple[int, int, int], radius: int, width: int
) -> None:
    pygame.draw.rect(
        surface, color, rect.inflate(width * 2, width * 2), width, border_radius=radius + width
    )


_OUTLINES: dict[tuple[int, int, tuple[int, int, int], int, int], pygame.Surface] = {}
OUTLINES_KEPT = 24


def _outline_image(
    rect: Rect, color: tuple[int, int, int], radius: int, width: int
) -> tuple[pygame.Surface, tuple[int, int]]:
    key = (rect.width, rect.height, color, radius, width)
    image = _OUTLINES.get(key)
    if image is None:
        if len(_OUTLINES) >= OUTLINES_KEPT:
            _OUTLINES.clear()  # bounded: group outlines come in ever new sizes (soak)
        image = pygame.Surface((rect.width + 4 * width, rect.height + 4 * width), pygame.SRCALPHA)
        pygame.draw.rect(
            image,
            color,
            image.get_rect().inflate(-width, -width),
            width,
            border_radius=radius + width,
        )
        _OUTLINES[key] = image
    return image, (rect.left - 2 * width, rect.top - 2 * width)
