"""The operator PIN in a file of its own ([kiosk] operator_pin_file, the Debian package's
/etc/solitaire-kiosk/pin-hash): the game takes its hash over operator_pin_hash, --check-config
reports a file it cannot use without showing what it holds, the package's tools
(`python -m game.kiosk.pinfile`) write it and point any form of config at it, and the check warns of
a log_dir the kiosk units cannot write."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.config import check_config_file, load_config
from game.kiosk.pin import hash_pin, verify_pin
from game.kiosk.pinfile import pointed_at
from game.launch import log_problems

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]
OLD = hash_pin("111111", iterations=100_000)
NEW = hash_pin("246813", iterations=100_000)


def config(tmp_path: Path, kiosk: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f"[kiosk]\nlock = true\n{kiosk}\n")
    return path


@pytest.fixture
def short_pin() -> Iterator[Path]:
    """A PIN file's path short enough to be shown whole: a message shows at most 80 characters
    of a value (game.config_rules.MAX_SHOWN), and tmp_path can be longer than that (under
    pytest-xdist, or with a long user name)."""
    with tempfile.TemporaryDirectory(prefix="pin-") as folder:
        yield Path(folder) / "pin-hash"


def pinfile(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-B", "-m", "game.kiosk.pinfile", *args],
        cwd=REPO,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_hash_in_the_pin_file_is_the_pin_and_wins_over_the_config(tmp_path: Path) -> None:
    pin = tmp_path / "pin-hash"
    pin.write_text(NEW + "\n")
    conf = config(tmp_path, f'operator_pin_hash = "{OLD}"\noperator_pin_file = "{pin}"')
    loaded, problems = load_config(conf)
    assert problems == []
    assert verify_pin("246813", loaded.kiosk.operator_pin_hash)
    assert not verify_pin("111111", loaded.kiosk.operator_pin_hash)
    # hash-pin's whole printed line, pasted into the file, is taken too
    pin.write_text(f'operator_pin_hash = "{NEW}"\n')
    assert verify_pin("246813", load_config(conf)[0].kiosk.operator_pin_hash)


@pytest.mark.parametrize("content", [None, "", "\n"])
def test_a_missing_or_empty_pin_file_is_no_pin(
    tmp_path: Path, content: str | None, short_pin: Path
) -> None:
    pin = short_pin
    if content is not None:
        pin.write_text(content)
    conf = config(tmp_path, f'operator_pin_file = "{pin}"')
    loaded, problems = load_config(conf)
    assert loaded.kiosk.operator_pin_hash == ""
    missing = [f'kiosk.operator_pin_file = "{pin}": there is no such file; no PIN from it']
    assert problems[:-1] == (missing if content is None else [])
    assert problems[-1].startswith("kiosk.lock = true with no operator PIN")
    assert f'"{pin}" holds no hash and kiosk.operator_pin_hash = ""' in problems[-1]
    # an unlocked desktop with no PIN yet has nothing to fix but a file named and not there
    conf.write_text(f'[kiosk]\noperator_pin_file = "{pin}"\n')
    assert load_config(conf)[1] == (missing if content is None else [])


@pytest.mark.parametrize("content", [None, "", "\n"])
def test_only_the_pin_file_counts_an_older_hash_beside_it_never_comes_back(
    tmp_path: Path,
    content: str | None,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    short_pin: Path,
) -> None:
    """Issue 39, item 3: an emptied or lost PIN file is no PIN, reported by the check and in
    the log, whatever operator_pin_hash the config still holds."""
    pin = short_pin
    if content is not None:
        pin.write_text(content)
    conf = config(tmp_path, f'operator_pin_hash = "{OLD}"\noperator_pin_file = "{pin}"')
    loaded, problems = load_config(conf)
    assert loaded.kiosk.operator_pin_hash == "" and not verify_pin("111111", "")
    assert check_config_file(conf) == 1
    out = capsys.readouterr().out
    assert f'"{pin}" holds no hash (only that file counts: kiosk.operator_pin_hash is not used' in (
        out
    )
    assert ("there is no such file" in out) == (content is None)
    assert OLD not in out and "111111" not in out
    # the kiosk's log says it too: the game logs load_config's problems at start
    with caplog.at_level(logging.WARNING, logger="solitaire.config"):
        log_problems(problems)
    logged = [r.getMessage() for r in caplog.records if r.name == "solitaire.config"]
    assert any("holds no hash (only that file counts" in line for line in logged)
    assert ("there is no such file" in "\n".join(logged)) == (content is None)


def test_a_pin_file_that_is_no_hash_is_reported_without_its_content(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], short_pin: Path
) -> None:
    pin = short_pin
    pin.write_text("246813\n")  # the plain PIN typed in by mistake
    conf = config(tmp_path, f'operator_pin_hash = "{OLD}"\noperator_pin_file = "{pin}"')
    loaded, _problems = load_config(conf)
    assert loaded.kiosk.operator_pin_hash == ""  # only the file counts (issue 39)
    assert check_config_file(conf) == 1
    out = capsys.readouterr().out
    assert f'kiosk.operator_pin_file = "{pin}": it does not hold a hash' in out
    assert "no PIN from it" in out and "246813" not in out


def test_an_unreadable_pin_file_is_reported(tmp_path: Path, short_pin: Path) -> None:
    pin = short_pin
    pin.mkdir()
    _loaded, problems = load_config(config(tmp_path, f'operator_pin_file = "{pin}"'))
    assert problems[0] == (
        f'kiosk.operator_pin_file = "{pin}": cannot read it (a directory, not a regular file); '
        "no PIN from it"
    )
    assert problems[1].startswith("kiosk.lock = true with no operator PIN")


def test_a_relative_pin_file_is_refused(tmp_path: Path) -> None:
    loaded, problems = load_config(config(tmp_path, 'operator_pin_file = "pin-hash"'))
    assert loaded.kiosk.operator_pin_file == ""
    assert problems[0].startswith('kiosk.operator_pin_file = "pin-hash": expected "" or an abs')


def test_check_config_warns_of_a_log_dir_the_units_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text(f'[kiosk]\nlog_dir = "{tmp_path}"\n')
    assert check_config_file(conf) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f'{conf}: warning: kiosk.log_dir = "{tmp_path}": the kiosk units')
    assert "only /var/lib/solitaire-kiosk" in out[0]
    assert out[1] == f"{conf}: OK (1 warning(s))"
    conf.write_text('[kiosk]\nlog_dir = "/var/lib/solitaire-kiosk/logs"\n')
    assert check_config_file(conf) == 0
    assert capsys.readouterr().out == f"{conf}: OK\n"


AWKWARD = {
    "spaces": '[kiosk]\nlock = true\noperator_pin_file  =  ""\n',
    "no spaces": '[kiosk]\nlock = true\noperator_pin_file=""\n',
    "commented out": '[kiosk]\nlock = true\n# operator_pin_file = "/etc/x"\n',
    "header with a comment": "[kiosk] # the operator's\nlock = true\n",
    "indented header": "  [ kiosk ]\nlock = true\n[sound]\nenabled = false\n",
    "no [kiosk]": "[display]\nrotate = 45",
    "other file": '[kiosk]\noperator_pin_file = "/tmp/elsewhere"\nlock = true\n[sound]\n',
    "empty": "",
}


@pytest.mark.parametrize("text", AWKWARD.values(), ids=AWKWARD.keys())
def test_any_config_form_is_pointed_at_the_pin_file(tmp_path: Path, text: str) -> None:
    result = pointed_at(text, "/etc/solitaire-kiosk/pin-hash")
    assert result is not None
    conf = tmp_path / "config.toml"
    conf.write_text(result)
    loaded, _problems = load_config(conf)
    assert loaded.kiosk.operator_pin_file == "/etc/solitaire-kiosk/pin-hash"
    assert loaded.kiosk.lock == ("lock = true" in text)
    assert pointed_at(result, "/etc/solitaire-kiosk/pin-hash") == result  # nothing more


@pytest.mark.parametrize(
    "text", ["kiosk.lock = true\n", "kiosk = { lock = true }\n", "[kiosk\nlock = true\n"]
)
def test_a_config_it_cannot_edit_safely_is_left_alone(text: str) -> None:
    assert pointed_at(text, "/etc/solitaire-kiosk/pin-hash") is None


@pytest.mark.process
def test_the_package_tools_write_check_and_point(tmp_path: Path) -> None:
    pin = tmp_path / "pin-hash"
    conf = tmp_path / "config.toml"
    conf.write_text("[kiosk] # locked\nlock = true\n")
    conf.chmod(0o640)
    assert pinfile("status", str(conf)).stdout == "missing\n"
    assert pinfile("write", str(pin), stdin="246813\n").returncode == 2
    assert not pin.exists() and list(tmp_path.iterdir()) == [conf]  # no temporary left
    assert pinfile("write", str(pin), stdin=NEW + "\n").returncode == 0
    assert pin.read_text() == NEW + "\n" and stat.S_IMODE(pin.stat().st_mode) == 0o640
    refused = pinfile("reads", str(conf), stdin=NEW)
    assert refused.returncode == 1 and NEW not in refused.stdout
    assert "takes its PIN from nowhere (no PIN): its [kiosk] has no operator_pin_file" in (
        refused.stdout
    )
    assert pinfile("use", str(conf), str(pin)).returncode == 0
    assert stat.S_IMODE(conf.stat().st_mode) == 0o640
    # an older hash in the config is removed (issue 39, item 3): only the file counts
    conf.write_text(conf.read_text() + f'operator_pin_hash = "{OLD}"\n')
    assert pinfile("use", str(conf), str(pin)).returncode == 0
    assert OLD not in conf.read_text() and 'operator_pin_hash = ""' in conf.read_text()
    assert load_config(conf)[0].kiosk.operator_pin_file == str(pin)
    assert pinfile("reads", str(conf), stdin=NEW).returncode == 0
    assert pinfile("status", str(conf)).stdout == "set\n"
    # the package's first configure of an older kiosk: the hash its config held moves over
    # (also from a config that names the PIN file, as the old install.sh wrote it)
    old = tmp_path / "old.toml"
    old.write_text(
        f'[kiosk]\nlock = true\noperator_pin_hash = "{OLD}"\noperator_pin_file = "{pin}"\n'
    )
    pin.unlink()
    assert pinfile("write", str(pin), "--from", str(conf), str(old)).returncode == 0
    assert pin.read_text() == OLD + "\n"
    old.unlink()
    bad = tmp_path / "bad.toml"
    bad.write_text("kiosk.lock = true\n")
    refused = pinfile("use", str(bad), str(pin))
    assert refused.returncode == 1 and "operator_pin_file = " in refused.stderr
    assert bad.read_text() == "kiosk.lock = true\n"
    assert sorted(os.listdir(tmp_path)) == ["bad.toml", "config.toml", "pin-hash"]
