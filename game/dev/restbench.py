"""The loop at rest, for ``python -m game.dev.bench``: a real App loop (``App.run``) in a window of
800x480 that nobody touches, measured from outside over a few seconds through /proc (Linux):
wake-ups a second (context switches of all its threads) and the share of one core it uses;
then a few presses on a card, each from rest (real X input events through XTest under X11),
and the median time from a press to the frame that shows it (the pressed card lifts). Run it
in a real X session (or Xvfb) for the figures that matter; with SDL's dummy driver it
measures the loop alone.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from game.kiosk.wake import FakePointer

SIZE = (800, 480)
CODE = "RU1-C-AAAAABB"
SETTLE_S = 2.0  # before counting: the first frames, fonts, the first toast
PRESSES = 5  # presses timed after the rest, each from rest; the median is reported
PRESS_EVERY_S = 1.5


def _counters(pid: int) -> tuple[int, float]:
    """Context switches of every thread of ``pid``, and its CPU seconds so far."""
    switches = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "status").read_text()
        except OSError:
            continue  # a thread that just ended
        for line in text.splitlines():
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                switches += int(line.split()[1])
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return switches, (int(fields[11]) + int(fields[12])) / ticks


def rest_figures(seconds: float = 10.0, driver: str = "dummy") -> dict[str, float | str]:
    """Start the probe on SDL's ``driver``, count its wake-ups and CPU time over ``seconds``
    at rest, then read the latency of one press it measures itself."""
    root = Path(__file__).resolve().parents[2]
    probe = subprocess.Popen(
        [sys.executable, "-m", "game.dev.bench", "--rest-probe", str(SETTLE_S + seconds)],
        cwd=root,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "SDL_VIDEODRIVER": driver},
    )
    assert probe.stdout is not None
    try:
        driver = probe.stdout.readline().split()[-1]  # "ready <driver>"
        time.sleep(SETTLE_S)
        switches, cpu = _counters(probe.pid)
        start = time.perf_counter()
        time.sleep(seconds)
        switches2, cpu2 = _counters(probe.pid)
        spent = time.perf_counter() - start
        latency = float(probe.stdout.readline().split()[-1])  # "latency <ms>" (median)
    finally:
        probe.wait(timeout=30)
    return {
        "driver": driver,
        "rest_wakeups_per_s": (switches2 - switches) / spent,
        "rest_cpu_percent": 100 * (cpu2 - cpu) / spent,
        "first_input_ms": latency,
    }


def probe(seconds: float) -> None:
    """The measured side: the App's own loop; after ``seconds`` a few presses on a card from
    rest, each timed to the frame that shows it; then quit and print their median."""
    import pygame

    from game.launch import plain_app
    from game.saves.prefs import PlayerSettings

    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(SIZE)
    app = plain_app(screen, CODE, settings=PlayerSettings(locale="en"), audio=False)
    table = app.table
    card = table.model.game.cols[0][-1]
    pos = table.model.card_rect(card).center
    posted: list[float] = []
    shown: list[float] = []
    present = app.presenter.present

    def timed_present(rects: list[pygame.Rect]) -> None:
        present(rects)
        if len(shown) < len(posted) and table.model.pressed_card == card:
            shown.append(time.perf_counter())

    app.presenter.present = timed_present  # type: ignore[method-assign]
    x11 = pygame.display.get_driver() == "x11"
    window = int(pygame.display.get_wm_info().get("window", 0)) if x11 else 0

    def press_later() -> None:
        pointer = FakePointer() if x11 else None
        if pointer is not None:
            pointer.move(pos, window)  # the pointer is there first: only the press is timed
        time.sleep(seconds)
        for _ in range(PRESSES):
            posted.append(time.perf_counter())
            if pointer is not None:  # a real input event through the X server, as a finger's
                pointer.button(True)
            else:
                pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
            time.sleep(0.2)
            if pointer is not None:
                pointer.button(False)
            else:
                pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
            time.sleep(PRESS_EVERY_S)  # at rest again (the tap's answer has played)
        if pointer is not None:
            pointer.close()
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    print("ready", pygame.display.get_driver(), flush=True)
    threading.Thread(target=press_later, daemon=True).start()
    app.run()
    waits = [(s - p) * 1000 for p, s in zip(posted, shown, strict=False)]
    latency = statistics.median(waits) if waits else float("nan")
    print(f"latency {latency:.2f}", flush=True)
