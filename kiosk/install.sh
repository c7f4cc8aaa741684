#!/usr/bin/env bash
# Install the solitaire kiosk on Raspberry Pi OS Bookworm (64-bit) and start it at boot.
#
#   sudo kiosk/install.sh            # console path: SDL's kmsdrm driver, no desktop needed
#   sudo kiosk/install.sh --cage     # the cage Wayland kiosk compositor instead
#   sudo kiosk/install.sh --no-start # install and enable, start at the next boot
#
# What it does (running it again updates an installation and keeps the operator's config):
#  1. installs the few system packages (python3-venv; the Mesa/DRM libraries SDL loads; cage);
#  2. creates the unprivileged user "solitaire" (groups video, render, input);
#  3. copies the app to /opt/solitaire-kiosk, owned by root and read-only for the game;
#  4. creates the venv /opt/solitaire-kiosk/.venv and installs requirements.txt into it;
#  5. puts the operator's config in /etc/solitaire-kiosk/config.toml (first install only:
#     fullscreen, kiosk lock on, pointer hidden; asks for the operator PIN when run from a
#     terminal) and checks it;
#  6. installs the systemd units, enables the chosen one, boots to the console
#     (multi-user.target) instead of a desktop;
#  7. turns screen blanking and the console cursor off on the kernel command line
#     (consoleblank=0 vt.global_cursor_default=0): takes effect after a reboot.
set -euo pipefail

APP_DIR=/opt/solitaire-kiosk
CONF_DIR=/etc/solitaire-kiosk
UNIT_DIR=/etc/systemd/system
USER_NAME=solitaire
STATE_DIR=/var/lib/solitaire-kiosk
KMSDRM_UNIT=solitaire-kiosk.service
CAGE_UNIT=solitaire-kiosk-cage.service
CMDLINE_ARGS=(consoleblank=0 vt.global_cursor_default=0)

say() { printf '==> %s\n' "$*"; }
die() {
    printf 'install.sh: %s\n' "$*" >&2
    exit 1
}

# add_cmdline_args FILE ARG...: append each ARG (name=value) to the one-line kernel command line
# in FILE unless the name is already there; a backup FILE.solitaire-bak is kept once.
add_cmdline_args() {
    local file=$1
    shift
    [ -f "$file" ] || die "kernel command line $file not found"
    local line
    line=$(head -n 1 "$file")
    local changed=0 arg
    for arg in "$@"; do
        local name=${arg%%=*}
        if ! grep -qE "(^|[[:space:]])${name//./\\.}=" <<<"$line"; then
            line="$line $arg"
            changed=1
        fi
    done
    if [ "$changed" = 1 ]; then
        [ -e "$file.solitaire-bak" ] || cp -p "$file" "$file.solitaire-bak"
        printf '%s\n' "$line" >"$file.tmp"
        mv "$file.tmp" "$file"
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

cmdline_file() {
    if [ -f /boot/firmware/cmdline.txt ]; then
        echo /boot/firmware/cmdline.txt
    else
        echo /boot/cmdline.txt
    fi
}

main() {
    local use_cage=0 start=1 arg
    for arg in "$@"; do
        case "$arg" in
        --cage) use_cage=1 ;;
        --no-start) start=0 ;;
        -h | --help)
            sed -n '2,20p' "$0"
            return 0
            ;;
        *) die "unknown option $arg (try --help)" ;;
        esac
    done
    [ "$(id -u)" = 0 ] || die "run as root: sudo $0 $*"
    local src
    src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    [ -f "$src/main.py" ] && [ -d "$src/game" ] || die "$src does not look like the game"
    if [ "$(uname -m)" != aarch64 ]; then
        say "warning: $(uname -m) is not 64-bit ARM; pygame-ce has no 32-bit ARM wheel"
    fi

    say "system packages"
    local packages=(python3 python3-venv libgbm1 libegl1 libgles2 libdrm2 libudev1)
    [ "$use_cage" = 1 ] && packages+=(cage)
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}"

    say "user $USER_NAME"
    if ! id "$USER_NAME" >/dev/null 2>&1; then
        useradd --system --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --user-group "$USER_NAME"
    fi
    usermod -a -G video,render,input "$USER_NAME"

    say "app in $APP_DIR"
    local unit
    for unit in "$KMSDRM_UNIT" "$CAGE_UNIT"; do
        systemctl stop "$unit" 2>/dev/null || true
    done
    mkdir -p "$APP_DIR"
    rm -rf "${APP_DIR:?}/engine" "${APP_DIR:?}/game" "${APP_DIR:?}/assets" "${APP_DIR:?}/kiosk"
    cp -r "$src/engine" "$src/game" "$src/assets" "$src/kiosk" "$APP_DIR/"
    cp "$src/main.py" "$src/requirements.txt" "$src/config.toml" "$APP_DIR/"
    find "$APP_DIR" -name __pycache__ -prune -exec rm -rf {} +
    chown -R root:root "$APP_DIR"
    chmod -R u=rwX,go=rX "$APP_DIR"
    chmod 755 "$APP_DIR"/kiosk/*.sh

    say "venv and requirements"
    [ -x "$APP_DIR/.venv/bin/python" ] || python3 -m venv "$APP_DIR/.venv"
    "$APP_DIR/.venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --no-cache-dir -r "$APP_DIR/requirements.txt"
    # The game cannot write to /opt: compile the bytecode now.
    "$APP_DIR/.venv/bin/python" -m compileall -q "$APP_DIR/engine" "$APP_DIR/game" \
        "$APP_DIR/main.py" >/dev/null

    say "config in $CONF_DIR/config.toml"
    mkdir -p "$CONF_DIR"
    if [ ! -f "$CONF_DIR/config.toml" ]; then
        cp "$APP_DIR/config.toml" "$CONF_DIR/config.toml"
        set_toml_key "$CONF_DIR/config.toml" display fullscreen true
        set_toml_key "$CONF_DIR/config.toml" display show_cursor false
        set_toml_key "$CONF_DIR/config.toml" kiosk lock true
        if [ -t 0 ]; then
            say "choose the operator PIN (4 to 12 digits) for leaving the kiosk"
            local line
            if line=$(cd "$APP_DIR" && .venv/bin/python -m game.config hash-pin); then
                set_toml_key "$CONF_DIR/config.toml" kiosk operator_pin_hash "${line#*= }"
            fi
        fi
    fi
    chmod 644 "$CONF_DIR/config.toml"
    (cd "$APP_DIR" && .venv/bin/python -m game.config check "$CONF_DIR/config.toml") ||
        say "fix the problems above in $CONF_DIR/config.toml (the game uses defaults for them)"

    say "systemd units"
    install -m 644 "$APP_DIR/kiosk/$KMSDRM_UNIT" "$APP_DIR/kiosk/$CAGE_UNIT" "$UNIT_DIR/"
    systemctl daemon-reload
    local chosen=$KMSDRM_UNIT other=$CAGE_UNIT
    if [ "$use_cage" = 1 ]; then
        chosen=$CAGE_UNIT
        other=$KMSDRM_UNIT
    fi
    systemctl disable "$other" 2>/dev/null || true
    systemctl enable "$chosen"
    systemctl disable getty@tty1.service 2>/dev/null || true
    if [ "$(systemctl get-default)" != multi-user.target ]; then
        say "booting to the console instead of the desktop (systemctl set-default multi-user.target)"
        systemctl set-default multi-user.target
    fi

    say "screen blanking and console cursor off"
    add_cmdline_args "$(cmdline_file)" "${CMDLINE_ARGS[@]}"

    if [ "$start" = 1 ]; then
        systemctl stop display-manager.service 2>/dev/null || true
        systemctl stop getty@tty1.service 2>/dev/null || true
        systemctl restart "$chosen"
        say "started $chosen; see: journalctl -u $chosen"
    fi
    say "done. Reboot once so that the kernel command line changes take effect."
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
