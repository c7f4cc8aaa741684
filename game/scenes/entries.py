"""The operator's list of high-score entries (from the operator menu, behind the PIN): each
stored win once, with a button that removes it from every table that holds it, asked first."""

from __future__ import annotations

import datetime as dt
import logging
from functools import partial
from typing import TYPE_CHECKING

from pygame import Rect

from game.arcade.highscores import Entry
from game.arcade.initials import shown_initials
from game.clock import format_clock
from game.i18n import Translator
from game.look import grid, ui
from game.look.fonts import font
from game.look.ui import Control
from game.scenes.dialog import Dialog

if TYPE_CHECKING:
    from game.host import AppHost

log = logging.getLogger("solitaire.kiosk")


class EntriesScene(Dialog):
    """A page of entries (initials, score, time, rule set, date), each with Remove; Previous
    and Next pages, and back to the operator menu. The operator menu under it closes this list
    with itself when nobody touches the screen."""

    name = "entries"

    def __init__(self, app: AppHost) -> None:
        self.page = 0
        self.message = ""
        super().__init__(app)

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        entries = self.app.arcade.scores.entries()
        row_h, gap, pad = int(u), int(u * 0.2), int(u * 0.4)
        title_h, info_h = int(u * 0.9), int(u * 0.7)
        self.panel = self.panel_rect(max_w=u * 12, max_h=u * 14)
        inner = self.panel.inflate(-2 * pad, -2 * pad)
        remove_w = int(inner.width * 0.3)
        text_w = inner.width - remove_w - gap
        size, entry_h = self.entry_size([entry_line(tr, entry) for entry in entries], text_w)
        entry_h = max(row_h, entry_h)
        room = inner.height - title_h - info_h - row_h - 3 * gap
        per_page = max(1, room // (entry_h + gap))
        pages = max(1, -(-len(entries) // per_page))
        self.page = min(self.page, pages - 1)
        shown = entries[self.page * per_page : (self.page + 1) * per_page]
        need = title_h + info_h + len(shown) * (entry_h + gap) + row_h + 3 * gap + 2 * pad
        self.fit_panel(need)  # no empty band above the buttons when the list is empty
        inner = self.panel.inflate(-2 * pad, -2 * pad)
        title, info_rect, *lines = grid.rows(inner, [title_h, info_h, *[entry_h] * len(shown)], gap)
        self.add(Control(title, tr("operator.entries_title"), kind="title", size=int(u * 0.5)))
        info = self.message or tr("operator.entries_hint" if entries else "operator.entries_none")
        self.add(Control(info_rect, info, kind="text", size=int(u * 0.34), extra={"center": True}))
        for line, entry in zip(lines, shown, strict=True):
            text, column = grid.columns(line, [grid.Fill(), remove_w], gap)
            self.add(Control(text, entry_line(tr, entry), kind="text", size=size))
            button = Rect(column.left, column.top + (entry_h - row_h) // 2, remove_w, row_h)
            ask = partial(self.ask_remove, entry)
            self.add(Control(button, tr("operator.remove"), ask, name="remove"))
        bottom = Rect(inner.left, inner.bottom - row_h, inner.width, row_h)
        labels = [tr("operator.previous"), tr("operator.to_menu"), tr("operator.next")]
        self.row(bottom, labels, [self.previous, self.close, self.next], 1)
        self.controls[-3].enabled = self.page > 0
        self.controls[-1].enabled = self.page < pages - 1

    def entry_size(self, rows: list[str], width: int) -> tuple[int, int]:
        """One text size for every row of the list (a long rule-set name is no smaller than
        the rest): the largest at which each line fits unwrapped, never under the dialogs'
        least; and the height the row with most lines at that size needs (a narrow portrait
        panel wraps the rule set and the date onto lines of their own)."""
        lines = [line for row in rows for line in row.split("\n")]
        size = ui.label_size(lines, width, 0, int(self.unit() * 0.36), floor=self.least)
        most = max((len(ui.wrap(row, width, size)) for row in rows), default=2)
        return size, most * font(size).get_linesize()

    def previous(self) -> None:
        self.page, self.message = max(0, self.page - 1), ""
        self.rebuild()

    def next(self) -> None:
        self.page, self.message = self.page + 1, ""
        self.rebuild()

    def ask_remove(self, entry: Entry) -> None:
        tr = self.tr
        self.app.scenes.open(
            "confirm",
            question=tr(
                "operator.remove_question",
                initials=shown_initials(entry.initials),
                score=entry.score,
                game=rule_set_name(tr, entry),
                day=win_date(tr, entry),
            ),
            yes=tr("operator.remove_yes"),
            no=tr("operator.remove_no"),
            on_yes=partial(self.remove, entry),
        )

    def remove(self, entry: Entry) -> None:
        """Take the win out of its tables, back on this list with a line that says so."""
        if self.app.arcade.scores.remove(entry):
            log.info("operator: removed the high score %s %s", entry.code, entry.initials or "---")
            self.message = self.tr("operator.removed")
        if self.app.scenes.top is not self:
            self.app.scenes.pop()  # the question goes; this list is under it
        self.rebuild()


def entry_line(tr: Translator, entry: Entry) -> str:
    """One entry as the list shows it, on two lines: initials, score and time; the rule set by
    its name and the day of the win as the language writes a date."""
    parts = (shown_initials(entry.initials), str(entry.score), format_clock(entry.seconds))
    return "  ".join(parts) + "\n" + f"{rule_set_name(tr, entry)} · {win_date(tr, entry)}"


def rule_set_name(tr: Translator, entry: Entry) -> str:
    """The rule set of the win by its name ("Russian Solitaire, same suit"); the game code
    itself when it names no rule set this game knows."""
    key = f"stats.{entry.rules_key}"
    return tr(key) if entry.rules_key and tr.has(key) else entry.code


def win_date(tr: Translator, entry: Entry) -> str:
    """The day of the win (its UTC time stamp's date) as the language writes it; the stamp as
    stored when it is not a date."""
    try:
        return tr.date(dt.date.fromisoformat(entry.when[:10]))
    except ValueError:
        return entry.when[:10]
