"""The throw-away Debian Bookworm root of the package tests (tests/test_deb.py, and the fleet
test may use the same cache): debootstrap --variant=minbase with the package's dependencies,
made once under a lock file and kept as a tarball in /var/cache/solitaire-kiosk-tests (for every
checkout on this machine when /var/cache is writable, else out/deb-test), never changed in
place: each test unpacks its own copy. Also the package build and a chroot runner."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BUILD = REPO / "kiosk" / "build-deb.sh"
# What the package depends on, so that dpkg -i works without apt inside the root.
INCLUDE = "python3.11-venv,python3-distutils,libgbm1,libegl1,libgles2,libdrm2,libudev1"
CACHE = Path("/var/cache/solitaire-kiosk-tests")
if not os.access(CACHE if CACHE.exists() else CACHE.parent, os.W_OK):
    CACHE = REPO / "out" / "deb-test"
BASE_TAR = CACHE / f"bookworm-minbase-{hashlib.sha256(INCLUDE.encode()).hexdigest()[:8]}.tar"
NETWORK_ERRORS = ("NewConnectionError", "Temporary failure in name resolution", "Max retries")
CONF = "/etc/solitaire-kiosk/config.toml"


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


def unpacked_root(where: Path) -> Path:
    """A fresh copy of the cached root at `where`/root (made first when there is none)."""
    if shutil.which("chroot") is None:
        pytest.skip("chroot is not installed")
    ensure_base_tar()
    root = where / "root"
    root.mkdir()
    subprocess.run(["tar", "-C", str(root), "-xf", str(BASE_TAR)], check=True)
    return root


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
