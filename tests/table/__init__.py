"""The table (game/table/) as a player uses it: taps, drags, buttons, refusals, undo and redo,
Finish, through the input layer."""
