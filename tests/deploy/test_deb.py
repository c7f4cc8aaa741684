"""The Debian package (kiosk/build-deb.sh): what lintian says of the arm64 package and what it
holds, and the amd64 package installed with apt into throw-away Debian Bookworm roots
(tests/helpers/debroot.py) the way an operator installs it: without a PIN and non-interactively (it
ends configured, enabled, not started, with one line saying what to run), with a fleet's
preseeded hash, with the PIN typed at the debconf question, upgraded to a package whose shipped
config changed taking the new config (the PIN stays), removed then installed (enabled again),
beside a person's account named solitaire (refused, untouched), `solitaire-kiosk-pin` against
every awkward form of config, and purged (debconf, user, state, cache gone). systemd does not
run in a chroot: enablement is read from deb-systemd-helper's symlinks."""

from __future__ import annotations

import io
import os
import re
import shutil
import struct
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomllib

from game.kiosk.pin import hash_pin, verify_pin
from tests.helpers.debroot import (
    NETWORK_ERRORS,
    REPO,
    build,
    built,
    new_root,
    package_status,
    unmount_below,
)
from tests.helpers.readme_commands import checkout, typed, typed_in_shell

APP = "/usr/lib/solitaire-kiosk"
CONF = "/etc/solitaire-kiosk/config.toml"
PIN_FILE = "/etc/solitaire-kiosk/pin-hash"
PIN = "246813"
NO_PIN_LINE = (
    "solitaire-kiosk: the kiosk is not started, as it has no operator PIN yet; set one and "
    "start it with: sudo solitaire-kiosk-pin"
)
WANTS = "etc/systemd/system/multi-user.target.wants/solitaire-kiosk.service"
# This machine's architecture, in place of the README's arm64 in a package's file name.
HOST_ARCH = (
    subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
    if shutil.which("dpkg")
    else ""
)
NEWER = "0.2.0"  # the version of the README's upgrade
BUILD_ARM64 = "bash kiosk/build-deb.sh --arch arm64"
# kiosk/README.md's commands, typed by operator() as printed.
INSTALL = "sudo apt install ./solitaire-kiosk_0.1.0_arm64.deb"
INSTALL_QUIETLY = (
    "sudo DEBIAN_FRONTEND=noninteractive apt install ./solitaire-kiosk_0.1.0_arm64.deb"
)
UPGRADE = "sudo apt install ./solitaire-kiosk_0.2.0_arm64.deb"
PRESEED = (
    "echo 'solitaire-kiosk solitaire-kiosk/pin-hash password pbkdf2_sha256$200000$...$...' "
    "| sudo debconf-set-selections"
)
ELIDED_HASH = "pbkdf2_sha256$200000$...$..."
SET_PIN = "sudo solitaire-kiosk-pin"
PIN_FROM_A_SCRIPT = "echo 246813 | sudo solitaire-kiosk-pin"
RECONFIGURE = "sudo dpkg-reconfigure solitaire-kiosk"
CONSOLE_DRY_RUN = "sudo /usr/lib/solitaire-kiosk/kiosk/console-setup.sh --dry-run"
CHECK_CONFIG = (
    "sudo -u solitaire /usr/lib/solitaire-kiosk/.venv/bin/python /usr/lib/solitaire-kiosk/main.py"
    " --check-config /etc/solitaire-kiosk/config.toml --kiosk"
)
REMOVE = "sudo apt remove solitaire-kiosk"
PURGE = "sudo apt purge solitaire-kiosk"

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(
        os.geteuid() != 0, reason="dpkg-deb --root-owner-group and chroot need root"
    ),
    pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="dpkg-deb is not installed"),
]


def control_file(deb: Path, name: str) -> str:
    return subprocess.run(
        ["dpkg-deb", "-I", str(deb), name], capture_output=True, text=True, check=True
    ).stdout


def built_as_printed(directory: Path) -> Path:
    """The README's `bash kiosk/build-deb.sh --arch arm64` typed as printed in a copy of the
    source tree made a git repository, as an operator's clone is: the package in its dist/."""
    tree = checkout(directory)
    git = ["git", "-C", str(tree), "-c", "user.name=operator", "-c", "user.email=op@example.org"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the source tree"]):
        subprocess.run([*git, *command], check=True, capture_output=True)
    result = subprocess.run(
        typed(BUILD_ARM64), cwd=tree, capture_output=True, text=True, timeout=600, check=False
    )
    if result.returncode != 0 and any(e in result.stderr for e in NETWORK_ERRORS):
        pytest.skip(f"build-deb.sh could not reach PyPI: {result.stderr[-300:]}")
    assert result.returncode == 0, result.stderr
    deb = Path(result.stdout.strip().splitlines()[-1])
    assert deb.parent == tree / "dist"
    return deb


@pytest.mark.parametrize("python", ["3.11", "3.13"])
def test_the_arm64_package_holds_the_aarch64_wheels_conffile_and_units(
    tmp_path: Path, python: str
) -> None:
    """3.11: Debian and Raspberry Pi OS Bookworm (the default, built as the README prints
    it); 3.13: Trixie."""
    deb = (
        built_as_printed(tmp_path)
        if python == "3.11"
        else built("arm64", tmp_path, "--python", python)
    )
    version = re.search(r'^version = "(.+)"$', (REPO / "pyproject.toml").read_text(), re.M)
    assert version and deb.name == f"solitaire-kiosk_{version.group(1)}_arm64.deb"
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True)
    files = {line.split()[-1].removeprefix(".") for line in listing.stdout.splitlines()}
    wheels = {f for f in files if f.startswith(f"{APP}/wheels/") and f.endswith(".whl")}
    names = {Path(w).name.split("-")[0] for w in wheels}
    assert names == {"pygame_ce", "pytweening", "paho_mqtt"}  # paho: the venue's link
    abi = "cp" + python.replace(".", "")
    assert any(f"{abi}-{abi}-manylinux" in w and w.endswith("aarch64.whl") for w in wheels)
    assert not any("x86_64" in w for w in wheels)
    assert {CONF, "/lib/systemd/system/solitaire-kiosk.service"} <= files
    assert "/lib/systemd/system/solitaire-kiosk-cage.service" in files
    assert control_file(deb, "conffiles").split() == [CONF]
    assert f"python{python}-venv" in control_file(deb, "control")
    assert f"\nPYTHON=python{python} " in control_file(deb, "postinst")
    assert "debconf (>= 0.5) | debconf-2.0" in control_file(deb, "control")
    # a password question: debconf keeps its answer in the root-only passwords.dat (issue 39)
    assert "Template: solitaire-kiosk/pin-hash\nType: password\n" in control_file(deb, "templates")
    assert "db_purge" in control_file(deb, "postrm")
    assert f"\nPYTHON=python{python} " in control_file(deb, "config")
    shipped = subprocess.run(
        ["dpkg-deb", "--fsys-tarfile", str(deb)], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(shipped)) as tar:
        member = tar.extractfile(f".{CONF}")
        assert member is not None
        config = tomllib.loads(member.read().decode())
    assert config["kiosk"]["lock"] is True and config["kiosk"]["operator_pin_hash"] == ""
    assert config["kiosk"]["operator_pin_file"] == PIN_FILE
    # Every kiosk setting of kiosk/kiosk-config.toml (install.sh and the playbook read it too).
    shared = tomllib.loads((REPO / "kiosk" / "kiosk-config.toml").read_text())
    for section, settings in shared.items():
        assert {k: config[section][k] for k in settings} == settings, section
    # The console script the README names, with the library it sources beside it.
    assert {f"{APP}/kiosk/console-setup.sh", f"{APP}/kiosk/lib.sh"} <= files
    if shutil.which("lintian") is None:
        pytest.skip("lintian is not installed; the contents were checked")
    report = subprocess.run(
        ["lintian", "--allow-root", str(deb)], capture_output=True, text=True, timeout=300
    )
    # Clean but for the DejaVu fonts that fonts-dejavu-core also has.
    tags = [line for line in report.stdout.splitlines() if line[:2] in ("E:", "W:", "I:")]
    assert [t for t in tags if "duplicate-font-file" not in t] == [], report.stdout


def test_armhf_says_there_is_no_wheel_for_it(tmp_path: Path) -> None:
    result = build("armhf", tmp_path)
    if any(e in result.stderr for e in NETWORK_ERRORS):
        pytest.skip("build-deb.sh could not reach PyPI")
    assert result.returncode == 1
    assert "pygame-ce==" in result.stderr and "use 64-bit Raspberry Pi OS" in result.stderr
    assert list(tmp_path.glob("*.deb")) == []


# ------------------------------------------------------------------ installs into a Debian root


def chroot(
    root: Path, *command: str, stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/root"}
    base |= {"PYGAME_HIDE_SUPPORT_PROMPT": "1", "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(
        ["chroot", str(root), *command],
        input=stdin,
        env=base | (env or {}),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def rebuilt(deb: Path, out: Path) -> Path:
    """The same package rebuilt as the README's upgrade, version 0.2.0, whose shipped
    config.toml also changed (build-deb.sh builds pyproject.toml's version, 0.1.0)."""
    tree = out / "tree"
    subprocess.run(["dpkg-deb", "-R", str(deb), str(tree)], check=True)
    control = tree / "DEBIAN" / "control"
    text = control.read_text()
    version = re.search(r"^Version: (.+)$", text, re.M)
    assert version and f"_{version.group(1)}_" in deb.name
    control.write_text(text.replace(version.group(0), f"Version: {NEWER}"))
    shipped = tree / CONF.lstrip("/")
    shipped.write_text(shipped.read_text() + "# rebuilt\n")
    newer = out / deb.name.replace(f"_{version.group(1)}_", f"_{NEWER}_")
    subprocess.run(["dpkg-deb", "--root-owner-group", "-b", str(tree), str(newer)], check=True)
    return newer


@pytest.fixture(scope="module")
def debs(tmp_path_factory: pytest.TempPathFactory, amd64_deb: Path) -> tuple[Path, Path]:
    """The amd64 package, and a newer rebuild of it whose shipped config changed."""
    return amd64_deb, rebuilt(amd64_deb, tmp_path_factory.mktemp("debs"))


@pytest.fixture
def root(tmp_path: Path, debs: tuple[Path, Path]) -> Iterator[Path]:
    root = new_root(tmp_path)
    for deb in debs:
        shutil.copy(deb, root / "tmp")
    yield root
    unmount_below(root)


def apt(root: Path, *args: str, **kw: str) -> subprocess.CompletedProcess[str]:
    """apt-get as the operator runs it (-y for the confirmation; no pty in a chroot)."""
    env = {k: v for k, v in kw.items() if k != "stdin"}
    return chroot(
        root, "apt-get", "-y", "-o", "Dpkg::Use-Pty=0", *args, stdin=kw.get("stdin", ""), env=env
    )


def operator(
    root: Path, line: str, stdin: str = "", pin_hash: str = ""
) -> subprocess.CompletedProcess[str]:
    """kiosk/README.md's command `line` typed as printed (sudo and all; the root has sudo) by
    root at a shell in the root, in /tmp where the package files are, with no terminal: answers
    come on standard input. One change each in two kinds of line: a package file's
    architecture, arm64 as printed, is this machine's, as an arm64 package cannot install here
    (the version is as printed: the files are those); the preseeding line's elided hash
    `pbkdf2_sha256$200000$...$...` is `pin_hash`, a real one of as many iterations."""
    command = typed_in_shell(line).replace("_arm64.deb", f"_{HOST_ARCH}.deb")
    if ELIDED_HASH in command:
        assert pin_hash.startswith(ELIDED_HASH.removesuffix("...$..."))
        command = command.replace(ELIDED_HASH, pin_hash)
    return subprocess.run(
        ["chroot", str(root), "sh", "-c", f"cd /tmp && {command}"],
        input=stdin,
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/root"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def installed(root: Path, line: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The README's `line` that installs a package, typed as printed (operator()): it ends
    configured."""
    result = operator(root, line, stdin)
    assert package_status(root).startswith("install ok installed "), result.stdout + result.stderr
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def install(root: Path, deb: Path, *more: str, **kw: str) -> subprocess.CompletedProcess[str]:
    result = apt(root, "install", *more, f"/tmp/{deb.name}", **kw)
    assert package_status(root).startswith("install ok installed "), result.stdout + result.stderr
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def as_game(root: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return chroot(root, "runuser", "-u", "solitaire", "--", *command)


def check_config(root: Path) -> subprocess.CompletedProcess[str]:
    """The README's check, as the game's user (root runs it with sudo -u solitaire)."""
    return as_game(root, f"{APP}/.venv/bin/python", "-B", f"{APP}/main.py", "--check-config", CONF)


def game_pin_works(root: Path, pin: str) -> bool:
    """Whether the game, reading the config as its user, takes `pin`."""
    code = (
        "import sys; from game.config import load_config; from game.kiosk.pin import verify_pin; "
        f"sys.exit(0 if verify_pin({pin!r}, load_config({CONF!r})[0].kiosk.operator_pin_hash) "
        "else 1)"
    )
    return as_game(root, "sh", "-c", f'cd {APP} && python3.11 -B -c "{code}"').returncode == 0


def debconf_text(root: Path) -> str:
    """Every file under /var/cache/debconf: the databases, their *-old backups (config.dat-old
    is world-readable) and the root-only passwords.dat."""
    files = sorted(p for p in (root / "var/cache/debconf").rglob("*") if p.is_file())
    assert {"config.dat", "config.dat-old", "passwords.dat"} <= {p.name for p in files}
    return "".join(p.read_text(errors="replace") for p in files)


def pin_file(root: Path) -> Path:
    return root / PIN_FILE.lstrip("/")


def check_installed(root: Path) -> None:
    passwd = chroot(root, "getent", "passwd", "solitaire").stdout
    assert passwd.split(":")[5:] == ["/var/lib/solitaire-kiosk", "/usr/sbin/nologin\n"]
    assert int(passwd.split(":")[2]) < 1000
    groups = set(chroot(root, "id", "-nG", "solitaire").stdout.split())
    assert {"video", "input", "render", "audio"} <= groups
    gid = int(chroot(root, "getent", "group", "solitaire").stdout.split(":")[2])
    for path in (root / CONF.lstrip("/"), pin_file(root)):
        st = path.stat()
        assert (oct(st.st_mode & 0o777), st.st_uid, st.st_gid) == ("0o640", 0, gid), path
    conffiles = chroot(root, "dpkg-query", "-W", "-f=${Conffiles}", "solitaire-kiosk").stdout
    assert CONF in conffiles and PIN_FILE not in conffiles
    assert (root / WANTS).is_symlink()
    assert not (root / WANTS.replace(".service", "-cage.service")).exists()
    for unit in ("solitaire-kiosk.service", "solitaire-kiosk-cage.service"):
        text = (root / "lib/systemd/system" / unit).read_text()
        for key in ("ExecStart", "WorkingDirectory"):
            path = re.search(rf"^{key}=(\S+)", text, re.M)  # ExecStart: its arguments follow
            assert path and os.access(root / path.group(1).lstrip("/"), os.X_OK), (unit, key)
    imports = "import pygame, pytweening, paho.mqtt.client; print(pygame.ver)"
    versions = chroot(root, f"{APP}/.venv/bin/python", "-c", imports)
    assert versions.stdout == "2.5.8\n", versions.stderr
    assert list((root / APP.lstrip("/") / "game").glob("__pycache__/*.pyc"))


def test_a_noninteractive_install_without_a_pin_ends_configured_and_says_what_to_run(
    root: Path, debs: tuple[Path, Path]
) -> None:
    deb, _newer = debs
    first = installed(root, INSTALL_QUIETLY)
    assert package_status(root) == f"install ok installed {deb.name.split('_')[1]}"
    output = first.stdout + first.stderr
    assert output.count(NO_PIN_LINE) == 1 and output.count("solitaire-kiosk-pin") == 1, output
    check_installed(root)
    assert pin_file(root).read_text() == ""
    # The README's console command runs from the package (a chroot: no systemd, no cmdline.txt).
    console = operator(root, CONSOLE_DRY_RUN)
    assert console.returncode == 0 and "console: nothing to change" in console.stdout, console
    check = check_config(root)
    assert check.returncode == 1 and "kiosk.lock = true with no operator PIN" in check.stdout
    # Another problem besides the PIN: the check's report word for word, then the one line.
    conf = root / CONF.lstrip("/")
    shipped = conf.read_text()
    conf.write_text(shipped.replace("rotate = 0", "rotate = 45"))
    again = operator(root, RECONFIGURE)  # the PIN question left empty: none yet
    assert again.returncode == 0 and check_config(root).stdout in again.stderr, again.stderr
    assert again.stderr.endswith(f"fix them in {CONF}\n{NO_PIN_LINE}\n"), again.stderr
    conf.write_text(shipped)
    # The one command the line names, in the README's form for scripts, as typed (issue 39,
    # item 14): it sets the PIN and the game reads it; the README's check says OK.
    assert PIN_FROM_A_SCRIPT.split()[1] == PIN
    pin = operator(root, PIN_FROM_A_SCRIPT)
    assert pin.returncode == 0, pin.stdout + pin.stderr
    assert f"the game now reads the new PIN from {PIN_FILE}" in pin.stdout
    assert operator(root, CHECK_CONFIG).stdout == f"{CONF}: OK\n" and game_pin_works(root, PIN)
    # A reinstall is quiet and keeps the PIN; remove masks the unit, install enables it again.
    again = install(root, deb, "--reinstall")
    assert "solitaire-kiosk:" not in again.stdout + again.stderr
    assert game_pin_works(root, PIN)
    removed = operator(root, REMOVE, stdin="Y\n")  # Y at apt's question
    assert removed.returncode == 0, removed.stderr
    assert package_status(root).startswith("deinstall ok config-files ")
    assert not (root / WANTS).exists() and not (root / APP.lstrip("/")).exists()
    mask = root / "etc/systemd/system/solitaire-kiosk.service"
    assert os.readlink(mask) == "/dev/null"
    assert (root / CONF.lstrip("/")).exists() and pin_file(root).stat().st_size > 0
    assert chroot(root, "getent", "passwd", "solitaire").returncode == 0
    installed(root, INSTALL)  # the PIN question left empty: the kiosk keeps its PIN
    assert (root / WANTS).is_symlink() and not mask.exists()
    assert game_pin_works(root, PIN)


def test_a_preseeded_hash_an_upgrade_taking_the_new_config_and_purge(
    root: Path, debs: tuple[Path, Path]
) -> None:
    deb, newer = debs
    # kiosk/README.md's preseeding line as typed, with a real hash in place of the dots.
    assert operator(root, PRESEED, pin_hash=hash_pin(PIN)).returncode == 0
    first = installed(root, INSTALL_QUIETLY)
    assert package_status(root) == f"install ok installed {deb.name.split('_')[1]}"
    assert "solitaire-kiosk:" not in first.stdout + first.stderr
    check_installed(root)
    assert check_config(root).stdout == f"{CONF}: OK\n"
    assert verify_pin(PIN, pin_file(root).read_text().strip())
    assert "pbkdf2" not in debconf_text(root)  # the file is the truth, debconf keeps no hash
    # The game itself draws a table there, as its user, with SDL's dummy driver.
    shot = as_game(
        root, "env", "SDL_VIDEODRIVER=dummy", "SDL_AUDIODRIVER=dummy", f"{APP}/.venv/bin/python",
        "-B", f"{APP}/main.py", "--screenshot", "/tmp/table.png", "--size", "800x480",
        "--code", "RU1-C-AAAAABB",
    )  # fmt: skip
    assert shot.returncode == 0, shot.stderr
    png = (root / "tmp/table.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[16:24] == struct.pack(">II", 800, 480)

    # The operator changed the config; the upgrade (0.2.0) shipped a changed config too; the
    # operator takes the new one (Y at dpkg's question): the PIN stays.
    conf = root / CONF.lstrip("/")
    conf.write_text(
        conf.read_text().replace("idle_attract_minutes = 3.0", "idle_attract_minutes = 7.0")
    )
    state = root / "var/lib/solitaire-kiosk"
    state.mkdir(mode=0o700)
    (state / "stats.json").write_text("{}")
    assert newer.name == UPGRADE.split("./")[1].replace("_arm64", f"_{HOST_ARCH}")
    upgrade = installed(root, UPGRADE, stdin="Y\n")
    assert package_status(root) == f"install ok installed {NEWER}"
    assert (
        conf.read_text().endswith("# rebuilt\n") and (conf.parent / "config.toml.dpkg-old").exists()
    )
    assert "solitaire-kiosk:" not in upgrade.stdout + upgrade.stderr
    assert game_pin_works(root, PIN) and check_config(root).stdout == f"{CONF}: OK\n"

    # A value the game tolerates never fails the package: the game's check, word for word.
    conf.write_text(conf.read_text().replace("rotate = 0", "rotate = 45"))
    report = check_config(root).stdout
    assert "display.rotate = 45" in report
    again = operator(root, RECONFIGURE)  # the PIN question left empty: the PIN stays
    assert again.returncode == 0 and report in again.stderr, again.stderr
    # (the postinst's words: no command typed here, systemd does not run in a chroot)
    assert f"fix them in {CONF}, then: sudo systemctl restart solitaire-kiosk" in again.stderr
    assert game_pin_works(root, PIN)
    assert install(root, newer, "--reinstall").stderr.count(report) == 1

    cache = root / "var/cache/solitaire-kiosk"
    cache.mkdir()
    shutil.copy(newer, cache)
    purged = operator(root, PURGE, stdin="Y\n")  # Y at apt's question
    assert purged.returncode == 0, purged.stderr
    assert package_status(root) == ""
    for gone in (conf.parent, state, cache, root / APP.lstrip("/")):
        assert not gone.exists(), gone
    assert chroot(root, "getent", "passwd", "solitaire").returncode == 2
    assert chroot(root, "getent", "group", "solitaire").returncode == 2
    databases = (root / "var/cache/debconf").glob("*.dat")  # (a backup keeps the last state)
    assert "solitaire-kiosk/" not in "".join(p.read_text() for p in databases)
    assert "pbkdf2" not in debconf_text(root)
    assert not (root / "etc/systemd/system/solitaire-kiosk.service").exists()


def test_the_pin_typed_at_the_debconf_question_is_hashed_and_never_kept(
    root: Path, debs: tuple[Path, Path]
) -> None:
    """With no terminal debconf falls back to its teletype frontend, which reads the answers
    from standard input: the PIN twice."""
    first = installed(root, INSTALL, stdin=f"{PIN}\n{PIN}\n")
    assert "Operator PIN for the kiosk (6 to 12 digits):" in first.stdout
    assert "The same operator PIN again:" in first.stdout
    assert NO_PIN_LINE not in first.stderr
    assert game_pin_works(root, PIN) and check_config(root).stdout == f"{CONF}: OK\n"
    assert PIN not in debconf_text(root) and "pbkdf2" not in debconf_text(root)
    # dpkg-reconfigure asks again: two different PINs, then the new one twice.
    new = "97531864"
    answers = f"111111\n222222\n{new}\n{new}\n"
    again = operator(root, RECONFIGURE, stdin=answers)
    assert again.returncode == 0 and "The two PINs differ" in again.stdout, again.stderr
    assert game_pin_works(root, new) and not game_pin_works(root, PIN)
    assert new not in debconf_text(root) and "111111" not in debconf_text(root)


def test_a_persons_account_named_solitaire_stops_the_install_untouched(
    root: Path, debs: tuple[Path, Path]
) -> None:
    deb, _newer = debs
    made = chroot(root, "useradd", "--create-home", "--shell", "/bin/bash", "solitaire")
    assert made.returncode == 0, made.stderr
    before = (
        chroot(root, "getent", "passwd", "solitaire").stdout,
        chroot(root, "id", "solitaire").stdout,
    )
    refused = apt(root, "install", f"/tmp/{deb.name}")
    assert refused.returncode != 0
    assert 'the account "solitaire" already exists and is not the kiosk\'s' in refused.stderr
    assert "nothing was installed or changed" in refused.stderr
    assert not package_status(root).startswith("install ok installed")
    after = (
        chroot(root, "getent", "passwd", "solitaire").stdout,
        chroot(root, "id", "solitaire").stdout,
    )
    assert after == before and (root / "home/solitaire").is_dir()
    assert not (root / APP.lstrip("/")).exists() and not (root / WANTS).exists()
    # and a purge of what is left touches neither the account nor its home
    chroot(root, "dpkg", "--purge", "solitaire-kiosk")
    assert chroot(root, "getent", "passwd", "solitaire").stdout == before[0]


AWKWARD = {
    "no spaces": ("operator_pin_file = ", "operator_pin_file="),
    "two spaces": ("operator_pin_file = ", "operator_pin_file  =  "),
    "commented out": ("operator_pin_file = ", "# operator_pin_file = "),
    "header with a comment": ("[kiosk]", "[kiosk]  # the operator's"),
    "no [kiosk]": ("[kiosk]\n", "[kiosk_gone]\n"),
}


def test_the_pin_tool_against_awkward_configs(root: Path, debs: tuple[Path, Path]) -> None:
    deb, _newer = debs
    install(root, deb)
    conf = root / CONF.lstrip("/")
    shipped = conf.read_text()
    for n, (name, (old, new)) in enumerate(AWKWARD.items()):
        text = shipped.replace(old, new, 1)
        if name == "no [kiosk]":  # the whole table gone
            text = re.sub(r"^\[kiosk_gone\]\n(?:[^\[].*\n|\n)*", "", text, flags=re.M)
        conf.write_text(text)
        pin = f"{PIN}{n}"
        # a stale preseeded hash waiting in debconf must not come back later
        stale = f"solitaire-kiosk solitaire-kiosk/pin-hash password {hash_pin('555555')}\n"
        chroot(root, "debconf-set-selections", stdin=stale)
        done = operator(root, SET_PIN, stdin=f"{pin}\n")  # no terminal: the PIN once
        assert done.returncode == 0, (name, done.stdout + done.stderr)
        assert "the game now reads the new PIN" in done.stdout, name
        assert game_pin_works(root, pin), name
        assert "pbkdf2" not in debconf_text(root), name
    assert chroot(root, "dpkg-reconfigure", "solitaire-kiosk").returncode == 0
    assert game_pin_works(root, f"{PIN}{len(AWKWARD) - 1}")
    # A config it cannot edit safely: the PIN file is written, the tool says what to add.
    conf.write_text("kiosk.lock = true\n")
    left = chroot(root, "solitaire-kiosk-pin", stdin="13579246\n")
    assert (
        left.returncode == 1
        and 'operator_pin_file = "/etc/solitaire-kiosk/pin-hash"' in left.stderr
    )
    assert "the kiosk was not restarted" in left.stderr
    assert conf.read_text() == "kiosk.lock = true\n"
    # No config at all: it says what to do and leaves nothing behind.
    conf.unlink()
    before = sorted(os.listdir(conf.parent)), pin_file(root).read_text()
    missing = chroot(root, "solitaire-kiosk-pin", stdin="13579246\n")
    assert missing.returncode == 1 and "--force-confmiss solitaire-kiosk" in missing.stderr
    assert (sorted(os.listdir(conf.parent)), pin_file(root).read_text()) == before
