"""The arcade: the day's deal, daily and all-time high scores, initials."""
