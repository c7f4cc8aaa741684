"""A table scene's host that is not the App: the attract screen's and the Examples page's own
tables play on it. It lends the real settings, language, clock and workers; the table's reports
reach no listener and the scenes it opens (the win screen) are never shown, so a demo never
touches the visitor's game or the saves."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.hooks import Hooks
from game.scene import Offstage

if TYPE_CHECKING:
    from game.arcade import Arcade
    from game.clock import FixedClock
    from game.games import Games
    from game.host import Host
    from game.i18n import Translator
    from game.input import GestureReader
    from game.prefs import PlayerSettings
    from game.workers import Workers


class DemoHost:
    """A :class:`game.host.Host` for the attract screen's own table: the real screen, settings,
    language and workers, but its reports reach no listener and the scenes it opens (the win
    screen) are never shown, so the demo never touches the visitor's game or the saves."""

    def __init__(self, host: Host) -> None:
        self._host = host
        self.hooks = Hooks()
        self.scenes = Offstage(self)
        self.save_failed = False  # no saves, so no failed-save mark
        self.buttons_are_pictures = True  # its table's buttons do nothing: drawn flat

    @property
    def least_text(self) -> int:
        return 0  # the layout's own sizes (the Examples page's host asks for more)

    def redraw(self) -> None:
        self._host.redraw()

    @property
    def reader(self) -> GestureReader:
        return self._host.reader

    @property
    def screen(self) -> pygame.Surface:
        return self._host.screen

    @property
    def px_per_mm(self) -> float:
        return self._host.px_per_mm

    @property
    def settings(self) -> PlayerSettings:
        return self._host.settings

    @property
    def tr(self) -> Translator:
        return self._host.tr

    @property
    def workers(self) -> Workers:
        return self._host.workers

    @property
    def games(self) -> Games:
        return self._host.games

    @property
    def clock(self) -> FixedClock:
        return self._host.clock

    @property
    def arcade(self) -> Arcade:
        return self._host.arcade
