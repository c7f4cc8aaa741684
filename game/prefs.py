"""The player's settings: the toggles of the settings menu and the language.

The operator's config.toml gives the defaults ([defaults] and [game] locale); what a player
changes on screen is saved in the state directory (settings.json) and wins over those defaults
from then on. Deleting settings.json returns every kiosk visitor to the operator's defaults.
A damaged settings file only loses the damaged entries. Must not import pygame.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from game.config import LOCALES, Config, DefaultsConfig
from game.storage import settings_store

log = logging.getLogger("solitaire.prefs")


@dataclass(frozen=True)
class PlayerSettings(DefaultsConfig):
    """The toggles (the fields of config's [defaults]) and the language."""

    locale: str = "fi"

    @classmethod
    def from_config(cls, config: Config) -> PlayerSettings:
        """The operator's defaults."""
        return cls(**asdict(config.defaults), locale=config.game.locale)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any, base: PlayerSettings) -> tuple[PlayerSettings, list[str]]:
        """`base` with the valid entries of `data`; each invalid entry is one problem."""
        if not isinstance(data, dict):
            return base, [f"settings are {type(data).__name__}, not an object; using defaults"]
        values: dict[str, Any] = {}
        problems: list[str] = []
        for field in fields(cls):
            if field.name not in data:
                continue
            value = data[field.name]
            if field.name == "locale":
                ok = isinstance(value, str) and value in LOCALES
            else:
                ok = isinstance(value, bool)
            if ok:
                values[field.name] = value
            else:
                problems.append(f"setting {field.name} = {value!r} is invalid; using the default")
        return replace(base, **values), problems


def load_prefs(config: Config, directory: Path | None = None) -> PlayerSettings:
    """The player's settings: the saved ones over the operator's defaults."""
    base = PlayerSettings.from_config(config)
    data = settings_store(directory).load()
    if data is None:
        return base
    settings, problems = PlayerSettings.from_dict(data, base)
    for problem in problems:
        log.warning("%s", problem)
    return settings


def save_prefs(settings: PlayerSettings, config: Config, directory: Path | None = None) -> bool:
    """Save the player's settings durably; False when the disk refused.

    Only the entries that differ from the operator's defaults are written, so a later change of
    a default in config.toml still reaches every setting the players left alone."""
    base = PlayerSettings.from_config(config).to_dict()
    changed = {k: v for k, v in settings.to_dict().items() if base[k] != v}
    return settings_store(directory).save(changed)
