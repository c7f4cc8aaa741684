"""Finish (engine): when a procedure with no choice in it wins from a position where every card
is face up (moves home, lowest rank first; cards parked in free cells and empty columns),
engine.finish.finish_line lists its moves; otherwise it says None."""

from __future__ import annotations

import pytest

from engine import FOUNDATION, Game
from engine.cards import card_name
from engine.finish import finish_line
from tests.helpers.tablehelp import WIN_LINE, WON_CODE, almost_won

pytestmark = pytest.mark.unit


def position(code: str, columns: list[list[str]], found: list[int], cells=None) -> Game:
    """A position of ``code`` with these columns (``#`` marks a face-down card), these
    foundation counts and free cells, no history."""
    data = Game.from_code(code).to_dict()
    full = columns + [[] for _ in range(len(data["columns"]) - len(columns))]
    data.update(columns=full, foundations=found, history=[], won=False, moves=80, score=400)
    data["cells"] = cells if cells is not None else [None] * len(data["cells"])
    return Game.from_dict(data)


def names(moves) -> list[str]:
    return [str(m) for m in moves]


class TestFinishMoves:
    def test_four_kings_go_home_and_win(self) -> None:
        game = almost_won()
        before = game.to_dict()
        moves = finish_line(game)
        assert names(moves) == ["KS-f", "KH-f", "KD-f", "KC-f"]
        assert game.to_dict() == before  # asking changes nothing
        for move in moves:
            game.play(move)
        assert game.is_won

    def test_lowest_rank_first_each_legal_in_turn(self) -> None:
        columns = [["KS", "QS"], ["KH", "QH", "JH"], ["KD"]]
        game = position("SH1-C4-AAAAAJ2", columns, [11, 10, 12, 11], cells=["QC", "KC", None, None])
        moves = finish_line(game)
        assert names(moves) == ["JH-f", "QS-f", "QH-f", "QC-f", "KS-f", "KH-f", "KD-f", "KC-f"]
        score = game.score
        for move in moves:
            assert game.check(move) is None
            game.play(move)
        assert game.is_won and game.score == score + 10 * len(moves)

    def test_a_card_on_the_one_it_must_follow_goes_to_a_free_cell(self) -> None:
        # KS lies on QS: QS cannot go home before KS, and KS not before QS; a free cell takes KS
        # (issue 38 item 6: free cells count, as the player sees they do).
        game = position("SH1-C4-AAAAAJ2", [["QS", "KS"], ["KH"], ["KD"], ["KC"]], [11, 12, 12, 12])
        moves = finish_line(game)
        assert names(moves) == ["KH-f", "KD-f", "KC-f", "KS-c1", "QS-f", "KS-f"]
        for move in moves:
            game.play(move)
        assert game.is_won

    def test_a_king_goes_to_an_empty_column_in_russian(self) -> None:
        game = position("RU1-C-AAAAABB", [["QS", "KS"], ["KH"], ["KD"], ["KC"]], [11, 12, 12, 12])
        assert names(finish_line(game)) == [
            "KH-f",
            "KD-f",
            "KC-f",
            "KS-t2",
            "QS-f",
            "KS-f",
        ]  # the first empty column

    def test_not_certain_while_a_card_must_go_onto_another_column(self) -> None:
        # Every column taken, no free cell: only QH onto KH frees a column, a move the player
        # chooses; until it is made the rest is not certain.
        columns = [["QS", "KS"], ["JH", "KD"], ["JD", "KH"], ["JC", "QH"], ["QD"], ["QC"], ["KC"]]
        for code in ("RU1-C-AAAAABB", "RU1-R-AAAAABB"):
            game = position(code, columns, [11, 10, 10, 10])
            assert finish_line(game) is None
            game.play("QH-t3")
            moves = finish_line(game)
            assert moves is not None and moves[0] == game.tap_move("JC")
            for move in moves:
                game.play(move)
            assert game.is_won

    def test_a_face_down_card_is_never_taken_as_certain(self) -> None:
        # The engine knows KS lies under QS and would win, but the player cannot see it.
        hidden = position(
            "RU1-C-AAAAABB", [["#KS", "QS"], ["KH"], ["KD"], ["KC"]], [11, 12, 12, 12]
        )
        assert finish_line(hidden) is None
        shown = position("RU1-C-AAAAABB", [["KS", "QS"], ["KH"], ["KD"], ["KC"]], [11, 12, 12, 12])
        assert names(finish_line(shown)) == ["QS-f", "KS-f", "KH-f", "KD-f", "KC-f"]

    def test_not_at_the_deal_and_not_once_won(self) -> None:
        assert finish_line(Game.from_code(WON_CODE)) is None
        assert finish_line(Game.from_code("RU1-C-AAAAABB")) is None
        game = almost_won()
        for move in finish_line(game):
            game.play(move)
        assert finish_line(game) is None

    def test_a_real_win_becomes_certain_near_its_end(self) -> None:
        """Along the solver's 103-move win the finish appears once no move but foundation
        moves is needed, and from there it wins with the same number of cards."""
        game = Game.from_code(WON_CODE)
        first = None
        for k, move in enumerate(WIN_LINE):
            if first is None and finish_line(game) is not None:
                first = k
            game.play(move)
        assert first is not None
        rest = WIN_LINE[first:]
        # the line's tail: moves to columns and cells remain until the finish shows
        assert all(m.endswith("-f") for m in rest)
        assert not WIN_LINE[first - 1].endswith("-f")
        game = Game.from_code(WON_CODE)
        for move in WIN_LINE[:first]:
            game.play(move)
        moves = finish_line(game)
        assert moves is not None and len(moves) == 52 - sum(game.found)
        assert all(m.dest == FOUNDATION for m in moves)
        for move in moves:
            game.play(move)
        assert game.is_won, [card_name(m.card) for m in moves]
