"""A question before something is thrown away: one sentence, "keep" and "go ahead"."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pygame import Rect

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
        self.panel = self.panel_rect(max_w=u * 10, max_h=u * 3.6)
        pad = int(u * 0.4)
        inner = self.panel.inflate(-2 * pad, -2 * pad)
        row_h = int(u)
        text = Rect(inner.left, inner.top, inner.width, inner.height - row_h - pad)
        self.add(Control(text, self.question, kind="text", size=int(u * 0.42)))
        buttons = Rect(inner.left, inner.bottom - row_h, inner.width, row_h)
        self.row(buttons, [self.no, self.yes], [self.on_no, self.on_yes], 0)
