"""The scenes over the table, registered by name so that no scene imports another: a scene
opens the next with ``app.scenes.open("rules")``."""

from __future__ import annotations

from game.scene import SceneStack


def register_scenes(stack: SceneStack) -> None:
    """Every scene of the game, by its name."""
    from game import dialogs, kiosk_ui, table

    for scene in (
        table.TableScene,
        dialogs.NewGameScene,
        dialogs.KeypadScene,
        dialogs.SettingsScene,
        dialogs.RulesScene,
        dialogs.WinScene,
        kiosk_ui.StatsScene,
        kiosk_ui.PinScene,
        kiosk_ui.AttractScene,
    ):
        stack.register(scene.name, scene)
