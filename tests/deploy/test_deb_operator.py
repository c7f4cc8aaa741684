"""The Debian package by the operator's path, second pass (issue 39), in throw-away Debian Bookworm
roots (tests/helpers/debroot.py) with the amd64 package of tests/deploy/test_deb.py: a group named
solitaire that is not the kiosk's own is refused; after `solitaire-kiosk-pin` only the PIN file
counts (an emptied PIN file never brings an older hash back); the game may change only its own
metrics file, not node_exporter's directory; a deleted config.toml never leaves the package
half-configured. systemd does not run in a chroot: what the units run before each start is run here
as root by hand."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from game.kiosk.pin import hash_pin
from tests.deploy.test_deb import (
    APP,
    CONF,
    NO_PIN_LINE,
    PIN,
    apt,
    as_game,
    check_config,
    chroot,
    debs,
    game_pin_works,
    install,
    pin_file,
    pytestmark,
    root,
)
from tests.helpers.debroot import package_status

__all__ = ["debs", "pytestmark", "root"]  # the fixtures and marks of tests/deploy/test_deb.py

OLD_PIN = "111111"
RESTORED = f"solitaire-kiosk: {CONF} was missing; the shipped one was put back"


def preseed(root: Path) -> None:
    line = f"solitaire-kiosk solitaire-kiosk/pin-hash password {hash_pin(PIN)}\n"
    assert chroot(root, "debconf-set-selections", stdin=line).returncode == 0


def test_a_group_named_solitaire_not_the_kiosks_own_is_refused(
    root: Path, debs: tuple[Path, Path]
) -> None:
    deb, _newer = debs
    setups = {
        "a group of people": [["groupadd", "solitaire"]],
        "a system group with a member": [
            ["groupadd", "--system", "solitaire"],
            ["useradd", "--create-home", "--groups", "solitaire", "alice"],
        ],
    }
    for name, commands in setups.items():
        for command in commands:
            assert chroot(root, *command).returncode == 0, (name, command)
        before = chroot(root, "getent", "group", "solitaire").stdout
        refused = apt(root, "install", f"/tmp/{deb.name}")
        assert refused.returncode != 0, name
        assert 'the group "solitaire" already exists and is not the kiosk\'s own system' in (
            refused.stderr
        ), name
        assert "nothing was installed or changed" in refused.stderr
        assert "sudo groupdel solitaire" in refused.stderr  # how to proceed
        assert not package_status(root).startswith("install ok installed"), name
        assert chroot(root, "getent", "group", "solitaire").stdout == before, name
        assert chroot(root, "getent", "passwd", "solitaire").returncode == 2, name
        assert not (root / APP.lstrip("/")).exists() and not (root / "etc/solitaire-kiosk").exists()
        chroot(root, "dpkg", "--purge", "solitaire-kiosk")  # what the refused install left
        assert chroot(root, "getent", "group", "solitaire").stdout == before, name
        chroot(root, "userdel", "--remove", "alice")
        assert chroot(root, "groupdel", "solitaire").returncode == 0, name
    # The message's way on: with that group gone the package makes its own.
    install(root, deb)
    group = chroot(root, "getent", "group", "solitaire").stdout.strip().split(":")
    account = chroot(root, "getent", "passwd", "solitaire").stdout.split(":")
    assert int(group[2]) < 1000 and account[3] == group[2] and group[3] == ""


def test_after_the_pin_tool_only_the_pin_file_counts(root: Path, debs: tuple[Path, Path]) -> None:
    deb, _newer = debs
    install(root, deb)
    conf = root / CONF.lstrip("/")
    shipped = conf.read_text()
    # A config with a hash of its own beside the PIN file (as the old install.sh wrote it), the
    # PIN file empty: the kiosk has no PIN, and the check says why, without the hash.
    old = hash_pin(OLD_PIN)
    conf.write_text(shipped.replace('operator_pin_hash = ""', f'operator_pin_hash = "{old}"'))
    assert pin_file(root).read_text() == ""
    check = check_config(root)
    assert check.returncode == 1 and "holds no hash (only that file counts" in check.stdout
    assert old not in check.stdout and not game_pin_works(root, OLD_PIN)
    # The tool, as a script feeds it: the new PIN in the file, the older hash out of the config.
    done = chroot(root, "sh", "-c", f"echo {PIN} | solitaire-kiosk-pin")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "holds no PIN hash of its own" in done.stdout
    assert conf.read_text() == shipped and game_pin_works(root, PIN)
    # The PIN file emptied (or lost): no PIN, and no older one comes back, not even through a
    # dpkg-reconfigure, which says the kiosk has no PIN.
    pin_file(root).write_text("")
    again = chroot(root, "dpkg-reconfigure", "solitaire-kiosk")
    assert again.returncode == 0 and NO_PIN_LINE in again.stderr, again.stderr
    assert pin_file(root).read_text() == ""
    assert not game_pin_works(root, OLD_PIN) and not game_pin_works(root, PIN)
    pin_file(root).unlink()
    check = check_config(root)
    assert 'pin-hash": there is no such file; no PIN from it' in check.stdout, check.stdout


def acl_with(uid: int) -> bytes:
    """A POSIX access ACL giving `uid` rwx (what the older package's tmpfiles line made)."""
    entries = [(0x01, 7, -1), (0x02, 7, uid), (0x04, 5, -1), (0x10, 7, -1), (0x20, 5, -1)]
    return b"\x02\0\0\0" + b"".join(
        struct.pack("<HHI", t, p, i & 0xFFFFFFFF) for t, p, i in entries
    )


@pytest.mark.skipif(shutil.which("systemd-tmpfiles") is None, reason="no systemd-tmpfiles here")
def test_the_game_may_change_its_own_metrics_file_and_nothing_else(
    root: Path, debs: tuple[Path, Path]
) -> None:
    deb, _newer = debs
    install(root, deb)
    uid = int(chroot(root, "id", "-u", "solitaire").stdout)
    textfile = root / "var/lib/prometheus/node-exporter"  # Debian's node_exporter's, root's
    textfile.mkdir(parents=True)
    (textfile / "other.prom").write_text("other_collector 1\n")
    # A kiosk upgraded from the version whose ACL let the game write the whole directory.
    os.setxattr(textfile, "system.posix_acl_access", acl_with(uid))
    install(root, deb, "--reinstall")
    acl = os.getxattr(textfile, "system.posix_acl_access") if os.listxattr(textfile) else b""
    assert struct.pack("<HHI", 0x02, 7, uid) not in acl
    assert oct(textfile.stat().st_mode & 0o777) == "0o755"
    # What the units run as root before each start (a chroot has no systemd of its own).
    link_script = root / APP.lstrip("/") / "kiosk/metrics-dir.sh"
    if link_script.exists():
        ran = subprocess.run(["sh", str(link_script), str(root)], capture_output=True, text=True)
    else:  # the version before: its tmpfiles.d line
        ran = subprocess.run(
            ["systemd-tmpfiles", f"--root={root}", "--create", "solitaire-kiosk.conf"],
            capture_output=True,
            text=True,
        )
    assert ran.returncode == 0, ran.stderr
    # The game, as its user, writes its metrics where its config says ...
    code = (
        "from pathlib import Path; from game.kiosk.metrics import write_textfile; "
        "write_textfile(Path('/var/lib/prometheus/node-exporter'), "
        "'solitaire_kiosk_wins_today 2\\n')"
    )
    wrote = as_game(root, "sh", "-c", f'cd {APP} && {APP}/.venv/bin/python -B -c "{code}"')
    assert wrote.returncode == 0, wrote.stderr
    own = root / "var/lib/solitaire-kiosk-metrics"
    assert (own / "solitaire_kiosk.prom").read_text() == "solitaire_kiosk_wins_today 2\n"
    link = textfile / "solitaire_kiosk.prom"
    assert os.readlink(link) == "/var/lib/solitaire-kiosk-metrics/solitaire_kiosk.prom"
    assert (own.stat().st_uid, oct(own.stat().st_mode & 0o777)) == (uid, "0o755")
    # ... and can neither replace another collector's file nor add one.
    for attack in ("echo x > other.prom", "echo x > evil.prom", "mv other.prom gone.prom"):
        tried = as_game(root, "sh", "-c", f"cd /var/lib/prometheus/node-exporter && {attack}")
        assert tried.returncode != 0, attack
    assert sorted(os.listdir(textfile)) == ["other.prom", "solitaire_kiosk.prom"]
    assert (textfile / "other.prom").read_text() == "other_collector 1\n"
    # purge takes the game's directory and its link, nothing else of node_exporter's
    assert apt(root, "purge", "solitaire-kiosk").returncode == 0
    assert not own.exists() and os.listdir(textfile) == ["other.prom"]


def test_a_deleted_config_never_leaves_the_package_half_configured(
    root: Path, debs: tuple[Path, Path]
) -> None:
    deb, newer = debs
    preseed(root)
    install(root, deb)
    conf = root / CONF.lstrip("/")
    shipped = conf.read_text()
    gid = int(chroot(root, "getent", "group", "solitaire").stdout.split(":")[2])
    # rm, then an upgrade as the playbook runs it (--force-confold)
    conf.unlink()
    upgrade = install(root, newer, "-o", "Dpkg::Options::=--force-confold")
    assert upgrade.stderr.count(RESTORED) == 1, upgrade.stderr
    assert conf.read_text() == (root / "usr/share/solitaire-kiosk/config.toml").read_text()
    assert "operator_pin_file" in shipped and "[kiosk]" in conf.read_text()
    st = conf.stat()
    assert (oct(st.st_mode & 0o777), st.st_uid, st.st_gid) == ("0o640", 0, gid)
    assert check_config(root).stdout == f"{CONF}: OK\n" and game_pin_works(root, PIN)
    # rm, then dpkg-reconfigure
    conf.unlink()
    again = chroot(root, "dpkg-reconfigure", "solitaire-kiosk")
    assert again.returncode == 0 and again.stderr.count(RESTORED) == 1, again.stderr
    assert package_status(root).startswith("install ok installed")
    assert game_pin_works(root, PIN)
    # the whole directory gone, PIN included: configured, and the one line about the PIN
    shutil.rmtree(conf.parent)
    again = chroot(root, "dpkg-reconfigure", "solitaire-kiosk")
    assert again.returncode == 0 and NO_PIN_LINE in again.stderr, again.stderr
    assert package_status(root).startswith("install ok installed")
    assert re.search(r"^\[kiosk\]$", conf.read_text(), re.M) and pin_file(root).read_text() == ""
