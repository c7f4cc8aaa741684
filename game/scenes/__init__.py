"""The scenes over the table, one per module, registered by name so that no scene imports
another: a scene opens the next with ``app.scenes.open("rules")``. A scene's module is
imported when the scene first opens (start-up imports only what the first frame needs: the
table)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from game.scene import Scene, SceneFactory, SceneRegistry

# name -> (module, class): every scene of the game, by its name (``Scene.name``)
SCENES = {
    "table": ("game.table.scene", "TableScene"),
    "newgame": ("game.scenes.newgame", "NewGameScene"),
    "keypad": ("game.scenes.keypad", "KeypadScene"),
    "settings": ("game.scenes.settings", "SettingsScene"),
    "rules": ("game.scenes.rules", "RulesScene"),
    "win": ("game.scenes.win", "WinScene"),
    "stats": ("game.scenes.stats", "StatsScene"),
    "pin": ("game.scenes.pin", "PinScene"),
    "attract": ("game.scenes.attract", "AttractScene"),
    "confirm": ("game.scenes.confirm", "ConfirmScene"),
    "examples": ("game.scenes.examples", "ExamplesScene"),
    "initials": ("game.scenes.initials", "InitialsScene"),
    "operator": ("game.scenes.operator", "OperatorScene"),
    "scores": ("game.scenes.scores", "ScoresScene"),
    "entries": ("game.scenes.entries", "EntriesScene"),
}


class Deferred:
    """Builds the scene class ``module.name``, imported the first time it is built."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def load(self) -> SceneFactory:
        """The scene class itself."""
        return cast("SceneFactory", getattr(importlib.import_module(self.module), self.name))

    def __call__(self, app: object, **kwargs: object) -> Scene:
        return self.load()(app, **kwargs)


def register_scenes(stack: SceneRegistry) -> None:
    """Every scene of the game, by its name, each imported when it first opens."""
    for name, (module, cls) in SCENES.items():
        stack.register(name, Deferred(module, cls))
