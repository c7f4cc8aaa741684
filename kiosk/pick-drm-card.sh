#!/bin/sh
# Print the number N of the DRM card (/dev/dri/cardN) that drives the panel, for
# SDL_KMSDRM_DEVICE_INDEX. On a Pi 5 the number of the DSI panel's card can change between boots.
# Prefers a DSI connector that is not "disconnected" (some panels report "unknown"), then any
# "connected" connector (HDMI); prints nothing and exits 1 when there is none (SDL then picks).
# Usage: pick-drm-card.sh [DRM_SYSFS_DIR]   (default /sys/class/drm)
set -u
drm=${1:-/sys/class/drm}

# pick CONNECTOR_PREFIX ACCEPTED_STATUS...
pick() {
    prefix=$1
    shift
    for status_file in "$drm"/card*-"$prefix"*/status; do
        [ -r "$status_file" ] || continue
        status=$(cat "$status_file" 2>/dev/null) || continue
        for accepted in "$@"; do
            if [ "$status" = "$accepted" ]; then
                name=${status_file#"$drm"/card}
                echo "${name%%-*}"
                return 0
            fi
        done
    done
    return 1
}

pick DSI- connected unknown || pick "" connected
