"""State files of any content: each is read defensively and, when bad, moved aside by itself; a
crash while one is read moves that one aside and no other; a save is checked against its code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from engine import Game
from game.config import Config
from game.kiosk.pin import PinThrottle
from game.saves import storage
from game.saves.persist import Autosave, CrashGuard, load_stats
from game.saves.prefs import PlayerSettings, load_prefs
from game.saves.session import Session
from game.saves.storage import JsonStore, autosave_store, settings_store, stats_store
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)

pytestmark = pytest.mark.app

REPO = Path(__file__).resolve().parents[2]
CODE = "RU1-C-AAAAAAD"
HUGE = "9" * 5000  # past Python's 4,300-digit int-string limit


def envelope(kind: str, data_json: str) -> str:
    return f'{{"format":"{kind}","version":1,"saved":"x","data":{data_json}}}'


BAD_DATA = {
    "5000-digit number": HUGE,
    "5000-digit number deep": f'{{"a":[1,2,{{"b":{HUGE}}}]}}',
    "400-digit number": "9" * 400,
    "huge float": "1e999",
    "NaN": "NaN",
    "negative 5000 digits": "-" + HUGE,
    "deep nesting": "[" * 100_000 + "]" * 100_000,
}


def played_game(moves: int = 3) -> Game:
    game = Game.from_code(CODE)
    for _ in range(moves):
        game.play(game.legal_moves()[0])
    return game


@pytest.mark.parametrize("case", list(BAD_DATA))
@pytest.mark.parametrize("kind", ["autosave", "settings", "stats", "crashes", "pin-throttle"])
def test_any_number_or_nesting_in_any_state_file_is_moved_aside(
    tmp_path: Path, kind: str, case: str
) -> None:
    name = {"pin-throttle": "pin-throttle.json"}.get(kind, f"{kind}.json")
    path = tmp_path / name
    path.write_text(envelope(kind, BAD_DATA[case]), encoding="utf-8")
    if kind == "autosave":
        assert Autosave(autosave_store(tmp_path)).load() is None
    elif kind == "settings":
        assert load_prefs(Config(), tmp_path) == PlayerSettings.from_config(Config())
    elif kind == "stats":
        assert load_stats(tmp_path).to_dict() == load_stats(tmp_path / "none").to_dict()
    elif kind == "crashes":
        assert not CrashGuard(tmp_path).too_many()
    else:
        assert PinThrottle(tmp_path).recall(time.time(), 900) == (0, 0.0)
    assert not path.exists(), f"{name} should have been moved aside"
    assert list(tmp_path.glob(f"{name}.bad-*"))


def test_a_huge_number_in_the_envelope_itself(tmp_path: Path) -> None:
    store = JsonStore(tmp_path / "x.json", kind="x", version=1)
    store.path.write_text(f'{{"format":"x","version":{HUGE},"data":1}}')
    assert store.load() is None and store.aside_files()


def save_of(tmp_path: Path, game: Game, line: list[str] | None) -> None:
    Autosave(autosave_store(tmp_path)).save(game, 5.0, {}, line)


def test_a_save_matching_its_code_resumes_as_it_was(tmp_path: Path) -> None:
    game = played_game(4)
    game.pop()
    line = [str(m) for m in game.move_stack]
    save_of(tmp_path, game, line)
    resumed = Autosave(autosave_store(tmp_path)).load()
    assert resumed is not None
    assert resumed.game.to_dict() == game.to_dict() and resumed.line == line


def test_swapped_cards_are_rebuilt_from_code_and_moves(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    game = played_game(3)
    line = [str(m) for m in game.move_stack]
    save_of(tmp_path, game, line)
    path = tmp_path / "autosave.json"
    data = json.loads(path.read_text())
    columns = data["data"]["game"]["columns"]
    columns[6][-1], columns[5][-1] = columns[5][-1], columns[6][-1]  # two face-up cards swapped
    path.write_text(json.dumps(data))
    resumed = Autosave(autosave_store(tmp_path)).load()
    assert resumed is not None
    assert resumed.game.to_dict()["columns"] == game.to_dict()["columns"]  # the true position
    assert resumed.game.moves == game.moves
    assert "rebuilt from the code and the moves" in caplog.text


@pytest.mark.parametrize(
    "damage",
    ["illegal line", "other code", "history not the line's end", "no line, long game"],
)
def test_a_save_that_does_not_match_its_code_is_moved_aside(tmp_path: Path, damage: str) -> None:
    game = played_game(3)
    line: list[str] | None = [str(m) for m in game.move_stack]
    if damage == "illegal line":
        line = ["KS-f", *line]
    elif damage == "no line, long game":
        line = None
        game.history.popleft()  # the undo history no longer reaches back to the deal
    save_of(tmp_path, game, line)
    path = tmp_path / "autosave.json"
    if damage == "other code":
        text = path.read_text().replace(CODE, "RU1-C-AAAAABB")
        path.write_text(text)
    elif damage == "history not the line's end":
        data = json.loads(path.read_text())
        data["data"]["line"] = list(reversed(data["data"]["line"]))
        path.write_text(json.dumps(data))
    assert Autosave(autosave_store(tmp_path)).load() is None
    assert not path.exists() and list(tmp_path.glob("autosave.json.bad-*"))


def test_a_long_game_with_undos_resumes_through_the_session(tmp_path: Path) -> None:
    session = Session.open(Config(), tmp_path, logging_on=False, crash_hook=False)
    game = Game.from_code("SH1-C4-AAAAAJ2")
    session.started(game)
    from tests.helpers.tablehelp import WIN_LINE

    for move in WIN_LINE[:-2]:  # 101 moves: more than the undo history holds
        game.play(move)
        session.moved(game, move)
    game.pop()
    session.undone(game)
    resumed = Session.open(Config(), tmp_path, logging_on=False, crash_hook=False).resume()
    assert resumed is not None and resumed.game.to_dict() == game.to_dict()
    assert resumed.line == WIN_LINE[:-3]


def test_the_crash_guard_blames_only_the_file_whose_reading_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    healthy = played_game(2)
    save_of(tmp_path, healthy, [str(m) for m in healthy.move_stack])
    settings_store(tmp_path).save({"locale": "en"})

    def broken(raw: bytes) -> Any:
        raise RuntimeError("a bug in the reader")

    monkeypatch.setattr(storage, "parse_json", broken)
    with pytest.raises(RuntimeError) as crash:
        settings_store(tmp_path).load()
    monkeypatch.undo()
    guard = CrashGuard(tmp_path)
    moved = guard.record_crash(error=crash.value)
    assert moved is not None and moved.name.startswith("settings.json.bad-")
    assert (tmp_path / "autosave.json").exists() and not (tmp_path / "crashes.json").exists()
    assert guard.record_crash(error=RuntimeError("a crash during play")) is None
    assert (tmp_path / "crashes.json").exists()  # counted against the saved game
    assert (tmp_path / "autosave.json").exists()


def crash_program(state: Path, target: str) -> str:
    """main.py with the JSON reader broken for one kind of file only (a bug, not bad data)."""
    return (
        "import sys, game.saves.storage as s\n"
        "real = s.parse_json\n"
        "def parse(raw):\n"
        f"    if b'\"format\":\"{target}\"' in raw: raise RuntimeError('bug while reading')\n"
        "    return real(raw)\n"
        "s.parse_json = parse\n"
        "import main\n"
        f"sys.exit(main.main(['--windowed', '--size', '640x400', '--state-dir', '{state}']))\n"
    )


@pytest.mark.process
@pytest.mark.parametrize("target", ["settings", "stats"])
def test_a_crash_loop_on_a_state_file_spares_the_healthy_autosave(
    tmp_path: Path, target: str
) -> None:
    state = tmp_path / "state"
    healthy = played_game(2)
    save_of(state, healthy, [str(m) for m in healthy.move_stack])
    settings_store(state).save({"locale": "en"})
    stats_store(state).save({})
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env["SOLITAIRE_CONFIG"] = str(tmp_path / "none.toml")
    result = subprocess.run(
        [sys.executable, "-c", crash_program(state, target)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 70, result.stderr[-2000:]
    assert not (state / f"{target}.json").exists()
    assert list(state.glob(f"{target}.json.bad-*"))
    assert (state / "autosave.json").exists() and not list(state.glob("autosave.json.bad-*"))
    assert not (state / "crashes.json").exists()  # not counted against the saved game
    resumed = Autosave(autosave_store(state)).load()
    assert resumed is not None and resumed.game.to_dict() == healthy.to_dict()
