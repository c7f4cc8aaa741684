"""Russian Solitaire rules, each seed example a named test (seed 000 and 003)."""

from __future__ import annotations

import pytest

from engine import FOUNDATION, Game, IllegalMove, Move
from tests.helpers.enginehelp import build, moves_of, refusal

pytestmark = pytest.mark.unit


class TestBuildingInSuit:
    def test_seven_of_hearts_goes_on_eight_of_hearts(self) -> None:
        game = build("RU1-C", [["#2S", "8H"], ["#3S", "7H"]], filler=2)
        game.play("7H-t1")
        assert game.to_dict()["columns"][0] == ["#2S", "8H", "7H"]

    def test_never_on_eight_of_diamonds_and_says_which_card_fits(self) -> None:
        game = build("RU1-C", [["#2S", "8D"], ["#3S", "7H"]], filler=2)
        error = refusal(game, "7H-t1")
        assert error.reason == "wrong_suit"
        assert error.params == {"card": "7H", "target": "8D", "fits": "7D"}

    def test_never_on_a_black_eight(self) -> None:
        game = build("RU1-C", [["#2S", "8C"], ["#3S", "7H"]], filler=2)
        assert refusal(game, "7H-t1").params["fits"] == "7C"

    def test_same_suit_wrong_rank(self) -> None:
        game = build("RU1-C", [["#2S", "9H"], ["#3S", "7H"]], filler=2)
        error = refusal(game, "7H-t1")
        assert error.reason == "wrong_rank" and error.params["rank"] == "8"

    def test_nothing_goes_on_an_ace(self) -> None:
        game = build("RU1-C", [["#2S", "AH"], ["#3S", "KS"]], filler=2)
        assert refusal(game, "KS-t1").reason == "ace_takes_nothing"

    def test_relaxed_rules_build_regardless_of_suit(self) -> None:
        game = build("RU1-R", [["#2S", "8C"], ["#3S", "7H"]], filler=2)
        game.play("7H-t1")
        assert game.to_dict()["columns"][0][-1] == "7H"
        game = build("RU1-R", [["#2S", "9C"], ["#3S", "7H"]], filler=2)
        error = refusal(game, "7H-t1")
        assert error.reason == "wrong_rank" and error.params["rank"] == "8"


class TestGroups:
    def test_seed_group_of_five_in_any_order_moves_as_one(self) -> None:
        # Seed 000: "move 3 moves the group 3♣, 7♦, A♠, 4♠, 10♥" - only the lowest card fits.
        game = build("RU1-C", [["#2S", "4C"], ["#5S", "3C", "7D", "AS", "4S", "TH"]], filler=2)
        game.play("3C-t1")
        columns = game.to_dict()["columns"]
        assert columns[0] == ["#2S", "4C", "3C", "7D", "AS", "4S", "TH"]
        assert columns[1] == ["5S"], "the hidden card under the group turns face up"

    def test_any_face_up_card_can_be_picked_up_with_everything_on_it(self) -> None:
        game = build("RU1-C", [["#2S", "4C"], ["#5S", "3C", "7D", "AS", "4S", "TH"]], filler=2)
        assert game.lift("7D") == game.lift("7D")
        assert [len(game.lift(c)) for c in ("3C", "7D", "AS", "4S", "TH")] == [5, 4, 3, 2, 1]

    def test_face_down_cards_cannot_be_picked_up(self) -> None:
        game = build("RU1-C", [["#2S", "4C"], ["#3C", "5S"]], filler=2)
        assert refusal(game, "3C-t1").reason == "card_face_down"

    def test_at_most_twenty_cards_at_once(self) -> None:
        spades = ["QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AS"]
        hearts = ["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H"]
        # 21 face-up cards on the queen of spades: the group is one too many.
        game = build("RU1-C", [["#2D", "KS"], ["#3D", *spades, *hearts]], filler=2)
        error = refusal(game, "QS-t1")
        assert error.reason == "group_too_large"
        assert error.params == {"card": "QS", "size": 21, "limit": 20}
        assert "QS-t1" not in moves_of(game)
        game = build("RU1-C", [["#2D", "KS"], ["#3D", *spades, *hearts[:-1]]], filler=2)
        game.play("QS-t1")
        assert len(game.to_dict()["columns"][0]) == 22


class TestEmptyColumns:
    def test_only_a_king_with_its_group(self) -> None:
        game = build("RU1-C", [[], ["#2D", "KS", "3H", "9C"]], filler=2)
        game.play("KS-t1")
        assert game.to_dict()["columns"][0] == ["KS", "3H", "9C"]

    def test_no_other_group_even_to_reveal_a_hidden_card(self) -> None:
        # Seed 000: "not even to reveal a hidden card".
        game = build("RU1-C", [[], ["#2D", "QS", "3H"]], filler=2)
        error = refusal(game, "QS-t1")
        assert error.reason == "king_only"
        assert error.params == {"card": "QS", "reveals": True}
        assert refusal(game, "3H-t1").params == {"card": "3H", "reveals": False}


class TestFoundations:
    def test_ace_then_two_from_the_end_of_a_column(self) -> None:
        game = build("RU1-C", [["#3D", "2H", "AH"]], filler=1)
        game.play("AH-f")
        game.play("2H-f")
        assert game.found == [0, 2, 0, 0]
        assert game.score == 20 + 5, "two cards home and the 3D turned up"

    def test_only_a_top_card(self) -> None:
        game = build("RU1-C", [["#3D", "AH", "5C"]], filler=1)
        assert refusal(game, "AH-f").reason == "foundation_top_only"

    def test_the_foundation_needs_the_next_card(self) -> None:
        game = build("RU1-C", [["#3D", "3H"]], foundations=(0, 1, 0, 0), filler=1)
        error = refusal(game, "3H-f")
        assert error.reason == "foundation_needs" and error.params["needed"] == "2H"

    def test_take_back_costs_nothing_and_putting_it_back_earns_again(self) -> None:
        game = build("RU1-C", [["#3D", "5C"], ["#4D", "5H"]], foundations=(0, 4, 0, 4), filler=2)
        game.score = 100
        game.play("4H-t2")
        assert game.score == 100 and game.found == [0, 3, 0, 4]
        assert game.to_dict()["columns"][1][-1] == "4H"
        game.play("4H-f")
        assert game.score == 110

    def test_take_back_needs_a_column_where_it_fits(self) -> None:
        game = build("RU1-C", [["#3D", "5C"], ["#4D", "5H"]], foundations=(0, 4, 0, 4), filler=2)
        assert refusal(game, "4H-t1").reason == "wrong_suit"
        assert refusal(game, "3H-t2").reason == "card_on_foundation"
        assert "4H-t2" in moves_of(game) and "4C-t1" in moves_of(game)


class TestScore:
    def test_each_turned_card_is_worth_five(self) -> None:
        game = Game.from_code("RU1-C-AAAAABB")
        game.play("4D-t3")  # reveals nothing
        assert game.score == 0
        game.play("AC-f")
        assert game.score == 10

    def test_moves_count_every_accepted_move_and_undo_never_lowers_it(self) -> None:
        game = Game.from_code("RU1-C-AAAAABB")
        game.play("AC-f")
        game.play("4D-t3")
        with pytest.raises(IllegalMove):
            game.play("4D-t3")
        assert game.moves == 2
        assert [str(game.pop()), str(game.pop())] == ["4D-t3", "AC-f"]
        assert game.moves == 2 and game.score == 0
        with pytest.raises(IndexError):
            game.pop()


def test_a_game_won_without_take_backs_ends_at_625() -> None:
    # Seed 000: 52 x 10 for the cards put home and 21 x 5 for the cards turned up.
    from engine.search.solver import solve

    game = Game.from_code("RU1-C-AAAAAAO")
    result = solve(game, time_limit=30)
    assert result.status == "won"
    replay = Game.from_code("RU1-C-AAAAAAO")
    for move in result.moves:
        assert replay.locate(Move.parse(move).card)[0] != FOUNDATION, "no take-backs in the line"
        replay.play(move)
    assert replay.is_won and replay.score == 625
