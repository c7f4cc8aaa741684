"""The Debian package (kiosk/build-deb.sh): what lintian says of the arm64 package and what it
holds, and the amd64 package installed into a throw-away Debian bookworm root (debootstrap
--variant=minbase, kept as a tarball between runs): a config without a PIN
stops the install before anything is set up, the PIN tool finishes it, the user, the units,
the conffile and a --check-config run are there, an upgrade keeps the operator's config, a bad
PIN hash stops the upgrade, then remove and purge leave nothing behind."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import struct
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.config import load_config
from game.pin import verify_pin

REPO = Path(__file__).resolve().parent.parent
BUILD = REPO / "kiosk" / "build-deb.sh"
# What the package depends on, so that dpkg -i works without apt inside the root.
INCLUDE = "python3.11-venv,python3-distutils,libgbm1,libegl1,libgles2,libdrm2,libudev1"
# The debootstrapped root is kept between runs, for every checkout on this machine when
# /var/cache is writable (else under out/), named after what it holds.
CACHE = Path("/var/cache/solitaire-kiosk-tests")
if not os.access(CACHE if CACHE.exists() else CACHE.parent, os.W_OK):
    CACHE = REPO / "out" / "deb-test"
BASE_TAR = CACHE / f"bookworm-minbase-{hashlib.sha256(INCLUDE.encode()).hexdigest()[:8]}.tar"
NETWORK_ERRORS = ("NewConnectionError", "Temporary failure in name resolution", "Max retries")
APP = "/usr/lib/solitaire-kiosk"
CONF = "/etc/solitaire-kiosk/config.toml"
PIN = "246813"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.geteuid() != 0, reason="dpkg-deb --root-owner-group and chroot need root"
    ),
    pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="dpkg-deb is not installed"),
]


def build(arch: str, out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(BUILD), "--arch", arch, "--out", str(out), *more],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def built(arch: str, out: Path, *more: str) -> Path:
    result = build(arch, out, *more)
    if result.returncode != 0 and any(e in result.stderr for e in NETWORK_ERRORS):
        pytest.skip(f"build-deb.sh could not reach PyPI: {result.stderr[-300:]}")
    assert result.returncode == 0, result.stderr
    deb = Path(result.stdout.strip().splitlines()[-1])
    assert re.fullmatch(rf"solitaire-kiosk_\d[\w.+~-]*_{arch}\.deb", deb.name)
    return deb


def control_file(deb: Path, name: str) -> str:
    return subprocess.run(
        ["dpkg-deb", "-I", str(deb), name], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.parametrize("python", ["3.11", "3.13"])
def test_the_arm64_package_holds_the_aarch64_wheels_conffile_and_units(
    tmp_path: Path, python: str
) -> None:
    """3.11: Debian and Raspberry Pi OS Bookworm (the default); 3.13: Trixie."""
    more = () if python == "3.11" else ("--python", python)
    deb = built("arm64", tmp_path, *more)
    version = re.search(r'^version = "(.+)"$', (REPO / "pyproject.toml").read_text(), re.M)
    assert version and deb.name == f"solitaire-kiosk_{version.group(1)}_arm64.deb"
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True)
    files = {line.split()[-1].removeprefix(".") for line in listing.stdout.splitlines()}
    wheels = {f for f in files if f.startswith(f"{APP}/wheels/") and f.endswith(".whl")}
    assert {Path(w).name.split("-")[0] for w in wheels} == {"pygame_ce", "pytweening"}
    abi = "cp" + python.replace(".", "")
    assert any(f"{abi}-{abi}-manylinux" in w and w.endswith("aarch64.whl") for w in wheels)
    assert not any("x86_64" in w for w in wheels)
    assert {CONF, "/lib/systemd/system/solitaire-kiosk.service"} <= files
    assert "/lib/systemd/system/solitaire-kiosk-cage.service" in files
    assert control_file(deb, "conffiles").split() == [CONF]
    assert f"python{python}-venv" in control_file(deb, "control")
    assert f"\nPYTHON=python{python} " in control_file(deb, "postinst")
    if shutil.which("lintian") is None:
        pytest.skip("lintian is not installed; the contents were checked")
    report = subprocess.run(
        ["lintian", "--allow-root", str(deb)], capture_output=True, text=True, timeout=300
    )
    assert [line for line in report.stdout.splitlines() if line.startswith("E:")] == []


def test_armhf_says_there_is_no_wheel_for_it(tmp_path: Path) -> None:
    result = build("armhf", tmp_path)
    if any(e in result.stderr for e in NETWORK_ERRORS):
        pytest.skip("build-deb.sh could not reach PyPI")
    assert result.returncode == 1
    assert "pygame-ce==" in result.stderr and "use 64-bit Raspberry Pi OS" in result.stderr
    assert list(tmp_path.glob("*.deb")) == []


# ------------------------------------------------------------------ the throw-away Debian root


def debian_mirror() -> str:
    """The Debian mirror apt uses on this machine (deb.debian.org when none is found)."""
    sources = [Path("/etc/apt/sources.list"), *Path("/etc/apt/sources.list.d").glob("*")]
    for source in sources:
        try:
            text = source.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for uri in re.findall(r"(https?://\S+/debian)/?(?:\s|$)", text):
            return str(uri)
    return "http://deb.debian.org/debian"


def unmount_below(root: Path) -> None:
    mounts = Path("/proc/mounts").read_text().split("\n")
    points = [line.split()[1] for line in mounts if line.split()[1:2]]
    for point in sorted((p for p in points if p.startswith(f"{root}/")), reverse=True):
        subprocess.run(["umount", "-l", point], check=False)


def make_base_tar() -> None:
    """debootstrap a minimal bookworm with the package's dependencies, kept as a tarball."""
    if shutil.which("debootstrap") is None:
        pytest.skip("debootstrap is not installed (apt-get install debootstrap)")
    CACHE.mkdir(parents=True, exist_ok=True)
    target = CACHE / f"build-root-{os.getpid()}"
    shutil.rmtree(target, ignore_errors=True)
    command = ["debootstrap", "--variant=minbase", f"--include={INCLUDE}", "bookworm"]
    try:
        result = subprocess.run(
            [*command, str(target), debian_mirror()],
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    finally:
        unmount_below(target)
    if result.returncode != 0:
        shutil.rmtree(target, ignore_errors=True)
        pytest.skip(f"debootstrap failed (no network or mirror?): {result.stderr[-400:]}")
    for deb in (target / "var/cache/apt/archives").glob("*.deb"):
        deb.unlink()  # debootstrap keeps what it downloaded: half the root
    tmp = BASE_TAR.with_suffix(f".tmp-{os.getpid()}")
    with tarfile.open(tmp, "w") as tar:
        tar.add(target, arcname=".")
    tmp.rename(BASE_TAR)
    shutil.rmtree(target, ignore_errors=True)


def ensure_base_tar() -> None:
    """The cached root, made once: other tests (and other checkouts) may want it at the same
    time, so its making is guarded by a lock file; the tarball is only ever read after that."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "bookworm.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not BASE_TAR.exists():
            make_base_tar()


@pytest.fixture
def debian_root(tmp_path: Path) -> Iterator[Path]:
    if shutil.which("chroot") is None:
        pytest.skip("chroot is not installed")
    ensure_base_tar()
    root = tmp_path / "root"
    root.mkdir()
    subprocess.run(["tar", "-C", str(root), "-xf", str(BASE_TAR)], check=True)
    yield root
    unmount_below(root)


def chroot(root: Path, *command: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/root"}
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    return subprocess.run(
        ["chroot", str(root), *command],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def rebuilt(deb: Path, out: Path) -> Path:
    """The same package rebuilt as a newer version whose shipped config.toml also changed."""
    tree = out / "tree"
    subprocess.run(["dpkg-deb", "-R", str(deb), str(tree)], check=True)
    control = tree / "DEBIAN" / "control"
    text = control.read_text()
    version = re.search(r"^Version: (.+)$", text, re.M)
    assert version
    control.write_text(text.replace(version.group(0), f"Version: {version.group(1)}+rebuild1"))
    shipped = tree / CONF.lstrip("/")
    shipped.write_text(shipped.read_text() + "# rebuilt\n")
    newer = out / deb.name.replace("_amd64", "+rebuild1_amd64")
    subprocess.run(["dpkg-deb", "--root-owner-group", "-b", str(tree), str(newer)], check=True)
    return newer


def status(root: Path) -> str:
    return chroot(root, "dpkg-query", "-W", "-f=${Status} ${Version}", "solitaire-kiosk").stdout


def set_key(path: Path, key: str, value: str) -> None:
    text = path.read_text()
    path.write_text(re.sub(rf"^{key} = .*$", f"{key} = {value}", text, count=1, flags=re.M))


def check_installed(root: Path) -> None:
    passwd = chroot(root, "getent", "passwd", "solitaire").stdout
    assert passwd.split(":")[5:] == ["/var/lib/solitaire-kiosk", "/usr/sbin/nologin\n"]
    groups = set(chroot(root, "id", "-nG", "solitaire").stdout.split())
    assert {"video", "input", "render", "audio"} <= groups
    conf = root / CONF.lstrip("/")
    gid = int(chroot(root, "getent", "group", "solitaire").stdout.split(":")[2])
    st = conf.stat()
    assert (oct(st.st_mode & 0o777), st.st_uid, st.st_gid) == ("0o640", 0, gid)
    conffiles = chroot(root, "dpkg-query", "-W", "-f=${Conffiles}", "solitaire-kiosk").stdout
    assert CONF in conffiles
    wants = root / "etc/systemd/system/multi-user.target.wants"
    assert (wants / "solitaire-kiosk.service").is_symlink()
    assert not (wants / "solitaire-kiosk-cage.service").exists()
    assert (root / "lib/systemd/system/solitaire-kiosk-cage.service").exists()
    for unit in ("solitaire-kiosk.service", "solitaire-kiosk-cage.service"):
        text = (root / "lib/systemd/system" / unit).read_text()
        for key in ("ExecStart", "WorkingDirectory"):
            path = re.search(rf"^{key}=(\S+)$", text, re.M)
            assert path and os.access(root / path.group(1).lstrip("/"), os.X_OK), (unit, key)
    # The game's own check, run as the game's user with the venv the package made offline.
    check = chroot(
        root, "runuser", "-u", "solitaire", "--", f"{APP}/.venv/bin/python", "-B",
        f"{APP}/main.py", "--check-config", CONF,
    )  # fmt: skip
    assert check.returncode == 0 and check.stdout == f"{CONF}: OK\n", check.stdout + check.stderr
    versions = chroot(
        root, f"{APP}/.venv/bin/python", "-c", "import pygame, pytweening; print(pygame.ver)"
    )
    assert versions.stdout == "2.5.8\n", versions.stderr
    assert list((root / APP.lstrip("/") / "game").glob("__pycache__/*.pyc"))
    # The game itself draws a table there, as its user, with SDL's dummy driver.
    shot = chroot(
        root, "runuser", "-u", "solitaire", "--", "env", "SDL_VIDEODRIVER=dummy",
        "SDL_AUDIODRIVER=dummy", f"{APP}/.venv/bin/python", "-B", f"{APP}/main.py",
        "--screenshot", "/tmp/table.png", "--size", "800x480", "--code", "RU1-C-AAAAABB",
    )  # fmt: skip
    assert shot.returncode == 0, shot.stderr
    png = (root / "tmp/table.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[16:24] == struct.pack(">II", 800, 480)


def install_first_time(root: Path, deb: Path) -> None:
    """The shipped config has the lock on and no PIN: the install stops before any change."""
    first = chroot(root, "dpkg", "-i", f"/tmp/{deb.name}")
    assert first.returncode != 0
    assert "operator_pin_hash" in first.stderr and "the kiosk is not set up" in first.stderr
    assert chroot(root, "getent", "passwd", "solitaire").returncode == 2
    assert not (root / APP.lstrip("/") / ".venv").exists()
    assert not (
        root / "etc/systemd/system/multi-user.target.wants/solitaire-kiosk.service"
    ).exists()
    pin = chroot(root, "solitaire-kiosk-pin", stdin=f"{PIN}\n")
    assert pin.returncode == 0, pin.stdout + pin.stderr
    assert status(root).startswith("install ok installed ")


def test_install_upgrade_remove_purge_in_a_debian_root(debian_root: Path, tmp_path: Path) -> None:
    root = debian_root
    deb = built("amd64", tmp_path / "dist")
    newer = rebuilt(deb, tmp_path)
    for package in (deb, newer):
        shutil.copy(package, root / "tmp")
    install_first_time(root, deb)
    check_installed(root)
    conf = root / CONF.lstrip("/")
    config, problems = load_config(conf)
    assert problems == [] and config.kiosk.lock and verify_pin(PIN, config.kiosk.operator_pin_hash)

    # The operator changes the config; the game leaves scores in its state directory.
    set_key(conf, "idle_attract_minutes", "7.0")
    state = root / "var/lib/solitaire-kiosk"
    state.mkdir(mode=0o700)
    (state / "stats.json").write_text("{}")
    upgrade = chroot(root, "dpkg", "-i", "--force-confold", f"/tmp/{newer.name}")
    assert upgrade.returncode == 0, upgrade.stdout + upgrade.stderr
    assert status(root).endswith("+rebuild1")
    assert load_config(conf)[0].kiosk.idle_attract_minutes == 7.0
    assert (conf.parent / "config.toml.dpkg-dist").read_text().endswith("# rebuilt\n")
    check_installed(root)

    # A PIN hash the game refuses stops the package before it changes anything.
    good = conf.read_text()
    set_key(conf, "operator_pin_hash", '"pbkdf2_sha256$99999999$abc$' + "0" * 64 + '"')
    bad = chroot(root, "dpkg", "-i", f"/tmp/{newer.name}")
    assert bad.returncode != 0 and "operator_pin_hash" in bad.stderr
    conf.write_text(good)
    assert chroot(root, "dpkg", "--configure", "-a").returncode == 0

    removed = chroot(root, "dpkg", "-r", "solitaire-kiosk")
    assert removed.returncode == 0, removed.stderr
    assert not (root / APP.lstrip("/")).exists()
    assert not (root / "lib/systemd/system/solitaire-kiosk.service").exists()
    assert not (
        root / "etc/systemd/system/multi-user.target.wants/solitaire-kiosk.service"
    ).exists()
    assert conf.exists() and (state / "stats.json").exists()
    assert chroot(root, "getent", "passwd", "solitaire").returncode == 0

    purged = chroot(root, "dpkg", "-P", "solitaire-kiosk")
    assert purged.returncode == 0, purged.stderr
    assert not conf.parent.exists() and not state.exists()
    assert chroot(root, "getent", "passwd", "solitaire").returncode == 2
    assert chroot(root, "getent", "group", "solitaire").returncode == 2
    assert status(root) == ""
