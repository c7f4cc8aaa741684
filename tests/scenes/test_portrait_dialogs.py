"""Portrait (720x1280, issue 31 item 7): every dialog is as tall as what it holds. The question
box ("Leave this game?") had about 550 px of empty panel between its sentence and its buttons;
now its buttons follow the last line of the question. Every dialog is written to out/screens/
at 720x1280 for people to look at."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.i18n import LOCALES
from game.launch import show_scene
from game.look.png import save_png
from game.scenes.dialog import Dialog
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

OUT = Path(__file__).resolve().parents[2] / "out" / "screens"
PORTRAIT = (720, 1280)


def ask(app, question: str, yes: str, no: str) -> Dialog:
    app.scenes.open("confirm", question=question, yes=yes, no=no, on_yes=lambda: None)
    dialog = app.scenes.top
    assert isinstance(dialog, Dialog) and dialog.name == "confirm"
    return dialog


def last_ink_row(screen: pygame.Surface, area: pygame.Rect) -> int:
    """The lowest row of ``area`` with a pixel of the question's ink (near white) in it."""
    ink = pygame.mask.from_threshold(screen.subsurface(area), (228, 228, 228), (28, 28, 28, 255))
    rects = ink.get_bounding_rects()
    return area.top + max(r.bottom for r in rects) - 1 if rects else area.top


SIZES = [((800, 480), 5.2), ((1024, 600), 6.6), (PORTRAIT, 8.2), ((1920, 1080), None)]


@pytest.mark.parametrize(("size", "ppm"), SIZES, ids=lambda v: str(v))
def test_the_question_box_ends_close_below_its_question(size: tuple[int, int], ppm) -> None:
    """The questions, the desktop's "Close the game?" among them, at every size in every
    language (it is written to out/screens/question-<size>-<locale>-0.png)."""
    OUT.mkdir(parents=True, exist_ok=True)
    app = make_app(size=size, px_per_mm=ppm)
    try:
        for locale in LOCALES:
            app.set_locale(locale)
            tr = app.tr
            questions = (
                (tr("dialog.close_question"), tr("dialog.close_yes"), tr("dialog.close_no")),
                (tr("table.leave_question", moves=tr("table.moves", count=12)),
                 tr("table.leave_yes"), tr("table.leave_no")),
                (tr("operator.remove_question", initials="ABC", game="RU1-C", day="1.12.2026",
                    score=1234), tr("operator.remove_yes"), tr("operator.remove_no")),
            )  # fmt: skip
            for n, (question, yes, no) in enumerate(questions):
                dialog = ask(app, question, yes, no)
                app.full_redraw = True
                app.draw()
                u = dialog.unit()
                buttons = [c.rect for c in dialog.controls if c.kind == "button"]
                top = min(r.top for r in buttons)
                text = next(c.rect for c in dialog.controls if c.kind == "text")
                ink = last_ink_row(app.screen, pygame.Rect(text.left, text.top, text.width,
                                                           top - text.top))  # fmt: skip
                assert ink > text.top, "the question is drawn"
                assert top - ink <= 0.9 * u, f"{top - ink}px between question and buttons"
                assert dialog.panel.bottom - max(r.bottom for r in buttons) <= 0.6 * u
                if n == 0 or (size == PORTRAIT and locale == "en"):
                    stem = f"question-{size[0]}x{size[1]}-{locale}-{n}"
                    save_png(app.screen, OUT / f"{stem}.png")
                app.scenes.pop()
    finally:
        app.close()


SCENES = ["newgame", "keypad", "rules", "stats", "scores", "settings", "operator", "entries",
          "initials"]  # fmt: skip


def test_every_dialog_at_720x1280_fits_its_panel() -> None:
    """Each dialog's controls lie inside its panel, the panel on the screen; the screens are
    written for a look (out/screens/dialog-<name>-720x1280.png)."""
    OUT.mkdir(parents=True, exist_ok=True)
    app = make_app(size=PORTRAIT, px_per_mm=8.2)
    try:
        for name in SCENES:
            show_scene(app, name)
            dialog = app.scenes.top
            assert isinstance(dialog, Dialog)
            rects = [c.rect for c in dialog.controls]
            assert dialog.panel.contains(rects[0].unionall(rects)), name
            assert app.screen.get_rect().contains(dialog.panel), name
            app.full_redraw = True
            app.draw()
            save_png(app.screen, OUT / f"dialog-{name}-720x1280.png")
            app.scenes.pop_to_bottom()
    finally:
        app.close()
