"""The table's commands are types mypy checks (issue 41): a misspelt button name, way of leaving
a game, deal kind or scene name is an error before the game runs (tests/typecheck/typos.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
TYPOS = ROOT / "tests" / "typecheck" / "typos.py"


def test_mypy_refuses_each_mistyped_command_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mypy import api

    monkeypatch.chdir(ROOT)  # the project's mypy settings (pyproject.toml): strict
    out, err, _ = api.run(["--no-error-summary", str(TYPOS.relative_to(ROOT))])
    assert not err, err
    marked = {
        n
        for n, line in enumerate(TYPOS.read_text(encoding="utf-8").splitlines(), 1)
        if "  # typo" in line
    }
    refused = {int(n) for n in re.findall(r"typos\.py:(\d+): error:", out)}
    assert len(marked) == 9
    assert refused == marked, out
