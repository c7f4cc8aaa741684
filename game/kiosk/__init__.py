"""The kiosk: operator PIN, idle reset, watchdog notify, metrics, X11 guard, session, the venue's
link to its MQTT broker."""
