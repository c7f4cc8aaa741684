"""Sound in the settings screen: the switch starts and stops the sound, the volume steps set how
loud, both are kept across a restart like the other player settings and go back to the
operator's choice for the next kiosk visitor; the controls fit every screen and language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.app import App
from game.config import config_from_dict, hash_pin
from game.i18n import LOCALES
from game.launch import open_run
from game.look.switches import tap_point
from game.look.ui import Control
from game.saves.prefs import PlayerSettings, load_prefs, save_prefs
from game.saves.storage import settings_store
from game.scenes.settings import MIN_ROW_MM, TOGGLES, VOLUMES, SettingsScene
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)
from tests.helpers.tablehelp import Finger, make_app

pytestmark = pytest.mark.app

SIZES = [(800, 480), (720, 1280), (1920, 1080)]


@pytest.fixture(autouse=True)
def no_mixer() -> Iterator[None]:
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()
    pygame.display.quit()


def open_settings(app: App) -> tuple[Finger, SettingsScene]:
    finger = Finger(app)
    finger.tap(finger.button("settings"))
    scene = app.scenes.top
    assert isinstance(scene, SettingsScene)
    return finger, scene


def control(app: App, name: str) -> Control:
    scene = app.scenes.top
    assert isinstance(scene, SettingsScene)
    return next(c for c in scene.controls if c.name == name)


def tap(finger: Finger, name: str) -> None:
    finger.tap(tap_point(control(finger.app, name)))  # a toggle: on its switch
    finger.settle()


def lit(app: App) -> list[str]:
    """The volume steps drawn lit, quiet to loud."""
    names = [f"volume_{round(v * 100)}" for v in VOLUMES]
    return [name for name in names if control(app, name).selected]


def test_switching_sound_on_starts_it_and_the_volume_is_applied(tmp_path: Path) -> None:
    app = make_app(state_dir=tmp_path)
    assert app.settings.sound is False and pygame.mixer.get_init() is None
    finger, _ = open_settings(app)
    assert not control(app, "volume_100").enabled  # sound off: the steps are dimmed and still
    tap(finger, "volume_100")
    assert app.settings.volume == 0.6
    tap(finger, "sound")
    assert app.settings.sound and app.sounds.audible and pygame.mixer.get_init() is not None
    assert control(app, "sound").selected and control(app, "volume_100").enabled
    assert lit(app) == ["volume_20", "volume_40", "volume_60"]
    tap(finger, "volume_100")
    assert app.settings.volume == 1.0 and app.sounds.volume == 1.0
    assert app.sounds.sound("place").get_volume() == pytest.approx(1.0, abs=0.01)
    assert len(lit(app)) == 5
    tap(finger, "volume_20")
    assert app.sounds.sound("win").get_volume() == pytest.approx(0.2, abs=0.01)
    assert lit(app) == ["volume_20"]
    saved = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))["data"]
    assert saved["sound"] is True and saved["volume"] == 0.2
    tap(finger, "sound")  # off again: the mixer this game started stops
    assert not app.sounds.audible and pygame.mixer.get_init() is None
    assert app.settings.volume == 0.2  # kept for when sound comes back


def test_sound_and_volume_are_kept_across_a_restart(tmp_path: Path) -> None:
    app = make_app(state_dir=tmp_path)
    finger, _ = open_settings(app)
    tap(finger, "sound")
    tap(finger, "volume_80")
    app.close()
    assert pygame.mixer.get_init() is None  # closed on quit
    pygame.display.quit()
    again = make_app(state_dir=tmp_path)
    assert (again.settings.sound, again.settings.volume) == (True, 0.8)
    assert again.sounds.audible and again.sounds.volume == 0.8
    open_settings(again)
    assert lit(again) == ["volume_20", "volume_40", "volume_60", "volume_80"]


def test_a_damaged_saved_volume_falls_back_to_the_operators(tmp_path: Path) -> None:
    assert settings_store(tmp_path).save({"sound": True, "volume": 7})
    app = make_app(state_dir=tmp_path)
    assert app.settings.sound is True and app.settings.volume == 0.6


def test_the_next_kiosk_visitor_gets_the_operators_sound(tmp_path: Path) -> None:
    """Sound off in the operator's config: a visitor turns it on; the idle fresh deal turns it
    off again (and stops the mixer), like the other settings."""
    pin = hash_pin("246813", iterations=100_000)
    kiosk = {"lock": True, "operator_pin_hash": pin, "idle_attract_minutes": 0}
    config, problems = config_from_dict({"kiosk": {**kiosk, "idle_new_game_minutes": 0.1}})
    assert problems == [] and config.sound.enabled is False
    run = open_run(config, tmp_path, crash_hook=False, logging_on=False)
    app = make_app(
        settings=load_prefs(config, tmp_path),
        run=run,
        save_settings=lambda s: save_prefs(s, config, tmp_path),
    )
    finger, _ = open_settings(app)
    tap(finger, "sound")
    tap(finger, "volume_100")
    assert app.sounds.audible and app.sounds.volume == 1.0
    finger.tap(finger.control(app.tr("dialog.close")))
    game = app.table.model.game
    game.play(game.legal_moves()[0])
    run.session.moved(game, game.move_stack[-1])
    for _ in range(8):  # past the 6 s idle timeout: a fresh deal for the next visitor
        app.update(1.0, clamp=False)
        app.draw()
    assert app.table.model.game is not game
    assert (app.settings.sound, app.settings.volume) == (False, 0.6)
    assert not app.sounds.enabled and pygame.mixer.get_init() is None
    assert app.sounds.volume == 0.6


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_sound_controls_are_touch_targets_like_the_others(
    size: tuple[int, int], locale: str
) -> None:
    app = make_app(size=size, settings=PlayerSettings(locale=locale, sound=True))
    _, scene = open_settings(app)
    panel = scene.panel
    steps = [control(app, f"volume_{round(v * 100)}") for v in VOLUMES]
    switch = control(app, "sound")
    language = [c for c in scene.controls if c.label in {app.tr(f"language.{x}") for x in LOCALES}]
    others = [c for c in scene.controls if c.kind == "switch" and c.name != "sound"]
    assert len(language) == 3 and len(others) == len(TOGGLES) - 1
    assert switch.rect.height >= min(o.rect.height for o in others)  # (a row fits its help)
    for step in steps:
        assert panel.contains(step.rect)
        assert step.rect.height >= language[0].rect.height - 1  # as tall as the language row
        assert min(step.rect.size) >= MIN_ROW_MM * app.px_per_mm  # a finger hits each step
    everything = [c.rect for c in scene.controls if c.action or c.kind in ("label", "speaker")]
    for i, rect in enumerate(everything):  # nothing overlaps anything else
        assert panel.contains(rect)
        assert not any(rect.colliderect(other) for other in everything[i + 1 :])
