"""The arcade (game/arcade/): today's deal, levels, high scores, initials, the win panel, the
attract screen."""
