"""How many random examples the randomised tests try: the Hypothesis properties and the soak's
gestures. Two profiles, chosen by ``$SOLITAIRE_TEST_PROFILE``: ``fast`` (a bare ``pytest``, a
quarter of the examples) and ``full`` (./test.sh sets it: every example each test asks for).
Each test keeps its full count in its own code (``examples(300)``); only the fast profile trims
it, so the same assertions run either way, on fewer random cases."""

from __future__ import annotations

import os

from hypothesis import settings

PROFILES = ("fast", "full")
FAST_SHARE = 4  # the fast profile tries a quarter of each test's examples
FAST_LEAST = 10  # and never fewer than this

settings.register_profile("full", deadline=None)
settings.register_profile("fast", deadline=None, max_examples=25)


def chosen(environ: dict[str, str] | None = None) -> str:
    """The profile ``$SOLITAIRE_TEST_PROFILE`` names (fast when unset); any other value is
    refused, so a typo in ./test.sh never quietly runs the fast one."""
    name = (os.environ if environ is None else environ).get("SOLITAIRE_TEST_PROFILE", "fast")
    if name not in PROFILES:
        raise ValueError(f"SOLITAIRE_TEST_PROFILE={name!r}: expected one of {PROFILES}")
    return name


PROFILE = chosen()
settings.load_profile(PROFILE)


def examples(full: int, least: int = FAST_LEAST) -> int:
    """A randomised test's number of examples: ``full`` in the full profile, a quarter of it
    (at least ``least``, at most ``full``) in the fast one."""
    if PROFILE == "full":
        return full
    return min(full, max(least, full // FAST_SHARE))
