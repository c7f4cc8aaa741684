"""kiosk/install.sh in a temporary root (--root), with stand-ins for the commands that would
change this machine (systemctl, apt-get, dpkg-query) and a small package in place of the one
kiosk/build-deb.sh makes (tests/deploy/test_deb.py installs the real one): it checks everything,
the config with the game's own check included, before it changes anything, --dry-run changes
nothing and names every change, a second run changes nothing, and the result is what a kiosk
needs."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from game.config import Config, load_config
from game.kiosk.pin import hash_pin, verify_pin
from game.kiosk.pinfile import pointed_at

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "kiosk" / "install.sh"
PIN_HASH = hash_pin("246813", iterations=100_000)
OLD = hash_pin("111111", iterations=100_000)
SALT, DIGEST = "ab" * 16, "cd" * 32

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(os.geteuid() != 0, reason="the installer's checks need root"),
    pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="dpkg-deb is not installed"),
]

STUBS = {
    "systemctl": r"""#!/bin/sh
args=""
for a; do case $a in --root=*) ;; *) args="$args $a" ;; esac; done
set -- $args
echo "systemctl $*" >>"$FAKE_LOG"
case $1 in
is-enabled)
    if [ -e "$FAKE_STATE/masked-$2" ]; then echo masked; exit 1; fi
    if [ -e "$FAKE_STATE/enabled-$2" ]; then echo enabled; exit 0; fi
    echo disabled; exit 1 ;;
enable) touch "$FAKE_STATE/enabled-$2" ;;
disable) rm -f "$FAKE_STATE/enabled-$2" ;;
mask) touch "$FAKE_STATE/masked-$2" ;;
get-default) cat "$FAKE_STATE/default" 2>/dev/null || echo graphical.target ;;
set-default) echo "$2" >"$FAKE_STATE/default" ;;
is-active) exit 3 ;;
esac
exit 0
""",
    "dpkg-query": r"""#!/bin/sh
for pkg; do :; done
echo "dpkg-query $pkg" >>"$FAKE_LOG"
grep -qx "$pkg" "$FAKE_STATE/dpkg" 2>/dev/null && echo "install ok installed"
exit 0
""",
    # apt-get install of a package file does what dpkg and the package's postinst would: the
    # package is installed (its md5sums recorded) and the console unit enabled.
    "apt-get": r"""#!/bin/sh
echo "apt-get $*" >>"$FAKE_LOG"
[ "$1" = install ] || exit 0
root=""
for a; do
    case $a in
    Dir=*) root=${a#Dir=} ;;
    *.deb)
        info="$root/var/lib/dpkg/info"
        mkdir -p "$info"
        dpkg-deb --ctrl-tarfile "$a" | tar -xO ./md5sums >"$info/solitaire-kiosk.md5sums"
        echo solitaire-kiosk >>"$FAKE_STATE/dpkg"
        touch "$FAKE_STATE/enabled-solitaire-kiosk.service" ;;
    -*) ;;
    *) echo "$a" >>"$FAKE_STATE/dpkg" ;;
    esac
done
""",
    "python3": f'#!/bin/sh\nexec {sys.executable} "$@"\n',
}
READS = ("systemctl is-enabled", "systemctl get-default", "systemctl is-active", "dpkg-query")


def fake_package(directory: Path, version: str) -> Path:
    """A small package with a control file and md5sums, as build-deb.sh would make."""
    tree = directory / f"tree-{version}"
    (tree / "DEBIAN").mkdir(parents=True)
    (tree / "usr/lib/solitaire-kiosk").mkdir(parents=True)
    (tree / "usr/lib/solitaire-kiosk/main.py").write_text(f"# {version}\n")
    digest = hashlib.md5((tree / "usr/lib/solitaire-kiosk/main.py").read_bytes()).hexdigest()
    (tree / "DEBIAN/md5sums").write_text(f"{digest}  usr/lib/solitaire-kiosk/main.py\n")
    (tree / "DEBIAN/control").write_text(
        f"Package: solitaire-kiosk\nVersion: {version}\nArchitecture: all\n"
        "Maintainer: Test <test@example.org>\nDescription: test\n test\n"
    )
    deb = directory / f"solitaire-kiosk_{version}_all.deb"
    subprocess.run(
        ["dpkg-deb", "--root-owner-group", "-b", str(tree), str(deb)],
        check=True,
        capture_output=True,
    )
    return deb


class Machine:
    """A fake Pi: a root directory, stand-in commands, their call log and a package file."""

    def __init__(self, tmp_path: Path, *, pi: bool = True, cmdline: bool = True) -> None:
        self.root = tmp_path / "root"
        self.state = tmp_path / "fake"
        self.bin = tmp_path / "bin"
        self.log = tmp_path / "calls.log"
        for d in (self.root / "etc", self.state, self.bin):
            d.mkdir(parents=True)
        (self.root / "etc" / "os-release").write_text("ID=debian\nVERSION_CODENAME=bookworm\n")
        if pi:
            model = self.root / "proc" / "device-tree" / "model"
            model.parent.mkdir(parents=True)
            model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
        if cmdline:
            boot = self.root / "boot" / "firmware"
            boot.mkdir(parents=True)
            (boot / "cmdline.txt").write_text(
                "console=tty1 root=PARTUUID=1234-02 rootwait consoleblank=600\n"
            )
        (self.state / "enabled-getty@tty1.service").touch()
        (self.state / "dpkg").write_text("python3\nlibdrm2\n")
        for name, text in STUBS.items():
            stub = self.bin / name
            stub.write_text(text)
            stub.chmod(0o755)
        self.log.touch()
        self.deb = fake_package(tmp_path, "0.1.0")

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {
            **os.environ,
            "PATH": f"{self.bin}:{os.environ['PATH']}",
            "FAKE_LOG": str(self.log),
            "FAKE_STATE": str(self.state),
        }
        self.log.write_text("")
        return subprocess.run(
            ["bash", str(INSTALL), "--root", str(self.root), "--deb", str(self.deb), *args],
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    def changes(self) -> list[str]:
        """The calls that change something (reads left out)."""
        return [c for c in self.log.read_text().splitlines() if not c.startswith(READS)]

    def snapshot(self) -> dict[str, tuple[int, int, int, str]]:
        seen = {}
        for base in (self.root, self.state):
            for path in sorted(base.rglob("*")):
                st = path.lstat()
                digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
                seen[str(path)] = (st.st_mode, st.st_uid, st.st_gid, digest)
        return seen

    @property
    def conf(self) -> Path:
        return self.root / "etc" / "solitaire-kiosk" / "config.toml"

    @property
    def pin_file(self) -> Path:
        return self.root / "etc" / "solitaire-kiosk" / "pin-hash"

    def loaded(self) -> tuple[Config, list[str]]:
        """The installed config as the game reads it, its PIN file the one in this root (the
        package makes it empty when install.sh wrote none)."""
        text = self.conf.read_text()
        assert 'operator_pin_file = "/etc/solitaire-kiosk/pin-hash"' in text
        if not self.pin_file.exists():
            self.pin_file.write_text("")
        copy = self.root / "game-view.toml"
        copy.write_text(pointed_at(text, str(self.pin_file)) or "")
        try:
            return load_config(copy)
        finally:
            copy.unlink()


def test_a_full_install_gives_what_a_kiosk_needs(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    result = pi.run("--pin-hash", PIN_HASH)
    assert result.returncode == 0, result.stderr + result.stdout
    calls = pi.changes()
    apt = [c for c in calls if c.startswith("apt-get install")]
    assert len(apt) == 1 and apt[0].endswith(str(pi.deb))
    assert "Dpkg::Options::=--force-confold" in apt[0]  # the operator's config is kept
    assert "systemctl disable getty@tty1.service" in calls
    assert "systemctl set-default multi-user.target" in calls
    assert "systemctl mask ctrl-alt-del.target" in calls
    # The config is in place before the package, which keeps it: readable by root only until
    # the package's postinst gives the game's group read access.
    done = [line for line in result.stdout.splitlines() if line.startswith("change: ")]
    assert done[0].startswith(f"change: write {pi.conf}")
    assert done[1].startswith(f"change: write {pi.pin_file} (the operator PIN's hash")
    assert done[2].startswith("change: install the package")
    for path in (pi.conf, pi.pin_file):
        st = path.stat()
        assert oct(st.st_mode & 0o777) == "0o640" and (st.st_uid, st.st_gid) == (0, 0), path
    # The hash is in the PIN file alone, never in the config (issue 39, item 3).
    assert pi.pin_file.read_text() == PIN_HASH + "\n"
    assert PIN_HASH not in pi.conf.read_text() and "pbkdf2" not in pi.conf.read_text()
    config, problems = pi.loaded()
    assert (
        problems == []
        and config.kiosk.lock
        and verify_pin("246813", config.kiosk.operator_pin_hash)
    )
    assert config.display.fullscreen and not config.display.show_cursor
    assert config.sound.enabled is False  # a public kiosk is silent until the operator says
    # The kiosk's settings are the package's: kiosk/kiosk-config.toml, which build-deb.sh reads.
    shared = (REPO / "kiosk" / "kiosk-config.toml").read_text().splitlines()
    settings = [line for line in shared if " = " in line and not line.startswith("#")]
    assert settings and all(f"\n{line}\n" in pi.conf.read_text() for line in settings)
    cmdline = (pi.root / "boot" / "firmware" / "cmdline.txt").read_text()
    assert cmdline == (
        "console=tty1 root=PARTUUID=1234-02 rootwait consoleblank=0 vt.global_cursor_default=0\n"
    )


def test_a_second_run_changes_nothing(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    assert pi.run("--pin-hash", PIN_HASH).returncode == 0
    before = pi.snapshot()
    again = pi.run()
    assert again.returncode == 0, again.stderr
    assert pi.changes() == []
    assert "nothing to change" in again.stdout
    assert not [line for line in again.stdout.splitlines() if line.startswith("change: ")]
    assert pi.snapshot() == before


def test_a_new_package_is_installed_and_the_config_kept(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    assert pi.run("--pin-hash", PIN_HASH).returncode == 0
    config = pi.conf.read_text().replace("idle_attract_minutes = 3.0", "idle_attract_minutes = 7.0")
    pi.conf.write_text(config)
    pi.deb = fake_package(tmp_path, "0.1.1")
    result = pi.run()
    assert result.returncode == 0, result.stderr
    apt = [c for c in pi.changes() if c.startswith("apt-get install")]
    assert len(apt) == 1 and apt[0].endswith(str(pi.deb))
    assert pi.conf.read_text() == config


def test_a_kiosk_installed_by_the_old_script_moves_to_the_package(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    old_app = pi.root / "opt" / "solitaire-kiosk"
    (old_app / "game").mkdir(parents=True)
    units = pi.root / "etc" / "systemd" / "system"
    units.mkdir(parents=True)
    (units / "solitaire-kiosk.service").write_text("[Service]\n")
    (pi.state / "enabled-solitaire-kiosk.service").touch()
    pi.conf.parent.mkdir(parents=True)
    config = (REPO / "config.toml").read_text().replace("lock = false", "lock = true")
    config = config.replace('operator_pin_hash = ""', f'operator_pin_hash = "{PIN_HASH}"')
    pi.conf.write_text(config)
    result = pi.run()
    assert result.returncode == 0, result.stderr
    assert not old_app.exists() and not (units / "solitaire-kiosk.service").exists()
    calls = pi.changes()
    assert calls.index("systemctl disable solitaire-kiosk.service") < next(
        i for i, c in enumerate(calls) if c.startswith("apt-get install")
    )
    assert (pi.state / "enabled-solitaire-kiosk.service").exists()  # enabled by the package
    assert pi.conf.read_text() == config


def test_a_new_pin_goes_to_the_pin_file_and_an_older_hash_leaves_the_config(
    tmp_path: Path,
) -> None:
    """Issue 39, item 3: a kiosk whose config an older install.sh gave the hash (and named the
    PIN file) gets the new PIN in the file alone; the config keeps no hash that an emptied PIN
    file could bring back."""
    pi = Machine(tmp_path)
    pi.conf.parent.mkdir(parents=True)
    shipped = (REPO / "config.toml").read_text().replace("lock = false", "lock = true")
    shipped = shipped.replace(
        'operator_pin_file = ""', 'operator_pin_file = "/etc/solitaire-kiosk/pin-hash"'
    )
    pi.conf.write_text(shipped.replace('operator_pin_hash = ""', f'operator_pin_hash = "{OLD}"'))
    pi.pin_file.write_text(OLD + "\n")
    result = pi.run("--pin-hash", PIN_HASH)
    assert result.returncode == 0, result.stderr + result.stdout
    assert pi.conf.read_text() == shipped  # the same, but the older hash gone
    assert pi.pin_file.read_text() == PIN_HASH + "\n"
    config, problems = pi.loaded()
    assert problems == [] and verify_pin("246813", config.kiosk.operator_pin_hash)


def test_dry_run_names_every_change_and_makes_none(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    before = pi.snapshot()
    dry = pi.run("--dry-run", "--pin-hash", PIN_HASH)
    assert dry.returncode == 0, dry.stderr
    assert pi.changes() == [] and pi.snapshot() == before
    planned = [line for line in dry.stdout.splitlines() if line.startswith("would: ")]
    real = pi.run("--pin-hash", PIN_HASH)
    done = [line for line in real.stdout.splitlines() if line.startswith("change: ")]
    assert [p.removeprefix("would: ") for p in planned] == [
        d.removeprefix("change: ") for d in done
    ]
    assert any("mask ctrl-alt-del.target" in p for p in planned)
    assert any("kernel command line" in p for p in planned)


REFUSED = "--pin-hash: not an operator PIN hash the game accepts"


@pytest.mark.parametrize(
    ("setup", "args", "reason"),
    [
        ("not a pi", ["--pin-hash", PIN_HASH], "not a Raspberry Pi"),
        ("no cmdline", ["--pin-hash", PIN_HASH], "cmdline.txt not found"),
        ("pi", [], "no terminal to ask for one"),
        ("pi", ["--pin-hash", f"pbkdf2_sha256$1${SALT}${DIGEST}"], REFUSED),
        ("pi", ["--pin-hash", "246813"], REFUSED),
        # Hashes the old installer's own pattern let through but the game refuses (issue 22,
        # item 11): a locked kiosk whose operator exit is off.
        ("pi", ["--pin-hash", f"pbkdf2_sha256$99999999${SALT}${DIGEST}"], REFUSED),
        ("pi", ["--pin-hash", f"pbkdf2_sha256$200000${SALT}a${DIGEST}"], REFUSED),
    ],
)
def test_it_checks_everything_before_it_changes_anything(
    tmp_path: Path, setup: str, args: list[str], reason: str
) -> None:
    pi = Machine(tmp_path, pi=setup != "not a pi", cmdline=setup != "no cmdline")
    before = pi.snapshot()
    result = pi.run(*args)
    assert result.returncode == 1
    assert reason in result.stderr and "nothing was changed" in result.stderr
    assert "246813\n" not in result.stderr + result.stdout
    assert pi.changes() == [] and pi.snapshot() == before


def test_an_existing_config_the_game_refuses_stops_it(tmp_path: Path) -> None:
    pi = Machine(tmp_path)
    assert pi.run("--pin-hash", PIN_HASH).returncode == 0
    text = pi.conf.read_text().replace("exit_press_seconds = 5.0", "exit_press_seconds = 500.0")
    pi.conf.write_text(text)
    before = pi.snapshot()
    pi.deb = fake_package(tmp_path, "0.1.1")
    result = pi.run()
    assert result.returncode == 1
    assert "config: kiosk.exit_press_seconds" in result.stderr
    assert pi.changes() == [] and pi.snapshot() == before


def test_no_lock_needs_no_pin_and_any_debian_skips_the_kernel_line(tmp_path: Path) -> None:
    pc = Machine(tmp_path, pi=False, cmdline=False)
    result = pc.run("--no-lock", "--any-debian", "--cage")
    assert result.returncode == 0, result.stderr
    config, problems = pc.loaded()
    assert problems == [] and not config.kiosk.lock
    assert "systemctl disable solitaire-kiosk.service" in pc.changes()
    assert "systemctl enable solitaire-kiosk-cage.service" in pc.changes()
    assert any(c.startswith("apt-get install") and "cage" in c for c in pc.changes())


def test_the_lock_files_pin_what_requirements_txt_pins() -> None:
    pins = {
        line.split(";")[0].strip()
        for line in (REPO / "requirements.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    }
    lock = (REPO / "kiosk" / "requirements.lock").read_text()
    blocks = [b for b in lock.split("\n") if b and not b.startswith((" ", "#"))]
    assert {b.split(" ")[0] for b in blocks} == pins
    for block in lock.split("\n"):
        if block and not block.startswith((" ", "#")):
            assert block.endswith("\\")  # every pin has at least one --hash line
    assert lock.count("--hash=sha256:") >= len(pins) + 3  # pygame-ce: x86_64 and aarch64 wheels
