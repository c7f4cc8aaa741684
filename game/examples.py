"""The Examples page's situations (seeds 000 and 004 refer to one): short positions built with
the engine, each with the moves the real table then makes (a refused one shows its refusal)
and one line of text (``examples.<key>`` in the locale files). Must not import pygame."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Game
from engine.cards import CARD_NAMES, parse_card


@dataclass(frozen=True)
class Example:
    key: str  # its line of text: examples.<key>
    code: str  # the rule set (and, for a deal, the deal itself)
    columns: tuple[tuple[str, ...], ...] = ()  # face-up cards per column; () for a plain deal
    cells: tuple[str | None, ...] = ()
    home: tuple[int, int, int, int] = (0, 0, 0, 0)  # cards on each foundation (♠ ♥ ♦ ♣)
    steps: tuple[str, ...] = ()  # moves ("3C-t3"), or "mark:QD" to point at a card

    def game(self) -> Game:
        """The position: the face-up cards where listed, the foundations' cards home, every
        other card face down under the face-up cards, a few per column."""
        game = Game.from_code(self.code)
        if not self.columns:
            return game
        data = game.to_dict()
        shown = {parse_card(c) for col in self.columns for c in col}
        shown |= {parse_card(c) for c in self.cells if c}
        home = {suit * 13 + rank for suit in range(4) for rank in range(self.home[suit])}
        hidden = [c for c in range(52) if c not in shown and c not in home]
        hosts = [i for i, col in enumerate(self.columns) if col]
        piles: list[list[str]] = [[] for _ in self.columns]
        for k, card in enumerate(hidden):
            piles[hosts[k % len(hosts)]].append("#" + CARD_NAMES[card])
        columns = [pile + list(col) for pile, col in zip(piles, self.columns, strict=True)]
        data.update({"columns": columns, "cells": list(self.cells), "foundations": list(self.home)})
        data.update({"history": [], "moves": 0, "score": 0, "won": False})
        return Game.from_dict(data)


EMPTY: tuple[str, ...] = ()

EXAMPLES: tuple[Example, ...] = (
    # Seed 000: a group moves in any order; only its lowest card, 3♣, has to fit on 4♣.
    Example(
        "group",
        "RU1-C-AAAAAAA",
        (("KH",), ("3C", "7D", "AS", "4S", "TH"), ("4C",), ("QH",), ("8D",), ("JC",), ("9S",)),
        home=(0, 0, 0, 2),
        steps=("3C-t3",),
    ),
    # Seed 000: an empty column takes only a king, even when the move would turn up a card.
    Example(
        "king_only",
        "RU1-C-AAAAAAA",
        (("KH",), EMPTY, ("QD",), ("5S",), ("9C",), ("JS",), ("4H",)),
        steps=("QD-t2", "KH-t2"),
    ),
    # Seed 000: the top card of a foundation can come back to a column.
    Example(
        "takeback",
        "RU1-C-AAAAAAA",
        (("8H",), ("QS",), ("5D",), ("KC",), ("9D",), ("JH",), ("6C",)),
        home=(0, 7, 0, 0),
        steps=("7H-t1", "7H-f"),
    ),
    # Seed 004: 1 free cell and 2 empty columns: 8 cards may be lifted, but a king run goes
    # into an empty column only up to 4 (the column it goes to does not count).
    Example(
        "capacity",
        "SH1-C1-AAAAAAA",
        (
            ("KS", "QS", "JS", "TS", "9S", "8S"),
            ("KH", "QH", "JH", "TH"),
            EMPTY,
            EMPTY,
            ("KD",),
            ("QD",),
            ("JD", "9D"),
            ("TD",),
            ("KC", "QC"),
            ("JC",),
        ),
        cells=(None,),
        home=(7, 9, 8, 10),
        steps=("KS-t3", "KH-t3"),
    ),
    # Seed 004: with one free cell the deal's second leftover card goes on column 2 (6 cards).
    Example("one_cell", "SH1-C1-AAAAAAA", steps=("mark:col2",)),
)


def marked(game: Game, step: str) -> int:
    """The card a "mark:" step points at: ``mark:col2`` is column 2's top card."""
    what = step.split(":", 1)[1]
    if what.startswith("col"):
        return game.cols[int(what[3:]) - 1][-1]
    return parse_card(what)
