#!/bin/sh
# Start the game on the Linux console with SDL's kmsdrm driver (used by solitaire-kiosk.service).
# SDL_KMSDRM_DEVICE_INDEX set by the operator (e.g. in a drop-in) is kept; otherwise the card of
# the connected panel is picked, and with no screen connected it waits for one
# (game.kiosk.display_wait) instead of starting a game that cannot open a display. Extra
# arguments go to main.py.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
app=$(dirname "$here")
if [ -z "${SDL_KMSDRM_DEVICE_INDEX:-}" ]; then
    drm=${SOLITAIRE_DRM_SYSFS:-/sys/class/drm}
    if index=$("$here/pick-drm-card.sh" "$drm"); then
        export SDL_KMSDRM_DEVICE_INDEX="$index"
        echo "solitaire-kiosk: using /dev/dri/card$index" >&2
    else
        # No screen: the game could only fail and be restarted (a crash) every 2 s. Wait for
        # one instead (one line, a metric, checks that back off), then run this again.
        cd "$app"
        exec "$app/.venv/bin/python" -B -m game.kiosk.display_wait "$drm" \
            "$here/pick-drm-card.sh" "$here/run-kmsdrm.sh" "$@"
    fi
fi
export SDL_VIDEODRIVER="${SDL_VIDEODRIVER:-kmsdrm}"
exec "$app/.venv/bin/python" "$app/main.py" "$@"
