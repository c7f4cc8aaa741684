"""The autosave of the running game, the statistics file, and the crash-loop guard.

`Autosave.save(game, elapsed)` writes the whole game after a move (the position, score, move
counter, undo history: the engine's `Game.to_dict()`) with the game clock, durably; it is what
the table calls after every move, undo and new deal. `Autosave.load()` gives the exact game
back on the next start, or None: a save that does not load is moved aside and logged, and the
game starts fresh.

`CrashGuard` notices a game that crashes again and again right after it is resumed (a saved
position that trips a bug): after `CRASH_LIMIT` crashes within `CRASH_WINDOW_S` the autosave is
moved aside instead of resumed, so the kiosk does not crash-loop forever.

Must not import pygame.
"""

from __future__ import annotations

import logging
import math
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import Game, StateError
from game.stats import Stats
from game.storage import JsonStore, autosave_store, state_dir, stats_store

log = logging.getLogger("solitaire.persist")

CRASH_LIMIT = 3
CRASH_WINDOW_S = 600.0


@dataclass
class Resumed:
    """A saved game, ready to continue."""

    game: Game
    elapsed: float  # seconds on the game clock
    seq: int  # how many saves this game had (moves, undos, ...)
    meta: dict[str, Any] = field(default_factory=dict)  # the table's own small flags


class Autosave:
    """The running game in `autosave.json` of the state directory."""

    def __init__(self, store: JsonStore | None = None, *, undo_depth: int = 100) -> None:
        self.store = store if store is not None else autosave_store()
        self.undo_depth = undo_depth
        self.seq = 0

    def save(self, game: Game, elapsed: float, meta: dict[str, Any] | None = None) -> bool:
        """Write the game durably; False (logged) when the disk refused. Never raises."""
        self.seq += 1
        if not math.isfinite(elapsed) or elapsed < 0:
            elapsed = 0.0
        data = {
            "game": game.to_dict(),
            "elapsed": round(elapsed, 3),
            "seq": self.seq,
            "meta": meta or {},
        }
        return self.store.save(data)

    def load(self) -> Resumed | None:
        """The saved game, or None (no save, or a damaged one: moved aside and logged)."""
        data = self.store.load()
        if data is None:
            return None
        try:
            resumed = self._parse(data)
        except (StateError, ValueError, TypeError, KeyError) as error:
            self.store.move_aside(f"the saved game does not load: {error}")
            return None
        self.seq = resumed.seq
        return resumed

    def _parse(self, data: Any) -> Resumed:
        if not isinstance(data, dict):
            raise ValueError(f"expected an object, got {type(data).__name__}")
        game = Game.from_dict(data["game"])
        if game.history.maxlen != self.undo_depth:
            game.history = deque(game.history, maxlen=self.undo_depth)
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
        return Resumed(game, float(elapsed), seq, meta)

    def clear(self) -> None:
        """Forget the saved game (the next start deals a fresh one)."""
        self.store.clear()
        self.seq = 0


def load_stats(directory: Path | None = None) -> Stats:
    """The statistics file (empty statistics when missing; repaired when damaged)."""
    return Stats.from_dict(stats_store(directory).load())


def save_stats(stats: Stats, directory: Path | None = None) -> bool:
    return stats_store(directory).save(stats.to_dict())


class CrashGuard:
    """Recent crashes, to stop resuming a save that keeps crashing the game."""

    def __init__(self, directory: Path | None = None) -> None:
        self.store = JsonStore(
            (directory or state_dir()) / "crashes.json", kind="crashes", version=1
        )

    def _recent(self, now: float) -> list[float]:
        data = self.store.load()
        if not isinstance(data, list):
            return []
        times = [t for t in data if isinstance(t, (int, float)) and not isinstance(t, bool)]
        return [t for t in times if 0 <= now - t <= CRASH_WINDOW_S]

    def record_crash(self, now: float | None = None) -> None:
        now = time.time() if now is None else now
        self.store.save([*self._recent(now), now][-CRASH_LIMIT:])

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
