"""What the table reports, and who listens: the card sounds (game.sound.CardSounds), the high
scores (game.arcade.play), autosave, statistics and logs (game.saves.session), the metrics, the
X11 guard, test recorders. game.launch.compose lists them, in the order they hear each report.

The table calls ``app.hooks.moved(game, move)`` and the like: one typed method per event. A
listener implements any subset of :class:`TableHooks` (subclass it, or duck-type it), at least
one. A listener that names no hook, or has a public method that looks like a misspelt hook (a
name close to one, taking as many arguments), is refused when it is added, at start: such a
method would never be called. A listener that fails is logged and never stops the game. Must not
import pygame.
"""

from __future__ import annotations

import difflib
import inspect
import logging
from collections.abc import Callable, Iterable
from typing import Any, Literal

from engine import Game, Move
from engine.cards import Card

log = logging.getLogger("solitaire.hooks")

Left = Literal["abandoned", "idle", "aside"]
"""How an unfinished game left the table (:meth:`TableHooks.ended`): for a new deal, for the
idle timer's fresh deal, or set aside by it to resume (game.saves.session.SetAside)."""
Ending = Literal["won", Left]
"""How a game ended, as the statistics and the game log tell it (game.saves.session)."""


class TableHooks:
    """The table's reports. A move that wins is reported by ``moved`` (check ``game.is_won``)."""

    def started(self, game: Game) -> None:
        """A new game is on the table."""

    def moved(self, game: Game, move: Move) -> None:
        """``move`` was played (``game`` is the position after it)."""

    def lifted(self, game: Game, card: Card) -> None:
        """The player picked ``card`` (and the cards on it) up: a drag began."""

    def undone(self, game: Game) -> None:
        """A move was taken back."""

    def refused(self, game: Game) -> None:
        """A tap or drop was refused (TableModel.refuse: the cards shake)."""

    def ended(self, game: Game, result: Left) -> None:
        """An unfinished game was left: ``result`` is "abandoned", "idle" or "aside" (kept to
        resume: game.saves.session.SetAside)."""

    def step(self, dt: float) -> None:
        """One fixed update step of the loop (``dt`` seconds), whatever is on screen."""

    def shutdown(self, game: Game) -> None:
        """The game is quitting: save now."""


HOOK_NAMES = tuple(name for name in vars(TableHooks) if not name.startswith("_"))
"""The hooks' names, in the order :class:`TableHooks` declares them."""


def heard(listener: object) -> tuple[str, ...]:
    """The hooks ``listener`` names: its own methods of those names (a TableHooks subclass's
    overrides; the base's empty ones do not count)."""
    return tuple(name for name in HOOK_NAMES if _names(listener, name))


def _names(listener: object, name: str) -> bool:
    method = getattr(listener, name, None)
    return callable(method) and getattr(method, "__func__", None) is not getattr(TableHooks, name)


def misspelt(listener: object) -> tuple[str, ...]:
    """The public methods of ``listener`` that look like a hook but are none: a name (less an
    ``on_``) close to a hook's, taking as many arguments as it. ``start()`` is no ``started(game)``.
    """
    found = []
    kind = type(listener)
    for name in dir(kind):
        method = inspect.getattr_static(kind, name)  # no property is run
        if name.startswith("_") or name in HOOK_NAMES or not inspect.isfunction(method):
            continue
        like = difflib.get_close_matches(name.removeprefix("on_"), HOOK_NAMES, 1, 0.8)
        if like and _arity(method) == _arity(getattr(TableHooks, like[0])):
            found.append(name)
    return tuple(found)


def _arity(function: Callable[..., object]) -> int:
    return len(inspect.signature(function).parameters)


class Hooks(TableHooks):
    """Every listener, told in turn, in the order given. ``on_error(event, error)`` hears
    about a listener that failed (the soak test counts them); the failure is logged either
    way."""

    def __init__(self, listeners: Iterable[TableHooks] = ()) -> None:
        self.listeners: list[TableHooks] = []
        self.on_error: Callable[[str, Exception], None] | None = None
        for listener in listeners:
            self.add(listener)

    def add(self, listener: TableHooks) -> None:
        """``listener`` hears every report after the ones added before it. TypeError when it
        names no hook or has a method that looks like a misspelt one: such a method would
        otherwise never be called, silently."""
        names = ", ".join(HOOK_NAMES)
        kind = type(listener).__name__
        if not heard(listener):
            raise TypeError(f"{kind} listens to no hook of the table ({names})")
        if wrong := misspelt(listener):
            raise TypeError(f"{kind}.{', '.join(wrong)} names no hook of the table ({names})")
        self.listeners.append(listener)

    def _tell(self, event: str, *args: Any) -> None:
        for listener in list(self.listeners):
            method = getattr(listener, event, None)  # a duck-typed listener may skip some
            if method is None:
                continue
            try:
                method(*args)
            except Exception as error:  # a full disk must not end a game in a public place
                log.warning("hook %s.%s failed: %r", type(listener).__name__, event, error)
                if self.on_error is not None:
                    self.on_error(event, error)

    def started(self, game: Game) -> None:
        self._tell("started", game)

    def moved(self, game: Game, move: Move) -> None:
        self._tell("moved", game, move)

    def lifted(self, game: Game, card: Card) -> None:
        self._tell("lifted", game, card)

    def undone(self, game: Game) -> None:
        self._tell("undone", game)

    def refused(self, game: Game) -> None:
        self._tell("refused", game)

    def ended(self, game: Game, result: Left) -> None:
        self._tell("ended", game, result)

    def step(self, dt: float) -> None:
        self._tell("step", dt)

    def shutdown(self, game: Game) -> None:
        self._tell("shutdown", game)
