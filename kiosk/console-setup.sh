#!/usr/bin/env bash
# Give a kiosk's console to the game: the one place this is written, run by kiosk/install.sh
# and the fleet playbook, and by hand on a kiosk with the package:
#
#   sudo /usr/lib/solitaire-kiosk/kiosk/console-setup.sh             # make the changes
#   sudo /usr/lib/solitaire-kiosk/kiosk/console-setup.sh --dry-run   # print them, change nothing
#   console-setup.sh --root DIR         # every path under DIR (tests, an image being built)
#   console-setup.sh --no-cmdline       # leave the kernel command line alone (not a Pi)
#
# What it does, each step only where it is not so already (a second run changes nothing):
#  1. frees tty1 for the game (getty@tty1 disabled);
#  2. boots to the console (default target multi-user.target: a desktop would hold the display);
#  3. masks ctrl-alt-del.target (a keyboard's Ctrl+Alt+Del must not reboot the kiosk);
#  4. sets consoleblank=0 vt.global_cursor_default=0 on the kernel command line
#     (/boot/firmware/cmdline.txt, else /boot/cmdline.txt; an existing consoleblank=600 is
#     replaced; the first change keeps the file as cmdline.txt.solitaire-bak): after a reboot.
# Each change prints one line, "change: ..." (or "would: ..." with --dry-run); nothing else
# starts with those words. Without systemctl (a chroot without systemd) steps 1-3 are left out,
# without a command line file step 4.
set -euo pipefail

# shellcheck source=kiosk/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CMDLINE_ARGS=(consoleblank=0 vt.global_cursor_default=0)

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

# cmdline_changes FILE ARG...: what cmdline_with would change, in words: "add NAME=VALUE" for
# a missing argument, "OLD -> NEW" for a value replaced, joined by ", ".
cmdline_changes() {
    local file=$1
    shift
    local line arg word old out=""
    line=$(head -n 1 "$file")
    for arg in "$@"; do
        old=""
        for word in $line; do
            if [ "${word%%=*}" = "${arg%%=*}" ]; then
                old=$word
                break
            fi
        done
        if [ -z "$old" ]; then
            out="$out, add $arg"
        elif [ "$old" != "$arg" ]; then
            out="$out, $old -> $arg"
        fi
    done
    printf '%s\n' "${out#, }"
}

# write_cmdline FILE LINE: replace the one-line FILE (a backup FILE.solitaire-bak is kept once).
write_cmdline() {
    local file=$1 line=$2
    [ -e "$file.solitaire-bak" ] || cp -p "$file" "$file.solitaire-bak"
    printf '%s\n' "$line" >"$file.tmp"
    mv "$file.tmp" "$file"
}

main() {
    local use_cmdline=1 arg
    ROOT=""
    DRY=0
    CHANGED=0
    while [ $# -gt 0 ]; do
        arg=$1
        shift
        case "$arg" in
        --dry-run) DRY=1 ;;
        --no-cmdline) use_cmdline=0 ;;
        --root)
            [ $# -gt 0 ] || die "--root needs a directory"
            ROOT=${1%/}
            shift
            ;;
        --root=*) ROOT=${arg#*=} ROOT=${ROOT%/} ;;
        -h | --help)
            awk 'NR > 1 && !/^#/ { exit } NR > 1 { print }' "$0"
            return 0
            ;;
        *) die "unknown option $arg (try --help)" ;;
        esac
    done

    # Check first: nothing changes unless every step can be made.
    local cmdline=""
    [ "$use_cmdline" = 0 ] || cmdline=$(cmdline_file)
    [ -z "$cmdline" ] || [ -f "$cmdline" ] || cmdline=""
    if [ "$DRY" = 0 ]; then
        [ "$(id -u)" = 0 ] || [ -n "$ROOT" ] || die "run as root (or --dry-run to only see the changes)"
        [ -z "$cmdline" ] || [ -w "$cmdline" ] || die "kernel command line $cmdline is not writable"
    fi
    [ -z "$ROOT" ] || [ -d "$ROOT" ] || die "--root $ROOT: no such directory"

    if command -v systemctl >/dev/null 2>&1; then
        case "$(unit_state getty@tty1.service)" in
        enabled*) change "disable getty@tty1 (the game takes tty1)" sysctl_ disable getty@tty1.service ;;
        esac
        local target
        target=$(sysctl_ get-default 2>/dev/null) || target=""
        if [ "$target" != multi-user.target ]; then
            change "boot to the console: default target ${target:-unknown} -> multi-user.target" \
                sysctl_ set-default multi-user.target
        fi
        [ "$(unit_state ctrl-alt-del.target)" = masked ] ||
            change "mask ctrl-alt-del.target (Ctrl+Alt+Del must not reboot the kiosk)" \
                sysctl_ mask ctrl-alt-del.target
    else
        say "no systemctl here: tty1, the boot target and Ctrl+Alt+Del left as they are"
    fi

    if [ -n "$cmdline" ]; then
        local new_line
        new_line=$(cmdline_with "$cmdline" "${CMDLINE_ARGS[@]}")
        if [ "$new_line" != "$(head -n 1 "$cmdline")" ]; then
            change "kernel command line ${cmdline#"$ROOT"}: $(cmdline_changes "$cmdline" "${CMDLINE_ARGS[@]}") (after a reboot)" \
                write_cmdline "$cmdline" "$new_line"
        fi
    elif [ "$use_cmdline" = 1 ]; then
        say "no kernel command line file ($ROOT/boot/firmware/cmdline.txt): not a Pi, left out"
    fi
    if [ "$CHANGED" = 0 ]; then
        say "console: nothing to change"
    elif [ "$DRY" = 1 ]; then
        say "console: dry run, nothing was changed"
    fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
