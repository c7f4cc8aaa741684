#!/bin/sh
# The game as a Wayland client (started by run-cage.sh inside cage). Without
# SDL_VIDEODRIVER=wayland SDL2 would pick XWayland. Writes the game's exit status to
# $SOLITAIRE_EXIT_STATUS_FILE when set. Extra arguments go to main.py.
set -u
here=$(cd "$(dirname "$0")" && pwd)
app=$(dirname "$here")
export SDL_VIDEODRIVER="${SDL_VIDEODRIVER:-wayland}"
"$app/.venv/bin/python" "$app/main.py" "$@"
rc=$?
if [ -n "${SOLITAIRE_EXIT_STATUS_FILE:-}" ]; then
    echo "$rc" >"$SOLITAIRE_EXIT_STATUS_FILE"
fi
exit "$rc"
