"""The dialogs and screens of game/scenes/: rules, examples, settings, their sizes."""
