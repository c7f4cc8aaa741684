"""Dialog scenes pushed over the table: new game, game-code keypad, settings, rules, win.

A dialog is a panel of controls (buttons, choices, switches) laid out from the screen size. It
dims the table once when it opens and afterwards redraws only its own panel when something in
it changed. Everything acts on a tap; nothing needs a keyboard (keys work too).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import pygame
from pygame import Rect

from engine import CodeError, Game
from engine.codes import ALPHABET
from game import ui
from game.cards import CardArt, font
from game.input import DoubleTap, DragCancel, DragMove, DragStart, Drop, Press, Tap
from game.keypad import Key, KeypadLook, add_keypad
from game.scene import Event, Scene
from game.ui import Control

if TYPE_CHECKING:
    from game.app import App


class Dialog(Scene):
    opaque = False
    closable = True

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.controls: list[Control] = []
        self.panel = Rect(0, 0, 0, 0)
        self.dirty = True
        self.pressed: Control | None = None
        self.backdrop: pygame.Surface | None = None
        self._shown = Rect(0, 0, 0, 0)  # where the panel was last drawn
        self.resize()

    # ----------------------------------------------------------------- layout
    def panel_rect(self, max_w: float = 760, max_h: float = 620) -> Rect:
        w, h = self.app.screen.get_size()
        if w > 1400:
            max_w = max(max_w, w * 0.5)
        elif w <= 1100 and w > h:
            max_w = max(max_w, w * 0.72)  # a small landscape panel: use its width
        pw = int(min(w * 0.94, max_w))
        ph = int(min(h * 0.94, max_h if h < 1000 else max(max_h, h * 0.6)))
        rect = Rect(0, 0, pw, ph)
        rect.center = (w // 2, h // 2)
        return rect

    def unit(self) -> float:
        """A base size for text and rows: about a finger's height, scaled to the panel."""
        ppm = self.app.px_per_mm
        w, h = self.app.screen.get_size()
        return max(min(h, w) * 0.075, min(9 * ppm, min(h, w) * 0.11), 34)

    def resize(self) -> None:
        self.controls = []
        self.build()
        self.dirty = True

    def build(self) -> None: ...

    def rebuild(self) -> None:
        self.resize()

    def add(self, control: Control) -> Control:
        self.controls.append(control)
        return control

    def row(
        self,
        rect: Rect,
        labels: list[str],
        actions: list[Callable[[], None]],
        selected: int = -1,
        size: int = 0,
    ) -> None:
        """Buttons side by side filling ``rect``."""
        gap = max(6, rect.height // 8)
        n = len(labels)
        bw = (rect.width - gap * (n - 1)) / n
        # One text size for the whole row (a long label wraps to two lines before it shrinks).
        size = ui.label_size(labels, int(bw) - 10, rect.height, size or int(self.unit() * 0.36))
        for i, (label, action) in enumerate(zip(labels, actions, strict=True)):
            r = Rect(round(rect.left + i * (bw + gap)), rect.top, round(bw), rect.height)
            self.add(Control(r, label, action, selected=(i == selected), size=size))

    # ----------------------------------------------------------------- events
    def control_at(self, pos: tuple[int, int]) -> Control | None:
        for control in self.controls:
            if control.action and control.enabled and control.rect.collidepoint(pos):
                return control
        return None

    def handle(self, event: Event) -> bool:
        if isinstance(event, pygame.event.EventType):
            if event.type == pygame.KEYDOWN:
                self.on_key(event)
            return True
        if isinstance(event, Press):
            self.pressed = self.control_at(event.pos)
            self.dirty = True
        elif isinstance(event, Tap | DoubleTap):
            control = self.control_at(event.pos)
            self.pressed = None
            self.dirty = True
            if control and control.action:
                control.action()
        else:
            if self.pressed:
                self.pressed = None
                self.dirty = True
        return True

    def on_key(self, event: pygame.event.Event) -> None:
        if event.key == pygame.K_ESCAPE and self.closable:
            self.close()

    def close(self) -> None:
        self.app.pop(self)

    def open(self, name: str, **kwargs: object) -> None:
        """Open the scene registered as ``name`` over this one."""
        self.app.scenes.open(name, **kwargs)

    # ----------------------------------------------------------------- drawing
    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        if full:
            shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
            shade.fill((0, 0, 0, 120))
            screen.blit(shade, (0, 0))
            # The whole dimmed screen: the panel may change size later (a row comes or goes).
            self.backdrop = screen.copy()
            self._shown = Rect(self.panel)
        elif not self.dirty:
            return []
        self.dirty = False
        area = self.panel.union(self._shown)
        if self.backdrop is not None:
            screen.blit(self.backdrop, area, area)
        self.paint(screen)
        self._shown = Rect(self.panel)
        return [screen.get_rect()] if full else [area]

    def paint(self, screen: pygame.Surface) -> None:
        ui.panel(screen, self.panel, radius=max(8, int(self.unit() * 0.25)))
        for control in self.controls:
            self.paint_control(screen, control)

    def paint_control(self, screen: pygame.Surface, c: Control) -> None:
        size = c.size or int(self.unit() * 0.36)
        if c.kind == "button":
            ui.button(
                screen,
                c.rect,
                c.label,
                selected=c.selected,
                enabled=c.enabled,
                pressed=c is self.pressed,
                size=size,
            )
        elif c.kind == "title":
            img = ui.fit_text(c.label, c.rect.width, size, ui.INK, bold=True)
            screen.blit(img, img.get_rect(center=c.rect.center))
        elif c.kind == "label":
            img = ui.fit_text(c.label, c.rect.width, size, ui.INK_DIM)
            screen.blit(img, img.get_rect(midleft=c.rect.midleft))
        elif c.kind == "text":
            ui.draw_wrapped(
                screen, c.label, c.rect, size, ui.INK, center=bool(c.extra.get("center"))
            )
        elif c.kind == "error":
            ui.draw_wrapped(screen, c.label, c.rect, size, ui.ERROR, center=True)
        elif c.kind == "switch":
            if c is self.pressed:
                pygame.draw.rect(screen, (60, 100, 75), c.rect, border_radius=8)
            knob = Rect(0, 0, *switch_knob(c.rect.height))
            knob.midright = (c.rect.right - 8, c.rect.centery)
            ui.switch(screen, knob, c.selected)
            text_w = c.rect.width - knob.width - 24
            title = ui.fit_text(c.label, text_w, size, ui.INK, bold=True)
            help_size = int(c.extra.get("help_size", 0))  # type: ignore[call-overload]
            lines = ui.wrap(str(c.extra.get("help", "")), text_w, help_size) if help_size else []
            line_h = font(help_size).get_linesize() if help_size else 0
            block = title.get_height() + line_h * len(lines)
            y = c.rect.centery - block // 2
            screen.blit(title, (c.rect.left + 8, y))
            y += title.get_height()
            for line in lines:
                sub = ui.fit_text(line, text_w, help_size, ui.INK_DIM, min_size=11)
                screen.blit(sub, (c.rect.left + 8, y))
                y += line_h
        elif c.kind == "field":
            pygame.draw.rect(screen, (250, 248, 236), c.rect, border_radius=8)
            pygame.draw.rect(screen, ui.BUTTON_ON, c.rect, 2, border_radius=8)
            img = ui.fit_text(c.label + "▏", c.rect.width - 20, size, (20, 20, 20), bold=True)
            screen.blit(img, img.get_rect(center=c.rect.center))


def switch_knob(row_h: int) -> tuple[int, int]:
    """The on/off switch's size in a settings row ``row_h`` tall."""
    return int(row_h * 1.3), int(row_h * 0.6)


def _stack(top: int, heights: list[float], gap: int) -> list[int]:
    ys = []
    y = float(top)
    for h in heights:
        ys.append(int(y))
        y += h + gap
    return ys


class NewGameScene(Dialog):
    """Game, rules or free cells, level (when the deal catalog has deals), a game code, deal."""

    name = "newgame"

    def __init__(self, app: App) -> None:
        self.choice = app.choice.following(app.table.game.rules)
        super().__init__(app)

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        c = self.choice
        w, h = self.app.screen.get_size()
        portrait = h > w
        Choice = tuple[str, list[str], list[Callable[[], None]], int]
        choices: list[Choice] = [
            (
                tr("newgame.game"),
                [tr("names.russian"), tr("names.seahaven")],
                [lambda: self.pick(game="russian"), lambda: self.pick(game="seahaven")],
                0 if c.game == "russian" else 1,
            )
        ]
        if c.game == "russian":
            choices.append(
                (
                    tr("newgame.rules"),
                    [
                        f"{tr('names.classic')} · {tr('names.same_suit')}",
                        f"{tr('names.relaxed')} · {tr('names.mixed_suits')}",
                    ],
                    [
                        lambda: self.pick(russian_rules="classic"),
                        lambda: self.pick(russian_rules="relaxed"),
                    ],
                    0 if c.russian_rules == "classic" else 1,
                )
            )
            if self.app.has_levels(c.rules_key()):
                # Seahaven's difficulty is its free cells; levels are Russian Solitaire's.
                names = ["easy", "medium", "hard", "any"]
                choices.append(
                    (
                        tr("newgame.level"),
                        [tr(f"names.{n}") for n in names],
                        [partial(self.pick, level=n) for n in names],
                        names.index(c.level) if c.level in names else 3,
                    )
                )
        else:
            options = [4, 2, 1]
            choices.append(
                (
                    tr("newgame.cells"),
                    [tr(f"newgame.cells_{n}") for n in ("easy", "medium", "hard")],
                    [partial(self.pick, seahaven_cells=n) for n in options],
                    options.index(c.seahaven_cells) if c.seahaven_cells in options else 0,
                )
            )
        row_h = int(u)
        gap = int(u * 0.3)
        # Portrait: each label above its buttons, which get the panel's whole width.
        label_h = int(u * 0.55) if portrait else 0
        title_h = int(u * 0.9)
        heights = [title_h] + [label_h + row_h] * len(choices) + [row_h, row_h]
        rows = len(heights) - 1
        self.panel = self.panel_rect(max_w=u * 12, max_h=sum(heights) + rows * gap + u)
        p = self.panel
        pad = int(u * 0.35)
        inner = p.inflate(-2 * pad, -2 * pad)
        need = 2 * pad + sum(heights) + gap * rows
        if need < p.height:
            p.height = int(need)
            p.center = (w // 2, h // 2)
            inner = p.inflate(-2 * pad, -2 * pad)
        else:
            gap += int((inner.height - sum(heights) - gap * rows) / rows)
        ys = _stack(inner.top, heights, gap)
        self.add(
            Control(
                Rect(inner.left, ys[0], inner.width, title_h),
                tr("newgame.title"),
                kind="title",
                size=int(u * 0.5),
            )
        )
        label_w = 0 if portrait else int(inner.width * 0.24)
        for y, (label, labels, actions, selected) in zip(ys[1:], choices, strict=False):
            if portrait:
                label_rect = Rect(inner.left + 4, y, inner.width - 4, label_h)
            else:
                label_rect = Rect(inner.left, y, label_w, row_h)
            self.add(Control(label_rect, label, kind="label"))
            r = Rect(inner.left + label_w, y + label_h, inner.width - label_w, row_h)
            self.row(r, labels, actions, selected)
        self.row(
            Rect(inner.left, ys[-2], inner.width, row_h),
            [tr("newgame.code"), tr("newgame.replay")],
            [self.open_keypad, self.replay],
        )
        self.row(
            Rect(inner.left, ys[-1], inner.width, row_h),
            [tr("dialog.cancel"), tr("newgame.deal")],
            [self.close, self.deal],
            1,
        )

    def pick(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.choice, key, value)
        self.rebuild()

    def open_keypad(self) -> None:
        self.open("keypad", text=self.choice.rules_key() + "-")

    def replay(self) -> None:
        table = self.app.table
        self.app.pop_to_table()
        table.start_game(Game.from_code(table.game.code, history_limit=self.app.undo_depth))

    def deal(self) -> None:
        self.app.choice = self.choice
        game = self.app.new_game()
        self.app.pop_to_table()
        self.app.table.start_game(game)


KEYPAD_KEYS = tuple(ALPHABET)
CODE_KEYPAD = KeypadLook(
    columns=8, max_w=13, max_h=9.5, title_size=0.42, message_h=0.75, square_keys=True
)
TOGGLES = (
    "double_tap",
    "placement_help",
    "interactive_rules",
    "auto_placement",
    "winnable_indicator",
)


class KeypadScene(Dialog):
    """An on-screen keypad for a game code: the 32 code letters, a dash, delete, clear."""

    name = "keypad"

    def __init__(self, app: App, text: str = "") -> None:
        self.text = text
        self.error = ""
        super().__init__(app)

    def build(self) -> None:
        tr, cols = self.tr, CODE_KEYPAD.columns
        letters = [Key(letter, partial(self.type, letter)) for letter in KEYPAD_KEYS]
        # The last row: "1" and "-" as wide as a key, then delete, clear, cancel, play.
        last = [
            Key("1", partial(self.type, "1")),
            Key("-", partial(self.type, "-")),
            Key("⌫", self.delete),
            Key(tr("keypad.clear"), self.clear, 1.5, "word"),
            Key(tr("dialog.cancel"), self.close, 1.5, "word"),
            Key(tr("keypad.play"), self.submit, 2.0, "word", selected=True),
        ]
        add_keypad(
            self,
            CODE_KEYPAD,
            title=tr("keypad.title"),
            text=self.text,
            message=self.error or tr("keypad.hint"),
            error=bool(self.error),
            rows=[letters[i : i + cols] for i in range(0, len(letters), cols)] + [last],
        )

    def type(self, char: str) -> None:
        if len(self.text) < 20:
            self.text += char
        self.error = ""
        self.rebuild()

    def delete(self) -> None:
        self.text = self.text[:-1]
        self.error = ""
        self.rebuild()

    def clear(self) -> None:
        self.text = ""
        self.error = ""
        self.rebuild()

    def submit(self) -> None:
        try:
            game = self.app.new_game(self.text)
        except CodeError as error:
            self.error = self.tr.refusal(error)
            self.rebuild()
            return
        self.app.pop_to_table()
        self.app.table.start_game(game)

    def on_key(self, event: pygame.event.Event) -> None:
        key = event.key
        char = getattr(event, "unicode", "") or ""
        if key == pygame.K_ESCAPE:
            self.close()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.submit()
        elif key == pygame.K_BACKSPACE:
            self.delete()
        elif char and (char.upper() in ALPHABET or char in "-1"):
            self.type(char.upper())


class SettingsScene(Dialog):
    """The player's toggles (kept across restarts), the language, the rules screen."""

    name = "settings"

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        from game.i18n import LOCALES

        w, h = self.app.screen.get_size()
        self.panel = self.panel_rect(max_w=u * 12, max_h=u * (12 if h > w else 10))
        p = self.panel
        pad = int(u * 0.35)
        inner = p.inflate(-2 * pad, -2 * pad)
        gap = max(4, int(u * 0.14))
        title_h = int(u * 0.8)
        rows = len(TOGGLES) + 2
        row_h = (inner.height - title_h - gap * rows) / rows
        y: float = inner.top
        self.add(
            Control(
                Rect(inner.left, y, inner.width, title_h),
                tr("settings.title"),
                kind="title",
                size=int(u * 0.5),
            )
        )
        y += title_h + gap
        settings = self.app.settings
        title_size = int(min(u * 0.4, row_h * 0.34))
        helps = [tr(f"settings.{name}_help") for name in TOGGLES]
        help_size = self.help_size(helps, round(row_h), inner.width, title_size)
        for name, help_text in zip(TOGGLES, helps, strict=True):
            rect = Rect(inner.left, round(y), inner.width, round(row_h))
            self.add(
                Control(
                    rect,
                    tr(f"settings.{name}"),
                    partial(self.toggle, name),
                    kind="switch",
                    selected=bool(getattr(settings, name)),
                    name=name,
                    size=title_size,
                    extra={"help": help_text, "help_size": help_size},
                )
            )
            y += row_h + gap
        label_w = int(inner.width * 0.28)
        rect = Rect(inner.left, round(y), inner.width, round(row_h))
        self.add(
            Control(
                Rect(rect.left + 8, rect.top, label_w - 16, rect.height),
                tr("settings.language"),
                kind="label",
                size=int(min(u * 0.4, row_h * 0.34)),
            )
        )
        self.row(
            Rect(rect.left + label_w, rect.top, rect.width - label_w, rect.height),
            [tr(f"language.{loc}") for loc in LOCALES],
            [partial(self.app.set_locale, loc) for loc in LOCALES],
            LOCALES.index(self.tr.locale) if self.tr.locale in LOCALES else -1,
        )
        y += row_h + gap
        labels = [tr("settings.rules"), tr("dialog.close")]
        actions: list[Callable[[], None]] = [partial(self.open, "rules"), self.close]
        if self.app.kiosk is not None:  # statistics are kept by the kiosk session
            labels.insert(1, tr("stats.button"))
            actions.insert(1, partial(self.open, "stats"))
        self.row(
            Rect(inner.left, round(y), inner.width, round(row_h)),
            labels,
            actions,
            len(labels) - 1,
        )

    @staticmethod
    def help_size(helps: list[str], row_h: int, width: int, title_size: int) -> int:
        """One size for every switch's help line: the largest (up to 0.8 of the title) at which
        each fits under its title, on two lines where the row is tall enough; 0: no room."""
        text_w = width - switch_knob(row_h)[0] - 24
        room = row_h - font(title_size, True).get_linesize() - 4
        for size in range(int(title_size * 0.8), 10, -1):
            line_h = font(size).get_linesize()
            lines = min(2, room // line_h)
            wrapped = [ui.wrap(text, text_w, size) for text in helps]
            if lines and all(
                len(rows) <= lines and all(font(size).size(r)[0] <= text_w for r in rows)
                for rows in wrapped
            ):
                return size
        return 0

    def toggle(self, name: str) -> None:
        self.app.change_setting(name, not getattr(self.app.settings, name))
        self.rebuild()


class RulesScene(Dialog):
    """The rules of the game on the table, from the message catalog, at a size a player reads
    without effort (about 3.6 mm, never under 16 px). When they do not fit, the text scrolls:
    drag or swipe it, turn the mouse wheel, tap the arrow buttons, or use the arrow and page
    keys. A bar at the side shows where you are."""

    name = "rules"

    def __init__(self, app: App) -> None:
        self.scroll = 0
        self.max_scroll = 0
        self.line_h = 1
        self.view = Rect(0, 0, 0, 0)
        self.body: pygame.Surface | None = None
        self._grab: tuple[int, int] | None = None  # pointer y and scroll when a drag began
        super().__init__(app)

    def text_size(self) -> int:
        return max(16, int(3.6 * self.app.px_per_mm), int(self.unit() * 0.33))

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        # As tall as the screen allows (it shrinks when the text is short).
        self.panel = self.panel_rect(max_w=u * 16, max_h=self.app.screen.get_height())
        p = self.panel
        pad = int(u * 0.35)
        inner = p.inflate(-2 * pad, -2 * pad)
        game = self.app.table.game.rules.game
        title_h = int(u * 0.8)
        button_h = int(u * 0.9)
        self.add(
            Control(
                Rect(inner.left, inner.top, inner.width, title_h),
                tr(f"rules.{game}.title"),
                kind="title",
                size=int(u * 0.5),
            )
        )
        bar_w = max(6, int(u * 0.12))
        self.view = Rect(
            inner.left,
            inner.top + title_h,
            inner.width - 2 * bar_w,
            inner.height - title_h - button_h - pad,
        )
        paragraphs = tr.paragraphs(f"rules.{game}.body")
        self.body, self.line_h = ui.paragraphs_image(paragraphs, self.view.width, self.text_size())
        if self.body.get_height() <= self.view.height:
            # Everything fits: the panel shrinks to the text.
            spare = self.view.height - self.body.get_height()
            p.height -= spare
            p.center = (self.app.screen.get_width() // 2, self.app.screen.get_height() // 2)
            inner = p.inflate(-2 * pad, -2 * pad)
            self.controls[0].rect.top = inner.top
            self.view.top = inner.top + title_h
            self.view.height = self.body.get_height()
        self.max_scroll = max(0, self.body.get_height() - self.view.height)
        self.scroll = min(self.scroll, self.max_scroll)
        row = Rect(inner.left, inner.bottom - button_h, inner.width, button_h)
        if self.max_scroll:
            gap = max(6, button_h // 8)
            side = (row.width - 2 * gap) // 4
            close = Rect(row.left + side + gap, row.top, row.width - 2 * side - 2 * gap, button_h)
            arrow = int(button_h * 0.45)
            up = Rect(row.left, row.top, side, button_h)
            self.add(Control(up, "▲", self.page_up, name="up", size=arrow))
            self.add(Control(close, tr("dialog.close"), self.close, selected=True))
            down = Rect(row.right - side, row.top, side, button_h)
            self.add(Control(down, "▼", self.page_down, name="down", size=arrow))
        else:
            close = Rect(0, 0, int(inner.width * 0.4), button_h)
            close.midbottom = inner.midbottom
            self.add(Control(close, tr("dialog.close"), self.close, selected=True))
        self._sync_arrows()

    # ----------------------------------------------------------------- scrolling
    def scroll_to(self, value: float) -> None:
        value = int(max(0, min(self.max_scroll, value)))
        if value != self.scroll:
            self.scroll = value
            self._sync_arrows()
            self.dirty = True

    def page_up(self) -> None:
        self.scroll_to(self.scroll - (self.view.height - self.line_h))

    def page_down(self) -> None:
        self.scroll_to(self.scroll + (self.view.height - self.line_h))

    def _sync_arrows(self) -> None:
        for control in self.controls:
            if control.name == "up":
                control.enabled = self.scroll > 0
            elif control.name == "down":
                control.enabled = self.scroll < self.max_scroll

    def handle(self, event: Event) -> bool:
        if isinstance(event, pygame.event.EventType) and event.type == pygame.MOUSEWHEEL:
            self.scroll_to(self.scroll - getattr(event, "y", 0) * self.line_h * 3)
            return True
        if isinstance(event, DragStart) and self.panel.collidepoint(event.start):
            self._grab = (event.start[1], self.scroll)
            self.pressed = None
            self.scroll_to(self.scroll - (event.pos[1] - event.start[1]))
            return True
        if isinstance(event, DragMove) and self._grab is not None:
            y, scroll = self._grab
            self.scroll_to(scroll - (event.pos[1] - y))
            return True
        if isinstance(event, Drop | DragCancel) and self._grab is not None:
            self._grab = None
            return True
        return super().handle(event)

    def on_key(self, event: pygame.event.Event) -> None:
        steps = {
            pygame.K_UP: -self.line_h,
            pygame.K_DOWN: self.line_h,
            pygame.K_PAGEUP: -(self.view.height - self.line_h),
            pygame.K_PAGEDOWN: self.view.height - self.line_h,
            pygame.K_SPACE: self.view.height - self.line_h,
            pygame.K_HOME: -self.max_scroll,
            pygame.K_END: self.max_scroll,
        }
        if event.key in steps:
            self.scroll_to(self.scroll + steps[event.key])
        else:
            super().on_key(event)

    # ----------------------------------------------------------------- drawing
    def paint(self, screen: pygame.Surface) -> None:
        super().paint(screen)
        if self.body is None:
            return
        area = Rect(0, self.scroll, self.view.width, self.view.height)
        screen.blit(self.body, self.view.topleft, area)
        if self.max_scroll:
            u = self.unit()
            bar_w = max(6, int(u * 0.12))
            track = Rect(self.view.right + bar_w, self.view.top, bar_w, self.view.height)
            pygame.draw.rect(screen, (40, 66, 52), track, border_radius=bar_w // 2)
            total = self.body.get_height()
            thumb_h = max(bar_w * 3, track.height * self.view.height // total)
            top = track.top + (track.height - thumb_h) * self.scroll // self.max_scroll
            thumb = Rect(track.left, top, bar_w, thumb_h)
            pygame.draw.rect(screen, ui.PANEL_EDGE, thumb, border_radius=bar_w // 2)


@dataclass
class _Flyer:
    card: int
    x: float
    y: float
    vx: float
    vy: float
    trail: list[tuple[int, int]] = field(default_factory=list)


class WinScene(Dialog):
    """Cards leap off the foundations and bounce away (trails stay on the felt), with a panel:
    time, moves, score, and a new deal."""

    name = "win"

    closable = False
    LAUNCH_EVERY = 0.11

    def __init__(self, app: App, game: Game, elapsed: float) -> None:
        self.game = game
        self.elapsed = elapsed
        self.rng = random.Random(game.number)
        self.flyers: list[_Flyer] = []
        self.launched = 0
        self.clock = 0.0
        self.drawn: dict[int, int] = {}
        self.panel_image: pygame.Surface | None = None
        super().__init__(app)

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        self.panel = self.panel_rect(max_w=u * 8, max_h=u * 6.2)
        p = self.panel
        pad = int(u * 0.4)
        inner = p.inflate(-2 * pad, -2 * pad)
        seconds = int(self.elapsed)
        clock = f"{seconds // 60}:{seconds % 60:02d}"
        lines = [
            ("title", tr("win.title"), 1.1, int(u * 0.65)),
            ("text", tr("win.time", time=clock), 0.6, int(u * 0.4)),
            ("text", tr("win.moves", count=self.game.moves), 0.6, int(u * 0.4)),
            ("text", tr("win.score", score=self.game.score), 0.6, int(u * 0.4)),
            ("text", tr("win.code", code=self.game.code), 0.6, int(u * 0.32)),
        ]
        total = sum(h for _, _, h, _ in lines) * u + u
        need = total + u * 0.3 + 2 * pad
        if need < p.height:  # no empty band between the figures and the button
            p.height = int(need)
            p.center = (self.app.screen.get_width() // 2, self.app.screen.get_height() // 2)
            inner = p.inflate(-2 * pad, -2 * pad)
        scale = min(1.0, (inner.height - u * 0.2) / total)
        y = float(inner.top)
        for kind, text, h, size in lines:
            rect = Rect(inner.left, int(y), inner.width, int(h * u * scale))
            self.add(Control(rect, text, kind=kind, size=int(size * scale), extra={"center": True}))
            y += h * u * scale
        button = Rect(0, 0, int(inner.width * 0.6), int(u * scale))
        button.midbottom = inner.midbottom
        self.add(Control(button, tr("win.new_deal"), self.new_deal, selected=True))
        self.panel_image = None

    def new_deal(self) -> None:
        """Another deal of the game just won (it may have come from a typed code)."""
        self.app.choice = self.app.choice.following(self.game.rules)
        game = self.app.new_game()
        self.app.pop_to_table()
        self.app.table.start_game(game)

    def busy(self) -> bool:
        return self.launched < 52 or bool(self.flyers)

    def update(self, dt: float) -> None:
        self.clock += dt
        w, h = self.app.screen.get_size()
        table = self.app.table
        lay = table.layout
        while self.launched < 52 and self.clock >= self.launched * self.LAUNCH_EVERY:
            k = self.launched
            suit = k % 4
            rank = 12 - k // 4
            card = suit * 13 + rank
            start = lay.foundations[suit]
            speed = w * self.rng.uniform(0.25, 0.6)
            direction = -1 if self.rng.random() < 0.5 else 1
            self.flyers.append(
                _Flyer(card, start.x, start.y, speed * direction, -h * self.rng.uniform(0.0, 0.6))
            )
            self.launched += 1
        gravity = h * 2.4
        floor = h - lay.card_h
        alive = []
        for f in self.flyers:
            f.vy += gravity * dt
            f.x += f.vx * dt
            f.y += f.vy * dt
            if f.y > floor:
                f.y = floor
                f.vy = -abs(f.vy) * 0.72
            f.trail.append((int(f.x), int(f.y)))
            if -lay.card_w < f.x < w:
                alive.append(f)
        self.flyers = alive

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        art: CardArt = self.app.table.art
        rects: list[Rect] = []
        if full:
            shade = pygame.Surface(screen.get_size(), pygame.SRCALPHA)
            shade.fill((0, 0, 0, 70))
            screen.blit(shade, (0, 0))
            self.drawn = {}
        for f in self.flyers:
            start = self.drawn.get(f.card, 0)
            image = art.face(f.card)
            for pos in f.trail[start:]:
                screen.blit(image, pos)
                rects.append(image.get_rect(topleft=pos))
            self.drawn[f.card] = len(f.trail)
        if full or self.dirty or any(r.colliderect(self.panel) for r in rects):
            if self.panel_image is None or self.dirty:
                surface = pygame.Surface(self.panel.size, pygame.SRCALPHA)
                offset = (-self.panel.left, -self.panel.top)
                moved = [
                    Control(
                        c.rect.move(offset),
                        c.label,
                        c.action,
                        c.kind,
                        c.selected,
                        c.enabled,
                        c.size,
                        c.name,
                        c.extra,
                    )
                    for c in self.controls
                ]
                ui.panel(
                    surface, surface.get_rect(), radius=max(8, int(self.unit() * 0.25)), alpha=255
                )
                for c in moved:
                    self.paint_control(surface, c)
                self.panel_image = surface
            screen.blit(self.panel_image, self.panel)
            rects.append(Rect(self.panel))
            self.dirty = False
        if full:
            return [screen.get_rect()]
        return rects
