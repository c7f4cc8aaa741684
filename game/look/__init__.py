"""Drawing: cards, fonts, widgets, text setting, layout, display, keypad."""
