"""The rules of Russian Solitaire and Seahaven Towers: pure Python, standard library only.

The names below are loaded when first used (PEP 562), so that a program that needs only one
module (the game reads ``engine.rules`` and ``engine.safe_read`` before its window opens) does
not import the whole engine first. Each is written once, in the type-checking imports: mypy
reads them as they are, and :func:`__getattr__` reads them from this file at the first use of
any, so a new public name is one line there.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the one list of the engine's public names: what mypy reads, __getattr__ too
    from engine.cards import Card as Card
    from engine.cards import card_name as card_name
    from engine.cards import parse_card as parse_card
    from engine.codes import CodeError as CodeError
    from engine.codes import format_code as format_code
    from engine.codes import parse_code as parse_code
    from engine.game import Game as Game
    from engine.game import IllegalMove as IllegalMove
    from engine.game import Move as Move
    from engine.moves import FOUNDATION as FOUNDATION
    from engine.rules import ALL_RULES as ALL_RULES
    from engine.rules import RULES_BY_KEY as RULES_BY_KEY
    from engine.rules import Rules as Rules
    from engine.saved import StateError as StateError

_where: dict[str, str] = {}  # name -> its module, read from the imports above when first needed


def _table() -> dict[str, str]:
    """The public names and their modules: the ``from engine.x import Name as Name`` lines of
    the type-checking block above."""
    if not _where:
        import re

        with open(__file__.removesuffix("c"), encoding="utf-8") as source:  # never the .pyc
            text = source.read()
        found = re.findall(r"^    from (engine\.\w+) import (\w+) as \2$", text, re.MULTILINE)
        _where.update((name, module) for module, name in found)
    return _where


def __getattr__(name: str) -> object:
    """``engine.Game`` and the other public names, imported at their first use; ``__all__``,
    all of them."""
    if name == "__all__":
        return sorted(_table())
    module = _table().get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_table()})
