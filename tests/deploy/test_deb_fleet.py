"""The fleet playbook (kiosk/fleet/site.yml), run as an operator runs it: kiosk/README.md's
commands as printed, in a copy of the source tree, with the inventory its `cp` copied from
kiosk/fleet/inventory.example.yml and then filled in (no `-e`), the package in dist/.

- `--syntax-check` with the example inventory as shipped;
- `--check --diff` against this machine: each kiosk's config diff shows its own values (host
  vars over group vars over the role's defaults), no PIN hash appears in the output or the log,
  and nothing changes here; a PIN hash the game refuses stops that kiosk before any change;
- real runs through Ansible's chroot connection into a throw-away Debian root with the amd64
  package: the install (no systemd there), then with a stand-in systemctl an upgrade that
  restarts the kiosk once, a run that changes nothing, and a new PIN; `--check --diff` says
  what the console set-up would change.
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

import pytest

from game.kiosk.pin import hash_pin
from tests.deploy.test_fleet_report import debian_ansible_root
from tests.deploy.test_install import fake_package
from tests.helpers.debroot import (
    CACHE,
    cache_lock,
    chroot,
    game_check,
    new_root,
    package_status,
    unmount_below,
)
from tests.helpers.readme_commands import checkout, typed

yaml = pytest.importorskip("yaml", reason="PyYAML comes with ansible-core (requirements-dev.txt)")
REPO = Path(__file__).resolve().parents[2]
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
# kiosk/README.md's commands, typed as printed in the operator's source tree.
COPY = "cp kiosk/fleet/inventory.example.yml kiosk/fleet/inventory.yml"
RUN = "ansible-playbook -i kiosk/fleet/inventory.yml kiosk/fleet/site.yml"
CHECK = "ansible-playbook -i kiosk/fleet/inventory.yml kiosk/fleet/site.yml --check --diff"
HASH_PIN = "python3 -m game.config hash-pin"

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(
        PLAYBOOK is None,
        reason="ansible-playbook is not installed (pip install -r requirements-dev.txt)",
    ),
]
needs_dpkg = pytest.mark.skipif(
    shutil.which("dpkg-deb") is None or shutil.which("dpkg-query") is None,
    reason="dpkg is not installed: the playbook is for Debian kiosks",
)


def playbook(
    tmp_path: Path,
    words: list[str],
    *more: str,
    tree: Path | None = None,
    collections: Path | None = None,
) -> str:
    """A command of the README (`words`, with `more` options after it) in the operator's tree;
    returns everything it said: stdout, stderr and its log."""
    assert PLAYBOOK is not None
    log = tmp_path / "ansible.log"
    log.unlink(missing_ok=True)
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOG_PATH": str(log)}
    env["TMPDIR"] = str(tmp_path / "tmp")
    env["PATH"] = f"{Path(PLAYBOOK).parent}:{env['PATH']}"  # ansible-playbook as installed
    (tmp_path / "tmp").mkdir(exist_ok=True)
    if collections is not None:
        env["ANSIBLE_COLLECTIONS_PATH"] = str(collections)
    result = subprocess.run(
        [*words, *more],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    logged = log.read_text() if log.exists() else ""
    return f"rc={result.returncode}\n{result.stdout}\n{result.stderr}\n{logged}"


def operator_inventory(tree: Path, hashes: dict[str, str], **target: object) -> Path:
    """The README's copy of the example inventory in the operator's tree, filled in as an
    operator would: a PIN hash per kiosk and, for the group, the idle time 5 minutes and the
    sound on, except at library-1. `target` is how to reach the kiosks here (connection
    variables for the group)."""
    copied = subprocess.run(typed(COPY), cwd=tree, capture_output=True, text=True, check=False)
    assert copied.returncode == 0, copied.stderr
    inventory = tree / "kiosk" / "fleet" / "inventory.yml"
    data = yaml.safe_load(inventory.read_text())
    group = data["all"]["children"]["kiosks"]
    assert set(group["hosts"]) == {"library-1.local", "cafe-2.local"}
    for host, pin_hash in hashes.items():
        group["hosts"][host]["kiosk_pin_hash"] = pin_hash
    for host in set(group["hosts"]) - set(hashes):
        del group["hosts"][host]
    group["vars"].update(kiosk_idle_attract_minutes=5.0, kiosk_sound=True, **target)
    if "library-1.local" in hashes:
        group["hosts"]["library-1.local"]["kiosk_sound"] = False
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
            at = output.find(part)
            assert at < 0, f"a PIN hash shows in the output: {output[max(0, at - 300) : at]}"


def this_machines_deb(directory: Path, tree: Path) -> Path:
    """A small stand-in package, named as build-deb.sh names it for this machine, in the
    tree's dist/ (where build-deb.sh writes it)."""
    assert VERSION
    arch = subprocess.run(
        ["dpkg", "--print-architecture"], capture_output=True, text=True, check=True
    ).stdout.strip()
    dist = tree / "dist"
    dist.mkdir()
    deb = fake_package(directory, VERSION.group(1))
    return deb.rename(dist / f"solitaire-kiosk_{VERSION.group(1)}_{arch}.deb")


def test_syntax_check_with_the_example_inventory(tmp_path: Path) -> None:
    assert PLAYBOOK is not None
    site = [PLAYBOOK, str(FLEET / "site.yml")]
    output = playbook(tmp_path, site, "--syntax-check", "-i", str(FLEET / "inventory.example.yml"))
    assert output.startswith("rc=0\n"), output


def test_the_copied_inventory_is_ignored_by_git() -> None:
    ignored = subprocess.run(
        ["git", "-C", str(REPO), "check-ignore", "-q", "kiosk/fleet/inventory.yml"], check=False
    )
    assert ignored.returncode == 0


def check_run(tmp_path: Path, hashes: dict[str, str]) -> str:
    """The README's `--check --diff` (with -v) against this machine for both example kiosks."""
    interpreter = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    tree = checkout(tmp_path)
    this_machines_deb(tmp_path, tree)
    operator_inventory(
        tree, hashes, ansible_connection="local", ansible_python_interpreter=interpreter
    )
    return playbook(tmp_path, typed(CHECK), "-v", tree=tree)


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
    # What every kiosk says unlike the game's config.toml is written once, kiosk/kiosk-config.toml
    # (the package and install.sh read it too): library-1 changes none of it in the inventory.
    shared = (REPO / "kiosk" / "kiosk-config.toml").read_text().splitlines()
    settings = [line for line in shared if " = " in line and not line.startswith("#")]
    assert len(settings) >= 6
    for line in settings:
        assert f"\n+{line}\n" in library, line
    assert "of cafe-2.local" in cafe and "of library-1.local" in library
    assert f"solitaire-kiosk {VERSION and VERSION.group(1)} would be installed" in output
    assert_no_pin_hash(output, *hashes.values())
    for host in hashes:
        assert recap(output, host)["failed"] == 0
    after = Path("/etc/solitaire-kiosk").exists(), Path("/var/cache/solitaire-kiosk").exists()
    assert after == before
    assert list((tmp_path / "tmp").glob("solitaire-kiosk-*")) == []  # the checked copy is gone


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


# A stand-in for systemctl in the Debian root, once it is "booted": the units' states are
# files (enabled: the package's own multi-user.target.wants links), every call is logged.
SYSTEMCTL = r"""#!/bin/sh
state=/var/lib/systemctl-stand-in
wants=/etc/systemd/system/multi-user.target.wants
mkdir -p "$state" "$wants"
args=""
for a; do case $a in -*) ;; *) args="$args $a" ;; esac; done
case " $* " in *" --version "*) echo "systemd 252 (252.36-1~deb12u1)"; exit 0 ;; esac
set -- $args
echo "$*" >>/var/log/systemctl.log
verb=$1
[ $# -gt 0 ] && shift
case $verb in
show)
    load=loaded; [ -e "$state/masked-$1" ] && load=masked
    active=inactive; [ -e "$state/active-$1" ] && active=active
    printf 'Id=%s\nLoadState=%s\nActiveState=%s\n' "$1" "$load" "$active" ;;
is-active) [ -e "$state/active-$1" ] && { echo active; exit 0; }; echo inactive; exit 3 ;;
is-enabled)
    [ -e "$state/masked-$1" ] && { echo masked; exit 1; }
    [ -L "$wants/$1" ] && { echo enabled; exit 0; }
    echo disabled; exit 1 ;;
enable) for u; do ln -sf "/lib/systemd/system/$u" "$wants/$u"; done ;;
disable) for u; do rm -f "$wants/$u"; done ;;
mask) for u; do touch "$state/masked-$u"; done ;;
start | restart) for u; do touch "$state/active-$u"; done ;;
stop) for u; do rm -f "$state/active-$u"; done ;;
get-default) cat "$state/default" 2>/dev/null || echo graphical.target ;;
set-default) echo "$1" >"$state/default" ;;
esac
exit 0
"""


def boot(root: Path) -> None:
    """From now on systemd "runs" in the root (the stand-in), with the kiosk running."""
    systemctl = root / "usr/bin/systemctl"
    systemctl.write_text(SYSTEMCTL)
    systemctl.chmod(0o755)
    (root / "run/systemd/system").mkdir(parents=True)
    (root / "var/lib/systemctl-stand-in").mkdir(parents=True)
    (root / "var/lib/systemctl-stand-in/active-solitaire-kiosk.service").touch()


def starts(root: Path) -> list[str]:
    """The (re)starts of a kiosk unit since the last call, by the playbook or the package."""
    log = root / "var/log/systemctl.log"
    calls = log.read_text().splitlines() if log.exists() else []
    log.write_text("")
    return [c for c in calls if c.split()[0] in ("start", "restart") and "solitaire" in c]


def as_version(deb: Path, version: str, out: Path) -> Path:
    """The same package with another version, in `out` under the original file name."""
    tree = out / "tree"
    subprocess.run(["dpkg-deb", "-R", str(deb), str(tree)], check=True)
    control = tree / "DEBIAN" / "control"
    control.write_text(re.sub(r"(?m)^Version: .+$", f"Version: {version}", control.read_text()))
    other = out / deb.name
    subprocess.run(
        ["dpkg-deb", "--root-owner-group", "-b", str(tree), str(other)],
        check=True,
        capture_output=True,
    )
    shutil.rmtree(tree)
    return other


def hash_pin_typed(tree: Path, pin: str) -> str:
    """The README's `python3 -m game.config hash-pin` in the operator's tree, the PIN typed
    (on standard input, as there is no terminal); the hash between the quotes it prints."""
    made = subprocess.run(
        typed(HASH_PIN), cwd=tree, input=f"{pin}\n", capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    printed = re.fullmatch(r'operator_pin_hash = "(pbkdf2_sha256\$[^"]+)"\n', made.stdout)
    assert made.returncode == 0 and printed, made.stdout + made.stderr
    return printed.group(1)


def set_kiosk(inventory: Path, host: str, **values: object) -> None:
    """The operator changes a kiosk's settings in the inventory."""
    data = yaml.safe_load(inventory.read_text())
    data["all"]["children"]["kiosks"]["hosts"][host].update(values)
    inventory.write_text(yaml.safe_dump(data))


@pytest.fixture
def debian_root(tmp_path: Path) -> Iterator[Path]:
    root = new_root(tmp_path)
    yield root
    unmount_below(root)


@pytest.mark.skipif(os.geteuid() != 0, reason="chroot and dpkg-deb --root-owner-group need root")
@needs_dpkg
def test_real_runs_install_upgrade_and_restart_once_in_a_debian_root(
    tmp_path: Path, debian_root: Path, amd64_deb: Path
) -> None:
    """Install (no systemd: a chroot), then, systemd running, what --check --diff says of the
    console, an upgrade with a changed config, a run with nothing to do, and a new PIN (first
    in --check --diff). The README's commands as printed (some with -v or --diff added)."""
    assert VERSION
    root, kiosk = debian_root, "cafe-2.local"
    collections = chroot_collection()
    deb = amd64_deb  # built once for the package and fleet tests (conftest)
    (tmp_path / "older").mkdir()
    older = as_version(deb, "0.0.9", tmp_path / "older")
    tree = checkout(tmp_path)
    (tree / "dist").mkdir()
    shutil.copy(older, tree / "dist" / older.name)  # as build-deb.sh left it
    cache = root / "var/cache/solitaire-kiosk"
    cache.mkdir(parents=True)
    stale = fake_package(tmp_path, "0.0.1").rename(cache / "solitaire-kiosk_0.0.1_amd64.deb")
    pin_hash = hash_pin_typed(tree, "975310")
    inventory = operator_inventory(
        tree,
        {kiosk: pin_hash},
        ansible_connection="community.general.chroot",
        ansible_host=str(root),
        ansible_python_interpreter="/usr/bin/python3",
    )

    def run(command: str, *more: str) -> str:
        output = playbook(tmp_path, typed(command), *more, tree=tree, collections=collections)
        assert output.startswith("rc=0\n"), output
        return output

    first = run(RUN)
    assert task_result(first, "Write the PIN hash", kiosk) == "changed"
    assert task_result(first, "Start the kiosk", kiosk) == "skipping"  # no systemd in a chroot
    assert package_status(root) == "install ok installed 0.0.9"
    conf = root / CONF.lstrip("/")
    assert '\nlocale = "ru"\n' in conf.read_text()
    assert "\nidle_attract_minutes = 5.0\n" in conf.read_text()
    assert f'\noperator_pin_file = "{PIN_FILE}"\n' in conf.read_text()
    assert "operator_pin_hash" not in conf.read_text()
    pin_file = root / PIN_FILE.lstrip("/")
    gid = int(chroot(root, "getent", "group", "solitaire").stdout.split(":")[2])
    st = pin_file.stat()
    assert pin_file.read_text() == f"{pin_hash}\n"
    assert (oct(st.st_mode & 0o777), st.st_uid, st.st_gid) == ("0o640", 0, gid)
    assert [p.name for p in cache.iterdir()] == [deb.name] and not stale.exists()
    wants = root / "etc/systemd/system/multi-user.target.wants/solitaire-kiosk.service"
    assert wants.is_symlink()  # enabled by the package
    # The game on the kiosk reads the PIN from its file: its own check, as its user.
    check = game_check(root, CONF)
    assert check.stdout == f"{CONF}: OK\n", check.stdout + check.stderr
    assert_no_pin_hash(first, pin_hash)

    boot(root)
    # --check --diff shows what the console set-up would change, not only "changed".
    console = run(CHECK).split("TASK [solitaire_kiosk : What the console set-up changes", 1)
    assert len(console) == 2, console[0]
    shown = console[1].split("\nTASK [", 1)[0]
    for line in (
        "would: boot to the console: default target graphical.target -> multi-user.target",
        "would: mask ctrl-alt-del.target (Ctrl+Alt+Del must not reboot the kiosk)",
    ):
        assert f'"{line}"' in shown, shown
    assert not (root / "var/lib/systemctl-stand-in/default").exists() and starts(root) == []

    set_kiosk(inventory, kiosk, kiosk_locale="en")
    shutil.copy(deb, tree / "dist" / deb.name)  # the new version, built again into dist/
    upgrade = run(RUN, "--diff", "-v")
    assert package_status(root) == f"install ok installed {VERSION.group(1)}"
    assert '\nlocale = "en"\n' in conf.read_text()
    assert starts(root) == ["restart solitaire-kiosk.service"], upgrade  # once, not twice
    stand_in = root / "var/lib/systemctl-stand-in"
    assert (stand_in / "masked-ctrl-alt-del.target").exists()
    assert (stand_in / "default").read_text() == "multi-user.target\n"

    again = run(RUN, "--diff", "-v")
    assert recap(again, kiosk)["changed"] == 0, again
    assert starts(root) == []

    # A new PIN: --check --diff says the file would change and shows neither hash; then it does.
    new_hash = hash_pin("864200", iterations=100_000)
    set_kiosk(inventory, kiosk, kiosk_pin_hash=new_hash)
    checked = run(CHECK)
    assert task_result(checked, "Write the PIN hash", kiosk) == "changed"
    assert pin_file.read_text() == f"{pin_hash}\n" and starts(root) == []
    changed = run(RUN, "-v")
    assert pin_file.read_text() == f"{new_hash}\n"
    assert starts(root) == ["restart solitaire-kiosk.service"]
    assert_no_pin_hash(first + upgrade + again + checked + changed, pin_hash, new_hash)


@pytest.mark.skipif(os.geteuid() != 0, reason="chroot needs root")
@needs_dpkg
def test_debian_stables_ansible_checks_installs_and_then_changes_nothing(
    tmp_path: Path, amd64_deb: Path
) -> None:
    """Debian 12's own ansible-core 2.14 (`apt install ansible` brings it), apt-installed in a
    throw-away root, runs the README's commands there against that root itself (connection
    local; su for become, as the root has no sudo): --check --diff, the install, a run that
    changes nothing."""
    assert VERSION
    kiosk = "cafe-2.local"
    deb = amd64_deb  # built once for the package and fleet tests (conftest)
    root = debian_ansible_root(tmp_path)
    try:
        tree = checkout(root / "home")
        (tree / "dist").mkdir()
        shutil.copy(deb, tree / "dist" / deb.name)
        pin_hash = hash_pin_typed(tree, "975310")
        operator_inventory(
            tree,
            {kiosk: pin_hash},
            ansible_connection="local",
            ansible_python_interpreter="/usr/bin/python3",
            ansible_become_method="su",
        )

        def run(command: str) -> str:
            done = chroot(root, "sh", "-c", f"cd /home/tree && ANSIBLE_NOCOLOR=1 {command}")
            output = f"rc={done.returncode}\n{done.stdout}\n{done.stderr}"
            assert done.returncode == 0, output
            return output

        version = run("ansible-playbook --version")
        assert re.search(r"ansible-playbook \[core 2\.14\.", version), version
        checked = run(CHECK)
        assert f"solitaire-kiosk {VERSION.group(1)} would be installed" in checked
        assert package_status(root) == ""
        first = run(RUN)
        assert package_status(root) == f"install ok installed {VERSION.group(1)}", first
        assert (root / PIN_FILE.lstrip("/")).read_text() == f"{pin_hash}\n"
        assert '\nlocale = "ru"\n' in (root / CONF.lstrip("/")).read_text()
        again = run(RUN)
        assert recap(again, kiosk)["changed"] == 0, again
        assert_no_pin_hash(checked + first + again, pin_hash)
    finally:
        unmount_below(root)
