"""The fleet playbook (kiosk/fleet/site.yml): ansible-playbook --syntax-check with the example
inventory, and real runs in check mode against this machine: a site's config that the game
accepts goes through and changes nothing here; a PIN hash the game refuses stops the kiosk
before any task touches it."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from subprocess import CompletedProcess, run

import pytest

from game.pin import hash_pin
from tests.test_install import fake_package

REPO = Path(__file__).resolve().parent.parent
FLEET = REPO / "kiosk" / "fleet"
PLAYBOOK = shutil.which(
    "ansible-playbook", path=f"{Path(sys.executable).parent}:{os.environ['PATH']}"
)
PIN_HASH = hash_pin("246813", iterations=100_000)

pytestmark = pytest.mark.skipif(
    PLAYBOOK is None,
    reason="ansible-playbook is not installed (pip install -r requirements-dev.txt)",
)


def playbook(*args: str, tmpdir: Path | None = None) -> CompletedProcess[str]:
    assert PLAYBOOK is not None
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOCALHOST_WARNING": "0"}
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    return run(
        [PLAYBOOK, str(FLEET / "site.yml"), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_syntax_check_with_the_example_inventory() -> None:
    result = playbook("--syntax-check", "-i", str(FLEET / "inventory.example.yml"))
    assert result.returncode == 0, result.stdout + result.stderr


def check_run(tmp_path: Path, pin_hash: str) -> CompletedProcess[str]:
    """site.yml --check --diff against this machine, with a small stand-in package."""
    interpreter = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    deb = fake_package(tmp_path, "0.1.0")
    (tmp_path / "tmp").mkdir()
    return playbook(
        "--check",
        "--diff",
        "-i", "localhost,",
        "-c", "local",
        "-e", "kiosk_hosts=localhost",
        "-e", f"ansible_python_interpreter={interpreter}",
        "-e", f"kiosk_deb={deb}",
        "-e", f"kiosk_pin_hash={pin_hash}",
        "-e", "kiosk_locale=ru",
        "-e", "kiosk_default_game=seahaven",
        tmpdir=tmp_path / "tmp",
    )  # fmt: skip


needs_dpkg = pytest.mark.skipif(
    shutil.which("dpkg-deb") is None or shutil.which("dpkg-query") is None,
    reason="dpkg is not installed: the playbook is for Debian kiosks",
)


@pytest.mark.slow
@needs_dpkg
def test_a_check_run_shows_the_sites_config_and_changes_nothing(tmp_path: Path) -> None:
    before = Path("/etc/solitaire-kiosk").exists(), Path("/var/cache/solitaire-kiosk").exists()
    result = check_run(tmp_path, PIN_HASH)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "failed=0" in result.stdout
    assert f'+operator_pin_hash = "{PIN_HASH}"' in result.stdout
    assert '+locale = "ru"' in result.stdout and '+default_game = "seahaven"' in result.stdout
    after = Path("/etc/solitaire-kiosk").exists(), Path("/var/cache/solitaire-kiosk").exists()
    assert after == before
    assert list((tmp_path / "tmp").glob("solitaire-kiosk-*")) == []  # the checked copy is gone


@pytest.mark.slow
@needs_dpkg
def test_a_pin_hash_the_game_refuses_stops_before_any_change(tmp_path: Path) -> None:
    refused = f"pbkdf2_sha256$99999999${'ab' * 16}${'cd' * 32}"
    result = check_run(tmp_path, refused)
    assert result.returncode != 0
    assert "kiosk.operator_pin_hash" in result.stdout
    assert "TASK [Copy the package to the kiosk]" not in result.stdout
    assert "changed=0" in result.stdout
    assert list((tmp_path / "tmp").glob("solitaire-kiosk-*")) == []
