"""Logs: the rotating file, game event lines, and the crash handler (log, save, exit)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game.config import EXIT_CRASH, config_from_dict
from game.logs import (
    LOG_FILE,
    install_excepthook,
    log_dir_for,
    log_game_end,
    log_game_start,
    log_move,
    log_undo,
    setup_logging,
)
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]


def test_log_dir_from_config_or_state_dir(tmp_path: Path) -> None:
    assert log_dir_for(config_from_dict({})[0], tmp_path) == tmp_path / "logs"
    config, _ = config_from_dict({"kiosk": {"log_dir": "/var/log/solitaire"}})
    assert log_dir_for(config, tmp_path) == Path("/var/log/solitaire")


def test_game_events_land_in_the_file(tmp_path: Path) -> None:
    path = setup_logging(tmp_path / "logs", to_stderr=False)
    assert path == tmp_path / "logs" / LOG_FILE
    log_game_start("RU1-C-AAAAABB")
    log_move("RU1-C-AAAAABB", "7H-t5", moves=1, score=5)
    log_undo("RU1-C-AAAAABB", moves=1, score=0)
    log_game_end("RU1-C-AAAAABB", "won", moves=120, score=625, seconds=301.25)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    assert lines[0].endswith("game=RU1-C-AAAAABB event=start n=0 score=0")
    assert lines[1].endswith("game=RU1-C-AAAAABB event=move n=1 move=7H-t5 score=5")
    assert lines[2].endswith("event=undo n=1 score=0")
    assert lines[3].endswith("event=end result=won n=120 score=625 time=301.2")


def test_file_rotates(tmp_path: Path) -> None:
    path = setup_logging(tmp_path, to_stderr=False, max_bytes=2000, backups=2)
    assert path is not None
    for n in range(200):
        log_move("SH1-C4-AAAAAJ2", "AS-f", moves=n, score=10)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [LOG_FILE, LOG_FILE + ".1", LOG_FILE + ".2"]
    assert all(p.stat().st_size <= 2000 for p in tmp_path.iterdir())


def test_unwritable_log_dir_does_not_stop_the_game(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert setup_logging(tmp_path / "file" / "logs", to_stderr=False) is None
    log_move("RU1-C-AAAAABB", "7H-t5", moves=1, score=5)  # no exception


def test_setup_twice_does_not_duplicate_lines(tmp_path: Path) -> None:
    setup_logging(tmp_path, to_stderr=False)
    path = setup_logging(tmp_path, to_stderr=False)
    assert path is not None
    log_game_start("RU1-C-AAAAABB")
    assert len(path.read_text().splitlines()) == 1


def test_excepthook_logs_saves_and_exits(tmp_path: Path) -> None:
    setup_logging(tmp_path, to_stderr=False)
    calls: list[str] = []
    exits: list[int] = []
    install_excepthook(lambda error: calls.append(f"saved {error}"), exit_process=exits.append)
    try:
        try:
            raise RuntimeError("boom in the table")
        except RuntimeError:
            sys.excepthook(*sys.exc_info())  # type: ignore[arg-type]
    finally:
        sys.excepthook = sys.__excepthook__
        threading.excepthook = threading.__excepthook__
    assert calls == ["saved boom in the table"]
    assert exits == [EXIT_CRASH]
    text = (tmp_path / LOG_FILE).read_text()
    assert "CRITICAL" in text and "RuntimeError: boom in the table" in text
    assert "Traceback" in text


def test_excepthook_survives_a_failing_save(tmp_path: Path) -> None:
    setup_logging(tmp_path, to_stderr=False)
    exits: list[int] = []

    def broken_save(error: BaseException | None) -> None:
        raise OSError("disk full")

    install_excepthook(broken_save, exit_process=exits.append)
    try:
        sys.excepthook(ValueError, ValueError("x"), None)
    finally:
        sys.excepthook = sys.__excepthook__
        threading.excepthook = threading.__excepthook__
    assert exits == [EXIT_CRASH]
    assert "saving after the uncaught exception failed" in (tmp_path / LOG_FILE).read_text()


CRASHING_GAME = """
import sys, threading
from pathlib import Path
from game.logs import install_excepthook, setup_logging
from game.saves.storage import JsonStore

state = Path(sys.argv[1])
setup_logging(state / "logs")
store = JsonStore(state / "autosave.json", kind="autosave", version=1)
install_excepthook(lambda error: store.save({"moves": 7}))
if sys.argv[2] == "thread":
    t = threading.Thread(target=lambda: 1 / 0)
    t.start()
    t.join()
    threading.Event().wait(5)  # the hook ends the process before this returns
else:
    1 / 0
"""


@pytest.mark.process
@pytest.mark.parametrize("where", ["main", "thread"])
def test_uncaught_exception_in_a_real_process(tmp_path: Path, where: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", CRASHING_GAME, str(tmp_path), where],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == EXIT_CRASH
    assert "ZeroDivisionError" in (tmp_path / "logs" / LOG_FILE).read_text()
    assert "ZeroDivisionError" in result.stderr  # the journal gets it too
    saved = json.loads((tmp_path / "autosave.json").read_text())
    assert saved["data"] == {"moves": 7}
