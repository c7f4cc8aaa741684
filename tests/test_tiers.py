"""Every test has a tier (unit, app, process, system), so that a bare pytest runs the fast ones
and ./test.sh all of them; a test file without one stops the run at collection."""

import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from conftest import TIER_NAMES, TIERS

ROOT = Path(__file__).resolve().parent.parent


def test_every_test_file_has_a_tier_and_every_tier_a_file() -> None:
    files = {path.name for path in (ROOT / "tests").glob("test_*.py")}
    assert files - TIERS.keys() == set(), "add these files to TIERS in tests/conftest.py"
    assert TIERS.keys() - files == set(), "these files in TIERS are gone"
    assert set(TIERS.values()) <= set(TIER_NAMES)


def test_the_tiers_are_the_markers_pyproject_declares_and_a_bare_run_skips_the_slow_two() -> None:
    pytest_options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "pytest"
    ]["ini_options"]
    declared = [line.split(":")[0] for line in pytest_options["markers"]]
    assert declared == list(TIER_NAMES)
    assert "-m 'not process and not system'" in pytest_options["addopts"]
    assert "--strict-markers" in pytest_options["addopts"]
    # python-chess's habit: the engine's >>> examples run with every pytest run (unit tier)
    assert "--doctest-modules" in pytest_options["addopts"]
    assert "engine" in pytest_options["testpaths"]


@pytest.mark.process
def test_a_test_file_without_a_tier_stops_the_run(tmp_path: Path) -> None:
    """Collection fails naming the file, before any test runs, even one -m would leave out."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "conftest.py").write_text(
        (ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tests / "test_game.py").write_text("def test_tiered():\n    pass\n")
    (tests / "test_new_thing.py").write_text("def test_untiered():\n    pass\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-m", "system", "tests"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0
    assert "test_new_thing.py" in run.stdout + run.stderr
    assert "test_game.py" not in (run.stdout + run.stderr).split("without a tier")[1]
    (tests / "test_new_thing.py").unlink()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
