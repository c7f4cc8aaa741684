"""A table scene's host that is not the App: the attract screen's and the Examples page's own
tables play on it. It lends the real settings, language, clock and workers; the table's reports
reach no listener and the scenes it opens (the win screen) are never shown, so a demo never
touches the visitor's game or the saves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.hooks import Hooks
from game.scene import Offstage

if TYPE_CHECKING:
    from game.host import Host


class DemoHost:
    """A :class:`game.host.Host` for a demo's own table: what differs from its host is here
    (its own hooks, which reach no listener; a stack that shows nothing; no saves, so no
    failed-save mark); everything else is its host's, looked up there when asked, so a new
    Host member needs no line here."""

    def __init__(self, host: Host) -> None:
        self._host = host
        self.hooks = Hooks()
        self.scenes = Offstage(self)
        self.save_failed = False

    def __getattr__(self, name: str) -> Any:
        """The host's screen, settings, language, clock, reader, games, workers, high
        scores and redraw (only what this class does not have itself comes here)."""
        if name.startswith("__"):  # copy, pickle and the like ask for these: not a host's
            raise AttributeError(name)
        return getattr(self._host, name)
