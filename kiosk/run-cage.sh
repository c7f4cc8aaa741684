#!/bin/sh
# Start the game inside the cage Wayland kiosk compositor (used by solitaire-kiosk-cage.service).
# cage's own exit status does not carry the game's on every cage version, so the game's status is
# passed back through a file: the operator's exit (64) then stops systemd from restarting.
# CAGE_ARGS adds options for cage, e.g. "-r" (rotate, cage 0.1.4 only) from a drop-in.
set -u
here=$(cd "$(dirname "$0")" && pwd)
status_file="${STATE_DIRECTORY:-${XDG_RUNTIME_DIR:-/tmp}}/.game-exit-status"
export SOLITAIRE_EXIT_STATUS_FILE="$status_file"
rm -f "$status_file"
# systemd's watchdog (WatchdogSec=) is meant for the main process, this script: the game, cage's
# child, keeps it (without WATCHDOG_PID the one that reads WATCHDOG_USEC sends WATCHDOG=1).
unset WATCHDOG_PID
# shellcheck disable=SC2086 # CAGE_ARGS is a list of options
cage ${CAGE_ARGS:-} -- "$here/run-wayland.sh" "$@"
rc=$?
if [ -r "$status_file" ]; then
    rc=$(cat "$status_file")
    rm -f "$status_file"
fi
exit "$rc"
