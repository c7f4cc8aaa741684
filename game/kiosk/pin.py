"""The operator PIN: its salted hash in config.toml, the check of a typed PIN, the throttle on
wrong PINs (kept in the state directory, so a power cut gives no fresh tries), and the
redaction that keeps anything shaped like a PIN or a hash out of messages and logs.

`python -m game.config hash-pin` prints the line to paste into config.toml. A new PIN has 6 to
12 digits. The throttle allows 3 tries, then waits 30 s, doubling with each further wrong PIN up
to MAX_WAIT_S (2 minutes) and no further: there is one keypad, so a visitor's wrong PINs make
the operator wait too, and the operator should never wait long. At one guess in 2 minutes (720
a day) a six-digit PIN's million combinations take 1,389 days, 3.8 years, to try (half that on
average); 4 digits, 10,000 combinations, only 14 days, which is why a new PIN needs 6. Hashes of
older installations with 4 or 5 digits still verify.

Must not import pygame.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.safe_read import TooLargeError, read_bytes, reason

if TYPE_CHECKING:
    from game.saves.storage import JsonStore

PIN_ITERATIONS = 200_000
"""PBKDF2 rounds of a new hash (about 0.1 s on a Pi 4)."""
MIN_ITERATIONS = 100_000
"""A hash with fewer rounds is refused: it would let a stolen config file give the PIN away."""
MAX_ITERATIONS = 5_000_000
MIN_NEW_PIN = 6
WHY_SIX = (
    "a new PIN needs 6 to 12 digits: 4 digits are only 10,000 combinations, 6 digits a million"
)

_PIN_RE = re.compile(r"[0-9]{4,12}")
_NEW_PIN_RE = re.compile(r"[0-9]{6,12}")
_HASH_RE = re.compile(r"pbkdf2_sha256\$([0-9]{1,8})\$([0-9a-f]{16,128})\$([0-9a-f]{64})")
_SECRET_RE = re.compile(r"(pbkdf2[^\s\"']*|\$[0-9]+\$[0-9a-fA-F$]{8,}|\b[0-9a-fA-F]{32,}\b)")
_KEY_VALUE_RE = re.compile(r"(operator_pin_hash\s*=\s*)(\"[^\"]+\"|'[^']+'|[^\s\"']\S*)")


MAX_PIN_FILE_BYTES = 4096
_PIN_LINE_RE = re.compile(r'operator_pin_hash\s*=\s*"([^"]*)"')


def read_pin_file(path: str) -> tuple[str, str | None]:
    """The PIN hash in an operator PIN file ([kiosk] operator_pin_file; the Debian package's is
    /etc/solitaire-kiosk/pin-hash): one line, the hash as `hash-pin` prints it (the whole
    printed `operator_pin_hash = "..."` line is taken too). Returns (hash, None); ("", None)
    when the file is empty (no PIN set yet); ("", why) when it is missing or cannot be used,
    the reason never showing what the file holds."""
    try:
        raw = read_bytes(path, MAX_PIN_FILE_BYTES)
    except FileNotFoundError:
        return "", "there is no such file"
    except TooLargeError:
        return "", f"larger than {MAX_PIN_FILE_BYTES} bytes, not a PIN hash"
    except (OSError, ValueError) as error:
        return "", f"cannot read it ({reason(error)})"
    text = raw.decode("utf-8", errors="replace").strip()
    line = _PIN_LINE_RE.fullmatch(text)
    stored = line.group(1) if line else text
    if not stored:
        return "", None
    if parse_pin_hash(stored) is None:
        return "", (
            "it does not hold a hash printed by `python -m game.config hash-pin` "
            f"(pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>, at least {MIN_ITERATIONS} "
            "iterations)"
        )
    return stored, None


def is_valid_pin(pin: str) -> bool:
    """A PIN that can be typed: 4 to 12 digits (the on-screen keypad has only digits)."""
    return _PIN_RE.fullmatch(pin) is not None


def is_valid_new_pin(pin: str) -> bool:
    """A PIN that `hash-pin` accepts: 6 to 12 digits (see WHY_SIX)."""
    return _NEW_PIN_RE.fullmatch(pin) is not None


def parse_pin_hash(stored: str) -> tuple[int, bytes, bytes] | None:
    """(iterations, salt, digest) of a well-formed hash with at least MIN_ITERATIONS, else None."""
    match = _HASH_RE.fullmatch(stored)
    if match is None:
        return None
    iterations = int(match.group(1))
    if not MIN_ITERATIONS <= iterations <= MAX_ITERATIONS or len(match.group(2)) % 2:
        return None
    return iterations, bytes.fromhex(match.group(2)), bytes.fromhex(match.group(3))


def hash_pin(pin: str, salt: bytes | None = None, *, iterations: int = PIN_ITERATIONS) -> str:
    """Hash a new PIN for config.toml: "pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>"."""
    if not is_valid_new_pin(pin):
        raise ValueError(f"a PIN of {len(pin)} characters: {WHY_SIX} (0-9 only)")
    if not MIN_ITERATIONS <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"iterations {iterations}: expected {MIN_ITERATIONS} to {MAX_ITERATIONS}")
    salt = os.urandom(16) if salt is None else salt
    if not 8 <= len(salt) <= 64:
        raise ValueError(f"salt of {len(salt)} bytes: expected 8 to 64 bytes")
    import hashlib  # (here: OpenSSL loads when a PIN is hashed, not before the window)

    digest = hashlib.pbkdf2_hmac("sha256", pin.encode("ascii"), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def verify_pin(pin: str, stored: str) -> bool:
    """True when the PIN matches the stored hash. A malformed or weak hash matches nothing."""
    parsed = parse_pin_hash(stored)
    if parsed is None or not is_valid_pin(pin):
        return False
    iterations, salt, expected = parsed
    import hashlib  # (here: OpenSSL loads when a PIN is checked, not before the window)
    import hmac

    digest = hashlib.pbkdf2_hmac("sha256", pin.encode("ascii"), salt, iterations)
    return hmac.compare_digest(digest, expected)


def looks_secret(text: str) -> bool:
    """True for a string shaped like a PIN (4+ digits and nothing else) or a hash."""
    stripped = text.strip()
    if stripped.isdigit() and len(stripped) >= 4:
        return True
    return _SECRET_RE.search(text) is not None


def redact(text: str) -> str:
    """`text` with hash-shaped parts and the value of any operator_pin_hash = ... hidden."""
    text = _KEY_VALUE_RE.sub(r"\1<hidden>", text)
    return _SECRET_RE.sub("<hidden>", text)


# --------------------------------------------------------------------------------------------
# The throttle on wrong PINs, in the state directory

THROTTLE_FILE = "pin-throttle.json"
TRIES_BEFORE_WAIT = 3
"""Wrong PINs in a row before the keypad waits."""
FIRST_WAIT_S = 30.0
"""The first wait; each further wrong PIN doubles it, up to MAX_WAIT_S."""
MAX_WAIT_S = 120.0
"""The longest wait: an operator locked out by a visitor's tries waits no more than this."""


def _finite(value: object) -> float | None:
    """A JSON number as a float, None for anything else (a bool, a 400-digit integer, NaN)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int) and abs(value) >= 10**15:
        return None
    number = float(value)
    return number if math.isfinite(number) else None


class PinThrottle:
    """The keypad's wrong PINs in a row and the wall-clock time (`time.time()`) until which it
    refuses, kept in `pin-throttle.json` of the state directory: a restart or a power cut
    resumes the wait instead of giving fresh tries. The keypad (game.kiosk.models.PinPad) does the
    counting on its own clock and calls `remember` after each wrong or right PIN."""

    def __init__(self, directory: Path | None) -> None:
        from game.saves.storage import JsonStore  # the state files' module: not at start-up

        self.store: JsonStore | None = (
            JsonStore(directory / THROTTLE_FILE, kind="pin-throttle", version=1)
            if directory is not None
            else None
        )

    def recall(self, wall_now: float, max_wait_s: float) -> tuple[int, float]:
        """(wrong PINs in a row, seconds still to wait) as saved; (0, 0) when nothing is.
        A clock set back cannot stretch the wait past `max_wait_s`."""
        data: Any = self.store.load() if self.store is not None else None
        if not isinstance(data, dict):
            return 0, 0.0
        wrong, until = data.get("wrong"), data.get("locked_until")
        count = wrong if isinstance(wrong, int) and not isinstance(wrong, bool) else 0
        count = min(max(count, 0), 10_000)
        deadline = _finite(until)
        wait = 0.0 if deadline is None else min(max_wait_s, max(0.0, deadline - wall_now))
        return count, wait

    def remember(self, wrong: int, wait_s: float, wall_now: float) -> None:
        """Save the count and the wait; a right PIN (0 wrong) deletes the file."""
        if self.store is None:
            return
        if wrong == 0:
            self.store.clear()
        else:
            self.store.save({"wrong": wrong, "locked_until": round(wall_now + wait_s, 3)})
