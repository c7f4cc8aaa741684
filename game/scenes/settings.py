"""The settings dialog: the player's toggles, the sound and its volume, the language, rules and
statistics."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import pygame
from pygame import Rect

from game.i18n import LOCALES
from game.look import ui
from game.look.fonts import font
from game.look.ui import Control
from game.scenes.dialog import Dialog, switch_knob

TOGGLES = (
    "double_tap",
    "one_tap",
    "placement_help",
    "interactive_rules",
    "auto_placement",
    "winnable_indicator",
    "four_colors",
    "tap_to_place",
    "sound",
)
VOLUMES = (0.2, 0.4, 0.6, 0.8, 1.0)  # the volume control's steps, quiet to full
MIN_ROW_MM = 7.5  # the shortest switch row a finger still hits reliably


class SettingsScene(Dialog):
    """The player's toggles and the sound (kept across restarts), the language, the rules
    screen."""

    name = "settings"

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        w, h = self.app.screen.get_size()
        least = self.least  # no text smaller than the info bar's
        # A tall screen gives the panel its height, a wide one more width: room for the help
        # lines at a readable size.
        wide_w = u * (16 if w > 1400 else 12)
        self.panel = self.panel_rect(max_w=wide_w, max_h=h if h > w or h >= 1000 else u * 11.5)
        gap = max(4, int(u * 0.14))
        title_h = int(u * 0.8)
        pad = int(u * 0.35)
        # One column of switches (then the volume, the language and the buttons, a row each)
        # while each row stays a comfortable touch target; else (a small landscape screen) two
        # columns on a wider panel, with the language and the volume side by side below them.
        height = self.panel.height - 2 * pad - title_h
        columns, rows = 1, len(TOGGLES) + 3
        if (height - gap * rows) / rows < MIN_ROW_MM * self.app.px_per_mm:
            columns = 2
            self.panel = self.panel_rect(max_w=u * 17, max_h=u * 10)
        p = self.panel
        inner = p.inflate(-2 * pad, -2 * pad)
        toggle_rows = -(-len(TOGGLES) // columns)
        rows = toggle_rows + (3 if columns == 1 else 2)
        row_h = (inner.height - title_h - gap * rows) / rows
        # The other rows a finger's height at most: the switches, with their help, get the rest.
        other_h = min(row_h, u * 0.9)
        switch_h = inner.height - title_h - gap * rows - (rows - toggle_rows) * other_h
        switch_h /= toggle_rows
        col_w = (inner.width - gap * (columns - 1)) / columns
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
        helps = [tr(f"settings.{name}_help") for name in TOGGLES]
        title_size, help_size = self.text_sizes(
            helps,
            round(switch_h),
            round(col_w),
            max(least, int(min(u * 0.4, switch_h * 0.34))),
            least,
        )
        for i, (name, help_text) in enumerate(zip(TOGGLES, helps, strict=True)):
            column, row = divmod(i, toggle_rows)
            left = inner.left + column * (col_w + gap)
            rect = Rect(
                round(left), round(y + row * (switch_h + gap)), round(col_w), round(switch_h)
            )
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
        y += toggle_rows * (switch_h + gap)
        row_h = other_h
        label_size = max(least, int(min(u * 0.4, row_h * 0.34)))
        line = Rect(inner.left, round(y), inner.width, round(row_h))
        if columns == 1:
            self.volume_row(line, int(inner.width * 0.28), label_size)
            y += row_h + gap
            self.language_row(line.move(0, round(row_h + gap)), int(inner.width * 0.28), label_size)
        else:  # the language under the left column, the volume under the right one
            half = Rect(line.left, line.top, round(col_w), line.height)
            self.language_row(half, int(col_w * 0.28), label_size)
            self.volume_row(half.move(round(col_w + gap), 0), int(col_w * 0.28), label_size)
        y += row_h + gap
        labels = [tr("settings.rules"), tr("dialog.close")]
        scenes = self.app.scenes  # each opening checked against game.host.Stack's overloads
        actions: list[Callable[[], object]] = [lambda: scenes.open("rules"), self.close]
        if self.app.kiosk is not None:  # statistics are kept by the kiosk session
            labels.insert(1, tr("stats.button"))
            actions.insert(1, lambda: scenes.open("stats"))
        self.row(
            Rect(inner.left, round(y), inner.width, round(row_h)),
            labels,
            actions,
            len(labels) - 1,
        )

    def language_row(self, rect: Rect, label_w: int, size: int) -> None:
        """ "Language" and a button for each language, the one in use lit."""
        tr = self.tr
        self.add(
            Control(
                Rect(rect.left + 8, rect.top, label_w - 16, rect.height),
                tr("settings.language"),
                kind="label",
                size=size,
            )
        )
        self.row(
            Rect(rect.left + label_w, rect.top, rect.width - label_w, rect.height),
            [tr(f"language.{loc}") for loc in LOCALES],
            [partial(self.app.set_locale, loc) for loc in LOCALES],
            LOCALES.index(tr.locale) if tr.locale in LOCALES else -1,
        )

    def volume_row(self, rect: Rect, label_w: int, size: int) -> None:
        """ "Volume" (a loudspeaker where the word does not fit) and five steps, quiet to full,
        drawn as bars that rise, lit up to the volume; dimmed and still while sound is off."""
        label = self.tr("settings.volume")
        box = Rect(rect.left + 8, rect.top, label_w - 16, rect.height)
        fits = font(size).size(label)[0] <= box.width
        if not fits:  # the loudspeaker takes less room: the steps get the rest
            label_w = min(label_w, round(rect.height * 0.6) + 20)
            box.width = label_w - 16
        self.add(Control(box, label, kind="label" if fits else "speaker", size=size))
        settings = self.app.settings
        lit = round(settings.volume * len(VOLUMES))
        area = Rect(rect.left + label_w, rect.top, rect.width - label_w, rect.height)
        gap = max(6, rect.height // 8)
        step_w = (area.width - gap * (len(VOLUMES) - 1)) / len(VOLUMES)
        for i, volume in enumerate(VOLUMES):
            percent = round(volume * 100)
            self.add(
                Control(
                    Rect(
                        round(area.left + i * (step_w + gap)), area.top, round(step_w), area.height
                    ),
                    f"{percent} %",
                    partial(self.set_volume, volume),
                    kind="level",
                    selected=i < lit,
                    enabled=settings.sound,
                    name=f"volume_{percent}",
                    extra={"height": 0.28 + 0.72 * i / (len(VOLUMES) - 1)},
                )
            )

    @staticmethod
    def text_sizes(
        helps: list[str], row_h: int, width: int, title_size: int, least: int
    ) -> tuple[int, int]:
        """The switches' title size and one size for their help lines: the largest help (0.8
        of the title, but never under ``least``) at which each fits under its title, on up to
        three lines, the title giving way down to ``least`` first; help 0: no room."""
        text_w = width - switch_knob(row_h)[0] - 24
        for title in range(title_size, least - 1, -1):
            room = row_h - font(title, True).get_linesize() - 4
            for size in range(max(least, int(title * 0.8)), least - 1, -1):
                line_h = font(size).get_linesize()
                lines = min(3, room // line_h)
                wrapped = [ui.wrap(text, text_w, size) for text in helps]
                if lines and all(
                    len(rows) <= lines and all(font(size).size(r)[0] <= text_w for r in rows)
                    for rows in wrapped
                ):
                    return title, size
        return title_size, 0

    def toggle(self, name: str) -> None:
        self.app.prefs.change(name, not getattr(self.app.settings, name))
        if name == "sound":
            self.app.sounds.play("place")  # sound on: the player hears at once how loud
        self.rebuild()

    def set_volume(self, volume: float) -> None:
        self.app.prefs.change("volume", volume)
        self.app.sounds.play("place")  # how loud it is now
        self.rebuild()

    def paint_control(self, screen: pygame.Surface, c: Control) -> None:
        if c.kind == "level":
            paint_level(screen, c, pressed=c is self.pressed)
        elif c.kind == "speaker":
            side = min(c.rect.height * 0.6, c.rect.width)
            icon = Rect(0, 0, round(side), round(side))
            icon.midleft = c.rect.midleft
            paint_speaker(screen, icon, ui.INK_DIM)
        else:
            super().paint_control(screen, c)


def paint_level(screen: pygame.Surface, c: Control, *, pressed: bool) -> None:
    """One step of the volume control: a button with a bar as tall as its loudness, gold up to
    the volume chosen."""
    ui.button(screen, c.rect, "", enabled=c.enabled, pressed=pressed)
    full = c.rect.height * 0.66
    width = round(min(c.rect.width * 0.5, c.rect.height * 0.28))
    height = max(3, round(full * c.extra.get("height", 1.0)))
    bar = Rect(0, 0, width, height)
    bar.midbottom = (c.rect.centerx, round(c.rect.centery + full / 2))
    if c.enabled:
        color = ui.BUTTON_ON if c.selected else (96, 128, 108)
    else:  # sound off: the volume kept for when it comes back, dimmed
        color = (150, 136, 84) if c.selected else (84, 96, 90)
    pygame.draw.rect(screen, color, bar, border_radius=max(2, width // 5))


def paint_speaker(screen: pygame.Surface, box: Rect, color: ui.Color) -> None:
    """A loudspeaker with two sound waves, filling the square ``box``."""
    x, y, s = box.left, box.top, box.width
    body = [(x, y + s * 0.36), (x + s * 0.18, y + s * 0.36), (x + s * 0.44, y + s * 0.12)]
    body += [(x + s * 0.44, y + s * 0.88), (x + s * 0.18, y + s * 0.64), (x, y + s * 0.64)]
    pygame.draw.polygon(screen, color, body)
    width = max(2, round(s / 12))
    for k in (1, 2):
        wave = Rect(0, 0, round(s * 0.5 * k), round(s * 0.5 * k))
        wave.center = (round(x + s * 0.42), box.centery)
        pygame.draw.arc(screen, color, wave, -math.pi * 0.28, math.pi * 0.28, width)
