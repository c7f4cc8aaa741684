"""Where new games come from: the player's choice of rule set and level, and the factory that
deals from the solver's catalog at that level (engine.catalog) or at random.
Must not import pygame."""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from engine import Game, catalog
from engine.codes import format_number
from engine.rules import REGISTRY, Rules
from game.arcade.levels import Deal, deal_level
from game.config_rules import LEVELS  # a new game's levels, "any" a random deal

log = logging.getLogger("solitaire.games")

DEAL_NUMBERS = 2**35


@dataclass
class GameChoice:
    """What a new game is made of when no code is given: a game, a rule set of each game (kept
    while the player looks at the other game), a level."""

    game: str = field(default_factory=REGISTRY.first_game)
    variants: dict[str, str] = field(default_factory=dict)  # game -> its chosen rule-set key
    level: str = "any"  # "easy" / "medium" / "hard" / "any"
    winnable_only: bool = False

    @classmethod
    def from_options(
        cls,
        *,
        game: str,
        options: Mapping[str, object],
        level: str = "any",
        winnable_only: bool = False,
    ) -> GameChoice:
        """The choice from the operator's config: ``game`` (default_game) and ``options``, the
        value of each game's option key (``russian_rules = "relaxed"``, ``seahaven_cells = 2``:
        engine.rules.GAMES), each naming the first of its game's rule sets that fits."""
        variants = {}
        for info in REGISTRY.game_infos():
            rules = REGISTRY.by_option(info.name, options.get(info.option_key))
            if rules is not None:
                variants[rules.game] = rules.key
        return cls(game=game, variants=variants, level=level, winnable_only=winnable_only)

    @property
    def rules(self) -> Rules:
        """The chosen rule set (of the chosen game; the first one when none is chosen)."""
        chosen = REGISTRY.get(self.variants.get(self.game, ""))
        if chosen is not None and chosen.game == self.game:
            return chosen
        return (REGISTRY.of_game(self.game) or REGISTRY.all())[0]

    def rules_key(self) -> str:
        return self.rules.key

    def deal_level(self) -> str:
        """The catalog level to pick from. A game with levels deals at the chosen one, and
        "any" is a random deal (seed 003: random, usually not winnable), whatever
        ``winnable_only`` says; a game whose difficulty is its free cells asks for a winnable
        deal when ``winnable_only`` (else a random one)."""
        if REGISTRY.offers_levels(self.game):
            return self.level if self.level in LEVELS[:3] else "any"
        return "winnable" if self.winnable_only else "any"

    def following(self, rules: Rules) -> GameChoice:
        """This choice for the game and rule set of ``rules`` (level and the like kept)."""
        return replace(self, game=rules.game, variants={**self.variants, rules.game: rules.key})


class Games:
    """The game factory: the player's choice, the random source and the undo depth, and which
    catalogs offer levels (read once: the catalogs ship with the game)."""

    def __init__(
        self,
        choice: GameChoice,
        *,
        rng: random.Random,
        undo_depth: int = 100,
        day_of: Callable[[Game], dt.date | None] = lambda game: None,
    ) -> None:
        self.choice = choice
        self.rng = rng
        self.undo_depth = undo_depth
        self.day_of = day_of  # the day whose deal a game is (game.arcade.play), else None
        self._has_levels: dict[str, bool] = {}

    def new(self, code: str | None = None, *, choice: GameChoice | None = None) -> Game:
        """A game from ``code`` (CodeError when bad), else a deal for the current choice (or
        the given ``choice``): from the solver's catalog at the chosen level when there is
        one, else a random deal."""
        if code:
            return Game.from_code(code, history_limit=self.undo_depth)
        choice = choice or self.choice
        key = choice.rules_key()
        level = choice.deal_level()
        if level != "any":
            try:
                picked = catalog.pick(key, level, self.rng)
                return Game.from_code(picked, history_limit=self.undo_depth)
            except Exception as error:  # a missing or damaged catalog never stops a new game
                log.warning("deal catalog: %r; dealing at random", error)
        number = self.rng.randrange(DEAL_NUMBERS)
        return Game.from_code(f"{key}-{format_number(number)}", history_limit=self.undo_depth)

    def replay(self, game: Game) -> Game:
        """The same deal again, from the start."""
        return Game.from_code(game.code, history_limit=self.undo_depth)

    def level_of(self, game: Game) -> Deal:
        """What kind of deal ``game`` is, for the table's title and the win screen: "daily" for
        today's deal, its level ("easy", "medium", "hard") when it comes from the catalog of a
        game with levels, "winnable" when from the catalog of a game without, else "random"."""
        if self.day_of(game) is not None:
            return "daily"
        return deal_level(game.code)

    def choice_for(self, game: Game) -> GameChoice:
        """The choice that deals another game like ``game`` (the new-game dialog opens on it,
        the win screen's New deal deals it): its game and rule set, and its level when it came
        from the catalog at one, "any" for a random deal. Read from the game's code, so a game
        resumed after a restart says the same. Today's deal keeps the chosen level."""
        choice = self.choice.following(game.rules)
        deal = self.level_of(game)
        level = "any" if deal == "random" else deal
        return replace(choice, level=level) if level in LEVELS else choice

    def has_levels(self, rules_key: str) -> bool:
        """Whether the deal catalog of ``rules_key`` has deals to choose a level from. A
        missing or damaged one has none."""
        known = self._has_levels.get(rules_key)
        if known is None:
            try:
                known = any(catalog.load(rules_key).levels.values())
            except Exception as error:  # a damaged catalog hides the levels, nothing else
                log.warning("deal catalog: %r; no levels to choose", error)
                known = False
            self._has_levels[rules_key] = known
        return known
