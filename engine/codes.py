"""Game codes: ``RU1-C-AAAAABB`` names one deal under one rule set (docs/codes.md)."""

from __future__ import annotations

from typing import Any

from engine.deal import DEAL_NUMBERS
from engine.reasons import CODE_REASONS
from engine.rules import REGISTRY, Rules

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
DIGITS = 7
MAX_CODE_LENGTH = 40
_VALUE = {ch: i for i, ch in enumerate(ALPHABET)}


class CodeError(ValueError):
    """A game code that names no deal. ``reason`` and ``params`` say why, for any language."""

    def __init__(self, message: str, reason: str, **params: Any) -> None:
        super().__init__(message)
        if CODE_REASONS.get(reason) != tuple(params):
            raise KeyError(f"code reason {reason!r} with params {tuple(params)}")
        self.reason = reason
        self.params = params


def format_number(number: int) -> str:
    if not 0 <= number < DEAL_NUMBERS:
        raise ValueError(f"deal number {number} is outside 0 .. 2^35-1")
    return "".join(ALPHABET[(number >> (5 * k)) & 31] for k in range(DIGITS - 1, -1, -1))


def format_code(rules: Rules, number: int) -> str:
    """The code of deal ``number`` under ``rules``: seven letters and digits of base 32.

    >>> from engine.rules import RULES_BY_KEY
    >>> format_code(RULES_BY_KEY["RU1-C"], 33)
    'RU1-C-AAAAABB'
    """
    return f"{rules.key}-{format_number(number)}"


def parse_code(code: object) -> tuple[Rules, int]:
    """The rule set and deal number a code names; CodeError says what is wrong otherwise.

    >>> rules, number = parse_code(" ru1-c-aaaaabb ")  # any case, spaces around
    >>> rules.key, number
    ('RU1-C', 33)
    >>> try:
    ...     parse_code("RU1-C")
    ... except CodeError as error:  # a stable reason, for a message in any language
    ...     error.reason, error.params
    ('code_bad_shape', {'code': 'RU1-C'})
    """
    if not isinstance(code, str):
        kind = type(code).__name__
        raise CodeError(f"a game code is text, not {kind}", "code_not_text", kind=kind)
    text = code.strip().upper()
    if not text:
        raise CodeError("the game code is empty", "code_empty")
    if len(text) > MAX_CODE_LENGTH:
        raise CodeError(
            f"the game code is {len(text)} characters long; codes are at most {MAX_CODE_LENGTH}",
            "code_too_long",
            length=len(text),
            limit=MAX_CODE_LENGTH,
        )
    parts = text.split("-")
    if len(parts) != 3:
        raise CodeError(
            f"{text!r} is not a game code; codes look like RU1-C-AAAAABB or SH1-C4-AAAAAJ2",
            "code_bad_shape",
            code=text,
        )
    head, variant, digits = parts
    game, version = head[:2], head[2:]
    every = REGISTRY.all()
    known_games = {r.prefix[:2] for r in every}
    if game not in known_games:
        raise CodeError(
            f"unknown game {game!r} in {text!r}; RU is Russian Solitaire, SH Seahaven Towers",
            "code_unknown_game",
            game=head,
        )
    if f"{game}{version}" not in {r.prefix for r in every}:
        raise CodeError(
            f"{head!r}: version {version!r} of {game} codes is not known here (only 1)",
            "code_unknown_version",
            game=game,
            version=version,
        )
    rules = REGISTRY.get(f"{head}-{variant}")
    if rules is None:
        allowed = ", ".join(r.variant for r in every if r.prefix == head)
        raise CodeError(
            f"{variant!r} is not a rule set of {head}; it has {allowed}",
            "code_unknown_rules",
            rules=variant,
            allowed=allowed,
        )
    if len(digits) != DIGITS:
        raise CodeError(
            f"the deal number {digits!r} has {len(digits)} characters; it needs {DIGITS}",
            "code_bad_length",
            number=digits,
            length=len(digits),
        )
    number = 0
    for ch in digits:
        value = _VALUE.get(ch)
        if value is None:
            raise CodeError(
                f"{ch!r} cannot appear in a deal number (only A-Z and 2-7)",
                "code_bad_letter",
                number=digits,
                letter=ch,
            )
        number = number * 32 + value
    return rules, number
