"""Every reason the engine gives for refusing something, with the params each one carries.

A reason is a stable snake_case id. The engine knows no language: the table turns
``reason`` and ``params`` into a sentence through the message catalog, so these ids are a
contract with the locale files. Card params are card names (``"7H"``), destinations are move
notation (``"t5"``, ``"f"``, ``"c2"``).
"""

from __future__ import annotations

from typing import Any

REASONS: dict[str, tuple[str, ...]] = {
    # notation
    "bad_notation": ("text",),  # not CARD-DEST at all
    "unknown_card": ("text",),
    "unknown_destination": ("text",),  # no such column / cell in this game, or gibberish
    # picking up
    "card_face_down": ("card",),
    "card_on_foundation": ("card", "top"),  # under the foundation's top card
    "not_in_sequence": ("card",),  # Seahaven: the cards on it are not a same-suit run
    "group_too_large": ("card", "size", "limit"),  # Russian: more than 20 cards
    "run_too_long": ("card", "size", "limit"),  # Seahaven: more than the capacity formula allows
    # putting down
    "same_place": ("card", "dest"),
    "wrong_suit": ("card", "target", "fits"),  # "same family": `fits` is the card that goes there
    "wrong_rank": ("card", "target", "rank"),  # `rank` is the rank needed there ("7")
    "ace_takes_nothing": ("card", "target"),  # nothing goes on an ace in a column
    "king_only": ("card", "reveals"),  # empty column takes only a king; reveals: would turn one
    "cell_taken": ("cell", "occupant"),
    "cell_one_card": ("card", "size"),
    "foundation_top_only": ("card",),  # only a column's top card goes to a foundation
    "foundation_needs": ("card", "needed"),  # the suit's foundation wants another card first
    # queries
    "no_destination": ("card",),  # nothing on the table takes this card now
    "no_useful_moves": (),  # hint: undo or start a new game
}


def check_params(reason: str, params: dict[str, Any]) -> None:
    """Fail loudly when code raises a reason that is not listed or with other params."""
    expected = REASONS.get(reason)
    if expected is None:
        raise KeyError(f"unlisted reason {reason!r}")
    if set(params) != set(expected):
        raise KeyError(f"reason {reason!r} takes {expected}, got {tuple(params)}")


# Why a game code was refused (CodeError.reason), with its params.
CODE_REASONS: dict[str, tuple[str, ...]] = {
    "code_not_text": ("kind",),
    "code_empty": (),
    "code_too_long": ("length", "limit"),
    "code_bad_shape": ("code",),  # not GAME-RULES-NUMBER
    "code_unknown_game": ("game",),  # neither RU nor SH
    "code_unknown_version": ("game", "version"),
    "code_unknown_rules": ("rules", "allowed"),  # a rule letter or cell count not offered
    "code_bad_length": ("number", "length"),  # the deal number is not 7 characters
    "code_bad_letter": ("number", "letter"),  # outside A-Z and 2-7
}
