#!/bin/sh
# The game's metrics file for node_exporter's textfile collector, which the game (user solitaire)
# may change and nothing else: its own directory /var/lib/solitaire-kiosk-metrics (made by
# /usr/lib/tmpfiles.d/solitaire-kiosk.conf, with the file in it) and, where node_exporter's
# textfile directory /var/lib/prometheus/node-exporter exists, a link there to that file. The
# game writes through the link (a temporary file and a rename, in its own directory); the
# textfile directory itself stays root's. Run as root before each start of a kiosk unit
# (ExecStartPre=+) and by the package's postinst; without node_exporter no link is made.
# Usage: metrics-dir.sh [ROOT]   (ROOT: every path under it; tests)
set -eu
root=${1:-}
own=/var/lib/solitaire-kiosk-metrics/solitaire_kiosk.prom
textfile_dir=/var/lib/prometheus/node-exporter

systemd-tmpfiles ${root:+--root="$root"} --create solitaire-kiosk.conf
[ -d "$root$textfile_dir" ] || exit 0
link=$root$textfile_dir/solitaire_kiosk.prom
if [ "$(readlink "$link" 2>/dev/null)" != "$own" ]; then
    # (a file the game wrote there itself before this version is replaced by the link)
    ln -sfn "$own" "$link"
fi
