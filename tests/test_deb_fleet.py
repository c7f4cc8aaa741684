"""The fleet playbook (kiosk/fleet/site.yml), run as an operator runs it: with an inventory
copied from kiosk/fleet/inventory.example.yml and filled in (no `-e`).

- `--syntax-check` with the example inventory as shipped;
- `--check --diff` against this machine: each kiosk's config diff shows its own values (host
  vars over group vars over the role's defaults), no PIN hash appears in the output or the log,
  and nothing changes here; a PIN hash the game refuses stops that kiosk before any change;
- a real run through Ansible's chroot connection installs the amd64 package into a throw-away
  Debian root, and a second run changes nothing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from game.pin import hash_pin
from tests.debroot import CACHE, built, cache_lock, chroot, new_root, package_status, unmount_below
from tests.test_install import fake_package

REPO = Path(__file__).resolve().parent.parent
FLEET = REPO / "kiosk" / "fleet"
PLAYBOOK = shutil.which(
    "ansible-playbook", path=f"{Path(sys.executable).parent}:{os.environ['PATH']}"
)
VERSION = re.search(r'^version = "(.+)"$', (REPO / "pyproject.toml").read_text(), re.M)
PIN_FILE = "/etc/solitaire-kiosk/pin-hash"
CONF = "/etc/solitaire-kiosk/config.toml"
# The chroot connection is in community.general, which ansible-core lacks. The `ansible`
# package on PyPI ships it, but it is 21,000 files (210 MB): the test takes that one collection
# out of its pinned wheel, once, into the shared test cache.
ANSIBLE = "ansible==12.3.0"  # community.general 11, for ansible-core 2.19
ANSIBLE_SHA256 = "cd156f82fa87f7a899212b0efa9f7ca3a24d609212de9f78428a572eb01e5414"
COLLECTIONS = CACHE / "ansible-12.3.0-community.general"

pytestmark = pytest.mark.skipif(
    PLAYBOOK is None,
    reason="ansible-playbook is not installed (pip install -r requirements-dev.txt)",
)
needs_dpkg = pytest.mark.skipif(
    shutil.which("dpkg-deb") is None or shutil.which("dpkg-query") is None,
    reason="dpkg is not installed: the playbook is for Debian kiosks",
)


def playbook(tmp_path: Path, *args: str, collections: Path | None = None) -> str:
    """ansible-playbook site.yml; returns everything it said: stdout, stderr and its log."""
    assert PLAYBOOK is not None
    log = tmp_path / "ansible.log"
    log.unlink(missing_ok=True)
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOG_PATH": str(log)}
    env["TMPDIR"] = str(tmp_path / "tmp")
    (tmp_path / "tmp").mkdir(exist_ok=True)
    if collections is not None:
        env["ANSIBLE_COLLECTIONS_PATH"] = str(collections)
    result = subprocess.run(
        [PLAYBOOK, str(FLEET / "site.yml"), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    logged = log.read_text() if log.exists() else ""
    return f"rc={result.returncode}\n{result.stdout}\n{result.stderr}\n{logged}"


def operator_inventory(tmp_path: Path, hashes: dict[str, str], **target: Any) -> Path:
    """The example inventory, filled in as an operator would: a PIN hash per kiosk and, for
    the group, the idle time 5 minutes and the sound on, except at library-1. `target` is
    how to reach the kiosks here (connection variables for the group)."""
    data = yaml.safe_load((FLEET / "inventory.example.yml").read_text())
    group = data["all"]["children"]["kiosks"]
    assert set(group["hosts"]) == {"library-1.local", "cafe-2.local"}
    for host, pin_hash in hashes.items():
        group["hosts"][host]["kiosk_pin_hash"] = pin_hash
    for host in set(group["hosts"]) - set(hashes):
        del group["hosts"][host]
    group["vars"].update(kiosk_idle_attract_minutes=5.0, kiosk_sound=True, **target)
    if "library-1.local" in hashes:
        group["hosts"]["library-1.local"]["kiosk_sound"] = False
    inventory = tmp_path / "inventory.yml"
    inventory.write_text(yaml.safe_dump(data))
    return inventory


def config_diffs(output: str) -> dict[str, str]:
    """Each host's diff of its config.toml in a --diff run's output, by host name."""
    task = output.split("Write /etc/solitaire-kiosk/config.toml", 1)[1].split("\nTASK [", 1)[0]
    diffs: dict[str, str] = {}
    lines: list[str] = []
    for line in task.splitlines()[1:]:
        done = re.match(r"(?:changed|ok): \[([^\]]+)\]", line)
        if done:
            diffs[done.group(1)] = "\n".join(lines)
            lines = []
        else:
            lines.append(line)
    return diffs


def task_result(output: str, task: str, host: str) -> str:
    """How a task (named by the start of its name) ended for a host: ok, changed, skipping..."""
    part = output.split(f"TASK [solitaire_kiosk : {task}", 1)[1].split("\nTASK [", 1)[0]
    done = re.search(rf"^(\w+): \[{re.escape(host)}\]", part, re.M)
    assert done, part
    return done.group(1)


def recap(output: str, host: str) -> dict[str, int]:
    line = re.search(rf"^{re.escape(host)}\s+:(.*)$", output, re.M)
    assert line, output
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line.group(1))}


def assert_no_pin_hash(output: str, *hashes: str) -> None:
    for pin_hash in hashes:
        for part in (pin_hash, *pin_hash.split("$")[2:]):  # nor its salt or digest alone
            assert part not in output


def this_machines_deb(directory: Path) -> Path:
    """A small stand-in package, named as build-deb.sh names it for this machine."""
    assert VERSION
    arch = subprocess.run(
        ["dpkg", "--print-architecture"], capture_output=True, text=True, check=True
    ).stdout.strip()
    dist = directory / "dist"
    dist.mkdir()
    deb = fake_package(directory, VERSION.group(1))
    return deb.rename(dist / f"solitaire-kiosk_{VERSION.group(1)}_{arch}.deb")


def test_syntax_check_with_the_example_inventory(tmp_path: Path) -> None:
    output = playbook(tmp_path, "--syntax-check", "-i", str(FLEET / "inventory.example.yml"))
    assert output.startswith("rc=0\n"), output


def test_the_copied_inventory_is_ignored_by_git() -> None:
    ignored = subprocess.run(
        ["git", "-C", str(REPO), "check-ignore", "-q", "kiosk/fleet/inventory.yml"], check=False
    )
    assert ignored.returncode == 0


def check_run(tmp_path: Path, hashes: dict[str, str]) -> str:
    """site.yml --check --diff -v against this machine for both example kiosks."""
    interpreter = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    deb = this_machines_deb(tmp_path)
    inventory = operator_inventory(
        tmp_path,
        hashes,
        ansible_connection="local",
        ansible_python_interpreter=interpreter,
        kiosk_deb_dir=str(deb.parent),
    )
    return playbook(tmp_path, "-i", str(inventory), "--check", "--diff", "-v")


@pytest.mark.slow
@needs_dpkg
def test_a_check_run_shows_each_kiosks_own_config_and_no_pin_hash(tmp_path: Path) -> None:
    before = Path("/etc/solitaire-kiosk").exists(), Path("/var/cache/solitaire-kiosk").exists()
    hashes = {
        "library-1.local": hash_pin("246813", iterations=100_000),
        "cafe-2.local": hash_pin("975310", iterations=100_000),
    }
    output = check_run(tmp_path, hashes)
    assert output.startswith("rc=0\n"), output
    diffs = config_diffs(output)
    assert set(diffs) == set(hashes), output
    cafe, library = diffs["cafe-2.local"], diffs["library-1.local"]
    # cafe-2's own values, the group's idle time and sound, the role's default for the rest.
    for line in ('locale = "ru"', 'default_game = "seahaven"', "rotate = 90", "px_per_mm = 8.3"):
        assert f"\n+{line}\n" in cafe
    for line in ('locale = "fi"', 'default_game = "russian"', "rotate = 0", "px_per_mm = 0.0"):
        assert f"\n+{line}\n" in library
    for diff in (cafe, library):
        assert "\n+idle_attract_minutes = 5.0\n" in diff  # the group's
        assert "\n+idle_new_game_minutes = 10.0\n" in diff  # nobody's: the default
        assert f'\n+operator_pin_file = "{PIN_FILE}"\n' in diff
        assert "operator_pin_hash" not in diff
    assert "\n+enabled = true\n" in cafe and "\n+enabled = false\n" in library
    assert "of cafe-2.local" in cafe and "of library-1.local" in library
    assert f"solitaire-kiosk {VERSION and VERSION.group(1)} would be installed" in output
    assert_no_pin_hash(output, *hashes.values())
    for host in hashes:
        assert recap(output, host)["failed"] == 0
    after = Path("/etc/solitaire-kiosk").exists(), Path("/var/cache/solitaire-kiosk").exists()
    assert after == before
    assert list((tmp_path / "tmp").glob("solitaire-kiosk-*")) == []  # the checked copy is gone


@pytest.mark.slow
@needs_dpkg
def test_a_pin_hash_the_game_refuses_stops_that_kiosk_before_any_change(tmp_path: Path) -> None:
    refused = f"pbkdf2_sha256$99999999${'ab' * 16}${'cd' * 32}"
    good = hash_pin("246813", iterations=100_000)
    output = check_run(tmp_path, {"library-1.local": good, "cafe-2.local": refused})
    assert output.startswith("rc=2\n"), output
    assert "kiosk.operator_pin_hash" in output  # the game's own words
    assert recap(output, "cafe-2.local")["failed"] == 1
    assert recap(output, "cafe-2.local")["changed"] == 0
    assert "changed: [cafe-2.local]" not in output
    assert set(config_diffs(output)) == {"library-1.local"}  # the other kiosk goes on
    assert_no_pin_hash(output, refused, good)
    assert list((tmp_path / "tmp").glob("solitaire-kiosk-*")) == []


# ------------------------------------------------------------ a real run into a Debian root


def chroot_collection() -> Path:
    """community.general (its chroot connection) from the pinned `ansible` wheel, cached."""
    chroot_plugin = COLLECTIONS / "ansible_collections/community/general/plugins/connection"
    if (chroot_plugin / "chroot.py").exists():
        return COLLECTIONS
    fd = cache_lock("ansible-collections.lock")
    try:
        if not (chroot_plugin / "chroot.py").exists():
            with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
                requirement = Path(tmp) / "requirements.txt"
                requirement.write_text(f"{ANSIBLE} --hash=sha256:{ANSIBLE_SHA256}\n")
                download = subprocess.run(
                    [sys.executable, "-m", "pip", "download", "--no-deps", "--require-hashes",
                     "--disable-pip-version-check", "-r", str(requirement), "-d", tmp],
                    capture_output=True, text=True, timeout=600, check=False,
                )  # fmt: skip
                if download.returncode != 0:
                    pytest.skip(f"pip could not download {ANSIBLE}: {download.stderr[-300:]}")
                wheel = next(Path(tmp).glob("ansible-*.whl"))
                staging = Path(tmp) / "collections"
                with zipfile.ZipFile(wheel) as archive:
                    prefix = "ansible_collections/community/general/"
                    names = [n for n in archive.namelist() if n.startswith(prefix)]
                    archive.extractall(staging, names)
                staging.rename(COLLECTIONS)
    finally:
        os.close(fd)
    return COLLECTIONS


@pytest.fixture
def debian_root(tmp_path: Path) -> Iterator[Path]:
    root = new_root(tmp_path)
    yield root
    unmount_below(root)


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="chroot and dpkg-deb --root-owner-group need root")
@needs_dpkg
def test_a_real_run_installs_into_a_debian_root_and_a_second_changes_nothing(
    tmp_path: Path, debian_root: Path
) -> None:
    root = debian_root
    collections = chroot_collection()
    deb = built("amd64", tmp_path / "dist")
    cache = root / "var/cache/solitaire-kiosk"
    cache.mkdir(parents=True)
    old = fake_package(tmp_path, "0.0.1").rename(cache / "solitaire-kiosk_0.0.1_amd64.deb")
    pin_hash = hash_pin("975310", iterations=100_000)
    inventory = operator_inventory(
        tmp_path,
        {"cafe-2.local": pin_hash},
        ansible_connection="community.general.chroot",
        ansible_host=str(root),
        ansible_python_interpreter="/usr/bin/python3",
        kiosk_deb_dir=str(deb.parent),
    )
    first = playbook(tmp_path, "-i", str(inventory), "--diff", "-v", collections=collections)
    assert first.startswith("rc=0\n"), first
    assert task_result(first, "Write the PIN hash", "cafe-2.local") == "changed"
    assert package_status(root) == f"install ok installed {VERSION.group(1) if VERSION else ''}"
    conf = (root / CONF.lstrip("/")).read_text()
    assert '\nlocale = "ru"\n' in conf and "\nidle_attract_minutes = 5.0\n" in conf
    assert f'\noperator_pin_file = "{PIN_FILE}"\n' in conf and "operator_pin_hash" not in conf
    pin_file = root / PIN_FILE.lstrip("/")
    gid = int(chroot(root, "getent", "group", "solitaire").stdout.split(":")[2])
    st = pin_file.stat()
    assert pin_file.read_text() == f"{pin_hash}\n"
    assert (oct(st.st_mode & 0o777), st.st_uid, st.st_gid) == ("0o640", 0, gid)
    assert sorted(p.name for p in cache.iterdir()) == [deb.name]  # the older one removed
    assert not old.exists()
    wants = root / "etc/systemd/system/multi-user.target.wants/solitaire-kiosk.service"
    assert wants.is_symlink()  # enabled by the package; nothing started without systemd
    # The game on the kiosk reads the PIN from its file: its own check, as its user.
    app = "/usr/lib/solitaire-kiosk"
    check = chroot(
        root, "runuser", "-u", "solitaire", "--", f"{app}/.venv/bin/python", "-B",
        f"{app}/main.py", "--check-config", CONF,
    )  # fmt: skip
    assert check.stdout == f"{CONF}: OK\n", check.stdout + check.stderr
    assert_no_pin_hash(first, pin_hash)

    second = playbook(tmp_path, "-i", str(inventory), "--diff", "-v", collections=collections)
    assert second.startswith("rc=0\n"), second
    assert recap(second, "cafe-2.local")["changed"] == 0, second
    assert_no_pin_hash(second, pin_hash)

    # A new PIN: --check --diff says the file would change and shows neither hash; then it does.
    new_hash = hash_pin("864200", iterations=100_000)
    inventory.write_text(inventory.read_text().replace(pin_hash, new_hash))
    checked = playbook(
        tmp_path, "-i", str(inventory), "--check", "--diff", "-v", collections=collections
    )
    assert checked.startswith("rc=0\n"), checked
    assert task_result(checked, "Write the PIN hash", "cafe-2.local") == "changed"
    assert recap(checked, "cafe-2.local")["changed"] == 1, checked
    assert pin_file.read_text() == f"{pin_hash}\n"
    changed = playbook(tmp_path, "-i", str(inventory), "--diff", "-v", collections=collections)
    assert recap(changed, "cafe-2.local")["changed"] == 1, changed
    assert pin_file.read_text() == f"{new_hash}\n"
    assert_no_pin_hash(checked + changed, pin_hash, new_hash)
