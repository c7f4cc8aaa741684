"""The kiosk's metrics for Prometheus: ``solitaire_kiosk.prom`` in node_exporter's textfile
directory (``[metrics] textfile_dir`` of config.toml; the package sets
``/var/lib/prometheus/node-exporter``).

:class:`Metrics` listens to the table (game.hooks) and to the raw events, and writes the file
atomically (a temporary file in the same directory, then a rename: node_exporter never reads
half a file) every WRITE_EVERY_S seconds and at each game's end. What it shows is in
:func:`render`; the counters of games come from the statistics (they survive restarts), the
day's figures and the crashes and watchdog restarts from ``metrics.json`` in the state
directory (game.kiosk.runs). A write that fails logs one line (and one more when it works again) and
never disturbs the game. Must not import pygame.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from engine import Game, Move
from game.arcade.play import today_from_env
from game.config import REPO_ROOT
from game.hooks import Left, TableHooks
from game.kiosk.runs import RunRecord, Today
from game.saves.stats import Stats, rule_set_key, rule_set_keys
from game.saves.storage import replace_file

if TYPE_CHECKING:
    from game.clock import FrameWindow
    from game.saves.session import Session
    from game.workers import Workers

log = logging.getLogger("solitaire.metrics")

FILE_NAME = "solitaire_kiosk.prom"
WRITE_EVERY_S = 30.0  # "at least once a minute", with room for a slow turn of the loop


class VenueState(Protocol):
    """The venue link's figures (game.kiosk.venue_link.VenueLink)."""

    connected: bool
    last_update: float  # UNIX time of the last good message from the broker; 0: none


class VenueFigures(NamedTuple):
    connected: bool
    last_update: float


@dataclass(frozen=True)
class Live:
    """What the running game knows now (session_metrics reads it from the session and parts)."""

    stats: Stats
    in_play: str | None = None  # the rule set of a game with a move, not yet counted
    failed_saves: int = 0
    hint_restarts: int = 0
    slowest_frame: float = 0.0
    venue: VenueFigures | None = None  # with [venue] only


@dataclass(frozen=True)
class Snapshot:
    """Everything the file shows, at one moment."""

    version: str
    rule_sets: tuple[str, ...]
    start_time: float
    last_input: float  # 0: no input ever recorded
    stats: Stats
    in_play: str | None  # the rule set of a game started (a move made) but not yet counted
    today: Today
    crashes: int
    watchdog_restarts: int
    failed_saves: int
    hint_restarts: int
    slowest_frame: float
    venue: VenueFigures | None = None


def _family(lines: list[str], name: str, kind: str, text: str) -> None:
    lines += [f"# HELP {name} {text}", f"# TYPE {name} {kind}"]


def _value(value: float) -> str:
    return repr(float(value)) if isinstance(value, float) else str(value)


def render(s: Snapshot) -> str:
    """The Prometheus text format: every family once, with HELP and TYPE."""
    lines: list[str] = []
    _family(lines, "solitaire_kiosk_info", "gauge", "The game's version and its rule sets.")
    lines.append(
        f'solitaire_kiosk_info{{version="{s.version}",rule_sets="{",".join(s.rule_sets)}"}} 1'
    )
    plain: list[tuple[str, str, str, float]] = [
        ("start_time_seconds", "gauge", "When the game started, in seconds since 1970.",
         s.start_time),
        ("last_input_time_seconds", "gauge",
         "When a visitor last touched the screen, in seconds since 1970 (0: never).",
         s.last_input),
    ]  # fmt: skip
    for name, kind, text, value in plain:
        _family(lines, f"solitaire_kiosk_{name}", kind, text)
        lines.append(f"solitaire_kiosk_{name} {_value(value)}")
    per_rule_set: list[tuple[str, str, Callable[[str], int]]] = [
        ("started", "Games started (a first move made), per rule set.",
         lambda k: s.stats[k].played + (1 if s.in_play == k else 0)),
        ("won", "Games won, per rule set.", lambda k: s.stats[k].won),
        ("abandoned", "Games left unfinished after a move (a new deal, the idle timeout).",
         lambda k: s.stats[k].played - s.stats[k].won),
    ]  # fmt: skip
    for name, text, count in per_rule_set:
        family = f"solitaire_kiosk_games_{name}_total"
        _family(lines, family, "counter", text)
        lines += [f'{family}{{rule_set="{key}"}} {count(key)}' for key in s.rule_sets]
    rest: list[tuple[str, str, str, float]] = [
        ("games_today", "gauge", "Games ended today (won or abandoned), kiosk's local date.",
         s.today.games),
        ("wins_today", "gauge", "Games won today.", s.today.wins),
        ("crashes_today", "gauge", "Crashes of the game today, seen at its next start.",
         s.today.crashes),
        ("watchdog_restarts_today", "gauge",
         "Restarts by systemd's watchdog today (a frozen loop), seen at the next start.",
         s.today.restarts),
        ("crashes_total", "counter", "Crashes of the game, seen at its next start.", s.crashes),
        ("watchdog_restarts_total", "counter",
         "Restarts by systemd's watchdog (a frozen loop), seen at the next start.",
         s.watchdog_restarts),
        ("failed_saves_total", "counter",
         "Autosaves that did not reach the disk since the game started.", s.failed_saves),
        ("hint_worker_restarts_total", "counter",
         "Hint solver processes started again after one broke or hung, since the game started.",
         s.hint_restarts),
        ("slowest_frame_seconds", "gauge", "The slowest frame of the last minute.",
         round(s.slowest_frame, 6)),
    ]  # fmt: skip
    if s.venue is not None:  # [venue] set (issue 42)
        rest += [
            ("venue_connected", "gauge", "1 while connected to the venue's broker, else 0.",
             int(s.venue.connected)),
            ("venue_last_update_timestamp_seconds", "gauge",
             "When the last good message came from the venue's broker, in seconds since 1970 "
             "(0: none since the start).", s.venue.last_update),
        ]  # fmt: skip
    for name, kind, text, value in rest:
        _family(lines, f"solitaire_kiosk_{name}", kind, text)
        lines.append(f"solitaire_kiosk_{name} {_value(value)}")
    return "\n".join(lines) + "\n"


def write_textfile(directory: Path, text: str) -> None:
    """``directory/solitaire_kiosk.prom`` replaced at once by ``text`` (OSError on failure, and
    no temporary file is left). Readable by node_exporter's user whatever the umask; not
    flushed to the disk (rewritten every half minute). Where that name is a link (the Debian
    package's, into the game's own directory: the game may not write node_exporter's), the
    file it points at is replaced, beside it, and the link stays."""
    path = directory / FILE_NAME
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    replace_file(path, text, mode=0o644, sync=False)


def read_version(root: Path) -> str:
    """The game's version from pyproject.toml beside main.py ("unknown" without one)."""
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return "unknown"
    match = re.search(r'(?m)^version = "([0-9A-Za-z.+~-]+)"$', text)
    return match.group(1) if match else "unknown"


class Metrics(TableHooks):
    """Keeps the figures and writes the file. ``source`` gives what the game knows now: the
    statistics, the game on the table, failed saves, hint restarts, the slowest frame."""

    def __init__(
        self,
        directory: Path,
        record: RunRecord,
        source: Callable[[], Live],
        *,
        version: str,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.directory = directory
        self.record = record
        self.source = source
        self.version = version
        self.clock = clock
        self.monotonic = monotonic
        self.start_time = clock()
        self.last_input = record.last_input
        self._next_write = 0.0
        self._failing = False
        self.writes = 0

    # ---------------------------------------------------------------- the table's reports
    def saw_input(self, event: object) -> bool:
        """An event filter of the App: input notes the time (and is never dropped here)."""
        from game.kiosk.controller import INPUT_EVENTS  # pygame's, and this module has none

        if getattr(event, "type", None) in INPUT_EVENTS:
            self.last_input = self.clock()
        return True

    def step(self, dt: float) -> None:
        if self.monotonic() >= self._next_write:
            self.write()

    def moved(self, game: Game, move: Move) -> None:
        if game.is_won:
            self.write(keep=True)

    def ended(self, game: Game, result: Left) -> None:
        self.write(keep=True)

    def shutdown(self, game: Game) -> None:
        self.write(keep=True)

    # ---------------------------------------------------------------- the file
    def snapshot(self, *, keep: bool = False) -> Snapshot:
        """The figures now; ``keep``: metrics.json keeps the last input too."""
        live = self.source()
        today = self.record.follow(live.stats, last_input=self.last_input, keep_input=keep)
        return Snapshot(
            version=self.version,
            rule_sets=rule_set_keys(),
            start_time=self.start_time,
            last_input=self.last_input,
            stats=live.stats,
            in_play=live.in_play,
            today=today,
            crashes=self.record.crashes,
            watchdog_restarts=self.record.watchdog_restarts,
            failed_saves=live.failed_saves,
            hint_restarts=live.hint_restarts,
            slowest_frame=live.slowest_frame,
            venue=live.venue,
        )

    def write(self, *, keep: bool = False) -> bool:
        """Write the file now; False (one line logged while it keeps failing) when it failed.
        ``keep``: a game's end or the shutdown (metrics.json keeps the last input)."""
        self._next_write = self.monotonic() + WRITE_EVERY_S
        try:
            write_textfile(self.directory, render(self.snapshot(keep=keep)))
        except Exception as error:  # a full disk, a directory gone: never the game's problem
            if not self._failing:
                log.warning("metrics not written to %s: %s", self.directory / FILE_NAME, error)
                self._failing = True
            return False
        if self._failing:
            log.info("metrics written again to %s", self.directory / FILE_NAME)
            self._failing = False
        self.writes += 1
        return True


def session_metrics(
    session: Session,
    workers: Workers,
    frames: FrameWindow,
    textfile_dir: str,
    venue: VenueState | None = None,
) -> Metrics:
    """Metrics for a saved run (its session's state directory keeps metrics.json), written to
    ``textfile_dir``. game.launch.compose makes them a listener of the table after the session
    (the statistics have counted a game when they write) and their ``saw_input`` the App's
    first event filter (input before the kiosk lock drops any); the first write happens on the
    loop's first step. ``venue``: the venue link ([venue] set), whose two gauges join."""
    record = RunRecord.open(
        session.directory,
        today_from_env(),
        now=time.time(),
        crash_times=session.crash_guard.times(),
    )

    def source() -> Live:
        game = session.game  # the game on the table, as the session last heard
        in_play = None
        if game is not None and not session.recorded and game.moves > 0 and not game.is_won:
            in_play = rule_set_key(game.code)
        return Live(
            stats=session.stats,
            in_play=in_play,
            failed_saves=session.failed_saves,
            hint_restarts=max(0, workers.spawned.get("hint", 0) - 1),
            slowest_frame=frames.slowest(time.perf_counter()),
            venue=None if venue is None else VenueFigures(venue.connected, venue.last_update),
        )

    return Metrics(Path(textfile_dir), record, source, version=read_version(REPO_ROOT))
