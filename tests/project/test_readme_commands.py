"""Every command kiosk/README.md prints is typed by a test as printed, or listed here with how it is
run instead and why. A test types a command by naming it, word for word, in a string that it passes
to tests.helpers.readme_commands.typed() or typed_in_shell() (which fail when the README no longer
prints it); this test finds those strings in the source of the tests that import either. A few
commands are typed with one change, each listed in TYPED_WITH_ONE_CHANGE with what and why."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers.readme_commands import readme_commands

pytestmark = pytest.mark.unit

TESTS = Path(__file__).resolve().parents[1]
NO_SYSTEMD = (
    "needs systemd running (a real kiosk): the throw-away roots are chroots, and the stand-in "
    "systemctl of tests/deploy/test_deb_fleet.py only records the words it is given"
)

# Typed as printed but for one change each (tests/deploy/test_deb.py, operator()).
ARCH = (
    "typed in the throw-away root with the architecture in the file name, arm64 as printed, "
    "replaced by this machine's (dpkg --print-architecture): an arm64 package cannot install "
    "on amd64; the version as printed"
)
TYPED_WITH_ONE_CHANGE = {
    "sudo apt install ./solitaire-kiosk_0.1.0_arm64.deb": ARCH,
    "sudo DEBIAN_FRONTEND=noninteractive apt install ./solitaire-kiosk_0.1.0_arm64.deb": ARCH,
    "sudo apt install ./solitaire-kiosk_0.2.0_arm64.deb": f"{ARCH} (0.2.0: the package rebuilt "
    "with that version)",
    "echo 'solitaire-kiosk solitaire-kiosk/pin-hash password pbkdf2_sha256$200000$...$...' "
    "| sudo debconf-set-selections": "typed in the throw-away root with a real hash of 200000 "
    "iterations in place of the dots",
}

# Commands no test types as printed: how each is run instead, or why it cannot be.
NOT_AS_PRINTED = {
    "sudo /usr/lib/solitaire-kiosk/kiosk/console-setup.sh": (
        "tests/deploy/test_console_setup.py runs the script with --root on a tree with the real "
        "systemctl (the throw-away root has no systemd; its --dry-run is typed there)"
    ),
    "sudo reboot": "a person's step on a real kiosk",
    "sudo rm -f /var/lib/solitaire-kiosk/pin-throttle.json && sudo systemctl restart "
    "solitaire-kiosk": NO_SYSTEMD,
    "sudo kiosk/install.sh --dry-run": (
        "tests/deploy/test_install.py runs it with --root and stand-ins for systemctl, apt-get "
        "and dpkg-query (not on Raspberry Pi OS itself)"
    ),
    "sudo kiosk/install.sh": "tests/deploy/test_install.py, as for --dry-run",
    "sudo kiosk/install.sh --cage": "tests/deploy/test_install.py, as for --dry-run",
    "sudo systemctl enable --now getty@tty1": NO_SYSTEMD,
    "sudo nano /etc/solitaire-kiosk/config.toml": "an editor: a person's step",
    "sudo systemctl restart solitaire-kiosk": NO_SYSTEMD,
    "sudo systemctl daemon-reload": NO_SYSTEMD,
    "sudo systemctl stop solitaire-kiosk": NO_SYSTEMD,
    "systemctl status solitaire-kiosk": NO_SYSTEMD,
    "sudo systemctl disable --now solitaire-kiosk && sudo systemctl enable getty@tty1": NO_SYSTEMD,
    "sudo apt install prometheus-node-exporter": "tests/kiosk/test_metrics.py runs Debian's "
    "node_exporter, installed on this machine",
    "curl -s localhost:9100/metrics | grep -E '^solitaire_kiosk|^node_textfile_scrape_error'": (
        "tests/kiosk/test_metrics.py scrapes its own node_exporter on a free port"
    ),
    "cd /usr/lib/solitaire-kiosk": "tests/dev/test_soak.py runs the soak in the checkout",
    ".venv/bin/python -B -m game.dev.soak --events 10000 --seed 1 --kiosk": (
        "tests/dev/test_soak.py runs a shorter soak in the checkout (10,000 events take about 5 "
        "minutes)"
    ),
}


def typed_in_tests() -> set[str]:
    """The string constants of the test modules that type commands with typed()."""
    found: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not any(
            isinstance(node, ast.ImportFrom)
            and node.module == "tests.helpers.readme_commands"
            and any(alias.name in ("typed", "typed_in_shell") for alias in node.names)
            for node in tree.body
        ):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


def test_every_readme_command_is_typed_as_printed_or_says_why_not() -> None:
    commands = readme_commands()
    typed = typed_in_tests()
    missing = [c for c in commands if c not in typed and c not in NOT_AS_PRINTED]
    assert not missing, f"README commands no test types and none explains: {missing}"
    stale = [c for c in NOT_AS_PRINTED if c not in commands or c in typed]
    assert not stale, f"no longer printed, or typed by a test now: {stale}"
    changed = [c for c in TYPED_WITH_ONE_CHANGE if c not in commands or c not in typed]
    assert not changed, f"no longer printed, or no longer typed: {changed}"


def test_the_fleet_commands_are_typed_as_printed() -> None:
    typed = typed_in_tests()
    fleet = [c for c in readme_commands() if "kiosk/fleet" in c or "hash-pin" in c]
    assert len(fleet) >= 5
    assert all(c in typed for c in fleet), [c for c in fleet if c not in typed]
