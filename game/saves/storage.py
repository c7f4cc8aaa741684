"""Durable JSON files in the player's state directory: the autosave, the settings, the stats.

A kiosk loses power without warning, so every write is atomic and durable: a temporary file in
the same directory is written, flushed and fsynced, `os.replace`d over the old file, and the
directory is fsynced. A reader therefore sees either the old file or the new one, never a mix.

Each file is an envelope `{"format": KIND, "version": N, "saved": ISO-time, "data": ...}`. A
file that is empty, truncated, not JSON, of another kind or of another version, that holds what
the game could not write back (a lone surrogate), or that is not a regular file at all (a FIFO,
a device: engine.safe_read never blocks on it or reads it) is moved aside under a timestamped
name (a few are kept for a post-mortem), the reason is logged, and `load` returns None so the
game starts fresh instead of crash-looping. Write errors (full or read-only disk) are logged and
reported as False, never raised: the game goes on; data that would not read back is not written.

This module must not import pygame.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from engine.safe_read import RefusedError, read_bytes

T = TypeVar("T")

log = logging.getLogger("solitaire.storage")

APP_NAME = "solitaire-kiosk"
STATE_ENV = "SOLITAIRE_STATE_DIR"

AUTOSAVE_FILE = "autosave.json"
SETTINGS_FILE = "settings.json"
STATS_FILE = "stats.json"

MAX_FILE_BYTES = 16 * 1024 * 1024
KEEP_ASIDE = 5
"""How many moved-aside copies of one file are kept; older ones are deleted."""
MAX_DIGITS = 30
"""A JSON integer with more digits is refused (Python's int() refuses past 4,300 digits, and
every number the game keeps fits in far fewer)."""
MAX_COUNT: int = 10**MAX_DIGITS - 1
"""The largest count a state file holds: a counter that reaches it stays there (`bounded`)."""

READ_FROM = "solitaire_read_from"
"""The attribute an exception that escaped the reading of a store carries: that store."""


def read_by(error: BaseException | None) -> JsonStore | None:
    """The store whose reading raised `error` (or an exception it grew out of), or None. The
    crash hook moves that file aside: a crash while it was read is its fault, no other's."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        store = getattr(error, READ_FROM, None)
        if isinstance(store, JsonStore):
            return store
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


@contextlib.contextmanager
def _reading_of(store: JsonStore) -> Iterator[None]:
    """An exception that escapes the reading of ``store`` carries it (the outermost store when
    one reading runs inside another): :func:`read_by` finds it on the exception itself."""
    try:
        yield
    except BaseException as error:
        setattr(error, READ_FROM, store)
        raise


class _Refused(ValueError):
    """A value json.loads reads that no file of the game holds."""


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _Refused(f"a number of {digits} digits")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > 400:
        raise _Refused(f"a number of {len(text)} characters")
    number = float(text)
    if not math.isfinite(number):
        raise _Refused(f"the number {text[:40]} is too large")
    return number


def _parse_constant(text: str) -> float:
    raise _Refused(f"{text} is not a number JSON allows")


def bounded(count: int) -> int:
    """`count` clamped to 0 .. MAX_COUNT: a counter is written as a number the reader takes."""
    return min(max(count, 0), MAX_COUNT)


def parse_json(raw: bytes) -> Any:
    """JSON with sane numbers only: integers of at most MAX_DIGITS digits, finite floats, no
    NaN/Infinity. Raises ValueError (also for bad UTF-8 and bad JSON) or RecursionError."""
    return json.loads(
        raw.decode("utf-8"),
        parse_int=_parse_int,
        parse_float=_parse_float,
        parse_constant=_parse_constant,
    )


def state_dir(env: Mapping[str, str] | None = None) -> Path:
    """The directory of saves, settings, statistics and (by default) logs.

    systemd's `$STATE_DIRECTORY` (StateDirectory= in the unit; the first entry when it lists
    several) wins; then `$SOLITAIRE_STATE_DIR`; then `$XDG_STATE_HOME/solitaire-kiosk`; then
    `~/.local/state/solitaire-kiosk`. The directory is not created here.
    """
    env = os.environ if env is None else env
    systemd = env.get("STATE_DIRECTORY", "").split(":")[0].strip()
    if systemd:
        return Path(systemd)
    explicit = env.get(STATE_ENV, "").strip()
    if explicit:
        return Path(explicit).expanduser()
    xdg = env.get("XDG_STATE_HOME", "").strip()
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / APP_NAME
    return Path.home() / ".local" / "state" / APP_NAME


def _fsync_dir(directory: Path) -> None:
    """Make a rename in `directory` durable (not possible on every platform or file system)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _make_dir(directory: Path) -> None:
    """Create `directory` and its missing parents, each new one's entry made durable in its
    parent (the state directory of a desktop's first save: else a power cut could take the
    directory, and the file in it, away again)."""
    missing = []
    while not directory.is_dir() and directory != directory.parent:
        missing.append(directory)
        directory = directory.parent
    for new in reversed(missing):
        new.mkdir(exist_ok=True)
        _fsync_dir(new.parent)


def _temp_prefix(path: Path) -> str:
    return f".{path.name}.tmp"


def write_atomic(path: Path, payload: bytes) -> None:
    """Replace `path` with `payload` atomically and durably: the file is fsynced before the
    rename and its directory after it (on ext4 a rename is not on the disk until then). Raises
    OSError on failure, leaving the old file untouched and no temporary file behind."""
    _make_dir(path.parent)
    temp = path.with_name(f"{_temp_prefix(path)}{os.getpid()}")
    try:
        with open(temp, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    _fsync_dir(path.parent)


def replace_file(
    path: Path, text: str, *, mode: int, owner: tuple[int, int] | None = None, sync: bool = True
) -> None:
    """Replace ``path`` (in a directory that exists) by ``text`` through a temporary file beside
    it that has ``mode`` (and ``owner``, uid and gid, when run as root) before it takes the
    name: a reader never sees a part, nor the file with other modes. ``sync``: the file flushed
    to the disk before the rename and the directory after it (a file that must survive a power
    cut, such as the PIN file; a file rewritten every half minute, the metrics, need not stall
    the loop on an SD card). OSError on failure, and no temporary file is left."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            if owner is not None and os.geteuid() == 0:
                os.fchown(out.fileno(), *owner)
            os.fchmod(out.fileno(), mode)
            out.write(text)
            if sync:
                out.flush()
                os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if sync:
        _fsync_dir(path.parent)


class JsonStore:
    """One JSON file with a kind and a format version, e.g. the autosave."""

    def __init__(self, path: Path, *, kind: str, version: int) -> None:
        self.path = Path(path)
        self.kind = kind
        self.version = version

    def __repr__(self) -> str:
        return f"JsonStore({str(self.path)!r}, kind={self.kind!r}, version={self.version})"

    def encode(self, data: Any) -> bytes:
        """The file's bytes for `data` (which must be JSON-ready: no NaN, no odd types)."""
        envelope = {
            "format": self.kind,
            "version": self.version,
            "saved": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "data": data,
        }
        text = json.dumps(envelope, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return text.encode("utf-8")

    def save(self, data: Any) -> bool:
        """Write `data` durably. False (and a log entry) when it could not be written."""
        try:
            payload = self.encode(data)
        except (TypeError, ValueError, RecursionError) as error:
            log.error("not saving %s: the data is not JSON-ready (%s)", self.path, error)
            return False
        problem = self._decode(payload)[0]
        if problem:  # the next start would move the file aside: keep the one there
            log.error("not saving %s: it would not read back (%s)", self.path, problem)
            return False
        try:
            write_atomic(self.path, payload)
        except OSError as error:
            log.error("could not save %s: %s", self.path, error)
            return False
        return True

    def load(self) -> Any | None:
        """The saved data, or None when there is no file or it is unusable (then moved aside)."""
        with _reading_of(self):
            return self._load()

    def load_with(self, parse: Callable[[Any], T], what: str = "the data") -> T | None:
        """`parse(data)` of the loaded data; when it raises anything, the file is moved aside
        with the reason and None returned. The file counts as being read throughout."""
        with _reading_of(self):
            data = self._load()
            if data is None:
                return None
            try:
                return parse(data)
            except Exception as error:  # any defect of the data, however it shows
                self.move_aside(f"{what} does not load: {str(error)[:200]}")
                return None

    def _load(self) -> Any | None:
        self._remove_stale_temps()
        try:
            raw = read_bytes(self.path, MAX_FILE_BYTES)
        except FileNotFoundError:
            return None
        except RefusedError as error:  # a FIFO, a device, a directory; too large
            self.move_aside(error.why)
            return None
        except OSError as error:
            log.error("cannot read %s: %s; starting without it", self.path, error)
            return None
        problem, data = self._decode(raw)
        if problem:
            self.move_aside(problem)
            return None
        return data

    def _decode(self, raw: bytes) -> tuple[str, Any]:
        if not raw.strip():
            return "the file is empty", None
        try:
            envelope = parse_json(raw)
        except UnicodeDecodeError as error:
            return f"not UTF-8 text ({error})", None
        except json.JSONDecodeError as error:
            return f"not valid JSON, perhaps truncated ({error})", None
        except _Refused as error:
            return f"holds {error}", None
        except RecursionError:
            return "JSON nested too deeply", None
        except (ValueError, OverflowError, MemoryError) as error:
            return f"not readable as JSON ({str(error)[:200]})", None
        if not isinstance(envelope, dict) or "format" not in envelope:
            return "not a solitaire-kiosk file (no format field)", None
        if envelope.get("format") != self.kind:
            return f"format {envelope.get('format')!r}, expected {self.kind!r}", None
        version = envelope.get("version")
        if version != self.version or isinstance(version, bool):
            return f"format version {version!r}, expected {self.version}", None
        if "data" not in envelope:
            return "no data field", None
        try:  # what the game could not write back would block every later save
            self.encode(envelope["data"])
        except (ValueError, TypeError, RecursionError) as error:
            return f"holds what the game cannot write back ({str(error)[:200]})", None
        return "", envelope["data"]

    def move_aside(self, reason: str) -> Path | None:
        """Move an unusable file out of the way (kept for a post-mortem) and log why.

        Also for callers whose own check of the loaded data failed (e.g. a game that does not
        load). Returns the new name, or None when the file could not be moved (then it is
        deleted if possible, so the next start does not trip over it again)."""
        now = time.time()
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now)) + f".{int(now % 1 * 1e6):06d}Z"
        target = self.path.with_name(f"{self.path.name}.bad-{stamp}")
        counter = 1
        while target.exists():  # names sort by age: "...Z" < "...Z-01" < "...Z-02"
            target = self.path.with_name(f"{self.path.name}.bad-{stamp}-{counter:02d}")
            counter += 1
        try:
            os.replace(self.path, target)
        except FileNotFoundError:
            return None
        except OSError as error:
            log.error("%s is unusable (%s) and cannot be moved aside: %s", self.path, reason, error)
            with contextlib.suppress(OSError):
                self.path.unlink()
            return None
        log.warning("%s is unusable (%s); moved aside to %s", self.path, reason, target.name)
        _fsync_dir(self.path.parent)
        self._prune_aside()
        return target

    def aside_files(self) -> list[Path]:
        """Moved-aside copies of this file, oldest first."""
        try:
            found = list(self.path.parent.glob(f"{self.path.name}.bad-*"))
        except OSError:
            return []
        return sorted(found, key=lambda p: p.name)

    def clear(self) -> None:
        """Delete the file (e.g. the autosave once a game is over)."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            return
        except OSError as error:
            log.error("could not delete %s: %s", self.path, error)
            return
        _fsync_dir(self.path.parent)

    def _prune_aside(self) -> None:
        for old in self.aside_files()[:-KEEP_ASIDE]:
            with contextlib.suppress(OSError):
                old.unlink()

    def _remove_stale_temps(self) -> None:
        """Temporary files left by a crash in the middle of a write."""
        try:
            stale = list(self.path.parent.glob(_temp_prefix(self.path) + "*"))
        except OSError:
            return
        for temp in stale:
            with contextlib.suppress(OSError):
                temp.unlink()


def autosave_store(directory: Path | None = None) -> JsonStore:
    """The running game: `{"game": Game.to_dict(), "elapsed": seconds, ...}`."""
    return JsonStore((directory or state_dir()) / AUTOSAVE_FILE, kind="autosave", version=1)


def settings_store(directory: Path | None = None) -> JsonStore:
    """The player's settings toggles and language (see game.saves.prefs)."""
    return JsonStore((directory or state_dir()) / SETTINGS_FILE, kind="settings", version=1)


def stats_store(directory: Path | None = None) -> JsonStore:
    """The statistics per game and rule set (see game.saves.stats)."""
    return JsonStore((directory or state_dir()) / STATS_FILE, kind="stats", version=1)
