"""The pieces of the table's sprite layer (game.table.view): one image on a layer of a
LayeredDirty group, a card with its index strip, and the group's helpers."""

from __future__ import annotations

from typing import TypeAlias

import pygame
from pygame import Rect

from engine.cards import Card
from game.look.cards import HIGHLIGHT

LIT_FILL = (255, 214, 64, 70)  # the chosen group's glow over its faces (game.table.select)
LIT_WIDTH = 5
REST = 2  # a resting card lies on REST + 2 * (its place in its pile), its index strip one above

Group: TypeAlias = "pygame.sprite.LayeredDirty[Piece]"


class Piece(pygame.sprite.DirtySprite):
    """One image on a layer (a card, a strip, an outline, the bar, the toast). A hidden piece
    leaves its group (the group's every draw walks all its sprites)."""

    def __init__(self, group: Group, layer: int) -> None:
        super().__init__()
        self.image = pygame.Surface((0, 0))
        self.rect = Rect(0, 0, 0, 0)
        self.pos = (0, 0)
        self.home = group  # the group it is shown in
        self.level = layer  # its layer there


class CardSprite(Piece):
    def __init__(self, card: Card, group: Group) -> None:
        super().__init__(group, REST)
        self.card = card
        self.resting = False  # shown where the game has it: a hit-test target
        self.strip = Piece(group, REST + 1)  # its index strip when covered in a squeezed column
        self.shows: tuple[object, ...] = ()  # at rest: what it was last placed as


def new_group() -> Group:
    """A layer drawn by dirty rectangles from its first draw on (the constructor's documented
    ``_use_update`` keyword; no clip is set, so it clips to the surface it draws on), never
    switching to redrawing the whole surface after a slow frame."""
    group: Group = pygame.sprite.LayeredDirty(_use_update=True)
    group.set_timing_threshold(float("inf"))
    return group


def lift_offset(card_h: int) -> int:
    """How far a pressed card rises: a slight offset, about 3 % of its height."""
    return max(2, round(card_h * 0.03))


def disjoint(group: Group) -> None:
    """Join the group's overlapping areas to repaint (removed sprites, repaint_rect): the
    group blits a resting sprite once per area it meets, and twice would darken its soft
    edges."""
    merged: list[Rect] = []
    for rect in group.lostsprites:
        rect = Rect(rect)
        i = rect.collidelist(merged)
        while i >= 0:
            rect.union_ip(merged.pop(i))
            i = rect.collidelist(merged)
        merged.append(rect)
    group.lostsprites[:] = merged


class LitImage:
    """The light of the card a tap chose (game.table.select) as drawn (the view's): made
    again only when the chosen group's size or the cards' corners change (one at a time)."""

    def __init__(self) -> None:
        self.key: tuple[int, int, int] | None = None
        self.image: pygame.Surface | None = None

    def __call__(self, rect: Rect, radius: int) -> tuple[pygame.Surface, tuple[int, int]]:
        """A warm glow over the group and a thick outline round it, and where it goes."""
        key = (rect.width, rect.height, radius)
        image = self.image
        if image is None or key != self.key:
            out = 2 * LIT_WIDTH
            image = pygame.Surface((rect.width + out, rect.height + out), pygame.SRCALPHA)
            inner = Rect(LIT_WIDTH, LIT_WIDTH, rect.width, rect.height)
            pygame.draw.rect(image, LIT_FILL, inner, border_radius=radius)
            box = image.get_rect()
            pygame.draw.rect(image, HIGHLIGHT, box, LIT_WIDTH, border_radius=radius + LIT_WIDTH)
            self.key, self.image = key, image
        return image, (rect.left - LIT_WIDTH, rect.top - LIT_WIDTH)
