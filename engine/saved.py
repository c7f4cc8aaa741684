"""A game's saved form (docs/save-format.md) and its checked reading: what
:meth:`engine.game.Game.to_dict` writes and :meth:`engine.game.Game.from_dict` reads back,
refusing (:class:`StateError`) anything that cannot be a real position."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from engine.cards import Card, card_name, parse_card
from engine.rules import Rules

EMPTY = -1  # a free cell without a card


class StateError(ValueError):
    """A saved game that cannot be a real position (damaged or hand-edited)."""


class PositionDict(TypedDict):
    """A position as saved (docs/save-format.md): ``"#7H"`` is a face-down card."""

    columns: list[list[str]]
    cells: list[str | None]
    foundations: list[int]
    score: int


class StepDict(PositionDict):
    """One entry of the saved undo history: the position before ``move``."""

    move: str


class GameDict(PositionDict):
    """A game as saved: :meth:`Game.to_dict`, read back by :meth:`Game.from_dict`."""

    format: int
    code: str
    moves: int
    won: bool
    history_limit: int
    history: list[StepDict]
    redo: list[str]


def read_count(data: Mapping[str, object], key: str, where: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise StateError(f"{where}{key} must be a whole number >= 0, not {value!r}")
    return value


def read_state(
    rules: Rules, data: Mapping[str, object], where: str
) -> tuple[list[tuple[Card, ...]], list[int], list[int], list[int], int]:
    """Read and check one position: the right piles, 52 distinct cards, hidden cards only at
    the bottom of a column and never on top."""
    columns = data.get("columns")
    if not isinstance(columns, list) or len(columns) != rules.columns:
        raise StateError(f"{where}columns must be a list of {rules.columns} columns")
    seen: set[Card] = set()

    def read_card(text: object, place: str) -> Card:
        try:
            card = parse_card(text)
        except ValueError as error:
            raise StateError(f"{where}{place}: {error}") from None
        if card in seen:
            raise StateError(f"{where}{place}: {card_name(card)} appears twice")
        seen.add(card)
        return card

    cols: list[tuple[Card, ...]] = []
    down: list[int] = []
    for i, column in enumerate(columns):
        if not isinstance(column, list):
            raise StateError(f"{where}columns[{i}] must be a list of cards")
        cards: list[Card] = []
        hidden = 0
        for k, text in enumerate(column):
            place = f"columns[{i}][{k}]"
            if isinstance(text, str) and text.startswith("#"):
                if hidden != k:
                    raise StateError(f"{where}{place}: a face-down card above a face-up one")
                hidden += 1
                text = text[1:]
            cards.append(read_card(text, place))
        if cards and hidden == len(cards):
            raise StateError(f"{where}columns[{i}]: the top card is face down")
        cols.append(tuple(cards))
        down.append(hidden)
    raw_cells = data.get("cells")
    if not isinstance(raw_cells, list) or len(raw_cells) != rules.cells:
        raise StateError(f"{where}cells must be a list of {rules.cells} entries")
    cells = [EMPTY if c is None else read_card(c, f"cells[{i}]") for i, c in enumerate(raw_cells)]
    found = data.get("foundations")
    if (
        not isinstance(found, list)
        or len(found) != 4
        or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 13 for n in found)
    ):
        raise StateError(f"{where}foundations must be 4 counts 0..13, not {found!r}")
    for suit, count in enumerate(found):
        for card in range(suit * 13, suit * 13 + count):
            read_card(card, f"foundations[{suit}]")
    if len(seen) != 52:
        raise StateError(f"{where}the position holds {len(seen)} cards, not 52")
    return cols, down, cells, list(found), read_count(data, "score", where)
