"""The level of a deal, read from its code and the deal catalogs (engine.catalog): what the
high-score tables rank within (a fast Easy win is no match for a Hard one) and what the table's
title and the win screen name (game.games.Games.level_of). Must not import pygame."""

from __future__ import annotations

import functools
import logging
from typing import Literal, get_args

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
