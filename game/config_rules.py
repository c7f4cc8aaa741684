"""What each key of config.toml accepts, and how a refused value is shown in a message.

Every check takes any value the TOML parser can give (any type, any size: a 400-digit integer,
a 300-deep array, a megabyte of text) and answers the checked value or None; nothing here
raises. The rule sets and cell counts come from the engine's registry (engine.rules.REGISTRY).
A refused value that looks like a PIN or a PIN hash is never echoed (see game.kiosk.pin.redact).

Must not import pygame.
"""

from __future__ import annotations

import difflib
import math
import os
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeGuard

from engine.rules import REGISTRY
from game.kiosk.pin import looks_secret, parse_pin_hash

LOCALES = ("fi", "ru", "en")
MAX_WINDOW_PX = 8192
"""A window side larger than this is refused: 8192 x 8192 is already 256 MB of pixels."""

LEVELS = ("easy", "medium", "hard", "any")


class Rule(NamedTuple):
    """What one key accepts: in words (for messages) and as a check."""

    expected: str
    convert: Callable[[object], Any | None]  # the checked value, or None when refused
    secret: bool = False  # never show the refused value


def _whole(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def bool_rule() -> Rule:
    return Rule("true or false", lambda v: v if isinstance(v, bool) else None)


def int_range(lo: int, hi: int) -> Rule:
    def convert(v: object) -> int | None:
        return v if _whole(v) and lo <= v <= hi else None

    return Rule(f"a whole number from {lo} to {hi}", convert)


def int_choice(*choices: int) -> Rule:
    def convert(v: object) -> int | None:
        return v if _whole(v) and v in choices else None

    return Rule("one of " + ", ".join(str(c) for c in choices), convert)


def float_range(lo: float, hi: float, *, zero_ok: bool = False) -> Rule:
    def convert(v: object) -> float | None:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return None
        if _whole(v) and not -(10**15) < v < 10**15:  # float(v) could overflow
            return None
        number = float(v)
        if not math.isfinite(number):
            return None
        if (zero_ok and number == 0) or lo <= number <= hi:
            return number
        return None

    expected = f"a number from {lo} to {hi}"
    return Rule(f"0 or {expected}" if zero_ok else expected, convert)


def str_choice(*choices: str) -> Rule:
    def convert(v: object) -> str | None:
        return v if isinstance(v, str) and v in choices else None

    return Rule("one of " + ", ".join(f'"{c}"' for c in choices), convert)


MAX_WORDS = 1000


def words_rule() -> Rule:
    """A list of three-letter words A-Z (any case; kept in upper case)."""

    def convert(v: object) -> tuple[str, ...] | None:
        if not isinstance(v, list) or len(v) > MAX_WORDS:
            return None
        words = tuple(w.upper() for w in v if isinstance(w, str) and len(w) == 3)
        ok = len(words) == len(v) and all("A" <= c <= "Z" for w in words for c in w)
        return words if ok else None

    return Rule(
        f'a list of three-letter words A-Z such as ["ABC", "XYZ"] (at most {MAX_WORDS})', convert
    )


def pin_hash_rule() -> Rule:
    def convert(v: object) -> str | None:
        if not isinstance(v, str):
            return None
        return v if v == "" or parse_pin_hash(v) is not None else None

    return Rule(
        '"" or a hash printed by `python -m game.config hash-pin` '
        '("pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>", at least 100000 iterations)',
        convert,
        secret=True,
    )


def expand_dir(value: str) -> str | None:
    """An absolute directory path with ~ or ~user expanded; None when it cannot be (an unknown
    user, no home directory, a NUL byte, a relative path)."""
    if "\0" in value or len(value) > 4096:
        return None
    try:
        expanded = os.path.expanduser(value)
    except (RuntimeError, KeyError, ValueError, OSError):
        return None
    if expanded.startswith("~") or not os.path.isabs(expanded):
        return None
    return expanded


def dir_rule() -> Rule:
    def convert(v: object) -> str | None:
        if not isinstance(v, str):
            return None
        return v if v == "" or expand_dir(v) is not None else None

    return Rule(
        '"" or an absolute directory path (or ~/..., ~user/... of a user that exists)', convert
    )


def file_rule(example: str = "/etc/solitaire-kiosk/pin-hash") -> Rule:
    def convert(v: Any) -> str | None:
        if not isinstance(v, str):
            return None
        ok = v == "" or ("\0" not in v and len(v) <= 4096 and os.path.isabs(v))
        return v if ok else None

    return Rule(f'"" or an absolute file path such as "{example}"', convert)


def pattern_rule(pattern: str, expected: str) -> Rule:
    """A text that matches ``pattern`` whole ("" too: the key is then unset)."""
    compiled = re.compile(pattern)

    def convert(v: object) -> str | None:
        if not isinstance(v, str):
            return None
        return v if v == "" or compiled.fullmatch(v) else None

    return Rule(f'"" or {expected}', convert)


def text_rule(most: int) -> Rule:
    """Any printable text of at most ``most`` characters (a name shown on screen)."""

    def convert(v: object) -> str | None:
        ok = isinstance(v, str) and len(v) <= most and v.isprintable()
        return v.strip() if ok and isinstance(v, str) else None

    return Rule(f"a text of at most {most} printable characters", convert)


_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = rf"(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*\.?"  # RFC 1123 names, IPv4 addresses
_IPV6 = r"(?=.*:)[0-9A-Fa-f:.]{2,45}"  # an IPv6 literal; the system's resolver says the rest


def _game_rules() -> dict[str, Rule]:
    """The [game] keys whose choices come from the rule-set registry, read at each check so
    that a rule set added to engine.rules.REGISTRY is accepted at once."""
    every = REGISTRY.all()
    games = REGISTRY.games()
    rules = {"default_game": str_choice(*games)}
    for game in games:
        info = REGISTRY.info(game)
        options = tuple(dict.fromkeys(r.option for r in every if r.game == game))
        numbers = tuple(o for o in options if isinstance(o, int))
        words = tuple(o for o in options if isinstance(o, str))
        rules[info.option_key] = int_choice(*numbers) if numbers else str_choice(*words)
    return rules


def current_rules() -> dict[str, dict[str, Rule]]:
    """What each key of each section accepts, with the registry's rule sets as they are now."""
    return {**RULES, "game": {**RULES["game"], **_game_rules()}}


RULES: dict[str, dict[str, Rule]] = {
    "display": {
        "fullscreen": bool_rule(),
        "width": int_range(320, MAX_WINDOW_PX),
        "height": int_range(240, MAX_WINDOW_PX),
        "px_per_mm": float_range(1.0, 50.0, zero_ok=True),
        "rotate": int_choice(0, 90, 180, 270),
        "show_cursor": bool_rule(),
    },
    "game": {
        "locale": str_choice(*LOCALES),
        **_game_rules(),
        "russian_level": str_choice(*LEVELS),
        "winnable_only": bool_rule(),
        "undo_depth": Rule(
            "0 (unlimited) or a whole number from 1 to 100", int_range(0, 100).convert
        ),
    },
    "input": {
        "double_tap_ms": int_range(100, 1000),
        "tap_slop_mm": float_range(0.5, 20.0),
        "drag_threshold_mm": float_range(0.5, 20.0),
        "echo_ms": int_range(0, 2000),
    },
    "defaults": {
        "double_tap": bool_rule(),
        "one_tap": bool_rule(),
        "placement_help": bool_rule(),
        "interactive_rules": bool_rule(),
        "auto_placement": bool_rule(),
        "winnable_indicator": bool_rule(),
        "four_colors": bool_rule(),
        "tap_to_place": bool_rule(),
    },
    "kiosk": {
        "lock": bool_rule(),
        "operator_pin_hash": pin_hash_rule(),
        "operator_pin_file": file_rule(),
        "exit_press_seconds": float_range(2.0, 30.0),
        "idle_attract_minutes": float_range(0.0, 1440.0),
        "idle_new_game_minutes": float_range(0.0, 10080.0),
        "idle_unlocked": bool_rule(),
        "log_dir": dir_rule(),
        "keep_visitor_settings": bool_rule(),
    },
    "sound": {
        "enabled": bool_rule(),
        "volume": float_range(0.0, 1.0),
    },
    "arcade": {
        "initials": bool_rule(),
        "table_size": int_range(1, 100),
        "blocked_initials": words_rule(),
    },
    "metrics": {
        "textfile_dir": dir_rule(),
    },
    "venue": {  # issue 42; what belongs together is checked in game.kiosk.venue_config
        "broker": pattern_rule(
            f"{_HOST}|{_IPV6}", 'a host name or address such as "scores.lan" or "192.168.1.5"'
        ),
        "port": int_range(1, 65535),
        "id": pattern_rule(r"[a-z0-9-]{1,32}", "1 to 32 of a-z, 0-9 and - (part of each topic)"),
        "name": text_rule(40),
        "kiosk": pattern_rule(r"[a-z0-9-]{1,12}", "1 to 12 of a-z, 0-9 and - (its MQTT user)"),
        "credentials_file": file_rule("/etc/solitaire-kiosk/venue-credentials"),
        "ca_file": file_rule("/etc/solitaire-kiosk/venue-ca.crt"),
    },
}

MAX_SHOWN = 80
"""Characters of a refused value shown in a message; longer values are cut."""


def toml_repr(value: object, *, secret: bool = False) -> str:
    """A value as it would be written in TOML, for messages: at most MAX_SHOWN characters, on
    one line, with anything shaped like a PIN or a hash hidden."""
    if secret and value != "":
        kind = "text" if isinstance(value, str) else type(value).__name__
        size = f" of {len(value)} characters" if isinstance(value, str) else ""
        return f"<hidden {kind}{size}>"
    parts: list[str] = []
    _repr_into(value, parts, 0)
    text = "".join(parts)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def _repr_into(value: object, out: list[str], depth: int) -> None:
    """Append the TOML form of `value`, stopping early once enough is written (so a huge or
    deeply nested value costs little and never recurses far)."""
    if sum(len(p) for p in out) > MAX_SHOWN:
        return
    if depth > 8:
        out.append("...")
    elif isinstance(value, bool):
        out.append("true" if value else "false")
    elif isinstance(value, str):
        if looks_secret(value):
            out.append(f"<hidden text of {len(value)} characters>")
        else:
            shown = value[: MAX_SHOWN + 1]
            out.append('"' + shown.encode("unicode_escape").decode("ascii").replace('"', '\\"'))
            out.append('"')
    elif isinstance(value, int):
        digits = value.bit_length() * 0.30103
        out.append(str(value) if digits < 60 else f"<a whole number of about {digits:.0f} digits>")
    elif isinstance(value, dict):
        out.append("a table {")
        for i, (key, item) in enumerate(value.items()):
            if i:
                out.append(", ")
            out.append(f"{str(key)[:MAX_SHOWN]} = ")
            _repr_into(item, out, depth + 1)
            if sum(len(p) for p in out) > MAX_SHOWN:
                break
        out.append("}")
    elif isinstance(value, list | tuple):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(", ")
            _repr_into(item, out, depth + 1)
            if sum(len(p) for p in out) > MAX_SHOWN:
                break
        out.append("]")
    else:
        out.append(str(value)[:MAX_SHOWN])


def did_you_mean(word: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(word[:100], known, n=1)
    return f"; did you mean {close[0]}?" if close else ""


def shown_key(key: object) -> str:
    """A key name for a message: printable, one line, not too long, never a secret."""
    text = str(key)
    if looks_secret(text):
        return "<hidden>"
    text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= 40 else text[:37] + "..."
