"""Shared test setup: no display and no sound, before anything imports pygame."""

import dataclasses
import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


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
    from tablehelp import add_locale_names

    import engine.rules

    extra = dataclasses.replace(engine.rules.SEAHAVEN, variant="C3", cells=3)
    add_locale_names(monkeypatch, SEAHAVEN_3_NAMES)
    with engine.rules.REGISTRY.added(extra):
        yield extra
