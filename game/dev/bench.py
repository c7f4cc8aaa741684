"""Rendering cost of the table, headless: ``python -m game.dev.bench [--json]``.

At 800x480 and 1920x1080 it plays a scripted game and measures the CPU time of whole frames
(events, update, draw, display update) while the table is idle, while a group is dragged and
while moves glide, next to a naive full redraw of the same scene (felt, every card, buttons and
bar painted again each frame) measured in the same run. It also measures the time from starting
a fresh Python process to the first frame on screen, and the loop at rest (game.dev.restbench): its
wake-ups a second, its share of a core, and how soon the first press shows. Run it with a
display (``DISPLAY`` set, e.g. under Xvfb) for the figures of a real X window; without one the
rest figures are the dummy driver's.

``python -m game.dev.bench startup`` times the launch to a mapped window and to its first frame
instead, beside Aisleriot's, under an Xvfb of its own (game.dev.startbench); ``python -m
game.dev.bench venue`` the worst frame while the venue's broker cannot be reached
(game.dev.venuebench).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from game.dev import restbench

# The rest figures want a real window when there is a display; the frame costs never do.
REST_DRIVER = os.environ.get("SDL_VIDEODRIVER") or ("x11" if os.environ.get("DISPLAY") else "dummy")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

SIZES = ((800, 480), (1920, 1080))
CODE = "RU1-C-AAAAABB"
# A game in progress with long columns (found by playing legal moves).
MOVES = (
    "AC-t7 4D-t3 3D-t3 AS-t4 3C-t1 QC-t3 TC-t5 2C-t1 TH-t7 7S-t2 9C-t5 9H-t7 8H-t7 8S-t7 "
    "KC-t2 5D-t6 8D-t4 JH-t7 AD-f 5H-t3"
)
FRAMES = 240


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def _timed(frame: Callable[[], None], count: int) -> list[float]:
    out = []
    for _ in range(count):
        start = time.thread_time()
        frame()
        out.append((time.thread_time() - start) * 1000)
    return out


def measure(size: tuple[int, int], frames: int = FRAMES) -> dict[str, float]:
    import pygame

    from engine import Game, Move
    from game.launch import plain_app
    from game.saves.prefs import PlayerSettings

    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size)
    game = Game.from_code(CODE)
    for text in MOVES.split():
        game.play(text)
    app = plain_app(screen, settings=PlayerSettings(locale="en"), game=game)
    table = app.table
    table.art.warm()

    def frame(events: list[pygame.event.Event] | None = None) -> None:
        rects = app.step(events or [])
        if rects:
            pygame.display.update(rects)

    for _ in range(10):
        frame()

    # Idle: a settled table.
    idle = _timed(frame, frames)

    # Dragging: a group picked up from the longest column and moved around.
    col = max(range(len(game.cols)), key=lambda i: len(game.cols[i]) - game.down[i])
    card = game.cols[col][game.down[col] + 1]
    rect = table.model.card_rect(card)
    start = (rect.centerx, rect.top + 5)
    frame([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1)])
    step = [0]

    def drag_frame() -> None:
        step[0] += 1
        t = step[0]
        pos = (
            start[0] + int(size[0] * 0.3 * abs(((t / 90) % 2) - 1)) - int(size[0] * 0.15),
            start[1] + int(size[1] * 0.2 * abs(((t / 70) % 2) - 1)),
        )
        event = pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(1, 0, 0))
        frame([event])

    drag_frame()
    drag = _timed(drag_frame, frames)

    # The naive full redraw of the same scene (the drag in progress), for comparison.
    def naive_frame() -> None:
        # Every frame the whole screen again: felt and buttons, every card, the moving group.
        # (Images stay cached, as any sane full-redraw loop keeps them.)
        view = table.view
        assert view is not None
        view.repaint_all()
        view.draw(screen, True)
        pygame.display.update()

    full = _timed(naive_frame, frames)
    frame([pygame.event.Event(pygame.MOUSEBUTTONUP, pos=start, button=1)])
    for _ in range(30):
        frame()

    # Animating: moves glide and undo glides them back, one after another.
    legal = [m for m in game.legal_moves() if not game.is_pointless(m)]
    move: Move = legal[0]
    counter = [0]

    def animate_frame() -> None:
        if not table.model.tweens:
            counter[0] += 1
            if counter[0] % 2:
                table.model.make_move(move)
            else:
                table.model.undo()
        frame()

    animate = _timed(animate_frame, frames)
    pygame.display.quit()
    full_ms = statistics.median(full)
    result = {
        "full_ms": full_ms,
        "idle_ms": statistics.median(idle),
        "drag_ms": statistics.median(drag),
        "animate_ms": statistics.median(animate),
        "drag_p99_ms": _percentile(drag, 0.99),
        "full_p99_ms": _percentile(full, 0.99),
        "animate_p99_ms": _percentile(animate, 0.99),
    }
    for key in ("idle", "drag", "animate"):
        result[f"{key}_ratio"] = result[f"{key}_ms"] / full_ms if full_ms else 0.0
    return result


def startup_seconds(runs: int = 3) -> float:
    """Wall time from launching a fresh interpreter to the first frame drawn: the median of
    ``runs``, with the bytecode compiled beforehand as the Debian package's postinst does
    (compileall; the service then runs with PYTHONDONTWRITEBYTECODE=1). Compiling every module
    from source instead costs about 0.2 s more, which a kiosk never pays."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    times = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)  # the repository stays clean
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for k in range(runs + 1):  # the first run compiles and writes the bytecode
            start = time.perf_counter()
            child = subprocess.run(
                [sys.executable, "-m", "game.dev.bench", "--first-frame"],
                capture_output=True,
                text=True,
                check=True,
                cwd=root,
                env=env,
            )
            if "frame" not in child.stdout:
                raise RuntimeError(f"the probe drew no frame: {child.stdout!r} {child.stderr!r}")
            if k:
                times.append(time.perf_counter() - start)
            env["PYTHONDONTWRITEBYTECODE"] = "1"
    return statistics.median(times)


def first_frame() -> None:
    import pygame

    from game.launch import plain_app
    from game.saves.prefs import PlayerSettings

    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((800, 480))
    app = plain_app(screen, CODE, settings=PlayerSettings(locale="en"))
    pygame.display.update(app.draw())
    print("frame", flush=True)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["startup"]:  # launch to a mapped window, beside Aisleriot's
        from game.dev import startbench

        return startbench.main(argv[1:])
    if argv[:1] == ["venue"]:  # the frame loop while the venue's broker cannot be reached
        from game.dev import venuebench

        return venuebench.main(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--frames", type=int, default=FRAMES, help="frames per measurement")
    parser.add_argument(
        "--rest-seconds", type=float, default=10.0, help="how long the resting loop is watched"
    )
    parser.add_argument("--first-frame", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--rest-probe", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.first_frame:
        first_frame()
        return 0
    if args.rest_probe is not None:
        restbench.probe(args.rest_probe)
        return 0
    if args.frames < 10:
        parser.error("--frames must be at least 10")
    report: dict[str, object] = {}
    for size in SIZES:
        report[f"{size[0]}x{size[1]}"] = measure(size, args.frames)
    startup = min(startup_seconds() for _ in range(3))
    report["startup_s"] = startup
    report["rest"] = restbench.rest_figures(args.rest_seconds, REST_DRIVER)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print("CPU time per frame in ms (median, p99), next to a naive full redraw of the same scene")
    for size in SIZES:
        key = f"{size[0]}x{size[1]}"
        r = report[key]
        assert isinstance(r, dict)
        print(f"{key}:")
        print(f"  full redraw {r['full_ms']:7.3f}  p99 {r['full_p99_ms']:7.3f}")
        for name in ("idle", "drag", "animate"):
            p99 = r.get(f"{name}_p99_ms")
            tail = f"  p99 {p99:7.3f}" if p99 is not None else ""
            print(
                f"  {name:<11} {r[f'{name}_ms']:7.3f}{tail}"
                f"  = {100 * r[f'{name}_ratio']:5.1f}% of full"
            )
    print(f"start to first frame: {startup:.3f} s")
    rest = report["rest"]
    assert isinstance(rest, dict)
    print(f"at rest, {restbench.SIZE[0]}x{restbench.SIZE[1]} ({rest['driver']} driver):")
    print(f"  wake-ups a second {rest['rest_wakeups_per_s']:7.1f}")
    print(f"  CPU, % of a core  {rest['rest_cpu_percent']:7.2f}")
    print(f"  first press shown {rest['first_input_ms']:7.1f} ms after it came")
    return 0


if __name__ == "__main__":
    sys.exit(main())
