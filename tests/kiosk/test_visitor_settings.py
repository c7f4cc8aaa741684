"""Kiosk visitors: what one visitor changes on screen (toggles, language) is gone for the next
one (idle fresh deal, restart); a home desktop keeps it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.config import Config, config_from_dict, hash_pin
from game.launch import LaunchOptions, open_app, open_run
from game.saves.prefs import PlayerSettings, load_prefs, save_prefs
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

PIN_HASH = hash_pin("246813", iterations=100_000)


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


def config_of(lock: bool, keep: bool | None = None) -> Config:
    kiosk: dict[str, object] = {"lock": lock, "operator_pin_hash": PIN_HASH}
    if keep is not None:
        kiosk["keep_visitor_settings"] = keep
    config, problems = config_from_dict(
        {"game": {"locale": "fi"}, "defaults": {"placement_help": True}, "kiosk": kiosk}
    )
    assert problems == []
    return config


def visitor_changes(config: Config, state: Path) -> None:
    changed = PlayerSettings.from_config(config)
    changed = PlayerSettings(**{**changed.to_dict(), "placement_help": False, "locale": "en"})
    assert save_prefs(changed, config, state)


@pytest.mark.parametrize(
    ("lock", "keep", "kept"),
    [(True, None, False), (True, True, True), (False, None, True), (False, False, True)],
)
def test_a_restart_brings_back_the_operators_choice_in_kiosk_mode(
    tmp_path: Path, lock: bool, keep: bool | None, kept: bool
) -> None:
    config = config_of(lock, keep)
    visitor_changes(config, tmp_path)
    settings = load_prefs(config, tmp_path)
    if kept:
        assert (settings.locale, settings.placement_help) == ("en", False)
    else:
        assert settings == PlayerSettings.from_config(config)
        assert (settings.locale, settings.placement_help) == ("fi", True)
        assert not (tmp_path / "settings.json").exists()


@pytest.mark.parametrize(("lock", "keep"), [(True, None), (True, True)])
def test_the_idle_fresh_deal_gives_the_next_visitor_the_defaults(
    tmp_path: Path, lock: bool, keep: bool | None
) -> None:
    config = config_from_dict(
        {
            "game": {"locale": "fi"},
            "kiosk": {
                "lock": lock,
                "operator_pin_hash": PIN_HASH,
                "idle_attract_minutes": 0,
                "idle_new_game_minutes": 0.1,
                **({} if keep is None else {"keep_visitor_settings": keep}),
            },
        }
    )[0]
    run = open_run(config, tmp_path, crash_hook=False, logging_on=False)
    app = make_app(
        settings=load_prefs(config, tmp_path),
        run=run,
        save_settings=lambda s: save_prefs(s, config, tmp_path),
    )
    app.set_locale("en")
    app.prefs.change("placement_help", False)
    assert (tmp_path / "settings.json").exists()
    game = app.table.model.game
    game.play(game.legal_moves()[0])  # a game in progress: the idle timeout deals afresh
    run.session.moved(game, game.move_stack[-1])
    for _ in range(8):  # 8 x 1 s of no input: past the 6 s timeout
        app.update(1.0, clamp=False)
        app.draw()
    assert app.table.model.game is not game  # the fresh deal happened
    if keep:
        assert (app.settings.locale, app.settings.placement_help) == ("en", False)
        assert app.tr.locale == "en"
    else:
        assert app.settings == PlayerSettings.from_config(config)
        assert app.tr.locale == "fi"
        assert not (tmp_path / "settings.json").exists()


def test_a_screenshot_run_leaves_the_saved_settings_alone(tmp_path: Path) -> None:
    """`main.py --screenshot` opens the App without persistence: in kiosk mode it shows the
    operator's defaults but must not delete what is on disk (it changes no state)."""
    config = config_of(lock=True)
    visitor_changes(config, tmp_path)
    toml = tmp_path / "config.toml"
    toml.write_text(
        f'[game]\nlocale = "fi"\n[kiosk]\nlock = true\noperator_pin_hash = "{PIN_HASH}"\n'
    )
    app = open_app(LaunchOptions(config=toml, size=(800, 480), state_dir=tmp_path, persist=False))
    assert app.settings.locale == "fi"  # the operator's choice on screen
    assert (tmp_path / "settings.json").exists()  # the file untouched
