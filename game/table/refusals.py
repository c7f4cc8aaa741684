"""What a refused move says and points at (docs/rules.md, "The app"): the rule (the engine's
reason, in the player's language), the card the moved card needs (marked where it lies, or
said to be face down or at home), and two sharper answers for an empty column: a non-king
run hears "only a king", and a Seahaven run that is too long for it hears that the column
it goes to does not count (seed 004's worked example)."""

from __future__ import annotations

from dataclasses import dataclass

from engine import FOUNDATION, Game, IllegalMove, Move
from engine.cards import CARD_NAMES, Card, is_king, parse_card
from engine.rules import group_limit
from game.i18n import Translator

TOO_LONG = ("run_too_long", "group_too_large")
# Refusals whose needed card is linked to the moved one by a sentence ("A♠ goes only on 2♠.")
# before it is said to be marked: else "…only a 6. 2♠ is marked" leaves the player to guess.
LINKED = ("wrong_suit", "wrong_rank", "no_destination")


@dataclass(frozen=True)
class Answer:
    text: str
    marks: tuple[Card, ...] = ()


def sharper(game: Game, move: Move | None, refusal: IllegalMove) -> IllegalMove:
    """A non-king group refused as too long for an empty column: the rule that matters is
    that an empty column takes only a king."""
    if move is None or move.dest >= FOUNDATION or game.cols[move.dest]:
        return refusal
    card = move.card
    if not is_king(card) and refusal.reason in TOO_LONG:
        pile, pos = game.locate(card)
        reveals = pile < FOUNDATION and pos == game.down[pile] and pos > 0
        return IllegalMove("king_only", card=CARD_NAMES[card], reveals=reveals)
    return refusal


def explain(tr: Translator, game: Game, move: Move | None, refusal: IllegalMove) -> Answer:
    """The sentence and the marked cards for ``refusal`` of ``move`` (None: a tap that found
    no place)."""
    refusal = sharper(game, move, refusal)
    if (
        move is not None
        and move.dest < FOUNDATION
        and not game.cols[move.dest]
        and refusal.reason == "run_too_long"
    ):
        return Answer(_empty_column_run(tr, game, refusal))
    parts: list[str] = [tr.refusal(refusal)]
    marks: list[Card] = []
    first = _home_first(game, refusal)
    if first is not None:  # before where it could go on the table: the card to free first
        card = tr.card(refusal.params["card"])
        parts.append(tr("table.home_first", needed=_name(tr, first), card=card))
        where, shown = _where(tr, game, [first], "foundation_needs")
        parts.append(where)
        marks += shown
    needed = game.needed_cards(refusal)
    if needed:
        where, shown = _where(tr, game, needed, refusal.reason)
        if refusal.reason in LINKED and len(needed) == 1:
            card = tr.card(refusal.params["card"])
            parts.append(tr("table.goes_only_on", card=card, needed=_name(tr, needed[0])))
        parts.append(where)
        marks += [mark for mark in shown if mark not in marks]
    return Answer(" ".join(part for part in parts if part), tuple(marks))


def _home_first(game: Game, refusal: IllegalMove) -> Card | None:
    """A tapped card that found no place but would go to its foundation once the cards of its
    suit below it are there (it is a column's top card or a free cell's): the first of them
    (a refused 2♣ names A♣ as well as the 3♣ it could go on, issue 31 item 12); else None."""
    if refusal.reason != "no_destination":
        return None
    card = parse_card(refusal.params["card"])
    pile, pos = game.locate(card)
    if pile == FOUNDATION or (pile < FOUNDATION and pos != len(game.cols[pile]) - 1):
        return None  # at home already, or covered: it goes nowhere before the cards on it
    suit = card // 13
    home = game.found[suit]  # the cards of the suit at home: the next one's rank index
    return suit * 13 + home if home < card % 13 else None


def _name(tr: Translator, card: Card) -> str:
    return tr.card(CARD_NAMES[card])


def _empty_column_run(tr: Translator, game: Game, refusal: IllegalMove) -> str:
    """Seed 004: with 1 free cell and 2 empty columns 8 cards may be lifted, but a king run
    goes into an empty column only up to 4: the column it goes to does not count."""
    cells, empties = game.empty_cells(), game.empty_columns()
    return tr(
        "table.run_empty_column",
        size=tr("unit.cards", count=int(refusal.params["size"])),
        lift=tr("unit.cards_object", count=group_limit(game.rules, cells, empties)),
        limit=tr("unit.cards", count=int(refusal.params["limit"])),
        cells=tr("table.free_cells", count=cells),
        columns=tr("table.empty_columns", count=empties),
    )


def _where(
    tr: Translator, game: Game, needed: list[Card], reason: str
) -> tuple[str, tuple[Card, ...]]:
    """Where the needed cards lie: marked when face up, else said to be face down or home."""
    marks: list[Card] = []
    for card in needed:
        pile, pos = game.locate(card)
        if pile != FOUNDATION and not (pile < FOUNDATION and pos < game.down[pile]):
            marks.append(card)
    if len(needed) > 1:
        if not marks:
            return "", ()
        if reason == "king_only":  # "The king that could go there", or "The kings"
            return tr("table.kings_marked", count=len(marks)), tuple(marks)
        return tr("table.needed_marked_many"), tuple(marks)
    card = needed[0]
    if marks:
        return tr("table.needed_marked", needed=_name(tr, card)), tuple(marks)
    if game.locate(card)[0] == FOUNDATION:
        return tr("table.needed_home", needed=_name(tr, card)), ()
    return tr("table.needed_down", needed=_name(tr, card)), ()
