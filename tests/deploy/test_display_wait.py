"""No screen connected on the console path (issue 39, item 6): kiosk/run-kmsdrm.sh, run as the
unit runs it, waits for a screen instead of starting a game that fails every 2 s (a crash each
time under Restart=always): one line, a metric in the game's metrics file, systemd's start
timeout kept open, checks that back off; and the game starts by itself, in the same process,
once a connector of the (fake) /sys/class/drm says "connected"."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.kiosk import display_wait
from game.kiosk.metrics import FILE_NAME

pytestmark = pytest.mark.process

REPO = Path(__file__).resolve().parents[2]
WAITING = "solitaire-kiosk: no screen is connected"


def fake_app(tmp_path: Path) -> Path:
    """kiosk/ copied beside a venv python that runs the real waiter (python -B -m ...) and, for
    the game (main.py), records how it was started, and as which process, instead."""
    app = tmp_path / "app"
    shutil.copytree(REPO / "kiosk", app / "kiosk")
    python = app / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(
        "#!/bin/sh\n"
        f'[ "$2" = -m ] && PYTHONPATH="{REPO}" exec "{sys.executable}" "$@"\n'
        'echo "pid=$$ index=${SDL_KMSDRM_DEVICE_INDEX:-none} args=$*"'
        f' >> "{tmp_path}/started"\n'
    )
    python.chmod(0o755)
    return app


def connector(tmp_path: Path, status: str) -> Path:
    drm = tmp_path / "drm"
    (drm / "card0-HDMI-A-1").mkdir(parents=True, exist_ok=True)
    (drm / "card0-HDMI-A-1" / "status").write_text(status + "\n")
    return drm


Started = tuple[subprocess.Popen[bytes], Path, socket.socket]


def start(tmp_path: Path, app: Path, drm: Path) -> Started:
    textfile = tmp_path / "textfile"
    textfile.mkdir()
    (textfile / FILE_NAME).write_text("solitaire_kiosk_games_today 3\n")  # the last run's
    config = tmp_path / "config.toml"
    config.write_text(f'[metrics]\ntextfile_dir = "{textfile}"\n')
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(10)
    env = {
        "PATH": os.environ["PATH"],
        "SOLITAIRE_DRM_SYSFS": str(drm),
        "SOLITAIRE_CONFIG": str(config),
        "NOTIFY_SOCKET": str(tmp_path / "notify"),
    }
    log = tmp_path / "stderr"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [str(app / "kiosk" / "run-kmsdrm.sh"), "--kiosk"], env=env, stderr=err
        )
    return process, log, notify


def test_with_no_screen_the_kiosk_waits_and_starts_once_one_is_connected(tmp_path: Path) -> None:
    app = fake_app(tmp_path)
    drm = connector(tmp_path, "disconnected")
    process, log, notify = start(tmp_path, app, drm)
    try:
        messages = [notify.recv(4096).decode() for _ in range(2)]
        assert messages[0] == "STATUS=Waiting for a screen to be connected"
        assert messages[1].startswith("EXTEND_TIMEOUT_USEC=")  # the start does not time out
        time.sleep(3.5)  # checks after 1 and 2 s: still no screen
        assert process.poll() is None and not (tmp_path / "started").exists()
        text = log.read_text()
        assert text.count(WAITING) == 1 and "Traceback" not in text, text
        assert f"(no connected connector in {drm})" in text
        metrics = (tmp_path / "textfile" / FILE_NAME).read_text()
        assert "solitaire_kiosk_games_today 3\n" in metrics  # the game's own lines stay
        since = metrics.split(f"\n{display_wait.METRIC} ")[1]
        assert time.time() - 10 < float(since) <= time.time()
        connector(tmp_path, "connected")  # the screen is plugged in
        assert process.wait(timeout=15) == 0
    finally:
        if process.poll() is None:
            process.kill()
        notify.close()
    started = (tmp_path / "started").read_text()
    assert started == f"pid={process.pid} index=0 args={app}/main.py --kiosk\n"
    text = log.read_text()
    assert text.count(WAITING) == 1 and "a screen is connected (after" in text
    assert text.rstrip().endswith("solitaire-kiosk: using /dev/dri/card0")


def test_systemctl_stop_ends_the_wait_quietly(tmp_path: Path) -> None:
    app = fake_app(tmp_path)
    process, log, notify = start(tmp_path, app, connector(tmp_path, "disconnected"))
    try:
        notify.recv(4096)  # waiting
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    finally:
        notify.close()
    assert "Traceback" not in log.read_text() and not (tmp_path / "started").exists()


def test_the_checks_back_off_to_every_eight_seconds() -> None:
    slept: list[float] = []
    answers = iter([False] * 6 + [True])
    sent: list[str] = []
    metric: list[float] = []
    waited = display_wait.wait(
        "/nowhere", "pick", send=sent.append, sleep=slept.append, clock=lambda: 0.0,
        check=lambda pick, drm: next(answers), metric=metric.append,
    )  # fmt: skip
    assert slept == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0] and waited == 0.0
    assert metric == [0.0]  # written once, when the wait began
    # each check keeps systemd's start timeout open past the next one
    assert [m for m in sent if m.startswith("EXTEND")] == [
        f"EXTEND_TIMEOUT_USEC={int((d + 30) * 1_000_000)}" for d in slept
    ]
