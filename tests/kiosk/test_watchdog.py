"""systemd's notify protocol and watchdog (game.kiosk.notify), as systemd sees them: main.py in its
own
process under a fake $NOTIFY_SOCKET that the test owns."""

from __future__ import annotations

import itertools
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import tomllib

from game.kiosk.notify import Notifier, socket_address, watchdog_interval

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]
WATCHDOG_USEC = 2_000_000  # WatchdogSec=2: WATCHDOG=1 every second
SLACK = 0.6  # a loaded machine (two cores, many agents) may be late (the attract screen's start)


class FakeSystemd:
    """A datagram socket in place of systemd's notify socket: every message with its time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.05)
        self.messages: list[tuple[float, str]] = []

    def listen(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            self.messages.append((time.monotonic(), data.decode()))

    def wait_for(self, message: str, process: subprocess.Popen[str], timeout: float) -> float:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.listen(0.1)
            for at, text in self.messages:
                if text == message:
                    return at
            if process.poll() is not None:
                raise AssertionError(f"the game ended: {process.communicate()}")
        raise AssertionError(f"no {message} within {timeout} s: {self.messages}")

    def pings(self, start: float, end: float) -> list[float]:
        return [at for at, text in self.messages if text == "WATCHDOG=1" and start <= at <= end]

    def close(self) -> None:
        self.sock.close()


def start_game(tmp_path: Path, notify: Path, **extra: str) -> subprocess.Popen[str]:
    config = tmp_path / "config.toml"
    # The attract screen's demo comes after 3 s of rest: a table that rests, then animates.
    metrics = tmp_path / "textfile"
    metrics.mkdir()
    config.write_text(
        "[kiosk]\nidle_attract_minutes = 0.05\nidle_unlocked = true\n"
        f'[metrics]\ntextfile_dir = "{metrics}"\n'
    )
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
        "NOTIFY_SOCKET": str(notify),
        "WATCHDOG_USEC": str(WATCHDOG_USEC),
        **extra,
    }
    for name in ("STATE_DIRECTORY", "WATCHDOG_PID"):
        env.pop(name, None)
    command = [sys.executable, "main.py", "--windowed", "--size", "800x480"]
    command += ["--state-dir", str(tmp_path / "state"), "--config", str(config)]
    return subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def log_time(state: Path, text: str, systemd: FakeSystemd, game: subprocess.Popen[str]) -> float:
    """When ``text`` appeared in the game's log (seen within 0.1 s)."""
    log = state / "logs" / "solitaire.log"
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if log.exists() and text in log.read_text():
            return time.monotonic()
        systemd.listen(0.1)
        assert game.poll() is None, game.communicate()
    raise AssertionError(f"{text!r} never logged")


def assert_regular(pings: list[float], start: float, end: float) -> None:
    """WATCHDOG=1 at least every half of WATCHDOG_USEC across [start, end]."""
    half = WATCHDOG_USEC / 2e6
    assert pings, "no WATCHDOG=1 at all"
    moments = [start, *pings, end]
    gaps = [b - a for a, b in itertools.pairwise(moments)]
    assert max(gaps) <= half + SLACK, gaps
    assert max(gaps) < WATCHDOG_USEC / 1e6  # systemd would never have killed it
    assert len(pings) >= (end - start) / half - 2  # the configured rate, not a trickle...
    assert len(pings) <= (end - start) / half * 1.5 + 2  # ...and not a flood


@pytest.mark.process
def test_ready_watchdog_while_resting_and_animating_and_stopping(tmp_path: Path) -> None:
    systemd = FakeSystemd(tmp_path / "notify")
    game = start_game(tmp_path, systemd.path)
    try:
        ready = systemd.wait_for("READY=1", game, timeout=40)
        first = [text for _at, text in systemd.messages]
        assert first[0] == "READY=1"  # nothing before the first frame is shown
        # The table rests (no input, nothing moves) until the attract screen's demo.
        attract = log_time(tmp_path / "state", "idle: attract screen", systemd, game)
        assert attract - ready >= 2.0
        assert_regular(systemd.pings(ready, attract), ready, attract)
        # The demo animates a frame at a time.
        systemd.listen(4.0)
        now = time.monotonic()
        assert_regular(systemd.pings(attract, now), attract, now)
        game.send_signal(signal.SIGTERM)
        _out, err = game.communicate(timeout=15)
        systemd.listen(0.3)  # what the game sent before it ended waits in the socket
    finally:
        if game.poll() is None:
            game.kill()
            game.communicate()
        systemd.close()
    assert game.returncode == 0, err
    assert [text for _at, text in systemd.messages][-1] == "STOPPING=1"
    # The real loop's frames are timed for the metrics (written at the shutdown too).
    prom = (tmp_path / "textfile" / "solitaire_kiosk.prom").read_text()
    slowest = re.search(r"(?m)^solitaire_kiosk_slowest_frame_seconds (\S+)$", prom)
    assert slowest and 0 < float(slowest.group(1)) < 5
    assert "\nsolitaire_kiosk_last_input_time_seconds 0.0\n" in prom  # nobody touched it


@pytest.mark.process
def test_a_hung_loop_stops_telling_the_watchdog(tmp_path: Path) -> None:
    systemd = FakeSystemd(tmp_path / "notify")
    game = start_game(tmp_path, systemd.path, SOLITAIRE_TEST_HANG_AFTER="2")
    try:
        ready = systemd.wait_for("READY=1", game, timeout=40)
        systemd.listen(5.5)
        pings = systemd.pings(ready, time.monotonic())
        assert pings and pings[-1] - ready < 2.0 + WATCHDOG_USEC / 2e6 + SLACK
        hung = time.monotonic()
        systemd.listen(WATCHDOG_USEC / 1e6 + 0.5)
        assert systemd.pings(hung, time.monotonic()) == []  # systemd would now kill it
        assert game.poll() is None  # alive, frozen: what only the watchdog catches
        game.send_signal(signal.SIGABRT)  # systemd's WatchdogSignal
        _out, err = game.communicate(timeout=15)
    finally:
        if game.poll() is None:
            game.kill()
            game.communicate()
        systemd.close()
    assert game.returncode == -signal.SIGABRT
    # Where the loop hung is in the journal: every thread's stack, the loop's first.
    assert "Fatal Python error: Aborted" in err
    assert re.search(r'File ".*game/kiosk/notify\.py", line \d+ in ping', err), err
    assert re.search(r'File ".*game/app\.py", line \d+ in run', err), err


def test_no_notify_socket_sends_nothing_and_never_fails() -> None:
    quiet = Notifier.from_env({})
    assert not quiet.enabled
    quiet.ready(0.0)
    quiet.ping(10.0)
    assert quiet.rest_limit(10.0) is None
    quiet.stopping()


def test_the_watchdog_belongs_to_the_pid_systemd_names() -> None:
    env = {"WATCHDOG_USEC": "30000000"}
    assert watchdog_interval(env, 42) == 15.0
    assert watchdog_interval({**env, "WATCHDOG_PID": "42"}, 42) == 15.0
    assert watchdog_interval({**env, "WATCHDOG_PID": "41"}, 42) is None  # a wrapper's
    assert watchdog_interval({**env, "WATCHDOG_PID": "x"}, 42) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}, 42) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}, 42) is None
    assert watchdog_interval({}, 42) is None


def test_abstract_socket_names_and_a_gone_socket(tmp_path: Path) -> None:
    assert socket_address("@solitaire/notify") == b"\0solitaire/notify"
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"
    assert socket_address("vsock:2:1") is None
    gone = Notifier(str(tmp_path / "nobody-listens"), 1.0)
    assert gone.send("READY=1") is False  # logged once, never raised
    assert gone.send("WATCHDOG=1") is False


def test_an_abstract_socket_receives(tmp_path: Path) -> None:
    name = f"@solitaire-test-{os.getpid()}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(b"\0" + name[1:].encode())
    server.settimeout(2)
    try:
        notifier = Notifier.from_env({"NOTIFY_SOCKET": name, "WATCHDOG_USEC": "2000000"}, 7)
        notifier.ready(100.0)
        notifier.ping(100.0)
        notifier.ping(100.5)  # not due yet (every 1 s)
        notifier.ping(101.0)
        assert notifier.rest_limit(101.2) == pytest.approx(0.8)
        notifier.stopping()
        got = [server.recv(100).decode() for _ in range(4)]
    finally:
        server.close()
    assert got == ["READY=1", "WATCHDOG=1", "WATCHDOG=1", "STOPPING=1"]


# ------------------------------------------------------------------ the units


def unit_settings(name: str) -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in (REPO / "kiosk" / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


TEXTFILE_DIR = "/var/lib/prometheus/node-exporter"


@pytest.mark.parametrize(
    ("name", "access"),
    [("solitaire-kiosk.service", "main"), ("solitaire-kiosk-cage.service", "all")],
)
def test_the_units_wait_for_ready_and_watch_the_loop(name: str, access: str) -> None:
    s = unit_settings(name)
    assert s["Type"] == ["notify"]
    assert s["WatchdogSec"] == ["30s"]
    assert s["NotifyAccess"] == [access]  # cage's child, the game, must be heard
    assert s["ExecStopPost"] == ["/usr/lib/solitaire-kiosk/kiosk/record-exit.sh"]
    # The game writes only its own metrics file (issue 39, item 4): its own directory, linked
    # from node_exporter's, which the units do not open for writing.
    assert s["ReadWritePaths"][0] == "-/var/lib/solitaire-kiosk-metrics"
    assert not any(TEXTFILE_DIR in p for p in s["ReadWritePaths"])
    tmpfiles = (REPO / "kiosk" / "solitaire-kiosk.tmpfiles").read_text()
    assert TEXTFILE_DIR not in tmpfiles and "u:solitaire" not in tmpfiles
    assert s["ExecStartPre"] == ["+-/usr/lib/solitaire-kiosk/kiosk/metrics-dir.sh"]
    assert "solitaire-kiosk.conf" in (REPO / "kiosk" / "metrics-dir.sh").read_text()
    build = (REPO / "kiosk" / "build-deb.sh").read_text()
    overrides = tomllib.loads((REPO / "kiosk" / "kiosk-config.toml").read_text())
    assert overrides["metrics"]["textfile_dir"] == TEXTFILE_DIR  # the package's config
    assert "kiosk-config.toml" in build
    assert "/usr/lib/tmpfiles.d/solitaire-kiosk.conf" in build
    assert "record-exit.sh" in build and "metrics-dir.sh" in build


def test_the_cage_wrapper_hands_the_watchdog_to_the_game() -> None:
    text = (REPO / "kiosk" / "run-cage.sh").read_text()
    assert text.index("unset WATCHDOG_PID") < text.index("cage ${CAGE_ARGS")


@pytest.mark.process
@pytest.mark.parametrize(
    ("result", "status", "seen"),
    [("watchdog", "ABRT", "watchdog"), ("exit-code", "70", "crash"), ("success", "0", "clean")],
)
def test_the_stop_record_reaches_the_next_start(
    tmp_path: Path, result: str, status: str, seen: str
) -> None:
    from game.kiosk.runs import previous_exit

    env = {"PATH": os.environ["PATH"], "STATE_DIRECTORY": str(tmp_path)}
    env |= {"SERVICE_RESULT": result, "EXIT_CODE": "exited", "EXIT_STATUS": status}
    done = subprocess.run(
        ["/bin/sh", str(REPO / "kiosk" / "record-exit.sh")], env=env, check=False, timeout=10
    )
    assert done.returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["last-exit"]
    assert previous_exit(tmp_path) == seen
    assert previous_exit(tmp_path) is None  # counted once
    gone = subprocess.run(
        ["/bin/sh", str(REPO / "kiosk" / "record-exit.sh")],
        env={**env, "STATE_DIRECTORY": str(tmp_path / "gone")},
        check=False,
        timeout=10,
        capture_output=True,
    )
    assert gone.returncode == 0  # never fails the stop, says why in one line
    assert gone.stderr.decode().splitlines() == [
        f"record-exit.sh: cannot write {tmp_path}/gone/last-exit (the next start counts no crash)"
    ]
