"""The rules of Russian Solitaire and Seahaven Towers: pure Python, standard library only."""

from engine.cards import Card, card_name, parse_card
from engine.codes import CodeError, format_code, parse_code
from engine.game import Game, IllegalMove, Move
from engine.moves import FOUNDATION
from engine.rules import ALL_RULES, RULES_BY_KEY, Rules
from engine.saved import StateError

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
