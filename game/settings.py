"""The player's toggles, kept across restarts in a small JSON file in the state directory.

The shipped, commented config.toml stays read-only: its [defaults] only give the starting
values; what a player changes on screen goes to ``settings.json``.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

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
    env = os.environ.get("SOLITAIRE_STATE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "solitaire-kiosk"


class SettingsStore:
    """Load and save :class:`Settings` atomically (temp file, fsync, replace)."""

    def __init__(self, path: Path | None, defaults: Settings | None = None) -> None:
        self.path = path
        self.defaults = defaults or Settings()
        self.problems: list[str] = []

    def load(self) -> Settings:
        if self.path is None or not self.path.exists():
            return replace(self.defaults)
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            self.problems = [f"{self.path}: {error}; using the defaults"]
            return replace(self.defaults)
        settings, self.problems = Settings.from_dict(data, self.defaults)
        return settings

    def save(self, settings: Settings) -> bool:
        if self.path is None:
            return False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".settings-", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(settings.to_dict(), f, indent=1)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError as error:
            self.problems = [f"cannot save settings to {self.path}: {error}"]
            return False
        return True
