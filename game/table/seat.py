"""What the table's view and its gestures see of the table scene: a Protocol that
game.table.scene.TableScene serves, so that game.table.view and game.table.touch, which the
scene imports, never import the scene (not even for type checking)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from game.table.chrome import Look

if TYPE_CHECKING:
    from pygame import Rect

    from engine.cards import Card
    from game.look.layout import Command
    from game.table.finish import Finisher
    from game.table.hints import HintClient, HintMark
    from game.table.model import TableModel
    from game.table.select import Chooser


class Seat(Look, Protocol):
    """The table scene as its view draws it and its gestures find what lies under the finger
    (the commands are its model's: game.table.model)."""

    model: TableModel
    hints: HintClient
    chooser: Chooser
    finisher: Finisher

    @property
    def hint_mark(self) -> HintMark | None: ...
    @property
    def save_failed(self) -> bool: ...

    def now(self) -> float: ...
    def blink(self) -> bool: ...
    def bar_text(self) -> tuple[str, ...]: ...
    def shown_buttons(self) -> dict[Command, Rect]: ...
    def card_at(self, pos: tuple[int, int]) -> Card | None: ...
    def button_at(self, pos: tuple[int, int]) -> Command | None: ...
    def press_button(self, name: Command) -> None: ...
