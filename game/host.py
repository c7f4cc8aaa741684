"""What a scene may ask of the program that shows it: the seams between the loop, the scene
stack and the table (docs/architecture.md, "Seams").

Scenes are typed against these Protocols, never against ``game.app.App``: the App serves them
all, and the attract screen's and the Examples page's own tables play on a lighter host
(game.scenes.demo) that serves :class:`Host` only. This module imports nothing of game/ that
knows a scene, so every scene can import it without an import circle.

- :class:`Host`: what any scene, the table included, needs (screen, clock, settings, language,
  games, workers, hooks, the scene stack, the high-score tables); how a table shows itself (its
  buttons as pictures, its least text size) is the table's own (game.table.scene.TableScene).
- :class:`AppHost`: what the dialogs over the visitor's table need besides: that table
  (:class:`Table`), the player's preferences, the sound, the kiosk, the end of the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, Protocol, overload

if TYPE_CHECKING:
    import pygame

    from engine import Game
    from game.arcade.play import Arcade
    from game.clock import FixedClock, FrameWindow, PlayTime
    from game.games import Games
    from game.hooks import Hooks, Left
    from game.i18n import Translator
    from game.input import GestureReader
    from game.kiosk.models import IdleTimer, PinPad
    from game.look.cards import CardArt
    from game.player import Preferences
    from game.saves.prefs import PlayerSettings
    from game.saves.session import Session, SetAside
    from game.sound import Sounds
    from game.table.model import TableModel
    from game.workers import Workers


class Named(Protocol):
    """A scene as another scene sees it: its registered name."""

    @property
    def name(self) -> str: ...


class TableFactory(Protocol):
    """What builds a table scene (game.table.scene.TableScene) on a host of its own: a demo's."""

    def __call__(
        self,
        host: Host,
        *,
        game: Game,
        pictures: bool = ...,
        least_text: Callable[[], int] = ...,
        play_time: PlayTime | None = ...,
    ) -> Named: ...


Showing = Literal["demo", "today", "all", "howto"]
"""What the attract screen shows (game.scenes.attract): the demo game or a board of its rotation."""


class Stack(Protocol):
    """The scene stack (game.scene.SceneStack) as scenes use it: open by name, close.

    Each scene opens by its name with its own arguments, one overload each, so mypy checks
    every opening (tests/game/test_seams.py keeps them equal to the scenes' constructors)."""

    @property
    def top(self) -> Named: ...

    @overload
    def open(
        self,
        name: Literal["newgame", "settings", "rules", "stats", "scores", "entries"],
    ) -> Named: ...
    @overload
    def open(self, name: Literal["keypad"], *, text: str = ...) -> Named: ...
    @overload
    def open(self, name: Literal["examples"], *, index: int = ...) -> Named: ...
    @overload
    def open(self, name: Literal["win"], *, game: Game, play_time: PlayTime) -> Named: ...
    @overload
    def open(self, name: Literal["pin"], *, controller: Kiosk) -> Named: ...
    @overload
    def open(self, name: Literal["operator"], *, controller: Kiosk | None = ...) -> Named: ...
    @overload
    def open(self, name: Literal["attract"], *, showing: Showing = ...) -> Named: ...
    @overload
    def open(self, name: Literal["initials"], *, ranks: str = ...) -> Named: ...
    @overload
    def open(
        self,
        name: Literal["confirm"],
        *,
        question: str,
        yes: str,
        no: str,
        on_yes: Callable[[], None],
        on_no: Callable[[], None] | None = ...,
    ) -> Named: ...

    def factory(self, name: Literal["table"]) -> TableFactory: ...
    def pop(self, scene: Named | None = None) -> None: ...
    def pop_to_bottom(self) -> None: ...
    def find(self, name: str) -> Named | None: ...


class Host(Protocol):
    """What every scene (and every table scene, the demo's too) needs of its host."""

    @property
    def screen(self) -> pygame.Surface: ...
    @property
    def px_per_mm(self) -> float: ...
    @property
    def settings(self) -> PlayerSettings: ...
    @property
    def tr(self) -> Translator: ...
    @property
    def clock(self) -> FixedClock: ...
    @property
    def reader(self) -> GestureReader: ...
    @property
    def games(self) -> Games: ...
    @property
    def workers(self) -> Workers: ...
    @property
    def hooks(self) -> Hooks: ...
    @property
    def scenes(self) -> Stack: ...
    @property
    def arcade(self) -> Arcade: ...
    @property
    def save_failed(self) -> bool:
        """The last autosave failed (the table's info bar shows a mark until one works)."""
        ...

    def redraw(self) -> None:
        """Paint every scene again on the next draw."""


class Table(Protocol):
    """The visitor's table (game.table.scene.TableScene) as the dialogs over it see it."""

    @property
    def model(self) -> TableModel:
        """The table's state: its game and play time, its layout, a drag (game.table.model)."""
        ...

    @property
    def art(self) -> CardArt: ...

    def start_game(self, game: Game, *, left: Left = "abandoned") -> None: ...
    def draw(self, screen: pygame.Surface, full: bool) -> list[pygame.Rect]: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def replace_game(self, make: Callable[[], Game]) -> None: ...
    def deal_label(self) -> str: ...
    def busy(self) -> bool: ...
    def forget_visitor(self) -> None: ...


class Kiosk(Protocol):
    """The kiosk controller (game.kiosk.controller) as the scenes see it."""

    @property
    def pin(self) -> PinPad: ...
    @property
    def idle(self) -> IdleTimer: ...
    @property
    def aside(self) -> SetAside | None:
        """The game an unlocked idle deal replaced (``idle_unlocked``), to resume."""
        ...

    def resume_aside(self) -> None: ...
    def operator_exit(self) -> None: ...


class AppHost(Host, Protocol):
    """The App as the dialogs over the visitor's table see it."""

    @property
    def table(self) -> Table: ...
    @property
    def prefs(self) -> Preferences: ...
    @property
    def sounds(self) -> Sounds: ...
    @property
    def kiosk(self) -> Kiosk | None:
        """The kiosk controller: only for a kiosk (game.kiosk.models.is_kiosk)."""
        ...

    @property
    def session(self) -> Session | None:
        """A saved run's session (its statistics), a desktop's too; None: nothing is kept."""
        ...

    @property
    def frame_times(self) -> FrameWindow:
        """The slowest frame of the last minute (the metrics read it)."""
        ...

    running: bool
    exit_status: int  # main.py's exit status (the operator's exit: 64)

    def set_locale(self, locale: str) -> None: ...
    def quit(self) -> None:
        """Leave as systemd's stop does: every listener's shutdown (the save first), then
        :meth:`close`, and the loop ends."""
        ...

    def close(self) -> None:
        """Stop every worker process and the sound (the loop ends next)."""
