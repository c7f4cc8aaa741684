"""The repository itself: its docs, kiosk/README.md's commands, the test tiers, the types mypy
checks, a private checkout."""
