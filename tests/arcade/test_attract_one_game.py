"""The attract screen speaks of one game at a time (issue 25, item 7): the demo, today's best,
the all-time best and how to play of one turn of the rotation are about the same game, and the
games take turns. Played by the scripted player on an idle kiosk."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.arcade.test_arcade import script, state

pytestmark = pytest.mark.unit

NAMES = ("Russian Solitaire", "Seahaven Towers")


def test_each_turn_of_the_attract_screen_is_about_one_game(tmp_path: Path) -> None:
    # The visitor left Seahaven on the table; the chosen game (the operator's) is Russian.
    outs = [tmp_path / f"{n}.json" for n in range(19)]
    steps = [word for out in outs for word in ("wait", "6", "state", str(out))]
    config = "[kiosk]\nidle_attract_minutes = 0.02\nidle_unlocked = true\n"
    proc = script(
        tmp_path, "--size", "800x480", "--locale", "en", "--code", "SH1-C4-AAAAAJ2", *steps,
        config=config,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    seen: list[tuple[str, str]] = []  # (what the screen shows first, the game it names)
    for out in outs:
        data = state(out)
        assert data["scene"] == "attract"
        named = {name for name in NAMES for text in data["texts"] if name in text}
        assert len(named) == 1, data["texts"]
        seen.append((data["texts"][0], named.pop()))
    # The game changes only where the demo starts a new turn (its table's title first).
    for (_, before), (first, after) in itertools.pairwise(seen):
        if after != before:
            assert first.startswith(after), seen
    assert seen[0][1] == "Russian Solitaire"
    assert {game for _, game in seen} == set(NAMES), seen
