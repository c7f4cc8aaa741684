"""The operator's settings (config.toml): typed, validated, never fatal.

`load_config(path)` returns a frozen `Config` and a list of problems. Every problem names the key,
the bad value and the expected form; the key then keeps its default. A missing, unreadable or
unparsable file gives all the defaults. Nothing here raises on bad input, so the game always
starts. `python main.py --check-config FILE` (or `python -m game.config check FILE`) prints the
problems and exits non-zero when there is one.

The operator PIN is stored as a salted PBKDF2 hash: `python -m game.config hash-pin` prints the
line to paste into config.toml, `verify_pin` checks a typed PIN against it.

This module must not import pygame: it runs in the check-config tool and in the kiosk scripts.
"""

from __future__ import annotations

import argparse
import difflib
import getpass
import hashlib
import hmac
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

EXIT_OPERATOR = 64
"""Exit status of an operator's exit through the PIN keypad; the systemd unit does not restart
on it (RestartPreventExitStatus=64)."""

EXIT_CRASH = 70
"""Exit status after an uncaught exception (EX_SOFTWARE); systemd restarts the game."""

REPO_ROOT = Path(__file__).resolve().parent.parent
CONFIG_ENV = "SOLITAIRE_CONFIG"


def default_config_path() -> Path:
    """The config file to read: `$SOLITAIRE_CONFIG` when set, else config.toml beside main.py."""
    env = os.environ.get(CONFIG_ENV, "").strip()
    return Path(env).expanduser() if env else REPO_ROOT / "config.toml"


# --------------------------------------------------------------------------------------------
# The settings


@dataclass(frozen=True)
class DisplayConfig:
    fullscreen: bool = True
    width: int = 1280
    height: int = 800
    px_per_mm: float = 0.0
    rotate: int = 0
    show_cursor: bool = True


@dataclass(frozen=True)
class GameConfig:
    locale: str = "fi"
    default_game: str = "russian"
    russian_rules: str = "classic"
    russian_level: str = "easy"
    seahaven_cells: int = 4
    winnable_only: bool = True
    undo_depth: int = 100


@dataclass(frozen=True)
class InputConfig:
    double_tap_ms: int = 300
    tap_slop_mm: float = 3.0
    drag_threshold_mm: float = 2.0
    echo_ms: int = 400


@dataclass(frozen=True)
class DefaultsConfig:
    double_tap: bool = True
    placement_help: bool = True
    interactive_rules: bool = True
    auto_placement: bool = False
    winnable_indicator: bool = False


@dataclass(frozen=True)
class KioskConfig:
    lock: bool = False
    operator_pin_hash: str = ""
    exit_press_seconds: float = 5.0
    idle_attract_minutes: float = 3.0
    idle_new_game_minutes: float = 10.0
    log_dir: str = ""


@dataclass(frozen=True)
class Config:
    display: DisplayConfig = DisplayConfig()
    game: GameConfig = GameConfig()
    input: InputConfig = InputConfig()
    defaults: DefaultsConfig = DefaultsConfig()
    kiosk: KioskConfig = KioskConfig()

    @property
    def game_prefix(self) -> str:
        """The rule-set part of a game code for a fresh deal: "RU1-C", "SH1-C4", ..."""
        if self.game.default_game == "seahaven":
            return f"SH1-C{self.game.seahaven_cells}"
        return "RU1-R" if self.game.russian_rules == "relaxed" else "RU1-C"


SECTIONS: dict[str, type[Any]] = {
    "display": DisplayConfig,
    "game": GameConfig,
    "input": InputConfig,
    "defaults": DefaultsConfig,
    "kiosk": KioskConfig,
}

LOCALES = ("fi", "ru", "en")


# --------------------------------------------------------------------------------------------
# Validation rules: what each key accepts, and how to say so


@dataclass(frozen=True)
class _Rule:
    expected: str
    convert: Callable[[Any], Any | None]  # the checked value, or None when refused


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _bool_rule() -> _Rule:
    return _Rule("true or false", lambda v: v if isinstance(v, bool) else None)


def _int_range(lo: int, hi: int) -> _Rule:
    def convert(v: Any) -> int | None:
        ok = isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
        return v if ok else None

    return _Rule(f"a whole number from {lo} to {hi}", convert)


def _int_choice(*choices: int) -> _Rule:
    def convert(v: Any) -> int | None:
        ok = isinstance(v, int) and not isinstance(v, bool) and v in choices
        return v if ok else None

    return _Rule("one of " + ", ".join(str(c) for c in choices), convert)


def _float_range(lo: float, hi: float, *, zero_ok: bool = False) -> _Rule:
    def convert(v: Any) -> float | None:
        if not _is_number(v) or not math.isfinite(v):
            return None
        if (zero_ok and v == 0) or lo <= v <= hi:
            return float(v)
        return None

    expected = f"a number from {lo} to {hi}"
    if zero_ok:
        expected = f"0 or {expected}"
    return _Rule(expected, convert)


def _str_choice(*choices: str) -> _Rule:
    def convert(v: Any) -> str | None:
        return v if isinstance(v, str) and v in choices else None

    return _Rule("one of " + ", ".join(f'"{c}"' for c in choices), convert)


def _pin_hash_rule() -> _Rule:
    def convert(v: Any) -> str | None:
        if not isinstance(v, str):
            return None
        return v if v == "" or _parse_pin_hash(v) is not None else None

    return _Rule(
        '"" or a hash printed by `python -m game.config hash-pin` '
        '("pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>")',
        convert,
    )


def _dir_rule() -> _Rule:
    def convert(v: Any) -> str | None:
        if not isinstance(v, str) or "\0" in v:
            return None
        return v if v == "" or v.startswith("~") or os.path.isabs(v) else None

    return _Rule('"" or an absolute directory path (or one starting with ~)', convert)


RULES: dict[str, dict[str, _Rule]] = {
    "display": {
        "fullscreen": _bool_rule(),
        "width": _int_range(320, 16384),
        "height": _int_range(240, 16384),
        "px_per_mm": _float_range(1.0, 50.0, zero_ok=True),
        "rotate": _int_choice(0, 90, 180, 270),
        "show_cursor": _bool_rule(),
    },
    "game": {
        "locale": _str_choice(*LOCALES),
        "default_game": _str_choice("russian", "seahaven"),
        "russian_rules": _str_choice("classic", "relaxed"),
        "russian_level": _str_choice("easy", "medium", "hard", "any"),
        "seahaven_cells": _int_choice(4, 2, 1),
        "winnable_only": _bool_rule(),
        "undo_depth": _int_range(1, 100),
    },
    "input": {
        "double_tap_ms": _int_range(100, 1000),
        "tap_slop_mm": _float_range(0.5, 20.0),
        "drag_threshold_mm": _float_range(0.5, 20.0),
        "echo_ms": _int_range(0, 2000),
    },
    "defaults": {
        "double_tap": _bool_rule(),
        "placement_help": _bool_rule(),
        "interactive_rules": _bool_rule(),
        "auto_placement": _bool_rule(),
        "winnable_indicator": _bool_rule(),
    },
    "kiosk": {
        "lock": _bool_rule(),
        "operator_pin_hash": _pin_hash_rule(),
        "exit_press_seconds": _float_range(2.0, 30.0),
        "idle_attract_minutes": _float_range(0.0, 1440.0),
        "idle_new_game_minutes": _float_range(0.0, 10080.0),
        "log_dir": _dir_rule(),
    },
}


def toml_repr(value: Any) -> str:
    """A value as it would be written in TOML, for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, dict):
        return "a table {" + ", ".join(f"{k} = {toml_repr(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(toml_repr(v) for v in value) + "]"
    return str(value)


def _did_you_mean(word: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, known, n=1)
    return f"; did you mean {close[0]}?" if close else ""


def config_from_dict(data: Any) -> tuple[Config, list[str]]:
    """Validate parsed TOML. Every refused key keeps its default and adds one problem."""
    problems: list[str] = []
    if not isinstance(data, dict):
        return Config(), [f"the settings are {toml_repr(data)}, not a table; using the defaults"]
    sections: dict[str, Any] = {}
    for name, cls in SECTIONS.items():
        defaults = cls()
        raw = data.get(name, {})
        if not isinstance(raw, dict):
            problems.append(
                f"{name} = {toml_repr(raw)}: expected a section [{name}]; "
                f"using the defaults for every key of [{name}]"
            )
            raw = {}
        values: dict[str, Any] = {}
        for key, rule in RULES[name].items():
            if key not in raw:
                continue
            checked = rule.convert(raw[key])
            if checked is None:
                default = getattr(defaults, key)
                problems.append(
                    f"{name}.{key} = {toml_repr(raw[key])}: expected {rule.expected}; "
                    f"using the default {toml_repr(default)}"
                )
            else:
                values[key] = checked
        for key in raw:
            if key not in RULES[name]:
                problems.append(
                    f"{name}.{key}: unknown key, ignored (keys of [{name}]: "
                    f"{', '.join(RULES[name])}){_did_you_mean(key, list(RULES[name]))}"
                )
        sections[name] = cls(**values)
    for name in data:
        if name not in SECTIONS:
            problems.append(
                f"[{name}]: unknown section, ignored (sections: {', '.join(SECTIONS)})"
                f"{_did_you_mean(name, list(SECTIONS))}"
            )
    config = Config(**sections)
    if config.kiosk.lock and not config.kiosk.operator_pin_hash:
        problems.append(
            'kiosk.lock = true with kiosk.operator_pin_hash = "": expected a PIN hash from '
            "`python -m game.config hash-pin`; without one the operator exit gesture is "
            "disabled and only `systemctl stop` ends the game"
        )
    return config, problems


def load_config(path: str | os.PathLike[str] | None = None) -> tuple[Config, list[str]]:
    """Read and validate a config file; never raises. Returns the config and its problems."""
    file = Path(path) if path is not None else default_config_path()
    try:
        with open(file, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        return Config(), [f"config file {file} not found; using the defaults"]
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        return Config(), [f"config file {file} is not valid TOML ({error}); using the defaults"]
    except (OSError, ValueError) as error:
        return Config(), [f"cannot read config file {file} ({error}); using the defaults"]
    return config_from_dict(data)


def check_config_file(path: str | os.PathLike[str]) -> int:
    """Print every problem of a config file; 0 when there is none, else 1."""
    _config, problems = load_config(path)
    for problem in problems:
        print(f"{path}: {problem}")
    if problems:
        print(f"{path}: {len(problems)} problem(s)")
        return 1
    print(f"{path}: OK")
    return 0


def effective_px_per_mm(config: Config, screen_width: int, screen_height: int) -> float:
    """Pixels per millimetre: the configured value, else an estimate from the screen size.

    Screens of at most 1280 x 800 pixels (either way round) are taken as 7-inch panels (the
    Raspberry Pi Touch Displays: 800x480 gives 5.2, 720x1280 gives 8.3); larger ones as desktop
    monitors at 96 dpi (3.8 px/mm).
    """
    if config.display.px_per_mm > 0:
        return config.display.px_per_mm
    long_side, short_side = max(screen_width, screen_height), min(screen_width, screen_height)
    if 0 < long_side <= 1280 and 0 < short_side <= 800:
        return math.hypot(screen_width, screen_height) / (7 * 25.4)
    return 96 / 25.4


# --------------------------------------------------------------------------------------------
# The operator PIN

PIN_ITERATIONS = 100_000
_MAX_ITERATIONS = 5_000_000
_PIN_RE = re.compile(r"[0-9]{4,12}")
_HASH_RE = re.compile(r"pbkdf2_sha256\$([0-9]{1,8})\$([0-9a-f]{16,128})\$([0-9a-f]{64})")


def is_valid_pin(pin: str) -> bool:
    """A PIN is 4 to 12 digits (the on-screen keypad has only digits)."""
    return _PIN_RE.fullmatch(pin) is not None


def _parse_pin_hash(stored: str) -> tuple[int, bytes, bytes] | None:
    match = _HASH_RE.fullmatch(stored)
    if match is None:
        return None
    iterations = int(match.group(1))
    if not 1 <= iterations <= _MAX_ITERATIONS or len(match.group(2)) % 2:
        return None
    return iterations, bytes.fromhex(match.group(2)), bytes.fromhex(match.group(3))


def hash_pin(pin: str, salt: bytes | None = None, *, iterations: int = PIN_ITERATIONS) -> str:
    """Hash a PIN for config.toml: "pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>"."""
    if not is_valid_pin(pin):
        raise ValueError(f"a PIN of {len(pin)} characters: expected 4 to 12 digits (0-9)")
    if not 1 <= iterations <= _MAX_ITERATIONS:
        raise ValueError(f"iterations {iterations}: expected 1 to {_MAX_ITERATIONS}")
    salt = os.urandom(16) if salt is None else salt
    if not 8 <= len(salt) <= 64:
        raise ValueError(f"salt of {len(salt)} bytes: expected 8 to 64 bytes")
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode("ascii"), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def verify_pin(pin: str, stored: str) -> bool:
    """True when the PIN matches the stored hash. A malformed hash matches nothing."""
    parsed = _parse_pin_hash(stored)
    if parsed is None or not is_valid_pin(pin):
        return False
    iterations, salt, expected = parsed
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode("ascii"), salt, iterations)
    return hmac.compare_digest(digest, expected)


# --------------------------------------------------------------------------------------------
# Command line: python -m game.config hash-pin | check FILE


def _read_pin(*, interactive: bool) -> str:
    if not interactive:
        return sys.stdin.readline().strip()
    first = getpass.getpass("Operator PIN (4 to 12 digits): ").strip()
    if not is_valid_pin(first):
        return first
    second = getpass.getpass("The same PIN again: ").strip()
    if second != first:
        raise ValueError("the two PINs differ")
    return first


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m game.config", description="Operator tools for config.toml."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "hash-pin",
        help="ask for an operator PIN and print the operator_pin_hash line for config.toml "
        "(reads one line from standard input when it is not a terminal)",
    )
    check = commands.add_parser("check", help="report every problem of a config file")
    check.add_argument("file", nargs="?", default=None, help="default: the game's config file")
    args = parser.parse_args(argv)
    if args.command == "check":
        return check_config_file(args.file if args.file else default_config_path())
    try:
        pin = _read_pin(interactive=sys.stdin.isatty())
        line = f'operator_pin_hash = "{hash_pin(pin)}"'
    except (ValueError, EOFError) as error:
        message = str(error) if isinstance(error, ValueError) else "no PIN given"
        print(f"hash-pin: {message}", file=sys.stderr)
        return 2
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
