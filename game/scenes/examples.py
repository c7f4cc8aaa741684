"""The Examples page (seeds 000 and 004 refer to one), from the rules screen: short situations
on a small table, each with one line of text. Each position is built with the engine
(game.examples) and moved by the real table code: a table scene of its own, on a host that lends
it part of the screen; a refused move answers as on the visitor's table."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, cast

import pygame
from pygame import Rect

from engine import Move
from game.examples import EXAMPLES, marked
from game.look import ui
from game.look.ui import Control
from game.saves.prefs import PlayerSettings
from game.scenes.demo import DemoHost
from game.scenes.dialog import Dialog

if TYPE_CHECKING:
    from game.host import AppHost
    from game.table.scene import TableScene


class ExampleHost(DemoHost):
    """A demo host whose screen is the part of the real screen above the Examples band."""

    def __init__(self, app: AppHost) -> None:
        super().__init__(app)
        self.surface = app.screen
        self.visitor = app

    @property
    def screen(self) -> pygame.Surface:
        return self.surface

    @property
    def settings(self) -> PlayerSettings:
        """The visitor's settings, without the winnable indicator (no solver for examples)."""
        return replace(self.visitor.settings, winnable_indicator=False)


class ExamplesScene(Dialog):
    """One example at a time: the small table plays its moves, rests, and plays them again;
    Previous / Next / Close in the band under it."""

    name = "examples"
    opaque = True
    STEP_EVERY = 1.4  # seconds between the moves of an example
    REST = 2.5  # seconds before it starts again

    def __init__(self, app: AppHost, index: int = 0) -> None:
        self.index = index % len(EXAMPLES)
        self.host = ExampleHost(app)
        self.demo: TableScene | None = None
        self.band = Rect(0, 0, 0, 0)
        self.step = 0
        self.settled = app.clock.time
        super().__init__(app)
        self.load(self.index)

    @property
    def example_key(self) -> str:
        return EXAMPLES[self.index].key

    def build(self) -> None:
        tr, u = self.tr, self.unit()
        w, h = self.app.screen.get_size()
        band_h = int(u * 2.3)
        self.band = Rect(0, h - band_h, w, band_h)
        self.host.surface = self.app.screen.subsurface(Rect(0, 0, w, h - band_h))
        if self.demo is not None:
            self.demo.resize()
        pad = int(u * 0.2)
        inner = self.band.inflate(-2 * pad, -2 * pad)
        text_h = inner.height - int(u) - pad
        count = f"{self.index + 1}/{len(EXAMPLES)}  "
        line = count + tr(f"examples.{self.example_key}")
        self.add(Control(Rect(inner.left, inner.top, inner.width, text_h), line, kind="text"))
        row = Rect(inner.left, inner.bottom - int(u), inner.width, int(u))
        self.row(
            row,
            ["◀ " + tr("examples.previous"), tr("dialog.close"), tr("examples.next") + " ▶"],
            [self.previous, self.close, self.next],
            2,
        )
        self.panel = Rect(self.band)

    def load(self, index: int) -> None:
        """Show example ``index`` from its start."""
        self.index = index % len(EXAMPLES)
        game = EXAMPLES[self.index].game()
        if self.demo is None:
            # The words on the small table (its info bar, title and pictured buttons) no
            # smaller than the visitor's info bar: the cards' indices may be small in a
            # picture, but a word drawn is there to be read.
            visitor = self.app.table
            table = self.app.scenes.factory("table")(
                self.host,
                game=game,
                pictures=True,
                least_text=lambda: visitor.model.layout.text_size,
            )
            self.demo = cast("TableScene", table)
        else:
            self.demo.start_game(game)
        # A position made for this page, no deal of any catalog: titled "Example", no code.
        self.demo.model.quiet("example")
        self.step = 0
        self.settled = self.app.clock.time
        self.rebuild()
        self.app.redraw()

    def previous(self) -> None:
        self.load(self.index - 1)

    def next(self) -> None:
        self.load(self.index + 1)

    def update(self, dt: float) -> None:
        demo = self.demo
        if demo is None:
            return
        demo.update(dt)
        now = self.app.clock.time
        if demo.busy():
            self.settled = now
            return
        steps = EXAMPLES[self.index].steps
        wait = self.STEP_EVERY if self.step < len(steps) else self.REST
        if now - self.settled < wait:
            return
        self.settled = now
        if self.step >= len(steps):
            self.load(self.index)  # again from the start
            return
        step = steps[self.step]
        self.step += 1
        if step.startswith("mark:"):
            demo.model.refuse((), None, marks=(marked(demo.model.game, step),))
        else:
            demo.model.make_move(Move.parse(step))  # refused: the table's own answer

    def busy(self) -> bool:
        return True  # the examples move by themselves

    def leave(self) -> None:
        if self.demo is not None:
            self.demo.close()  # its hint worker, if a hint was ever asked

    def draw(self, screen: pygame.Surface, full: bool) -> list[Rect]:
        assert self.demo is not None
        rects = self.demo.draw(self.host.surface, full)
        if full or self.dirty:
            pygame.draw.rect(screen, ui.PANEL, self.band)
            pygame.draw.line(screen, ui.PANEL_EDGE, self.band.topleft, self.band.topright, 2)
            for control in self.controls:
                self.paint_control(screen, control)
            self.dirty = False
            rects.append(Rect(self.band))
        return [screen.get_rect()] if full else rects
