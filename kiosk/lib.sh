# shellcheck shell=bash
# What the kiosk's shell scripts share (install.sh, console-setup.sh, build-deb.sh): sourced,
# never run. Messages name the script that sourced it.
#
# Globals the sourcing script sets: ROOT (every path under it, "" for /; tests), DRY (1: only
# print the changes), CHANGED (set to 1 by the first change).
ROOT=${ROOT:-}
DRY=${DRY:-0}
CHANGED=${CHANGED:-0}

say() { printf '==> %s\n' "$*"; }
die() {
    printf '%s: %s\n' "${0##*/}" "$*" >&2
    exit 1
}

# change DESCRIPTION COMMAND...: run a change (or, with --dry-run, only print it). Each change
# prints one line, "change: ..." or "would: ...", which callers count.
change() {
    local what=$1
    shift
    CHANGED=1
    if [ "$DRY" = 1 ]; then
        printf 'would: %s\n' "$what"
    else
        printf 'change: %s\n' "$what"
        "$@"
    fi
}

sysctl_() { systemctl ${ROOT:+--root="$ROOT"} "$@"; }
unit_state() { sysctl_ is-enabled "$1" 2>/dev/null || true; }

# cmdline_file: the Pi's kernel command line file (Bookworm's /boot/firmware, else /boot).
cmdline_file() {
    if [ -f "$ROOT/boot/firmware/cmdline.txt" ]; then
        echo "$ROOT/boot/firmware/cmdline.txt"
    else
        echo "$ROOT/boot/cmdline.txt"
    fi
}

# set_toml_key FILE SECTION KEY VALUE: set KEY = VALUE inside [SECTION] of a config.toml that
# already has the key (the shipped file has every key).
set_toml_key() {
    local file=$1 section=$2 key=$3 value=$4
    local tmp="$file.tmp"
    awk -v section="[$section]" -v key="$key" -v value="$value" '
        /^\[/ { in_section = ($0 == section) }
        in_section && $0 ~ "^" key " = " { print key " = " value; next }
        { print }
    ' "$file" >"$tmp"
    mv "$tmp" "$file"
}

# toml_settings FILE: each "key = value" of a flat TOML file as "section<TAB>key<TAB>value".
toml_settings() {
    awk '
        /^\[[A-Za-z0-9_]+\]$/ { section = substr($0, 2, length($0) - 2); next }
        /^[A-Za-z0-9_]+ = / {
            key = $1
            value = $0
            sub(/^[A-Za-z0-9_]+ = /, "", value)
            printf "%s\t%s\t%s\n", section, key, value
        }
    ' "$1"
}

# kiosk_config_onto OVERRIDES CONF: CONF (a full config.toml) made a kiosk's: every setting of
# OVERRIDES (kiosk/kiosk-config.toml) put in. A setting CONF lacks stops the script.
kiosk_config_onto() {
    local overrides=$1 conf=$2 section key value
    [ -f "$overrides" ] || die "$overrides is missing"
    while IFS=$'\t' read -r section key value; do
        set_toml_key "$conf" "$section" "$key" "$value"
        awk -v section="[$section]" -v line="$key = $value" '
            /^\[/ { in_section = ($0 == section) }
            in_section && $0 == line { found = 1 }
            END { exit !found }
        ' "$conf" || die "$conf has no $key in [$section] to set (from $overrides)"
    done < <(toml_settings "$overrides")
}
