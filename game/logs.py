"""Logging for an unattended kiosk: a rotating file, one line per game event, crash handling.

`setup_logging(directory)` sends everything the "solitaire" loggers say to
`<directory>/solitaire.log` (rotated at 1 MB, 5 old files kept) and to stderr, which systemd puts
in the journal. The `log_game_*` helpers write each game's code, moves and result as key=value
lines, e.g. `game=RU1-C-AAAAABB event=move n=12 move=7H-t5 score=45`.

`install_excepthook(save)` makes an uncaught exception (in any thread) log its traceback, call
`save(exception)` to keep the game, and end the process with EXIT_CRASH, so systemd restarts the
game. Must not import pygame.
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from game.config import EXIT_CRASH, Config
from game.config_rules import expand_dir
from game.kiosk.pin import redact
from game.saves.storage import state_dir

if TYPE_CHECKING:
    from game.hooks import Ending

LOGGER_NAME = "solitaire"
LOG_FILE = "solitaire.log"
MAX_BYTES = 1_000_000
BACKUPS = 5
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

log = logging.getLogger(LOGGER_NAME)
game_log = logging.getLogger(LOGGER_NAME + ".game")


class RedactingFilter(logging.Filter):
    """A log filter that hides PIN hashes (and whatever follows operator_pin_hash =):
    game.kiosk.pin.redact on every message."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format: leave it to the handler's own error path
            return True
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


class _Ours:
    """A handler setup_logging installs (and replaces when called again); ``told``: it said
    once on stderr that it cannot write (:func:`_tell_once`)."""

    told = False


def _tell_once(handler: _Ours, where: str) -> None:
    """A log that cannot be written (a full disk, a closed stderr): one line on stderr, the
    first time only, instead of logging's multi-line traceback for every record."""
    if handler.told:
        return
    handler.told = True
    error = sys.exc_info()[1]
    with contextlib.suppress(Exception):
        sys.stderr.write(
            f"solitaire: cannot write the log {where} ({type(error).__name__}: {error}); "
            "lines that do not reach it are dropped without a further word\n"
        )
        sys.stderr.flush()


class _StderrHandler(_Ours, logging.StreamHandler):  # type: ignore[type-arg]
    def handleError(self, record: logging.LogRecord) -> None:
        _tell_once(self, "to stderr")


class _FileHandler(_Ours, logging.handlers.RotatingFileHandler):
    def handleError(self, record: logging.LogRecord) -> None:
        _tell_once(self, self.baseFilename)

    def flush(self) -> None:
        try:
            super().flush()
        except OSError:
            _tell_once(self, self.baseFilename)

    def close(self) -> None:
        try:
            super().close()
        except OSError:  # the last flush; the file is closed all the same
            _tell_once(self, self.baseFilename)


def log_dir_for(config: Config, state: Path | None = None) -> Path:
    """The log directory: config's kiosk.log_dir, or "logs" in the state directory (also when
    log_dir cannot be expanded, e.g. `~nosuchuser/logs`: the config check refuses that)."""
    expanded = expand_dir(config.kiosk.log_dir) if config.kiosk.log_dir else None
    if expanded is not None:
        return Path(expanded)
    return (state if state is not None else state_dir()) / "logs"


def setup_logging(
    directory: Path | None,
    *,
    level: int = logging.INFO,
    to_stderr: bool = True,
    max_bytes: int = MAX_BYTES,
    backups: int = BACKUPS,
) -> Path | None:
    """Log to a rotating file in `directory` (None: no file). Returns the log file, or None when
    there is none (e.g. a read-only disk: then the reason goes to stderr and the game goes on).
    Calling it again replaces the handlers it installed before."""
    logger = logging.getLogger(LOGGER_NAME)
    for handler in list(logger.handlers):
        if isinstance(handler, _Ours):
            logger.removeHandler(handler)
            handler.close()
    logger.setLevel(level)
    formatter = logging.Formatter(FORMAT)
    secrets = RedactingFilter()  # no PIN hash (or PIN typed in its place) reaches a log
    if to_stderr:
        stream = _StderrHandler(sys.stderr)
        stream.setFormatter(formatter)
        stream.addFilter(secrets)
        logger.addHandler(stream)
    if directory is None:
        return None
    path = Path(directory) / LOG_FILE
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
        rotating = _FileHandler(path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8")
    except (OSError, ValueError) as error:
        log.error("cannot write the log file %s (%s); logging to stderr only", path, error)
        return None
    rotating.setFormatter(formatter)
    rotating.addFilter(secrets)
    logger.addHandler(rotating)
    return path


def flush_logs() -> None:
    for handler in logging.getLogger(LOGGER_NAME).handlers:
        with contextlib.suppress(Exception):
            handler.flush()


# --------------------------------------------------------------------------------------------
# One line per game event


def log_game_start(code: str, *, resumed: bool = False, moves: int = 0, score: int = 0) -> None:
    event = "resume" if resumed else "start"
    game_log.info("game=%s event=%s n=%d score=%d", code, event, moves, score)


def log_move(code: str, move: str, *, moves: int, score: int) -> None:
    game_log.info("game=%s event=move n=%d move=%s score=%d", code, moves, move, score)


def log_undo(code: str, *, moves: int, score: int) -> None:
    game_log.info("game=%s event=undo n=%d score=%d", code, moves, score)


def log_game_end(code: str, result: Ending, *, moves: int, score: int, seconds: float) -> None:
    """`result`: "won", "abandoned" (a new deal), "idle" (the idle timeout's fresh deal)..."""
    game_log.info(
        "game=%s event=end result=%s n=%d score=%d time=%.1f", code, result, moves, score, seconds
    )


# --------------------------------------------------------------------------------------------
# Uncaught exceptions


def install_excepthook(
    save: Callable[[BaseException | None], object],
    *,
    exit_status: int = EXIT_CRASH,
    exit_process: Callable[[int], object] = os._exit,
) -> None:
    """On an uncaught exception in any thread: log it, call `save` with it, exit with `exit_status`.

    The process ends at once (`os._exit`), so no half-broken state lingers: systemd restarts
    the game, which resumes the saved game. A failing `save` is logged too."""
    done = threading.Lock()

    def hook(
        exc_type: type[BaseException],
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if not done.acquire(blocking=False):
            return  # another thread is already handling a crash
        with contextlib.suppress(Exception):
            log.critical("uncaught exception; saving and exiting", exc_info=exc or exc_type())
        try:
            save(exc)
        except BaseException:
            with contextlib.suppress(Exception):
                log.exception("saving after the uncaught exception failed")
        flush_logs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        exit_process(exit_status)

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:
            return
        hook(args.exc_type, args.exc_value, args.exc_traceback)

    sys.excepthook = hook
    threading.excepthook = thread_hook
