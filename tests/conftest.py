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

TESTS = Path(__file__).resolve().parent

# The tier of each test file's tests, by its path under tests/ (its folder says what it tests, as
# the code's folders do; its tier how it runs). A test that needs more than its file (a subprocess
# in a file of in-process tests) carries its own marker, e.g. ``@pytest.mark.process``, which wins.
# The engine's docstring examples (--doctest-modules on engine/) are unit tests.
TIERS = {
    "arcade/test_any_level.py": "app",
    "arcade/test_arcade.py": "app",
    "arcade/test_attract_one_game.py": "unit",
    "arcade/test_blocked_initials.py": "unit",
    "arcade/test_clock_ahead.py": "unit",
    "arcade/test_entries_list.py": "app",
    "arcade/test_highscore_levels.py": "app",
    "arcade/test_highscores.py": "unit",
    "arcade/test_newgame_scores.py": "unit",
    "arcade/test_score_pages.py": "app",
    "arcade/test_screens_arcade.py": "app",
    "arcade/test_win_panel.py": "app",
    "arcade/test_win_restart.py": "unit",
    "arcade/test_venue_board.py": "unit",
    "arcade/test_venue_screens.py": "app",
    "arcade/test_win_seen.py": "unit",
    "deploy/test_cage_e2e.py": "system",
    "deploy/test_console_setup.py": "process",
    "deploy/test_deb.py": "system",
    "deploy/test_deb_fleet.py": "system",
    "deploy/test_deb_operator.py": "system",
    "deploy/test_display_wait.py": "process",
    "deploy/test_fleet_report.py": "system",
    "deploy/test_fleet_venue.py": "system",
    "deploy/test_install.py": "system",
    "deploy/test_kiosk_alerts.py": "system",
    "deploy/test_kiosk_unit.py": "process",
    "dev/test_script.py": "process",
    "dev/test_soak.py": "unit",
    "dev/test_startbench.py": "system",
    "dev/test_venuebench.py": "process",
    "engine/test_catalog.py": "unit",
    "engine/test_cli.py": "unit",
    "engine/test_daily.py": "unit",
    "engine/test_deals.py": "unit",
    "engine/test_finish.py": "unit",
    "engine/test_game.py": "unit",
    "engine/test_levels.py": "unit",
    "engine/test_move_core.py": "unit",
    "engine/test_properties.py": "unit",
    "engine/test_russian.py": "unit",
    "engine/test_seahaven.py": "unit",
    "engine/test_solver.py": "unit",
    "game/test_config.py": "unit",
    "game/test_config_hostile.py": "app",
    "game/test_e2e_xvfb.py": "system",
    "game/test_input.py": "app",
    "game/test_logs.py": "unit",
    "game/test_new_rule_set.py": "app",
    "game/test_rulesets.py": "app",
    "game/test_scene.py": "app",
    "game/test_seams.py": "app",
    "game/test_sound.py": "app",
    "game/test_sound_play.py": "app",
    "game/test_wiring.py": "app",
    "hints/test_hint_lost_deal.py": "app",
    "hints/test_hints.py": "unit",
    "hints/test_indicator_findable.py": "app",
    "hints/test_indicator_states.py": "app",
    "i18n/test_i18n.py": "unit",
    "i18n/test_language.py": "app",
    "i18n/test_line_breaks.py": "app",
    "i18n/test_locales.py": "app",
    "i18n/test_native_reading.py": "app",
    "i18n/test_text_fit.py": "app",
    "i18n/test_text_size.py": "app",
    "i18n/test_wording.py": "unit",
    "kiosk/test_idle_unlocked.py": "process",
    "kiosk/test_kiosk_app.py": "app",
    "kiosk/test_kiosk_flag.py": "app",
    "kiosk/test_kiosk_flows.py": "process",
    "kiosk/test_kiosk_models.py": "app",
    "kiosk/test_kiosk_process.py": "process",
    "kiosk/test_metrics.py": "app",
    "kiosk/test_next_visitor.py": "app",
    "kiosk/test_pin_file.py": "unit",
    "kiosk/test_rest.py": "unit",
    "kiosk/test_venue_broker.py": "system",
    "kiosk/test_venue_form.py": "unit",
    "kiosk/test_venue_script.py": "system",
    "kiosk/test_visitor_settings.py": "app",
    "kiosk/test_watchdog.py": "unit",
    "look/test_card_art.py": "app",
    "look/test_covered_mark.py": "app",
    "look/test_display.py": "app",
    "look/test_fans.py": "app",
    "look/test_finish_look.py": "app",
    "look/test_grid.py": "unit",
    "look/test_layout.py": "app",
    "look/test_layout_json.py": "app",
    "look/test_layout_title.py": "app",
    "look/test_long_column.py": "app",
    "look/test_message_room.py": "app",
    "look/test_screens_finish.py": "app",
    "look/test_screenshots.py": "app",
    "look/test_seahaven_layout.py": "app",
    "look/test_sprite_layer.py": "app",
    "look/test_touch_layout.py": "app",
    "project/test_docs.py": "unit",
    "project/test_private_clone.py": "system",
    "project/test_readme_commands.py": "unit",
    "project/test_tiers.py": "unit",
    "project/test_typecheck.py": "unit",
    "saves/test_autosave.py": "unit",
    "saves/test_defensive_reads.py": "app",
    "saves/test_durable_saves.py": "unit",
    "saves/test_hostile_files.py": "process",
    "saves/test_session.py": "unit",
    "saves/test_state_hostile.py": "app",
    "saves/test_stats.py": "unit",
    "saves/test_storage.py": "unit",
    "saves/test_workers_and_window.py": "app",
    "scenes/test_dialog_fit.py": "app",
    "scenes/test_examples.py": "app",
    "scenes/test_portrait_dialogs.py": "app",
    "scenes/test_rules_screen.py": "app",
    "scenes/test_settings_help.py": "app",
    "scenes/test_sound_settings.py": "app",
    "table/test_column_hold.py": "app",
    "table/test_finish_button.py": "app",
    "table/test_finish_certain.py": "app",
    "table/test_first_time.py": "app",
    "table/test_flow.py": "app",
    "table/test_move_path.py": "app",
    "table/test_one_tap.py": "app",
    "table/test_play_time.py": "app",
    "table/test_refusal_words.py": "app",
    "table/test_refuse.py": "app",
    "table/test_table.py": "app",
    "table/test_table_bugs.py": "app",
    "table/test_table_model.py": "unit",
    "table/test_tap_answer.py": "app",
    "table/test_tap_to_place.py": "app",
    "table/test_touch_pick.py": "app",
    "table/test_undo_redo.py": "app",
}


def tier_of(item: pytest.Item) -> str | None:
    """The item's tier: its own marker (of the test or its class), else its file's, else
    None. An item with two tier markers of its own is refused (UsageError)."""
    own = {mark.name for mark in item.iter_markers() if mark.name in TIER_NAMES}
    if len(own) > 1:
        raise pytest.UsageError(f"{item.nodeid} has more than one tier: {sorted(own)}")
    if own:
        return own.pop()
    if isinstance(item, pytest.DoctestItem):
        return "unit"
    path = Path(str(item.path)).resolve()
    if not path.is_relative_to(TESTS):
        return None
    return TIERS.get(path.relative_to(TESTS).as_posix())


@pytest.hookimpl(tryfirst=True)  # before -m deselects: every collected test needs a tier
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    untiered = sorted({str(item.path) for item in items if tier_of(item) is None})
    if untiered:
        raise pytest.UsageError(
            "test files without a tier (add them to TIERS in tests/conftest.py): "
            + ", ".join(untiered)
        )
    for item in items:
        tier = tier_of(item)
        if tier not in {mark.name for mark in item.iter_markers()}:
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
