"""``python -m game.dev.bench venue`` (game.dev.venuebench) runs its four cases and reports each
(the worst frame while the venue's broker cannot be reached, beside no venue). Its figures depend
on the machine and are not asserted; what is asserted is that the link kept trying without the
run stopping, and that every case measured frames."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_the_venue_bench_measures_every_case() -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "game.dev.bench", "venue", "--seconds", "2", "--json"],
        capture_output=True, text=True, timeout=300, cwd=REPO, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    results = {result["case"]: result for result in json.loads(ran.stdout)}
    assert list(results) == ["none", "closed", "unroutable", "silent"]
    assert results["none"]["link"] == ""
    for case in ("closed", "unroutable", "silent"):
        assert results[case]["link"].startswith(("cannot reach the broker", "still connecting"))
    for result in results.values():
        assert result["frames"] > 60 and result["wins"] >= 1
        assert result["worst_ms"] >= result["p99_ms"] >= result["median_ms"] > 0
