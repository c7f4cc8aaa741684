"""The table's model (game.table.model, issue 41 item 1): the table's state and its commands
in one place (a tap, a double tap, a choice, a drop, undo, redo, the hint, Finish, a new game,
the next visitor's reset), loaded without pygame, and driven here on its own: no scene, no
window, no gesture reader. What it needs around it (game.table.around.Outside) is this test's:
the real hooks, settings and language, a clock set by hand, dialogs that only note what they
were asked; the hint's workers are the real ones with a hint pool this test answers by hand;
the screen's geometry is the real one (toast.ScreenBoard, on pygame's Rects, which need no
display)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from engine import FOUNDATION, Game, Move
from game.hooks import Hooks
from game.i18n import Translator
from game.look.layout import compute_layout
from game.saves.prefs import PlayerSettings
from game.table import placement
from game.table.model import TableModel
from game.table.toast import ScreenBoard
from game.workers import Workers
from tests.helpers.tablehelp import ManualExecutor, almost_won

pytestmark = pytest.mark.unit

# What the model is made of and what it holds: none of them may load pygame.
MODEL = ("model", "picture", "around", "hints", "finish", "select", "gesture", "feedback")

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_model_loads_without_pygame():
    names = ", ".join(f"game.table.{name}" for name in MODEL)
    code = f"import sys, {names}; print(sorted(m for m in sys.modules if 'pygame' in m))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


# The only modules that write the model's fields: the model and its base.
WRITERS = {Path("game/table/model.py"), Path("game/table/picture.py")}


def model_writes(source: str) -> list[str]:
    """Every assignment in ``source`` to a field of something called ``model`` (``model.toast
    = ...``, ``self.model.drag = ...``, ``model.drag.pos = ...``, ``model.held[3] = ...``, in
    a tuple, augmented or annotated): each as written."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign):
            targets = [leaf for target in node.targets for leaf in leaves(target)]
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        else:
            continue
        found += [ast.unparse(target) for target in targets if on_model(target)]
    return found


def leaves(target: ast.expr) -> list[ast.expr]:
    """The single targets of an assignment's target (``a, (b, *c) = ...``: a, b, c)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return [leaf for element in target.elts for leaf in leaves(element)]
    return leaves(target.value) if isinstance(target, ast.Starred) else [target]


def on_model(target: ast.expr) -> bool:
    """Whether ``target`` is a field of ``model`` or ``<anything>.model``, or lies in one."""
    while isinstance(target, (ast.Attribute, ast.Subscript)):
        on = target.value
        named = isinstance(on, ast.Name) and on.id == "model"
        if isinstance(target, ast.Attribute) and (
            named or (isinstance(on, ast.Attribute) and on.attr == "model")
        ):
            return True
        target = on
    return False


def test_model_writes_are_found_however_they_are_written():
    source = (
        "model.toast = None\nself.model.drag = None\nmodel.tweens += []\n"
        "table.model.drag.pos = (1, 2)\nmodel.toast, (x, *self.model.marks) = None, (1,)\n"
        "self.model.held[3] = {}\n"
        "model.game.cols.append(1)\nmodel = other\nself.models = 1\n"
    )
    assert model_writes(source) == [
        "model.toast",
        "self.model.drag",
        "model.tweens",
        "table.model.drag.pos",
        "model.toast",
        "self.model.marks",
        "self.model.held[3]",
    ]


def test_only_the_model_writes_its_state():
    """The scenes, the gestures and the kiosk ask the model's commands (``press``, ``drag_to``,
    ``release``, ``relayout``, ``pause``, ``quiet``...); none assigns a field of it."""
    writes = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        where = path.relative_to(ROOT)
        if where not in WRITERS:
            source = path.read_text(encoding="utf-8")
            writes += [f"{where}: {target}" for target in model_writes(source)]
    assert writes == []


class Around:
    """The table around the model: what it reports (``heard``) and a clock set by hand."""

    def __init__(self, **settings: bool) -> None:
        self.heard: list[str] = []
        self.hooks = Hooks([self])
        self.settings = PlayerSettings(**{"winnable_indicator": False, **settings})
        self.tr = Translator("en")
        self.time = 100.0
        self.questions: list[str] = []  # yes/no questions put over the table
        self.deals = 0  # new deals asked for at once

    def now(self) -> float:
        return self.time

    def ask(self, question, yes, no, on_yes) -> None:
        self.questions.append(question)

    def back(self) -> None:
        pass

    def new_deal(self) -> None:
        self.deals += 1

    def started(self, game) -> None:
        self.heard.append("started")

    def ended(self, game, result) -> None:
        self.heard.append(f"ended {result}")

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
    workers = Workers()
    workers.use("hint", ManualExecutor())  # answered by hand: solver_answers
    model = TableModel(
        game,
        layout,
        "random",
        None,
        board=ScreenBoard(),
        outside=around,
        workers=workers,
        double_tap_window=window,
    )
    return model, around


def solver_answers(model: TableModel, notation: str | None, status: str = "won") -> None:
    """The hint worker's answer to the question asked last: ``notation`` (None: no move)."""
    pool = model.hints.workers.pool("hint")
    assert isinstance(pool, ManualExecutor) and pool.jobs, "no question asked"
    pool.jobs[-1][0].set_result((notation, status, None))


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
    assert around.heard == [f"moved {game.history[-1].move}"]
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
    assert model.finisher.offered() and model.button("finish")
    assert game.moves == 91, "the first card goes at once"
    assert model.busy(around.time)
    wins = []
    for _ in range(20):
        around.time += 0.05
        wins.append(model.update(around.time, 0.05))
    assert game.is_won and wins.count(True) == 1, "the win screen is due once, glides over"
    assert not model.pending_win and not model.busy(around.time)
    assert [h.split()[0] for h in around.heard] == ["moved"] * 4, "each card a move of its own"


def test_a_finish_run_stops_when_a_card_is_lifted():
    game = almost_won()
    model, around = table_model(game)
    model.button("finish")
    assert model.finisher.running and game.moves == 91
    x, y, _ = model.rest()[game.cols[3][-1]]
    model.lift(game.cols[3][-1], (int(x) + 5, int(y) + 5), (int(x) + 5, int(y) + 5))
    around.time += 1.0
    model.update(around.time, 1.0)
    assert not model.finisher.running and game.moves == 91 and not game.is_won


def test_a_hint_is_asked_for_shown_when_it_comes_and_dropped_by_a_move():
    game = almost_won()
    model, around = table_model(game)
    tr = around.tr
    assert model.button("hint")
    assert model.hints.thinking and model.busy(around.time)
    assert model.toast is not None and model.toast.text == tr("table.hint_thinking")
    model.button("hint")
    assert len(model.hints.workers.pool("hint").jobs) == 1, "already on it: no second search"
    around.time += 1.0
    model.update(around.time, 1.0)
    assert model.hints.mark is None, "not come yet"
    solver_answers(model, "KH-f")
    model.update(around.time, 0.0)
    assert model.hints.mark is not None and str(model.hints.mark.move) == "KH-f"
    assert model.toast is not None and model.toast.text == tr(
        "table.hint_move", move=model.hints.describe(model.hints.mark.move)
    )
    assert model.deadline(around.time) is not None, "the outline blinks, then goes"
    model.tap(game.cols[0][-1])  # a move: the hint is about a position gone
    assert model.hints.mark is None and not model.hints.thinking


def test_a_hint_that_comes_after_the_position_changed_is_not_shown():
    game = almost_won()
    model, around = table_model(game)
    model.button("hint")
    question = model.hints.job
    assert question is not None
    model.tap(game.cols[0][-1])
    assert question.future.cancelled() and model.hints.job is None, "the question is dropped"
    model.update(around.time, 0.0)
    assert model.hints.mark is None and model.toast is None


def test_a_lost_deal_offers_a_new_one():
    game = Game.from_code("RU1-C-AAAAABB")  # at its deal: no undo can help
    model, around = table_model(game)
    model.button("hint")
    solver_answers(model, None, status="lost")
    model.update(around.time, 0.0)
    assert around.questions == [around.tr("table.hint_deal_lost")]


def chosen_game():
    """A deal, a top card that cannot go home, and the place a tap then sends it to."""
    game = Game.from_code("RU1-C-AAAAABB")
    card = stuck_top(game)
    move = placement.double_tap_move(game, card)
    assert move is not None
    return game, card, move.dest


def test_tap_to_place_chooses_a_card_and_the_next_tap_puts_it():
    game, card, dest = chosen_game()
    model, _ = table_model(game, tap_to_place=True)
    assert model.choose(None, card, None), "chosen, not answered"
    assert model.pending_refusal is None and model.last_tap is not None
    chosen = model.chooser.targets()
    assert chosen is not None and chosen[0] == card and dest in chosen[1]
    assert model.choose(None, None, dest)
    assert game.moves == 1 and game.locate(card)[0] == dest
    assert model.chooser.current() is None, "the choice ends with the move"


def test_tap_to_place_leaves_other_taps_alone():
    game, card, _ = chosen_game()
    model, _ = table_model(game, tap_to_place=True)
    assert model.choose(None, card, None)
    assert not model.choose("undo", None, None), "a button acts, and the choice goes"
    assert model.chooser.current() is None and game.moves == 0
    model, _ = table_model(Game.from_code("RU1-C-AAAAABB"))  # the setting off
    assert not model.choose(None, card, None) and model.chooser.current() is None


def test_a_new_game_resets_the_table_and_reports_the_old_one():
    game = almost_won()
    model, around = table_model(game)
    model.tap(game.cols[0][-1])
    model.play_time.tick(12.0)
    model.show_toast("a message")
    new = Game.from_code("RU1-C-AAAAABB")
    rules = new.rules
    layout = compute_layout(800, 480, columns=rules.columns, cells=rules.cells)
    model.start(new, "easy", None, layout=layout)
    assert around.heard[-2:] == ["ended abandoned", "started"]
    assert model.game is new and model.deal == "easy" and model.layout is layout
    assert model.play_time.seconds == 0 and model.toast is None and model.last_tap is None
    assert len(model.rest()) == 52 and not model.first_line
    model.start(Game.from_code("RU1-C-AAAAAAD"), "random", None, left="idle")
    assert around.heard[-1] == "started", "no moves: nothing ended"
    assert model.first_line, "the next visitor is shown how to play"
    model.update(around.time, 0.0)
    assert model.toast is not None and model.toast.text == around.tr("table.first_time")


def test_a_new_game_stops_a_finish_run_and_drops_a_chosen_card():
    """A new game mid-Finish: no card of the old run is left to play and the loop may rest at
    once; a card chosen with Tap to place is no longer chosen, even on the same deal again."""
    game = almost_won()
    model, around = table_model(game)
    assert model.button("finish") and model.finisher.running
    model.start(Game.from_code("RU1-C-AAAAABB"), "random", None)
    assert not model.finisher.running and not model.busy(around.time)
    game, card, _ = chosen_game()
    model, _ = table_model(game, tap_to_place=True)
    assert model.choose(None, card, None) and model.chooser.current() is not None
    model.start(Game.from_code(game.code), "random", None)  # the same deal, from its start
    assert model.chooser.selection is None and model.chooser.targets() is None


def test_the_next_visitor_finds_no_choice_hint_or_finish_run():
    game = almost_won()
    model, around = table_model(game)
    model.button("finish")
    model.button("hint")
    model.show_toast("a message")
    model.forget_visitor()
    assert not model.finisher.running and not model.hints.thinking
    assert model.toast is None and not model.tweens and not model.busy(around.time)
    assert game.moves == 91, "the game stays as the visitor left it"
    game, card, _ = chosen_game()
    model, _ = table_model(game, tap_to_place=True)
    model.choose(None, card, None)
    model.forget_visitor()
    assert model.chooser.current() is None


def test_the_buttons_are_the_models_commands_and_new_game_and_settings_are_not():
    game = almost_won()
    model, around = table_model(game)
    model.tap(game.cols[0][-1])
    assert model.tweens
    assert model.button("hint") and model.hints.thinking and not model.tweens, "glides end"
    assert model.button("finish") and game.moves == 92, "the rest played, the first at once"
    assert model.button("undo") and around.heard[-1] == "undone"
    assert not model.button("new") and not model.button("settings")
