"""The settings dialog: the player's toggles, the sound and its volume, the language, rules and
statistics."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

import pygame
from pygame import Rect

from game.i18n import LOCALES
from game.input import DoubleTap, Press, Tap
from game.look import grid, ui
from game.look.fonts import font
from game.look.switches import (
    TEXT_INSET,
    paint_help,
    paint_level,
    paint_speaker,
    paint_switch,
    switch_zone,
    title_band,
)
from game.look.typeset import NBSP
from game.look.ui import Control
from game.scene import Event
from game.scenes.dialog import Dialog

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
ROW_PAD = 2  # above and below a switch row's text (px)


@dataclass
class HelpPlan:
    """How the toggles explain themselves: their title size, and either each one's help under
    it (``lines``, one list per toggle, at ``size``; ``heights``: each row of switches) or, where
    that does not fit, one band for the help of the toggle last touched (``band`` lines tall)."""

    title: int
    size: int
    lines: list[list[str]] = field(default_factory=list)
    heights: list[float] = field(default_factory=list)
    band: int = 0


class SettingsScene(Dialog):
    """The player's toggles and the sound (kept across restarts), the language, the rules
    screen. Each toggle's help shows under it where the screen has room for all of them (at the
    info bar's text size at least: every kiosk screen); else a band under the toggles shows the
    help of the toggle last touched (first, how to use it). Only a toggle's switch turns it."""

    name = "settings"
    last = ""  # the toggle last touched (the help band shows its help)
    press_at = (-1, -1)  # where the finger went down last

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        columns, pad, title_h, gap = self.frame(u)
        inner = self.panel.inflate(-2 * pad, -2 * pad)
        toggle_rows = -(-len(TOGGLES) // columns)
        others = 3 if columns == 1 else 2
        tight = max(3, gap // 2)

        def stack(
            toggles: Sequence[grid.Track], band: Sequence[float]
        ) -> tuple[list[grid.Track], list[int]]:
            """The panel top down: the title; the rows of switches with their help, a tight gap
            apart (each lit when pressed); the help band, if any; the volume, the language (side
            by side under two columns) and the buttons, a row each."""
            tracks = [title_h, *toggles, *band, *[other_h] * others]
            return tracks, [gap, *[tight] * (len(toggles) - 1), *[gap] * (len(band) + others)]

        # The rows below the switches get an even share of the panel, a finger's height at
        # most; the switches with their help get the rest (``room``, their gaps left out).
        other_h = min(
            grid.share(inner.height, [title_h, *[grid.Fill()] * (toggle_rows + others)], gap),
            u * 0.9,
        )
        room = grid.free(inner.height, *stack([grid.Fill()] * toggle_rows, []))
        col_w = grid.share(inner.width, [grid.Fill()] * columns, gap)
        titles = [tr(f"settings.{name}") for name in TOGGLES]
        helps = [tr(f"settings.{name}_help") for name in TOGGLES]
        start = max(self.least, int(min(u * 0.4, room / toggle_rows * 0.34)))
        min_row = MIN_ROW_MM * self.app.px_per_mm
        plan = self.help_under_each(helps, room, round(col_w), columns, start, min_row)
        if plan is None:
            plan = self.help_band(
                titles, helps, room - gap, inner.width, start, min_row, toggle_rows
            )
        band = [plan.band] if plan.band else []
        rows_room = room - sum(band) - gap * len(band)
        heights = plan.heights or [rows_room / toggle_rows] * toggle_rows
        # Rows as tall as their help needs and a little more; the rest is left off the panel.
        spare = max(0.0, rows_room - sum(heights))  # (the rows' gaps are out of the room)
        extra = min(spare / toggle_rows, u * 0.25)
        heights = [height + extra for height in heights]
        self.fit_panel(self.panel.height - (spare - extra * toggle_rows))
        inner = self.panel.inflate(-2 * pad, -2 * pad)
        title, *lines = grid.rows(inner, *stack(heights, band))
        self.add(Control(title, tr("settings.title"), kind="title", size=int(u * 0.5)))
        cells = [grid.columns(line, [grid.Fill()] * columns, gap) for line in lines]
        settings = self.app.settings
        for i, (name, label) in enumerate(zip(TOGGLES, titles, strict=True)):
            column, row = divmod(i, toggle_rows)
            self.add(
                Control(
                    cells[row][column],
                    label,
                    partial(self.toggle, name),
                    kind="switch",
                    selected=bool(getattr(settings, name)),
                    name=name,
                    size=plan.title,
                    extra={
                        "help_lines": plan.lines[i] if plan.lines else [],
                        "help_size": plan.size,
                    },
                )
            )
        lines = lines[toggle_rows:]
        if band:
            self.add(Control(lines.pop(0), "", kind="help", size=plan.size, name="help"))
            self.show_help(self.last)
        label_size = max(self.least, int(min(u * 0.4, other_h * 0.34)))
        if columns == 1:
            self.volume_row(lines[0], int(inner.width * 0.28), label_size)
            self.language_row(lines[1], int(inner.width * 0.28), label_size)
        else:  # the language under the left column, the volume under the right one
            left, right = cells[toggle_rows + len(band)]
            self.language_row(left, int(col_w * 0.28), label_size)
            self.volume_row(right, int(col_w * 0.28), label_size)
        self.buttons_row(lines[-1])

    def frame(self, u: float) -> tuple[int, int, int, int]:
        """The panel (``self.panel``) and how it is cut: the number of columns of switches, the
        panel's edge, the title's height and the gap between rows. One column of switches
        (then the volume, the language and the buttons, a row each) while each row stays a
        comfortable touch target; else (a small landscape screen) two columns on a wider panel,
        with the language and the volume side by side below them."""
        w, h = self.app.screen.get_size()
        # A tall screen gives the panel its height, a wide one more width: room for the help
        # lines at a readable size.
        wide_w = u * (16 if w > 1400 else 12)
        self.panel = self.panel_rect(max_w=wide_w, max_h=h if h > w or h >= 1000 else u * 11.5)
        gap = max(4, int(u * 0.14))
        title_h = int(u * 0.8)
        pad = int(u * 0.35)
        rows = len(TOGGLES) + 3
        row_h = grid.share(self.panel.height - 2 * pad, [title_h, *[grid.Fill()] * rows], gap)
        if row_h >= MIN_ROW_MM * self.app.px_per_mm:
            return 1, pad, title_h, gap
        # Two columns on a small landscape screen (800x480): the panel takes the screen's
        # height with a narrower edge and title, room for each help under its toggle.
        self.panel = self.panel_rect(max_w=u * 17, max_h=u * 10)
        self.panel.height = h - 2 * max(4, gap // 2)
        self.panel.centery = h // 2
        return 2, gap, int(u * 0.6), gap

    def buttons_row(self, rect: Rect) -> None:
        """Rules, the statistics (kept by a saved run's session) and Close."""
        tr = self.tr
        labels = [tr("settings.rules"), tr("dialog.close")]
        actions: list[Callable[[], object]] = [self.rules, self.close]
        if self.app.session is not None:  # statistics are kept by a saved run's session
            labels.insert(1, tr("stats.button"))
            actions.insert(1, self.stats)
        self.row(rect, labels, actions, len(labels) - 1)

    # Named openers: the scripted player presses a button by its action's name ("rules").
    def rules(self) -> None:
        self.app.scenes.open("rules")

    def stats(self) -> None:
        self.app.scenes.open("stats")

    def help_under_each(
        self, helps: list[str], room: float, col_w: int, columns: int, start: int, min_row: float
    ) -> HelpPlan | None:
        """Each help under its toggle, across the row (under the switch too): the largest help
        size (from 0.8 of ``start`` down to the info bar's), with the largest title from
        ``start`` down to it, at which the rows, each as tall as its toggles need, fill at most
        ``room``; None when not even the least size fits."""
        least = self.least
        toggle_rows = -(-len(helps) // columns)
        text_w = col_w - 2 * TEXT_INSET
        for size in range(max(least, int(start * 0.8)), least - 1, -1):
            lines = [ui.wrap(text, text_w, size) for text in helps]
            if any(font(size).size(row)[0] > text_w for rows in lines for row in rows):
                continue
            line_h = font(size).get_linesize()
            for title in range(start, size - 1, -1):
                band = title_band(title)
                need = [band + len(rows) * line_h + 2 * ROW_PAD for rows in lines]
                heights = [max(min_row, *need[row::toggle_rows]) for row in range(toggle_rows)]
                if sum(heights) <= room:
                    return HelpPlan(title, size, lines, heights)
        return None

    def help_band(
        self,
        titles: list[str],
        helps: list[str],
        room: float,
        width: int,
        start: int,
        min_row: float,
        toggle_rows: int,
    ) -> HelpPlan:
        """One band under the toggles, as wide as the panel, for the help of the toggle last
        touched: as many lines as the longest help needs at the largest size (from the info
        bar's) that leaves each row of switches a finger's height in ``room`` (the rows' and the
        band's, the gap between them already taken out); size 0: no room at all."""
        least = self.least
        texts = [self.tr("settings.help_prompt")]
        texts += [f"{title}: {text}" for title, text in zip(titles, helps, strict=True)]
        for size in range(max(least, int(start * 0.8)), least - 1, -1):
            lines = max(len(ui.wrap(text, width - 2 * TEXT_INSET, size, True)) for text in texts)
            band = lines * font(size).get_linesize() + 2 * ROW_PAD
            if (room - band) / toggle_rows >= min_row:
                return HelpPlan(start, size, band=band)
        return HelpPlan(start, 0)

    def show_help(self, name: str) -> None:
        """The help band (if this screen has one) says what toggle ``name`` does, or how to
        learn it before any is touched."""
        self.last = name
        for c in self.controls:
            if c.kind == "help":
                if name in TOGGLES:
                    c.label = self.tr(f"settings.{name}_help")
                    c.extra["lead"] = self.tr(f"settings.{name}")
                else:
                    c.label, c.extra["lead"] = self.tr("settings.help_prompt"), ""
                self.dirty = True

    def handle(self, event: Event) -> bool:
        """Only a toggle's switch turns it on or off; a tap on the rest of its row (its name,
        its help) shows its help and changes nothing. A finger on any part of the row shows
        the help at once (the band's, where there is one)."""
        if isinstance(event, Tap | DoubleTap):
            c = self.control_at(event.pos)
            if c is not None and c.kind == "switch" and not switch_zone(c).collidepoint(event.pos):
                self.pressed, self.dirty = None, True
                self.show_help(c.name)
                return True
        handled = super().handle(event)
        if isinstance(event, Press) and self.pressed and self.pressed.kind == "switch":
            self.press_at = event.pos
            self.show_help(self.pressed.name)  # as soon as a finger is on it
        return handled

    def shown_texts(self) -> list[str]:
        """Every text the screen draws besides its buttons: the title, each toggle's name and
        its help lines as drawn (or the help band's), the labels (the scripted player's
        ``state`` reports them)."""
        texts: list[str] = []
        for c in self.controls:
            if c.kind in ("title", "label"):
                texts.append(c.label)
            elif c.kind == "switch":
                texts.append(c.label)
                lines = c.extra.get("help_lines", [])
                if lines:
                    texts.append(" ".join(lines).replace(NBSP, " "))
            elif c.kind == "help":
                lead = c.extra.get("lead", "")
                texts.append(f"{lead}: {c.label}" if lead else c.label)
        return texts

    def language_row(self, rect: Rect, label_w: int, size: int) -> None:
        """ "Language" and a button for each language, the one in use lit."""
        tr = self.tr
        label, buttons = grid.columns(rect, [label_w, grid.Fill()])
        self.add(Control(label.inflate(-16, 0), tr("settings.language"), kind="label", size=size))
        self.row(
            buttons,
            [tr(f"language.{loc}") for loc in LOCALES],
            [partial(self.app.set_locale, loc) for loc in LOCALES],
            LOCALES.index(tr.locale) if tr.locale in LOCALES else -1,
        )

    def volume_row(self, rect: Rect, label_w: int, size: int) -> None:
        """ "Volume" (a loudspeaker where the word does not fit) and five steps, quiet to full,
        drawn as bars that rise, lit up to the volume; dimmed and still while sound is off."""
        label = self.tr("settings.volume")
        wanted = font(size).size(label)[0] + 16  # the word may take up to 0.4 of the row
        label_w = max(label_w, min(wanted, int(rect.width * 0.4)))
        fits = font(size).size(label)[0] <= label_w - 16
        if not fits:  # the loudspeaker takes less room: the steps get the rest
            label_w = min(label_w, round(rect.height * 0.6) + 20)
        box, area = grid.columns(rect, [label_w, grid.Fill()])
        self.add(
            Control(box.inflate(-16, 0), label, kind="label" if fits else "speaker", size=size)
        )
        settings = self.app.settings
        lit = round(settings.volume * len(VOLUMES))
        steps = grid.columns(area, [grid.Fill()] * len(VOLUMES), max(6, rect.height // 8))
        for i, (step, volume) in enumerate(zip(steps, VOLUMES, strict=True)):
            percent = round(volume * 100)
            self.add(
                Control(
                    step,
                    f"{percent} %",
                    partial(self.set_volume, volume),
                    kind="level",
                    selected=i < lit,
                    enabled=settings.sound,
                    name=f"volume_{percent}",
                    extra={"height": 0.28 + 0.72 * i / (len(VOLUMES) - 1)},
                )
            )

    def toggle(self, name: str) -> None:
        self.last = name
        self.app.prefs.change(name, not getattr(self.app.settings, name))
        if name == "sound":
            self.app.sounds.play("place")  # sound on: the player hears at once how loud
        self.rebuild()

    def set_volume(self, volume: float) -> None:
        self.app.prefs.change("volume", volume)
        self.app.sounds.play("place")  # how loud it is now
        self.rebuild()

    def paint_control(self, screen: pygame.Surface, c: Control) -> None:
        if c.kind == "switch":
            zone = switch_zone(c) if c is self.pressed else None
            lit = zone if zone is not None and zone.collidepoint(self.press_at) else None
            paint_switch(screen, c, pressed=lit)
        elif c.kind == "help":
            paint_help(screen, c)
        elif c.kind == "level":
            paint_level(screen, c, pressed=c is self.pressed)
        elif c.kind == "speaker":
            side = min(c.rect.height * 0.6, c.rect.width)
            icon = Rect(0, 0, round(side), round(side))
            icon.midleft = c.rect.midleft
            paint_speaker(screen, icon, ui.INK_DIM)
        else:
            super().paint_control(screen, c)
