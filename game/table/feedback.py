"""The table's answers to a touch that does nothing: a refused tap or drop shakes its cards,
says why where the play is not, and outlines the cards the rule points at."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import FOUNDATION, IllegalMove, Move
from engine.cards import Card
from game.table.animation import shake

if TYPE_CHECKING:
    from game.table.scene import TableScene

MARK_SECONDS = 1.6  # how long a refusal's marked cards stay outlined


def answer_refusal(
    scene: TableScene, cards: Sequence[Card], message: str | None, marks: Sequence[Card]
) -> None:
    """TableScene.refuse: cards already flying back (a refused drop) do not shake. Reported
    to the hooks (the refusal's sound)."""
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
    scene.app.hooks.refused(scene.game)


@dataclass(frozen=True)
class PendingRefusal:
    """A single tap that sent nothing home, answered once no second tap can make it a double
    tap (which would move the card instead): at ``due``, if nothing moved in between."""

    card: Card
    move: Move
    why: IllegalMove
    moves: int  # the game's move counter when the tap came
    due: float


def tap_refusal(scene: TableScene, card: Card) -> PendingRefusal | None:
    """The answer a tap on ``card`` will get when it cannot go home ("2♦ cannot go home yet:
    A♦ first"), or None when it can."""
    move = Move(card, FOUNDATION)
    why = scene.game.check(move)
    if why is None:
        return None
    wait = scene.app.reader.tuning.double_tap_ms / 1000 if scene.app.settings.double_tap else 0.0
    return PendingRefusal(card, move, why, scene.game.moves, scene.app.clock.time + wait)


def answer_due_tap(scene: TableScene) -> None:
    """Give the pending tap's answer once it is due (TableScene.update)."""
    pending = scene.pending_refusal
    if pending is None or scene.app.clock.time < pending.due:
        return
    scene.pending_refusal = None
    if scene.game.moves == pending.moves and scene.active:
        scene.refuse_move([pending.card], pending.why, pending.move)
