"""Shared test setup: no display and no sound, before anything imports pygame."""

import dataclasses
import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


SEAHAVEN_3_NAMES = {
    "variant.SH1-C3": "3 (Medium+)",
    "stats.SH1-C3": "Seahaven Towers, 3 free cells",
}


@pytest.fixture
def seahaven_3(monkeypatch: pytest.MonkeyPatch) -> object:
    """A rule set added in data only (issue 11, item 2): Seahaven Towers with 3 free cells,
    one ``replace(...)`` in the engine's registry (engine.rules.ALL_RULES, and RULES_BY_KEY so
    that its codes parse) and its locale keys (``variant.SH1-C3``, ``stats.SH1-C3``) in every
    locale. Everything that lists rule sets reads the registry, so a test taking this fixture
    finds the new rule set in the new-game menu, the statistics and config validation (the
    last is tested with the config's own tests: take this fixture there). Returns the Rules."""
    import engine.rules
    import game.i18n

    extra = dataclasses.replace(engine.rules.SEAHAVEN, variant="C3", cells=3)
    monkeypatch.setattr(engine.rules, "ALL_RULES", (*engine.rules.ALL_RULES, extra))
    monkeypatch.setitem(engine.rules.RULES_BY_KEY, extra.key, extra)
    real_load = game.i18n.load_catalog

    def load_catalog(locale: str, directory: object = game.i18n.LOCALE_DIR) -> object:
        catalog = dict(real_load(locale, directory))  # type: ignore[arg-type]
        catalog.update(SEAHAVEN_3_NAMES)
        return catalog

    monkeypatch.setattr(game.i18n, "load_catalog", load_catalog)
    return extra
