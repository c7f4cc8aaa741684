"""kiosk/console-setup.sh, the one script that gives a kiosk's console to the game (install.sh
and the fleet playbook run it; an operator may run it by hand), run with --root on a tree that
holds this machine's own systemd unit files, with the real systemctl working offline in it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "kiosk" / "console-setup.sh"
UNITS = Path("/lib/systemd/system")
NEEDED = ("getty@.service", "getty.target", "multi-user.target", "graphical.target")
PI_LINE = "console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootwait\n"

pytestmark = [
    pytest.mark.process,
    pytest.mark.skipif(
        shutil.which("systemctl") is None or not all((UNITS / u).exists() for u in NEEDED),
        reason="needs systemd's systemctl and unit files (Debian: apt-get install systemd)",
    ),
]


def pi_tree(tmp_path: Path, cmdline: str | None = PI_LINE, at: str = "boot/firmware") -> Path:
    """A fresh Pi OS as the console sees it: a getty on tty1, booting to the desktop, Ctrl+Alt+Del
    rebooting, and its kernel command line at `at`/cmdline.txt."""
    root = tmp_path / "root"
    units = root / "lib/systemd/system"
    units.mkdir(parents=True)
    for unit in (*NEEDED, "ctrl-alt-del.target", "reboot.target", "basic.target"):
        if (UNITS / unit).exists():
            shutil.copy(UNITS / unit, units / unit)
    etc = root / "etc/systemd/system"
    (etc / "getty.target.wants").mkdir(parents=True)
    (etc / "getty.target.wants/getty@tty1.service").symlink_to("/lib/systemd/system/getty@.service")
    (etc / "default.target").symlink_to("/lib/systemd/system/graphical.target")
    if cmdline is not None:
        (root / at).mkdir(parents=True)
        (root / at / "cmdline.txt").write_text(cmdline)
    return root


def console_setup(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        ["bash", str(SCRIPT), "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    return result


def lines(result: subprocess.CompletedProcess[str], word: str) -> list[str]:
    return [ln.removeprefix(word) for ln in result.stdout.splitlines() if ln.startswith(word)]


def snapshot(root: Path) -> dict[str, str]:
    """Every file's content and every link's target under `root`."""
    seen = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            seen[str(path)] = "-> " + os.readlink(path)
        elif path.is_file():
            seen[str(path)] = path.read_text()
    return seen


def test_dry_run_lists_every_change_and_makes_none(tmp_path: Path) -> None:
    root = pi_tree(tmp_path)
    before = snapshot(root)
    dry = console_setup(root, "--dry-run")
    assert snapshot(root) == before
    planned = lines(dry, "would: ")
    assert len(planned) == 4, dry.stdout
    for what in ("getty@tty1", "multi-user.target", "ctrl-alt-del.target", "kernel command line"):
        assert sum(what in p for p in planned) == 1, planned
    # Each line says what it would change, from what to what (the playbook's --check --diff
    # shows these lines).
    assert "boot to the console: default target graphical.target -> multi-user.target" in planned
    cmdline = "kernel command line /boot/firmware/cmdline.txt: add consoleblank=0, add"
    assert f"{cmdline} vt.global_cursor_default=0 (after a reboot)" in planned
    assert lines(dry, "change: ") == []
    done = lines(console_setup(root), "change: ")
    assert done == planned  # the dry run named exactly what the real run did


def test_a_run_gives_the_console_to_the_game(tmp_path: Path) -> None:
    root = pi_tree(tmp_path)
    console_setup(root)
    etc = root / "etc/systemd/system"
    assert not (etc / "getty.target.wants/getty@tty1.service").exists()  # tty1 is the game's
    assert os.readlink(etc / "default.target").endswith("/multi-user.target")  # no desktop
    assert os.readlink(etc / "ctrl-alt-del.target") == "/dev/null"  # masked: no reboot
    cmdline = root / "boot/firmware/cmdline.txt"
    kiosk_line = PI_LINE.rstrip("\n") + " consoleblank=0 vt.global_cursor_default=0\n"
    assert cmdline.read_text() == kiosk_line
    assert cmdline.read_text().count("\n") == 1
    assert (root / "boot/firmware/cmdline.txt.solitaire-bak").read_text() == PI_LINE


def test_a_second_run_changes_nothing(tmp_path: Path) -> None:
    root = pi_tree(tmp_path)
    console_setup(root)
    before = snapshot(root)
    again = console_setup(root)
    assert lines(again, "change: ") == [] and "nothing to change" in again.stdout
    assert snapshot(root) == before
    dry = console_setup(root, "--dry-run")
    assert lines(dry, "would: ") == [] and "nothing to change" in dry.stdout


def test_an_existing_consoleblank_is_replaced_in_place(tmp_path: Path) -> None:
    root = pi_tree(tmp_path, "root=/dev/mmcblk0p2 consoleblank=600 quiet\n", at="boot")
    dry = console_setup(root, "--dry-run")  # an older Pi OS: /boot/cmdline.txt
    assert (
        "kernel command line /boot/cmdline.txt: consoleblank=600 -> consoleblank=0,"
        " add vt.global_cursor_default=0 (after a reboot)"
    ) in lines(dry, "would: ")
    console_setup(root)
    assert (root / "boot/cmdline.txt").read_text() == (
        "root=/dev/mmcblk0p2 consoleblank=0 quiet vt.global_cursor_default=0\n"
    )


def test_without_a_command_line_file_the_rest_is_still_done(tmp_path: Path) -> None:
    root = pi_tree(tmp_path, cmdline=None)
    result = console_setup(root)
    assert "not a Pi" in result.stdout
    assert len(lines(result, "change: ")) == 3
    assert not (root / "boot").exists()


def test_no_cmdline_leaves_the_kernel_command_line_alone(tmp_path: Path) -> None:
    root = pi_tree(tmp_path)
    result = console_setup(root, "--no-cmdline")
    assert not any("kernel command line" in c for c in lines(result, "change: "))
    assert (root / "boot/firmware/cmdline.txt").read_text() == PI_LINE
