"""The language as an operator and a player meet it: config.toml picks it, the settings menu
switches it at once, and the choice survives a restart."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from engine import IllegalMove
from game.app import App
from game.launch import LaunchOptions, open_app
from tests.helpers.tablehelp import Finger

pytestmark = pytest.mark.app


def launch(tmp_path: Path, locale_line: str) -> App:
    config = tmp_path / "config.toml"
    config.write_text(f"[game]\n{locale_line}\n", encoding="utf-8")
    options = LaunchOptions(
        config=config, windowed=True, size=(800, 480), state_dir=tmp_path / "state"
    )
    app = open_app(options)
    app.step()
    return app


def labels(app: App) -> list[str]:
    return [control.label for control in app.scenes.top.controls]  # type: ignore[attr-defined]


def test_config_language_then_switch_on_screen_then_restart(tmp_path: Path) -> None:
    app = launch(tmp_path, 'locale = "ru"')
    assert app.tr.locale == "ru"
    finger = Finger(app)
    finger.tap(finger.button("settings"))
    assert "Настройки" in labels(app)
    finger.tap(finger.control("Suomi"))
    # The open menu and the table speak Finnish at once, without a restart.
    assert app.tr.locale == "fi"
    assert {"Asetukset", "Kaksoisnapautus", "Sijoitusapu"} <= set(labels(app))
    refusal = IllegalMove("wrong_suit", card="7H", target="8C", fits="7C")
    assert "samasta perheestä" in app.tr.refusal(refusal)
    assert app.table.view is not None
    assert app.table.view.chrome.title_text().split("\n")[1].startswith("Sama väri")
    pygame.display.quit()
    # The player's choice outlives a restart and beats the config's default.
    again = launch(tmp_path, 'locale = "ru"')
    assert again.tr.locale == "fi"
    assert again.table.view is not None
    assert again.table.view.chrome.title_text().split("\n")[1].startswith("Sama väri")
    pygame.display.quit()


def test_a_bad_config_language_falls_back_safely(tmp_path: Path) -> None:
    app = launch(tmp_path, 'locale = "de"')
    assert app.tr.locale == "fi"  # the config validator puts back the shipped default
    assert app.tr("buttons.new") != "buttons.new"
    pygame.display.quit()
