#!/bin/sh
# ExecStopPost= of the kiosk units: systemd's word on how the game's run ended ($SERVICE_RESULT:
# success, exit-code, signal, core-dump, timeout, watchdog, ...; $EXIT_CODE, $EXIT_STATUS) goes
# to last-exit in the state directory. The game reads it once at its next start and counts a
# watchdog restart or a crash (game.kiosk.runs; the metrics show both). A game frozen by a hung loop
# cannot tell this itself: systemd's watchdog killed it. Never fails the stop.
set -u
dir=${STATE_DIRECTORY:-/var/lib/solitaire-kiosk}
dir=${dir%%:*}
tmp="$dir/.last-exit.tmp"
if ! { printf 'SERVICE_RESULT=%s\nEXIT_CODE=%s\nEXIT_STATUS=%s\n' \
    "${SERVICE_RESULT:-}" "${EXIT_CODE:-}" "${EXIT_STATUS:-}" >"$tmp" &&
    mv -f "$tmp" "$dir/last-exit"; } 2>/dev/null; then
    rm -f "$tmp" 2>/dev/null
    echo "record-exit.sh: cannot write $dir/last-exit (the next start counts no crash)" >&2
fi
exit 0
