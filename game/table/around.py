"""What the table model (game.table.model) needs around it, and the values it holds from there:
the screen's geometry (:class:`Board`, served by game.table.toast.ScreenBoard), the table
scene's services (:class:`Outside`, served by game.table.scene.TableScene), a yes/no question
(:data:`Ask`) and a message's place (:class:`Toast`, drawn by the view). Nothing here imports
pygame: the rectangles are the board's own (pygame's Rects on the screen)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pygame import Rect

    from engine import Game, Move
    from engine.cards import Card
    from game.hooks import Hooks
    from game.i18n import Translator
    from game.look.layout import Layout
    from game.saves.prefs import PlayerSettings
    from game.table.gesture import Drag, LastTap
    from game.table.places import Places


Ask = Callable[[str, str, str, Callable[[], None]], None]
"""A yes/no question over the table: ``ask(question, yes, no, on_yes)``; "no" goes back to the
table (TableScene.ask)."""


@dataclass
class Toast:
    """A message over the table: its words, until when it shows, its box on the screen and
    how it is set there (text size, lines). The view draws it (game.table.toast.ToastImage)."""

    text: str
    until: float
    rect: Rect
    text_size: int = 0
    lines: tuple[str, ...] = ()


class Board(Protocol):
    """The geometry the model asks of the screen: where ``game``'s cards lie on ``layout``
    (``held``: columns kept as they lay), ``text`` in a box over free felt clear of ``named``,
    and for a card let go with its corner at ``corner`` the pile it is over (None: none) and
    how far a move's place lies from it."""

    def places(self, game: Game, layout: Layout, held: dict[int, dict[Card, int]]) -> Places: ...
    def toast(
        self, text: str, layout: Layout, now: float, places: Places, named: list[Rect]
    ) -> Toast: ...
    def dropped(
        self, places: Places, corner: tuple[float, float]
    ) -> tuple[int | None, Callable[[Move], float]]: ...


class Outside(Protocol):
    """What the model's commands need from the table around it (the table scene serves it):
    the hooks they report to, the player's settings and language, the clock, and the dialogs:
    a yes/no question (:data:`Ask`), the way back to the table, a new deal at once (the lost
    hint's offer)."""

    @property
    def hooks(self) -> Hooks: ...
    @property
    def settings(self) -> PlayerSettings: ...
    @property
    def tr(self) -> Translator: ...
    def now(self) -> float: ...
    def ask(self, question: str, yes: str, no: str, on_yes: Callable[[], None]) -> None: ...
    def back(self) -> None: ...
    def new_deal(self) -> None: ...


class Parts(Protocol):
    """What the model's parts (game.table.hints' HintClient, game.table.finish's Finisher,
    game.table.select's Chooser) use of the model that owns them: the game and whether its
    table is in front, where the cards lie and the picture's version, the drag and the last
    tap, the toast, a move made or taken back, and what lies around (:class:`Outside`). The
    model (game.table.model.TableModel) serves it; the parts import no model, so that the
    model may import them."""

    game: Game
    active: bool
    places: Places
    version: int
    drag: Drag | None
    last_tap: LastTap | None
    outside: Outside

    def make_move(self, move: Move) -> bool: ...
    def undo(self) -> bool: ...
    def repaint(self) -> None: ...
    def show_toast(self, text: str) -> None: ...
    def drop_toast(self, text: str) -> None: ...
    def keep_toast(self, text: str, until: float) -> None: ...
