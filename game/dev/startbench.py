"""Launch to a mapped window, this game beside Aisleriot (GNOME's solitaire), under one Xvfb:
``python -m game.dev.bench startup [--runs N]``.

It starts its own Xvfb, then in turn launches ``main.py --windowed`` (a fresh state directory
each time, the config as shipped), a bare pygame window (``import pygame``, ``set_mode``: the
floor of any pygame program) and Aisleriot's ``sol``, and times each from the
moment the process is started to the X server's MapNotify of its first top-level window (no
window manager: the program's window is a child of the root window). The notice comes from
the server as it happens, not from polling. Each program is ended once its window shows.
Prints the median, the fastest and the slowest of each, side by side. Needs ``Xvfb`` (Debian
package xvfb) and ``sol`` (package aisleriot); without ``sol`` it times this game alone.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import ctypes.util
import os
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SUBSTRUCTURE_NOTIFY = 1 << 19  # SubstructureNotifyMask
MAP_NOTIFY = 19
TIMEOUT_S = 20.0
AISLERIOT = ("sol", "/usr/games/sol")
# The least any pygame program does before its window shows: the floor under this game's time.
BARE_PYGAME = (
    "import time, pygame; pygame.display.init(); pygame.display.set_mode((800, 480)); "
    "time.sleep(60)"
)


class MapWatch:
    """An X connection of its own that hears every top-level window the server maps."""

    def __init__(self, display: str) -> None:
        xlib = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        xlib.XOpenDisplay.restype = ctypes.c_void_p
        xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        xlib.XDefaultRootWindow.restype = ctypes.c_ulong
        xlib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        xlib.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
        xlib.XConnectionNumber.argtypes = [ctypes.c_void_p]
        for name in ("XFlush", "XPending", "XCloseDisplay"):
            getattr(xlib, name).argtypes = [ctypes.c_void_p]
        xlib.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self.xlib = xlib
        self.display = xlib.XOpenDisplay(display.encode())
        if not self.display:
            raise OSError(f"cannot open the X display {display}")
        xlib.XSelectInput(self.display, xlib.XDefaultRootWindow(self.display), SUBSTRUCTURE_NOTIFY)
        xlib.XFlush(self.display)
        self.fd = int(xlib.XConnectionNumber(self.display))
        self.event = ctypes.create_string_buffer(192)  # sizeof(XEvent)

    def drain(self) -> int:
        """Read every event waiting; the number of windows mapped among them."""
        mapped = 0
        while self.xlib.XPending(self.display):
            self.xlib.XNextEvent(self.display, self.event)
            if ctypes.c_int.from_buffer(self.event).value == MAP_NOTIFY:
                mapped += 1
        return mapped

    def until_mapped(self, process: subprocess.Popen[bytes], timeout: float) -> float:
        """The perf_counter time at which the next top-level window is mapped."""
        end = time.perf_counter() + timeout
        while True:
            if self.drain():
                return time.perf_counter()
            if process.poll() is not None:
                raise RuntimeError(f"{process.args!r} ended ({process.returncode}) with no window")
            left = end - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"{process.args!r} mapped no window within {timeout} s")
            select.select([self.fd], [], [], min(left, 0.05))

    def close(self) -> None:
        self.xlib.XCloseDisplay(self.display)


@contextlib.contextmanager
def xvfb(size: str = "1280x800x24") -> Iterator[str]:
    """An Xvfb of its own, for the time of the ``with``: its display name."""
    if shutil.which("Xvfb") is None:
        raise SystemExit("game.dev.bench startup: Xvfb is not installed (Debian package xvfb)")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", size, "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise SystemExit("game.dev.bench startup: Xvfb did not start")
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def launch_seconds(command: Sequence[str], env: dict[str, str], watch: MapWatch) -> float:
    """Seconds from starting ``command`` to its window mapped; the program is ended then."""
    watch.drain()
    start = time.perf_counter()
    process = subprocess.Popen(
        list(command), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        return watch.until_mapped(process, TIMEOUT_S) - start
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        watch.drain()


def aisleriot() -> str | None:
    return next((path for name in AISLERIOT if (path := shutil.which(name))), None)


def measure(runs: int) -> dict[str, list[float]]:
    """Each program's launch-to-window times, ``runs`` each, the two taking turns."""
    sol = aisleriot()
    times: dict[str, list[float]] = {"solitaire": [], "bare pygame": []}
    if sol:
        times["aisleriot"] = []
    with xvfb() as display, tempfile.TemporaryDirectory(prefix="startbench-") as home:
        base = {**os.environ, "DISPLAY": display}
        base.pop("SDL_VIDEODRIVER", None)  # the tests' dummy driver shows no window
        ours = {**base, "SDL_VIDEODRIVER": "x11", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        # GTK without a session: no accessibility bus to wait for, settings in memory.
        theirs = {**base, "HOME": home, "NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory"}
        watch = MapWatch(display)
        try:
            for run in range(runs + 1):  # the first round warms the disk cache: not counted
                with tempfile.TemporaryDirectory(prefix="startbench-state-") as state:
                    game = [sys.executable, str(REPO / "main.py"), "--windowed"]
                    game += ["--size", "800x480", "--state-dir", state]
                    took = launch_seconds(game, ours, watch)
                if run:
                    times["solitaire"].append(took)
                took = launch_seconds([sys.executable, "-c", BARE_PYGAME], ours, watch)
                if run:
                    times["bare pygame"].append(took)
                if sol:
                    took = launch_seconds([sol], theirs, watch)
                    if run:
                        times["aisleriot"].append(took)
        finally:
            watch.close()
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m game.dev.bench startup", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=7, help="launches of each (default 7)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    times = measure(args.runs)
    print(f"launch to a mapped window under Xvfb, {args.runs} runs each (seconds)")
    print(f"{'':12} {'median':>7} {'fastest':>8} {'slowest':>8}")
    for name, values in times.items():
        print(f"{name:12} {statistics.median(values):7.3f} {min(values):8.3f} {max(values):8.3f}")
    if "aisleriot" not in times:
        print("(Aisleriot is not installed: apt-get install aisleriot to time it alongside)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
