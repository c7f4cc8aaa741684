#!/usr/bin/env bash
# Install the solitaire kiosk on Raspberry Pi OS (64-bit, Bookworm or later) and start it at boot.
#
#   sudo kiosk/install.sh                  # console path: SDL's kmsdrm driver, no desktop needed
#   sudo kiosk/install.sh --cage           # the cage Wayland kiosk compositor instead
#   sudo kiosk/install.sh --dry-run        # print every change it would make, change nothing
#   sudo kiosk/install.sh --no-start       # install and enable, start at the next boot
#   sudo kiosk/install.sh --pin-hash HASH  # the operator PIN hash (from game.config hash-pin)
#   sudo kiosk/install.sh --no-lock        # no kiosk lock (no PIN needed)
#   sudo kiosk/install.sh --any-debian     # also on a Debian that is not a Pi (no cmdline.txt)
#   kiosk/install.sh --root DIR            # every path under DIR (tests, image building)
#
# First it checks everything (root, Pi OS, the files it edits, a PIN when the lock is on, the
# source tree); only then does it change anything. Each step looks before it acts, so running it
# a second time changes nothing. What it does:
#  1. installs the missing system packages (python3-venv; the Mesa/DRM libraries SDL loads; cage);
#  2. creates the unprivileged user "solitaire" (groups video, render, input);
#  3. copies the app to /opt/solitaire-kiosk, owned by root and read-only for the game;
#  4. creates the venv /opt/solitaire-kiosk/.venv and installs kiosk/requirements.lock into it
#     with `pip --require-hashes` (every file checked against its hash);
#  5. puts the operator's config in /etc/solitaire-kiosk/config.toml (first install only:
#     fullscreen, kiosk lock on, pointer hidden, sound off, the operator PIN hash), mode 0640
#     root:solitaire (it holds the PIN hash), and checks it;
#  6. installs the systemd units, enables the chosen one, boots to the console
#     (multi-user.target), frees tty1 (getty@tty1 off) and masks ctrl-alt-del.target (a
#     keyboard's Ctrl+Alt+Del must not reboot the kiosk);
#  7. sets consoleblank=0 vt.global_cursor_default=0 on the kernel command line (an existing
#     consoleblank=600 is replaced): takes effect after a reboot.
set -euo pipefail

KMSDRM_UNIT=solitaire-kiosk.service
CAGE_UNIT=solitaire-kiosk-cage.service
USER_NAME=solitaire
CMDLINE_ARGS=(consoleblank=0 vt.global_cursor_default=0)
PACKAGES=(python3 python3-venv libgbm1 libegl1 libgles2 libdrm2 libudev1)
HASH_RE='^pbkdf2_sha256\$([0-9]{1,8})\$[0-9a-f]{16,128}\$[0-9a-f]{64}$'
MIN_ITERATIONS=100000

ROOT=""
DRY=0
CHANGED=0

say() { printf '==> %s\n' "$*"; }
die() {
    printf 'install.sh: %s\n' "$*" >&2
    exit 1
}

# change DESCRIPTION COMMAND...: run a change (or, with --dry-run, only print it).
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

# cmdline_with FILE ARG...: the kernel command line of FILE with each ARG (name=value) set:
# added when its name is missing, its value replaced when it differs.
cmdline_with() {
    local file=$1
    shift
    local line arg
    line=$(head -n 1 "$file")
    for arg in "$@"; do
        local name=${arg%%=*} word out="" found=0
        for word in $line; do
            if [ "${word%%=*}" = "$name" ]; then
                [ "$found" = 0 ] && out="$out $arg"
                found=1
            else
                out="$out $word"
            fi
        done
        [ "$found" = 1 ] || out="$out $arg"
        line=${out# }
    done
    printf '%s\n' "$line"
}

# write_cmdline FILE LINE: replace the one-line FILE (a backup FILE.solitaire-bak is kept once).
write_cmdline() {
    local file=$1 line=$2
    [ -e "$file.solitaire-bak" ] || cp -p "$file" "$file.solitaire-bak"
    printf '%s\n' "$line" >"$file.tmp"
    mv "$file.tmp" "$file"
}

# add_cmdline_args FILE ARG...: set each ARG on the kernel command line in FILE (if needed).
add_cmdline_args() {
    local file=$1
    shift
    [ -f "$file" ] || die "kernel command line $file not found"
    local line
    line=$(cmdline_with "$file" "$@")
    [ "$line" = "$(head -n 1 "$file")" ] || write_cmdline "$file" "$line"
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

sysctl_() { systemctl ${ROOT:+--root="$ROOT"} "$@"; }
unit_state() { sysctl_ is-enabled "$1" 2>/dev/null || true; }
user_exists() { grep -q "^$USER_NAME:" "$ROOT/etc/passwd" 2>/dev/null; }
in_group() { grep -qE "^$1:[^:]*:[^:]*:(.*,)?$USER_NAME(,|$)" "$ROOT/etc/group" 2>/dev/null; }
user_gid() { awk -F: -v u="$USER_NAME" '$1 == u { print $3 }' "$ROOT/etc/group" 2>/dev/null; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

cmdline_file() {
    if [ -f "$ROOT/boot/firmware/cmdline.txt" ]; then
        echo "$ROOT/boot/firmware/cmdline.txt"
    else
        echo "$ROOT/boot/cmdline.txt"
    fi
}

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

# same_tree SRC DEST: true when DEST has exactly the files of SRC (bytecode caches aside).
same_tree() {
    [ -e "$2" ] && diff -rq --exclude=__pycache__ "$1" "$2" >/dev/null 2>&1
}

copy_app() {
    local src=$1 app=$2 item
    mkdir -p "$app"
    for item in engine game assets kiosk; do
        rm -rf "${app:?}/$item"
        cp -r "$src/$item" "$app/"
    done
    cp "$src/main.py" "$src/requirements.txt" "$src/config.toml" "$app/"
    find "$app" -name __pycache__ -prune -exec rm -rf {} +
    chown -R 0:0 "$app"
    chmod -R u=rwX,go=rX "$app"
    chmod 755 "$app"/kiosk/*.sh
}

pip_install() {
    local app=$1
    local pip=("$app/.venv/bin/python" -m pip install --quiet --disable-pip-version-check
        --no-cache-dir --require-hashes --no-deps)
    "${pip[@]}" -r "$app/kiosk/build-requirements.lock"
    "${pip[@]}" --no-build-isolation -r "$app/kiosk/requirements.lock"
    lock_stamp "$app" >"$app/.venv/.solitaire-lock"
}

lock_stamp() { cat "$1/kiosk/requirements.lock" "$1/kiosk/build-requirements.lock" | sha256sum; }

compile_app() {
    # The game cannot write to /opt: compile the bytecode now.
    "$1/.venv/bin/python" -m compileall -q "$1/engine" "$1/game" "$1/main.py" >/dev/null
}

write_config() {
    local shipped=$1 conf=$2 lock=$3 pin_hash=$4
    mkdir -p "$(dirname "$conf")"
    cp "$shipped" "$conf.new"
    set_toml_key "$conf.new" display fullscreen true
    set_toml_key "$conf.new" display show_cursor false
    set_toml_key "$conf.new" sound enabled false
    set_toml_key "$conf.new" kiosk lock "$lock"
    [ -z "$pin_hash" ] || set_toml_key "$conf.new" kiosk operator_pin_hash "\"$pin_hash\""
    chmod 0640 "$conf.new"
    mv "$conf.new" "$conf"
}

main() {
    local use_cage=0 start=1 any_debian=0 no_lock=0 pin_hash="" arg
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
        --root)
            [ $# -gt 0 ] || die "--root needs a directory"
            ROOT=${1%/}
            shift
            ;;
        -h | --help)
            sed -n '2,30p' "$0"
            return 0
            ;;
        *) die "unknown option $arg (try --help)" ;;
        esac
    done
    local src
    src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    local app="$ROOT/opt/solitaire-kiosk" conf="$ROOT/etc/solitaire-kiosk/config.toml"
    local unit_dir="$ROOT/etc/systemd/system"
    local chosen=$KMSDRM_UNIT other=$CAGE_UNIT
    if [ "$use_cage" = 1 ]; then
        chosen=$CAGE_UNIT
        other=$KMSDRM_UNIT
        PACKAGES+=(cage xwayland)
    fi

    # ------------------------------------------------------------ 1. check everything
    local problems=()
    if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
        problems+=("run as root: sudo $0 (or --dry-run to only see the changes)")
    fi
    local item
    for item in main.py game engine assets kiosk/requirements.lock \
        kiosk/build-requirements.lock "kiosk/$KMSDRM_UNIT" "kiosk/$CAGE_UNIT" config.toml; do
        [ -e "$src/$item" ] || problems+=("$src/$item is missing: is $src the game?")
    done
    if ! grep -qsE '^ID(_LIKE)?=.*(debian|raspbian)' "$ROOT/etc/os-release"; then
        problems+=("$ROOT/etc/os-release: not Debian or Raspberry Pi OS")
    fi
    case "$(uname -m)" in
    aarch64 | x86_64) ;;
    *) problems+=("$(uname -m): no pygame-ce wheel (use 64-bit Raspberry Pi OS)") ;;
    esac
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
    for item in systemctl dpkg-query apt-get python3 awk sha256sum; do
        command -v "$item" >/dev/null 2>&1 || problems+=("the command $item is missing")
    done
    local lock=true
    [ "$no_lock" = 1 ] && lock=false
    if [ -n "$pin_hash" ]; then
        if [[ ! "$pin_hash" =~ $HASH_RE ]]; then
            problems+=("--pin-hash: not a hash from 'python -m game.config hash-pin'")
        elif [ "${BASH_REMATCH[1]}" -lt "$MIN_ITERATIONS" ]; then
            problems+=("--pin-hash: fewer than $MIN_ITERATIONS iterations; make a new one")
        fi
    fi
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
    if [ ${#problems[@]} -gt 0 ]; then
        printf 'install.sh: cannot install, nothing was changed:\n' >&2
        printf '  - %s\n' "${problems[@]}" >&2
        exit 1
    fi
    say "checks passed${model:+ ($model)}${ROOT:+ (root $ROOT)}"

    # ------------------------------------------------------------ 2. change what differs
    local missing=() pkg
    for pkg in "${PACKAGES[@]}"; do
        installed "$pkg" || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        change "install packages ${missing[*]}" bash -c \
            'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"' \
            apt "${missing[@]}"
    fi

    user_exists || change "create the user $USER_NAME" useradd ${ROOT:+--root "$ROOT"} \
        --system --home-dir /var/lib/solitaire-kiosk --no-create-home \
        --shell /usr/sbin/nologin --user-group "$USER_NAME"
    local group
    for group in video render input; do
        in_group "$group" || change "add $USER_NAME to the group $group" \
            usermod ${ROOT:+--root "$ROOT"} -a -G "$group" "$USER_NAME"
    done

    local app_changed=0
    for item in engine game assets kiosk main.py requirements.txt config.toml; do
        same_tree "$src/$item" "$app/$item" || app_changed=1
    done
    if [ "$app_changed" = 1 ]; then
        if [ -z "$ROOT" ] && [ "$DRY" = 0 ]; then
            systemctl stop "$KMSDRM_UNIT" "$CAGE_UNIT" 2>/dev/null || true
        fi
        change "copy the game to $app" copy_app "$src" "$app"
    fi
    [ -x "$app/.venv/bin/python" ] || change "create the venv $app/.venv" python3 -m venv "$app/.venv"
    local stamp="" want
    want=$(lock_stamp "$src")
    [ -r "$app/.venv/.solitaire-lock" ] && stamp=$(cat "$app/.venv/.solitaire-lock")
    if [ "$stamp" != "$want" ]; then
        change "install the Python packages of kiosk/requirements.lock (pip --require-hashes)" \
            pip_install "$app"
        app_changed=1
    fi
    [ "$app_changed" = 1 ] && change "compile the game's bytecode" compile_app "$app"

    if [ ! -f "$conf" ]; then
        change "write $conf (fullscreen, lock = $lock, pointer hidden${pin_hash:+, the PIN hash})" \
            write_config "$src/config.toml" "$conf" "$lock" "$pin_hash"
    fi
    local gid
    gid=$(user_gid)
    if [ "$DRY" = 1 ] && [ -z "$gid" ]; then
        printf 'would: %s\n' "make $conf mode 0640, owner root:$USER_NAME (it holds the PIN hash)"
    elif [ "$(stat -c '%a %u:%g' "$conf" 2>/dev/null)" != "640 0:$gid" ]; then
        change "make $conf mode 0640, owner root:$USER_NAME (it holds the PIN hash)" \
            bash -c 'chown "0:$1" "$2" "$(dirname "$2")" && chmod 0640 "$2" && chmod 0750 "$(dirname "$2")"' \
            chown "$gid" "$conf"
    fi
    if [ -f "$conf" ]; then
        (cd "$src" && python3 -m game.config check "$conf") ||
            say "fix the problems above in $conf (the game uses defaults for them)"
    fi

    local units_changed=0 unit
    for unit in "$KMSDRM_UNIT" "$CAGE_UNIT"; do
        if ! cmp -s "$src/kiosk/$unit" "$unit_dir/$unit"; then
            change "install $unit_dir/$unit" install -D -m 644 "$src/kiosk/$unit" "$unit_dir/$unit"
            units_changed=1
        fi
    done
    if [ "$units_changed" = 1 ] && [ -z "$ROOT" ]; then
        change "reload systemd" systemctl daemon-reload
    fi
    case "$(unit_state "$other")" in
    enabled*) change "disable $other" sysctl_ disable "$other" ;;
    esac
    [ "$(unit_state "$chosen")" = enabled ] || change "enable $chosen" sysctl_ enable "$chosen"
    case "$(unit_state getty@tty1.service)" in
    enabled*) change "disable getty@tty1 (the game takes tty1)" sysctl_ disable getty@tty1.service ;;
    esac
    if [ "$(sysctl_ get-default 2>/dev/null)" != multi-user.target ]; then
        change "boot to the console (default target multi-user.target)" \
            sysctl_ set-default multi-user.target
    fi
    [ "$(unit_state ctrl-alt-del.target)" = masked ] ||
        change "mask ctrl-alt-del.target (Ctrl+Alt+Del must not reboot the kiosk)" \
            sysctl_ mask ctrl-alt-del.target

    if [ -n "$cmdline" ]; then
        local new_line
        new_line=$(cmdline_with "$cmdline" "${CMDLINE_ARGS[@]}")
        if [ "$new_line" != "$(head -n 1 "$cmdline")" ]; then
            change "kernel command line: ${CMDLINE_ARGS[*]} (after a reboot)" \
                write_cmdline "$cmdline" "$new_line"
        fi
    fi

    if [ "$start" = 1 ] && [ -z "$ROOT" ]; then
        if [ "$CHANGED" = 1 ] || ! systemctl is-active --quiet "$chosen"; then
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
