"""The table's model (game.table.model, issue 41 item 1): the table's state and its commands
in one place, loaded without pygame, and driven here on its own: no scene, no window, no
gesture reader. What it needs around it (game.table.model.Outside) is this test's: the real
hooks, settings and language, a clock set by hand; the screen's geometry is the real one
(toast.ScreenBoard, on pygame's Rects, which need no display)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine import FOUNDATION, Game, Move
from game.hooks import Hooks
from game.i18n import Translator
from game.look.layout import compute_layout
from game.saves.prefs import PlayerSettings
from game.table import placement
from game.table.finish import Finisher
from game.table.model import TableModel
from game.table.toast import ScreenBoard
from tests.helpers.tablehelp import almost_won

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_model_loads_without_pygame():
    code = "import sys, game.table.model; print(sorted(m for m in sys.modules if 'pygame' in m))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


class Around:
    """The table around the model: what it reports (``heard``) and a clock set by hand."""

    def __init__(self, **settings: bool) -> None:
        self.heard: list[str] = []
        self.hooks = Hooks([self])
        self.settings = PlayerSettings(**settings)
        self.tr = Translator("en")
        self.time = 100.0
        self.changes = 0  # the hint told the position changed
        self.asked = 0  # hints asked for
        self.finishing = 0  # Finish runs started

    def now(self) -> float:
        return self.time

    def position_changed(self) -> None:
        self.changes += 1

    def hinted(self) -> list:
        return []

    def ask_hint(self) -> None:
        self.asked += 1

    def finish(self) -> None:
        self.finishing += 1

    def moved(self, game, move) -> None:
        self.heard.append(f"moved {move}")

    def undone(self, game) -> None:
        self.heard.append("undone")

    def lifted(self, game, card) -> None:
        self.heard.append("lifted")

    def refused(self, game) -> None:
        self.heard.append("refused")


def table_model(game: Game, window: float = 0.3, **settings: bool):
    rules, around = game.rules, Around(**settings)
    layout = compute_layout(800, 480, columns=rules.columns, cells=rules.cells)
    model = TableModel(
        game,
        layout,
        "random",
        None,
        board=ScreenBoard(),
        outside=around,
        double_tap_window=window,
    )
    return model, around


def stuck_top(game: Game):
    """A column's top card that cannot go home, but that a double tap sends to a place."""
    for col in game.cols:
        card = col[-1] if col else None
        if card is None or game.tap_move(card) is not None:
            continue
        if placement.double_tap_move(game, card) is not None:
            return card
    raise AssertionError("no such card in this deal")


def test_a_tap_sends_a_card_home_and_reports_the_move():
    game = almost_won()  # every card home but the four kings, alone in columns 1 to 4
    model, around = table_model(game)
    king = game.cols[0][-1]
    model.tap(king)
    assert game.locate(king)[0] == FOUNDATION and game.moves == 91
    assert around.heard == [f"moved {game.history[-1].move}"] and around.changes == 1
    assert model.last_tap is not None and model.last_tap.acted
    assert model.tweens, "the king glides home"


def test_a_tap_that_cannot_go_home_is_answered_once_the_double_tap_window_is_over():
    game = Game.from_code("RU1-C-AAAAABB")
    card = stuck_top(game)
    model, around = table_model(game, window=0.4)
    model.tap(card)
    assert model.pending_refusal is not None and model.pending_refusal.card == card
    assert model.pending_refusal.due == around.time + 0.4  # the input's tuning, as a value
    assert game.moves == 0 and around.heard == []
    due = model.pending_refusal.due
    around.time = due - 0.1
    model.answer_due(around.time)
    assert around.heard == [], "a second tap may still come"
    around.time = due
    model.answer_due(around.time)
    assert around.heard == ["refused"] and model.pending_refusal is None and model.tweens
    model.tick(around.time + 5, 5.0)
    assert not model.tweens and model.toast is None, "the shake and the words are over"
    model, around = table_model(Game.from_code("RU1-C-AAAAABB"), window=0.4, double_tap=False)
    model.tap(card)
    assert model.pending_refusal is not None and model.pending_refusal.due == around.time


def test_a_double_tap_sends_the_card_the_first_tap_touched_and_only_once():
    game = Game.from_code("RU1-C-AAAAABB")
    card = stuck_top(game)
    model, around = table_model(game)
    model.tap(card)
    assert model.double_tap() and game.moves == 1
    assert model.pending_refusal is None, "the double tap took the place of the answer"
    assert game.locate(card)[0] != FOUNDATION and around.heard[0].startswith("moved")
    assert model.double_tap() is False, "no first tap left: a tap of its own"
    assert game.moves == 1


def test_a_drop_on_a_foundation_moves_and_a_cancelled_drag_flies_back():
    game = almost_won()
    model, around = table_model(game)
    king, other = game.cols[0][-1], game.cols[1][-1]
    x, y, _ = model.rest()[king]
    start = (int(x) + 5, int(y) + 5)
    model.lift(king, start, start)
    assert model.drag is not None and around.heard == ["lifted"]
    home = model.layout.foundations[0].center
    model.drop((home[0] + 5, home[1] + 5))
    assert model.drag is None and game.locate(king)[0] == FOUNDATION and game.moves == 91
    x, y, _ = model.rest()[other]
    model.lift(other, (int(x) + 5, int(y) + 5), (int(x) + 60, int(y) + 60))
    model.drop(None)
    assert model.drag is None and game.moves == 91 and model.tweens, "it flies back"


def test_undo_and_redo_take_back_and_make_again_with_their_reports():
    game = almost_won()
    model, around = table_model(game)
    king = game.cols[0][-1]
    model.tap(king)
    assert model.undo() and not game.history and game.locate(king)[0] == 0
    assert around.heard[-1] == "undone"
    assert model.redo() and game.locate(king)[0] == FOUNDATION
    assert model.redo() is False
    assert model.toast is not None and model.toast.text == around.tr("table.nothing_to_redo")


def test_a_refused_move_shakes_and_says_why_with_interactive_rules():
    game = Game.from_code("RU1-C-AAAAABB")
    card = stuck_top(game)
    model, around = table_model(game, interactive_rules=True)
    why = game.check(Move(card, FOUNDATION))
    assert why is not None
    model.refuse_move([card], why)
    assert around.heard == ["refused"] and model.tweens and model.toast is not None


def test_finish_plays_the_rest_through_the_model_to_the_win():
    game = almost_won()
    model, around = table_model(game)
    finisher = Finisher(model, model.make_move)
    assert finisher.start(around.time)
    for _ in range(20):
        around.time += 0.05
        finisher.step(around.time)
    assert game.is_won and model.pending_win
    assert [h.split()[0] for h in around.heard] == ["moved"] * 4, "each card a move of its own"


def test_the_buttons_are_the_models_commands_and_new_game_and_settings_are_not():
    game = almost_won()
    model, around = table_model(game)
    model.tap(game.cols[0][-1])
    assert model.tweens
    assert model.button("hint") and around.asked == 1 and not model.tweens, "glides end first"
    assert model.button("finish") and around.finishing == 1
    assert model.button("undo") and around.heard[-1] == "undone"
    assert model.button("redo") and around.heard[-1].startswith("moved")
    assert not model.button("new") and not model.button("settings")
    assert (around.asked, around.finishing) == (1, 1)
