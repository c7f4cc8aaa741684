"""The fleet playbook's venue (kiosk/fleet/site.yml with a venue_id and a group venue_broker, and
kiosk/fleet/venue-forget.yml), run as kiosk/README.md prints it, in a copy of the source tree whose
inventory the operator copied from the example and filled in (the venue turned on, a broker).

One throw-away Debian root (the package and fleet tests' root, with Debian's package lists and
mosquitto's packages fetched once into the test cache) is both the broker, scores.lan, and the
kiosk cafe-2.local; library-1.local is in the inventory but left out with --limit. The broker role
installs mosquitto, makes the CA, the certificate and a password per kiosk (on this machine, kept)
and the ACL; the kiosk gets its credentials file, the CA and its [venue]. Then the root's own
mosquitto, started with the root's config, takes TLS connections with the kiosks' generated
passwords and refuses a kiosk that writes another's topic; a second run changes nothing; no
password shows in any output; venue-forget.yml clears a kiosk's tables; a kiosk taken off the
venue loses its files, its password and its ACL entry. The kiosk's unit gets the drop-in that
lets the game reach the broker (its address as the root's /etc/hosts names it, the nameservers of
its /etc/resolv.conf) and nothing else, which systemd-analyze reads; a new address for the broker
rewrites it, and a kiosk taken off the venue loses it. The README's drop-in, typed by hand, is the
playbook's.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy.test_deb_fleet import (
    CHECK,
    CONF,
    RUN,
    chroot_collection,
    hash_pin_typed,
    needs_dpkg,
    operator_inventory,
    playbook,
    recap,
    yaml,
)
from tests.deploy.test_fleet_report import closed_port
from tests.helpers.debroot import CACHE, chroot, game_check, root_with, unmount_below
from tests.helpers.readme_commands import checkout, typed, typed_in_shell

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

FORGET = (
    "ansible-playbook -i kiosk/fleet/inventory.yml kiosk/fleet/venue-forget.yml "
    "-e forget=cafe-2.local"
)
# Setting up one kiosk by hand (the README's "By hand, for one kiosk").
BY_HAND = (
    "sudo install -m 0640 -o root -g solitaire /dev/stdin /etc/solitaire-kiosk/venue-credentials",
    "sudo install -m 0644 venue-ca.crt /etc/solitaire-kiosk/venue-ca.crt",
)
VENUE_ROOT = CACHE / "bookworm-venue.tar"
CREDENTIALS = "etc/solitaire-kiosk/venue-credentials"
KIOSK_CA = "etc/solitaire-kiosk/venue-ca.crt"
BROKER = "etc/mosquitto/solitaire"
UNIT = "solitaire-kiosk.service"  # the inventory's kiosk_display: kmsdrm
DROP_IN = f"etc/systemd/system/{UNIT}.d/venue.conf"
# By hand (the README's "The unit's network drop-in"): the look-ups, then the drop-in written.
LOOK_UP = ("getent ahosts scores.lan", "grep '^nameserver' /etc/resolv.conf")
WRITE_DROP_IN = (
    "sudo mkdir -p /etc/systemd/system/solitaire-kiosk.service.d",
    "sudo install -m 0644 /dev/stdin /etc/systemd/system/solitaire-kiosk.service.d/venue.conf",
)
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(os.geteuid() != 0, reason="chroot needs root"),
    pytest.mark.skipif(
        shutil.which("mosquitto_pub") is None, reason="apt install mosquitto-clients"
    ),
    needs_dpkg,
]


def venue_root(directory: Path) -> Path:
    """The package tests' root with Debian's package lists and mosquitto's packages downloaded
    (not installed: the role installs them), made once and kept as a tarball in the test cache.
    No daemon starts in it while packages install (mosquitto's would listen on this machine)."""
    return root_with(
        directory, VENUE_ROOT, "printf '#!/bin/sh\\nexit 101\\n' >/usr/sbin/policy-rc.d && "
        "chmod 755 /usr/sbin/policy-rc.d && apt-get update -q && "
        "apt-get install -q -y --download-only mosquitto mosquitto-clients",
        "apt-get install --download-only mosquitto", keep_apt=True,
    )  # fmt: skip


class Broker:
    """The root's mosquitto, started with the root's own config (the role's listener in it)."""

    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port
        # As Debian's unit does before it starts mosquitto (which writes its pid as its user).
        user = chroot(root, "getent", "passwd", "mosquitto").stdout.split(":")
        (root / "run/mosquitto").mkdir(parents=True, exist_ok=True)
        os.chown(root / "run/mosquitto", int(user[2]), int(user[3]))
        self.process = subprocess.Popen(
            ["chroot", str(root), "mosquitto", "-c", "/etc/mosquitto/mosquitto.conf"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and self.process.poll() is None:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    return
            time.sleep(0.1)
        self.stop()
        pytest.fail(f"mosquitto did not listen on {port}: {self.log()}")

    def log(self) -> str:
        log = self.root / "var/log/mosquitto/mosquitto.log"
        return log.read_text() if log.exists() else ""

    def reload(self) -> None:
        self.process.send_signal(signal.SIGHUP)
        time.sleep(1)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)

    def client(
        self, tool: str, user: str, password: str, *words: str
    ) -> subprocess.CompletedProcess[str]:
        """mosquitto_pub or mosquitto_sub on this machine, over TLS with the kiosk's CA file."""
        return subprocess.run(
            [tool, "-h", "127.0.0.1", "-p", str(self.port), "--cafile", str(self.root / KIOSK_CA),
             "-u", user, "-P", password, *words],
            capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip

    def retained(self, user: str, password: str, expected: int) -> dict[str, str]:
        """What the broker holds for the venue, as the kiosk `user` reads it: `expected`
        messages (their count ends the wait), or nothing within a second."""
        until = ["-C", str(expected), "-W", "10"] if expected else ["-W", "1"]
        read = self.client(
            "mosquitto_sub", user, password, "-t", "solitaire/library/+/#", "-F", "%t %p",
            "--retained-only", *until,
        )  # fmt: skip
        assert read.returncode in (0, 27), read.stderr  # 27: the time ran out
        return dict(line.split(" ", 1) for line in read.stdout.splitlines())


@pytest.fixture
def root(tmp_path: Path) -> Iterator[Path]:
    made = venue_root(tmp_path)
    yield made
    unmount_below(made)


def venue_inventory(tree: Path, root: Path, port: int) -> Path:
    """The README's inventory with the venue turned on: venue_id and venue_name for the group
    kiosks, and the broker scores.lan (this root) in the group venue_broker."""
    here = {
        "ansible_connection": "community.general.chroot",
        "ansible_host": str(root),
        "ansible_python_interpreter": "/usr/bin/python3",
    }
    pin_hash = hash_pin_typed(tree, "975310")
    inventory = operator_inventory(
        tree, {"cafe-2.local": pin_hash, "library-1.local": pin_hash}, **here
    )
    data = yaml.safe_load(inventory.read_text())
    data["all"]["children"]["kiosks"]["vars"].update(venue_id="library", venue_name="City Library")
    broker = {**here, "venue_broker_name": "scores.lan", "venue_port": port}
    data["all"]["children"]["venue_broker"] = {"hosts": {"scores.lan": broker}}
    inventory.write_text(yaml.safe_dump(data))
    return inventory


def assert_the_files(root: Path, secrets: Path, port: int) -> dict[str, str]:
    """The broker's and the kiosk's files after the first run; returns the kiosks' passwords."""
    passwords = {
        user: (secrets / "passwords" / user).read_text().strip() for user in ("cafe-2", "library-1")
    }
    assert all(len(p) == 32 and p.isalnum() for p in passwords.values()), "not random enough"
    assert (secrets.stat().st_mode & 0o777, (secrets / "ca.key").stat().st_mode & 0o777) == (
        0o700,
        0o600,
    )
    gid = int(chroot(root, "getent", "group", "solitaire").stdout.split(":")[2])
    credentials = root / CREDENTIALS
    st = credentials.stat()
    assert (oct(st.st_mode & 0o777), st.st_uid, st.st_gid) == ("0o640", 0, gid)
    assert credentials.read_text() == f"username=cafe-2\npassword={passwords['cafe-2']}\n"
    assert (root / KIOSK_CA).read_bytes() == (secrets / "ca.crt").read_bytes()
    venue = tomllib.loads((root / CONF.lstrip("/")).read_text())["venue"]
    assert venue == {
        "broker": "scores.lan", "port": port, "id": "library", "name": "City Library",
        "kiosk": "cafe-2", "credentials_file": f"/{CREDENTIALS}", "ca_file": f"/{KIOSK_CA}",
    }  # fmt: skip
    passwd = (root / BROKER / "passwd").read_text()
    assert sorted(line.split(":")[0] for line in passwd.splitlines()) == ["cafe-2", "library-1"]
    assert passwords["cafe-2"] not in passwd and ":$7$" in passwd  # hashed by mosquitto_passwd
    acl = (root / BROKER / "acl").read_text()
    for user in passwords:
        assert f"\nuser {user}\ntopic write solitaire/library/{user}/#\n" in acl
    mosquitto = int(chroot(root, "getent", "group", "mosquitto").stdout.split(":")[2])
    st = (root / BROKER / "server.key").stat()
    assert (oct(st.st_mode & 0o777), st.st_uid, st.st_gid) == ("0o640", 0, mosquitto)
    verify = subprocess.run(
        ["openssl", "verify", "-CAfile", str(root / KIOSK_CA), str(root / BROKER / "server.crt")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert verify.returncode == 0, verify.stdout + verify.stderr
    return passwords


def name_the_broker(root: Path, address: str) -> None:
    """The kiosk finds scores.lan at `address` and its own name at 127.0.1.1 (its /etc/hosts),
    and asks 127.0.0.53 (a local resolver) and 192.0.2.53 for other names."""
    hosts = root / "etc/hosts"
    kept = [line for line in (hosts.read_text() if hosts.exists() else "").splitlines()
            if "scores.lan" not in line and "127.0.1.1" not in line]  # fmt: skip
    # As Debian's installer writes it, the machine's own name is in /etc/hosts: else every
    # look-up of it (Ansible's facts ask for its full name) waits for 192.0.2.53, no one.
    here = f"127.0.1.1 {socket.gethostname()}"
    hosts.write_text("\n".join([*kept, here, f"{address} scores.lan"]) + "\n")
    resolv = root / "etc/resolv.conf"
    resolv.unlink(missing_ok=True)  # (a link to the host's, maybe)
    resolv.write_text("# by the test\nnameserver 127.0.0.53\nnameserver 192.0.2.53 # the router\n")


def settings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def assert_the_drop_in(root: Path, address: str) -> str:
    """The kiosk's unit may reach `address` (the broker) and the nameservers, no more; the other
    unit has no drop-in. Returns its text."""
    drop_in = root / DROP_IN
    st = drop_in.stat()
    assert (oct(st.st_mode & 0o777), st.st_uid, st.st_gid) == ("0o644", 0, 0)
    text = drop_in.read_text()
    assert settings(text) == [
        "[Service]",
        "RestrictAddressFamilies=AF_INET AF_INET6",
        f"IPAddressAllow={address}",
        "IPAddressAllow=localhost 192.0.2.53",
    ], text
    assert not (root / "etc/systemd/system/solitaire-kiosk-cage.service.d/venue.conf").exists()
    assert_systemd_reads(root, text)
    return text


def assert_systemd_reads(root: Path, drop_in: str) -> None:
    """systemd-analyze (this machine's) verifies the root's unit with the drop-in, and its
    offline security check shows what the drop-in changes: IP sockets, an allow list, nothing
    else (no packet sockets). Without it the same check shows no IP at all."""
    if SYSTEMD_ANALYZE is None:
        return
    unit = next(
        u for u in (root / "usr/lib/systemd/system" / UNIT, root / "lib/systemd/system" / UNIT)
        if u.exists()
    )  # fmt: skip
    here = root / "tmp/analyze"
    shutil.rmtree(here, ignore_errors=True)
    (here / f"{UNIT}.d").mkdir(parents=True)
    copy = here / UNIT
    copy.write_text(
        unit.read_text().replace("/usr/lib/solitaire-kiosk", f"{root}/usr/lib/solitaire-kiosk")
    )

    def analyze(*words: str) -> str:
        done = subprocess.run([SYSTEMD_ANALYZE, *words, str(copy)], capture_output=True,
                              text=True, timeout=60, check=False)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout + done.stderr

    def sandbox() -> list[str]:
        said = analyze("security", "--offline=true", "--no-pager")
        return [" ".join(line.split()[:2]) for line in said.splitlines()
                if "RestrictAddressFamilies=" in line or "IPAddressDeny=" in line]  # fmt: skip

    without = sandbox()
    (here / f"{UNIT}.d/venue.conf").write_text(drop_in)
    assert [line for line in analyze("verify").splitlines() if UNIT in line] == []
    with_it = sandbox()
    assert "✓ RestrictAddressFamilies=~AF_(INET|INET6)" in without, without
    assert "✗ RestrictAddressFamilies=~AF_(INET|INET6)" in with_it, with_it
    assert "✓ RestrictAddressFamilies=~AF_PACKET" in with_it, with_it
    assert "✗ IPAddressDeny=" in with_it and "✓ IPAddressDeny=" in without, (without, with_it)


def assert_no_password(output: str, passwords: dict[str, str]) -> None:
    for password in passwords.values():
        at = output.find(password)
        assert at < 0, f"a password shows in the output: {output[max(0, at - 300) : at]}"


def assert_the_broker_keeps_kiosks_apart(broker: Broker, passwords: dict[str, str]) -> None:
    cafe, library = ("cafe-2", passwords["cafe-2"]), ("library-1", passwords["library-1"])
    topic = "solitaire/library/cafe-2/RU1-C/all"
    sent = broker.client("mosquitto_pub", *cafe, "-t", topic, "-r", "-q", "1", "-m", '{"v": 1}')
    assert sent.returncode == 0, sent.stderr + broker.log()
    assert broker.retained(*library, 1) == {topic: '{"v": 1}'}  # the other kiosk reads it
    hostile = broker.client(
        "mosquitto_pub", *library, "-t", topic, "-r", "-q", "1", "-m", "{}", "-V", "mqttv5"
    )
    assert "Not authorized" in hostile.stderr, hostile.stdout + hostile.stderr
    assert broker.retained(*cafe, 1) == {topic: '{"v": 1}'}  # unchanged
    wrong = broker.client("mosquitto_pub", "cafe-2", passwords["library-1"], "-t", topic, "-n")
    anonymous = subprocess.run(
        ["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker.port), "--cafile",
         str(broker.root / KIOSK_CA), "-t", topic, "-n"],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    plain = subprocess.run(
        ["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker.port), "-u", cafe[0],
         "-P", cafe[1], "-t", topic, "-n"],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    for refused in (wrong, anonymous, plain):
        assert refused.returncode != 0, refused.stdout + refused.stderr
    assert broker.retained(*cafe, 1) == {topic: '{"v": 1}'}


def test_the_venue_broker_and_a_kiosk_in_a_debian_root(
    tmp_path: Path, root: Path, amd64_deb: Path
) -> None:
    collections = chroot_collection()
    tree = checkout(tmp_path)
    (tree / "dist").mkdir()
    shutil.copy(amd64_deb, tree / "dist" / amd64_deb.name)
    port = closed_port()
    inventory = venue_inventory(tree, root, port)
    secrets = tree / "kiosk/fleet/venue-secrets/scores.lan"
    name_the_broker(root, "192.0.2.10")

    def run(command: str, *more: str) -> str:
        output = playbook(tmp_path, typed(command), *more, tree=tree, collections=collections)
        assert output.startswith("rc=0\n"), output
        return output

    # --check --diff first, on a root with neither mosquitto nor the package: it says what it would
    # do (the kiosk's [venue] in its config's diff), changes nothing there, shows no secret.
    checked = run(CHECK, "--limit", "scores.lan,cafe-2.local")
    assert "\n+[venue]\n" in checked and '\n+broker = "scores.lan"\n' in checked, checked
    assert not (root / BROKER).exists() and not (root / "etc/solitaire-kiosk").exists()
    first = run(RUN, "--limit", "scores.lan,cafe-2.local")
    passwords = assert_the_files(root, secrets, port)
    assert_the_drop_in(root, "192.0.2.10")
    check_as_the_game(root)  # the game reads its [venue] and both files
    text = (root / CONF.lstrip("/")).read_text()
    venue_section = "\n[venue]\n" + text.split("\n[venue]\n", 1)[1]

    broker = Broker(root, port)
    try:
        assert_the_broker_keeps_kiosks_apart(broker, passwords)
        again = run(RUN, "--limit", "scores.lan,cafe-2.local", "--diff")
        assert recap(again, "scores.lan")["changed"] == 0, again
        assert recap(again, "cafe-2.local")["changed"] == 0, again

        # The broker moved: the drop-in follows (that one change), and nothing else changes.
        name_the_broker(root, "192.0.2.11")
        moved = run(RUN, "--limit", "cafe-2.local", "--diff")
        assert recap(moved, "cafe-2.local")["changed"] == 1, moved
        assert "\n-IPAddressAllow=192.0.2.10\n+IPAddressAllow=192.0.2.11\n" in moved, moved
        drop_in = assert_the_drop_in(root, "192.0.2.11")

        forgot = run(FORGET)
        assert '"cleared: solitaire/library/cafe-2/RU1-C/all"' in forgot, forgot
        assert broker.retained("library-1", passwords["library-1"], 0) == {}

        # cafe-2 leaves the venue: its files and [venue] go, and so do its password and ACL entry.
        data = yaml.safe_load(inventory.read_text())
        data["all"]["children"]["kiosks"]["hosts"]["cafe-2.local"]["venue_id"] = ""
        inventory.write_text(yaml.safe_dump(data))
        gone = run(RUN, "--limit", "scores.lan,cafe-2.local")
        assert not (root / CREDENTIALS).exists() and not (root / KIOSK_CA).exists()
        assert not (root / DROP_IN).exists()  # the unit's sandbox as shipped: no IP at all
        assert "[venue]" not in (root / CONF.lstrip("/")).read_text()
        assert "user cafe-2" not in (root / BROKER / "acl").read_text()
        broker.reload()  # what systemctl reload does (no systemd in the root)
        refused = broker.client("mosquitto_pub", "cafe-2", passwords["cafe-2"], "-t", "x", "-n")
        assert refused.returncode != 0, refused.stdout + refused.stderr
    finally:
        broker.stop()
    assert_no_password(checked + first + again + moved + forgot + gone, passwords)
    by_hand(root, secrets, venue_section, passwords["cafe-2"])
    drop_in_by_hand(root, drop_in)


def by_hand(root: Path, secrets: Path, venue_section: str, password: str) -> None:
    """The README's commands for one kiosk by hand, typed in the root (the CA copied to the
    kiosk first, the [venue] section written as printed): the game's own check takes them."""
    shutil.copy(secrets / "ca.crt", root / "root/venue-ca.crt")
    subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")], check=True)  # /dev/stdin
    lines = f"username=cafe-2\npassword={password}\n"
    for command in BY_HAND:
        done = chroot(root, "sh", "-c", f"cd /root && {typed_in_shell(command)}", stdin=lines)
        assert done.returncode == 0, done.stdout + done.stderr
    gid = int(chroot(root, "getent", "group", "solitaire").stdout.split(":")[2])
    st = (root / CREDENTIALS).stat()
    assert (oct(st.st_mode & 0o777), st.st_uid, st.st_gid) == ("0o640", 0, gid)
    assert (root / CREDENTIALS).read_text() == lines
    conf = root / CONF.lstrip("/")
    conf.write_text(conf.read_text() + venue_section)
    check_as_the_game(root)


def drop_in_by_hand(root: Path, written: str) -> None:
    """The README's look-ups find what the playbook put in the drop-in, and its drop-in, typed
    with the commands it prints, says what the playbook's says for those addresses."""
    looked = [chroot(root, "sh", "-c", typed_in_shell(command)) for command in LOOK_UP]
    assert looked[0].stdout.startswith("192.0.2.11 "), looked[0].stdout + looked[0].stderr
    assert looked[1].stdout.split() == ["nameserver", "127.0.0.53", "nameserver", "192.0.2.53",
                                        "#", "the", "router"]  # fmt: skip
    readme = (Path(__file__).resolve().parents[2] / "kiosk/README.md").read_text()
    section = readme.split("### The unit's network drop-in\n", 1)[1].split("\n### ", 1)[0]
    printed = section.split("```ini\n", 1)[1].split("```", 1)[0]
    for command in WRITE_DROP_IN:
        done = chroot(root, "sh", "-c", typed_in_shell(command), stdin=printed)
        assert done.returncode == 0, done.stdout + done.stderr
    assert (root / DROP_IN).read_text() == printed
    assert (root / DROP_IN).stat().st_mode & 0o777 == 0o644
    # The README's example is the playbook's drop-in for 192.0.2.10 (before the broker moved).
    assert settings(printed) == [
        line.replace("192.0.2.11", "192.0.2.10") for line in settings(written)
    ]
    assert_systemd_reads(root, printed)


def check_as_the_game(root: Path) -> None:
    check = game_check(root, CONF)
    assert check.stdout == f"{CONF}: OK\n", check.stdout + check.stderr


def test_the_venue_secrets_are_ignored_by_git() -> None:
    """The CA's key and the passwords the playbook makes in kiosk/fleet/venue-secrets never go
    into a commit by accident."""
    repo = Path(__file__).resolve().parents[2]
    for name in ("scores.lan/ca.key", "scores.lan/passwords/cafe"):
        ignored = subprocess.run(
            ["git", "-C", str(repo), "check-ignore", "-q", f"kiosk/fleet/venue-secrets/{name}"],
            check=False,
        )
        assert ignored.returncode == 0, name
