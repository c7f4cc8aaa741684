"""The operator menu, behind the PIN: close the game, remove one high-score entry or clear the
tables, statistics.
Like the PIN keypad, it closes itself (with whatever it opened) after the keypad's timeout
without input, so the next visitor never finds it open."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from game.look import grid
from game.look.ui import Control
from game.scenes.dialog import Dialog

if TYPE_CHECKING:
    from game.host import AppHost, Kiosk

log = logging.getLogger("solitaire.kiosk")


class OperatorScene(Dialog):
    """What the right PIN opens: leave (the kiosk's exit, status 64; asked first), the list of
    high-score entries (remove one), clear every high-score table (asked first), the
    statistics, or back to the game."""

    name = "operator"

    def __init__(self, app: AppHost, controller: Kiosk | None = None) -> None:
        self.controller = controller
        self.message = ""
        super().__init__(app)

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        entries = sum(
            len(self.app.arcade.scores.table(key, name if name != "all" else None))
            for key, name in self.app.arcade.scores.tables()
        )
        info = self.message or tr("operator.entries", count=entries)
        row_h, gap = int(u), int(u * 0.25)
        title_h, info_h = int(u * 0.9), int(u * 0.8)
        heights = [title_h, info_h, *[row_h] * 5]
        pad = int(u * 0.4)
        need = grid.extent(heights, gap) + 2 * pad
        self.panel = self.panel_rect(max_w=u * 9, max_h=need)
        self.fit_panel(need)
        inner = self.panel.inflate(-2 * pad, -2 * pad)
        if inner.height < need - 2 * pad:  # a very small screen: the rows share what there is
            row_h = int(grid.share(inner.height, [title_h, info_h, *[grid.Fill()] * 5], gap))
        title, text, *rows = grid.rows(inner, [title_h, info_h, *[row_h] * 5], gap)
        self.add(Control(title, tr("operator.title"), kind="title", size=int(u * 0.5)))
        self.add(Control(text, info, kind="text", size=int(u * 0.36), extra={"center": True}))
        scenes = self.app.scenes  # each opening checked against game.host.Stack's overloads
        buttons: tuple[tuple[str, str, Callable[[], object]], ...] = (
            ("stats", tr("operator.stats"), lambda: scenes.open("stats")),
            ("entries", tr("operator.entries_button"), lambda: scenes.open("entries")),
            ("clear", tr("operator.clear"), partial(self.ask, "clear", self.clear)),
            ("leave", tr("operator.leave"), partial(self.ask, "leave", self.leave_game)),
            ("back", tr("operator.back"), self.close),
        )
        for rect, (name, label, action) in zip(rows, buttons, strict=False):
            self.add(Control(rect, label, action, selected=name == "back", name=name))

    def ask(self, what: str, on_yes: Callable[[], None]) -> None:
        """The question before ``what`` ("clear", "leave"): its words are operator.<what>_*."""
        tr = self.tr
        self.app.scenes.open(
            "confirm",
            question=tr(f"operator.{what}_question"),
            yes=tr(f"operator.{what}_yes"),
            no=tr(f"operator.{what}_no"),
            on_yes=on_yes,
        )

    def clear(self) -> None:
        """Empty every high-score table, back on this menu with a line that says so."""
        self.app.arcade.scores.clear_all()
        if self.app.scenes.top is not self:
            self.app.scenes.pop()  # the question goes; this menu is under it
        self.message = self.tr("operator.cleared")
        self.rebuild()

    def update(self, dt: float) -> None:
        """Closes this menu and what it opened once nobody touched the screen for the PIN
        keypad's timeout (kiosk.PinPad.timeout_s)."""
        kiosk = self.controller
        if kiosk is not None and kiosk.idle.idle_for(self.app.clock.time) >= kiosk.pin.timeout_s:
            log.info("operator menu: closed after %.0f s without input", kiosk.pin.timeout_s)
            self.app.scenes.pop(self)

    def deadline(self) -> float | None:
        """When the menu closes by itself: the loop sleeps until then, not a rest step more."""
        kiosk = self.controller
        return None if kiosk is None else kiosk.idle.last_input + kiosk.pin.timeout_s

    def leave_game(self) -> None:
        self.app.scenes.pop(self)
        if self.controller is not None:
            self.controller.operator_exit()
        else:  # no kiosk (a tool's window): just end the loop
            self.app.running = False
