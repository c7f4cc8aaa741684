"""Shared test setup: no display and no sound, before anything imports pygame; each test's
tier (unit, app, process, system: pyproject.toml's markers, docs/development.md); the
randomised tests' profile (tests/helpers/profiles.py); and what every App would work out anew,
worked out once per test process by the real code (the shipped locale files, the felt, the card
art, the daily deals' order: docs/development.md, "Tests")."""

import contextlib
import dataclasses
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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


USERS = ("game.app", "game.table.chrome")  # the modules that draw the table (imported lazily)


def stand_in(name: str, real: object, instead: object, only: str | None = None) -> Iterator[None]:
    """``instead`` in place of ``real`` under ``name`` for the session: in module ``only``, or
    else in every module of the game that imported it (not where it is defined, so a test that
    imports it from there gets the real one); nothing where no module holds it any more (a
    refactor then costs speed, never a test)."""
    import importlib

    for user in USERS:  # imported now, so that the modules that take ``name`` are loaded
        with contextlib.suppress(ImportError):
            importlib.import_module(user)
    home = getattr(real, "__module__", None)
    held = [
        module
        for module in list(sys.modules.values())
        if getattr(module, "__name__", "").startswith(("game.", "engine."))
        and (module.__name__ == only if only else module.__name__ != home)
        and getattr(module, name, None) is real
    ]
    for module in held:
        setattr(module, name, instead)
    yield
    for module in held:
        setattr(module, name, real)


@pytest.fixture(scope="session", autouse=True)
def shipped_locales_parsed_once() -> Iterator[None]:
    """Every App builds a Translator, which reads and parses its locale files (about 13 ms
    each, a tenth of the app tier's time). Here the shipped files (assets/locales/) are parsed
    once per test process and each later call gets a copy of what the real load_catalog
    returned, as long as the file is unchanged (same size and modification time). A catalog
    from another directory, a changed file or one that did not load (empty) always goes
    through the real reader; the tests that import load_catalog call the real one too."""
    import game.i18n

    real: Callable[..., Any] = game.i18n.load_catalog
    shipped = Path(game.i18n.LOCALE_DIR).resolve()
    parsed: dict[tuple[Path, int, int], dict[str, Any]] = {}

    def load_catalog(locale: str, directory: Path | None = None) -> Any:
        folder = Path(game.i18n.LOCALE_DIR if directory is None else directory).resolve()
        path = folder / f"{locale}.toml"
        try:
            seen = path.stat()
        except OSError:
            return real(locale, directory)
        if folder != shipped or not path.is_file():
            return real(locale, directory)
        key = (path, seen.st_mtime_ns, seen.st_size)
        if key not in parsed:
            catalog = real(locale, directory)
            if not catalog:
                return catalog
            parsed[key] = catalog
        return dict(parsed[key])

    yield from stand_in("load_catalog", real, load_catalog, only="game.i18n")


@pytest.fixture(scope="session", autouse=True)
def felt_drawn_once_per_size() -> Iterator[None]:
    """The table's felt (game.look.cards.felt: a gradient worked out pixel by pixel in Python,
    scaled and converted, about 7 ms) depends on its size and the display's pixel format
    alone, and every App draws it again. Here the table's chrome gets a copy of the felt drawn
    the first time for that size and format; the felt itself is drawn by the real function."""
    import pygame

    import game.look.cards

    real: Callable[[tuple[int, int]], pygame.Surface] = game.look.cards.felt
    drawn: dict[tuple[object, ...], pygame.Surface] = {}

    def felt(size: tuple[int, int]) -> pygame.Surface:
        display = pygame.display.get_surface() if pygame.display.get_init() else None
        shape = (display.get_bitsize(), display.get_masks()) if display else None
        key = (tuple(size), shape)
        if key not in drawn:
            drawn[key] = real(size)
        return drawn[key].copy()

    yield from stand_in("felt", real, felt)  # where the table imported it


SHARED_ARTS = 12  # card sets kept for the next App of the same size (about 10 MB each at most)


@pytest.fixture(scope="session", autouse=True)
def card_art_shared_by_size() -> Iterator[None]:
    """Every App's table makes a CardArt (game.look.cards) and draws each card it shows anew
    (a third of a millisecond a face); the art depends only on the card size, the language's
    rank letters, the index scale, the four-colour setting, the font files and the display's
    pixel format. Here an App's table gets the CardArt the last Apps of the same kind drew
    (the 12 latest kinds are kept); a CardArt a test makes itself is its own, and a test that
    points the fonts elsewhere (a damaged font) or puts its own pygame.font.Font in place gets
    a fresh one."""
    from collections import OrderedDict

    import pygame

    import game.look.cards
    from game.look import fonts

    real = game.look.cards.CardArt
    kept: OrderedDict[tuple[object, ...], game.look.cards.CardArt] = OrderedDict()

    def font_files() -> tuple[object, ...]:
        seen: list[object] = []
        for path in (fonts.FONT_REGULAR, fonts.FONT_BOLD):
            try:
                stat = Path(path).stat()
                seen.append((str(path), stat.st_mtime_ns, stat.st_size))
            except OSError:
                seen.append((str(path), None))
        return tuple(seen)

    def card_art(
        width: int,
        height: int,
        ranks: tuple[str, ...] | None = None,
        *,
        index_scale: float = 1.0,
        four_colors: bool = False,
    ) -> game.look.cards.CardArt:
        display = pygame.display.get_surface() if pygame.display.get_init() else None
        shape = (display.get_bitsize(), display.get_masks()) if display else None
        fonts_used = (font_files(), pygame.font.Font)  # a test may note what the fonts draw
        key = (width, height, ranks, index_scale, four_colors, fonts_used, shape)
        if key not in kept:
            kept[key] = real(width, height, ranks, index_scale=index_scale, four_colors=four_colors)
            while len(kept) > SHARED_ARTS:
                kept.popitem(last=False)
        kept.move_to_end(key)
        return kept[key]

    yield from stand_in("CardArt", real, card_art)  # not in game.look.cards: a test's own


@pytest.fixture(scope="session", autouse=True)
def daily_orders_worked_out_once() -> Iterator[None]:
    """engine.daily._order (a cycle's order of the catalog's deals: a seeded shuffle of a few
    hundred positions, about half a millisecond) is a pure function of its three arguments, and
    every App, today's-deal title and new-game dialog asks for it again, twice a day asked.
    Here each order is worked out once per test process by the real function and every caller
    gets a copy of it (schedule_index swaps two of its places)."""
    import engine.daily

    real: Callable[[str, int, int], list[int]] = engine.daily._order
    worked_out: dict[tuple[str, int, int], list[int]] = {}

    def order(rules_key: str, cycle: int, n: int) -> list[int]:
        key = (rules_key, cycle, n)
        if key not in worked_out:
            worked_out[key] = real(rules_key, cycle, n)
        return list(worked_out[key])

    yield from stand_in("_order", real, order, only="engine.daily")
