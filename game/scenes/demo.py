"""A table scene's host that is not the App: the attract screen's and the Examples page's own
tables play on it. It lends the real settings, language, clock and workers; the table's reports
reach no listener and the scenes it opens (the win screen) are never shown, so a demo never
touches the visitor's game or the saves."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.clock import FixedClock
from game.games import Games
from game.hooks import Hooks
from game.i18n import Translator
from game.input import GestureReader
from game.prefs import PlayerSettings
from game.scene import Offstage, SceneStack
from game.workers import Workers

if TYPE_CHECKING:
    from game.app import App
    from game.kiosk_ui import KioskController


class DemoApp:
    """The App as the attract screen's own table sees it: the real screen, settings, language
    and workers, but its reports reach no listener and the scenes it opens (the win screen)
    are never shown, so the demo never touches the visitor's game or the saves."""

    def __init__(self, app: App) -> None:
        self._app = app
        self.hooks = Hooks()
        self.scenes: SceneStack = Offstage(app)
        self.kiosk: KioskController | None = None  # no saves, so no failed-save mark
        self.buttons_are_pictures = True  # its table's buttons do nothing: drawn flat

    @property
    def reader(self) -> GestureReader:
        return self._app.reader

    @property
    def screen(self) -> pygame.Surface:
        return self._app.screen

    @property
    def px_per_mm(self) -> float:
        return self._app.px_per_mm

    @property
    def settings(self) -> PlayerSettings:
        return self._app.settings

    @property
    def tr(self) -> Translator:
        return self._app.tr

    @property
    def workers(self) -> Workers:
        return self._app.workers

    @property
    def games(self) -> Games:
        return self._app.games

    @property
    def clock(self) -> FixedClock:
        return self._app.clock
