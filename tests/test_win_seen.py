"""The win is seen (issue 25, item 5): "You won!" and its figures show for at least three
seconds before the initials keypad of a high score covers them. Played by the scripted player."""

from __future__ import annotations

from pathlib import Path

from game.i18n import Translator
from tests.test_arcade import LAST, one_move_to_go, script, state


def test_the_win_shows_three_seconds_before_the_initials(tmp_path: Path) -> None:
    one_move_to_go(tmp_path)
    early, late = tmp_path / "early.json", tmp_path / "late.json"
    shot = Path(__file__).resolve().parent.parent / "out" / "screens" / "win" / "win-800x480.png"
    # The tap's step lets 0.6 s run: the win has shown about 2.8 s at the first state.
    proc = script(
        tmp_path, "--size", "800x480", "--locale", "en", *LAST, "wait", "2.2",
        "state", str(early), "shot", str(shot), "wait", "1.5", "state", str(late),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    en = Translator("en")
    seen = state(early)
    assert seen["won"] and seen["scene"] == "win"
    assert en("win.title") in seen["texts"]
    assert en("win.score", score=seen["score"]) in seen["texts"]
    assert en("arcade.rank_all", place=1) in seen["texts"]
    assert state(late)["scene"] == "initials"
