"""The operator's settings (config.toml): typed, validated, never fatal.

`load_config(path)` returns a frozen `Config` and a list of problems. It is the one validator:
the game and `python main.py --check-config FILE` (or `python -m game.config check FILE`) both
call it, so whatever the check accepts starts the game, and whatever it refuses falls back to
the key's default with one line naming the key, the value and the expected form. Nothing in a
config file raises out of it: any type, size (the file is read up to MAX_CONFIG_BYTES), nesting
(a 500-deep array makes the TOML parser recurse too deep), encoding, number (a 5,000-digit
integer exceeds Python's int-string limit) or path (`~nosuchuser/...`). What each key accepts
is in game.config_rules; the PIN hash and its checks are in game.kiosk.pin.

`python -m game.config hash-pin` prints the operator_pin_hash line to paste into config.toml.

This module must not import pygame: it runs in the check-config tool and in the kiosk scripts.
"""

from __future__ import annotations

import argparse
import getpass
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from engine.safe_read import TooLargeError, read_bytes, reason
from game.config_rules import (
    LOCALES,
    RULES,
    current_rules,
    did_you_mean,
    shown_key,
    toml_repr,
)
from game.kiosk.pin import WHY_SIX, hash_pin, is_valid_new_pin, read_pin_file, verify_pin
from game.kiosk.venue_config import VenueConfig, venue_problems

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

__all__ = [
    "CONFIG_ENV",
    "EXIT_CRASH",
    "EXIT_OPERATOR",
    "LOCALES",
    "RULES",
    "Config",
    "check_config_file",
    "config_from_dict",
    "default_config_path",
    "effective_px_per_mm",
    "hash_pin",
    "load_config",
    "verify_pin",
]

EXIT_OPERATOR = 64
"""Exit status of an operator's exit through the PIN keypad; the systemd unit does not restart
on it (RestartPreventExitStatus=64)."""

EXIT_CRASH = 70
"""Exit status after an uncaught exception (EX_SOFTWARE); systemd restarts the game."""

REPO_ROOT = Path(__file__).resolve().parent.parent
CONFIG_ENV = "SOLITAIRE_CONFIG"
MAX_CONFIG_BYTES = 1_000_000


def default_config_path() -> Path:
    """The config file to read: `$SOLITAIRE_CONFIG` when set, else config.toml beside main.py.
    A `~user` that cannot be expanded is left as written (then the file is not found)."""
    env = os.environ.get(CONFIG_ENV, "").strip()
    if not env:
        return REPO_ROOT / "config.toml"
    try:
        return Path(env).expanduser()
    except (RuntimeError, KeyError, ValueError, OSError):
        return Path(env)


# --------------------------------------------------------------------------------------------
# The settings
# Each section is a NamedTuple, made at every start before the window opens: a frozen
# dataclass costs ten times as much to make (it compiles six methods). [defaults], which the
# player's settings extend (game.saves.prefs.PlayerSettings: a dataclass subclass, fields,
# asdict), stays a dataclass, with a docstring: where a dataclass has none, @dataclass writes
# its signature there through inspect.


class DisplayConfig(NamedTuple):
    """[display]: the window or the whole screen, its turn, the pointer."""

    fullscreen: bool = True
    width: int = 1280
    height: int = 800
    px_per_mm: float = 0.0
    rotate: int = 0
    show_cursor: bool = True


class GameConfig(NamedTuple):
    """[game]: the language, the game and rule set of fresh deals, their level, undo's depth."""

    locale: str = "fi"
    default_game: str = "russian"
    russian_rules: str = "classic"
    russian_level: str = "easy"
    seahaven_cells: int = 4
    winnable_only: bool = True
    undo_depth: int = 100


class InputConfig(NamedTuple):
    """[input]: how taps and drags are told apart."""

    double_tap_ms: int = 300
    tap_slop_mm: float = 3.0
    drag_threshold_mm: float = 2.0
    echo_ms: int = 400


@dataclass(frozen=True)
class DefaultsConfig:
    """[defaults]: the player's toggles until the player changes them (game.saves.prefs)."""

    double_tap: bool = True
    one_tap: bool = False  # seed 003: one tap moves a card (and what lies on it) to its place
    placement_help: bool = True
    interactive_rules: bool = True
    auto_placement: bool = False
    winnable_indicator: bool = False
    four_colors: bool = False
    tap_to_place: bool = False  # a tap chooses a card that cannot go home, the next its place


class KioskConfig(NamedTuple):
    """[kiosk]: the lock, the operator's PIN, the idle times, the log directory."""

    lock: bool = False
    operator_pin_hash: str = ""
    operator_pin_file: str = ""  # when set, only its hash counts (game.kiosk.pin.read_pin_file)
    exit_press_seconds: float = 5.0
    idle_attract_minutes: float = 3.0
    idle_new_game_minutes: float = 10.0
    idle_unlocked: bool = False  # the idle times act without the lock too (game.kiosk.controller)
    log_dir: str = ""
    keep_visitor_settings: bool = False


class SoundConfig(NamedTuple):
    """The card sounds' defaults (game.sound); the player can change both in settings."""

    enabled: bool = False  # off: nothing starts pygame.mixer
    volume: float = 0.6


class ArcadeConfig(NamedTuple):
    """[arcade]: the high-score tables and the initials they are signed with."""

    initials: bool = True  # a win that enters a high-score table asks for three letters
    table_size: int = 10  # entries of each high-score table (1..100)
    blocked_initials: tuple[str, ...] = ()  # refused as initials besides the built-in list


class MetricsConfig(NamedTuple):
    """[metrics]: where the figures for node_exporter are written."""

    textfile_dir: str = (
        ""  # node_exporter's textfile directory ("": no metrics; game.kiosk.metrics)
    )


class Config(NamedTuple):
    """All of config.toml, one frozen record per section."""

    display: DisplayConfig = DisplayConfig()
    game: GameConfig = GameConfig()
    input: InputConfig = InputConfig()
    defaults: DefaultsConfig = DefaultsConfig()
    kiosk: KioskConfig = KioskConfig()
    sound: SoundConfig = SoundConfig()
    arcade: ArcadeConfig = ArcadeConfig()
    metrics: MetricsConfig = MetricsConfig()
    venue: VenueConfig = VenueConfig()  # game.kiosk.venue_config


DEFAULTS = Config()
"""The settings of a config.toml that says nothing."""

KIOSK_DEFAULTS = Config(
    display=DisplayConfig(fullscreen=True, show_cursor=False), kiosk=KioskConfig(lock=True)
)
"""The base under the kiosk units (`main.py --kiosk`): what the config does not say, or says
wrongly, or a config that cannot be used at all, leaves the kiosk locked, fullscreen and
without a cursor, never a desktop window anyone can close."""

SECTIONS: dict[str, type[Any]] = {
    "display": DisplayConfig,
    "game": GameConfig,
    "input": InputConfig,
    "defaults": DefaultsConfig,
    "kiosk": KioskConfig,
    "sound": SoundConfig,
    "arcade": ArcadeConfig,
    "metrics": MetricsConfig,
    "venue": VenueConfig,
}


def config_from_dict(data: Any, base: Config = DEFAULTS) -> tuple[Config, list[str]]:
    """Validate parsed TOML. Every refused key keeps its default (``base``'s: KIOSK_DEFAULTS
    for the kiosk units) and adds one problem."""
    problems: list[str] = []
    if not isinstance(data, dict):
        return base, [f"the settings are {toml_repr(data)}, not a table; {_using(base)}"]
    sections: dict[str, Any] = {}
    accepted = current_rules()
    for name in SECTIONS:
        defaults = getattr(base, name)
        raw = data.get(name, {})
        if not isinstance(raw, dict):
            problems.append(
                f"{name} = {toml_repr(raw)}: expected a section [{name}]; "
                f"using the defaults for every key of [{name}]"
            )
            raw = {}
        values: dict[str, Any] = {}
        for key, rule in accepted[name].items():
            if key not in raw:
                continue
            checked = rule.convert(raw[key])
            if checked is None:
                default = getattr(defaults, key)
                problems.append(
                    f"{name}.{key} = {toml_repr(raw[key], secret=rule.secret)}: expected "
                    f"{rule.expected}; using the default {toml_repr(default)}"
                )
            else:
                values[key] = checked
        for key in raw:
            if key not in accepted[name]:
                problems.append(
                    f"{name}.{shown_key(key)}: unknown key, ignored (keys of [{name}]: "
                    f"{', '.join(accepted[name])}){did_you_mean(str(key), list(accepted[name]))}"
                )
        if isinstance(defaults, DefaultsConfig):  # a dataclass (see above)
            sections[name] = replace(defaults, **values)
        else:
            sections[name] = defaults._replace(**values)
    for name in data:
        if name not in SECTIONS:
            problems.append(
                f"[{shown_key(name)}]: unknown section, ignored (sections: {', '.join(SECTIONS)})"
                f"{did_you_mean(str(name), list(SECTIONS))}"
            )
    config = Config(**sections)
    kiosk = config.kiosk
    if kiosk.operator_pin_file:
        # Only the file counts (issue 39): an operator_pin_hash beside it is never used, so an
        # emptied or lost PIN file cannot bring an older PIN back.
        stored, why = read_pin_file(kiosk.operator_pin_file)
        if why is not None:
            problems.append(
                f"kiosk.operator_pin_file = {toml_repr(kiosk.operator_pin_file)}: {why}; "
                "no PIN from it"
            )
        config = config._replace(kiosk=kiosk._replace(operator_pin_hash=stored))
    if config.kiosk.lock and not config.kiosk.operator_pin_hash:
        problems.append(_no_pin_problem(kiosk))
    venue, venue_said = venue_problems(config.venue, isinstance(data.get("venue"), dict))
    return config._replace(venue=venue), problems + venue_said


def _no_pin_problem(kiosk: KioskConfig) -> str:
    after = (
        "; without one the operator exit gesture is disabled and only `systemctl stop` ends "
        "the game"
    )
    if not kiosk.operator_pin_file:
        return (
            'kiosk.lock = true with kiosk.operator_pin_hash = "": expected a PIN hash from '
            "`python -m game.config hash-pin`" + after
        )
    ignored = (
        " (only that file counts: kiosk.operator_pin_hash is not used beside it)"
        if kiosk.operator_pin_hash
        else ' and kiosk.operator_pin_hash = ""'
    )
    return (
        f"kiosk.lock = true with no operator PIN: kiosk.operator_pin_file "
        f"{toml_repr(kiosk.operator_pin_file)} holds no hash{ignored}; expected a PIN "
        "(the Debian package: sudo solitaire-kiosk-pin)" + after
    )


def load_config(
    path: str | os.PathLike[str] | None = None, *, kiosk: bool = False
) -> tuple[Config, list[str]]:
    """Read and validate a config file; never raises. Returns the config and its problems.
    ``kiosk`` (`main.py --kiosk`, the kiosk units): KIOSK_DEFAULTS stand in for what the file
    does not say or cannot say (not found, not TOML, ...), so a typo never unlocks a kiosk."""
    base = KIOSK_DEFAULTS if kiosk else Config()
    try:
        file = Path(path) if path is not None else default_config_path()
        return _load(file, base)
    except Exception as error:  # the last line of defence: the game must start
        return base, [f"config file {path} could not be read ({error!r}); {_using(base)}"]


def _using(base: Config) -> str:
    """What stands in for a config that cannot be used, in words."""
    if base == KIOSK_DEFAULTS:
        return "using the kiosk defaults (locked, fullscreen, no cursor)"
    return "using the defaults"


def _load(file: Path, base: Config) -> tuple[Config, list[str]]:
    using = _using(base)
    try:
        raw = read_bytes(file, MAX_CONFIG_BYTES)  # never a FIFO or a device
    except FileNotFoundError:
        return base, [f"config file {file} not found; {using}"]
    except TooLargeError:
        return base, [f"config file {file} is larger than {MAX_CONFIG_BYTES} bytes; {using}"]
    except (OSError, ValueError) as error:
        return base, [f"cannot read config file {file} ({reason(error)}); {using}"]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return base, [f"config file {file} is not UTF-8 text ({error}); {using}"]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return base, [f"config file {file} is not valid TOML ({error}); {using}"]
    except RecursionError:
        return base, [f"config file {file} nests arrays or tables too deeply; {using}"]
    except (ValueError, OverflowError, MemoryError) as error:  # e.g. a 5,000-digit number
        return base, [f"config file {file} holds a value Python cannot read ({error}); {using}"]
    return config_from_dict(data, base)


KIOSK_STATE_DIR = "/var/lib/solitaire-kiosk"
"""The one directory the kiosk units (ProtectSystem=strict, StateDirectory=) let the game write."""


def unit_warnings(config: Config) -> list[str]:
    """What the game tolerates but the kiosk units would defeat: a log_dir outside the state
    directory can never be written under ProtectSystem=strict."""
    log_dir = config.kiosk.log_dir
    if not log_dir:
        return []
    inside = os.path.normpath(log_dir) + "/"
    if inside.startswith(KIOSK_STATE_DIR + "/"):
        return []
    return [
        f"kiosk.log_dir = {toml_repr(log_dir)}: the kiosk units (ProtectSystem=strict) let the "
        f"game write only {KIOSK_STATE_DIR}, so under them no log is written there; use a "
        f'directory inside it or "" (fine as it is on a desktop)'
    ]


def check_config_file(path: str | os.PathLike[str], *, kiosk: bool = False) -> int:
    """Print every problem of a config file (as the kiosk units read it with ``kiosk``), then any
    warning; 0 when there is no problem (warnings alone do not fail the check), else 1."""
    config, problems = load_config(path, kiosk=kiosk)
    for problem in problems:
        print(f"{path}: {problem}")
    warnings = unit_warnings(config)
    for warning in warnings:
        print(f"{path}: warning: {warning}")
    if problems:
        print(f"{path}: {len(problems)} problem(s)")
        return 1
    print(f"{path}: OK" + (f" ({len(warnings)} warning(s))" if warnings else ""))
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
# Command line: python -m game.config hash-pin | check FILE


def _read_pin(*, interactive: bool) -> str:
    if not interactive:
        return sys.stdin.readline().strip()
    first = getpass.getpass("Operator PIN (6 to 12 digits): ").strip()
    if not is_valid_new_pin(first):
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
        help="ask for an operator PIN (6 to 12 digits) and print the operator_pin_hash line for "
        "config.toml (reads one line from standard input when it is not a terminal)",
        description=WHY_SIX[0].upper() + WHY_SIX[1:] + ".",
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
