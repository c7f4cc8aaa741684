"""The win is seen (issue 25, item 5): "You won!" and its figures stay until the player acts; the
initials keypad of a high score comes only from the panel's Add your initials (issue 38, item 7:
it used to come by itself after 3.5 s, under a finger meant for New deal). Played by the
scripted player."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.i18n import Translator
from tests.arcade.test_arcade import LAST, one_move_to_go, script, state

pytestmark = pytest.mark.unit


def test_the_win_stays_until_the_player_asks_for_the_initials(tmp_path: Path) -> None:
    one_move_to_go(tmp_path)
    early, late, asked = (tmp_path / f"{n}.json" for n in ("early", "late", "asked"))
    shot = Path(__file__).resolve().parents[2] / "out" / "screens" / "win" / "win-800x480.png"
    # The tap's step lets 0.6 s run: the win has shown about 2.8 s at the first state.
    proc = script(
        tmp_path, "--size", "800x480", "--locale", "en", *LAST, "wait", "2.2",
        "state", str(early), "shot", str(shot), "wait", "30", "state", str(late),
        "press", "sign", "state", str(asked),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    en = Translator("en")
    seen = state(early)
    assert seen["won"] and seen["scene"] == "win"
    assert en("win.title") in seen["texts"]
    assert en("win.score", score=seen["score"]) in seen["texts"]
    assert en("arcade.rank_all", place=1) in seen["texts"]
    assert state(late)["scene"] == "win"
    assert "sign" in [button["name"] for button in state(late)["buttons"]]
    assert state(asked)["scene"] == "initials"
