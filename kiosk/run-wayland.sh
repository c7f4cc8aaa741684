#!/bin/sh
# The game as a Wayland client (started by run-cage.sh inside cage). Without
# SDL_VIDEODRIVER=wayland SDL2 would pick XWayland. Writes the game's exit status to
# $SOLITAIRE_EXIT_STATUS_FILE when set. Extra arguments go to main.py.
#
# SDL's wayland driver can die at start where the compositor offers no usable EGL (a Pi with
# broken GL, a headless wlroots: set_mode segfaults). So a short probe (main.py --probe-video)
# opens a window first; when it fails, or the game itself dies from a signal within its first
# FALLBACK_WINDOW_S seconds, the game runs under XWayland (SDL_VIDEODRIVER=x11) and the reason
# goes to stderr (the journal). The probe gets PROBE_TIMEOUT_S seconds: a probe still running
# then (on a headless wlroots it once spun and ignored SIGTERM) is ended, with SIGKILL 2 s later
# if need be, and the game runs under XWayland too. An operator's SDL_VIDEODRIVER is used as
# given, without probe.
# Under XWayland the game opens a plain window (--windowed), which cage fills to the screen:
# SDL's X11 fullscreen (a mode switch emulated by XWayland) showed only black under cage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
app=$(dirname "$here")
python="$app/.venv/bin/python"
FALLBACK_WINDOW_S=${FALLBACK_WINDOW_S:-10}
PROBE_TIMEOUT_S=${PROBE_TIMEOUT_S:-15}

say() { echo "solitaire-kiosk: $*" >&2; }

# why STATUS: an exit status in words.
why() {
    if [ "$1" -gt 128 ]; then
        echo "killed by signal $(($1 - 128))$(kill -l "$(($1 - 128))" 2>/dev/null | sed 's/^/ SIG/')"
    else
        echo "exit status $1"
    fi
}

if [ -n "${SDL_VIDEODRIVER:-}" ]; then
    driver=$SDL_VIDEODRIVER
    probe=0
else
    driver=wayland
    probe=1
fi
if [ "$probe" = 1 ]; then
    SDL_VIDEODRIVER=wayland timeout -k 2 "$PROBE_TIMEOUT_S" \
        "$python" "$app/main.py" --probe-video >/dev/null 2>&1
    rc=$?
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then # timeout's "timed out" (137: SIGKILL needed)
        say "SDL's wayland driver did not open a window within $PROBE_TIMEOUT_S s; the probe was killed; falling back to XWayland (SDL_VIDEODRIVER=x11)"
        driver=x11
    elif [ "$rc" != 0 ]; then
        say "SDL's wayland driver failed to open a window ($(why "$rc")); falling back to XWayland (SDL_VIDEODRIVER=x11)"
        driver=x11
    fi
fi
# xwayland_args: --windowed under XWayland (see above), nothing otherwise.
xwayland_args() { [ "$1" = x11 ] && echo --windowed; }

export SDL_VIDEODRIVER="$driver"
started=$(date +%s)
# shellcheck disable=SC2046 # one optional word
"$python" "$app/main.py" $(xwayland_args "$driver") "$@"
rc=$?
if [ "$probe" = 1 ] && [ "$driver" = wayland ] && [ "$rc" -gt 128 ] &&
    [ $(($(date +%s) - started)) -lt "$FALLBACK_WINDOW_S" ]; then
    say "the game died at start under SDL's wayland driver ($(why "$rc")); restarting it under XWayland (SDL_VIDEODRIVER=x11)"
    export SDL_VIDEODRIVER=x11
    "$python" "$app/main.py" --windowed "$@"
    rc=$?
fi
if [ -n "${SOLITAIRE_EXIT_STATUS_FILE:-}" ]; then
    echo "$rc" >"$SOLITAIRE_EXIT_STATUS_FILE"
fi
exit "$rc"
