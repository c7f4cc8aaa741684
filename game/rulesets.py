"""The rule sets' names on screen. The lookups (every rule set, a game's, by key, by config
value) are the registry's own (engine.rules.REGISTRY), read at call time so that a rule set
added to it shows up everywhere; every name on screen comes from a locale key derived from the
rule set:

- ``names.<game>``: the game ("Russian Solitaire");
- ``variant.<key>``: the rule set in the new-game menu ("Classic · Same suit", "4 (Easy)");
- ``stats.<key>``: the rule set in full ("Seahaven Towers, 4 free cells");
- the table's title: ``names.<game>`` and the free cells or the building (:func:`title_lines`).

A new rule set: docs/development.md, "A new rule set". Must not import pygame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine.rules import REGISTRY, Rules

Translate = Callable[[str], str]


class Formats(Protocol):
    """A translator that fills in parameters (game.i18n.Translator)."""

    def __call__(self, key: str, /, **params: Any) -> str: ...


# ----------------------------------------------------------------- names on screen
def game_name(tr: Translate, game: str) -> str:
    return tr(f"names.{game}")


def variant_name(tr: Translate, rules: Rules) -> str:
    """The rule set among its game's others (the new-game menu)."""
    return tr(f"variant.{rules.key}")


def full_name(tr: Translate, rules: Rules) -> str:
    """The game and rule set in one line (the statistics)."""
    return tr(f"stats.{rules.key}")


def title_lines(tr: Formats, rules: Rules) -> tuple[str, str]:
    """The table's title: the game, and what sets its rule set apart among its game's (the free
    cells where they differ, else the building: same suit or any suit)."""
    if REGISTRY.varies_in_cells(rules.game):
        detail = tr("table.free_cells", count=rules.cells)
    else:
        detail = tr("names.same_suit") if rules.same_suit else tr("names.mixed_suits")
    return game_name(tr, rules.game), detail


def variant_title(tr: Translate, game: str) -> str:
    """What the new-game menu's row of ``game``'s rule sets is called: free cells, or rules."""
    return tr("newgame.cells") if REGISTRY.varies_in_cells(game) else tr("newgame.rules")
