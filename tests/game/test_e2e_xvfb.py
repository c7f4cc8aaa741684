"""End to end in a real X11 window: Xvfb, the real game loop (tests/helpers/xvfb_harness.py)
and real mouse events from xdotool. Skipped when Xvfb or xdotool is not installed
(``apt-get install xvfb xdotool``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(
        not (shutil.which("Xvfb") and shutil.which("xdotool")), reason="needs Xvfb and xdotool"
    ),
]

State = dict[str, Any]


class Player:
    """Clicks, double clicks and drags on the game's window; reads what the harness reports."""

    def __init__(self, env: dict[str, str], window: str, status: Path) -> None:
        self.env = env
        self.window = window
        self.status = status

    def xdo(self, *args: object) -> None:
        subprocess.run(["xdotool", *map(str, args)], env=self.env, check=True, timeout=10)

    def state(self) -> State:
        lines = self.status.read_text(encoding="utf-8").splitlines()
        return json.loads(lines[-1]) if lines else {}

    def wait(self, what: str, ok: Callable[[State], bool], timeout: float = 12.0) -> State:
        end = time.monotonic() + timeout
        while True:
            state = self.state()
            try:
                if state and ok(state):
                    return state
            except (KeyError, IndexError):
                pass
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}; last state: {state}")
            time.sleep(0.05)

    def move_to(self, pos: list[int] | tuple[int, int]) -> None:
        self.xdo("mousemove", "--window", self.window, int(pos[0]), int(pos[1]))

    def click(self, pos: list[int] | tuple[int, int], times: int = 1) -> None:
        self.move_to(pos)
        if times == 1:
            self.xdo("click", 1)
        else:
            self.xdo("click", "--repeat", times, "--delay", 90, 1)

    def drag(self, start: list[int], end: list[int], steps: int = 8) -> None:
        self.move_to(start)
        self.xdo("mousedown", 1)
        for k in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * k // steps
            y = start[1] + (end[1] - start[1]) * k // steps
            self.move_to((x, y))
            time.sleep(0.015)
        self.xdo("mouseup", 1)

    def card(self, name: str) -> list[int]:
        """A point on the visible corner strip of a face-up card."""
        x, y, w, _ = self.state()["cards"][name]
        return [x + w // 2, y + 8]

    def pause(self) -> None:
        """Longer than a double click, so that the next click is a fresh tap."""
        time.sleep(0.45)


@pytest.fixture
def player(tmp_path: Path) -> Iterator[Player]:
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        display = pipe.readline().strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    env.update(DISPLAY=f":{display}", SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy")
    status = tmp_path / "status.jsonl"
    status.touch()
    game = subprocess.Popen(
        [
            *(sys.executable, "-m", "tests.helpers.xvfb_harness", str(status), "--size", "800x480"),
            *("--code", "RU1-C-AAAAABB", "--locale", "en", "--state-dir", str(tmp_path / "state")),
        ],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        window = ""
        end = time.monotonic() + 40  # a loaded machine starts Python slowly
        while not window:
            if game.poll() is not None:
                raise AssertionError(f"the game ended: {game.stderr.read() if game.stderr else ''}")
            if time.monotonic() > end:
                raise AssertionError("no game window within 40 s")
            found = subprocess.run(
                ["xdotool", "search", "--pid", str(game.pid)],
                env=env,
                capture_output=True,
                text=True,
                timeout=10,
            )
            window = found.stdout.split()[-1] if found.stdout.split() else ""
            time.sleep(0.1)
        p = Player(env, window, status)
        p.wait("the first frame", lambda s: s["top"] == "TableScene", timeout=30)
        # SDL may replace a window it made while starting: take the one shown now.
        shown = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--pid", str(game.pid)],
            env=env,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.split()
        p.window = shown[-1] if shown else window
        yield p
        assert game.poll() is None, game.stderr.read() if game.stderr else ""
    finally:
        game.terminate()
        try:
            game.wait(5)
        except subprocess.TimeoutExpired:
            game.kill()
        xvfb.terminate()
        xvfb.wait(5)


def columns(state: State) -> list[list[str]]:
    return state["game"]["columns"]  # type: ignore[no-any-return]


def test_a_player_plays_in_a_real_window(player: Player) -> None:
    p = player
    # A double click on a top ace: the first click sends it home, the second does nothing.
    p.click(p.card("AC"), times=2)
    s = p.wait("AC home", lambda s: s["game"]["foundations"] == [0, 0, 0, 1])
    p.pause()
    assert p.state()["game"]["moves"] == 1
    # The foundation's top card is dragged back onto a column, and tapped home again.
    p.drag(p.card("AC"), p.card("2C"))
    p.wait("AC taken back", lambda s: columns(s)[6][-2:] == ["2C", "AC"])
    p.pause()
    p.click(p.card("AC"))
    p.wait("AC home again", lambda s: s["game"]["foundations"] == [0, 0, 0, 1])
    p.pause()
    # A tap sends the next club home.
    p.click(p.card("2C"))
    p.wait("2C home", lambda s: s["game"]["foundations"] == [0, 0, 0, 2])
    p.pause()
    # A double click in the middle of a column moves the group onto 4C.
    p.click(p.card("3C"), times=2)
    s = p.wait("3C onto 4C", lambda s: columns(s)[0] == ["4C", "3C", "TC", "7S"])
    p.pause()
    assert s["game"]["moves"] == 5
    # A drag moves a card onto the column that takes it.
    p.drag(p.card("4D"), p.card("5D"))
    s = p.wait("4D onto 5D", lambda s: columns(s)[2][-2:] == ["5D", "4D"])
    p.pause()
    # A refused drop flies back and tells the rule.
    before = columns(s)
    p.drag(p.card("3D"), p.card("7S"))
    s = p.wait("the rule", lambda s: "6" in s["toast"] and s["game"]["moves"] == 6)
    assert columns(s) == before
    p.pause()
    # Undo takes the last move back and keeps the counter.
    p.click(s["buttons"]["undo"])
    s = p.wait("undo", lambda s: columns(s)[3][-1] == "4D")
    assert s["game"]["moves"] == 6
    p.pause()
    # Settings, opened by a habitual double click, stay open; a toggle is kept.
    p.click(s["buttons"]["settings"], times=2)
    s = p.wait("settings", lambda s: s["top"] == "SettingsScene")
    p.pause()
    assert p.state()["top"] == "SettingsScene"
    p.click(s["controls"]["Double tap"])
    p.wait("double tap off", lambda s: s["settings"]["double_tap"] is False)
    p.pause()
    p.click(p.state()["controls"]["Double tap"])
    p.wait("double tap on", lambda s: s["settings"]["double_tap"] is True)
    p.pause()
    # The rules scroll by drag and by mouse wheel.
    p.click(p.state()["controls"]["Rules"])
    s = p.wait("rules", lambda s: s["top"] == "RulesScene")
    x, y = s["view"]
    p.drag([x, y + 60], [x, y - 60])
    s = p.wait("rules dragged", lambda s: s["scroll"] >= 100)
    p.move_to((x, y))
    p.xdo("click", 5)
    dragged = s["scroll"]
    p.wait("rules wheeled", lambda s: s["scroll"] > dragged)
    p.pause()
    p.click(p.state()["controls"]["Close"])
    s = p.wait("settings again", lambda s: s["top"] == "SettingsScene")
    p.pause()
    p.click(p.state()["controls"]["Close"])
    s = p.wait("the table", lambda s: s["top"] == "TableScene")
    p.pause()
    # A new game by code, typed on the keypad.
    p.click(s["buttons"]["new"])
    s = p.wait("new game", lambda s: s["top"] == "NewGameScene")
    p.pause()
    p.click(s["controls"]["Game code…"])
    s = p.wait("keypad", lambda s: s["top"] == "KeypadScene")
    p.pause()
    p.click(s["controls"]["Clear"])
    time.sleep(0.1)
    for char in "SH1-C2-AAAAAJ2":
        p.click(s["controls"][char])
        time.sleep(0.06)
    p.pause()
    p.click(s["controls"]["Play"])
    # The game in progress (6 moves) is thrown away only when the player says so.
    s = p.wait("the question", lambda s: s["top"] == "ConfirmScene")
    p.pause()
    p.click(s["controls"]["Leave it"])
    s = p.wait("the new deal", lambda s: s["game"]["code"] == "SH1-C2-AAAAAJ2")
    assert s["top"] == "TableScene" and len(columns(s)) == 10
    assert columns(s)[0] == ["KD", "AH", "KH", "2H", "6C"]
    # A window resize lays the table out again.
    p.xdo("windowsize", p.window, 720, 960)
    s = p.wait("portrait", lambda s: s["size"] == [720, 960])
    assert s["buttons"]["new"][1] > s["buttons"]["new"][0]  # the buttons went to the bottom
