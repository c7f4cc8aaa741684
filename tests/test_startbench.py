"""The start-up benchmark (``python -m game.dev.bench startup``): under an Xvfb of its own it times
this game's launch to a mapped window beside a bare pygame window's and Aisleriot's."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb"),
]


def test_the_startup_benchmark_times_each_window_side_by_side() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "game.dev.bench", "startup", "--runs", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr
    rows = {
        name.strip(): [float(x) for x in figures.split()]
        for name, figures in re.findall(
            r"^([a-z ]+?) +(\d+\.\d{3} +\d+\.\d{3} +\d+\.\d{3})$", run.stdout, re.M
        )
    }
    aisleriot = shutil.which("sol") or shutil.which("/usr/games/sol")
    programs = {"solitaire", "bare pygame"} | ({"aisleriot"} if aisleriot else set())
    if not aisleriot:
        assert "Aisleriot is not installed" in run.stdout
    assert set(rows) == programs, run.stdout
    for name, (median, fastest, slowest) in rows.items():
        # A window did show (no timeout), within seconds, and the figures are in order.
        assert 0 < fastest <= median <= slowest < 20, (name, run.stdout)
