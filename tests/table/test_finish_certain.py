"""Finish as soon as the rest is certain, in every rule set (issue 38 item 6). In Seahaven,
Finish used to wait until moves to the foundations alone won, twenty moves after a player saw
that the game was decided; now free cells and empty columns count: a card parked in a free cell
(or a king's group in an empty column) uncovers the next card home, with no choice left.

Played through the scripted player (game.dev.script.Player: the real input layer) at 800x480:
the solver's win of a deal of each rule set up to the move that makes the rest certain, that
move dragged by hand, then Finish pressed; the table is won, each card a move of its own. A
property test builds random end positions of every rule set: where the finish is offered, its
moves are legal one after another and win; where moves home alone win, it is offered."""

from __future__ import annotations

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ALL_RULES, FOUNDATION, Game
from engine.cards import card_name, rank
from engine.finish import finish_line
from engine.game import CELL0, EMPTY
from engine.search.solver import solve
from game.dev.script import Player
from tests.helpers.profiles import examples
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

# A deal of each rule set and the move of its solver's win from which the rest is certain.
DEALS = {
    "SH1-C4-AAAAAAF": 55,  # 16 cards home; moves home alone would win only from move 87
    "SH1-C2-AAAAABZ": 55,  # from 75
    "SH1-C1-AAAAAL3": 62,  # from 69
    "RU1-C-AAAAAAO": 65,  # Russian: no free cell, an empty column takes only a king
    "RU1-R-AAAAAAD": 55,
}


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def home_alone_wins(game: Game) -> bool:
    """The rule before issue 38: moves to the foundations alone win from here."""
    trial = game.copy()
    while not trial.is_won:
        tops = [col[-1] for col in trial.cols if col] + [c for c in trial.cells if c != EMPTY]
        ready = [c for c in tops if trial.found[c // 13] == rank(c) - 1]
        if not ready:
            return False
        trial.play(f"{card_name(ready[0])}-f")
    return True


def play_finish(app, player: Player) -> None:
    """Press Finish and let the run go until the table is won (the win screen opens)."""
    player.press("finish")
    for _ in range(40):
        if app.table.model.game.is_won:
            break
        player.frames(0.25)


@pytest.mark.parametrize(("code", "certain_at"), DEALS.items(), ids=list(DEALS))
def test_finish_shows_as_soon_as_the_rest_is_certain_and_wins(code: str, certain_at: int) -> None:
    line = solve(Game.from_code(code), node_limit=200_000).moves
    game = Game.from_code(code)
    for move in line[: certain_at - 1]:
        game.play(move)
    assert finish_line(game) is None  # one move short of certain
    app = make_app(game=game, size=(800, 480))
    try:
        player = Player(app)
        assert "finish" not in app.table.shown_buttons()
        with pytest.raises(Exception, match="no button 'finish'"):
            player.press("finish")
        source, dest = line[certain_at - 1].split("-")
        player.drag(source, dest)  # by hand: the move that decides the game
        table = app.table
        assert table.model.game.moves == certain_at
        assert "finish" in table.shown_buttons()
        if code.startswith("SH1"):  # sooner than before: moves home alone do not win yet
            assert not home_alone_wins(table.model.game)
        line_out = finish_line(table.model.game)
        assert line_out is not None
        trial = (
            table.model.game.copy()
        )  # each card not sent home is parked: a free cell, an empty column
        for move in line_out:
            assert move.dest in (FOUNDATION, *range(CELL0, 15)) or not trial.cols[move.dest]
            trial.play(move)
        assert any(m.dest != FOUNDATION for m in line_out) is code.startswith("SH1")
        play_finish(app, player)
        assert table.model.game.is_won
        assert table.model.game.moves == certain_at + len(line_out)  # a move of its own each
    finally:
        app.close()


def test_seahaven_sorted_runs_with_empty_cells_offer_finish() -> None:
    """The issue's table: every free cell and seven columns empty, each other column a run down
    in suit; Finish is there and wins."""
    data = Game.from_code("SH1-C4-AAAAAAF").to_dict()
    runs = [[f"{r}S" for r in "KQJT98765"], [f"{r}H" for r in "KQJT9"], [f"{r}D" for r in "KQJ"]]
    data.update(columns=runs + [[]] * 7, cells=[None] * 4, foundations=[4, 8, 10, 13])
    data.update(history=[], won=False, moves=70, score=300)
    app = make_app(game=Game.from_dict(data), size=(800, 480))
    try:
        player = Player(app)
        assert "finish" in app.table.shown_buttons()
        play_finish(app, player)
        assert app.table.model.game.is_won and app.table.model.game.moves == 70 + 17
    finally:
        app.close()


@st.composite
def end_positions(draw: st.DrawFn) -> Game:
    """A position of any rule set with the last cards of each suit laid out at random (face
    up) over its columns and free cells, the rest home."""
    rules = draw(st.sampled_from(ALL_RULES))
    found = [draw(st.integers(min_value=7, max_value=13)) for _ in range(4)]
    left = [suit * 13 + r for suit in range(4) for r in range(found[suit], 13)]
    left = draw(st.permutations(left))
    cells: list[str | None] = [None] * rules.cells
    columns: list[list[str]] = [[] for _ in range(rules.columns)]
    for card in left:
        place = draw(st.integers(min_value=0, max_value=rules.columns + rules.cells - 1))
        if place >= rules.columns and cells[place - rules.columns] is None:
            cells[place - rules.columns] = card_name(card)
        else:
            columns[place % rules.columns].append(card_name(card))
    data = Game.from_code(f"{rules.key}-AAAAAAB").to_dict()
    data.update(columns=columns, cells=cells, foundations=found, history=[], redo=[])
    data.update(won=not left, moves=60, score=0)
    return Game.from_dict(data)


@settings(max_examples=examples(300), deadline=None)
@given(end_positions())
def test_a_finish_offered_is_legal_move_by_move_and_wins(game: Game) -> None:
    before = game.to_dict()
    moves = finish_line(game)
    assert game.to_dict() == before  # asking changes nothing
    if home_alone_wins(game) and not game.is_won:
        assert moves is not None  # every table the rule before offered, and more
    if moves is None:
        return
    for move in moves:
        if move.dest != FOUNDATION:  # parked: a free cell, an empty column
            assert move.dest >= CELL0 or not game.cols[move.dest]
        assert game.check(move) is None
        game.play(move)
    assert game.is_won
