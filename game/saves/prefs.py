"""The player's settings: the toggles of the settings menu, the sound and the language.

The operator's config.toml gives the defaults ([defaults], [sound] and [game] locale); what a
player changes on screen is saved in the state directory (settings.json) and wins over those
defaults.
In kiosk mode (`lock = true`) that lasts for one visitor: the kiosk going idle (the attract
screen, the idle fresh deal, whether the visitor made a move or not) and every start bring back
the operator's defaults (`reset_visitor_settings`, `load_prefs`), unless the
operator sets `keep_visitor_settings = true` (a home desktop with the lock on). Without the lock
the player's choices are kept. A damaged settings file only loses the damaged entries.
Must not import pygame.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, TypedDict, cast

from game.config import LOCALES, RULES, Config, DefaultsConfig, SoundConfig
from game.saves.storage import settings_store

log = logging.getLogger("solitaire.prefs")


class PrefsDict(TypedDict):
    """``settings.json``'s data (docs/save-format.md): the player's toggles, language and
    sound, as :meth:`PlayerSettings.to_dict` writes them (a file may hold only some)."""

    double_tap: bool
    one_tap: bool
    placement_help: bool
    interactive_rules: bool
    auto_placement: bool
    winnable_indicator: bool
    four_colors: bool
    tap_to_place: bool
    locale: str
    sound: bool
    volume: float


@dataclass(frozen=True)
class PlayerSettings(DefaultsConfig):
    """The toggles (the fields of config's [defaults]), the language and the sound (config's
    [sound]: ``sound`` on/off, ``volume`` 0 .. 1)."""

    locale: str = "fi"
    sound: bool = SoundConfig().enabled
    volume: float = SoundConfig().volume

    @classmethod
    def from_config(cls, config: Config) -> PlayerSettings:
        """The operator's defaults."""
        return cls(
            **asdict(config.defaults),
            locale=config.game.locale,
            sound=config.sound.enabled,
            volume=config.sound.volume,
        )

    def to_dict(self) -> PrefsDict:
        return cast(
            PrefsDict, asdict(self)
        )  # PrefsDict names each field (tests/saves/test_storage)

    @classmethod
    def from_dict(cls, data: object, base: PlayerSettings) -> tuple[PlayerSettings, list[str]]:
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
            elif field.name == "volume":
                ok = RULES["sound"]["volume"].convert(value) is not None
                value = float(value) if ok else value
            else:
                ok = isinstance(value, bool)
            if ok:
                values[field.name] = value
            else:
                problems.append(f"setting {field.name} = {value!r} is invalid; using the default")
        return replace(base, **values), problems


def resets_visitors(config: Config) -> bool:
    """True when each visitor starts from the operator's defaults (the kiosk lock is on and
    keep_visitor_settings is not)."""
    return config.kiosk.lock and not config.kiosk.keep_visitor_settings


def load_prefs(
    config: Config, directory: Path | None = None, *, clear: bool = True
) -> PlayerSettings:
    """The player's settings: the saved ones over the operator's defaults; in kiosk mode the
    operator's defaults alone (a visitor's leftovers are deleted, unless `clear` is False: a
    screenshot or tool run changes no state)."""
    base = PlayerSettings.from_config(config)
    store = settings_store(directory)
    if resets_visitors(config):
        if clear:
            store.clear()
        return base
    loaded = store.load_with(lambda data: PlayerSettings.from_dict(data, base), "the settings")
    if loaded is None:
        return base
    settings, problems = loaded
    for problem in problems:
        log.warning("%s", problem)
    return settings


def reset_visitor_settings(app: Any, config: Config, directory: Path | None = None) -> bool:
    """In kiosk mode, give the next visitor the operator's toggles, sound and language (the
    kiosk going idle calls this); True when it did. `app` is the App (duck-typed: `settings`,
    `prefs`, `set_locale`, `redraw`)."""
    if not resets_visitors(config):
        return False
    base = PlayerSettings.from_config(config)
    locale, changed = app.settings.locale, app.settings != base
    app.prefs.settings = replace(base, locale=locale)  # toggles, sound: game.player.Preferences
    if locale != base.locale:
        app.set_locale(base.locale)  # lays every screen out again
    app.redraw()
    settings_store(directory).clear()
    if changed:
        log.info("idle: the visitor's settings are back to the operator's defaults")
    return True


def save_prefs(settings: PlayerSettings, config: Config, directory: Path | None = None) -> bool:
    """Save the player's settings durably; False when the disk refused.

    Only the entries that differ from the operator's defaults are written, so a later change of
    a default in config.toml still reaches every setting the players left alone."""
    base: dict[str, object] = {**PlayerSettings.from_config(config).to_dict()}
    changed = {k: v for k, v in settings.to_dict().items() if base[k] != v}
    return settings_store(directory).save(changed)
