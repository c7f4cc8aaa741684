"""The fleet report (kiosk/fleet/report.yml): ansible-playbook against this machine (connection
local) on a state directory and metrics file the game itself wrote, and a kiosk that does not
answer; it prints one row each and changes nothing."""

from __future__ import annotations

import os
import re
import shutil
import socket
import sys
import time
from pathlib import Path
from subprocess import run

import pytest

from tests.test_metrics import win_one_game

REPO = Path(__file__).resolve().parent.parent
PLAYBOOK = shutil.which(
    "ansible-playbook", path=f"{Path(sys.executable).parent}:{os.environ['PATH']}"
)

pytestmark = pytest.mark.skipif(
    PLAYBOOK is None,
    reason="ansible-playbook is not installed (pip install -r requirements-dev.txt)",
)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens there once it is closed


def snapshot(*directories: Path) -> dict[str, tuple[int, int]]:
    return {
        str(path): (path.stat().st_mtime_ns, path.stat().st_size)
        for directory in directories
        for path in sorted(directory.rglob("*"))
    }


def test_the_report_prints_a_row_per_kiosk_and_changes_nothing(tmp_path: Path) -> None:
    assert PLAYBOOK is not None
    textfile = win_one_game(tmp_path)  # the game's own files: one won game today
    state = tmp_path / "state"
    interpreter = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    # A kiosk whose game stopped an hour ago: its file was last written then.
    stale = tmp_path / "stopped" / "solitaire_kiosk.prom"
    stale.parent.mkdir()
    shutil.copy(textfile / "solitaire_kiosk.prom", stale)
    hour_ago = time.time() - 3600
    os.utime(stale, (hour_ago, hour_ago))
    inventory = tmp_path / "inventory.yml"
    inventory.write_text(
        f"""all:
  children:
    kiosks:
      hosts:
        localhost:
          ansible_connection: local
          ansible_python_interpreter: {interpreter}
          kiosk_state_dir: {state}
          kiosk_metrics_file: {textfile / "solitaire_kiosk.prom"}
        stopped.local:
          ansible_connection: local
          ansible_python_interpreter: {interpreter}
          kiosk_state_dir: {state}
          kiosk_metrics_file: {stale}
        unplugged.local:
          ansible_host: 127.0.0.1
          ansible_port: {closed_port()}
          ansible_user: pi
          ansible_ssh_common_args: -o ConnectTimeout=5 -o StrictHostKeyChecking=no
""",
        encoding="utf-8",
    )
    before = snapshot(state, textfile, stale.parent)
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOCALHOST_WARNING": "0"}
    env["ANSIBLE_LOCAL_TEMP"] = str(tmp_path / "ansible-tmp")
    result = run(
        [PLAYBOOK, "-i", str(inventory), str(REPO / "kiosk" / "fleet" / "report.yml")],
        env=env, capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path,
    )  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert snapshot(state, textfile, stale.parent) == before  # read, never written
    rows = {
        m.group(1): m.group(2).strip()
        for m in re.finditer(r'^\s+"(\S+)\s+(.*)",?$', out, re.M)
        if m.group(1) != "host"
    }
    assert set(rows) == {"localhost", "stopped.local", "unplugged.local"}, out
    assert rows["unplugged.local"].startswith("does not answer:")
    version = re.search(r'(?m)^version = "(.+)"$', (REPO / "pyproject.toml").read_text())
    assert version
    today = time.strftime("%Y-%m-%d", time.gmtime())
    fields = rows["localhost"].split()
    # version, up since (date time), last input (date time), games, wins, crash/wd, failed, free
    assert fields[0] == version.group(1)
    assert fields[1] == today and fields[3] == today
    assert fields[5:9] == ["1", "1", "0/0", "0"], rows["localhost"]
    assert re.fullmatch(r"\d+(\.\d+)? [KMGT]?B", " ".join(fields[9:])), rows["localhost"]
    down = time.strftime("%m-%d %H:%M", time.gmtime(hour_ago))
    assert rows["stopped.local"].split()[1:4] == ["down", *down.split()], rows["stopped.local"]


def test_syntax_check_with_the_example_inventory() -> None:
    assert PLAYBOOK is not None
    inventory = REPO / "kiosk" / "fleet" / "inventory.example.yml"
    report = REPO / "kiosk" / "fleet" / "report.yml"
    result = run(
        [PLAYBOOK, "--syntax-check", "-i", str(inventory), str(report)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
