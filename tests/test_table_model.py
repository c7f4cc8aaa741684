"""The table's model (game.table.model, issue 41 item 1): the table's state in one place,
loaded without pygame, so its rules of play can be read and tested without a screen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_table_model_loads_without_pygame():
    code = "import sys, game.table.model; print(sorted(m for m in sys.modules if 'pygame' in m))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout
