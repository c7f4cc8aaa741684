"""The table's images: its fixed picture (felt, title, pile slots and buttons: the sprite
layer's background), the info bar, a lifted group, the index strips of squeezed columns and
the outlines of piles. Drawn once per size, language and state, then cached."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import pygame
from pygame import Rect

from engine.cards import RANKS, Card
from game import rulesets
from game.look import ui
from game.look.cards import HIGHLIGHT, CardArt, felt, shared_art, slot
from game.look.fonts import font
from game.look.layout import BUTTON_LABEL, BUTTONS, Button
from game.look.typeset import splits_a_name
from game.saves.savemark import draw_save_mark, mark_rect

if TYPE_CHECKING:
    from game.i18n import Translator
    from game.look.layout import Command
    from game.saves.prefs import PlayerSettings
    from game.table.model import TableModel

SUIT_MARKS = "♠♥♦♣"
PORTRAIT_INDEX = 1.22  # the corner index's size in portrait, relative to landscape
INDICATOR_COLORS = {"won": (120, 230, 140), "lost": (255, 150, 120)}
TITLE_INK = (200, 230, 205)
TEXTS_KEPT = 40  # rendered texts of the info bar kept
PULSE_GROW = 0.16  # Finish at the height of its pulse: this much larger...
PULSE_LIGHT = 60  # ...and this much lighter (added to each of R, G, B)
BUTTON_ICONS = {name: name for name in (*BUTTONS, "finish")}  # Finish: in Hint's place


class Look(Protocol):
    """What the table's images are drawn from (game.table.scene.TableScene serves it)."""

    @property
    def settings(self) -> PlayerSettings: ...
    @property
    def model(self) -> TableModel: ...
    @property
    def tr(self) -> Translator: ...
    @property
    def buttons_are_pictures(self) -> bool:
        """Its buttons do nothing here (a demo's table): drawn flat, as pictures."""
        ...

    def deal_label(self) -> str: ...


class Seat(Look, Protocol):
    """The table scene as its view draws it (game.table.view) and its gestures find what lies
    under the finger (game.table.touch): so that they, which the scene imports, never import
    the scene. The state and the commands are its model's (game.table.model)."""

    @property
    def save_failed(self) -> bool: ...

    def now(self) -> float: ...
    def bar_text(self) -> tuple[str, ...]: ...
    def shown_buttons(self) -> dict[Command, Rect]: ...
    def card_at(self, pos: tuple[int, int]) -> Card | None: ...
    def button_at(self, pos: tuple[int, int]) -> Command | None: ...
    def press_button(self, name: Command) -> None: ...


OutlineKey = tuple[int, int, tuple[int, int, int], int, int, int]
OUTLINES_KEPT = 24  # outlines kept drawn, of every size and colour


class Chrome:
    def __init__(self, scene: Look) -> None:
        self.scene = scene
        self._chrome: tuple[tuple[object, ...], pygame.Surface] | None = None
        self._bar_image: tuple[tuple[str, ...], pygame.Surface] | None = None
        self._outlines: dict[OutlineKey, pygame.Surface] = {}
        self.art: CardArt
        self.felt_size: tuple[int, int] | None = None  # the size of self.felt, once made
        self.resize()

    def outline(
        self, rect: Rect, color: tuple[int, int, int], radius: int, width: int, *, margin: int = 2
    ) -> tuple[pygame.Surface, tuple[int, int]]:
        """A rounded outline ``width`` thick around ``rect``, its outer edge ``margin`` widths
        out (1: hugging the pile, the placement help; 2: clear of it, the hint and the drop
        target), and where to put it."""
        key = (rect.width, rect.height, color, radius, width, margin)
        image = self._outlines.get(key)
        if image is None:
            if len(self._outlines) >= OUTLINES_KEPT:
                self._outlines.clear()  # bounded: group outlines come in ever new sizes (soak)
            out = 2 * margin * width
            image = pygame.Surface((rect.width + out, rect.height + out), pygame.SRCALPHA)
            box = image.get_rect() if margin == 1 else image.get_rect().inflate(-width, -width)
            pygame.draw.rect(image, color, box, width, border_radius=radius + width)
            self._outlines[key] = image
        return image, (rect.left - margin * width, rect.top - margin * width)

    def resize(self) -> None:
        """New layout or language: card images for the size (and the language's indices),
        the felt, the slot marks; every cached image is dropped."""
        lay = self.scene.model.layout
        size = (lay.card_w, lay.card_h)
        ranks = tuple(self.scene.tr.rank(r) for r in RANKS)
        # Portrait cards are narrow in millimetres, and the portrait fan (0.295 of a card)
        # leaves room for a larger corner index.
        scale = PORTRAIT_INDEX if lay.portrait else 1.0
        four = self.scene.settings.four_colors
        self.art = shared_art(
            *size, ranks, index_scale=scale, four_colors=four
        )  # shared, read only
        if self.felt_size != (lay.width, lay.height):  # the felt depends on its size alone
            self.felt_size = (lay.width, lay.height)
            self.felt = felt(self.felt_size)
        radius = self.art.radius
        self.slot_found = [slot(size, radius, mark) for mark in SUIT_MARKS]
        self.slot_cell = slot(size, radius)
        self.slot_column = slot(size, radius, "K")
        self._chrome = None
        self._bar_image = None
        self._lift: tuple[object, pygame.Surface] | None = None  # the lifted group's image
        self._bar_base: pygame.Surface | None = None
        self._texts: dict[tuple[str, int, tuple[int, int, int], bool], pygame.Surface] = {}
        self._buttons: dict[tuple[object, ...], pygame.Surface] = {}  # each button in each state
        self._label_size = 0  # the buttons' text size (_button_text_size), once per resize

    def key(self) -> tuple[object, ...]:
        """What the background shows: size, language, Undo's and Redo's state, the title,
        Finish or Hint."""
        lay, tr = self.scene.model.layout, self.scene.tr
        finish = self.scene.model.finisher.offered()
        return (lay.width, lay.height, tr.locale, self.enabled(), self.title_text(), finish)

    def enabled(self) -> tuple[bool, bool]:  # in key() at index STATE
        """Whether Undo and Redo can act (a won game cannot be undone)."""
        game = self.scene.model.game
        return (game.can_undo() and not game.is_won, game.can_redo())

    def bar(self, texts: tuple[str, ...], save_failed: bool = False) -> pygame.Surface:
        """The info bar's image, drawn once per text; with the mark of a failed save at its left
        end while the game on the table is not saved (game.saves.savemark)."""
        key = (*texts, "!" if save_failed else "")
        if self._bar_image is None or self._bar_image[0] != key:
            self._bar_image = (key, self._render_bar(texts, save_failed))
        return self._bar_image[1]

    def draw_bar(self, surface: pygame.Surface, texts: tuple[str, ...]) -> None:
        surface.blit(self.bar(texts), self.scene.model.layout.info_bar)

    def _render_bar(self, texts: tuple[str, ...], save_failed: bool = False) -> pygame.Surface:
        area = self.scene.model.layout.info_bar
        if self._bar_base is None:
            base = pygame.Surface(area.size).convert()
            base.blit(self.felt, (0, 0), area)
            shade = pygame.Surface(area.size, pygame.SRCALPHA)
            shade.fill((0, 0, 0, 110))
            base.blit(shade, (0, 0))
            self._bar_base = base
        surface = self._bar_base.copy()
        bar = surface.get_rect()
        pad = self.scene.model.layout.margin * 2
        if save_failed:
            mark = draw_save_mark(surface, mark_rect(bar), True)
            pad += mark.width + pad if mark else 0
        size = self.scene.model.layout.text_size
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
            img = self._text(text, size, ui.INK)
            surface.blit(img, img.get_rect(midleft=(x, bar.centery)))
            x += img.get_width() + size * 2
        if texts[4]:
            color = INDICATOR_COLORS.get(self.scene.model.hints.status, ui.INK_DIM)
            pygame.draw.circle(surface, color, (x + size // 3, bar.centery), max(3, size // 3))
            img = self._text(texts[4], size, color)
            surface.blit(img, img.get_rect(midleft=(x + size, bar.centery)))
        code = self._text(texts[3], size, HIGHLIGHT, bold=True)
        surface.blit(code, code.get_rect(midright=(bar.right - pad, bar.centery)))
        return surface

    def _text(
        self, text: str, size: int, color: tuple[int, int, int], *, bold: bool = False
    ) -> pygame.Surface:
        """A text of the bar, rendered once (a move changes two of its five texts)."""
        key = (text, size, color, bold)
        image = self._texts.get(key)
        if image is None:
            if len(self._texts) >= TEXTS_KEPT:
                self._texts.clear()  # the clock makes a new text every second
            image = font(size, bold).render(text, True, color)
            self._texts[key] = image
        return image

    def title_text(self) -> str:
        """The game's name, its rules and its kind of deal, for the free room in the top row."""
        rules, tr = self.scene.model.game.rules, self.scene.tr
        deal = self.scene.deal_label()  # the level, or "random deal"
        name, detail = rulesets.title_lines(tr, rules)
        return f"{name}\n{detail} · {deal}"

    def chrome(self) -> pygame.Surface:
        """Felt, title, pile slots and buttons: drawn once per size, language and title, the
        background of the table's sprite layer. When only Undo's and Redo's state changed (every
        move and undo), just those two buttons are drawn again, in place."""
        lay = self.scene.model.layout
        key = self.key()
        if self._chrome is not None:
            old, s = self._chrome
            if old == key:
                return s
            names = changed_buttons(old, key)
            if names is not None:
                self._draw_buttons(s, names)
                self._chrome = (key, s)
                return s
        s = self.felt.copy()  # the felt is the window's size, in the display's format
        self._draw_title(s)
        for suit, rect in enumerate(lay.foundations):
            s.blit(self.slot_found[suit], rect)
        for rect in lay.cells:
            s.blit(self.slot_cell, rect)
        self._draw_buttons(s, BUTTONS)
        self._chrome = (key, s)
        return s

    def title_size(self) -> int:
        """The size the title is drawn at: a sixth of a card's height where it fits, else the
        largest that does (the layout plans room for at least the info bar's)."""
        lay = self.scene.model.layout
        start = max(lay.text_size, int(lay.card_h * 0.16))
        return fit_size(self.title_text(), lay.title, start, readable=lay.text_size)

    def _draw_title(self, surface: pygame.Surface) -> None:
        lay = self.scene.model.layout
        size = self.title_size()
        text_font = font(size, True)
        y = lay.title.top
        clip = surface.get_clip()
        surface.set_clip(lay.title)  # never past its room, even on a screen too small for it
        for line in ui.wrap(self.title_text(), lay.title.width, size, True):
            surface.blit(text_font.render(line, True, TITLE_INK), (lay.title.left, y))
            y += text_font.get_linesize()
        surface.set_clip(clip)

    def _draw_buttons(self, surface: pygame.Surface, names: Sequence[Button]) -> None:
        """The named buttons on the felt, Undo and Redo greyed out when they cannot act; a demo's
        pictured buttons always alike, as they do nothing whatever its game (issue 31 item 9)."""
        lay = self.scene.model.layout
        enabled = dict(zip(("undo", "redo"), self.enabled(), strict=True))
        labels = self.labels()
        finish = self.scene.model.finisher.offered()
        for name in names:
            rect = Rect(lay.buttons[name])
            on = enabled.get(name, True) or self.scene.buttons_are_pictures
            face = "finish" if name == "hint" and finish else name
            key = (face, on, tuple(rect), self.scene.tr.locale, labels[face])
            image = self._buttons.get(key)
            if image is None:
                if len(self._buttons) >= 4 * len(BUTTONS):
                    self._buttons.clear()  # another size or language
                image = self.felt.subsurface(rect).copy()
                ui.button(
                    image,
                    image.get_rect(),
                    labels[face],
                    selected=face == "finish",  # gold, dark words: it stands out
                    enabled=on,
                    icon=BUTTON_ICONS[face],
                    size=self.label_size(),
                    flat=self.scene.buttons_are_pictures,  # a demo's
                )
                self._buttons[key] = image
            surface.blit(image, rect)

    def labels(self) -> dict[str, str]:
        """Every button's label in the table's language, Finish's too."""
        return {name: self.scene.tr(f"buttons.{name}") for name in BUTTON_ICONS}

    def label_size(self) -> int:
        """One text size for all buttons (worked out once per size and language)."""
        if not self._label_size:
            self._label_size = self._button_text_size(self.labels())
        return self._label_size

    def pulsed(self, phase: float) -> tuple[pygame.Surface, tuple[int, int]]:
        """Finish at ``phase`` (0 to 1) of its one pulse, and where it goes: grown around its
        centre (never onto another button) and lit up, most at the middle, its own size and
        colour at both ends."""
        buttons = self.scene.model.layout.buttons
        rect, swell = Rect(buttons["hint"]), math.sin(math.pi * phase)
        grow = PULSE_GROW * swell
        for other in (r for name, r in buttons.items() if name != "hint"):  # clear of them
            if other.top < rect.bottom and rect.top < other.bottom:  # beside it
                gap = max(other.left - rect.right, rect.left - other.right)
                grow = min(grow, max(0, 2 * (gap - 2)) / rect.width)
            elif other.left < rect.right and rect.left < other.right:  # above or below
                gap = max(other.top - rect.bottom, rect.top - other.bottom)
                grow = min(grow, max(0, 2 * (gap - 2)) / rect.height)
        grown = rect.inflate(int(rect.width * grow), int(rect.height * grow))
        image = pygame.Surface(grown.size, pygame.SRCALPHA)
        size = round(self.label_size() * grown.height / rect.height)
        label = self.labels()["finish"]
        flat = self.scene.buttons_are_pictures  # a demo's
        ui.button(
            image, image.get_rect(), label, selected=True, icon="finish", size=size, flat=flat
        )
        light = int(PULSE_LIGHT * swell)
        image.fill((light, light, light, 0), special_flags=pygame.BLEND_RGB_ADD)
        return image, grown.topleft

    def _button_text_size(self, labels: dict[str, str]) -> int:
        """One text size for all buttons: the largest at which every label fits."""
        rect = self.scene.model.layout.buttons[BUTTONS[0]]
        stacked = rect.height > rect.width * 0.55
        size = int(rect.height * ui.STACKED_LABEL) if stacked else int(rect.height * BUTTON_LABEL)
        room = rect.width - 6 if stacked else int(rect.width - rect.height * 0.5 - 22)

        def fits(text: str) -> bool:
            """On one line, or on two: below the icon, or beside it in a button tall enough
            for two (ui.button draws them so: Finnish «Tee / uudelleen» at 720x1280)."""
            if font(size).size(text)[0] <= room:
                return True
            if not stacked:
                lines = ui.label_lines(text, room, rect.height, size)
                return len(lines) == 2 and all(font(size).size(line)[0] <= room for line in lines)
            lines = ui.wrap(text, room, size)
            wide = max(font(size).size(line)[0] for line in lines)
            return (
                stacked
                and wide <= room
                and len(lines) * font(size).get_linesize() <= (rect.height * 0.4)
            )

        # A demo's pictured buttons keep their words at the info bar's size (they need not
        # leave room to tap).
        floor = self.scene.model.layout.text_size if self.scene.buttons_are_pictures else 9
        # Never two lines where one line fits at the info bar's size or larger: "New game"
        # whole in a 170 px button at 1920x1080, not "New / game".
        one_line = size
        while one_line > floor and any(font(one_line).size(t)[0] > room for t in labels.values()):
            one_line -= 1
        if one_line >= min(size, self.scene.model.layout.text_size):
            return one_line
        while size > floor and not all(fits(text) for text in labels.values()):
            size -= 1
        return size

    def lift_image(self, group: tuple[Card, ...], offsets: tuple[int, ...]) -> pygame.Surface:
        """A lifted group as one image, drawn once per drag (a frame blits it once)."""
        art = self.art
        key = (group, offsets, id(art))  # a new size or language makes a new CardArt
        if self._lift is None or self._lift[0] != key:
            image = pygame.Surface((art.width, offsets[-1] + art.height), pygame.SRCALPHA)
            strip = self.strip_size(list(offsets))
            for k, (card, y) in enumerate(zip(group, offsets, strict=True)):
                image.blit(art.image(card, True, k < len(group) - 1), (0, y))
                if strip and k < len(group) - 1:
                    image.blit(art.index_strip(card, *strip), (0, y))
            self._lift = (key, image)
        image = self._lift[1]
        return image

    def strip_size(self, ys: list[int]) -> tuple[int, int] | None:
        """For face-up cards fanned at ``ys`` (bottom to top): the index strip the covered ones
        need, as (height, room): a little taller than the widest gap, its index sized for the
        narrowest (one size for the whole column). None when the fan shows every corner index
        whole (however far it opens, a covered card shows nothing of its face below the index:
        CardArt.covered)."""
        if len(ys) < 2:
            return None
        gaps = [b - a for a, b in itertools.pairwise(ys)]
        if min(gaps) >= self.art.index_clear:
            return None
        # Taller than the gap: the next card's soft edge and round corners show what is
        # beneath them, which must be the strip and not the big index.
        return min(self.art.height, max(gaps) + self.art.radius), min(gaps)


STATE = 3  # where Chrome.key() holds Undo's and Redo's state


def changed_buttons(
    before: tuple[object, ...], after: tuple[object, ...]
) -> tuple[Button, ...] | None:
    """The buttons whose state differs between two Chrome.key()s when nothing else does (a
    move or an undo), else None (the whole background changed)."""
    if before[:STATE] + before[STATE + 1 :] != after[:STATE] + after[STATE + 1 :]:
        return None
    was, now = before[STATE], after[STATE]
    assert isinstance(was, tuple) and isinstance(now, tuple)
    undo_redo: tuple[Button, Button] = ("undo", "redo")
    return tuple(n for n, a, b in zip(undo_redo, was, now, strict=True) if a != b)


def fit_size(text: str, rect: Rect, start: int, least: int = 9, readable: int = 9) -> int:
    """The largest text size from ``start`` down at which bold ``text``, wrapped to the width of
    ``rect``, fits it whole: every line as wide as the rect at most, all lines as high, and a
    game's name on one line where a size down to ``readable`` allows it ("Seahaven Towers"
    stacked with the rest in five lines at 800x480, issue 40 item 15); ``least`` when none
    does."""
    fitting: list[int] = []
    for size in range(start, least, -1):
        lines = ui.wrap(text, rect.width, size, True)
        bold = font(size, True)
        wide = max(bold.size(line)[0] for line in lines)
        if wide <= rect.width and bold.get_linesize() * len(lines) <= rect.height:
            if size < readable or not splits_a_name(text, lines):
                return fitting[0] if fitting and size < readable else size
            fitting.append(size)
    return fitting[0] if fitting else least
