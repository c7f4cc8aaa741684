"""Seahaven Towers rules, each seed example a named test (seed 004)."""

from __future__ import annotations

import pytest

from engine import Game
from tests.helpers.enginehelp import build, moves_of, refusal

pytestmark = pytest.mark.unit

RUN8 = ["9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]


def capacity_position() -> Game:
    """The seed's example: one free cell and two empty columns."""
    return build(
        "SH1-C1",
        [[], [], ["TS"], RUN8, ["KH", "QH", "JH", "TH", "9H"], ["KD", "QD", "JD", "TD"]],
        filler=[6, 7, 8, 9],
    )


class TestRunCapacity:
    def test_seed_an_eight_card_run_can_be_picked_up(self) -> None:
        game = capacity_position()
        game.play("9S-t3")
        assert game.to_dict()["columns"][2] == ["TS", *RUN8]

    def test_seed_a_king_run_goes_to_an_empty_column_only_when_at_most_four_long(self) -> None:
        game = capacity_position()
        error = refusal(game, "KH-t1")
        assert error.reason == "run_too_long"
        assert error.params == {"card": "KH", "size": 5, "limit": 4}
        game.play("KD-t1")
        assert game.to_dict()["columns"][0] == ["KD", "QD", "JD", "TD"]

    def test_a_nine_card_run_is_one_too_many(self) -> None:
        game = build("SH1-C1", [[], [], ["JS"], ["TS", *RUN8]], filler=[4, 5, 6, 7, 8, 9])
        error = refusal(game, "TS-t3")
        assert error.params == {"card": "TS", "size": 9, "limit": 8}
        assert "9S-t3" not in moves_of(game)  # nothing fits there but the ten

    def test_every_free_cell_adds_one_and_every_empty_column_doubles(self) -> None:
        run = ["9S", "8S", "7S", "6S", "5S"]
        game = build(
            "SH1-C4", [["TS"], run], cells=["AH", "2H", "3H", None], filler=[2, 3, 4, 5, 6, 7, 8, 9]
        )
        assert refusal(game, "9S-t1").params["limit"] == 2
        game = build(
            "SH1-C4", [["TS"], run], cells=["AH", "2H", None, None], filler=[2, 3, 4, 5, 6, 7, 8, 9]
        )
        assert refusal(game, "9S-t1").params["limit"] == 3
        game = build(
            "SH1-C4",
            [["TS"], run, []],
            cells=["AH", "2H", "3H", None],
            filler=[3, 4, 5, 6, 7, 8, 9],
        )
        assert refusal(game, "9S-t1").params["limit"] == 4
        game = build(
            "SH1-C4",
            [["TS"], run, []],
            cells=["AH", "2H", None, None],
            filler=[3, 4, 5, 6, 7, 8, 9],
        )
        game.play("9S-t1")

    def test_only_same_suit_sequences_move_together(self) -> None:
        game = build("SH1-C4", [["TS"], ["9S", "8H"]], filler=2)
        assert refusal(game, "9S-t1").reason == "not_in_sequence"
        game = build("SH1-C4", [["TS"], ["9S", "7S"]], filler=2)
        assert refusal(game, "9S-t1").reason == "not_in_sequence"


class TestEmptyColumnsAndCells:
    def test_empty_column_takes_only_a_king(self) -> None:
        game = build("SH1-C4", [[], ["QS"]], filler=2)
        error = refusal(game, "QS-t1")
        assert error.reason == "king_only" and error.params["reveals"] is False

    def test_any_card_to_an_empty_cell_one_card_each(self) -> None:
        game = build("SH1-C4", [["5D", "QS"], ["9S", "8S"]], cells=["AH", None], filler=2)
        game.play("QS-c2")
        assert game.to_dict()["cells"][:2] == ["AH", "QS"]
        error = refusal(game, "5D-c2")
        assert error.reason == "cell_taken" and error.params == {"cell": "c2", "occupant": "QS"}
        assert refusal(game, "9S-c3").reason == "cell_one_card"

    def test_a_cell_card_goes_to_a_column_a_foundation_or_another_cell(self) -> None:
        game = build("SH1-C4", [["6H"]], cells=["5H", "AS"], filler=1)
        assert {"5H-t1", "5H-c3", "5H-c4", "AS-f", "AS-c3", "AS-c4"} <= set(moves_of(game))
        game.play("AS-f")
        game.play("5H-t1")
        assert game.score == 10

    def test_no_such_cell_in_a_one_cell_game(self) -> None:
        game = Game.from_code("SH1-C1-AAAAAJ2")
        assert refusal(game, "6C-c2").reason == "unknown_destination"
        assert game.legal_moves() == []


class TestFoundations:
    def test_only_single_cards_go_home(self) -> None:
        game = build("SH1-C4", [["2H", "AH"]], filler=1)
        assert refusal(game, "2H-f").reason == "foundation_top_only"

    def test_take_back_to_a_column_or_a_cell_costs_ten(self) -> None:
        game = build("SH1-C4", [["5C"]], foundations=(0, 0, 0, 4), filler=1)
        game.score = 40
        game.play("4C-c1")
        assert game.score == 30
        game.play("4C-f")
        assert game.score == 40
        game.play("4C-t1")
        assert game.score == 30 and game.to_dict()["columns"][0] == ["5C", "4C"]

    def test_score_never_goes_below_zero(self) -> None:
        game = build("SH1-C4", [["5C"]], foundations=(0, 0, 0, 4), filler=1)
        game.play("4C-c1")
        assert game.score == 0
        game.pop()
        assert game.score == 0 and game.found[3] == 4


class TestPerft:
    """Counts of legal moves after fixed move sequences (python-chess perft style)."""

    @pytest.mark.parametrize(
        ("code", "moves", "count"),
        [
            ("SH1-C4-AAAAAJ2", [], 24),  # ten tops and two cell cards into two free cells
            ("SH1-C2-AAAAAJ2", [], 0),
            ("SH1-C1-AAAAAJ2", [], 0),
            ("RU1-C-AAAAABB", [], 4),  # 4D-t3, 3C-t1, AC-t7, AC-f
            ("RU1-C-AAAAABB", ["AC-f"], 4),  # 4D-t3, 3C-t1, 2C-f and the ace back to 2C
        ],
    )
    def test_counts(self, code: str, moves: list[str], count: int) -> None:
        game = Game.from_code(code)
        for move in moves:
            game.play(move)
        assert len(game.legal_moves()) == count
