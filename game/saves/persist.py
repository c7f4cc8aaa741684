"""The autosave of the running game, the statistics file, and the crash-loop guard.

`Autosave.save(game, elapsed)` writes the whole game after a move (the position, score, move
counter, undo history: the engine's `Game.to_dict()`) with the game clock, durably; it is what
the table calls after every move, undo and new deal. `Autosave.load()` gives the exact game
back on the next start, or None: a save that does not load is moved aside and logged, and the
game starts fresh.

Every save carries the line of moves from the deal, and a resumed save is checked against its
code (game.saves.savecheck): the code's deal replayed with the line must give the saved position, or
the game is rebuilt from code and line; a save that cannot be trusted is moved aside.

`CrashGuard` keeps a crash from becoming a crash loop. A crash while a state file is being read
(or what was read is being checked) moves that file aside at once, and only that file. A crash
during play is counted: after `CRASH_LIMIT` of them within `CRASH_WINDOW_S` the autosave (the
position that may trip a bug) is moved aside instead of resumed.

Must not import pygame.
"""

from __future__ import annotations

import logging
import math
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import NotRequired, TypedDict

from engine import Game
from engine.saved import GameDict
from game.saves import savecheck
from game.saves.stats import Stats
from game.saves.storage import JsonStore, autosave_store, bounded, read_by, state_dir, stats_store

log = logging.getLogger("solitaire.persist")

CRASH_LIMIT = 3
CRASH_WINDOW_S = 600.0


class AutosaveDict(TypedDict):
    """``autosave.json``'s data (docs/save-format.md): the game (engine.game.GameDict), its
    clock, how many saves it had, the table's small flags and, when known, the line of moves
    from the deal."""

    game: GameDict
    elapsed: float
    seq: int
    meta: dict[str, object]
    line: NotRequired[list[str]]


@dataclass
class Resumed:
    """A saved game, ready to continue."""

    game: Game
    elapsed: float  # seconds on the game clock
    seq: int  # how many saves this game had (moves, undos, ...)
    meta: dict[str, object] = field(default_factory=dict)  # the table's own small flags
    line: list[str] = field(default_factory=list)  # the moves from the deal to the position


class Autosave:
    """The running game in `autosave.json` of the state directory."""

    def __init__(self, store: JsonStore | None = None, *, undo_depth: int = 100) -> None:
        self.store = store if store is not None else autosave_store()
        self.undo_depth = undo_depth
        self.seq = 0

    def save(
        self,
        game: Game,
        elapsed: float,
        meta: dict[str, object] | None = None,
        line: list[str] | None = None,
    ) -> bool:
        """Write the game durably with its line of moves from the deal (None: unknown, then
        the undo history must reach back to the deal); False (logged) when the disk refused.
        Never raises."""
        self.seq = bounded(self.seq + 1)  # a seq read at the limit stays a number it reads
        if not math.isfinite(elapsed) or elapsed < 0:
            elapsed = 0.0
        data: AutosaveDict = {
            "game": game.to_dict(),
            "elapsed": round(elapsed, 3),
            "seq": self.seq,
            "meta": meta or {},
        }
        if line is not None:
            data["line"] = line
        return self.store.save(data)

    def load(self) -> Resumed | None:
        """The saved game, or None (no save, or a damaged one: moved aside and logged)."""
        resumed = self.store.load_with(self._parse, "the saved game")
        if resumed is not None:
            self.seq = resumed.seq
        return resumed

    def _parse(self, data: object) -> Resumed:
        if not isinstance(data, dict):
            raise ValueError(f"expected an object, got {type(data).__name__}")
        game = Game.from_dict(data["game"])
        line = savecheck.read_line(data["line"]) if "line" in data else None
        game, note = savecheck.check(game, line, self.undo_depth)
        if note:
            log.warning("%s: %s", self.store.path.name, note)
        if game.history.maxlen != (self.undo_depth or None):  # 0: unlimited
            game.history = deque(game.history, maxlen=self.undo_depth or None)
        elapsed = data.get("elapsed", 0.0)
        if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)):
            raise ValueError(f"elapsed = {elapsed!r} is not a number of seconds")
        if not math.isfinite(elapsed) or elapsed < 0:
            raise ValueError(f"elapsed = {elapsed!r} is not a number of seconds")
        seq = data.get("seq", 0)
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
            raise ValueError(f"seq = {seq!r} is not a count")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise ValueError(f"meta = {meta!r} is not an object")
        if line is None:  # an older save: its undo history reached back to the deal (checked)
            line = savecheck.line_of(game) or []
        return Resumed(game, float(elapsed), seq, meta, line)

    def clear(self) -> None:
        """Forget the saved game (the next start deals a fresh one)."""
        self.store.clear()
        self.seq = 0


def load_stats(directory: Path | None = None) -> Stats:
    """The statistics file (empty statistics when missing; repaired when damaged, moved aside
    when it does not load at all)."""
    stats = stats_store(directory).load_with(Stats.from_dict, "the statistics")
    return stats if stats is not None else Stats.from_dict(None)


def save_stats(stats: Stats, directory: Path | None = None) -> bool:
    return stats_store(directory).save(stats.to_dict())


class CrashGuard:
    """Recent crashes during play, to stop resuming a save that keeps crashing the game; and
    the file that was being read when a crash happened, moved aside."""

    def __init__(self, directory: Path | None = None) -> None:
        self.store = JsonStore(
            (directory or state_dir()) / "crashes.json", kind="crashes", version=1
        )

    def _recent(self, now: float) -> list[float]:
        data = self.store.load()
        if not isinstance(data, list):
            return []
        times = [float(t) for t in data if isinstance(t, (int, float)) and not isinstance(t, bool)]
        return [t for t in times if 0 <= now - t <= CRASH_WINDOW_S]

    def times(self) -> list[float]:
        """When the recent crashes happened (seconds since 1970), oldest first."""
        return self._recent(time.time())

    def record_crash(
        self, now: float | None = None, *, error: BaseException | None = None
    ) -> Path | None:
        """A crash (`error`, the uncaught exception): when it escaped the reading of a state
        file, that file (only that one) is moved aside (returns its new name) and the crash is
        not counted against the autosave; else the crash is counted."""
        culprit = read_by(error)
        if culprit is not None:
            return culprit.move_aside("the game crashed while reading it")
        now = time.time() if now is None else now
        self.store.save([*self._recent(now), now][-CRASH_LIMIT:])
        return None

    def too_many(self, now: float | None = None) -> bool:
        """True when the game crashed CRASH_LIMIT times within CRASH_WINDOW_S (then the
        record is cleared: the caller starts fresh and counts again)."""
        now = time.time() if now is None else now
        if len(self._recent(now)) >= CRASH_LIMIT:
            self.store.clear()
            return True
        return False

    def resume_or_quarantine(self, autosave: Autosave, now: float | None = None) -> Resumed | None:
        """What to resume at start: the saved game, unless it keeps crashing the game."""
        if self.too_many(now):
            autosave.store.move_aside(
                f"the game crashed {CRASH_LIMIT} times within {CRASH_WINDOW_S:.0f} s; "
                "starting fresh instead of resuming"
            )
            return None
        return autosave.load()
