"""The level of a deal, read from its code and the deal catalogs (engine.catalog): what the
high-score tables rank within (a fast Easy win is no match for a Hard one) and what the table's
title and the win screen name (game.games.Games.level_of), and how a table keeps the best of
each level (:func:`best_per_level`, :func:`place_among`: the local tables and the venue's rank
alike). Must not import pygame."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable
from typing import Literal, Protocol, TypeVar, get_args

from engine import catalog
from engine.codes import CodeError, parse_code
from engine.rules import REGISTRY

log = logging.getLogger("solitaire.levels")

Leveled = Literal["easy", "medium", "hard"]  # a game with levels (Russian Solitaire): its catalog's
Level = Literal[Leveled, "winnable", "random"]  # every level a deal can have, easiest first
Deal = Literal[Level, "daily", "example"]
"""What kind of deal the table's title and the win screen name (game.games.Games.level_of):
today's deal, a level, or an example of the rules screen's (game.scenes.examples)."""
LEVELED: tuple[Leveled, ...] = get_args(Leveled)
ORDER: tuple[Level, ...] = get_args(Level)


@functools.cache
def _catalog(rules_key: str) -> dict[str, Leveled]:
    """Code -> level of ``rules_key``'s deal catalog ({} when it is missing or damaged)."""
    try:
        loaded = catalog.load(rules_key).levels
    except Exception as error:  # a damaged catalog: its deals are told as random
        log.warning("deal catalog: %r; deals shown as random", error)
        return {}
    return {code: level for level in LEVELED for code in loaded.get(level, ())}


def deal_level(code: str) -> Level:
    """ "easy", "medium" or "hard" for a catalog deal of a game with levels, "winnable" for a
    catalog deal of a game without, else "random" (a code that is no game code too)."""
    try:
        rules = parse_code(code)[0]
    except CodeError:
        return "random"
    level = _catalog(rules.key).get(code)
    if level is None:
        return "random"
    return level if REGISTRY.offers_levels(rules.game) else "winnable"


def in_order(held: Iterable[str]) -> list[str]:
    """The levels ``held``, easiest first (ORDER; one it does not know after, by name)."""
    held = set(held)
    return [level for level in (*ORDER, *sorted(held - set(ORDER))) if level in held]


class Ranked(Protocol):
    """What the tables rank: a win's code (its level) and its order (best first)."""

    @property
    def code(self) -> str: ...

    def order(self) -> tuple[int, float, int]: ...


R = TypeVar("R", bound=Ranked)


def best_per_level(rows: Iterable[R], size: int, level_of: Callable[[str], str]) -> list[R]:
    """The best ``size`` of ``rows`` (sorted best first) of each level, in their order: what a
    high-score table keeps and shows (game.arcade.highscores, game.arcade.venue)."""
    counts: dict[str, int] = {}
    kept = []
    for row in rows:
        level = level_of(row.code)
        counts[level] = counts.get(level, 0) + 1
        if counts[level] <= size:
            kept.append(row)
    return kept


def level_rows(rows: Iterable[R], code: str, size: int, level_of: Callable[[str], str]) -> list[R]:
    """The best ``size`` of ``rows`` (sorted best first) of the level of ``code``."""
    level = level_of(code)
    return [row for row in rows if level_of(row.code) == level][:size]


def place_among(
    rows: Iterable[Ranked], entry: Ranked, size: int, level_of: Callable[[str], str]
) -> int | None:
    """Where ``entry`` would stand among ``rows`` (sorted best first) of its level if entered
    now, ties below the earlier wins; None past ``size``."""
    order = entry.order()
    ranked = level_rows(rows, entry.code, size, level_of)
    place = 1 + sum(1 for row in ranked if row.order() <= order)
    return place if place <= size else None
