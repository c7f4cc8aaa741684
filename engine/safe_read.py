"""Reading a file that may be anything: the one way the game reads its files (state files,
config.toml, locales, deal catalogs, fonts).

A kiosk's files can be damaged or replaced by anything. :func:`read_bytes` opens only a regular
file, never blocks on the open (a FIFO in place of a file would wait for a writer for ever) and
reads at most ``limit`` bytes (a symlink to ``/dev/zero`` would read until memory runs out).
What it refuses raises an ``OSError`` whose message says what the path is, so each reader's
usual ``except OSError`` logs it and falls back. Standard library only.
"""

from __future__ import annotations

import os
import stat

_CHUNK = 1 << 20
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO opens at once instead of waiting for a writer
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class RefusedError(OSError):
    """A file :func:`read_bytes` does not read; ``why`` says why without the path."""

    def __init__(self, path: str | os.PathLike[str], why: str) -> None:
        super().__init__(f"{os.fspath(path)}: {why}")
        self.why = why


class NotAFileError(RefusedError):
    """The path exists but is not a regular file (a directory, a FIFO, a device, a socket)."""


class TooLargeError(RefusedError):
    """The file holds more than the reader's limit."""


def reason(error: BaseException) -> str:
    """Why reading failed, in a few words without the path: "a FIFO, not a regular file",
    "Permission denied", ..."""
    if isinstance(error, RefusedError):
        return error.why
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


def not_utf8(error: UnicodeDecodeError) -> str:
    """Why bytes read are not text, in a few words: "not UTF-8 text (invalid start byte at
    byte 12)"."""
    return f"not UTF-8 text ({error.reason} at byte {error.start})"


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words ("a FIFO", "a character device", ...)."""
    for test, name in (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _check(path: str | os.PathLike[str], info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise NotAFileError(path, f"{kind_of(info.st_mode)}, not a regular file")
    if info.st_size > limit:
        raise TooLargeError(path, f"{info.st_size} bytes, more than the limit of {limit}")


def read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """The whole content of the regular file ``path``, at most ``limit`` bytes.

    FileNotFoundError when there is nothing there; NotAFileError for anything but a regular
    file (also behind a symlink); TooLargeError past ``limit``; other OSErrors as the system
    raises them (no permission, an I/O error)."""
    _check(path, os.stat(path), limit)  # a device is not even opened
    fd = os.open(path, _OPEN_FLAGS)
    try:
        _check(path, os.fstat(fd), limit)  # what was opened, should the path have changed
        chunks: list[bytes] = []
        left = limit + 1  # one byte more tells a file that grew past the limit
        while left > 0:
            chunk = os.read(fd, min(left, _CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise TooLargeError(path, f"more than the limit of {limit} bytes")
    return data
