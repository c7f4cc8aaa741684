"""The operator PIN file of the Debian package: the tools its maintainer scripts and
`solitaire-kiosk-pin` run (`python -m game.kiosk.pinfile ...`, as root or as the game's user).

The PIN hash lives in a file of its own (/etc/solitaire-kiosk/pin-hash, mode 0640, root and the
game's group) that [kiosk] operator_pin_file names, so no conffile question of dpkg can lose it.

    write FILE [--group G] [--from CONFIG...]
                            the hash on standard input (or nothing: an empty file) into FILE,
                            atomically, mode 0640, owner root (when run as root), group G;
                            --from: the hash of the first CONFIG holding one (an older config
                            with operator_pin_hash), else an empty file
    status CONFIG           "set" (the game has a PIN), "missing" (lock on, no PIN) or
                            "unlocked" (lock off, no PIN)
    reads CONFIG            exit 0 when the game, reading CONFIG, takes the hash on standard
                            input as its PIN; else exit 1 saying where it takes its PIN from
    use CONFIG FILE         make [kiosk] operator_pin_file = FILE in CONFIG, whatever form the
                            file has, and an operator_pin_hash there "" (only the file counts;
                            an older hash left there would only mislead), checked by parsing the
                            result (every other value the same)

Nothing here prints a hash. Must not import pygame.
"""

from __future__ import annotations

import argparse
import grp
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from game.config import MAX_CONFIG_BYTES, load_config
from game.config_rules import toml_repr
from game.kiosk.pin import parse_pin_hash
from game.saves.storage import replace_file

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

_KIOSK_HEADER = re.compile(r"\s*\[\s*kiosk\s*\]\s*(#.*)?")
_ANY_HEADER = re.compile(r"\s*\[")
_PIN_FILE_KEY = re.compile(r"\s*operator_pin_file\s*=")
_PIN_HASH_KEY = re.compile(r"\s*operator_pin_hash\s*=")


def pointed_at(text: str, pin_file: str) -> str | None:
    """`text` (a config.toml) with [kiosk] operator_pin_file = `pin_file`: the key's line
    replaced, else the line added under [kiosk] (a header with a comment or spaces too), else a
    [kiosk] table added at the end; an operator_pin_hash line of [kiosk] becomes
    `operator_pin_hash = ""`. None when the result would not parse to the same settings
    with only that key set (a config that is not valid TOML, [kiosk] written as dotted keys or
    an inline table, a key line that opens a multi-line string)."""
    try:
        before: dict[str, object] = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return None
    line = f"operator_pin_file = {json.dumps(pin_file)}\n"  # (toml_repr shortens long paths)
    lines = text.splitlines(keepends=True)
    header = next((i for i, s in enumerate(lines) if _KIOSK_HEADER.fullmatch(s.rstrip("\n"))), -1)
    if header < 0:
        ending = "" if not text or text.endswith("\n") else "\n"
        result = f"{text}{ending}\n[kiosk]\n{line}"
    else:
        end = next(
            (i for i in range(header + 1, len(lines)) if _ANY_HEADER.match(lines[i])), len(lines)
        )
        for i in range(header + 1, end):
            if _PIN_HASH_KEY.match(lines[i]):
                lines[i] = 'operator_pin_hash = ""\n'
        key = next((i for i in range(header + 1, end) if _PIN_FILE_KEY.match(lines[i])), -1)
        if key >= 0:
            lines[key] = line
        else:
            lines.insert(header + 1, line)
        result = "".join(lines)
    try:
        after: dict[str, object] = tomllib.loads(result)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return None
    kiosk = before.get("kiosk", {})
    if not isinstance(kiosk, dict):
        return None
    wanted: dict[str, object] = {**kiosk, "operator_pin_file": pin_file}
    if "operator_pin_hash" in kiosk:
        wanted["operator_pin_hash"] = ""
    before["kiosk"] = wanted
    return result if after == before else None


def _write(file: str, group: str | None, configs: Sequence[str]) -> int:
    if configs:  # the hash an older config holds in operator_pin_hash, or none
        found = (_config_hash(c) for c in configs if Path(c).is_file())
        stored = next((h for h in found if h), "")
    else:
        stored = sys.stdin.read().strip()
    if stored and parse_pin_hash(stored) is None:
        print("write: not a PIN hash from `python -m game.config hash-pin`", file=sys.stderr)
        return 2
    gid = grp.getgrnam(group).gr_gid if group else os.getegid()
    replace_file(Path(file), stored + "\n" if stored else "", mode=0o640, owner=(0, gid))
    return 0


def _config_hash(config_file: str) -> str:
    """The operator_pin_hash written in `config_file`'s [kiosk] ("" when none or unusable),
    whether or not the config also names a PIN file (an older kiosk's, being moved over)."""
    try:
        raw = Path(config_file).read_bytes()[: MAX_CONFIG_BYTES + 1]
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError, ValueError):
        return ""
    kiosk = data.get("kiosk")
    stored = kiosk.get("operator_pin_hash") if isinstance(kiosk, dict) else None
    if not isinstance(stored, str) or parse_pin_hash(stored.strip()) is None:
        return ""
    return stored.strip()


def _status(config_file: str) -> int:
    kiosk = load_config(config_file)[0].kiosk
    print("set" if kiosk.operator_pin_hash else "missing" if kiosk.lock else "unlocked")
    return 0


def _reads(config_file: str) -> int:
    expected = sys.stdin.read().strip()
    kiosk = load_config(config_file)[0].kiosk
    if expected and kiosk.operator_pin_hash == expected:
        return 0
    if not kiosk.operator_pin_file:
        where = "its [kiosk] has no operator_pin_file"
        source = "operator_pin_hash" if kiosk.operator_pin_hash else "nowhere (no PIN)"
    else:
        where = f"its operator_pin_file is {toml_repr(kiosk.operator_pin_file)}"
        source = "that file" if kiosk.operator_pin_hash else "nowhere (no PIN)"
    print(f"the game reading {config_file} takes its PIN from {source}: {where}")
    return 1


def _use(config_file: str, pin_file: str) -> int:
    path = Path(config_file)
    try:
        raw = path.read_bytes()[: MAX_CONFIG_BYTES + 1]
        text = raw.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        print(f"use: cannot read {config_file} ({error})", file=sys.stderr)
        return 1
    result = None if len(raw) > MAX_CONFIG_BYTES else pointed_at(text, pin_file)
    if result is None:
        print(
            f"use: {config_file} was left as it is: it is not valid TOML, or its [kiosk] is not "
            "a [kiosk] table of its own; add the line\n"
            f"    operator_pin_file = {toml_repr(pin_file)}\n"
            "to its [kiosk] table by hand",
            file=sys.stderr,
        )
        return 1
    if result != text:
        st = path.stat()
        replace_file(path, result, mode=st.st_mode & 0o7777, owner=(st.st_uid, st.st_gid))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m game.kiosk.pinfile",
        description="The operator PIN file of the kiosk package.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    write = commands.add_parser("write", help="write the hash on standard input to FILE")
    write.add_argument("file")
    write.add_argument("--group", default=None)
    write.add_argument("--from", dest="configs", nargs="+", default=[], metavar="CONFIG")
    for name in ("status", "reads"):
        commands.add_parser(name).add_argument("config")
    use = commands.add_parser("use", help="make CONFIG's [kiosk] operator_pin_file FILE")
    use.add_argument("config")
    use.add_argument("file")
    args = parser.parse_args(argv)
    if args.command == "write":
        return _write(args.file, args.group, args.configs)
    if args.command == "status":
        return _status(args.config)
    if args.command == "reads":
        return _reads(args.config)
    return _use(args.config, args.file)


if __name__ == "__main__":
    sys.exit(main())
