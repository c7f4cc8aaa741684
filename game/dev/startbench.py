"""Launch to a mapped window and to its first frame, this game beside Aisleriot (GNOME's
solitaire), under one Xvfb: ``python -m game.dev.bench startup [--runs N]``.

It starts its own Xvfb, then in turn launches ``main.py --windowed`` (a fresh state directory
each time, the config as shipped), a bare pygame window (``import pygame``, ``set_mode``, one
frame drawn: the floor of any pygame program) and Aisleriot's ``sol``, and times each from the
moment the process is started to the X server's MapNotify of the top-level window that shows
its first frame (no window manager: the program's window is a child of the root window), and
to that first frame: the first drawing in the mapped window (the DAMAGE extension) that is not
all one colour (a window cleared to one colour has shown nothing yet). The notices come from
the server as they happen, not from polling. Each program is ended once its frame shows.
Each checkout's modules are compiled to bytecode first, as the Debian package does when it is
installed. Prints the median, the fastest and the slowest of each, side by side. Needs ``Xvfb``
(Debian package xvfb) and ``sol`` (package aisleriot); without ``sol`` it times the other two.
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
UNMAP_NOTIFY, MAP_NOTIFY = 18, 19
DAMAGE_RAW_RECTANGLES = 0  # XDamageReportRawRectangles: every drawing, as it happens
Z_PIXMAP = 2
TIMEOUT_S = 20.0
AISLERIOT = ("sol", "/usr/games/sol")
# The least any pygame program does before its first frame shows: the floor under this game's
# time. The frame is not one colour (a window filled with one colour is not counted as drawn).
BARE_PYGAME = (
    "import time, pygame; pygame.display.init(); "
    "screen = pygame.display.set_mode((800, 480)); screen.fill((0, 90, 0)); "
    "screen.fill((250, 250, 250), (20, 20, 60, 90)); pygame.display.flip(); time.sleep(60)"
)


class MapEvent(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("event", ctypes.c_ulong),
        ("window", ctypes.c_ulong),
    ]


class DamageEvent(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("drawable", ctypes.c_ulong),
        ("damage", ctypes.c_ulong),
        ("level", ctypes.c_int),
        ("more", ctypes.c_int),
        ("timestamp", ctypes.c_ulong),
        ("x", ctypes.c_short),
        ("y", ctypes.c_short),
        ("width", ctypes.c_ushort),
        ("height", ctypes.c_ushort),
    ]


class Image(ctypes.Structure):  # the head of Xlib's XImage
    _fields_ = [
        ("width", ctypes.c_int),
        ("height", ctypes.c_int),
        ("xoffset", ctypes.c_int),
        ("format", ctypes.c_int),
        ("data", ctypes.c_void_p),
        ("byte_order", ctypes.c_int),
        ("bitmap_unit", ctypes.c_int),
        ("bitmap_bit_order", ctypes.c_int),
        ("bitmap_pad", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("bytes_per_line", ctypes.c_int),
        ("bits_per_pixel", ctypes.c_int),
    ]


Box = tuple[int, int, int, int]  # x, y, width, height on the screen


def overlap(a: Box, b: Box) -> Box | None:
    x, y = max(a[0], b[0]), max(a[1], b[1])
    right, bottom = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return (x, y, right - x, bottom - y) if right > x and bottom > y else None


def one_colour(rows: Sequence[bytes], pixel: int) -> bool:
    """Whether every pixel (``pixel`` bytes) of these rows is the first row's first one."""
    first = rows[0][:pixel]
    return all(row == first * (len(row) // pixel) for row in rows)


class MapWatch:
    """An X connection of its own that hears every top-level window the server maps and every
    drawing on the screen (the DAMAGE extension), as it happens: the moment a program's
    window is mapped, and the moment that window first shows a frame (a drawing in it that
    is not all one colour: a window cleared or filled with one colour has drawn no frame)."""

    def __init__(self, display: str) -> None:
        xlib = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        damage = ctypes.CDLL(ctypes.util.find_library("Xdamage") or "libXdamage.so.1")
        pointer, window = ctypes.c_void_p, ctypes.c_ulong
        xlib.XOpenDisplay.restype = pointer
        xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        xlib.XDefaultRootWindow.restype = window
        xlib.XDefaultRootWindow.argtypes = [pointer]
        xlib.XSelectInput.argtypes = [pointer, window, ctypes.c_long]
        xlib.XConnectionNumber.argtypes = [pointer]
        for name in ("XFlush", "XPending", "XCloseDisplay"):
            getattr(xlib, name).argtypes = [pointer]
        xlib.XNextEvent.argtypes = [pointer, pointer]
        xlib.XGetImage.restype = ctypes.POINTER(Image)
        xlib.XGetImage.argtypes = [pointer, window, ctypes.c_int, ctypes.c_int]
        xlib.XGetImage.argtypes += [ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        xlib.XDestroyImage.argtypes = [ctypes.POINTER(Image)]
        uint = ctypes.POINTER(ctypes.c_uint)
        xlib.XGetGeometry.argtypes = [pointer, window, ctypes.POINTER(window)]
        xlib.XGetGeometry.argtypes += [ctypes.POINTER(ctypes.c_int)] * 2 + [uint] * 4
        damage.XDamageQueryExtension.argtypes = [pointer] + [ctypes.POINTER(ctypes.c_int)] * 2
        damage.XDamageCreate.restype = window
        damage.XDamageCreate.argtypes = [pointer, window, ctypes.c_int]
        # A window gone before it is read is no reason to end (Xlib's default handler exits).
        handler_type = ctypes.CFUNCTYPE(ctypes.c_int, pointer, pointer)
        self.on_error = handler_type(lambda display, error: 0)
        xlib.XSetErrorHandler.argtypes = [handler_type]
        xlib.XSetErrorHandler(self.on_error)
        self.xlib = xlib
        self.display = xlib.XOpenDisplay(display.encode())
        if not self.display:
            raise OSError(f"cannot open the X display {display}")
        self.root = xlib.XDefaultRootWindow(self.display)
        base, errors = ctypes.c_int(), ctypes.c_int()
        if not damage.XDamageQueryExtension(self.display, ctypes.byref(base), ctypes.byref(errors)):
            raise OSError(f"the X server {display} has no DAMAGE extension")
        self.damage_notify = base.value  # XDamageNotify is the extension's first event
        xlib.XSelectInput(self.display, self.root, SUBSTRUCTURE_NOTIFY)
        damage.XDamageCreate(self.display, self.root, DAMAGE_RAW_RECTANGLES)  # and inferiors
        xlib.XFlush(self.display)
        self.fd = int(xlib.XConnectionNumber(self.display))
        self.event = ctypes.create_string_buffer(192)  # sizeof(XEvent)
        self.mapped: dict[int, tuple[float, Box]] = {}  # window: when mapped, where
        self.shown: tuple[float, float] | None = None  # (mapped, first frame) of a window

    def geometry(self, window: int) -> Box | None:
        root, x, y = ctypes.c_ulong(), ctypes.c_int(), ctypes.c_int()
        width, height, border, depth = (ctypes.c_uint() for _ in range(4))
        places = (x, y, width, height, border, depth)
        if not self.xlib.XGetGeometry(
            self.display, window, ctypes.byref(root), *(ctypes.byref(v) for v in places)
        ):
            return None
        return x.value, y.value, width.value, height.value

    def one_colour(self, box: Box) -> bool:
        """Whether this part of the screen shows one colour (or cannot be read)."""
        image = self.xlib.XGetImage(self.display, self.root, *box, ~0 & 0xFFFFFFFF, Z_PIXMAP)
        if not image:
            return True
        try:
            head = image.contents
            line, pixel = head.bytes_per_line, max(1, head.bits_per_pixel // 8)
            raw = ctypes.string_at(head.data, line * head.height)
            width = head.width * pixel
            return one_colour([raw[i : i + width] for i in range(0, len(raw), line)], pixel)
        finally:
            self.xlib.XDestroyImage(image)

    def drain(self) -> None:
        """Read every event waiting: the windows mapped and unmapped, the first frame shown."""
        while self.xlib.XPending(self.display):
            self.xlib.XNextEvent(self.display, self.event)
            now = time.perf_counter()
            kind = ctypes.c_int.from_buffer(self.event).value
            if kind == MAP_NOTIFY:
                window = MapEvent.from_buffer(self.event).window
                box = self.geometry(window)
                if box is not None:
                    self.mapped[window] = (now, box)
            elif kind == UNMAP_NOTIFY:
                self.mapped.pop(MapEvent.from_buffer(self.event).window, None)
            elif kind == self.damage_notify and self.shown is None:
                drawn = DamageEvent.from_buffer(self.event)
                area = (drawn.x, drawn.y, drawn.width, drawn.height)
                for mapped, box in self.mapped.values():
                    part = overlap(area, box)
                    if part is not None and not self.one_colour(part):
                        self.shown = (mapped, now)
                        break

    def until_shown(self, process: subprocess.Popen[bytes], timeout: float) -> tuple[float, float]:
        """The perf_counter times at which the next window that shows a frame was mapped and
        showed its first frame."""
        end = time.perf_counter() + timeout
        self.mapped.clear()
        self.shown = None
        while True:
            self.drain()
            if self.shown is not None:
                return self.shown
            if process.poll() is not None:
                raise RuntimeError(f"{process.args!r} ended ({process.returncode}) with no frame")
            left = end - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"{process.args!r} showed no frame within {timeout} s")
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


def launch_seconds(
    command: Sequence[str], env: dict[str, str], watch: MapWatch
) -> tuple[float, float]:
    """Seconds from starting ``command`` to its window mapped, and to that window's first
    frame; the program is ended then."""
    watch.drain()
    start = time.perf_counter()
    process = subprocess.Popen(
        list(command), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        mapped, shown = watch.until_shown(process, TIMEOUT_S)
        return mapped - start, shown - start
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        watch.drain()


def compile_checkout(checkout: Path) -> None:
    """Compile a checkout's modules to bytecode, as the Debian package does when it is installed
    (kiosk/deb/postinst: ``python -m compileall``): every launch timed then reads them, as the
    kiosk's does, even where PYTHONDONTWRITEBYTECODE is set (the kiosk units set it too) and no
    launch may write them. Without this, every launch there compiles each module it imports
    from its source again, which no installed kiosk does."""
    folders = [str(checkout / name) for name in ("engine", "game") if (checkout / name).is_dir()]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *folders],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )


def aisleriot() -> str | None:
    return next((path for name in AISLERIOT if (path := shutil.which(name))), None)


Times = dict[str, list[tuple[float, float]]]  # program: (to its window, to its first frame)


def measure(runs: int, before: Path | None = None) -> Times:
    """Each program's launch-to-window and launch-to-frame times, ``runs`` each, taking
    turns; ``before``: the game of another checkout too (its main.py), as "before"."""
    sol = aisleriot()
    checkouts = {"solitaire": REPO} | ({"before": before} if before else {})
    times: Times = {name: [] for name in (*checkouts, "bare pygame")}
    if sol:
        times["aisleriot"] = []
    for checkout in checkouts.values():
        compile_checkout(checkout)
    with xvfb() as display, tempfile.TemporaryDirectory(prefix="startbench-") as home:
        base = {**os.environ, "DISPLAY": display}
        base.pop("SDL_VIDEODRIVER", None)  # the tests' dummy driver shows no window
        ours = {**base, "SDL_VIDEODRIVER": "x11", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        # GTK without a session: no accessibility bus to wait for, settings in memory.
        theirs = {**base, "HOME": home, "NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory"}
        watch = MapWatch(display)
        try:
            for run in range(runs + 1):  # the first round warms the disk cache: not counted
                for name, checkout in checkouts.items():
                    with tempfile.TemporaryDirectory(prefix="startbench-state-") as state:
                        game = [sys.executable, str(checkout / "main.py"), "--windowed"]
                        game += ["--size", "800x480", "--state-dir", state]
                        took = launch_seconds(game, ours, watch)
                    if run:
                        times[name].append(took)
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
    parser.add_argument(
        "--before",
        type=Path,
        metavar="DIR",
        help="another checkout of the game (e.g. a git worktree of an older commit) timed "
        "alongside, as 'before'",
    )
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.before and not (args.before / "main.py").is_file():
        parser.error(f"--before: no main.py in {args.before}")
    times = measure(args.runs, args.before)
    for what, which in (("a mapped window", 0), ("its first frame drawn", 1)):
        print(f"launch to {what} under Xvfb, {args.runs} runs each (seconds)")
        print(f"{'':12} {'median':>7} {'fastest':>8} {'slowest':>8}")
        for name, pairs in times.items():
            values = [pair[which] for pair in pairs]
            median, low, high = statistics.median(values), min(values), max(values)
            print(f"{name:12} {median:7.3f} {low:8.3f} {high:8.3f}")
    if "aisleriot" not in times:
        print("(Aisleriot is not installed: apt-get install aisleriot to time it alongside)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
