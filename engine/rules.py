"""The registry of games and rule sets as data, and the few pure predicates every move check is
built from.

Two games (:data:`GAMES`: names, title, config key) and the five rule sets shipped
(:data:`ALL_RULES`): two base records, one per game; each variant is a ``replace(...)`` of its
base. :data:`REGISTRY` holds them and answers every lookup (by key, by game, by config value);
everything that lists rule sets (the config check, the new-game menu, the statistics, the
catalog files, the codes) asks it at call time. A new rule set is registered by one
``replace(...)`` added to :data:`ALL_RULES` (or, for a test, ``with REGISTRY.added(rules):``);
what else it needs (its names in the locales, a solver-made catalog for levels and the daily
deal) is the recipe in docs/development.md, "A new rule set".
Nothing else in the engine branches on the game's name: it reads these fields.

The move core (:mod:`engine.moves`: every legal move for :meth:`engine.game.Game.legal_moves`,
and the moves the solver's order in :mod:`engine.search.ordering` and the honest player of
:mod:`engine.search.honest` choose from) and the checks of :meth:`engine.game.Game.play` ask the
functions below what fits where, how large a group may be and which move to a foundation is
safe; docs/rules.md states the rules in words.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import NamedTuple

from engine.cards import IS_ACE, IS_KING, Card, is_ace, is_king, rank


@dataclass(frozen=True)
class Rules:
    """One rule set: how its game deals, what goes where, how it scores (its fields below);
    its key, game entry, config value and title as properties."""

    prefix: str  # game code prefix with version, "RU1" / "SH1"
    variant: str  # "C", "R", "C4", "C2", "C1"
    game: str  # "russian" / "seahaven"
    columns: int
    cells: int
    deal_down: tuple[int, ...]  # face-down cards dealt to each column
    deal_up: tuple[int, ...]  # face-up cards dealt on top of them
    leftovers: tuple[str, ...]  # where the cards after the columns go: "c1", "t2", ...
    same_suit: bool  # columns build down by suit (else regardless of suit)
    runs_only: bool  # a group must be a same-suit sequence (Seahaven) or any face-up cards
    max_group: int  # the largest group ever lifted at once (Russian: 20)
    run_capacity: bool  # groups are limited by (free cells + 1) * 2 ** empty columns
    takeback_to_cell: bool  # a foundation card may go back to a free cell
    foundation_points: int
    reveal_points: int
    takeback_points: int

    @property
    def key(self) -> str:
        """The code without the deal number: ``RU1-C``, ``SH1-C4``."""
        return f"{self.prefix}-{self.variant}"

    @property
    def info(self) -> GameInfo:
        """Its game's entry in :data:`GAMES`."""
        return REGISTRY.info(self.game)

    @property
    def option(self) -> str | int:
        """How the operator's config names this rule set among its game's (the value of
        ``info.option_key``): ``"classic"`` / ``"relaxed"``, or the number of free cells."""
        if self.info.chosen_by == "cells":
            return self.cells
        return "classic" if self.same_suit else "relaxed"

    @property
    def title(self) -> str:
        """Its name in English, for the deal catalogs' headers: "Seahaven Towers, 1 free cell"."""
        if self.info.chosen_by == "cells":
            return f"{self.info.title}, {self.cells} free cell{'' if self.cells == 1 else 's'}"
        kind = "classic (same suit)" if self.same_suit else "relaxed (any suit)"
        return f"{self.info.title}, {kind}"


class GameInfo(NamedTuple):
    """One game of the registry (as KDE Patience's ``DealerInfo``). ``name`` is the rule sets'
    ``Rules.game``, the value of ``default_game`` in config.toml and the locale key
    ``names.<name>``; ``title`` its name in English (file headers); ``option_key`` the config
    key that chooses its rule set for fresh deals, whose values name what its rule sets
    differ in (``chosen_by``: "suits", ``"classic"`` or ``"relaxed"`` building; "cells", the
    number of free cells). A rule set's own names on screen are the locale keys
    ``variant.<key>`` and ``stats.<key>`` (game.rulesets)."""

    name: str
    title: str
    option_key: str
    chosen_by: str  # "suits" or "cells"


GAMES: tuple[GameInfo, ...] = (
    GameInfo("russian", "Russian Solitaire", "russian_rules", "suits"),
    GameInfo("seahaven", "Seahaven Towers", "seahaven_cells", "cells"),
)


RUSSIAN = Rules(
    prefix="RU1",
    variant="C",
    game="russian",
    columns=7,
    cells=0,
    deal_down=(0, 1, 2, 3, 4, 5, 6),
    deal_up=(1, 5, 5, 5, 5, 5, 5),
    leftovers=(),
    same_suit=True,
    runs_only=False,
    max_group=20,
    run_capacity=False,
    takeback_to_cell=False,
    foundation_points=10,
    reveal_points=5,
    takeback_points=0,
)
RUSSIAN_RELAXED = replace(RUSSIAN, variant="R", same_suit=False)

SEAHAVEN = Rules(
    prefix="SH1",
    variant="C4",
    game="seahaven",
    columns=10,
    cells=4,
    deal_down=(0,) * 10,
    deal_up=(5,) * 10,
    leftovers=("c1", "c2"),
    same_suit=True,
    runs_only=True,
    max_group=52,
    run_capacity=True,
    takeback_to_cell=True,
    foundation_points=10,
    reveal_points=0,
    takeback_points=-10,
)
SEAHAVEN_2 = replace(SEAHAVEN, variant="C2", cells=2)
SEAHAVEN_1 = replace(SEAHAVEN, variant="C1", cells=1, leftovers=("c1", "t2"))

ALL_RULES: tuple[Rules, ...] = (RUSSIAN, RUSSIAN_RELAXED, SEAHAVEN, SEAHAVEN_2, SEAHAVEN_1)
"""The rule sets shipped, in the registry's order (:data:`REGISTRY` may hold more)."""


class Registry(Mapping[str, Rules]):
    """The games and rule sets (as KDE Patience's list of ``DealerInfo``): a mapping from a rule
    set's key ("RU1-C") to its :class:`Rules`, in registration order, and the lookups every
    listing needs. It changes only inside :meth:`added` (a test's extra rule set).

    >>> REGISTRY["SH1-C4"].title, REGISTRY["SH1-C4"].same_suit
    ('Seahaven Towers, 4 free cells', True)
    >>> "XX1-C" in REGISTRY
    False
    """

    def __init__(self, games: Sequence[GameInfo], rules: Sequence[Rules]) -> None:
        self._games = {info.name: info for info in games}
        self._rules: dict[str, Rules] = {}
        self._all: tuple[Rules, ...] = ()
        for each in rules:
            self._add(each)

    def _add(self, rules: Rules) -> None:
        if rules.game not in self._games:
            raise ValueError(f"rule set {rules.key}: unknown game {rules.game!r}")
        if rules.key in self._rules:
            raise ValueError(f"rule set {rules.key} is already registered")
        columns = (len(rules.deal_down), len(rules.deal_up))
        dealt = sum(rules.deal_down) + sum(rules.deal_up) + len(rules.leftovers)
        if columns != (rules.columns, rules.columns) or dealt != 52:
            raise ValueError(
                f"rule set {rules.key} deals {dealt} cards to {columns} columns: "
                f"it must deal 52 to {rules.columns}"
            )
        self._rules[rules.key] = rules
        self._all = tuple(self._rules.values())

    def __getitem__(self, key: str) -> Rules:
        return self._rules[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    @contextmanager
    def added(self, rules: Rules) -> Iterator[Rules]:
        """``rules`` is registered inside the block and gone after it (a test's extra rule set:
        no file is edited). Its game must be one of :data:`GAMES`."""
        self._add(rules)
        try:
            yield rules
        finally:
            del self._rules[rules.key]
            self._all = tuple(self._rules.values())

    def all(self) -> tuple[Rules, ...]:
        """Every rule set, in registration order."""
        return self._all

    def info(self, game: str) -> GameInfo:
        """The entry of ``game`` ("russian"); KeyError for an unknown one."""
        return self._games[game]

    def games(self) -> tuple[str, ...]:
        """The games ("russian", "seahaven"), in the order their first rule set comes."""
        return tuple(dict.fromkeys(rules.game for rules in self._rules.values()))

    def first_game(self) -> str:
        """The game a fresh kiosk deals when its config names none: the registry's first."""
        return self.games()[0]

    def game_infos(self) -> tuple[GameInfo, ...]:
        """The entry of each game (name, title, config key), in :meth:`games` order."""
        return tuple(self._games[game] for game in self.games())

    def of_game(self, game: str) -> tuple[Rules, ...]:
        """The rule sets of ``game``, in registration order."""
        return tuple(rules for rules in self._rules.values() if rules.game == game)

    def by_option(self, game: str, value: object) -> Rules | None:
        """The first rule set of ``game`` that the config value ``value`` of its option key
        names (``"relaxed"``, ``2``: :attr:`Rules.option`), or None."""
        for rules in self.of_game(game):
            if rules.option == value and type(rules.option) is type(value):
                return rules
        return None

    def varies_in_cells(self, game: str) -> bool:
        """Whether ``game``'s rule sets differ in their free cells (Seahaven)."""
        return len({rules.cells for rules in self.of_game(game)}) > 1

    def offers_levels(self, game: str) -> bool:
        """Whether the player picks a level for ``game``'s deals: a game whose rule sets differ
        in free cells (Seahaven) has its difficulty there, and asks only for a winnable deal."""
        return not self.varies_in_cells(game)


REGISTRY = Registry(GAMES, ALL_RULES)
RULES_BY_KEY: Mapping[str, Rules] = REGISTRY  # the registry, read as a mapping by key


def fits_on(rules: Rules, card: Card, top: Card) -> bool:
    """Does ``card`` go on a column whose face-up top card is ``top``? One rank lower, and in
    same-suit building the same suit.

    >>> from engine.cards import parse_card
    >>> seahaven = REGISTRY["SH1-C4"]
    >>> fits_on(seahaven, parse_card("9C"), parse_card("TC"))
    True
    >>> fits_on(seahaven, parse_card("9H"), parse_card("TC"))
    False
    """
    if rules.same_suit:
        return card + 1 == top and not is_ace(top)
    return rank(card) + 1 == rank(top)


def fits_on_empty(card: Card) -> bool:
    """Only a king (with what lies on it) goes on an empty column."""
    return is_king(card)


def is_run(cards: tuple[Card, ...] | list[Card]) -> bool:
    """Same suit and each card one rank below the one under it (``9C 8C 7C``).

    >>> from engine.cards import parse_card
    >>> is_run([parse_card(name) for name in ("9C", "8C", "7C")])
    True
    >>> is_run([parse_card(name) for name in ("9C", "8H")])
    False
    """
    return all(
        lower == upper + 1 and not is_ace(lower) for lower, upper in itertools.pairwise(cards)
    )


def run_capacity(free_cells: int, empty_columns: int) -> int:
    """The longest run that may move at once: ``(free cells + 1) * 2 ** empty columns``.
    Pass the empty columns other than the destination.

    >>> run_capacity(2, 0), run_capacity(2, 1)  # two free cells, then also an empty column
    (3, 6)
    """
    return (free_cells + 1) << empty_columns


def fit_key(rules: Rules, card: Card) -> int:
    """The key under which :func:`takers` files the columns that take ``card``: the card itself
    in same-suit building, its rank index in any-suit building."""
    return card if rules.same_suit else card % 13


_FIT_KEYS = {True: tuple(range(52)), False: tuple(c % 13 for c in range(52))}


def fit_keys(rules: Rules) -> tuple[int, ...]:
    """:func:`fit_key` of every card, as a table (for the move generators' inner loops)."""
    return _FIT_KEYS[rules.same_suit]


def takers(rules: Rules, cols: Sequence[Sequence[int]]) -> tuple[dict[int, list[int]], list[int]]:
    """Which columns take which card, and the empty columns. ``cols`` are columns bottom to top
    (a column's top card is always face up); a card ``c`` fits on the non-empty columns
    ``takers(...)[0].get(fit_key(rules, c), [])``: the same answers as :func:`fits_on`."""
    by_key: dict[int, list[int]] = {}
    empties: list[int] = []
    keys = fit_keys(rules)
    for i, col in enumerate(cols):
        if not col:
            empties.append(i)
            continue
        top = col[-1]
        if IS_ACE[top]:
            continue  # an ace takes nothing
        key = keys[top - 1]  # the card of the next rank down (any of its suit: its fit_key)
        if key in by_key:
            by_key[key].append(i)
        else:
            by_key[key] = [i]
    return by_key, empties


def group_limit(rules: Rules, free_cells: int, empty_columns: int) -> int:
    """The most cards one move may carry: the run capacity where it applies (pass the empty
    columns other than the destination), else the rule set's fixed limit."""
    if rules.run_capacity:
        return min(rules.max_group, run_capacity(free_cells, empty_columns))
    return rules.max_group


def run_start(col: Sequence[int], down: int) -> int:
    """Where the same-suit run on top of a column starts (its lowest card's position); never
    below the face-down cards."""
    p = len(col) - 1
    while p > down and col[p - 1] == col[p] + 1 and not IS_KING[col[p]]:
        p -= 1
    return p


def is_safe_home(rules: Rules, card: Card, found: Sequence[int]) -> bool:
    """May ``card``, which its foundation wants next (a column's top card or a free-cell card),
    go there with no loss of any line of play? In same-suit building only ``card - 1`` goes on
    it, and that card is home; in any-suit building the cards that go on it are the four of the
    rank below, so it is safe when every foundation holds them: ``rank <= min(found) + 1``.
    The proof is rule 3 of :mod:`engine.search.solver`; the one shared "safe move to foundation"."""
    return rules.same_suit or rank(card) <= min(found) + 1
