"""Finish: when the rest of a game is certain (every card face up, and a procedure with no
choice in it wins: moves home, cards parked in free cells and empty columns:
``engine.finish.finish_line``), the Hint button becomes **Finish**. A hint has
nothing left to tell then, so its place is free, whereas Undo, Redo, New game and Settings
still act. One tap plays those moves one after another, each a move of its own through the
table's ``make_move`` (it counts, scores, is saved and sounds as a tapped card does, and each
card is one undo step), their glides overlapping into one quick animation. Nothing goes home
unless Finish is tapped (seed 004: no card leaves by itself).

The run stops where it is when the position changes under it (an undo, a new deal, a card
moved by hand) or a card is lifted; the Finish button is back as long as the rest is certain.

Finish stands out: drawn in the palette's gold (game.table.chrome), and when it appears it
pulses once, :data:`PULSE` seconds of the fixed clock (grows and lights up, then stands still).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import Game, Move
from engine.finish import finish_line
from engine.game import PositionKey

if TYPE_CHECKING:
    from pygame import Rect

    from game.look.layout import Command, Layout
    from game.table.around import Parts

STAGGER = 0.045  # seconds between the starts of two cards' glides (each glides 0.15-0.25 s)
PULSE = 0.6  # seconds of Finish's one pulse when it takes Hint's place


def shown_buttons(offered: bool, layout: Layout) -> dict[Command, Rect]:
    """The table's buttons as shown now, by action name: the layout's, with "finish" in
    "hint"'s place while the rest of the game is certain (``offered``: :meth:`Finisher.offered`)."""
    shown: dict[Command, Rect] = {
        ("finish" if offered and name == "hint" else name): rect
        for name, rect in layout.buttons.items()
    }
    return shown


class Finisher:
    """Plays the finish of the table's game, a part of the table's ``model``, each move
    through its ``make_move``: :meth:`start` on the tap (TableModel.button), :meth:`step`
    every update (TableModel.update)."""

    def __init__(self, model: Parts) -> None:
        self.model = model
        self.queue: list[Move] = []  # the moves still to play, the next first
        self.due = 0.0  # when the next one starts
        self.key: PositionKey | None = None  # the position the next move is to be played from
        self.known: tuple[Game, PositionKey, list[Move] | None] | None = None  # the last answer
        self.shown = False  # Finish was in Hint's place at the last look (step)
        self.seen = -1  # the table's picture version of that look
        self.pulse_from: float | None = None  # when Finish appeared: its pulse runs from then

    def pulse(self, now: float) -> float | None:
        """How far Finish's one pulse has come at ``now``, 0 to 1; None: it stands still
        (over, or the table is not on top)."""
        start = self.pulse_from
        if start is None or not self.shown or not self.model.active:
            return None
        done = (now - start) / PULSE
        return done if 0.0 <= done < 1.0 else None

    def busy(self, now: float) -> bool:
        """Cards still go, or Finish pulses: the loop draws every frame."""
        return self.running or self.pulse(now) is not None

    @property
    def running(self) -> bool:
        """Cards are still to go and the table is on top (a dialog over it pauses the run, and
        the loop may sleep meanwhile)."""
        return bool(self.queue) and self.model.active

    def moves(self) -> list[Move] | None:
        """The table's game's ``finish_line``, worked out once per position (the buttons ask
        every frame the table's picture changes)."""
        game = self.model.game
        key, known = game.position_key(), self.known
        if known is not None and known[0] is game and known[1] == key:
            return known[2]
        moves = finish_line(game)
        self.known = (game, key, moves)
        return moves

    def offered(self) -> bool:
        """Whether the table shows Finish (in the Hint button's place)."""
        return self.moves() is not None

    def start(self, now: float) -> bool:
        """Play the finish from ``now`` on; False when the rest is not certain."""
        moves = self.moves()
        if not moves:
            return False
        self.queue, self.due = list(moves), now
        self.key = self.model.game.position_key()
        self.step(now)
        return True

    def stop(self) -> None:
        """No more cards go: the run is over (its moves so far stay made), and so is a pulse."""
        self.queue, self.due, self.key, self.pulse_from = [], 0.0, None, None

    def step(self, now: float) -> None:
        """Play every move that is due; stop when the game changed under the run or a card is
        lifted. Finish appearing (looked at when the table's picture changed) starts its
        pulse."""
        model = self.model
        if model.version != self.seen:
            self.seen, shown = model.version, self.offered()
            if shown and not self.shown:
                self.pulse_from = now
            self.shown = shown
        while self.queue and now >= self.due and model.active:
            if model.drag is not None or model.game.position_key() != self.key:
                self.stop()
                return
            if not model.make_move(self.queue.pop(0)):
                self.stop()
                return
            self.key = model.game.position_key()
            self.due = max(self.due, now) + STAGGER  # after a pause, on again: no burst
