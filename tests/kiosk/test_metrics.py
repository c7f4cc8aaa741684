"""The kiosk's Prometheus metrics (game.kiosk.metrics, game.kiosk.runs): solitaire_kiosk.prom after
a game
played to a win by the scripted player, read by a real node_exporter over HTTP; crashes and
watchdog restarts counted from systemd's record of the previous run; a failing write."""

from __future__ import annotations

import datetime as dt
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from engine import Game
from game.kiosk.metrics import FILE_NAME, Live, Metrics
from game.kiosk.runs import LAST_EXIT_FILE, RunRecord
from game.saves.persist import Autosave
from game.saves.stats import Stats
from game.saves.storage import autosave_store
from tests.helpers.tablehelp import WIN_LINE, WON_CODE

pytestmark = pytest.mark.app

REPO = Path(__file__).resolve().parents[2]
NODE_EXPORTER = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
DAY = "2026-11-30"


def metric(text: str, name: str, labels: str = "") -> float:
    """The value of one series in the Prometheus text format (AssertionError when absent)."""
    pattern = rf"(?m)^{re.escape(name)}{re.escape(labels)} (\S+)$"
    match = re.search(pattern, text)
    assert match, f"{name}{labels} not in:\n{text}"
    return float(match.group(1))


def win_one_game(tmp_path: Path) -> Path:
    """The scripted player resumes WON_CODE one move before its win and plays that move, with
    [metrics] textfile_dir set; returns that directory."""
    state, prom = tmp_path / "state", tmp_path / "textfile"
    prom.mkdir()
    game = Game.from_code(WON_CODE)
    for move in WIN_LINE[:-1]:
        game.play(move)
    assert Autosave(autosave_store(state)).save(game, 95.0, line=list(WIN_LINE[:-1]))
    config = tmp_path / "config.toml"
    config.write_text(f'[metrics]\ntextfile_dir = "{prom}"\n', encoding="utf-8")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env |= {"SOLITAIRE_STATE_DIR": str(state), "SOLITAIRE_CONFIG": str(config)}
    result = subprocess.run(
        [sys.executable, "-m", "game.script", "--size", "800x480", "--date", DAY, "tap", "KS"],
        capture_output=True, text=True, env=env, timeout=120, cwd=REPO, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return prom


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def scrape(directory: Path) -> str:
    """/metrics of a real node_exporter (textfile collector on ``directory``), on 127.0.0.1."""
    assert NODE_EXPORTER is not None
    port = free_port()
    exporter = subprocess.Popen(
        [
            NODE_EXPORTER,
            f"--web.listen-address=127.0.0.1:{port}",
            "--collector.disable-defaults",
            "--collector.textfile",
            f"--collector.textfile.directory={directory}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
                    return str(r.read().decode())
            except OSError:
                if exporter.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        exporter.kill()
        exporter.communicate(timeout=10)


@pytest.mark.system
@pytest.mark.skipif(
    NODE_EXPORTER is None,
    reason="node_exporter is not installed (Debian: apt-get install prometheus-node-exporter)",
)
def test_node_exporter_serves_the_metrics_of_a_won_game(tmp_path: Path) -> None:
    before = time.time()
    prom = win_one_game(tmp_path)
    assert sorted(p.name for p in prom.iterdir()) == [FILE_NAME]  # no temporary file left
    assert (prom / FILE_NAME).stat().st_mode & 0o644 == 0o644  # node_exporter's user reads it
    text = scrape(prom)
    assert metric(text, "node_textfile_scrape_error") == 0
    # The README's "kiosk down" alert reads the file's age from node_exporter.
    mtime = re.search(
        r'(?m)^node_textfile_mtime_seconds\{file="[^"]*solitaire_kiosk\.prom"\} (\S+)$', text
    )
    assert mtime and before - 1 <= float(mtime.group(1)) <= time.time()
    version = re.search(r'(?m)^version = "(.+)"$', (REPO / "pyproject.toml").read_text())
    assert version
    info = f'{{rule_sets="RU1-C,RU1-R,SH1-C4,SH1-C2,SH1-C1",version="{version.group(1)}"}}'
    assert metric(text, "solitaire_kiosk_info", info) == 1
    won = '{rule_set="SH1-C4"}'
    assert metric(text, "solitaire_kiosk_games_won_total", won) == 1
    assert metric(text, "solitaire_kiosk_games_started_total", won) == 1
    assert metric(text, "solitaire_kiosk_games_abandoned_total", won) == 0
    assert metric(text, "solitaire_kiosk_games_won_total", '{rule_set="RU1-C"}') == 0
    assert metric(text, "solitaire_kiosk_games_today") == 1
    assert metric(text, "solitaire_kiosk_wins_today") == 1
    assert metric(text, "solitaire_kiosk_crashes_total") == 0
    assert metric(text, "solitaire_kiosk_watchdog_restarts_total") == 0
    assert metric(text, "solitaire_kiosk_failed_saves_total") == 0
    assert metric(text, "solitaire_kiosk_hint_worker_restarts_total") == 0
    assert before - 1 <= metric(text, "solitaire_kiosk_start_time_seconds") <= time.time()
    assert before <= metric(text, "solitaire_kiosk_last_input_time_seconds") <= time.time()
    # The scripted player steps the App by hand: no frame of the real loop (test_watchdog).
    assert metric(text, "solitaire_kiosk_slowest_frame_seconds") == 0
    assert "# TYPE solitaire_kiosk_games_won_total counter" in text


@pytest.mark.process
def test_the_file_after_a_won_game_counts_it_once_and_restarts_keep_the_counts(
    tmp_path: Path,
) -> None:
    prom = win_one_game(tmp_path)
    text = (prom / FILE_NAME).read_text()
    assert metric(text, "solitaire_kiosk_games_won_total", '{rule_set="SH1-C4"}') == 1
    assert metric(text, "solitaire_kiosk_wins_today") == 1
    assert text.count("# TYPE solitaire_kiosk_games_won_total ") == 1
    touched = metric(text, "solitaire_kiosk_last_input_time_seconds")
    assert touched > 0
    # The next start (another script run, no move): the counters come from the statistics.
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env |= {"SOLITAIRE_STATE_DIR": str(tmp_path / "state")}
    env["SOLITAIRE_CONFIG"] = str(tmp_path / "config.toml")

    subprocess.run(
        [sys.executable, "-m", "game.script", "--size", "800x480", "--date", DAY, "wait", "0.1"],
        env=env, timeout=120, cwd=REPO, check=True, capture_output=True,
    )  # fmt: skip
    text = (prom / FILE_NAME).read_text()
    assert metric(text, "solitaire_kiosk_games_won_total", '{rule_set="SH1-C4"}') == 1
    assert metric(text, "solitaire_kiosk_wins_today") == 1
    assert metric(text, "solitaire_kiosk_games_today") == 1
    assert metric(text, "solitaire_kiosk_last_input_time_seconds") == touched  # kept at the win


def open_record(state: Path, day: str, now: float, crashes: tuple[float, ...] = ()) -> RunRecord:
    return RunRecord.open(
        state, lambda: dt.date.fromisoformat(day), now=now, crash_times=list(crashes)
    )


def test_watchdog_restarts_and_crashes_are_counted_from_systemds_record(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    record = open_record(state, DAY, 1000.0)
    assert (record.watchdog_restarts, record.crashes) == (0, 0)
    exits = [
        "SERVICE_RESULT=watchdog\nEXIT_CODE=killed\nEXIT_STATUS=ABRT\n",
        "SERVICE_RESULT=exit-code\nEXIT_CODE=exited\nEXIT_STATUS=70\n",  # an uncaught error
        "SERVICE_RESULT=exit-code\nEXIT_CODE=exited\nEXIT_STATUS=64\n",  # the operator's exit
        "SERVICE_RESULT=success\nEXIT_CODE=exited\nEXIT_STATUS=0\n",  # systemctl stop
        "SERVICE_RESULT=signal\nEXIT_CODE=killed\nEXIT_STATUS=SEGV\n",
    ]
    for n, text in enumerate(exits):
        (state / LAST_EXIT_FILE).write_text(text)
        record = open_record(state, DAY, 1001.0 + n)
        assert not (state / LAST_EXIT_FILE).exists()  # read once
    assert (record.watchdog_restarts, record.crashes) == (1, 2)
    assert (record.today.restarts, record.today.crashes) == (1, 2)
    # Outside systemd: a crash recorded since the previous start.
    record = open_record(state, DAY, 2000.0, crashes=(1500.0,))
    assert record.crashes == 3
    record = open_record(state, DAY, 2001.0, crashes=(1500.0,))  # the same crash: once
    assert record.crashes == 3
    # The next day starts its figures from 0; the totals stay.
    record = open_record(state, "2026-12-01", 3000.0)
    assert (record.today.day, record.today.crashes, record.today.restarts) == ("2026-12-01", 0, 0)
    assert (record.crashes, record.watchdog_restarts) == (3, 1)


def test_a_write_that_fails_logs_one_line_and_works_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state, prom = tmp_path / "state", tmp_path / "gone"
    state.mkdir()
    record = open_record(state, DAY, 1000.0)
    metrics = Metrics(prom, record, lambda: Live(stats=Stats()), version="1.0")
    with caplog.at_level(logging.WARNING, logger="solitaire.metrics"):
        assert not metrics.write()
        assert not metrics.write()
        metrics.ended(Game.from_code(WON_CODE), "abandoned")  # never raises into the game
    assert len([r for r in caplog.records if "metrics not written" in r.message]) == 1
    prom.mkdir()
    assert metrics.write()
    assert metric((prom / FILE_NAME).read_text(), "solitaire_kiosk_games_today") == 0


def test_failed_saves_hint_restarts_and_a_game_in_play_show(tmp_path: Path) -> None:
    """A saved run as launch.open_app builds it, with metrics: a move starts a game, saves
    that fail are counted, a hint worker started again is a restart."""
    from engine import Move
    from game.config import config_from_dict
    from tests.helpers.kioskhelp import saved_app

    state, prom = tmp_path / "state", tmp_path / "textfile"
    prom.mkdir()
    settings = {"kiosk": {"lock": False}, "metrics": {"textfile_dir": str(prom)}}
    config, problems = config_from_dict(settings)
    assert not problems
    app = saved_app(state, config, code="RU1-C-AAAAAAD")
    (metrics,) = [m for m in app.hooks.listeners if isinstance(m, Metrics)]
    assert app.event_filters == [metrics.saw_input]  # every raw event, first
    try:
        app.step()
        text = (prom / FILE_NAME).read_text()
        assert metric(text, "solitaire_kiosk_games_started_total", '{rule_set="RU1-C"}') == 0
        shutil.rmtree(state)
        state.write_text("a file where the directory should be: every save fails")
        assert app.table.model.make_move(Move.parse("AH-f"))
        app.workers.ask_hint(app.table.model.game).result(timeout=60)
        app.workers.stop("hint", wait=True)  # it hung: the next question starts a new one
        app.workers.ask_hint(app.table.model.game).result(timeout=60)
        assert metrics.write()
    finally:
        app.close()
    text = (prom / FILE_NAME).read_text()
    assert metric(text, "solitaire_kiosk_games_started_total", '{rule_set="RU1-C"}') == 1
    assert metric(text, "solitaire_kiosk_games_abandoned_total", '{rule_set="RU1-C"}') == 0
    assert metric(text, "solitaire_kiosk_failed_saves_total") >= 1
    assert metric(text, "solitaire_kiosk_hint_worker_restarts_total") == 1


def test_input_alone_is_kept_only_at_a_games_end(tmp_path: Path) -> None:
    """The periodic write never makes a durable write for the last input alone (a stall on a
    slow SD card every half minute of play); a game's end keeps it."""
    state, prom = tmp_path / "state", tmp_path / "textfile"
    state.mkdir()
    prom.mkdir()
    record = open_record(state, DAY, 1000.0)
    metrics = Metrics(prom, record, lambda: Live(stats=Stats()), version="1.0")
    assert metrics.write()
    saved = (state / "metrics.json").stat().st_mtime_ns, (state / "metrics.json").read_bytes()
    metrics.last_input = 5000.0
    assert metrics.write()
    assert metric((prom / FILE_NAME).read_text(), "solitaire_kiosk_last_input_time_seconds") == 5000
    after = (state / "metrics.json").stat().st_mtime_ns, (state / "metrics.json").read_bytes()
    assert after == saved
    metrics.ended(Game.from_code(WON_CODE), "abandoned")
    assert open_record(state, DAY, 1001.0).last_input == 5000.0


@pytest.mark.skipif(
    NODE_EXPORTER is None,
    reason="node_exporter is not installed (Debian: apt-get install prometheus-node-exporter)",
)
def test_the_game_writes_its_own_file_through_the_packages_link(tmp_path: Path) -> None:
    """The Debian package (issue 39, item 4): node_exporter's textfile directory stays root's and
    holds a link to the game's own file in the game's own directory (kiosk/metrics-dir.sh);
    the game replaces that file, never the link or anything beside it, and node_exporter
    reads it through the link."""
    state, textfile, own = tmp_path / "state", tmp_path / "textfile", tmp_path / "own"
    for directory in (state, textfile, own):
        directory.mkdir()
    (own / FILE_NAME).write_text("")  # as the package's tmpfiles.d line makes it
    (textfile / FILE_NAME).symlink_to(own / FILE_NAME)
    (textfile / "other.prom").write_text("other_collector 1\n")
    metrics = Metrics(textfile, open_record(state, DAY, 1000.0), lambda: Live(stats=Stats()),
                      version="1.0")  # fmt: skip
    assert metrics.write()
    assert (textfile / FILE_NAME).is_symlink()
    assert os.readlink(textfile / FILE_NAME) == str(own / FILE_NAME)
    assert sorted(os.listdir(textfile)) == ["other.prom", FILE_NAME]
    assert sorted(os.listdir(own)) == [FILE_NAME]  # no temporary file left
    assert (textfile / "other.prom").read_text() == "other_collector 1\n"
    text = scrape(textfile)
    assert metric(text, "node_textfile_scrape_error") == 0
    assert metric(text, "solitaire_kiosk_games_today") == 0
    assert metric(text, "other_collector") == 1
