"""A won game survives a restart whole (issue 38, item 9): the last win's result (its entry, its
places, whether it may still be signed) is kept with the saved game, so the win panel of a won
game resumed after a restart (the watchdog's, a power cut's) shows the rank, the initials and
the marked row, and an unsigned win can still be signed once. A damaged record falls back to
the entry the high-score tables hold for the game, else to the panel without a rank. Played
through real saves and restarts: one ``python -m game.script`` run after another on the same
state directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.i18n import Translator
from tests.arcade.test_arcade import LAST, day_of_won_code, one_move_to_go, script, state, stored

pytestmark = pytest.mark.unit

EN = Translator("en")


def run(tmp: Path, day: str, *steps: str) -> None:
    proc = script(tmp, "--size", "800x480", "--locale", "en", "--date", day, *steps)
    assert proc.returncode == 0, proc.stderr


def names(data: dict[str, object]) -> list[str]:
    return [str(button["name"]) for button in data["buttons"]]  # type: ignore[attr-defined]


def autosave(tmp: Path) -> Path:
    return tmp / "state" / "autosave.json"


def test_a_signed_win_comes_back_with_its_rank_and_initials(tmp_path: Path) -> None:
    day = day_of_won_code()
    one_move_to_go(tmp_path)
    first, again, board = (tmp_path / f"{n}.json" for n in ("first", "again", "board"))
    run(
        tmp_path, day, *LAST, "wait", "2", "press", "sign",
        *(w for letter in "VIP" for w in ("press", letter)), "press", "save",
        "state", str(first),
    )  # fmt: skip
    run(tmp_path, day, "wait", "1", "state", str(again), "press", "scores", "state", str(board))
    before, after = state(first), state(again)
    assert after["won"] and after["scene"] == "win"
    for text in (
        EN("arcade.rank_today", place=1),
        EN("arcade.rank_all", place=1),
        EN("win.signed", initials="VIP"),
    ):
        assert text in before["texts"] and text in after["texts"]
    assert names(after) == ["scores", "look", "new_deal"]  # signed: nothing more to ask
    assert any(text.startswith("1. VIP ") for text in state(board)["texts"])


def test_an_unsigned_win_can_still_be_signed_after_a_restart(tmp_path: Path) -> None:
    day = day_of_won_code()
    one_move_to_go(tmp_path)
    after, signed = tmp_path / "after.json", tmp_path / "signed.json"
    run(tmp_path, day, *LAST, "wait", "2")
    run(
        tmp_path, day, "wait", "1", "state", str(after), "press", "sign",
        *(w for letter in "ANA" for w in ("press", letter)), "press", "save",
    )  # fmt: skip
    run(tmp_path, day, "wait", "1", "state", str(signed))  # and once more: the signing was kept
    shown = state(after)
    assert shown["scene"] == "win" and EN("arcade.rank_today", place=1) in shown["texts"]
    assert names(shown) == ["scores", "look", "new_deal", "sign"]
    tables = stored(tmp_path)["SH1-C4"]
    assert tables[day][0]["initials"] == "ANA" and tables["all"][0]["initials"] == "ANA"
    last = state(signed)
    assert EN("win.signed", initials="ANA") in last["texts"] and "sign" not in names(last)


def test_a_damaged_win_record_falls_back_safely(tmp_path: Path) -> None:
    """A record that does not read: the entry the tables hold for the game's id (its rank,
    not to be signed again); without a game id either, the panel without a rank."""
    day = day_of_won_code()
    one_move_to_go(tmp_path)
    looked_up, bare = tmp_path / "looked_up.json", tmp_path / "bare.json"
    run(tmp_path, day, *LAST, "wait", "2")
    saved = json.loads(autosave(tmp_path).read_text(encoding="utf-8"))
    assert saved["data"]["meta"]["win"]["today"] == 1  # what a restart reads
    saved["data"]["meta"]["win"] = {"entry": {"code": "RU1-C-AAAAABB"}, "today": "first"}
    autosave(tmp_path).write_text(json.dumps(saved), encoding="utf-8")
    run(tmp_path, day, "wait", "1", "state", str(looked_up))
    shown = state(looked_up)
    assert shown["scene"] == "win" and EN("arcade.rank_today", place=1) in shown["texts"]
    assert "sign" not in names(shown)
    log = (tmp_path / "state" / "logs" / "solitaire.log").read_text(encoding="utf-8")
    assert "the saved game's win: entry:" in log
    saved = json.loads(autosave(tmp_path).read_text(encoding="utf-8"))
    saved["data"]["meta"] = {"recorded": True, "win": [1, 2, 3]}
    autosave(tmp_path).write_text(json.dumps(saved), encoding="utf-8")
    run(tmp_path, day, "wait", "1", "state", str(bare))
    shown = state(bare)
    assert shown["won"] and shown["scene"] == "win"
    assert EN("win.title") in shown["texts"]
    assert EN("arcade.rank_today", place=1) not in shown["texts"]
    assert EN("arcade.rank_all", place=1) not in shown["texts"]
