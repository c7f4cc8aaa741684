"""The README's test command from a checkout in a directory only its owner can enter (issue 34):
`mktemp -d` makes one, and so are /root and many home directories. The checkout's files are copied
there as a clone has them, and `./test.sh tests/deploy/test_cage_e2e.py` runs: the linters and the
cage test, whose user (another one) must not need to reach into the checkout or its .venv. That
.venv, inside the private directory, is a copy of this checkout's when the suite runs from it
(`./test.sh` does), which spares the suite a pip install of half a minute; else test.sh makes a new
one there. No other test runs anything of the checkout as another user (tests/deploy/test_deb.py's
user runs the installed package inside its own Debian root).

Runs where the cage test runs for real: as root, with cage and grim; else skipped."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(os.geteuid() != 0, reason="the cage test runs another user only as root"),
    pytest.mark.skipif(
        not (shutil.which("cage") and shutil.which("grim")), reason="needs cage and grim"
    ),
]


def checkout_files() -> list[str]:
    """The files a clone of this checkout has (its working copies, so uncommitted changes and
    new files are tested too); none outside a git checkout."""
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=False,
    )
    if listed.returncode != 0:
        return []
    return [name for name in listed.stdout.split("\0") if name and (REPO / name).is_file()]


@pytest.fixture()
def private_clone() -> Iterator[Path]:
    """The checkout's files in ``mktemp -d``'s directory (mode 0700, as `mktemp -d` makes it)."""
    files = checkout_files()
    if not files:
        pytest.skip(f"{REPO} is not a git checkout (git ls-files lists nothing)")
    private = Path(tempfile.mkdtemp(prefix="solitaire-private-"))
    try:
        clone = private / "solitaire"
        for name in files:
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, clone / name)
        if Path(sys.prefix) == REPO / ".venv":  # a copy of this .venv, as test.sh left it
            shutil.copytree(REPO / ".venv", clone / ".venv", symlinks=True)
        yield clone
    finally:
        shutil.rmtree(private, ignore_errors=True)


def test_the_cage_test_passes_from_a_checkout_in_a_private_directory(private_clone: Path) -> None:
    private = private_clone.parent
    assert private.stat().st_mode & 0o777 == 0o700
    nobody = subprocess.run(["runuser", "-u", "nobody", "--", "test", "-x", str(private)])
    assert nobody.returncode != 0, f"other users can enter {private}: this test proves nothing"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "VIRTUAL_ENV"))}
    env.pop("PYTHONPATH", None)
    env.pop("KEEP_CAGE_E2E", None)
    ran = subprocess.run(
        ["./test.sh", "tests/deploy/test_cage_e2e.py", "-p", "no:cacheprovider", "-rs"],
        cwd=private_clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=480,
        check=False,
    )
    said = f"./test.sh in {private_clone} said:\n{ran.stdout[-4000:]}\n{ran.stderr[-2000:]}"
    assert ran.returncode == 0, said
    summary = ran.stdout.strip().splitlines()[-1]  # e.g. "2 passed in 14.21s"
    assert " passed" in summary and not re.search("failed|skipped|error", summary), said
