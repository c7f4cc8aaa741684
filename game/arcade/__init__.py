"""The arcade: daily and all-time high scores, initials, the court figures."""
