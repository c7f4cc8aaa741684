"""A throw-away Debian bookworm root for the package and playbook tests, and the amd64 package.

The root is debootstrapped once (--variant=minbase with the package's dependencies) and kept as
a tarball for every checkout on this machine: under /var/cache/solitaire-kiosk-tests when that is
writable, else under out/. Its making is guarded by a lock file, since other tests (and other
checkouts) may want it at the same time; after that the tarball is only ever read, and each test
unpacks its own copy."""

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

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "kiosk" / "build-deb.sh"
# What the package depends on, so that dpkg -i works without apt inside the root.
INCLUDE = "python3.11-venv,python3-distutils,libgbm1,libegl1,libgles2,libdrm2,libudev1,sudo"
CACHE = Path("/var/cache/solitaire-kiosk-tests")
if not os.access(CACHE if CACHE.exists() else CACHE.parent, os.W_OK):
    CACHE = REPO / "out" / "deb-test"
BASE_TAR = CACHE / f"bookworm-minbase-{hashlib.sha256(INCLUDE.encode()).hexdigest()[:8]}.tar"
NETWORK_ERRORS = ("NewConnectionError", "Temporary failure in name resolution", "Max retries")


def cache_lock(name: str = "bookworm.lock") -> int:
    """An exclusive lock on a file of the cache, held until the returned descriptor is closed."""
    CACHE.mkdir(parents=True, exist_ok=True)
    fd = os.open(CACHE / name, os.O_WRONLY | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


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


def _make_base_tar() -> None:
    if shutil.which("debootstrap") is None:
        pytest.skip("debootstrap is not installed (apt-get install debootstrap)")
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


def ensure_base_tar() -> Path:
    """The cached tarball of the root, debootstrapped first if it is not there yet."""
    fd = cache_lock()
    try:
        if not BASE_TAR.exists():
            _make_base_tar()
    finally:
        os.close(fd)
    return BASE_TAR


def new_root(directory: Path) -> Path:
    """A fresh copy of the root in `directory`/root (unmount_below it when done)."""
    if shutil.which("chroot") is None:
        pytest.skip("chroot is not installed")
    tar = ensure_base_tar()
    root = directory / "root"
    root.mkdir()
    subprocess.run(["tar", "-C", str(root), "-xf", str(tar)], check=True)
    return root


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


def build(arch: str, out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(BUILD), "--arch", arch, "--out", str(out), *more],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def built(arch: str, out: Path, *more: str) -> Path:
    """kiosk/build-deb.sh's package for `arch` in `out` (the test skips without PyPI)."""
    result = build(arch, out, *more)
    if result.returncode != 0 and any(e in result.stderr for e in NETWORK_ERRORS):
        pytest.skip(f"build-deb.sh could not reach PyPI: {result.stderr[-300:]}")
    assert result.returncode == 0, result.stderr
    deb = Path(result.stdout.strip().splitlines()[-1])
    assert re.fullmatch(rf"solitaire-kiosk_\d[\w.+~-]*_{arch}\.deb", deb.name)
    return deb


def root_with(directory: Path, tar: Path, script: str, what: str, *, keep_apt: bool) -> Path:
    """A fresh copy (`directory`/root) of the root with `script` (sh, as root, apt-get mostly)
    run in it once: made the first time and kept as the tarball `tar` in the cache, under a lock
    of its own. `keep_apt`: keep apt's lists and what it downloaded (else removed, as the plain
    root). The test skips, saying `what` failed, when the script fails (no network or mirror)."""
    fd = cache_lock(f"{tar.stem}.lock")
    try:
        if not tar.exists():
            making = directory / "making"
            making.mkdir()
            root = new_root(making)
            try:
                done = chroot(root, "sh", "-c", script)
            finally:
                unmount_below(root)
            if done.returncode != 0:
                pytest.skip(f"{what} failed: {done.stderr[-300:]}")
            junk = [*root.glob("var/cache/apt/archives/*.deb"), *root.glob("var/lib/apt/lists/*_*")]
            for path in [] if keep_apt else junk:
                path.unlink()
            tmp = tar.with_suffix(f".tmp-{os.getpid()}")
            with tarfile.open(tmp, "w") as archive:
                archive.add(root, arcname=".")
            tmp.rename(tar)
            shutil.rmtree(making)
    finally:
        os.close(fd)
    root = directory / "root"
    root.mkdir()
    subprocess.run(["tar", "-C", str(root), "-xf", str(tar)], check=True)
    return root


def game_check(root: Path, conf: str) -> subprocess.CompletedProcess[str]:
    """The installed game's own check of `conf` (main.py --check-config), as its user, in the
    root: what the kiosk itself will make of its config and the files it names."""
    app = "/usr/lib/solitaire-kiosk"
    return chroot(
        root, "runuser", "-u", "solitaire", "--", f"{app}/.venv/bin/python", "-B",
        f"{app}/main.py", "--check-config", conf,
    )  # fmt: skip


def package_status(root: Path) -> str:
    """dpkg's "Status Version" of the package in the root ('' when it was never there)."""
    return chroot(root, "dpkg-query", "-W", "-f=${Status} ${Version}", "solitaire-kiosk").stdout
