"""Drawing: cards and court figures, fonts, widgets, line breaks, layout, display, keypad."""
