"""The fleet report (kiosk/fleet/report.yml), typed as kiosk/README.md prints it, in a copy of
the source tree whose kiosk/fleet/inventory.yml the operator copied from the example: against
this machine (connection local) on a state directory and metrics file the game itself wrote, a
kiosk whose game stopped, a kiosk with no metrics file yet, a kiosk that does not answer, and
two kiosks of a venue (connected, and offline with no update yet); one row each, nothing
changed. Twice: with the pinned ansible-core (requirements-dev.txt) and with
the ansible-core Debian stable ships (`apt install ansible` brings it), run inside a throw-away
Debian bookworm root. Without the inventory copy, the README's commands fail loudly."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers.debroot import CACHE, chroot, root_with, unmount_below
from tests.helpers.readme_commands import checkout, typed
from tests.kiosk.test_metrics import win_one_game

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PLAYBOOK = shutil.which("ansible-playbook", path=f"{BIN}:{os.environ['PATH']}")
REPORT = "ansible-playbook -i kiosk/fleet/inventory.yml kiosk/fleet/report.yml"
COPY = "cp kiosk/fleet/inventory.example.yml kiosk/fleet/inventory.yml"
# Debian 12's own Ansible: ansible-core 2.14 (the `ansible` package adds only collections).
DEBIAN_ANSIBLE = CACHE / "bookworm-ansible-core.tar"
VENUE_UPDATE = 1_796_000_000.25  # the venue kiosk's last update from its broker (UNIX time)

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(
        PLAYBOOK is None,
        reason="ansible-playbook is not installed (pip install -r requirements-dev.txt)",
    ),
]


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


def operator_env(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOCALHOST_WARNING": "0"}
    env["ANSIBLE_LOCAL_TEMP"] = str(tmp_path / "ansible-tmp")
    env["PATH"] = f"{BIN}:{env['PATH']}"  # the venv's ansible-playbook, as if activated
    return env


def the_operators_inventory(
    tree: Path, run: Callable[[list[str]], subprocess.CompletedProcess[str]], hosts: str
) -> None:
    """The README's copy of the example inventory, typed, then its kiosks replaced by `hosts`
    (the group's settings kept), as an operator fills it in."""
    copied = run(typed(COPY))
    assert copied.returncode == 0, copied.stderr
    inventory = tree / "kiosk" / "fleet" / "inventory.yml"
    text = inventory.read_text(encoding="utf-8")
    assert "      hosts:\n" in text
    inventory.write_text(text.split("      hosts:\n")[0] + "      hosts:\n" + hosts)


def kiosks(
    interpreter: str, won: Path, stale: Path, state: Path, new: Path, venue: tuple[Path, Path]
) -> str:
    """The inventory's hosts: the game that won a game, one stopped an hour ago, one whose
    game never wrote its metrics, one that does not answer, two of a venue (`venue`: their
    metrics files, connected and offline)."""
    local = f"ansible_connection: local\n          ansible_python_interpreter: {interpreter}"
    return f"""        localhost:
          {local}
          kiosk_state_dir: {state}
          kiosk_metrics_file: {won}
        stopped.local:
          {local}
          kiosk_state_dir: {state}
          kiosk_metrics_file: {stale}
        new.local:
          {local}
          kiosk_state_dir: {state}
          kiosk_metrics_file: {new}
        venue.local:
          {local}
          kiosk_state_dir: {state}
          kiosk_metrics_file: {venue[0]}
        venue-off.local:
          {local}
          kiosk_state_dir: {state}
          kiosk_metrics_file: {venue[1]}
        unplugged.local:
          ansible_host: 127.0.0.1
          ansible_port: {closed_port()}
          ansible_ssh_common_args: -o ConnectTimeout=5 -o StrictHostKeyChecking=no
"""


def rows_of(out: str) -> dict[str, str]:
    return {
        m.group(1): m.group(2).strip()
        for m in re.finditer(r'^\s+"(\S+)\s+(.*)",?$', out, re.M)
        if m.group(1) != "host"
    }


def assert_the_rows(out: str, new: str, hour_ago: float) -> None:
    rows = rows_of(out)
    assert set(rows) == {
        "localhost", "stopped.local", "new.local", "unplugged.local", "venue.local",
        "venue-off.local",
    }, out  # fmt: skip
    assert rows["unplugged.local"].startswith("does not answer:")
    # The kiosk with no metrics yet is a row, naming the file its own inventory entry gives.
    assert rows["new.local"].startswith(
        f"no metrics at {new} (is [metrics] textfile_dir set?); free "
    ), rows["new.local"]
    version = re.search(r'(?m)^version = "(.+)"$', (REPO / "pyproject.toml").read_text())
    assert version
    today = time.strftime("%Y-%m-%d", time.gmtime())
    fields = rows["localhost"].split()
    # version, up since (date time), last input (date time), games, wins, crash/wd, failed, free
    assert fields[0] == version.group(1)
    assert fields[1] == today and fields[3] == today
    assert fields[5:9] == ["1", "1", "0/0", "0"], rows["localhost"]
    assert re.fullmatch(r"\d+(\.\d+)? [KMGT]?B", " ".join(fields[9:11])), rows["localhost"]
    # The venue's columns: none without the venue's metrics; connected and the last update
    # (UTC), or offline and never.
    assert fields[11:] == ["no", "venue"], rows["localhost"]
    update = time.strftime("%m-%d %H:%M", time.gmtime(VENUE_UPDATE))
    assert rows["venue.local"].split()[11:] == ["connected", *update.split()], rows["venue.local"]
    assert rows["venue-off.local"].split()[11:] == ["offline", "never"], rows["venue-off.local"]
    down = time.strftime("%m-%d %H:%M", time.gmtime(hour_ago))
    assert rows["stopped.local"].split()[1:4] == ["down", *down.split()], rows["stopped.local"]


def venue_kiosks(tmp_path: Path, textfile: Path) -> tuple[Path, Path]:
    """The game's metrics file with the venue's two gauges added, as a kiosk of a venue writes
    them: connected with an update at VENUE_UPDATE, and offline with none yet."""
    made = []
    for name, connected, update in (("venue", 1, VENUE_UPDATE), ("venue-off", 0, 0)):
        prom = tmp_path / name / "solitaire_kiosk.prom"
        prom.parent.mkdir()
        prom.write_text(
            textfile.read_text()
            + f"solitaire_kiosk_venue_connected {connected}\n"
            + f"solitaire_kiosk_venue_last_update_timestamp_seconds {update:.3f}\n"
        )
        made.append(prom)
    return made[0], made[1]


def the_kiosks_files(tmp_path: Path) -> tuple[Path, Path, Path, float]:
    """The metrics file of a game won today, the same file an hour old (a stopped game), and
    the state directory."""
    textfile = win_one_game(tmp_path)  # the game's own files: one won game today
    stale = tmp_path / "stopped" / "solitaire_kiosk.prom"
    stale.parent.mkdir()
    shutil.copy(textfile / "solitaire_kiosk.prom", stale)
    hour_ago = time.time() - 3600
    os.utime(stale, (hour_ago, hour_ago))
    return textfile / "solitaire_kiosk.prom", stale, tmp_path / "state", hour_ago


def test_the_report_as_typed_prints_a_row_per_kiosk_and_changes_nothing(tmp_path: Path) -> None:
    won, stale, state, hour_ago = the_kiosks_files(tmp_path)
    new = tmp_path / "new" / "solitaire_kiosk.prom"  # its directory is there, the file not yet
    new.parent.mkdir()
    tree = checkout(tmp_path)
    env = operator_env(tmp_path)

    def run(words: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            words, env=env, cwd=tree, capture_output=True, text=True, timeout=300, check=False
        )

    interpreter = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    venue = venue_kiosks(tmp_path, won)
    the_operators_inventory(tree, run, kiosks(interpreter, won, stale, state, new, venue))
    before = snapshot(state, won.parent, stale.parent, new.parent)
    result = run(typed(REPORT))
    assert result.returncode == 0, result.stdout + result.stderr
    assert snapshot(state, won.parent, stale.parent, new.parent) == before  # read, never written
    assert_the_rows(result.stdout, str(new), hour_ago)


def test_the_readme_commands_without_the_inventory_copy_fail_loudly(tmp_path: Path) -> None:
    """Forgetting the `cp` (or a wrong -i path) matches no host: an error, not a quiet rc 0."""
    tree = checkout(tmp_path)
    commands = [
        REPORT,
        "ansible-playbook -i kiosk/fleet/inventory.yml kiosk/fleet/site.yml --check --diff",
        "ansible-playbook -i kiosk/fleet/inventory.yml kiosk/fleet/site.yml",
    ]
    for command in commands:
        result = subprocess.run(
            typed(command), env=operator_env(tmp_path), cwd=tree,
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        said = result.stdout + result.stderr
        assert result.returncode != 0, said
        assert "No kiosk in the inventory (" in said and "/kiosk/fleet/inventory.yml" in said
    # An inventory with hosts, none of them in the group kiosks: the same.
    (tree / "kiosk/fleet/inventory.yml").write_text("all:\n  hosts:\n    pi-1.local:\n")
    result = subprocess.run(
        typed(REPORT), env=operator_env(tmp_path), cwd=tree,
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode != 0 and "there is no host in the group kiosks" in result.stdout


def test_the_example_inventory_as_shipped_gives_a_row_per_kiosk(tmp_path: Path) -> None:
    """Copied and not yet filled in: its two example kiosks are not on this network, and the
    report says so for each, one row each, instead of leaving them out."""
    tree = checkout(tmp_path)
    env = operator_env(tmp_path)
    for command in (COPY, REPORT):
        result = subprocess.run(
            typed(command), env=env, cwd=tree, capture_output=True, text=True, timeout=300,
            check=False,
        )  # fmt: skip
        assert result.returncode == 0, result.stdout + result.stderr
    rows = rows_of(result.stdout)
    assert set(rows) == {"library-1.local", "cafe-2.local"}, result.stdout
    assert all(row.startswith("does not answer: ") for row in rows.values()), rows


def test_syntax_check_with_the_example_inventory() -> None:
    assert PLAYBOOK is not None
    inventory = REPO / "kiosk" / "fleet" / "inventory.example.yml"
    report = REPO / "kiosk" / "fleet" / "report.yml"
    result = subprocess.run(
        [PLAYBOOK, "--syntax-check", "-i", str(inventory), str(report)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------- Debian stable's own Ansible (2.14)


def debian_ansible_root(directory: Path) -> Path:
    """A throw-away bookworm root with Debian's ansible-core installed by apt (made once,
    kept as a tarball in the test cache)."""
    return root_with(
        directory, DEBIAN_ANSIBLE, "apt-get update -q && DEBIAN_FRONTEND=noninteractive "
        "apt-get install -y -q --no-install-recommends ansible-core openssh-client",
        "apt-get install ansible-core", keep_apt=False,
    )  # fmt: skip


@pytest.mark.skipif(os.geteuid() != 0, reason="chroot needs root")
def test_the_report_with_debian_stables_ansible(tmp_path: Path) -> None:
    """The same report and kiosks, typed inside a Debian 12 root with its apt-installed
    ansible-core 2.14 (paths below are the root's)."""
    won, stale, state, hour_ago = the_kiosks_files(tmp_path)
    root = debian_ansible_root(tmp_path)
    try:
        version = chroot(root, "ansible-playbook", "--version").stdout
        assert re.match(r"ansible-playbook \[core 2\.14\.", version), version
        inside = root / "srv"
        for source in (won, stale, *venue_kiosks(tmp_path, won)):
            target = inside / source.parent.name / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
        shutil.copytree(state, inside / "state")
        (inside / "new").mkdir()
        tree = checkout(root / "home")
        where = "/home/tree"

        def run(words: list[str]) -> subprocess.CompletedProcess[str]:
            line = f"cd {where} && ANSIBLE_NOCOLOR=1 {shlex.join(words)}"
            return chroot(root, "sh", "-c", line)

        the_operators_inventory(
            tree, run, kiosks("/usr/bin/python3", Path("/srv/textfile/solitaire_kiosk.prom"),
                   Path("/srv/stopped/solitaire_kiosk.prom"), Path("/srv/state"),
                   Path("/srv/new/solitaire_kiosk.prom"),
                   (Path("/srv/venue/solitaire_kiosk.prom"),
                    Path("/srv/venue-off/solitaire_kiosk.prom"))),
        )  # fmt: skip
        result = run(typed(REPORT))
        assert result.returncode == 0, result.stdout + result.stderr
        assert_the_rows(result.stdout, "/srv/new/solitaire_kiosk.prom", hour_ago)
        (tree / "kiosk/fleet/inventory.yml").unlink()
        forgot = run(typed(REPORT))
        assert forgot.returncode != 0 and "No kiosk in the inventory (" in forgot.stdout
    finally:
        unmount_below(root)
