"""The game object: undo, saves, notation errors, and the queries the table asks."""

from __future__ import annotations

import copy
import json

import pytest

from engine import Game, IllegalMove, Move, StateError
from engine.cards import CARD_NAMES
from tests.helpers.enginehelp import build

pytestmark = pytest.mark.unit


class TestUndo:
    def test_restores_cards_face_up_state_and_score(self) -> None:
        game = build("RU1-C", [["#3D", "2H", "AH"]], filler=1)
        before = game.to_dict()
        game.play("AH-f")
        game.play("2H-f")
        assert game.to_dict()["columns"][0] == ["3D"] and game.score == 25
        assert [str(game.pop()), str(game.pop())] == ["2H-f", "AH-f"]
        assert {**game.to_dict(), "moves": 0, "redo": []} == before
        assert game.moves == 2

    def test_keeps_the_last_hundred_moves(self) -> None:
        game = build("SH1-C4", [["5C"]], foundations=(0, 0, 0, 4), filler=1)
        for _ in range(60):
            game.play("4C-c1")
            game.play("4C-f")
        assert game.moves == 120 and len(game.move_stack) == 100
        undone = 0
        while game.can_undo():
            game.pop()
            undone += 1
        assert undone == 100 and game.moves == 120

    def test_history_limit_is_an_option(self) -> None:
        game = Game.from_code("RU1-C-AAAAABB", history_limit=1)
        game.play("AC-f")
        game.play("2C-f")
        assert game.pop() == Move.parse("2C-f")
        with pytest.raises(IndexError):
            game.pop()
        assert game.found[3] == 1


class TestNotation:
    @pytest.mark.parametrize(
        ("text", "reason"),
        [
            ("", "bad_notation"),
            ("7H", "bad_notation"),
            ("-t5", "bad_notation"),
            ("ZZ-t5", "unknown_card"),
            ("7X-t5", "unknown_card"),
            ("7H-t11", "unknown_destination"),
            ("7H-x", "unknown_destination"),
            ("7H-c5", "unknown_destination"),
        ],
    )
    def test_bad_notation_is_refused_with_a_reason(self, text: str, reason: str) -> None:
        with pytest.raises(IllegalMove) as caught:
            Game.from_code("SH1-C4-AAAAAJ2").play(text)
        assert caught.value.reason == reason

    def test_destinations_outside_the_variant_do_not_exist(self) -> None:
        game = Game.from_code("RU1-C-AAAAABB")
        for text in ("4D-t8", "4D-c1"):
            with pytest.raises(IllegalMove) as caught:
                game.play(text)
            assert caught.value.reason == "unknown_destination"

    def test_ten_may_be_written_10_and_output_is_canonical(self) -> None:
        assert str(Move.parse("10h-T3")) == "TH-t3"
        assert str(Move.parse(" as-F ")) == "AS-f"
        assert repr(Move.parse("QC-c2")) == "Move.parse('QC-c2')"

    def test_non_text_is_bad_notation(self) -> None:
        with pytest.raises(IllegalMove) as caught:
            Game.from_code("RU1-C-AAAAABB").play(None)  # type: ignore[arg-type]
        assert caught.value.reason == "bad_notation"
        assert isinstance(caught.value, ValueError)


class TestSaves:
    def test_to_dict_has_the_spec_keys(self) -> None:
        data = Game.from_code("SH1-C4-AAAAAJ2").to_dict()
        assert {"code", "columns", "cells", "foundations", "score", "moves", "won"} <= set(data)
        json.dumps(data)

    def test_round_trip_mid_game(self) -> None:
        game = Game.from_code("RU1-C-AAAAABB")
        for move in ("AC-f", "2C-f", "4D-t3", "3C-t1"):
            game.play(move)
        loaded = Game.from_dict(json.loads(json.dumps(game.to_dict())))
        assert loaded.to_dict() == game.to_dict()
        assert loaded.move_stack == game.move_stack
        assert loaded.legal_moves() == game.legal_moves()

    def test_a_copy_and_a_game_read_back_have_every_field_of_the_game(self) -> None:
        """New, copied and read back, a game is set up in one place (Game._fill): each has the
        same fields with the same values, and a copy shares no list with its original."""
        game = Game.from_code("RU1-C-AAAAABB", history_limit=7)
        for move in ("AC-f", "2C-f", "4D-t3", "3C-t1"):
            game.play(move)
        game.pop()
        fields = vars(game)
        names = "rules number code cols down cells found score moves history undone"
        assert set(fields) == set(names.split())
        for other in (game.copy(), Game.from_dict(json.loads(json.dumps(game.to_dict())))):
            assert vars(other) == fields
            assert other.history.maxlen == 7
            for name in ("cols", "down", "cells", "found", "history", "undone"):
                assert getattr(other, name) is not getattr(game, name), name

    @pytest.mark.parametrize(
        ("damage", "words"),
        [
            (lambda d: d.update(code="RU1-X-AAAAABB"), "code"),
            (lambda d: d.update(code=None), "code"),
            (lambda d: d["columns"].pop(), "columns"),
            (lambda d: d["columns"][0].append("4C"), "twice"),
            (lambda d: d["columns"][0].clear(), "51 cards"),
            (lambda d: d["columns"][1].__setitem__(3, "#QS"), "face-down card above"),
            (lambda d: d["columns"][0].__setitem__(0, "#4C"), "top card is face down"),
            (lambda d: d["columns"][0].__setitem__(0, "XX"), "no such card"),
            (lambda d: d.update(cells=[None]), "cells"),
            (lambda d: d.update(foundations=[0, 0, 0]), "foundations"),
            (lambda d: d.update(foundations=[0, 0, 0, 14]), "foundations"),
            (lambda d: d.update(score=-5), "score"),
            (lambda d: d.update(moves="many"), "moves"),
            (lambda d: d.update(won=True), "won"),
            (lambda d: d.update(history="x"), "history"),
            (lambda d: d.update(history=[{"move": "AC-f"}]), "history[0]"),
            (lambda d: d.update(history_limit=-1), "history_limit"),
        ],
    )
    def test_damaged_saves_are_refused_clearly(self, damage, words: str) -> None:  # type: ignore[no-untyped-def]
        data = copy.deepcopy(Game.from_code("RU1-C-AAAAABB").to_dict())
        damage(data)
        with pytest.raises(StateError) as caught:
            Game.from_dict(data)
        assert words in str(caught.value)

    @pytest.mark.parametrize("data", [None, [], "save", 3])
    def test_not_an_object(self, data: object) -> None:
        with pytest.raises(StateError):
            Game.from_dict(data)


class TestTableQueries:
    def test_tap_sends_a_top_card_or_cell_card_home(self) -> None:
        game = build("SH1-C4", [["5D", "AH"], ["9S"]], cells=["AS"], filler=2)
        assert str(game.tap_move("AH")) == "AH-f"
        assert str(game.tap_move("AS")) == "AS-f"
        assert game.tap_move("5D") is None and game.tap_move("9S") is None

    def test_tap_never_takes_a_card_back_from_the_foundation(self) -> None:
        game = build("RU1-C", [["#3D", "3H"]], foundations=(0, 2, 0, 0), filler=1)
        assert game.tap_move("2H") is None

    def test_russian_double_tap_prefers_the_foundation(self) -> None:
        game = build("RU1-R", [["#3D", "2H"], ["#4D", "3C"]], foundations=(0, 1, 0, 0), filler=2)
        assert str(game.double_tap_move("2H")) == "2H-f"

    def test_russian_relaxed_double_tap_takes_the_longest_column(self) -> None:
        game = build(
            "RU1-R",
            [
                ["#3D", "7C"],
                ["#4D", "5D", "6C", "8S"],
                ["#2D", "#6D", "9D", "TC", "8H"],
                ["JC", "QH", "7D"],
            ],
            filler=4,
        )
        assert str(game.double_tap_move("7D")) == "7D-t3"  # both 8s take it; t3 is longer
        assert [str(m) for m in game.targets("7D")] == ["7D-t2", "7D-t3"]

    def test_russian_double_tap_moves_the_card_with_everything_on_it(self) -> None:
        game = build("RU1-C", [["#3D", "9C"], ["#2D", "8C", "KH", "2S"]], filler=2)
        move = game.double_tap_move("8C")
        assert str(move) == "8C-t1"
        game.play(move)
        assert game.to_dict()["columns"][0][-3:] == ["8C", "KH", "2S"]

    def test_double_tap_finds_an_empty_column_for_a_king_but_not_a_pointless_one(self) -> None:
        game = build("RU1-C", [[], ["#3D", "KS", "4H"], ["KH", "2C"]], filler=3)
        assert str(game.double_tap_move("KS")) == "KS-t1"
        assert game.double_tap_move("KH") is None  # already at the bottom of its column
        assert game.why_stuck("KH").reason == "no_destination"

    def test_seahaven_double_tap_order(self) -> None:
        # foundation, then longest column, then empty column (king), then free cell
        game = build("SH1-C4", [["6H"], [], ["KD", "5H"], ["9C"]], cells=["AS"], filler=4)
        assert str(game.double_tap_move("AS")) == "AS-f"
        assert str(game.double_tap_move("5H")) == "5H-t1"
        assert str(game.double_tap_move("9C")) == "9C-c2"
        game = build("SH1-C4", [[], ["QH", "KD"]], filler=2)
        assert str(game.double_tap_move("KD")) == "KD-t1"

    def test_double_tap_from_a_cell_does_not_hop_cells(self) -> None:
        game = build("SH1-C4", [["5H"], ["2D"]], cells=["9C"], filler=2)
        assert game.double_tap_move("9C") is None

    def test_why_stuck_explains_cards_that_cannot_be_lifted(self) -> None:
        game = build("SH1-C4", [["9S", "4H"]], filler=1)
        assert game.why_stuck("9S").reason == "not_in_sequence"

    def test_lift_names_the_group(self) -> None:
        game = build("SH1-C4", [["9S", "8S", "7S"]], filler=1)
        assert [len(game.lift(c)) for c in ("9S", "8S", "7S")] == [3, 2, 1]

    def test_check_explains_without_changing_anything(self) -> None:
        game = Game.from_code("RU1-C-AAAAABB")
        assert game.check("4D-t3") is None
        refusal = game.check("4C-t3")
        assert refusal is not None and refusal.reason == "wrong_suit"
        assert refusal.params["fits"] == "4D"
        assert game.moves == 0


def test_undo_history_holds_named_snapshots() -> None:
    game = Game.from_code("RU1-C-AAAAABB")
    before = game.snapshot()
    game.play(game.legal_moves()[0])
    step = game.history[-1]
    assert step.before == before
    assert step.before.score == 0 and step.before.cols[0] == before.cols[0]
    assert step.before.position_key() == Game.from_code("RU1-C-AAAAABB").position_key()


class TestAutoTarget:
    """docs/rules.md, "Auto placement": a released card goes to the column nearest the drop
    that takes it; never silently a free cell or a foundation; ties: the longer column;
    pointless moves never."""

    def test_the_nearest_column_wins_over_a_nearer_free_cell_or_foundation(self) -> None:
        game = build("SH1-C4", [["6H"], [], ["KD", "5H"], ["9C"]], filler=4)
        far_from_t1 = {0: 5.0}  # the free cells and the foundation lie nearer the drop
        move = game.auto_target("5H", near=lambda m: far_from_t1.get(m.dest, 1.0))
        assert str(move) == "5H-t1"
        assert game.auto_target("9C") is None  # only a cell would take it: no auto move

    def test_no_seahaven_column_top_goes_to_a_free_cell(self) -> None:
        game = Game.from_code("SH1-C4-AAAAAJ2")  # no top fits on another column here
        assert [game.auto_target(col[-1]) for col in game.cols] == [None] * 10

    def test_ties_go_to_the_longer_column_then_the_lower_number(self) -> None:
        game = build("RU1-R", [["6S"], ["#9D", "#8D", "6C"], ["#2C", "5H"], [], ["KH"]], filler=2)
        assert str(game.auto_target("5H", near=lambda m: 0.0)) == "5H-t2"
        assert str(game.auto_target("5H", near=lambda m: 1.0 if m.dest == 1 else 0.0)) == "5H-t1"
        assert game.auto_target("KH") is None  # a bottom king to another empty column: pointless
        moved = build("RU1-R", [["#2C", "KH"], [], []], filler=0)
        assert str(moved.auto_target("KH")) == "KH-t2"


class TestNeededCards:
    """docs/rules.md, "What a refusal says": the card the moved card needs."""

    def needed(self, game: Game, move: str) -> list[str]:
        refusal = game.check(move)
        assert refusal is not None
        return [CARD_NAMES[c] for c in game.needed_cards(refusal)]

    def test_same_suit_building_needs_the_one_card_of_its_suit(self) -> None:
        game = build("RU1-C", [["8H"], ["#2C", "5H"], ["9S"]], filler=1)
        assert self.needed(game, "5H-t1") == ["6H"]  # wrong rank: still only the 6 of hearts
        assert self.needed(game, "5H-t3") == ["6H"]  # wrong suit and rank

    def test_relaxed_building_needs_any_card_one_higher(self) -> None:
        game = build("RU1-R", [["8H"], ["#2C", "5H"]], filler=1)
        assert self.needed(game, "5H-t1") == ["6S", "6H", "6D", "6C"]

    def test_the_foundation_needs_its_next_card(self) -> None:
        game = build("RU1-C", [["#2C", "3H"]], foundations=(0, 1, 0, 0), filler=0)
        assert self.needed(game, "3H-f") == ["2H"]

    def test_an_empty_column_needs_a_king_that_is_not_home_or_at_a_bottom(self) -> None:
        game = build("RU1-C", [["KS"], ["#2C", "KH"], [], ["#3C", "5D"]], filler=4)
        assert self.needed(game, "5D-t3") == ["KH", "KD", "KC"]  # KS is already at a bottom
