"""Every test has a tier (unit, app, process, system), so that a bare pytest runs the fast ones
and ./test.sh all of them; a test file without one stops the run at collection."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from tests.conftest import TIER_NAMES, TIERS

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
MAX_FOLDER = 20  # modules in one folder (__init__.py aside), as for the code's folders


def test_every_test_file_has_a_tier_and_every_tier_a_file() -> None:
    """Keyed by the path under tests/ (``table/test_table.py``), so a file moved to another
    folder is named again."""
    files = {path.relative_to(TESTS).as_posix() for path in TESTS.rglob("test_*.py")}
    assert files - TIERS.keys() == set(), "add these files to TIERS in tests/conftest.py"
    assert TIERS.keys() - files == set(), "these files in TIERS are gone"
    assert set(TIERS.values()) <= set(TIER_NAMES)


def test_the_tests_are_in_folders_of_at_most_20_modules_as_the_code_is() -> None:
    """tests/ itself holds only the shared setup; every test file is in a folder named for
    what it tests, and no folder is a room of more than 20 modules."""
    assert sorted(path.name for path in TESTS.glob("*.py")) == ["__init__.py", "conftest.py"]
    crowded = {
        folder.name: count
        for folder in TESTS.iterdir()
        if folder.is_dir()
        and (count := len([p for p in folder.glob("*.py") if p.name != "__init__.py"])) > MAX_FOLDER
    }
    assert not crowded, f"folders of tests/ with more than {MAX_FOLDER} modules: {crowded}"


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
    for folder in ("", "engine", "table", "helpers"):
        (tests / folder).mkdir(exist_ok=True)
        (tests / folder / "__init__.py").write_text("")
    for shared in ("conftest.py", "helpers/profiles.py"):  # the setup conftest.py imports
        (tests / shared).write_text((TESTS / shared).read_text(encoding="utf-8"), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # its fixtures reach the game's code
    (tests / "engine" / "test_game.py").write_text("def test_tiered():\n    pass\n")
    # TIERS names engine/test_game.py, not a file of that name in another folder
    (tests / "table" / "test_game.py").write_text("def test_in_another_folder():\n    pass\n")
    (tests / "engine" / "test_new_thing.py").write_text("def test_untiered():\n    pass\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-m", "system", "tests"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0
    untiered = (run.stdout + run.stderr).split("without a tier")[1]
    assert "test_new_thing.py" in untiered
    assert "table/test_game.py" in untiered
    assert "engine/test_game.py" not in untiered
    (tests / "engine" / "test_new_thing.py").unlink()
    (tests / "table" / "test_game.py").unlink()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_bare_run_is_fast_and_parallel_and_test_sh_runs_the_full_profile_in_one_process() -> None:
    """A bare pytest: every core (pytest-xdist) and the fast profile of the randomised tests;
    ./test.sh: the full profile (every example each test asks for), one process per run."""
    from tests.helpers.profiles import chosen, examples

    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "pytest"
    ]["ini_options"]["addopts"]
    assert "-n auto" in addopts
    assert chosen({}) == "fast" and chosen({"SOLITAIRE_TEST_PROFILE": "full"}) == "full"
    with pytest.raises(ValueError, match="SOLITAIRE_TEST_PROFILE"):
        chosen({"SOLITAIRE_TEST_PROFILE": "ful"})  # a typo never quietly runs the fast one
    assert examples(300) == (300 if chosen() == "full" else 75) and examples(8) == 8
    script = (ROOT / "test.sh").read_text(encoding="utf-8")
    assert "SOLITAIRE_TEST_PROFILE=full" in script
    runs = [line for line in script.splitlines() if "-m pytest" in line]
    assert len(runs) == 3 and all('-m "" -n 0' in line for line in runs)
