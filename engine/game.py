"""One game: the position, its moves, score, counter and undo history.

The rules are in docs/rules.md, the move notation in docs/codes.md, the saved form in
docs/save-format.md.

Two tiers, as in python-chess: :meth:`Game.push` applies a move it trusts (the solver's fast
path) and :meth:`Game.play` checks first and raises :class:`IllegalMove` with a reason;
:meth:`Game.pop` takes the last move back and returns it (IndexError when there is none) by
restoring a snapshot: columns are tuples, so a snapshot is a handful of references. The moves
taken back wait in :attr:`Game.undone` for :meth:`Game.redo` until a different move is made.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from engine.cards import CARD_NAMES, DECK, RANKS, Card, card_name, is_ace, is_king, parse_card, rank
from engine.codes import CodeError, format_code, parse_code
from engine.deal import shuffled_deck
from engine.moves import CELL, FOUNDATION, every_move
from engine.reasons import check_params
from engine.rules import (
    Rules,
    fits_on,
    fits_on_empty,
    group_limit,
    is_run,
    takers,
)
from engine.saved import EMPTY as EMPTY  # where it was always imported from
from engine.saved import GameDict, PositionDict, StateError, read_count, read_state

CELL0 = 11
DEST_NAMES: tuple[str, ...] = (
    *(f"t{i}" for i in range(1, 11)),
    "f",
    *(f"c{i}" for i in range(1, 5)),
)
_DEST_BY_NAME = {name: i for i, name in enumerate(DEST_NAMES)}
HISTORY_LIMIT = 100  # moves undo can take back; 0 = every move (docs/save-format.md)
SAVE_FORMAT = 1


class IllegalMove(ValueError):
    """A refused move. ``reason`` is a stable id from :mod:`engine.reasons`; ``params`` fill the
    localized sentence. Nothing in the game changed."""

    def __init__(self, reason: str, **params: Any) -> None:
        check_params(reason, params)
        shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
        super().__init__(f"{reason}: {shown}" if shown else reason)
        self.reason = reason
        self.params = params


class Move(NamedTuple):
    """``card`` (the lowest card of the moved group) goes to ``dest``: a column index 0..9,
    :data:`FOUNDATION`, or ``CELL0 + i`` for free cell ``i``."""

    card: Card
    dest: int

    def __str__(self) -> str:
        return f"{CARD_NAMES[self.card]}-{DEST_NAMES[self.dest]}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: object) -> Move:
        """Read ``7H-t5``, ``as-F``, ``10h-c2``; IllegalMove when it is not a move at all.

        >>> move = Move.parse("10h-c2")  # the ten of hearts to free cell 2
        >>> str(move), move == Move.parse("TH-C2")
        ('TH-c2', True)
        >>> Move.parse("7H-x9")
        Traceback (most recent call last):
        ...
        engine.game.IllegalMove: unknown_destination: text='x9'
        """
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise IllegalMove("bad_notation", text=repr(text)[:40])
        card_text, sep, dest_text = text.strip().rpartition("-")
        if not sep or not card_text:
            raise IllegalMove("bad_notation", text=text[:40])
        try:
            card = parse_card(card_text)
        except ValueError:
            raise IllegalMove("unknown_card", text=card_text[:40]) from None
        dest = _DEST_BY_NAME.get(dest_text.strip().lower())
        if dest is None:
            raise IllegalMove("unknown_destination", text=dest_text[:40])
        return cls(card, dest)


PositionKey = tuple[tuple[tuple[Card, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""What decides the future of a game (columns, face-down counts, cells, foundations; not the score
or the counter): :meth:`Game.position_key`. Equal keys, equal positions."""


class Snapshot(NamedTuple):
    """A position as undo restores it: the piles (as in :class:`Game`, as tuples) and the
    score. The move counter is not in it: undo never lowers the counter."""

    cols: tuple[tuple[Card, ...], ...]
    down: tuple[int, ...]
    cells: tuple[int, ...]
    found: tuple[int, ...]
    score: int

    def position_key(self) -> PositionKey:
        """The same key as :meth:`Game.position_key` of the game in this position."""
        return (self.cols, self.down, self.cells, self.found)


class Step(NamedTuple):
    """One entry of the undo history: the position ``before`` ``move`` was made."""

    before: Snapshot
    move: Move


def _clamp_score(score: int) -> int:
    return score if score > 0 else 0


class Game:
    """A deal being played under one rule set."""

    def __init__(self, rules: Rules, number: int, *, history_limit: int = HISTORY_LIMIT) -> None:
        self._fill(
            rules,
            number,
            format_code(rules, number),
            cols=[() for _ in range(rules.columns)],
            down=[0] * rules.columns,
            cells=[EMPTY] * rules.cells,
            found=[0, 0, 0, 0],
            score=0,
            moves=0,
            history=deque(maxlen=history_limit or None),
            undone=[],
        )
        self._deal()

    def _fill(
        self,
        rules: Rules,
        number: int,
        code: str,
        *,
        cols: list[tuple[Card, ...]],
        down: list[int],
        cells: list[int],
        found: list[int],
        score: int,
        moves: int,
        history: deque[Step],
        undone: list[Move],
    ) -> None:
        """Every field of a game, set in this one place: a new game (``__init__``), its
        :meth:`copy` and one read back (:meth:`from_dict`) each pass them all, so a field added
        here is one mypy asks each of them for."""
        self.rules, self.number, self.code = rules, number, code
        self.cols = cols  # bottom card first
        self.down = down  # how many cards of each column lie face down
        self.cells = cells  # EMPTY where a free cell holds no card
        self.found = found  # cards on each suit's foundation
        self.score, self.moves = score, moves
        self.history = history  # the undo history, oldest first
        self.undone = undone  # what pop took back, the next redo last

    # ----------------------------------------------------------------- construction

    @classmethod
    def from_code(cls, code: str, *, history_limit: int = HISTORY_LIMIT) -> Game:
        """The deal a game code names, as dealt (CodeError when the code names none).

        >>> game = Game.from_code("RU1-C-AAAAABB")  # Russian Solitaire, classic rules
        >>> game.rules.key, game.number, game.moves, game.hidden_cards()
        ('RU1-C', 33, 0, 21)
        >>> [card_name(card) for card in game.cols[6][-2:]]  # column 7's top two cards
        ['JH', '2C']
        """
        rules, number = parse_code(code)
        return cls(rules, number, history_limit=history_limit)

    def _deal(self) -> None:
        deck = shuffled_deck(self.number)
        rules = self.rules
        at = 0
        for i in range(rules.columns):
            size = rules.deal_down[i] + rules.deal_up[i]
            self.cols[i] = tuple(deck[at : at + size])
            self.down[i] = rules.deal_down[i]
            at += size
        for place, card in zip(rules.leftovers, deck[at:], strict=True):
            index = int(place[1:]) - 1
            if place[0] == "c":
                self.cells[index] = card
            else:
                self.cols[index] += (card,)

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other._fill(
            self.rules,
            self.number,
            self.code,
            cols=list(self.cols),
            down=list(self.down),
            cells=list(self.cells),
            found=list(self.found),
            score=self.score,
            moves=self.moves,
            history=deque(self.history, maxlen=self.history.maxlen),
            undone=list(self.undone),
        )
        return other

    # ----------------------------------------------------------------- reading the position

    @property
    def is_won(self) -> bool:
        return self.found == [13, 13, 13, 13]

    @property
    def move_stack(self) -> list[Move]:
        """The moves that undo can still take back, oldest first."""
        return [step.move for step in self.history]

    def can_undo(self) -> bool:
        return bool(self.history)

    def can_redo(self) -> bool:
        return bool(self.undone)

    def empty_cells(self) -> int:
        return self.cells.count(EMPTY)

    def empty_columns(self) -> int:
        return sum(1 for c in self.cols if not c)

    def hidden_cards(self) -> int:
        return sum(self.down)

    def foundation_top(self, suit: int) -> Card | None:
        count = self.found[suit]
        return suit * 13 + count - 1 if count else None

    def locate(self, card: Card) -> tuple[int, int]:
        """Where ``card`` lies: ``(column index, position from the bottom)``, ``(CELL0 + i, 0)``
        or ``(FOUNDATION, position in its foundation)``. Every card is always somewhere."""
        for i, col in enumerate(self.cols):
            if card in col:
                return i, col.index(card)
        for i, held in enumerate(self.cells):
            if held == card:
                return CELL0 + i, 0
        return FOUNDATION, rank(card) - 1

    def position_key(self) -> PositionKey:
        """Everything that decides the future of the game (not score or counter)."""
        return self.snapshot().position_key()

    def snapshot(self) -> Snapshot:
        """The position and score as they are now (what undo would restore)."""
        return Snapshot(
            tuple(self.cols), tuple(self.down), tuple(self.cells), tuple(self.found), self.score
        )

    # ----------------------------------------------------------------- move generation

    def legal_moves(self) -> list[Move]:
        """Every move :meth:`play` accepts, pointless ones included (docs/codes.md, "Moves"):
        :func:`engine.moves.every_move`, the walk the solver's and the honest player's moves
        come from, with each empty free cell a destination of its own.

        >>> [str(move) for move in Game.from_code("RU1-C-AAAAABB").legal_moves()]
        ['4D-t3', '3C-t1', 'AC-t7', 'AC-f']
        """
        by_key, empties = takers(self.rules, self.cols)
        held = [card for card in self.cells if card != EMPTY]
        free = [CELL0 + i for i, card in enumerate(self.cells) if card == EMPTY]
        piles = (self.cols, self.down, held, self.found)
        out: list[Move] = []
        for card, _source, _pos, dest in every_move(piles, self.rules, by_key, empties):
            if dest == CELL:
                out.extend(Move(card, cell) for cell in free)
            else:
                out.append(Move(card, dest))
        return out

    # ----------------------------------------------------------------- checking a move

    def check(self, move: Move | str) -> IllegalMove | None:
        """Why ``move`` is refused, or None when :meth:`play` would accept it."""
        try:
            parsed = Move.parse(move)
            self._validate(parsed)
        except IllegalMove as refusal:
            return refusal
        return None

    def is_legal(self, move: Move | str) -> bool:
        return self.check(move) is None

    def lift(self, card: Card | str) -> tuple[Card, ...]:
        """The cards that come along when ``card`` is picked up (it first), or IllegalMove."""
        card = self._card(card)
        pile, pos = self.locate(card)
        self._check_lift(card, pile, pos, None)
        if pile < FOUNDATION:
            return self.cols[pile][pos:]
        return (card,)

    def _card(self, card: Card | str) -> Card:
        try:
            return parse_card(card)
        except ValueError:
            raise IllegalMove("unknown_card", text=str(card)[:40]) from None

    def _check_dest_exists(self, dest: int) -> None:
        rules = self.rules
        if (dest < FOUNDATION and dest >= rules.columns) or dest > FOUNDATION + rules.cells:
            raise IllegalMove("unknown_destination", text=DEST_NAMES[dest])

    def _check_lift(self, card: Card, pile: int, pos: int, dest: int | None) -> int:
        """Can ``card`` be picked up (for ``dest`` when given)? Returns the group size."""
        rules = self.rules
        name = CARD_NAMES[card]
        if pile == FOUNDATION:
            if self.found[card // 13] != rank(card):
                top = self.foundation_top(card // 13)
                raise IllegalMove("card_on_foundation", card=name, top=card_name(top or 0))
            return 1
        if pile >= CELL0:
            return 1
        col = self.cols[pile]
        if pos < self.down[pile]:
            raise IllegalMove("card_face_down", card=name)
        size = len(col) - pos
        if size == 1:
            return 1
        if rules.runs_only and not is_run(col[pos:]):
            raise IllegalMove("not_in_sequence", card=name)
        empties = self.empty_columns()
        if dest is not None and dest < FOUNDATION and not self.cols[dest]:
            empties -= 1
        limit = group_limit(rules, self.empty_cells(), empties)
        if size > limit:
            reason = "run_too_long" if rules.run_capacity else "group_too_large"
            raise IllegalMove(reason, card=name, size=size, limit=limit)
        return size

    def _validate(self, move: Move) -> None:
        card, dest = move
        self._check_dest_exists(dest)
        pile, pos = self.locate(card)
        name = CARD_NAMES[card]
        if pile == dest:
            raise IllegalMove("same_place", card=name, dest=DEST_NAMES[dest])
        # Destination first where it alone decides, so the player hears the rule that matters.
        if dest == FOUNDATION:
            if pile < FOUNDATION and pos != len(self.cols[pile]) - 1:
                if pos < self.down[pile]:
                    raise IllegalMove("card_face_down", card=name)
                raise IllegalMove("foundation_top_only", card=name)
            self._check_lift(card, pile, pos, dest)
            if self.found[card // 13] != rank(card) - 1:
                needed = card_name(card // 13 * 13 + self.found[card // 13])
                raise IllegalMove("foundation_needs", card=name, needed=needed)
            return
        size = self._check_lift(card, pile, pos, dest)
        if dest >= CELL0:
            if size > 1:
                raise IllegalMove("cell_one_card", card=name, size=size)
            held = self.cells[dest - CELL0]
            if held != EMPTY:
                raise IllegalMove("cell_taken", cell=DEST_NAMES[dest], occupant=CARD_NAMES[held])
            return
        col = self.cols[dest]
        if not col:
            if not fits_on_empty(card):
                reveals = pile < FOUNDATION and pos == self.down[pile] and pos > 0
                raise IllegalMove("king_only", card=name, reveals=reveals)
            return
        target = col[-1]
        if fits_on(self.rules, card, target):
            return
        target_name = CARD_NAMES[target]
        if is_ace(target):
            raise IllegalMove("ace_takes_nothing", card=name, target=target_name)
        if self.rules.same_suit and card // 13 != target // 13:
            raise IllegalMove(
                "wrong_suit", card=name, target=target_name, fits=CARD_NAMES[target - 1]
            )
        below = RANKS[rank(target) - 2]  # the rank that goes on the target
        raise IllegalMove("wrong_rank", card=name, target=target_name, rank=below)

    # ----------------------------------------------------------------- making moves

    def play(self, move: Move | str) -> Move:
        """Check and make ``move``; IllegalMove (nothing changed) when it is refused.

        >>> game = Game.from_code("RU1-C-AAAAABB")
        >>> game.play("AC-f")  # the ace of clubs home: 10 points
        Move.parse('AC-f')
        >>> game.found, game.score, game.moves
        ([0, 0, 0, 1], 10, 1)
        >>> game.play("4D-t1")  # column 1 ends in the four of clubs
        Traceback (most recent call last):
        ...
        engine.game.IllegalMove: wrong_suit: card='4D', target='4C', fits='3C'
        >>> game.pop(), game.found, game.moves  # undo: the counter stays
        (Move.parse('AC-f'), [0, 0, 0, 0], 1)
        """
        parsed = Move.parse(move)
        self._validate(parsed)
        self.push(parsed)
        return parsed

    def push(self, move: Move) -> None:
        """Make a move known to be legal, unchecked (the solver's fast path)."""
        card, dest = move
        rules = self.rules
        self.history.append(Step(self.snapshot(), move))
        pile, pos = self.locate(card)
        score = self.score
        if pile < FOUNDATION:
            col = self.cols[pile]
            group = col[pos:]
            rest = col[:pos]
            self.cols[pile] = rest
            if rest and self.down[pile] == len(rest):
                self.down[pile] -= 1
                score += rules.reveal_points
        elif pile == FOUNDATION:
            group = (card,)
            self.found[card // 13] -= 1
            score += rules.takeback_points
        else:
            group = (card,)
            self.cells[pile - CELL0] = EMPTY
        if dest < FOUNDATION:
            self.cols[dest] += group
        elif dest == FOUNDATION:
            self.found[card // 13] += 1
            score += rules.foundation_points
        else:
            self.cells[dest - CELL0] = card
        self.score = _clamp_score(score)
        self.moves += 1
        undone = self.undone
        if undone:  # the move pop took back last, made again: the rest can still be redone
            if undone[-1] == move:
                undone.pop()
            else:
                undone.clear()

    def pop(self) -> Move:
        """Take back the last move and return it: cards, face-up state and score; the counter
        stays. :meth:`redo` can make it again until a different move is made. IndexError when
        there is nothing to take back."""
        step = self.history.pop()
        before = step.before
        self.cols, self.down = list(before.cols), list(before.down)
        self.cells, self.found = list(before.cells), list(before.found)
        self.score = before.score
        self.undone.append(step.move)
        return step.move

    def redo(self) -> Move:
        """Make the move :meth:`pop` took back last again and return it: a move like any other
        (the counter goes up). IndexError when there is nothing to redo."""
        move = self.undone[-1]
        self.push(move)
        return move

    # ----------------------------------------------------------------- queries for the table

    def targets(self, card: Card | str) -> list[Move]:
        """Every legal move of ``card`` (placement help while it is dragged)."""
        card = self._card(card)
        return [m for m in self.legal_moves() if m.card == card]

    def tap_move(self, card: Card | str) -> Move | None:
        """Single tap: a column's top card or a free-cell card to its foundation, when legal."""
        card = self._card(card)
        pile, _ = self.locate(card)
        if pile == FOUNDATION:
            return None
        move = Move(card, FOUNDATION)
        return move if self.is_legal(move) else None

    def is_pointless(self, move: Move) -> bool:
        """A legal move that changes nothing that matters: a king with nothing under it to
        another empty column, a free-cell card to another free cell."""
        pile, pos = self.locate(move.card)
        if pile < FOUNDATION and move.dest < FOUNDATION:
            return pos == 0 and not self.cols[move.dest]
        return pile >= CELL0 and move.dest >= CELL0

    def _preference(self, move: Move) -> tuple[int, int, int]:
        """Double-tap order: foundation, longest fitting column, empty column, free cell."""
        dest = move.dest
        if dest == FOUNDATION:
            return (0, 0, 0)
        if dest < FOUNDATION:
            length = len(self.cols[dest])
            return (1, -length, dest) if length else (2, 0, dest)
        return (3, 0, dest)

    def double_tap_move(self, card: Card | str) -> Move | None:
        """Where a double tap sends ``card`` (with what lies on it), or None."""
        useful = [m for m in self.targets(card) if not self.is_pointless(m)]
        return min(useful, key=self._preference, default=None)

    def auto_target(
        self, card: Card | str, *, near: Callable[[Move], float] | None = None
    ) -> Move | None:
        """Where auto placement sends a released card (docs/rules.md, "Auto placement"): the
        column nearest the drop that takes it (``near`` gives a move's distance; None: every
        column as near), ties to the longer column, then the lower number. Never a free cell
        or a foundation (seed 000: auto placement chooses the column), never a pointless move."""
        useful = [m for m in self.targets(card) if m.dest < FOUNDATION and not self.is_pointless(m)]

        def order(move: Move) -> tuple[float, int, int]:
            return (near(move) if near else 0.0, -len(self.cols[move.dest]), move.dest)

        return min(useful, key=order, default=None)

    def why_stuck(self, card: Card | str) -> IllegalMove:
        """Why a tapped card goes nowhere: it cannot be picked up, or nothing takes it."""
        card = self._card(card)
        try:
            self.lift(card)
        except IllegalMove as refusal:
            return refusal
        return IllegalMove("no_destination", card=CARD_NAMES[card])

    def needed_cards(self, refusal: IllegalMove) -> list[Card]:
        """The cards a refused move waits for (docs/rules.md, "What a refusal says"): the cards
        the moved card goes on (in same-suit building the one of its suit one rank higher;
        where building ignores suits the four one rank higher, and none named when nothing
        took it), the foundation's next card, or the kings that could fill an empty column
        (not home, not already at the bottom of a column)."""
        reason, params = refusal.reason, refusal.params
        if reason in ("wrong_suit", "wrong_rank") or (
            reason == "no_destination" and self.rules.same_suit
        ):
            card = parse_card(params["card"])
            return [top for top in DECK if fits_on(self.rules, card, top)]
        if reason == "foundation_needs":
            return [parse_card(params["needed"])]
        if reason == "king_only":
            kings = []
            for king in filter(is_king, DECK):
                pile, pos = self.locate(king)
                if pile != FOUNDATION and not (pile < FOUNDATION and pos == 0):
                    kings.append(king)
            return kings
        return []

    # ----------------------------------------------------------------- saving

    def _state_dict(
        self,
        cols: Iterable[tuple[Card, ...]],
        down: Iterable[int],
        cells: Iterable[int],
        found: Iterable[int],
        score: int,
    ) -> PositionDict:
        return {
            "columns": [
                [("#" if k < d else "") + CARD_NAMES[c] for k, c in enumerate(col)]
                for col, d in zip(cols, down, strict=True)
            ],
            "cells": [CARD_NAMES[c] if c != EMPTY else None for c in cells],
            "foundations": list(found),
            "score": score,
        }

    def to_dict(self) -> GameDict:
        """JSON-ready: the position, score, counter, the undo history and the moves redo would
        make again (docs/save-format.md)."""
        return {
            "format": SAVE_FORMAT,
            "code": self.code,
            **self._state_dict(self.cols, self.down, self.cells, self.found, self.score),
            "moves": self.moves,
            "won": self.is_won,
            "history_limit": self.history.maxlen or 0,
            "history": [
                {"move": str(step.move), **self._state_dict(*step.before)} for step in self.history
            ],
            "redo": [str(move) for move in self.undone],
        }

    @classmethod
    def from_dict(cls, data: object) -> Game:
        """The exact game :meth:`to_dict` wrote; StateError when ``data`` is damaged."""
        if not isinstance(data, dict):
            raise StateError(f"a saved game is a JSON object, not {type(data).__name__}")
        try:
            rules, number = parse_code(data.get("code"))
        except CodeError as error:
            raise StateError(f"saved game code: {error}") from None
        limit = data.get("history_limit", HISTORY_LIMIT)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 0 <= limit <= 10_000:
            raise StateError(f"history_limit must be a whole number 0..10000, not {limit!r}")
        cols, down, cells, found, score = read_state(rules, data, "")
        moves = read_count(data, "moves", "")
        is_won = found == [13, 13, 13, 13]
        won = data.get("won", is_won)
        if won != is_won:
            raise StateError(f"'won' says {won!r} but the foundations say {is_won}")
        history = data.get("history", [])
        if not isinstance(history, list) or (limit and len(history) > limit):
            raise StateError(f"history must be a list of at most {limit} entries")
        steps: deque[Step] = deque(maxlen=limit or None)
        for k, entry in enumerate(history):
            where = f"history[{k}]."
            if not isinstance(entry, dict):
                raise StateError(f"{where[:-1]} must be an object")
            b_cols, b_down, b_cells, b_found, b_score = read_state(rules, entry, where)
            try:
                move = Move.parse(entry.get("move"))
            except IllegalMove as error:
                raise StateError(f"{where}move: {error}") from None
            before = Snapshot(tuple(b_cols), tuple(b_down), tuple(b_cells), tuple(b_found), b_score)
            steps.append(Step(before, move))
        game = cls.__new__(cls)
        game._fill(
            rules,
            number,
            format_code(rules, number),
            cols=cols,
            down=down,
            cells=cells,
            found=found,
            score=score,
            moves=moves,
            history=steps,
            undone=[],
        )
        game.undone.extend(_read_redo(game, data.get("redo", []), limit))
        return game


def _read_redo(game: Game, redo: object, limit: int) -> list[Move]:
    """The saved moves redo would make again (none in a save written before redo was saved),
    checked: made in turn from ``game``, newest undone first, each is legal."""
    if not isinstance(redo, list) or (limit and len(redo) > limit):
        raise StateError(f"redo must be a list of at most {limit} moves")
    moves: list[Move] = []
    for k, text in enumerate(redo):
        try:
            moves.append(Move.parse(text))
        except IllegalMove as error:
            raise StateError(f"redo[{k}]: {error}") from None
    trial = game.copy()
    for k in range(len(moves) - 1, -1, -1):
        refusal = trial.check(moves[k])
        if refusal is not None:
            raise StateError(f"redo[{k}]: {refusal}")
        trial.push(moves[k])
    return moves
