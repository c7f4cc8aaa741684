"""The table's answers to a touch that does nothing: a refused tap or drop shakes its cards,
says why where the play is not, and outlines the cards the rule points at.

These functions work out the answer and change nothing; the table scene applies it
(TableModel.refuse)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import FOUNDATION, Game, IllegalMove, Move
from engine.cards import Card
from game.table.animation import Tween, shake

if TYPE_CHECKING:
    from game.look.layout import Layout
    from game.table.places import Rest

MARK_SECONDS = 1.6  # how long a refusal's marked cards stay outlined


@dataclass(frozen=True)
class Answer:
    """What a refusal shows: the shaking ``tweens`` and the ``marks`` outlined until
    ``until``."""

    tweens: list[Tween]
    marks: tuple[Card, ...]
    until: float


def answer_refusal(
    game: Game,
    rest: dict[Card, Rest],
    moving: Collection[Card],
    layout: Layout,
    cards: Sequence[Card],
    marks: Sequence[Card],
    now: float,
) -> Answer:
    """The answer to a refused tap or drop of ``cards``: they shake where they lie (with every
    card lying on them; cards already ``moving``, flying back from a refused drop, do not),
    and each card of ``marks`` still on the table is outlined for a moment."""
    shaken: list[Card] = []
    for card in cards:
        pile, pos = game.locate(card)
        group = game.cols[pile][pos:] if pile < FOUNDATION else [card]
        shaken += [c for c in group if c not in moving and c not in shaken and c in rest]
    tweens = shake(shaken, rest, now, layout) if shaken else []
    shown = tuple(c for c in marks if c in rest)
    return Answer(tweens, shown, now + MARK_SECONDS if shown else 0.0)


@dataclass(frozen=True)
class PendingRefusal:
    """A single tap that sent nothing home, answered once no second tap can make it a double
    tap (which would move the card instead): at ``due``, if nothing moved in between."""

    card: Card
    move: Move
    why: IllegalMove
    moves: int  # the game's move counter when the tap came
    due: float


def tap_refusal(game: Game, card: Card, due: float) -> PendingRefusal | None:
    """The answer a tap on ``card`` will get at ``due`` when it cannot go home ("2♦ cannot go
    home yet: A♦ first"), or None when it can."""
    move = Move(card, FOUNDATION)
    why = game.check(move)
    if why is None:
        return None
    return PendingRefusal(card, move, why, game.moves, due)
