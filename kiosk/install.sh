#!/usr/bin/env bash
# Install the solitaire kiosk on Raspberry Pi OS (64-bit, Bookworm or later) from this source
# tree: build the Debian package for this machine (kiosk/build-deb.sh), install it with apt, and
# make the Pi a kiosk (console boot, no getty on tty1, no Ctrl+Alt+Del reboot).
#
#   sudo kiosk/install.sh                  # console path: SDL's kmsdrm driver, no desktop needed
#   sudo kiosk/install.sh --cage           # the cage Wayland kiosk compositor instead
#   sudo kiosk/install.sh --dry-run        # print every change it would make, change nothing
#   sudo kiosk/install.sh --no-start       # install and enable, start at the next boot
#   sudo kiosk/install.sh --pin-hash HASH  # the operator PIN hash (from game.config hash-pin)
#   sudo kiosk/install.sh --no-lock        # no kiosk lock (no PIN needed)
#   sudo kiosk/install.sh --any-debian     # also on a Debian that is not a Pi (no cmdline.txt)
#   sudo kiosk/install.sh --deb FILE       # install this package instead of building one
#   kiosk/install.sh --root DIR            # every path under DIR (tests)
#
# First it checks everything (root, Pi OS, the kernel command line file, a PIN when the lock is
# on, and the operator's config with the game's own check: main.py --check-config); only then
# does it change anything. Each step looks before it acts, so running it a second time changes
# nothing. What it does:
#  1. builds dist/solitaire-kiosk_<version>_<arch>.deb (needs the network for the wheels);
#  2. removes what this script installed before the package (/opt/solitaire-kiosk and its units
#     in /etc/systemd/system; the user, the config and the state are kept);
#     writes /etc/solitaire-kiosk/config.toml when there is none (the game's config.toml with
#     kiosk/kiosk-config.toml's settings, as the package ships it: fullscreen, kiosk lock on,
#     pointer hidden, sound off, metrics for node_exporter), and the operator PIN's hash into
#     /etc/solitaire-kiosk/pin-hash, which the config names (never into the config itself);
#  3. installs the package with apt (the operator's config kept: --force-confold); the package
#     creates the user "solitaire", the venv and the units, and enables solitaire-kiosk.service;
#  4. with --cage: installs cage and xwayland and enables the cage unit instead;
#  5. runs kiosk/console-setup.sh (the fleet playbook runs it too): boots to the console
#     (multi-user.target), frees tty1 (getty@tty1 off), masks ctrl-alt-del.target (a keyboard's
#     Ctrl+Alt+Del must not reboot the kiosk) and, on a Pi, sets consoleblank=0
#     vt.global_cursor_default=0 on the kernel command line (an existing consoleblank=600 is
#     replaced): takes effect after a reboot.
set -euo pipefail

KIOSK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=kiosk/lib.sh
source "$KIOSK_DIR/lib.sh"

KMSDRM_UNIT=solitaire-kiosk.service
CAGE_UNIT=solitaire-kiosk-cage.service
PACKAGE=solitaire-kiosk
PIN_FILE=/etc/solitaire-kiosk/pin-hash
SRC=$(dirname "$KIOSK_DIR")

ROOT=""
DRY=0
CHANGED=0

installed() { dpkg-query ${ROOT:+--root="$ROOT"} -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# The Pi's model, from the device tree ("" when not a Pi).
pi_model() {
    local f
    for f in "$ROOT/proc/device-tree/model" "$ROOT/sys/firmware/devicetree/base/model"; do
        if [ -r "$f" ] && tr -d '\0' <"$f" | grep -q 'Raspberry Pi'; then
            tr -d '\0' <"$f"
            return 0
        fi
    done
    return 0
}

# kiosk_config SHIPPED CONF LOCK PIN_HASH OUT: the config to install, in OUT: the existing CONF,
# else SHIPPED made for a kiosk (kiosk/kiosk-config.toml, with LOCK). It never holds the PIN
# hash: that goes to PIN_FILE, which the config names (with PIN_HASH, an existing config is
# pointed at PIN_FILE and an older operator_pin_hash in it removed: only the file counts).
kiosk_config() {
    local shipped=$1 conf=$2 lock=$3 pin_hash=$4 out=$5
    if [ -f "$conf" ]; then
        cp "$conf" "$out"
    else
        cp "$shipped" "$out"
        kiosk_config_onto "$KIOSK_DIR/kiosk-config.toml" "$out"
        set_toml_key "$out" kiosk lock "$lock"
    fi
    if [ -n "$pin_hash" ]; then
        pinfile use "$out" "$PIN_FILE" || die "cannot name $PIN_FILE in $conf (see above)"
    fi
}

pinfile() { (cd "$SRC" && python3 -B -m game.kiosk.pinfile "$@"); }

# named_pin_file CONF: the operator_pin_file CONF names ("" for none).
named_pin_file() {
    (cd "$SRC" && python3 -B -c 'import sys
from game.config import load_config
print(load_config(sys.argv[1])[0].kiosk.operator_pin_file)' "$1")
}

write_config() {
    local new=$1 conf=$2
    mkdir -p "$(dirname "$conf")"
    chmod 0750 "$(dirname "$conf")"
    install -m 0640 "$new" "$conf.new"
    mv "$conf.new" "$conf"
}

# write_pin_file NEW FILE: the PIN file (mode 0640, root and, once the package made it, the
# game's group: the package's postinst gives it that group too).
write_pin_file() {
    local new=$1 file=$2 gid
    mkdir -p "$(dirname "$file")"
    chmod 0750 "$(dirname "$file")"
    install -m 0640 "$new" "$file.new"
    gid=$(awk -F: '$1 == "solitaire" { print $3 }' "$ROOT/etc/group" 2>/dev/null || true)
    [ -z "$gid" ] || chgrp "$gid" "$file.new"
    mv "$file.new" "$file"
}

# package_current DEB: true when DEB is the package installed (same version, same files).
package_current() {
    local deb=$1 info="$ROOT/var/lib/dpkg/info/$PACKAGE.md5sums"
    installed "$PACKAGE" && [ -f "$info" ] &&
        dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./md5sums 2>/dev/null | cmp -s - "$info"
}

# remove_old_install APP UNIT...: what install.sh installed before the package: the copy in
# /opt and its units in /etc/systemd/system (they would hide the package's units). The user,
# the config and the state stay: the package takes them over.
remove_old_install() {
    local app=$1 unit
    shift
    for unit in "$@"; do
        [ -n "$ROOT" ] || systemctl stop "$unit" 2>/dev/null || true
        sysctl_ disable "$unit" 2>/dev/null || true
        rm -f "$ROOT/etc/systemd/system/$unit"
    done
    rm -rf "$app"
    [ -n "$ROOT" ] || systemctl daemon-reload
}

apt_install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$@"
}

main() {
    local use_cage=0 start=1 any_debian=0 no_lock=0 pin_hash="" deb="" arg
    while [ $# -gt 0 ]; do
        arg=$1
        shift
        case "$arg" in
        --cage) use_cage=1 ;;
        --no-start) start=0 ;;
        --dry-run) DRY=1 ;;
        --any-debian) any_debian=1 ;;
        --no-lock) no_lock=1 ;;
        --pin-hash)
            [ $# -gt 0 ] || die "--pin-hash needs a hash"
            pin_hash=$1
            shift
            ;;
        --pin-hash=*) pin_hash=${arg#*=} ;;
        --deb)
            [ $# -gt 0 ] || die "--deb needs a package file"
            deb=$1
            shift
            ;;
        --root)
            [ $# -gt 0 ] || die "--root needs a directory"
            ROOT=${1%/}
            shift
            ;;
        -h | --help)
            awk 'NR > 1 && !/^#/ { exit } NR > 1 { print }' "$0"
            return 0
            ;;
        *) die "unknown option $arg (try --help)" ;;
        esac
    done
    local src
    src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    local conf="$ROOT/etc/solitaire-kiosk/config.toml"
    local chosen=$KMSDRM_UNIT other=$CAGE_UNIT
    if [ "$use_cage" = 1 ]; then
        chosen=$CAGE_UNIT
        other=$KMSDRM_UNIT
    fi
    local work
    work=$(mktemp -d)
    # shellcheck disable=SC2064
    trap "rm -rf '$work'" EXIT

    # ------------------------------------------------------------ 1. check everything
    local problems=()
    if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
        problems+=("run as root: sudo $0 (or --dry-run to only see the changes)")
    fi
    local item
    for item in main.py game engine assets config.toml kiosk/build-deb.sh kiosk/console-setup.sh \
        kiosk/kiosk-config.toml; do
        [ -e "$src/$item" ] || problems+=("$src/$item is missing: is $src the game?")
    done
    if [ -n "$deb" ] && [ ! -f "$deb" ]; then
        problems+=("--deb $deb: no such file")
    fi
    if ! grep -qsE '^ID(_LIKE)?=.*(debian|raspbian)' "$ROOT/etc/os-release"; then
        problems+=("$ROOT/etc/os-release: not Debian or Raspberry Pi OS")
    fi
    local model cmdline=""
    model=$(pi_model)
    if [ -n "$model" ]; then
        cmdline=$(cmdline_file)
        if [ ! -f "$cmdline" ]; then
            problems+=("kernel command line $cmdline not found")
        elif [ "$DRY" = 0 ] && [ ! -w "$cmdline" ]; then
            problems+=("kernel command line $cmdline is not writable")
        fi
    elif [ "$any_debian" = 0 ]; then
        problems+=("not a Raspberry Pi (no model in the device tree); --any-debian installs anyway, without the kernel command line changes")
    fi
    for item in systemctl dpkg dpkg-deb dpkg-query apt-get python3 awk tar; do
        command -v "$item" >/dev/null 2>&1 || problems+=("the command $item is missing")
    done
    local lock=true
    [ "$no_lock" = 1 ] && lock=false
    if [ ! -f "$conf" ] && [ "$lock" = true ] && [ -z "$pin_hash" ] && [ ${#problems[@]} = 0 ]; then
        if [ -t 0 ] && [ "$DRY" = 0 ]; then
            say "choose the operator PIN (6 to 12 digits) for leaving the kiosk"
            local line
            line=$(cd "$src" && python3 -m game.config hash-pin) || die "no PIN: nothing changed"
            pin_hash=${line#*= }
            pin_hash=${pin_hash//\"/}
        elif [ "$DRY" = 0 ]; then
            problems+=("kiosk lock on but no operator PIN: no terminal to ask for one; give --pin-hash HASH (python -m game.config hash-pin prints one) or --no-lock")
        fi
    fi
    # The PIN file it would write: a hash the game would refuse stops it here.
    local new_pin="$work/pin-hash"
    if [ -n "$pin_hash" ] && ! printf '%s\n' "$pin_hash" | pinfile write "$new_pin" 2>/dev/null; then
        problems+=("--pin-hash: not an operator PIN hash the game accepts (python3 -m game.config hash-pin prints one)")
    fi
    # The config the kiosk will run with, checked by the game's own code, with the PIN file it
    # will have (a copy of it, named in a copy of the config).
    local new_conf="$work/config.toml"
    if [ ${#problems[@]} = 0 ]; then
        kiosk_config "$src/config.toml" "$conf" "$lock" "$pin_hash" "$new_conf"
        local check_conf="$work/check.toml" named report
        cp "$new_conf" "$check_conf"
        named=$(named_pin_file "$new_conf")
        if [ -n "$named" ]; then
            if [ -z "$pin_hash" ] && [ -f "$ROOT$named" ]; then
                cp "$ROOT$named" "$new_pin"
            elif [ -z "$pin_hash" ]; then
                : >"$new_pin" # the package makes it empty when there is none
            fi
            pinfile use "$check_conf" "$new_pin" >/dev/null 2>&1 || true
        fi
        if ! report=$(cd "$src" && python3 -B main.py --check-config "$check_conf" 2>&1); then
            while IFS= read -r line; do
                line=${line//"$new_pin"/"$named"}
                case "$line" in
                *" problem(s)") ;;
                *) problems+=("config: ${line#"$check_conf": }") ;;
                esac
            done <<<"$report"
        fi
    fi
    if [ ${#problems[@]} -gt 0 ]; then
        printf 'install.sh: cannot install, nothing was changed:\n' >&2
        printf '  - %s\n' "${problems[@]}" >&2
        exit 1
    fi
    say "checks passed${model:+ ($model)}${ROOT:+ (root $ROOT)}"

    # ------------------------------------------------------------ 2. change what differs
    if [ -z "$deb" ]; then
        # build-deb.sh downloads the wheels with pip and builds pure ones in a venv.
        local tools=() tool
        for tool in python3-pip python3-venv; do
            installed "$tool" || tools+=("$tool")
        done
        if [ ${#tools[@]} -gt 0 ]; then
            change "install ${tools[*]} (to build the package)" apt_install "${tools[@]}"
        fi
        if [ "$DRY" = 0 ] || [ ${#tools[@]} = 0 ]; then
            local pyver
            pyver=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
            say "building the package for $(dpkg --print-architecture) and Python $pyver"
            deb=$(bash "$src/kiosk/build-deb.sh" --python "$pyver" --out "$work") ||
                die "the package build failed (see above); the kiosk was not changed"
        fi
    fi
    local old_app="$ROOT/opt/solitaire-kiosk" old_units=() unit
    for unit in "$KMSDRM_UNIT" "$CAGE_UNIT"; do
        [ ! -f "$ROOT/etc/systemd/system/$unit" ] || old_units+=("$unit")
    done
    if [ -d "$old_app" ] || [ ${#old_units[@]} -gt 0 ]; then
        change "remove the install of before ($old_app${old_units[*]:+ and ${old_units[*]} in /etc/systemd/system})" \
            remove_old_install "$old_app" "${old_units[@]}"
    fi
    if ! cmp -s "$new_conf" "$conf"; then
        change "write $conf (lock = $lock; mode 0640)" write_config "$new_conf" "$conf"
    fi
    if [ -n "$pin_hash" ] && ! cmp -s "$new_pin" "$ROOT$PIN_FILE"; then
        change "write $ROOT$PIN_FILE (the operator PIN's hash; mode 0640)" \
            write_pin_file "$new_pin" "$ROOT$PIN_FILE"
    fi
    # A first install of the package enables the console unit itself (its postinst).
    local pkg_enables=0
    installed "$PACKAGE" || pkg_enables=1
    if [ -z "$deb" ] || ! package_current "$deb"; then
        local what=("$deb")
        [ "$use_cage" = 1 ] && what+=(cage xwayland)
        change "install the package ${deb:+$(basename "$deb")}${ROOT:+ (into $ROOT)}" \
            apt_install ${ROOT:+-o Dir="$ROOT"} "${what[@]}"
    elif [ "$use_cage" = 1 ] && ! { installed cage && installed xwayland; }; then
        change "install cage and xwayland" apt_install ${ROOT:+-o Dir="$ROOT"} cage xwayland
    fi
    local other_state chosen_state
    other_state=$(unit_state "$other")
    chosen_state=$(unit_state "$chosen")
    if [ "$pkg_enables" = 1 ]; then
        [ "$other" = "$KMSDRM_UNIT" ] && other_state=enabled
        [ "$chosen" = "$KMSDRM_UNIT" ] && chosen_state=enabled
    fi
    case "$other_state" in
    enabled*) change "disable $other" sysctl_ disable "$other" ;;
    esac
    [ "$chosen_state" = enabled ] || change "enable $chosen" sysctl_ enable "$chosen"
    # The console: kiosk/console-setup.sh, which the fleet playbook runs too.
    local console=("$src/kiosk/console-setup.sh" ${ROOT:+--root "$ROOT"})
    [ "$DRY" = 0 ] || console+=(--dry-run)
    [ -n "$cmdline" ] || console+=(--no-cmdline)
    local console_rc=0
    bash "${console[@]}" >"$work/console.out" || console_rc=$?
    grep -v '^==> console: ' "$work/console.out" || true
    [ "$console_rc" = 0 ] || die "kiosk/console-setup.sh failed (see above)"
    if grep -qE '^(change|would): ' "$work/console.out"; then
        CHANGED=1
    fi

    if [ "$start" = 1 ] && [ -z "$ROOT" ]; then
        if [ "$CHANGED" = 1 ] || ! systemctl is-active --quiet "$chosen"; then
            # shellcheck disable=SC2016 # $1 is expanded by that bash
            change "start $chosen" bash -c \
                'systemctl stop display-manager.service getty@tty1.service 2>/dev/null; systemctl restart "$1"' \
                start "$chosen"
        fi
    fi
    if [ "$CHANGED" = 0 ]; then
        say "nothing to change: the kiosk is installed as this script would install it"
    elif [ "$DRY" = 1 ]; then
        say "dry run: nothing was changed"
    else
        say "done. Reboot once if the kernel command line changed."
    fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
