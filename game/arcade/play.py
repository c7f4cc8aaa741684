"""The arcade layer: today's deal and the high-score tables, wired to the table.

:class:`Arcade` listens to the table's reports (game.hooks): a won game is entered in the
high-score tables (game.arcade.highscores) at once, without initials; when it entered one and the
operator's ``[arcade] initials`` is on, the win screen asks for three letters and
:meth:`Arcade.sign` puts them on the entry. Today's deal comes from engine.daily: the same code
on every kiosk that day (docs/codes.md, "Today's deal").

The day is the kiosk's local date, or the one in ``$SOLITAIRE_TODAY`` (YYYY-MM-DD): tests and
scripts set it (``python -m game.script --date``) to play a given day. Must not import pygame.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine import Game, Move, daily
from game.arcade.highscores import Entry, HighScores, Rank, highscores_store
from game.arcade.initials import Blocklist
from game.arcade.lastwin import read_win_record, win_record
from game.arcade.venue import VenueBoard
from game.hooks import TableHooks
from game.saves.storage import JsonStore

log = logging.getLogger("solitaire.arcade")

TODAY_ENV = "SOLITAIRE_TODAY"


def today_from_env(env: dict[str, str] | None = None) -> Callable[[], dt.date]:
    """The kiosk's date: ``$SOLITAIRE_TODAY`` when it holds a date (a bad one is logged and
    ignored), else the local calendar date, asked anew each time (midnight passes)."""
    text = (os.environ if env is None else env).get(TODAY_ENV, "").strip()
    if text:
        try:
            fixed = daily.parse_day(text)
        except ValueError as error:
            log.warning("%s: %s; using the real date", TODAY_ENV, error)
        else:
            return lambda: fixed
    return daily.today


class _MemoryStore(JsonStore):
    """A store that keeps nothing (an App made without a state directory: tools and tests)."""

    def __init__(self) -> None:
        super().__init__(Path("highscores-unsaved.json"), kind="highscores", version=1)

    def load(self) -> Any | None:
        return None

    def save(self, data: Any) -> bool:
        return True


@dataclass(frozen=True)
class Won:
    """The last win on the table: its entry as stored, where it stands, and whether the player
    may still sign it (initials on, a table entered, not signed or skipped yet)."""

    game: Game
    entry: Entry
    rank: Rank
    asks: bool


class Arcade(TableHooks):
    """Today's deal, the high-score tables and the last win. ``seconds``: the play time of the
    game on the table (read when a win is reported); ``game_id``: that game's id (a saved run's
    session, game.saves.session; "": none); ``changed``: the last win was signed, save its game
    again (game.launch gives the session's ``checkpoint``); ``venue``: the venue's tables
    (:meth:`join_venue`, with ``[venue]`` in the config; None: this kiosk's alone)."""

    def __init__(
        self,
        scores: HighScores,
        *,
        initials: bool = True,
        today: Callable[[], dt.date] = daily.today,
        seconds: Callable[[], float] = lambda: 0.0,
        game_id: Callable[[], str] = lambda: "",
        changed: Callable[[Game], object] = lambda game: None,
    ) -> None:
        self.scores = scores
        self.initials = initials
        self.today = today
        self.seconds = seconds
        self.game_id = game_id
        self.last: Won | None = None
        self.changed = changed
        self.venue: VenueBoard | None = None

    @classmethod
    def open(
        cls,
        directory: Path | None,
        *,
        initials: bool = True,
        size: int = 10,
        blocked: tuple[str, ...] = (),
        seconds: Callable[[], float] = lambda: 0.0,
        game_id: Callable[[], str] = lambda: "",
        changed: Callable[[Game], object] = lambda game: None,
    ) -> Arcade:
        """The tables in the state directory ``directory`` (None: kept in memory only);
        ``blocked``: the operator's refused initials, besides the list's; the rest as the
        class says."""
        today = today_from_env()
        store = _MemoryStore() if directory is None else highscores_store(directory)
        scores = HighScores(store, size=size, today=today, blocked=Blocklist(blocked))
        return cls(
            scores, initials=initials, today=today, seconds=seconds, game_id=game_id,
            changed=changed,
        )  # fmt: skip

    def join_venue(self, venue_name: str, kiosk: str) -> VenueBoard:
        """The venue's board (game.arcade.venue) over these tables, as :attr:`venue`: this
        kiosk's wins are on it at once; the venue's client puts the other kiosks' in."""
        self.venue = VenueBoard(venue_name, kiosk, self.scores.size, local=self.scores)
        return self.venue

    @property
    def blocked(self) -> Blocklist:
        """The initials refused (the list's, the built-in core, the operator's)."""
        return self.scores.blocked

    # ------------------------------------------------------------------ today's deal
    def code_of_day(self, rules_key: str) -> str:
        """Today's deal of ``rules_key`` (from the catalog; a date-derived deal without one)."""
        return daily.deal_of_day(rules_key, self.today())

    def day_of(self, game: Game) -> dt.date | None:
        """The day whose deal ``game`` is (today, or yesterday for a game begun before
        midnight), else None."""
        try:
            return daily.day_of(game.code, on=self.today())
        except Exception as error:  # a damaged catalog: no game is a daily deal
            log.warning("today's deal: %r", error)
            return None

    # ------------------------------------------------------------------ a win
    def moved(self, game: Game, move: Move) -> None:
        if game.is_won:
            self.record(game, self.seconds())

    def record(self, game: Game, seconds: float) -> Won:
        """Enter the won ``game`` in its tables (unsigned) and remember it as the last win. A
        game already entered (the same game id: the winning move replayed after a power cut
        between this save and the autosave) is not entered again."""
        day = self.day_of(game)
        entry = Entry(
            code=game.code,
            score=game.score,
            seconds=round(seconds, 1),
            moves=game.moves,
            day=day.isoformat() if day is not None else None,
            when=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            game=self.game_id(),
        )
        known = self.scores.entered(entry)  # won again after a restart: the stored entry
        entry, rank = known if known is not None else (entry, self.scores.add(entry))
        log.info("win %s: rank today %s, all time %s", game.code, rank.today, rank.all_time)
        asks = self.initials and bool(rank) and not entry.initials
        self.last = Won(game, entry, rank, asks=asks)
        return self.last

    def won(self, game: Game) -> Won | None:
        """The last win when it is ``game``'s (a won game restored after a restart is not)."""
        return self.last if self.last is not None and self.last.game is game else None

    def sign(self, initials: str) -> bool:
        """Put ``initials`` on the last win's entries; False (nothing changes) for a blocked
        word or not three letters. "" skips: the entry stays unsigned, nobody asks again."""
        won = self.last
        if won is None:
            return False
        if initials and (self.blocked.is_blocked(initials) or len(initials) != 3):
            return False
        self.last = replace(won, asks=False)
        if initials and self.scores.sign(won.entry, initials):
            self.last = replace(self.last, entry=replace(won.entry, initials=initials))
        self.changed(won.game)
        return True

    def saved_record(self, game: Game) -> dict[str, object] | None:
        """The last win's record when it is ``game``'s, to keep with the saved game
        (game.arcade.lastwin)."""
        won = self.won(game)
        return None if won is None else win_record(won.entry, won.rank, asks=won.asks)

    def restore(self, game: Game, record: object, game_id: str) -> Won | None:
        """A won game resumed after a restart: its win again, from the ``record`` kept with
        it; a damaged or missing one falls back to the entry the tables hold for ``game_id``
        (then not offered for signing), else nothing (the win panel without a rank)."""
        read = "none kept" if record is None else read_win_record(record, game)
        if isinstance(read, str):
            if record is not None:
                log.warning("the saved game's win: %s; looked up in the tables instead", read)
            probe = Entry(game.code, game.score, 0.0, game.moves, game=game_id)
            known = self.scores.entered(probe) if game_id else None
            if known is None:
                return None
            read = (*known, False)
        entry, rank, asks = read
        self.last = Won(game, entry, rank, asks=asks and self.initials and bool(rank))
        return self.last
