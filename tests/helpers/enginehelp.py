"""Build engine positions by hand for tests: name the cards that matter, the rest is filler."""

from __future__ import annotations

import pytest

from engine import Game, IllegalMove, format_code, parse_card
from engine.cards import CARD_NAMES
from engine.rules import RULES_BY_KEY


def build(
    key: str,
    columns: list[list[str]],
    *,
    cells: list[str | None] | None = None,
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0),
    filler: int | list[int] | None = None,
) -> Game:
    """A game of rule set ``key`` (``"RU1-C"``) with these columns (bottom to top, ``#`` before
    a face-down card), cells and foundation counts. Every card not named goes to the bottom of
    column ``filler`` (or shared out over a list of columns) (face down in Russian, but for
    the top card of a filler pile with nothing else on it)."""
    rules = RULES_BY_KEY[key]
    cols = [list(c) for c in columns] + [[] for _ in range(rules.columns - len(columns))]
    cells = list(cells) if cells is not None else [None] * rules.cells
    cells += [None] * (rules.cells - len(cells))
    used = {parse_card(t.lstrip("#")) for col in cols for t in col}
    used |= {parse_card(c) for c in cells if c}
    used |= {s * 13 + r for s in range(4) for r in range(foundations[s])}
    rest = [c for c in range(52) if c not in used]
    if rest:
        assert filler is not None, f"cards left over with no filler column: {len(rest)}"
        mark = "#" if rules.reveal_points else ""
        piles = [filler] if isinstance(filler, int) else filler
        for k, pile in enumerate(piles):
            share = rest[k :: len(piles)]
            cols[pile] = [mark + CARD_NAMES[c] for c in share] + cols[pile]
            if cols[pile][-1].startswith("#"):
                cols[pile][-1] = cols[pile][-1][1:]  # a lone filler pile shows its top card
    return Game.from_dict(
        {
            "code": format_code(rules, 0),
            "columns": cols,
            "cells": cells,
            "foundations": list(foundations),
            "score": 0,
            "moves": 0,
        }
    )


def moves_of(game: Game) -> list[str]:
    return sorted(str(m) for m in game.legal_moves())


def refusal(game: Game, move: str) -> IllegalMove:
    """The refusal of ``move``, checking that it changed nothing."""
    before = game.to_dict()
    with pytest.raises(IllegalMove) as caught:
        game.play(move)
    assert game.to_dict() == before, "a refused move must change nothing"
    return caught.value
