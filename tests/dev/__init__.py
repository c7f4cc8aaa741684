"""The developers' tools (game/dev/): the scripted player, the soak, the start-up bench."""
