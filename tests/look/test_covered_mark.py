"""A refusal's or a hint's mark on a card lying under others frames only what shows of it
(issue 25 item 3): "8♣ is marked" must not box the three cards lying on it."""

from __future__ import annotations

import pygame
import pytest
from pygame import Rect

from engine.cards import parse_card
from game.dev.report import layout_report
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app

SIZES = [((800, 480), 5.2), ((720, 1280), 8.3), ((1920, 1080), None)]


@pytest.mark.parametrize(("size", "ppm"), SIZES, ids=lambda v: str(v))
def test_the_mark_frames_only_the_covered_cards_strip(size, ppm) -> None:
    app = make_app("RU1-C-AAAAAAD", size=size, px_per_mm=ppm)
    finger, table = Finger(app), app.table
    seven = table.model.card_rect(parse_card("7C"))
    finger.drag((seven.centerx, seven.top + 6), finger.column(3))  # 7♣ on 8♦: wrong suit
    assert table.model.marks == (parse_card("8C"),)  # 7♣ goes only on 8♣, three cards under others
    report = layout_report(table)
    cards = {c["card"]: c for c in report["cards"]}
    assert report["marks"] == [{"card": "8C", "rect": cards["8C"]["visible"]}]
    visible = Rect(cards["8C"]["visible"])
    assert 0 < visible.height < Rect(cards["8C"]["rect"]).height
    drawn = [p.rect for p in table.view.marks if p.alive()]
    assert len(drawn) == 1 and drawn[0].contains(visible)
    others = [Rect(c["index"]) for c in report["cards"] if c["card"] != "8C" and c["index"]]
    assert not [box for box in others if drawn[0].contains(box)]  # no other card is boxed
    pygame.display.quit()


@pytest.mark.parametrize(("size", "ppm"), SIZES, ids=lambda v: str(v))
def test_a_hint_on_a_covered_card_outlines_only_its_strip(size, ppm) -> None:
    from engine import Move
    from game.table.hints import HintMark

    app = make_app("RU1-C-AAAAAAD", size=size, px_per_mm=ppm)
    table = app.table
    eight = parse_card("8C")  # three cards lie on it
    table.model.hints.mark = HintMark(Move(eight, 3), app.clock.time + 5)
    app.clock.time = 0.0  # the blink is lit
    app.step()
    cards = {c["card"]: c for c in layout_report(table)["cards"]}
    visible = Rect(cards["8C"]["visible"])
    assert 0 < visible.height < Rect(cards["8C"]["rect"]).height
    drawn = [p.rect for p in table.view.hints if p.alive()]
    around = [r for r in drawn if r.contains(visible)]
    assert len(around) == 1
    others = [Rect(c["index"]) for c in cards.values() if c["card"] != "8C" and c["index"]]
    assert not [box for box in others if around[0].contains(box)]  # no other card is boxed
    pygame.display.quit()
