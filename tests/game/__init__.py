"""The modules at game/'s root: wiring, scenes and seams, input, sound, config, logs, rule sets, the
game in a real window."""
