"""The scenes over the table, one per module, registered by name so that no scene imports
another: a scene opens the next with ``app.scenes.open("rules")``."""

from __future__ import annotations

from game.scene import SceneRegistry


def register_scenes(stack: SceneRegistry) -> None:
    """Every scene of the game, by its name (``Scene.name``)."""
    from game.scenes.attract import AttractScene
    from game.scenes.confirm import ConfirmScene
    from game.scenes.entries import EntriesScene
    from game.scenes.examples import ExamplesScene
    from game.scenes.initials import InitialsScene
    from game.scenes.keypad import KeypadScene
    from game.scenes.newgame import NewGameScene
    from game.scenes.operator import OperatorScene
    from game.scenes.pin import PinScene
    from game.scenes.rules import RulesScene
    from game.scenes.scores import ScoresScene
    from game.scenes.settings import SettingsScene
    from game.scenes.stats import StatsScene
    from game.scenes.win import WinScene
    from game.table import TableScene

    for scene in (
        TableScene,
        NewGameScene,
        KeypadScene,
        SettingsScene,
        RulesScene,
        WinScene,
        StatsScene,
        PinScene,
        AttractScene,
        ConfirmScene,
        ExamplesScene,
        InitialsScene,
        OperatorScene,
        ScoresScene,
        EntriesScene,
    ):
        stack.register(scene.name, scene)
