"""Shared test setup: no display and no sound, before anything imports pygame; each test's
tier (unit, app, process, system: pyproject.toml's markers, docs/development.md)."""

import dataclasses
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


TIER_NAMES = ("unit", "app", "process", "system")

# The tier of each test file's tests. A test that needs more than its file (a subprocess in a
# file of in-process tests) carries its own marker, e.g. ``@pytest.mark.process``, which wins.
# The engine's docstring examples (--doctest-modules on engine/) are unit tests.
TIERS = {
    "test_any_level.py": "app",
    "test_arcade.py": "app",
    "test_attract_one_game.py": "unit",
    "test_autosave.py": "unit",
    "test_blocked_initials.py": "unit",
    "test_cage_e2e.py": "system",
    "test_card_art.py": "app",
    "test_catalog.py": "unit",
    "test_cli.py": "unit",
    "test_clock_ahead.py": "unit",
    "test_column_hold.py": "app",
    "test_config.py": "unit",
    "test_config_hostile.py": "app",
    "test_console_setup.py": "process",
    "test_covered_mark.py": "app",
    "test_daily.py": "unit",
    "test_deals.py": "unit",
    "test_deb.py": "system",
    "test_deb_fleet.py": "system",
    "test_deb_operator.py": "system",
    "test_defensive_reads.py": "app",
    "test_dialog_fit.py": "app",
    "test_display.py": "app",
    "test_display_wait.py": "process",
    "test_docs.py": "unit",
    "test_durable_saves.py": "unit",
    "test_e2e_xvfb.py": "system",
    "test_entries_list.py": "app",
    "test_examples.py": "app",
    "test_fans.py": "app",
    "test_finish.py": "unit",
    "test_finish_button.py": "app",
    "test_finish_certain.py": "app",
    "test_finish_look.py": "app",
    "test_first_time.py": "app",
    "test_fleet_report.py": "system",
    "test_flow.py": "app",
    "test_game.py": "unit",
    "test_grid.py": "unit",
    "test_highscore_levels.py": "app",
    "test_highscores.py": "unit",
    "test_hint_lost_deal.py": "app",
    "test_hints.py": "unit",
    "test_hostile_files.py": "process",
    "test_i18n.py": "unit",
    "test_idle_unlocked.py": "process",
    "test_indicator_findable.py": "app",
    "test_indicator_states.py": "app",
    "test_input.py": "app",
    "test_install.py": "system",
    "test_kiosk_alerts.py": "system",
    "test_kiosk_app.py": "app",
    "test_kiosk_flag.py": "app",
    "test_kiosk_flows.py": "process",
    "test_kiosk_models.py": "app",
    "test_kiosk_process.py": "process",
    "test_kiosk_unit.py": "process",
    "test_language.py": "app",
    "test_layout.py": "app",
    "test_layout_json.py": "app",
    "test_layout_title.py": "app",
    "test_levels.py": "unit",
    "test_line_breaks.py": "app",
    "test_locales.py": "app",
    "test_logs.py": "unit",
    "test_long_column.py": "app",
    "test_message_room.py": "app",
    "test_metrics.py": "app",
    "test_move_core.py": "unit",
    "test_move_path.py": "app",
    "test_native_reading.py": "app",
    "test_new_rule_set.py": "app",
    "test_newgame_scores.py": "unit",
    "test_next_visitor.py": "app",
    "test_one_tap.py": "app",
    "test_pin_file.py": "unit",
    "test_play_time.py": "app",
    "test_portrait_dialogs.py": "app",
    "test_private_clone.py": "system",
    "test_properties.py": "unit",
    "test_readme_commands.py": "unit",
    "test_refusal_words.py": "app",
    "test_refuse.py": "app",
    "test_rest.py": "unit",
    "test_rules_screen.py": "app",
    "test_rulesets.py": "app",
    "test_russian.py": "unit",
    "test_scene.py": "app",
    "test_score_pages.py": "app",
    "test_screens_arcade.py": "app",
    "test_screens_finish.py": "app",
    "test_screenshots.py": "app",
    "test_script.py": "process",
    "test_seahaven.py": "unit",
    "test_seahaven_layout.py": "app",
    "test_seams.py": "app",
    "test_session.py": "unit",
    "test_settings_help.py": "app",
    "test_soak.py": "unit",
    "test_solver.py": "unit",
    "test_sound.py": "app",
    "test_sound_play.py": "app",
    "test_sound_settings.py": "app",
    "test_sprite_layer.py": "app",
    "test_startbench.py": "system",
    "test_state_hostile.py": "app",
    "test_stats.py": "unit",
    "test_storage.py": "unit",
    "test_table.py": "app",
    "test_table_bugs.py": "app",
    "test_table_model.py": "unit",
    "test_tap_answer.py": "app",
    "test_tap_to_place.py": "app",
    "test_text_fit.py": "app",
    "test_text_size.py": "app",
    "test_tiers.py": "unit",
    "test_touch_layout.py": "app",
    "test_touch_pick.py": "app",
    "test_typecheck.py": "unit",
    "test_undo_redo.py": "app",
    "test_visitor_settings.py": "app",
    "test_watchdog.py": "unit",
    "test_win_panel.py": "app",
    "test_win_restart.py": "unit",
    "test_win_seen.py": "unit",
    "test_wiring.py": "app",
    "test_wording.py": "unit",
    "test_workers_and_window.py": "app",
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
    path = Path(str(item.path))
    return TIERS.get(path.name) if path.parent.name == "tests" else None


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
    from tests.debroot import built

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
    from tablehelp import add_locale_names

    import engine.rules

    extra = dataclasses.replace(engine.rules.SEAHAVEN, variant="C3", cells=3)
    add_locale_names(monkeypatch, SEAHAVEN_3_NAMES)
    with engine.rules.REGISTRY.added(extra):
        yield extra
