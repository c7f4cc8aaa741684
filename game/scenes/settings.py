"""The settings dialog: the player's toggles, the language, rules and statistics."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from pygame import Rect

from game import ui
from game.cards import font
from game.scenes.dialog import Dialog, switch_knob
from game.ui import Control

if TYPE_CHECKING:
    pass


TOGGLES = (
    "double_tap",
    "one_tap",
    "placement_help",
    "interactive_rules",
    "auto_placement",
    "winnable_indicator",
    "four_colors",
)
MIN_ROW_MM = 7.5  # the shortest switch row a finger still hits reliably


class SettingsScene(Dialog):
    """The player's toggles (kept across restarts), the language, the rules screen."""

    name = "settings"

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        from game.i18n import LOCALES

        w, h = self.app.screen.get_size()
        self.panel = self.panel_rect(max_w=u * 12, max_h=u * (12 if h > w else 10))
        gap = max(4, int(u * 0.14))
        title_h = int(u * 0.8)
        pad = int(u * 0.35)
        # One column of switches while each row stays a comfortable touch target; else (a
        # small landscape screen) two columns on a wider panel.
        height = self.panel.height - 2 * pad - title_h
        columns = 1
        if (height - gap * (len(TOGGLES) + 2)) / (
            len(TOGGLES) + 2
        ) < MIN_ROW_MM * self.app.px_per_mm:
            columns = 2
            self.panel = self.panel_rect(max_w=u * 17, max_h=u * 10)
        p = self.panel
        inner = p.inflate(-2 * pad, -2 * pad)
        toggle_rows = -(-len(TOGGLES) // columns)
        rows = toggle_rows + 2
        row_h = (inner.height - title_h - gap * rows) / rows
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
        title_size = int(min(u * 0.4, row_h * 0.34))
        helps = [tr(f"settings.{name}_help") for name in TOGGLES]
        help_size = self.help_size(helps, round(row_h), round(col_w), title_size)
        for i, (name, help_text) in enumerate(zip(TOGGLES, helps, strict=True)):
            column, row = divmod(i, toggle_rows)
            left = inner.left + column * (col_w + gap)
            rect = Rect(round(left), round(y + row * (row_h + gap)), round(col_w), round(row_h))
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
        y += toggle_rows * (row_h + gap)
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
        self.app.prefs.change(name, not getattr(self.app.settings, name))
        self.rebuild()
