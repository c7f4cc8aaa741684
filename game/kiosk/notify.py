"""systemd's notify protocol and watchdog, for a ``Type=notify`` unit with ``WatchdogSec=``.

The protocol is one datagram per message to the AF_UNIX socket named by ``$NOTIFY_SOCKET`` (a
name that starts with ``@`` is in the abstract namespace). The game sends ``READY=1`` once its
first frame is on the screen, ``WATCHDOG=1`` from the loop itself (game.app.App.run: a loop
that stops turning stops sending, and systemd kills and restarts the game), and
``STOPPING=1`` on a clean exit. Without ``$NOTIFY_SOCKET`` (a desktop run) nothing is sent.

The watchdog is on as ``sd_watchdog_enabled(3)`` says: ``$WATCHDOG_USEC`` holds a positive
number of microseconds, and ``$WATCHDOG_PID``, when set, is this process's id (a wrapper that
does not ``exec`` the game must unset it: kiosk/run-cage.sh). The game then sends
``WATCHDOG=1`` every half of that time, as systemd asks, and its loop never sleeps past the
next one.

``$SOLITAIRE_TEST_HANG_AFTER`` (seconds, tests only) makes the loop hang that long after its
first frame, at the point where it would send its next ``WATCHDOG=1``, as a stuck display flip
would. Must not import pygame.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Mapping

log = logging.getLogger("solitaire.notify")

HANG_ENV = "SOLITAIRE_TEST_HANG_AFTER"


def watchdog_interval(env: Mapping[str, str], pid: int) -> float | None:
    """Seconds between two ``WATCHDOG=1`` (half of ``$WATCHDOG_USEC``), or None when the
    watchdog is off or meant for another process (sd_watchdog_enabled semantics)."""
    text = env.get("WATCHDOG_USEC", "").strip()
    if not text:
        return None
    try:
        usec = int(text)
    except ValueError:
        log.warning("WATCHDOG_USEC = %r is not a number of microseconds; no watchdog", text)
        return None
    if usec <= 0:
        return None
    owner = env.get("WATCHDOG_PID", "").strip()
    if owner:
        try:
            if int(owner) != pid:
                return None
        except ValueError:
            log.warning("WATCHDOG_PID = %r is not a process id; no watchdog", owner)
            return None
    return usec / 2_000_000


def socket_address(name: str) -> str | bytes | None:
    """The address of ``$NOTIFY_SOCKET``: a path, or an abstract name as bytes; None when the
    name is neither (systemd's vsock: addresses are not used on a kiosk)."""
    if name.startswith("@") and len(name) > 1:
        return b"\0" + name[1:].encode()
    if name.startswith("/"):
        return name
    return None


class Notifier:
    """Tells systemd how the game is. Never raises: a message that cannot be sent is logged
    once and the game goes on."""

    def __init__(
        self,
        address: str | bytes | None,
        interval: float | None = None,
        *,
        hang_after: float | None = None,
    ) -> None:
        self.address = address
        self.interval = interval if address is not None else None
        self.hang_after = hang_after
        self._socket: socket.socket | None = None
        self._failed = False
        self._next_ping = 0.0
        self._ready_at: float | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, pid: int | None = None) -> Notifier:
        env = os.environ if env is None else env
        name = env.get("NOTIFY_SOCKET", "")
        address = socket_address(name) if name else None
        if name and address is None:
            log.warning("NOTIFY_SOCKET = %r is not a socket path; not telling systemd", name)
        hang = env.get(HANG_ENV, "").strip()
        try:
            hang_after = float(hang) if hang else None
        except ValueError:
            hang_after = None
        interval = watchdog_interval(env, os.getpid() if pid is None else pid)
        return cls(address, interval, hang_after=hang_after)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, message: str) -> bool:
        """One datagram to systemd; False when there is no socket or it refused."""
        if self.address is None:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                self._socket.setblocking(False)  # never wait on systemd inside the loop
            self._socket.sendto(message.encode(), self.address)
        except OSError as error:
            if not self._failed:
                log.warning("could not tell systemd %s: %s", message.split("=")[0], error)
                self._failed = True
            return False
        return True

    def ready(self, now: float) -> None:
        """The first frame is on the screen (``now``: the loop's time.perf_counter())."""
        if self._ready_at is None:
            self._ready_at = now
            self.send("READY=1")
            self._next_ping = now  # and the first WATCHDOG=1 at once

    def ping(self, now: float) -> None:
        """From the loop, once a turn: ``WATCHDOG=1`` when it is due."""
        if self.interval is None or self._ready_at is None or now < self._next_ping:
            return
        if self.hang_after is not None and now - self._ready_at >= self.hang_after:
            log.warning("%s: the loop hangs now (a test)", HANG_ENV)
            while True:
                time.sleep(3600)
        self.send("WATCHDOG=1")
        self._next_ping = now + self.interval

    def rest_limit(self, now: float) -> float | None:
        """How long the loop may sleep before the next ``WATCHDOG=1`` is due (None: for ever)."""
        if self.interval is None or self._ready_at is None:
            return None
        return max(0.0, self._next_ping - now)

    def stopping(self) -> None:
        """A clean exit has begun (SIGTERM, the operator's exit)."""
        self.send("STOPPING=1")
        self.close()

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
