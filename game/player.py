"""The player's settings while the game runs: the toggles, the sound and the language
(game.saves.prefs' PlayerSettings), changed in one place and saved by whoever owns the state
directory (launch: prefs.save_prefs). Must not import pygame."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from game.saves.prefs import PlayerSettings

log = logging.getLogger("solitaire.prefs")


class Preferences:
    def __init__(
        self,
        settings: PlayerSettings | None = None,
        save: Callable[[PlayerSettings], object] | None = None,
    ) -> None:
        self._settings = settings if settings is not None else PlayerSettings()
        self._save = save
        # Told of every new value, however it came (a switch, the next visitor's reset, a
        # script's --set): the App's sounds follow the sound settings this way.
        self.listeners: list[Callable[[PlayerSettings], object]] = []

    @property
    def settings(self) -> PlayerSettings:
        return self._settings

    @settings.setter
    def settings(self, value: PlayerSettings) -> None:
        self._settings = value
        for listener in list(self.listeners):
            listener(value)

    def change(self, name: str, value: Any) -> None:
        """Set one setting and save them all; a disk that cannot take it keeps the change
        for this session (and the log says why)."""
        self.settings = replace(self.settings, **{name: value})
        if self._save is not None:
            try:
                self._save(self.settings)
            except Exception as error:  # a read-only disk must not end a game
                log.warning("cannot save settings: %r", error)
