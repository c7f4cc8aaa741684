"""A power cut keeps the last save (issue 39, item 13): every file that must survive one is
fsynced before it is renamed over the old one, and its directory is fsynced after the rename
(on ext4 the rename itself is not on the disk until then). Watched as strace would: every
os.fsync, os.replace and os.unlink the game makes, each fsync named by the file or directory
its descriptor is open on (its device and inode, not the name it was opened by)."""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import Game
from game.arcade.highscores import Entry, HighScores
from game.kiosk import metrics, pinfile
from game.kiosk.models import PinPad, PinResult
from game.kiosk.pin import hash_pin
from game.saves.persist import Autosave, save_stats
from game.saves.stats import Stats
from game.saves.storage import autosave_store

pytestmark = pytest.mark.unit

Event = tuple[str, tuple[int, int], bool]  # what, (device, inode), on a directory


class Calls:
    """The file system calls that make a save durable, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.events: list[Event] = []
        real_fsync, real_replace, real_unlink = os.fsync, os.replace, os.unlink

        def fsync(fd: int) -> None:
            st = os.fstat(fd)
            self.events.append(("fsync", (st.st_dev, st.st_ino), stat.S_ISDIR(st.st_mode)))
            real_fsync(fd)

        def replace(src: Any, dst: Any, **kw: Any) -> None:
            real_replace(src, dst, **kw)
            st = os.stat(dst)
            self.events.append(("replace", (st.st_dev, st.st_ino), False))

        def unlink(path: Any, **kw: Any) -> None:
            parent = os.stat(os.path.dirname(os.path.abspath(path)))
            real_unlink(path, **kw)
            self.events.append(("unlink", (parent.st_dev, parent.st_ino), True))

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(os, "unlink", unlink)

    def clear(self) -> None:
        self.events.clear()


def node(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def assert_durable(events: list[Event], path: Path) -> None:
    """``path`` was written as a new file that was fsynced, then renamed over ``path``, and
    then ``path``'s directory was fsynced."""
    file, directory = node(path), node(path.parent)
    replaced = [i for i, e in enumerate(events) if e[0] == "replace" and e[1] == file]
    assert replaced, f"{path.name} was not renamed into place: {events}"
    at = replaced[-1]
    assert ("fsync", file, False) in events[:at], f"{path.name} not fsynced before its rename"
    assert ("fsync", directory, True) in events[at + 1 :], (
        f"the directory of {path.name} not fsynced after its rename: {events}"
    )


STORED = hash_pin("258036", iterations=100_000)


def save_the_game(state: Path) -> Path:
    game = Game.from_code("RU1-C-AAAAABB")
    assert Autosave(autosave_store(state)).save(game, 12.0, line=[])
    return state / "autosave.json"


def save_the_stats(state: Path) -> Path:
    assert save_stats(Stats.from_dict(None), state)
    return state / "stats.json"


def enter_a_high_score(state: Path) -> Path:
    scores = HighScores.open(state)
    win = Entry(code="RU1-C-AAAALUY", score=600, seconds=300.0, moves=150, initials="ABC")
    assert scores.add(win).all_time is not None
    return state / "highscores.json"


def type_a_wrong_pin(state: Path) -> Path:
    pad = PinPad.persistent(STORED, state, 0.0)
    for digit in "111111":
        pad.press(digit, 1.0)
    assert pad.press("ok", 1.0) is PinResult.REJECTED
    return state / "pin-throttle.json"


@pytest.mark.parametrize(
    "save",
    [save_the_game, save_the_stats, enter_a_high_score, type_a_wrong_pin],
    ids=["autosave", "stats", "highscores", "pin-throttle"],
)
def test_a_state_file_and_its_directory_are_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, save: Callable[[Path], Path]
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    calls = Calls(monkeypatch)
    path = save(state)
    assert_durable(calls.events, path)
    calls.clear()
    path = save(state)  # the second save replaces the first
    assert_durable(calls.events, path)


def test_the_right_pin_deletes_the_throttle_durably(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deleted throttle is a rename's kin: unsynced, a power cut could bring the wait back."""
    type_a_wrong_pin(tmp_path)
    calls = Calls(monkeypatch)
    pad = PinPad.persistent(STORED, tmp_path, 0.0)
    for digit in "258036":
        pad.press(digit, 1.0)
    assert pad.press("ok", 1.0) is PinResult.ACCEPTED
    assert not (tmp_path / "pin-throttle.json").exists()
    directory = node(tmp_path)
    gone = calls.events.index(("unlink", directory, True))
    assert ("fsync", directory, True) in calls.events[gone + 1 :]


def test_a_first_save_makes_its_new_directory_durable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A desktop's first save creates the state directory: its entry is synced in the parent."""
    calls = Calls(monkeypatch)
    path = save_the_game(tmp_path / "new" / "state")
    assert_durable(calls.events, path)
    for directory in (tmp_path, tmp_path / "new"):
        assert ("fsync", node(directory), True) in calls.events, directory


def test_the_pin_file_and_its_directory_are_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`solitaire-kiosk-pin` writes the PIN file (python -m game.kiosk.pinfile write): a power
    cut just after must not bring the old PIN back."""
    path = tmp_path / "pin-hash"
    monkeypatch.setattr("sys.stdin", io.StringIO(STORED + "\n"))
    calls = Calls(monkeypatch)
    assert pinfile.main(["write", str(path)]) == 0
    assert path.read_text() == STORED + "\n"
    assert_durable(calls.events, path)


def test_the_metrics_file_is_not_synced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The metrics, rewritten every half minute, never wait for the disk (an SD card can
    stall for a second): a power cut at worst shows the previous minute's figures."""
    calls = Calls(monkeypatch)
    metrics.write_textfile(tmp_path, "solitaire_kiosk_up 1\n")
    assert (tmp_path / metrics.FILE_NAME).read_text() == "solitaire_kiosk_up 1\n"
    assert [e for e in calls.events if e[0] == "fsync"] == []
