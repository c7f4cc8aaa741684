"""Every test has a tier (unit, app, process, system), so that a bare pytest runs the fast ones
and ./test.sh all of them; a test file declares its own (``pytestmark``), and one without a
tier, or with two, stops the run at collection."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from tests.conftest import TIER_NAMES

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
MAX_FOLDER = 20  # modules in one folder (__init__.py aside), as for the code's folders


def declared_tiers(path: Path) -> list[str]:
    """The tiers a test file's ``pytestmark`` names (assigned in it, or imported from the test
    file whose fixtures and marks it shares)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "pytestmark" for target in node.targets
        ):
            marks = node.value.elts if isinstance(node.value, ast.List) else [node.value]
            return [
                mark.attr
                for mark in marks
                if isinstance(mark, ast.Attribute) and mark.attr in TIER_NAMES
            ]
        if isinstance(node, ast.ImportFrom) and any(a.name == "pytestmark" for a in node.names):
            assert node.module is not None
            return declared_tiers(ROOT.joinpath(*node.module.split(".")).with_suffix(".py"))
    return []


def test_every_test_file_declares_one_tier_near_its_top() -> None:
    """The tier is in the file itself (no list elsewhere to keep in step): a new file is refused
    until it names one (test_a_test_file_without_a_tier_stops_the_run)."""
    files = sorted(TESTS.rglob("test_*.py"))
    assert len(files) > 100
    wrong = {
        path.relative_to(TESTS).as_posix(): tiers
        for path in files
        if len(tiers := declared_tiers(path)) != 1
    }
    assert not wrong, f"test files without exactly one tier in their pytestmark: {wrong}"


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


def run_pytest(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # its fixtures reach the game's code
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", *args, "tests"],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.process
def test_a_test_file_without_a_tier_stops_the_run(tmp_path: Path) -> None:
    """Collection fails naming the file and what to add, before any test runs, even one -m
    would leave out; so does a file with two tiers. A test's own tier wins over its file's,
    and -m then finds it under its own tier alone."""
    tests = tmp_path / "tests"
    for folder in ("", "engine", "helpers"):
        (tests / folder).mkdir(exist_ok=True)
        (tests / folder / "__init__.py").write_text("")
    for shared in ("conftest.py", "helpers/profiles.py"):  # the setup conftest.py imports
        (tests / shared).write_text((TESTS / shared).read_text(encoding="utf-8"), encoding="utf-8")
    head = "import pytest\n\npytestmark = {}\n\n"
    (tests / "engine" / "test_game.py").write_text(
        head.format("pytest.mark.unit")
        + "def test_quick():\n    pass\n\n"
        + "@pytest.mark.process\ndef test_with_a_subprocess():\n    pass\n"
    )
    new = tests / "engine" / "test_new_thing.py"
    new.write_text("def test_untiered():\n    pass\n")
    run = run_pytest(tmp_path, "-m", "system")
    assert run.returncode != 0
    said = run.stdout + run.stderr
    assert "engine/test_new_thing.py has no tier" in said
    assert "add `pytestmark = pytest.mark.unit` (or app, process, system" in said
    new.write_text(head.format("[pytest.mark.unit, pytest.mark.app]") + "def test_x():\n    pass\n")
    run = run_pytest(tmp_path)
    assert run.returncode != 0
    assert "test_new_thing.py has more than one tier: ['app', 'unit']" in run.stdout + run.stderr
    new.unlink()
    run = run_pytest(tmp_path, "-m", "unit", "--collect-only", "-q")  # not the process test
    assert run.returncode == 0, run.stdout + run.stderr
    assert "test_quick" in run.stdout and run.stdout.count("::test_") == 1, run.stdout


def test_a_bare_run_is_fast_and_parallel_and_test_sh_runs_everything_in_full() -> None:
    """A bare pytest: every core (pytest-xdist) and the fast profile of the randomised tests;
    ./test.sh: every tier in the full profile (every example each test asks for), over three
    workers, a file whole in one worker; one process when given a test to run."""
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
    assert len(runs) == 2, runs
    given, whole = runs
    assert '-m "" -n 0 "$@"' in given  # one file or test: one process, for --pdb and -x
    assert '-m "" -n 3 --dist loadfile' in whole and whole.endswith(" tests engine")
