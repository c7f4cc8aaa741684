"""The high-score file's forms (game.arcade.highscores: ``highscores.json``) and the checked
reading of one stored entry: what the JSON must hold before it becomes an Entry. Must not
import pygame."""

from __future__ import annotations

from typing import NotRequired, TypedDict, cast

from engine.codes import CodeError, parse_code
from game.arcade.initials import is_valid_initials

MAX_SCORE = 1_000_000  # far above any real score; a larger number is damage
MAX_SECONDS = 10_000_000.0
MAX_MOVES = 1_000_000


class EntryForm(TypedDict):
    """One stored win (its table says which day, if any)."""

    code: str
    score: int
    seconds: float
    moves: int
    initials: NotRequired[str]
    when: NotRequired[str]
    game: NotRequired[str]


class ScoresForm(TypedDict):
    """The file: rule set key -> table name ("all" or an ISO day) -> its entries."""

    tables: dict[str, dict[str, list[EntryForm]]]


def entry_problem(data: object, rules_key: str) -> str:
    """What is wrong with a stored entry of ``rules_key``'s tables ("" when nothing)."""
    if not isinstance(data, dict):
        return f"not an object but {type(data).__name__}"

    def number(name: str, whole: bool, low: float, high: float) -> str:
        value = data.get(name)
        if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)):
            return f"{name} is {type(value).__name__}, not a {'count' if whole else 'number'}"
        if not low <= value <= high:  # huge ints compare fine; NaN compares false
            return f"{name} is out of range"
        return ""

    for name, whole, low, high in (
        ("score", True, -MAX_SCORE, MAX_SCORE),
        ("seconds", False, 0.0, MAX_SECONDS),
        ("moves", True, 0, MAX_MOVES),
    ):
        problem = number(name, whole, low, high)
        if problem:
            return problem
    code = data.get("code")
    try:
        rules = parse_code(code)[0]
    except CodeError as error:
        return f"code: {error}"
    if rules.key != rules_key:
        return f"code {code!r} is not of {rules_key}"
    initials = data.get("initials", "")
    if initials != "" and not is_valid_initials(initials):
        return f"initials {initials!r:.20} are not three letters A-Z"
    when = data.get("when", "")
    if not isinstance(when, str) or len(when) > 40:
        return "when is not a time stamp"
    game = data.get("game", "")
    if not isinstance(game, str) or len(game) > 40 or not game.replace("-", "").isalnum():
        return "game is not a game id" if game != "" else ""
    return ""


def read_entry(data: object, rules_key: str) -> EntryForm | str:
    """The stored entry in its form once :func:`entry_problem` finds nothing, else the problem."""
    problem = entry_problem(data, rules_key)
    return problem if problem else cast(EntryForm, data)
