"""A question before something is thrown away: one sentence, "keep" and "go ahead"."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pygame import Rect

from game.look import ui
from game.look.fonts import font
from game.look.ui import Control
from game.scenes.dialog import Dialog

if TYPE_CHECKING:
    from game.host import AppHost


class ConfirmScene(Dialog):
    """``question`` with two buttons: ``no`` (the default: nothing happens; ``on_no`` when
    given, else the question closes) and ``yes`` (runs ``on_yes``)."""

    name = "confirm"

    def __init__(
        self,
        app: AppHost,
        *,
        question: str,
        yes: str,
        no: str,
        on_yes: Callable[[], None],
        on_no: Callable[[], None] | None = None,
    ) -> None:
        self.question, self.yes, self.no, self.on_yes = question, yes, no, on_yes
        self.on_no = on_no or self.close
        super().__init__(app)

    def build(self) -> None:
        u = self.unit()
        pad = int(u * 0.4)
        row_h = int(u)
        size = max(self.least, int(u * 0.42))
        # Wide enough for the question on one line where the screen has room (never a short
        # question wrapped in a narrow box), else ten rows wide.
        one_line = font(size).size(self.question)[0] + 2 * pad + 4
        max_w = max(u * 10, min(one_line, self.app.screen.get_width() * 0.8))
        self.panel = self.panel_rect(max_w=max_w, max_h=self.app.screen.get_height())
        # As tall as the question's lines and the buttons: no empty band between them.
        lines = ui.wrap(self.question, self.panel.width - 2 * pad, size)
        text_h = len(lines) * font(size).get_linesize()
        self.fit_panel(3 * pad + text_h + row_h)
        inner = self.panel.inflate(-2 * pad, -2 * pad)
        text = Rect(inner.left, inner.top, inner.width, inner.height - row_h - pad)
        self.add(Control(text, self.question, kind="text", size=size))
        buttons = Rect(inner.left, inner.bottom - row_h, inner.width, row_h)
        self.row(buttons, [self.no, self.yes], [self.on_no, self.on_yes], 0)
