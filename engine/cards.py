"""Cards as small integers, and their text form both ways (docs/codes.md).

A card is ``suit * 13 + (rank - 1)`` with the suits in the fixed order spades, hearts, diamonds,
clubs, so ``0`` is the ace of spades and ``51`` the king of clubs. Plain integers keep the
move generator and the solver fast; :func:`parse_card` and :func:`card_name` are the only ways
in and out of text.
"""

from __future__ import annotations

SUITS = "SHDC"
RANKS = "A23456789TJQK"
SUIT_SYMBOLS = "♠♥♦♣"
ACE = 1  # ranks as printed on the cards: ace 1 ... king 13
KING = 13

Card = int
DECK: tuple[Card, ...] = tuple(range(52))


def rank(card: Card) -> int:
    """The card's rank: 1 (ace) to 13 (king)."""
    return card % 13 + 1


def is_king(card: Card) -> bool:
    return card % 13 + 1 == KING


def is_ace(card: Card) -> bool:
    return card % 13 + 1 == ACE


# is_king() and is_ace() as tables over the internal card bytes (engine.search.position: a face-down
# card is stored + 64 and is never seen as a king or an ace), for the move generators' inner loops.
IS_KING: tuple[bool, ...] = tuple(c < 52 and is_king(c) for c in range(128))
IS_ACE: tuple[bool, ...] = tuple(c < 52 and is_ace(c) for c in range(128))


def card_name(card: Card) -> str:
    """The two-letter form: ``AS``, ``TH``, ``QC``.

    >>> card_name(0), card_name(22), card_name(51)  # a card is 13 * suit + rank - 1
    ('AS', 'TH', 'KC')
    """
    return RANKS[card % 13] + SUITS[card // 13]


CARD_NAMES: tuple[str, ...] = tuple(card_name(c) for c in DECK)
_BY_NAME: dict[str, Card] = {name: c for c, name in enumerate(CARD_NAMES)}


def parse_card(text: object) -> Card:
    """Read ``7H``, ``th``, ``10H`` or a card integer; raise ValueError with the input otherwise.

    >>> parse_card("10h") == parse_card("TH") == 22
    True
    """
    if isinstance(text, int) and not isinstance(text, bool):
        if 0 <= text < 52:
            return text
        raise ValueError(f"no such card: {text!r}")
    if not isinstance(text, str):
        raise ValueError(f"a card is text like '7H', not {type(text).__name__}")
    key = text.strip().upper()
    if key.startswith("10"):
        key = "T" + key[2:]
    card = _BY_NAME.get(key)
    if card is None:
        raise ValueError(f"no such card: {text!r} (expected rank then suit, like '7H' or 'TS')")
    return card
