"""Checking a saved game against its code: the deal of the code, replayed with the saved line of
moves, must give the saved position. An edited save (swapped cards, a score of a million, a
position from another deal) therefore never resumes under a code it does not match.

The autosave keeps the line (every move from the deal to the position, undone moves left out)
beside the game. At resume:
- the replay gives the saved position: the saved game resumes as it was (its undo history, its
  move counter);
- the replay is legal but ends elsewhere: the position was edited or damaged, and the game is
  rebuilt from the code and the line (the undo history from the replay);
- the line is missing, illegal or does not end in the saved undo history: the save is refused
  (the caller moves it aside). A save without a line is still accepted when its undo history
  reaches back to the deal and replays to the position.

Must not import pygame.
"""

from __future__ import annotations

from typing import Any

from engine import Game
from engine.game import HISTORY_LIMIT

Position = tuple[Any, ...]
MAX_LINE = 100_000


def position(game: Game) -> Position:
    """What must match: the cards (with their face-down counts), cells, foundations, score."""
    return (tuple(game.cols), tuple(game.down), tuple(game.cells), tuple(game.found), game.score)


def replay(code: str, line: list[str], undo_depth: int = HISTORY_LIMIT) -> Game:
    """The deal of `code` with every move of `line` played (checked). Raises CodeError or
    IllegalMove (both ValueErrors) when the line does not play."""
    game = Game.from_code(code, history_limit=undo_depth)
    for move in line:
        game.play(move)
    return game


def line_of(game: Game) -> list[str] | None:
    """The line of a game whose undo history still reaches back to the deal, else None."""
    line = [str(move) for move in game.move_stack]
    try:
        replayed = replay(game.code, line)
    except ValueError:
        return None
    return line if position(replayed) == position(game) else None


def read_line(value: object) -> list[str]:
    """The saved line: a list of move strings (ValueError otherwise)."""
    if not isinstance(value, list) or len(value) > MAX_LINE:
        raise ValueError(f"the line of moves is not a list of at most {MAX_LINE} moves")
    if not all(isinstance(move, str) and len(move) <= 16 for move in value):
        raise ValueError("the line of moves holds something other than moves")
    return list(value)


def check(game: Game, line: list[str] | None, undo_depth: int) -> tuple[Game, str]:
    """The game to resume and a note ("" when the save was right as it was). Raises ValueError
    when the save cannot be trusted at all."""
    if line is None:
        line = line_of(game)
        if line is None:
            raise ValueError(
                "the save has no line of moves and its undo history does not replay from the deal"
            )
        return game, ""
    try:
        replayed = replay(game.code, line, undo_depth)
    except ValueError as error:
        raise ValueError(
            f"the saved moves do not play from the deal of {game.code}: {error}"
        ) from None
    stack = [str(move) for move in game.move_stack]
    if stack and line[-len(stack) :] != stack:
        raise ValueError("the saved undo history is not the end of the saved line of moves")
    if position(replayed) == position(game):
        return game, ""
    replayed.moves = max(game.moves, len(line))
    return replayed, (
        f"the saved position of {game.code} is not what its {len(line)} moves give; "
        "rebuilt from the code and the moves"
    )
