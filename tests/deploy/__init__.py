"""The kiosk on a machine (kiosk/): units and scripts, install.sh, the Debian package, the fleet
playbook and report, alert rules, the cage path."""
