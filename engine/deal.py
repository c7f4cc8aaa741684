"""The deal: a pure function of the deal number with its own PRNG (docs/codes.md)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.cards import DECK, Card

MASK64 = (1 << 64) - 1
DEAL_NUMBERS = 1 << 35


def splitmix64(seed: int) -> Iterator[int]:
    """The SplitMix64 stream: each draw adds the golden gamma, then mixes."""
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def shuffled_deck(number: int) -> list[Card]:
    """The deck shuffled for deal ``number``: Fisher-Yates from the top with SplitMix64.

    >>> from engine.cards import card_name
    >>> [card_name(card) for card in shuffled_deck(0)[:5]]  # docs/codes.md's golden deal 0
    ['8C', 'JD', '9S', '2C', '2H']
    """
    if not 0 <= number < DEAL_NUMBERS:
        raise ValueError(f"deal number {number} is outside 0 .. 2^35-1")
    deck = list(DECK)
    draws = splitmix64(number)
    for i in range(51, 0, -1):
        j = next(draws) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
