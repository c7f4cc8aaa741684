"""The kiosk (game/kiosk/): the lock, idle and the next visitor, metrics, the watchdog, the PIN,
main.py as systemd runs it."""
