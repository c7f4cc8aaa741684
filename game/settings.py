"""The player's toggles, kept across restarts in a small JSON file in the state directory.

The shipped, commented config.toml stays read-only: its [defaults] only give the starting
values; what a player changes on screen goes to ``settings.json``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from game.storage import JsonStore, state_dir

TOGGLES: tuple[str, ...] = ("double_tap", "placement_help", "interactive_rules", "auto_placement")
SETTINGS_FORMAT = 1


@dataclass(frozen=True)
class Settings:
    double_tap: bool = True
    placement_help: bool = True
    interactive_rules: bool = True
    auto_placement: bool = False
    locale: str = "en"

    def to_dict(self) -> dict[str, Any]:
        return {"format": SETTINGS_FORMAT, **asdict(self)}

    @classmethod
    def from_dict(
        cls, data: object, defaults: Settings | None = None
    ) -> tuple[Settings, list[str]]:
        """Read what is valid in ``data`` over ``defaults``; returns the problems found."""
        base = defaults or cls()
        problems: list[str] = []
        if not isinstance(data, dict):
            return base, [f"settings must be a JSON object, not {type(data).__name__}"]
        values: dict[str, Any] = {}
        for field in fields(cls):
            if field.name not in data:
                continue
            value = data[field.name]
            expected = bool if field.name in TOGGLES else str
            if not isinstance(value, expected):
                problems.append(f"{field.name}: expected {expected.__name__}, got {value!r}")
                continue
            values[field.name] = value
        return replace(base, **values), problems


def default_state_dir() -> Path:
    """The state directory (game.storage.state_dir: systemd's, $SOLITAIRE_STATE_DIR, XDG)."""
    return state_dir()


class SettingsStore:
    """Load and save :class:`Settings` durably (game.storage: atomic, fsynced; a damaged file
    is moved aside and the defaults are used)."""

    def __init__(self, path: Path | None, defaults: Settings | None = None) -> None:
        self.path = path
        self.defaults = defaults or Settings()
        self.problems: list[str] = []
        self._store = JsonStore(path, kind="settings", version=SETTINGS_FORMAT) if path else None

    def load(self) -> Settings:
        data = self._store.load() if self._store is not None else None
        if data is None:
            return replace(self.defaults)
        settings, self.problems = Settings.from_dict(data, self.defaults)
        return settings

    def save(self, settings: Settings) -> bool:
        if self._store is None:
            return False
        if not self._store.save(settings.to_dict()):
            self.problems = [f"cannot save settings to {self.path}"]
            return False
        return True
