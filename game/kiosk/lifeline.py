"""Worker processes that die with the game.

A solver worker (hint, winnable indicator, attract screen) waits on its task queue, whose write
end it holds itself, so a game killed hard (SIGKILL, the OOM killer, a crash of the Python
interpreter) used to leave it running for good. Every worker process calls `die_with_parent`
as its initializer (`ProcessPoolExecutor(..., initializer=die_with_parent)`):

- on Linux it asks the kernel for SIGKILL when its parent dies (prctl PR_SET_PDEATHSIG, through
  ctypes); the kernel sends it when the *thread* that started the worker ends, so a pool must
  be started from a thread that lives as long as the game (the loop's thread does);
- everywhere, a daemon thread watches the parent (multiprocessing's parent sentinel, which
  becomes readable when the parent is gone, and the parent pid) and ends the worker within
  `WATCH_S` seconds of the parent's death: the fallback where prctl is missing or refused.

Must not import pygame (it runs in every worker).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from multiprocessing.connection import wait

PR_SET_PDEATHSIG = 1
WATCH_S = 0.5
"""How often the watch thread looks at the parent (seconds)."""


def set_parent_death_signal(signum: int = signal.SIGKILL) -> bool:
    """Ask Linux to send `signum` to this process when its parent dies; False elsewhere or
    when the call fails."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _parent() -> tuple[int, int | None]:
    """The parent's pid and, when multiprocessing started us, its sentinel file descriptor."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return os.getppid(), None
    sentinel = getattr(parent, "_sentinel", None)
    pid = parent.pid if parent.pid is not None else os.getppid()
    return pid, sentinel if isinstance(sentinel, int) else None


def _gone(parent_pid: int, sentinel: int | None, timeout: float) -> bool:
    if sentinel is not None:
        try:
            if wait([sentinel], timeout):
                return True
        except (OSError, ValueError):
            time.sleep(timeout)
    else:
        time.sleep(timeout)
    return os.getppid() != parent_pid


def _watch(parent_pid: int, sentinel: int | None) -> None:
    while not _gone(parent_pid, sentinel, WATCH_S):
        pass
    os._exit(0)  # no cleanup: the parent that would want the results is gone


def die_with_parent(use_prctl: bool = True) -> None:
    """Initializer of a worker process: end this process when its parent dies (see the module
    text). `use_prctl=False` leaves only the watch thread (tests of the fallback)."""
    parent_pid, sentinel = _parent()
    if use_prctl:
        set_parent_death_signal()
    if os.getppid() != parent_pid:  # the parent died before the signal was asked for
        os._exit(0)
    with contextlib.suppress(RuntimeError):
        threading.Thread(
            target=_watch, args=(parent_pid, sentinel), name="parent-watch", daemon=True
        ).start()
