"""The table's answers to a touch that does nothing: a refused tap or drop shakes its cards,
says why where the play is not, and outlines the cards the rule points at."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine import FOUNDATION
from engine.cards import Card
from game.table.animation import shake

if TYPE_CHECKING:
    from game.table.scene import TableScene

MARK_SECONDS = 1.6  # how long a refusal's marked cards stay outlined


def answer_refusal(
    scene: TableScene, cards: Sequence[Card], message: str | None, marks: Sequence[Card]
) -> None:
    """TableScene.refuse: cards already flying back (a refused drop) do not shake."""
    now = scene.app.clock.time
    busy = {t.card for t in scene.tweens}
    rest = scene.rest()
    shaken: list[Card] = []
    for card in cards:
        pile, pos = scene.game.locate(card)
        group = scene.game.cols[pile][pos:] if pile < FOUNDATION else [card]
        shaken += [c for c in group if c not in busy and c not in shaken and c in rest]
    if shaken:
        scene.tweens += shake(shaken, rest, now, scene.layout)
    scene.marks = tuple(c for c in marks if c in rest)
    scene.marks_until = now + MARK_SECONDS if scene.marks else 0.0
    if message:
        avoid = [scene.places.group_rect(c) for c in (*cards, *scene.marks) if c in rest]
        scene.show_toast(message, avoid)
    scene.repaint()
