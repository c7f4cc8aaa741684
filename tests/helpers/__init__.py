"""What the tests share: the table driven headless (tablehelp), the kiosk's fixtures (kioskhelp),
positions built by hand (enginehelp), the throw-away Debian roots (debroot), kiosk/README.md's
commands (readme_commands) and the game in a real window (xvfb_harness)."""
