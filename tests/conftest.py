"""Shared test setup: no display and no sound, before anything imports pygame; each test's
tier (unit, app, process, system: pyproject.toml's markers, docs/development.md); the
randomised tests' profile (tests/helpers/profiles.py); the fixtures many files share."""

import dataclasses
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.helpers.profiles  # noqa: F401 (loads the Hypothesis profile: fast or full)

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# The code's and the tests' bytecode is kept (in __pycache__, which git ignores) even where
# PYTHONDONTWRITEBYTECODE is set: without it every pytest process, each pytest-xdist worker and
# each worker process a test starts compiles the code and rewrites the tests' asserts anew
# (about 4 s of CPU per process). What the tests check is the same either way.
sys.dont_write_bytecode = False


TIER_NAMES = ("unit", "app", "process", "system")


def tiers_of(node: pytest.Item | pytest.Collector) -> list[str]:
    """The tier markers ``node`` carries itself (a file's ``pytestmark``, a class's or a test's
    decorator), not those it has from the nodes around it."""
    return sorted({mark.name for mark in node.own_markers if mark.name in TIER_NAMES})


def tier_of(item: pytest.Item) -> str:
    """The item's tier: the nearest one declared, its own (of the test or its class) before its
    file's. The engine's docstring examples (--doctest-modules on engine/) are unit tests. A
    test file declares its tier near its top (``pytestmark = pytest.mark.app``, or a list with
    it); a file without one, or a file, class or test with two, is refused (UsageError)."""
    if isinstance(item, pytest.DoctestItem):
        return "unit"
    module = item.getparent(pytest.Module)
    if module is None or not tiers_of(module):
        where = (
            item.path.relative_to(Path.cwd()) if item.path.is_relative_to(Path.cwd()) else item.path
        )
        raise pytest.UsageError(
            f"{where} has no tier: add `pytestmark = pytest.mark.unit` (or app, process, "
            "system: pyproject.toml's markers) near its top"
        )
    found = ""
    for node in item.listchain():  # the session first, the test itself last: the nearest wins
        tiers = tiers_of(node)
        if len(tiers) > 1:
            raise pytest.UsageError(f"{node.nodeid} has more than one tier: {tiers}; keep one")
        found = tiers[0] if tiers else found
    return found


@pytest.hookimpl(tryfirst=True)  # before -m deselects: every collected test needs a tier
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test keeps its one tier (so that ``-m unit`` leaves out a file's process test)."""
    chosen = [tier_of(item) for item in items]
    for item, tier in zip(items, chosen, strict=True):
        for node in item.listchain():
            node.own_markers[:] = [m for m in node.own_markers if m.name not in TIER_NAMES]
        item.add_marker(tier)


@pytest.fixture(scope="session")
def amd64_deb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """kiosk/build-deb.sh's amd64 package (about 15 s to build), built once for the package and
    the fleet tests, alone in its directory. Read only: a test that changes a package changes a
    copy of it."""
    from tests.helpers.debroot import built

    return built("amd64", tmp_path_factory.mktemp("amd64") / "dist")


SEAHAVEN_3_NAMES = {
    "variant.SH1-C3": "3 (Medium+)",
    "stats.SH1-C3": "Seahaven Towers, 3 free cells",
}


@pytest.fixture
def seahaven_3(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """A rule set added in data only (issue 11, item 2): Seahaven Towers with 3 free cells,
    one ``replace(...)`` registered for this test (engine.rules.REGISTRY.added: its codes
    parse; gone after the test) and its locale keys (``variant.SH1-C3``, ``stats.SH1-C3``) in
    every locale. Everything that lists rule sets reads the registry, so a test taking this fixture
    finds the new rule set in the new-game menu, the statistics and config validation (the
    last is tested with the config's own tests: take this fixture there). Returns the Rules."""
    import engine.rules
    from tests.helpers.tablehelp import add_locale_names

    extra = dataclasses.replace(engine.rules.SEAHAVEN, variant="C3", cells=3)
    add_locale_names(monkeypatch, SEAHAVEN_3_NAMES)
    with engine.rules.REGISTRY.added(extra):
        yield extra
