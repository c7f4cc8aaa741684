"""kiosk/README.md's commands, for the tests that type them as printed.

`typed(line)` returns a command of the README's ``sh`` blocks as its words (the comment after
it left out); it fails when the README no longer prints that line, so a test cannot go on
typing a command the operator no longer reads. `typed_in_shell(line)` is the same line whole,
for a shell (`sh -c`), as its pipes and `&&` need one. `checkout(directory)` is the
operator's source tree: the files git tracks, copied (a playbook run as printed reads and
writes paths relative to it, such as kiosk/fleet/inventory.yml, which must not land in this
checkout).
tests/project/test_readme_commands.py checks that every command is typed by some test, or says
why not.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = REPO / "kiosk" / "README.md"
SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)


def readme_commands() -> list[str]:
    """Every command line of the README's sh blocks, without its trailing comment."""
    text = README.read_text(encoding="utf-8")
    lines = [line for block in SH_BLOCK.findall(text) for line in block.splitlines()]
    commands = []
    for line in lines:
        words = shlex.split(line, comments=True)
        if words:  # the line up to its comment, as printed
            cut = re.split(r"\s+#\s", line, maxsplit=1)[0].rstrip()
            commands.append(cut)
    return commands


def typed(line: str) -> list[str]:
    """The README's command `line` (as printed, without its comment) as words for subprocess."""
    assert line in readme_commands(), f"kiosk/README.md no longer prints: {line}"
    return shlex.split(line)


def typed_in_shell(line: str) -> str:
    """The README's command `line` as printed, whole, for `sh -c` (its pipes, `&&`)."""
    assert line in readme_commands(), f"kiosk/README.md no longer prints: {line}"
    return line


def checkout(directory: Path) -> Path:
    """A copy of the files git tracks in this checkout (with uncommitted changes), as an
    operator's source tree; `directory`/tree."""
    tree = directory / "tree"
    tree.mkdir()
    files = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    names = [name.decode() for name in files if name and (REPO / name.decode()).is_file()]
    with subprocess.Popen(
        ["tar", "-C", str(REPO), "--null", "-T", "-", "-cf", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    ) as pack:
        assert pack.stdin is not None and pack.stdout is not None
        unpack = subprocess.Popen(["tar", "-C", str(tree), "-xf", "-"], stdin=pack.stdout)
        pack.stdin.write(b"\0".join(name.encode() for name in names))
        pack.stdin.close()
        assert unpack.wait() == 0
    assert pack.returncode == 0
    return tree
