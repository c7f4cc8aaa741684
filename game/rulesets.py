"""The rule sets as the UI sees them: engine.rules (ALL_RULES, GAMES) is the one registry. The
new-game menu, the statistics, the deal factory, the game choice, the config check and the
table's title read it here (at call time, so a rule set added to the registry shows up
everywhere), and every name on screen comes from a locale key derived from the rule set:

- ``names.<game>``: the game ("Russian Solitaire");
- ``variant.<key>``: the rule set in the new-game menu ("Classic · Same suit", "4 (Easy)");
- ``stats.<key>``: the rule set in full ("Seahaven Towers, 4 free cells");
- the table's title: ``names.<game>`` and the free cells or the building (:func:`title_lines`).

A new rule set is a line of data in engine/rules.py, these locale keys and a deal catalog
(docs/rules.md). Must not import pygame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine import rules as registry
from engine.rules import GameInfo, Rules

Translate = Callable[[str], str]


class Formats(Protocol):
    """A translator that fills in parameters (game.i18n.Translator)."""

    def __call__(self, key: str, /, **params: Any) -> str: ...


def all_rules() -> tuple[Rules, ...]:
    """Every rule set, in the registry's order."""
    return registry.ALL_RULES


def keys() -> tuple[str, ...]:
    """Every rule set's key ("RU1-C", ...), in the registry's order."""
    return tuple(rules.key for rules in all_rules())


def by_key(key: str) -> Rules | None:
    for rules in all_rules():
        if rules.key == key:
            return rules
    return None


def games() -> tuple[str, ...]:
    """The games ("russian", "seahaven"), in the order their first rule set comes."""
    return tuple(dict.fromkeys(rules.game for rules in all_rules()))


def first_game() -> str:
    """The game a fresh kiosk deals when its config names none: the registry's first."""
    return games()[0]


def game_infos() -> tuple[GameInfo, ...]:
    """The registry's entry of each game (name, title, config key), in :func:`games` order."""
    return tuple(registry.GAMES_BY_NAME[game] for game in games())


def by_option(game: str, value: object) -> Rules | None:
    """The first rule set of ``game`` that the config value ``value`` of its option key names
    (``"relaxed"``, ``2``: :attr:`engine.rules.Rules.option`), or None."""
    for rules in of_game(game):
        if rules.option == value and type(rules.option) is type(value):
            return rules
    return None


def of_game(game: str) -> tuple[Rules, ...]:
    """The rule sets of ``game``, in the registry's order."""
    return tuple(rules for rules in all_rules() if rules.game == game)


def offers_levels(game: str) -> bool:
    """Whether the player picks a level for ``game``'s deals: a game whose rule sets differ in
    free cells (Seahaven) has its difficulty there, and asks only for a winnable deal."""
    return not varies_in_cells(game)


def varies_in_cells(game: str) -> bool:
    return len({rules.cells for rules in of_game(game)}) > 1


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
    if varies_in_cells(rules.game):
        detail = tr("table.free_cells", count=rules.cells)
    else:
        detail = tr("names.same_suit") if rules.same_suit else tr("names.mixed_suits")
    return game_name(tr, rules.game), detail


def variant_title(tr: Translate, game: str) -> str:
    """What the new-game menu's row of ``game``'s rule sets is called: free cells, or rules."""
    return tr("newgame.cells") if varies_in_cells(game) else tr("newgame.rules")
