"""What the screen shows (game/look/, the table's view): layouts at every size, fans, card art,
messages, the layout report, screenshots."""
