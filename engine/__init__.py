"""The rules of Russian Solitaire and Seahaven Towers: pure Python, standard library only.

The names below are loaded when first used (PEP 562), so that a program that needs only one
module (the game reads ``engine.rules`` and ``engine.safe_read`` before its window opens) does
not import the whole engine first.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.cards import Card, card_name, parse_card
    from engine.codes import CodeError, format_code, parse_code
    from engine.game import Game, IllegalMove, Move
    from engine.moves import FOUNDATION
    from engine.rules import ALL_RULES, RULES_BY_KEY, Rules
    from engine.saved import StateError

_WHERE = {
    "Card": "engine.cards",
    "card_name": "engine.cards",
    "parse_card": "engine.cards",
    "CodeError": "engine.codes",
    "format_code": "engine.codes",
    "parse_code": "engine.codes",
    "Game": "engine.game",
    "IllegalMove": "engine.game",
    "Move": "engine.game",
    "FOUNDATION": "engine.moves",
    "ALL_RULES": "engine.rules",
    "RULES_BY_KEY": "engine.rules",
    "Rules": "engine.rules",
    "StateError": "engine.saved",
}

__all__ = [
    "ALL_RULES",
    "FOUNDATION",
    "RULES_BY_KEY",
    "Card",
    "CodeError",
    "Game",
    "IllegalMove",
    "Move",
    "Rules",
    "StateError",
    "card_name",
    "format_code",
    "parse_card",
    "parse_code",
]


def __getattr__(name: str) -> object:
    """``engine.Game`` and the other names of ``__all__``, imported at their first use."""
    if name not in _WHERE:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value
