"""Waiting for a screen on the console path: kiosk/run-kmsdrm.sh runs this (as the unit's main
process, by exec) when no DRM connector is connected, instead of starting a game that could only
fail (SDL's kmsdrm driver finds no display) and be restarted, and counted as a crash, every
two seconds.

    python -m game.kiosk.display_wait DRM_SYSFS PICK WRAPPER [ARG...]

It says once on standard error that it waits, adds ``solitaire_kiosk_waiting_for_display_since
_seconds`` to the game's metrics file (when ``[metrics] textfile_dir`` of $SOLITAIRE_CONFIG is
set; written once, so the file's age shows the kiosk down while the metric says why), keeps
systemd's start timeout open (``EXTEND_TIMEOUT_USEC``; the game's own ``READY=1`` ends the start
later) and asks ``PICK DRM_SYSFS`` (kiosk/pick-drm-card.sh) again after 1, 2, 4, then every
MAX_DELAY_S seconds. Once a screen is connected it says so and execs ``WRAPPER ARG...`` (the
wrapper again, which starts the game on that card). Must not import pygame.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

METRIC = "solitaire_kiosk_waiting_for_display_since_seconds"
FIRST_DELAY_S = 1.0
MAX_DELAY_S = 8.0
MAX_METRICS_BYTES = 1 << 20


def say(text: str) -> None:
    print(f"solitaire-kiosk: {text}", file=sys.stderr, flush=True)


def connected(pick: str, drm: str) -> bool:
    """Whether PICK (kiosk/pick-drm-card.sh) finds a connected screen under `drm`."""
    try:
        result = subprocess.run([pick, drm], capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return result.returncode == 0 and bool(result.stdout.strip())


def with_wait_metric(previous: str, since: float) -> str:
    """The metrics file's text with the waiting gauge set to `since` (the game's own lines
    kept, the gauge's old lines dropped)."""
    kept = [line for line in previous.splitlines() if METRIC not in line]
    kept += [
        f"# HELP {METRIC} Since when the kiosk waits for a screen to be connected (the game is "
        "not running), in seconds since 1970.",
        f"# TYPE {METRIC} gauge",
        f"{METRIC} {since!r}",
    ]
    return "\n".join(kept) + "\n"


def write_wait_metric(since: float) -> None:
    """The gauge into the game's metrics file, when the config names a textfile directory;
    a failure is one line, never the end of the wait."""
    from game.config import load_config
    from game.kiosk.metrics import FILE_NAME, write_textfile

    directory = load_config(os.environ.get("SOLITAIRE_CONFIG"), kiosk=True)[0].metrics.textfile_dir
    if not directory:
        return
    path = Path(directory) / FILE_NAME
    try:
        with open(path, "rb") as file:
            previous = file.read(MAX_METRICS_BYTES).decode("utf-8", errors="replace")
    except OSError:
        previous = ""
    try:
        write_textfile(Path(directory), with_wait_metric(previous, since))
    except OSError as error:
        say(f"the metric {METRIC} was not written to {path}: {error}")


def wait(
    drm: str,
    pick: str,
    *,
    send: Callable[[str], object],
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.time,
    check: Callable[[str, str], bool] = connected,
    metric: Callable[[float], None] = write_wait_metric,
) -> float:
    """Returns once PICK finds a screen: the seconds waited (0 when one was there at once)."""
    if check(pick, drm):
        return 0.0
    start = clock()
    say(
        f"no screen is connected (no connected connector in {drm}); waiting for one: the "
        "game starts by itself once a screen is connected"
    )
    metric(start)
    send("STATUS=Waiting for a screen to be connected")
    delay = FIRST_DELAY_S
    while True:
        # systemd's start timeout stays open for as long as this asks again in time.
        send(f"EXTEND_TIMEOUT_USEC={int((delay + 30) * 1_000_000)}")
        sleep(delay)
        if check(pick, drm):
            return clock() - start
        delay = min(delay * 2, MAX_DELAY_S)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 3:
        say("usage: python -m game.kiosk.display_wait DRM_SYSFS PICK WRAPPER [ARG...]")
        return 2
    drm, pick, command = args[0], args[1], args[2:]
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(0))  # systemctl stop
    from game.kiosk.notify import Notifier

    notifier = Notifier.from_env()
    waited = wait(drm, pick, send=notifier.send)
    notifier.close()
    if waited:
        say(f"a screen is connected (after {waited:.0f} s of waiting); starting the game")
    os.execv(command[0], command)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main())
