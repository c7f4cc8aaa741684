#!/bin/sh
# Start the game on the Linux console with SDL's kmsdrm driver (used by solitaire-kiosk.service).
# SDL_KMSDRM_DEVICE_INDEX set by the operator (e.g. in a drop-in) is kept; otherwise the card of
# the connected panel is picked. Extra arguments go to main.py.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
app=$(dirname "$here")
if [ -z "${SDL_KMSDRM_DEVICE_INDEX:-}" ]; then
    if index=$("$here/pick-drm-card.sh" "${SOLITAIRE_DRM_SYSFS:-/sys/class/drm}"); then
        export SDL_KMSDRM_DEVICE_INDEX="$index"
        echo "solitaire-kiosk: using /dev/dri/card$index" >&2
    else
        echo "solitaire-kiosk: no connected display found in /sys/class/drm; SDL picks" >&2
    fi
fi
export SDL_VIDEODRIVER="${SDL_VIDEODRIVER:-kmsdrm}"
exec "$app/.venv/bin/python" "$app/main.py" "$@"
