"""The frame loop while the venue's broker cannot be reached (issue 42): ``python -m game.dev.bench
venue [--seconds S] [--json]``.

Each case runs in a fresh Python process (so that starting the venue's client, importing paho and
ssl, counts where it happens): the table at 800x480 under SDL's dummy driver, a whole redraw every
frame at about 60 frames a second, and a win entered in the high scores every two seconds (the
link works out and, when it can, publishes its tables in the frame that wins). The cases: no
venue; a venue whose broker port is closed (refused at once; paho tries again after 1, 2, 4 ...
s); an unroutable address (each attempt hangs until its time-out, or the network says no route);
a port that takes the connection and never answers TLS (each attempt waits out the handshake).
Printed: the worst, 99th percentile and median frame, wall time (a frame that waits on another
thread shows), and each case's worst over the no-venue worst. The figures vary with the machine
and its load; nothing asserts them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZE = (800, 480)
CODE = "SH1-C4-AAAAAJ2"
CASES = {
    "none": "no venue",
    "closed": "closed port (127.0.0.1)",
    "unroutable": "unroutable address (10.255.255.1)",
    "silent": "port that never answers TLS",
}
WIN_EVERY_S = 2.0
START_S = 1.0  # the first frames: the window's first draw, the client's start (paho, ssl)


def _ca_file(directory: Path) -> Path:
    """A CA certificate made by openssl (the client needs one to start)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise SystemExit("venue bench: openssl is not installed (Debian: apt-get install openssl)")
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
         "ca.crt", "-days", "1", "-subj", "/CN=bench CA"],
        cwd=directory, check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return directory / "ca.crt"


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def probe(case: str, seconds: float, directory: Path) -> dict[str, object]:
    """Run the table for ``seconds`` in this process with the venue of ``case``; frame times."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from game.arcade.highscores import Entry
    from game.launch import plain_app

    pygame.display.init()
    pygame.font.init()
    app = plain_app(pygame.display.set_mode(SIZE), CODE, audio=False)
    silent = None
    link = None
    if case != "none":
        from game.kiosk.venue_config import VenueConfig
        from game.kiosk.venue_link import join_venue

        (directory / "credentials").write_text("username=bench\npassword=bench\n")
        host, port = "127.0.0.1", _closed_port()
        if case == "unroutable":
            host = "10.255.255.1"
        elif case == "silent":
            silent = socket.socket()
            silent.bind(("127.0.0.1", 0))
            silent.listen(64)  # the kernel takes the connection; nobody ever reads it
            port = silent.getsockname()[1]
        venue = VenueConfig(host, port, "bench", "", "bench", str(directory / "credentials"),
                            str(_ca_file(directory)))  # fmt: skip
        link = join_venue(venue, app.arcade)
        app.hooks.add(link)

    frames: list[float] = []
    at: list[float] = []
    wins = 0
    start = time.perf_counter()
    last_win = start - WIN_EVERY_S + 0.5  # the first win half a second in
    while time.perf_counter() - start < seconds:
        began = time.perf_counter()
        if began - last_win >= WIN_EVERY_S:
            last_win, wins = began, wins + 1
            when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())  # a win, as entered
            app.arcade.scores.add(Entry(CODE, 520, 100.0 + wins, 103, when=when, game=str(wins)))
        app.full_redraw = True
        app.step()
        frames.append((time.perf_counter() - began) * 1000)
        at.append(began - start)
        spare = 1 / 60 - (time.perf_counter() - began)
        if spare > 0:
            time.sleep(spare)
    state = "" if link is None else (link._said or "still connecting")
    if link is not None:
        link.close()
    if silent is not None:
        silent.close()
    later = [ms for ms, t in zip(frames, at, strict=True) if t >= START_S] or [0.0]
    return {
        "case": case,
        "frames": len(frames),
        "start_worst_ms": max(ms for ms, t in zip(frames, at, strict=True) if t < START_S),
        "worst_ms": max(later),
        "p99_ms": sorted(later)[int(0.99 * (len(later) - 1))],
        "median_ms": statistics.median(later),
        "wins": wins,
        "link": state,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m game.dev.bench venue", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--seconds", type=float, default=15.0, help="how long each case runs")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--probe", choices=sorted(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(probe(args.probe, args.seconds, Path(tmp))))
        return 0
    results = []
    for case in CASES:
        ran = subprocess.run(
            [sys.executable, "-m", "game.dev.venuebench", "--probe", case,
             "--seconds", str(args.seconds)],
            capture_output=True, text=True, timeout=args.seconds * 4 + 120, check=False,
        )  # fmt: skip
        if ran.returncode != 0:
            print(ran.stderr, file=sys.stderr)
            return 1
        results.append(json.loads(ran.stdout.strip().splitlines()[-1]))
    base, first = results[0]["worst_ms"], results[0]["start_worst_ms"]
    for result in results:
        result["ratio"] = result["worst_ms"] / base if base else 0.0
        result["start_ratio"] = result["start_worst_ms"] / first if first else 0.0
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"frame wall time in ms at {SIZE[0]}x{SIZE[1]}, {args.seconds:g} s a case, a whole "
          f"redraw each frame, a win every {WIN_EVERY_S:g} s")  # fmt: skip
    print(f"after the first {START_S:g} s:")
    for result in results:
        print(
            f"  {CASES[str(result['case'])]:<36} worst {result['worst_ms']:7.2f}"
            f"  p99 {result['p99_ms']:6.2f}  median {result['median_ms']:6.2f}"
            f"  worst / no venue's {result['ratio']:5.2f}"
        )
    print(f"the first {START_S:g} s (the first draw; with a venue, the client starting beside it):")
    for result in results:
        print(
            f"  {CASES[str(result['case'])]:<36} worst {result['start_worst_ms']:7.2f}"
            f"  worst / no venue's {result['start_ratio']:5.2f}"
            + (f"  (the link: {result['link']})" if result["link"] else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
