"""Everything a saved run keeps about play (a desktop's as a kiosk's), behind a handful of calls
the table makes.

The table owns the `Game` and the screen; it tells the session what happened:

    session = Session.open(config)             # logs, crash guard, statistics, settings
    resumed = session.resume()                 # the saved game, or None: deal a fresh one
    session.started(game)                      # a fresh deal (also after "new game")
    session.moved(game, move)                  # after every accepted move: autosave + log
    session.undone(game)                       # after an undo
    session.ended(game, "won")                 # the win (statistics once), or a new deal
    session.shutdown(game)                     # QUIT / SIGTERM / operator exit: save

and reads `session.clock` (the game's play time: the table is made with it, game.launch) and
`session.stats`. The session never raises on a
full or read-only disk: the game goes on and the problem is logged. Must not import pygame.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from engine import Game, Move
from game.clock import PlayTime
from game.config import Config
from game.hooks import Ending, TableHooks
from game.logs import (
    install_excepthook,
    log_dir_for,
    log_game_end,
    log_game_start,
    log_move,
    log_undo,
    setup_logging,
)
from game.saves import savecheck
from game.saves.persist import Autosave, CrashGuard, Resumed, load_stats, save_stats
from game.saves.stats import Stats
from game.saves.storage import autosave_store, state_dir

log = logging.getLogger("solitaire.session")

Meta = Callable[[Game], dict[str, object]]  # more to keep with a saved game (its win)


@dataclass(frozen=True)
class SetAside:
    """A game the idle fresh deal replaced without the lock (``idle_unlocked``): not counted,
    and New game puts it back (KioskController.resume_aside) with its clock, id and line."""

    game: Game
    seconds: float
    game_id: str
    line: list[str] | None


class Session(TableHooks):
    def __init__(self, config: Config, directory: Path, *, meta: Meta = lambda game: {}) -> None:
        """``meta``: what else is saved with a game (game.launch: the arcade's last win)."""
        self.config = config
        self.directory = directory
        self.autosave = Autosave(autosave_store(directory), undo_depth=config.game.undo_depth)
        self.crash_guard = CrashGuard(directory)
        self.stats: Stats = load_stats(directory)
        self.clock = PlayTime()
        self.recorded = False  # the current game's result is already in the statistics
        self._game: Game | None = None
        self.line: list[str] | None = []  # the moves from the deal (undone ones taken out)
        self.save_failed = False  # the last autosave did not reach the disk (see save_mark)
        self.failed_saves = 0  # autosaves that did not reach the disk (game.kiosk.metrics)
        self.game_id = new_game_id()  # this game's id, saved with it (game.arcade.play: one win)
        self.resumed_meta: dict[str, object] = {}  # the resumed save's meta (its win: lastwin)
        self.meta_extra = meta
        self.aside: SetAside | None = None  # the game an unlocked idle deal replaced

    @classmethod
    def open(
        cls,
        config: Config,
        directory: Path | None = None,
        *,
        logging_on: bool = True,
        crash_hook: bool = True,
        meta: Meta = lambda game: {},
    ) -> Session:
        """The session in the state directory; with `logging_on`, the rotating log; with
        `crash_hook`, an uncaught exception saves the game and exits non-zero."""
        directory = directory if directory is not None else state_dir()
        if logging_on:
            setup_logging(log_dir_for(config, directory))
        opened: list[Session] = []
        guard = CrashGuard(directory)
        if crash_hook:  # before the first file is read: a crash reading it moves it aside
            install_excepthook(
                lambda error: (
                    opened[0].crash_save(error) if opened else guard.record_crash(error=error)
                )
            )
        session = cls(config, directory, meta=meta)
        opened.append(session)
        return session

    # ---------------------------------------------------------------- start

    def resume(self) -> Resumed | None:
        """The saved game to continue (clock included), or None to deal a fresh one."""
        resumed = self.crash_guard.resume_or_quarantine(self.autosave)
        if resumed is None:
            return None
        self._game = resumed.game
        self.line = list(resumed.line)
        self.clock.reset(resumed.elapsed)
        self.clock.running = not resumed.game.is_won
        self.recorded = bool(resumed.meta.get("recorded", False))
        self.resumed_meta = resumed.meta
        stored = resumed.meta.get("game")
        self.game_id = stored if is_game_id(stored) else new_game_id()
        g = resumed.game
        log_game_start(g.code, resumed=True, moves=g.moves, score=g.score)
        return resumed

    @property
    def game(self) -> Game | None:
        """The game on the table, as last reported (None before the first report)."""
        return self._game

    def started(self, game: Game) -> None:
        """A fresh deal is on the table (the previous one must have been `ended`), or the game
        set aside back (it keeps its id, line of moves and clock)."""
        aside = self.aside
        if aside is not None and game is aside.game:
            self.aside = None
            self._game, self.game_id, self.line = game, aside.game_id, aside.line
            self.clock.reset(aside.seconds)
            log_game_start(game.code)
            log.info("game %s resumed after the idle deal", game.code)
            self._save(game)
            return
        self._game = game
        self.line = savecheck.line_of(game)  # moves already played (main.py --moves)
        self.clock.reset()
        self.recorded = False
        self.game_id = new_game_id()
        log_game_start(game.code)
        self._save(game)

    # ---------------------------------------------------------------- play

    def moved(self, game: Game, move: Move) -> None:
        if self.line is not None:
            self.line.append(str(move))
        log_move(game.code, str(move), moves=game.moves, score=game.score)
        if game.is_won:
            self.ended(game, "won")
        else:
            self._save(game)

    def undone(self, game: Game) -> None:
        if self.line:
            self.line.pop()
        log_undo(game.code, moves=game.moves, score=game.score)
        self._save(game)

    def set_aside(self, game: Game) -> SetAside:
        """Keep ``game`` to resume (its clock, id and line): an unlocked idle deal replaces it
        next, ``ended(game, "aside")``."""
        line = None if self.line is None else list(self.line)
        self.aside = SetAside(game, self.clock.seconds, self.game_id, line)
        return self.aside

    def ended(self, game: Game, result: Ending) -> None:
        """The game is over: "won", or left for another deal ("abandoned", "idle"; "aside":
        set aside by an unlocked idle deal, not counted, game.kiosk.controller). The
        statistics count it once (a game left without a move not at all): the autosave, which
        says it is counted, is written before the statistics, so a power cut between the two
        loses the count at worst and never counts the game again after a restart."""
        if result == "aside":  # replaced by an unlocked idle deal: it may come back
            log.info("game %s set aside by the idle deal; not counted", game.code)
            return
        won = game.is_won and result == "won"
        if won:
            self.clock.running = False
        if self.recorded:
            self._save(game)
            return
        self.stats = self.stats.record(
            game.code, won=won, seconds=self.clock.seconds, score=game.score, moves=game.moves
        )
        self.recorded = True
        self._save(game)
        save_stats(self.stats, self.directory)
        log_game_end(
            game.code, result, moves=game.moves, score=game.score, seconds=self.clock.seconds
        )

    # ---------------------------------------------------------------- leaving

    def shutdown(self, game: Game | None = None) -> None:
        """Save before exiting (QUIT from systemd, the operator's exit)."""
        game = game if game is not None else self._game
        if game is not None:
            self._save(game)
        log.info("shutting down")

    def checkpoint(self, game: Game) -> None:
        """Save now, with the clock (before the attract screen takes over)."""
        self._save(game)

    def crash_save(self, error: BaseException | None = None) -> None:
        """The crash hook's save: note the crash, ``error`` (for the crash-loop guard), keep
        the game."""
        self.crash_guard.record_crash(error=error)
        if self._game is not None:
            self._save(self._game)

    def _save(self, game: Game) -> None:
        self._game = game
        stack = [str(move) for move in game.move_stack]
        line = self.line
        if line is None or len(line) < len(stack) or (stack and line[-len(stack) :] != stack):
            line = self.line = savecheck.line_of(game)  # a change the session did not see
        meta = {**self.meta_extra(game), "recorded": self.recorded, "game": self.game_id}
        failed = not self.autosave.save(game, self.clock.seconds, meta, line)
        self.failed_saves += failed
        if failed != self.save_failed:
            if failed:
                log.error("autosave failed: the game on the table is not saved (mark shown)")
            else:
                log.info("autosave works again")
        self.save_failed = failed


def new_game_id() -> str:
    """A fresh id for a game (16 hex digits)."""
    return secrets.token_hex(8)


def is_game_id(value: object) -> TypeGuard[str]:
    return (
        isinstance(value, str) and len(value) == 16 and all(c in "0123456789abcdef" for c in value)
    )
