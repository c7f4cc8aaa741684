"""Config files an unlucky operator (or a hostile one) could write: nothing in them stops the
check or the game, and what the check accepts is what the game runs with."""

from __future__ import annotations

import logging
import math
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import main
from engine.rules import ALL_RULES
from game import launch
from game.config import Config, load_config
from game.config_rules import MAX_WINDOW_PX, RULES
from game.logs import log_dir_for, setup_logging
from game.saves import session
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)
from tests.helpers.profiles import examples

pytestmark = pytest.mark.app

REPO = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str | bytes, name: str = "config.toml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


NASTY: dict[str, str | bytes] = {
    "unknown user in log_dir": '[kiosk]\nlog_dir = "~nosuchuser/logs"\n',
    "400-digit float key": "[kiosk]\nexit_press_seconds = " + "9" * 400 + "\n",
    "400-digit int key": "[display]\nwidth = " + "7" * 400 + "\n",
    "5000-digit number": "[display]\nwidth = " + "1" * 5000 + "\n",
    "500-deep array": "[display]\nwidth = " + "[" * 500 + "]" * 500 + "\n",
    "300-deep array": "[display]\nwidth = " + "[" * 300 + "]" * 300 + "\n",
    "huge window": "[display]\nfullscreen = false\nwidth = 16384\nheight = 16384\n",
    "utf-16": '[game]\nlocale = "en"\n'.encode("utf-16"),
    "nul bytes": b"[game]\x00\nlocale = 1\n",
    "nul in path": '[kiosk]\nlog_dir = "/tmp/a\\u0000b"\n',
    "control chars": '[kiosk]\nlog_dir = "rel\\u001b[31m\\nX"\n',
    "inf and nan": "[input]\ntap_slop_mm = inf\n[kiosk]\nidle_attract_minutes = nan\n",
    "datetime": "[kiosk]\nexit_press_seconds = 1979-05-27T07:32:00Z\n",
    "huge key count": "[display]\n" + "".join(f"k{i} = {i}\n" for i in range(5000)),
    "long string": '[game]\nlocale = "' + "x" * 200_000 + '"\n',
    "table of tables": "[kiosk.lock]\na = 1\n[[display]]\nwidth = 1\n",
}


@pytest.mark.process
@pytest.mark.parametrize("case", list(NASTY))
def test_check_and_game_config_agree_and_never_raise(tmp_path: Path, case: str) -> None:
    path = write(tmp_path, NASTY[case])
    config, problems = load_config(path)  # the game's reading
    assert problems, "every one of these files has a problem to report"
    assert all("\n" not in p and len(p) < 1000 for p in problems)  # one readable line each
    assert 320 <= config.display.width <= MAX_WINDOW_PX
    assert log_dir_for(config, tmp_path).is_absolute()
    result = subprocess.run(
        [sys.executable, "main.py", "--check-config", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stdout.count("\n") == len(problems) + 1


def test_unknown_user_in_log_dir_is_refused_and_logging_still_starts(tmp_path: Path) -> None:
    config, problems = load_config(write(tmp_path, '[kiosk]\nlog_dir = "~nosuchuser/logs"\n'))
    assert problems == [
        'kiosk.log_dir = "~nosuchuser/logs": expected "" or an absolute directory path '
        '(or ~/..., ~user/... of a user that exists); using the default ""'
    ]
    assert setup_logging(log_dir_for(config, tmp_path), to_stderr=False) == (
        tmp_path / "logs" / "solitaire.log"
    )
    # A Config built by hand with the bad value (the check bypassed) falls back the same way.
    by_hand = Config(kiosk=type(config.kiosk)(log_dir="~nosuchuser/logs"))
    assert log_dir_for(by_hand, tmp_path) == tmp_path / "logs"


def test_a_window_larger_than_8192_px_is_refused(tmp_path: Path) -> None:
    config, problems = load_config(write(tmp_path, NASTY["huge window"]))
    assert (config.display.width, config.display.height) == (1280, 800)
    assert len(problems) == 2 and all("to 8192" in p for p in problems)
    config, problems = load_config(
        write(tmp_path, "[display]\nwidth = 8192\nheight = 8192\n", "edge.toml")
    )
    assert problems == [] and config.display.width == 8192


def test_deep_nesting_and_long_numbers_name_the_reason(tmp_path: Path) -> None:
    _, deep = load_config(write(tmp_path, NASTY["500-deep array"]))
    assert deep == [
        f"config file {tmp_path / 'config.toml'} nests arrays or tables too deeply; "
        "using the defaults"
    ]
    _, long = load_config(write(tmp_path, NASTY["5000-digit number"]))
    assert "Python cannot read" in long[0] and "digits" in long[0]
    _, huge = load_config(write(tmp_path, NASTY["400-digit float key"]))
    assert huge[0].startswith("kiosk.exit_press_seconds = <a whole number of about 400 digits>")


def test_rule_sets_and_cells_come_from_the_engine_registry() -> None:
    games = {r.game for r in ALL_RULES}
    cells = {r.cells for r in ALL_RULES if r.game == "seahaven"}
    assert (
        set(RULES["game"]["default_game"].expected.replace('"', "").split("one of ")[1].split(", "))
        == games
    )
    for n in range(0, 8):
        accepted = RULES["game"]["seahaven_cells"].convert(n) is not None
        assert accepted == (n in cells)
    source = (REPO / "game" / "config_rules.py").read_text(encoding="utf-8")
    assert "(4, 2, 1)" not in source and "4, 2, 1" not in source


def test_no_module_in_game_is_over_450_lines() -> None:
    for module in sorted((REPO / "game").rglob("*.py")):
        lines = module.read_text(encoding="utf-8").count("\n")
        if module.stem in (
            "config",
            "config_rules",
            "pin",
            "storage",
            "persist",
            "prefs",
            "kiosk",
            "launch",
            "logs",
            "lifeline",
            "savecheck",
        ):
            assert lines <= 450, f"{module.name} has {lines} lines"


def test_a_plain_pin_in_the_hash_key_never_reaches_messages_or_the_log(tmp_path: Path) -> None:
    path = write(tmp_path, '[kiosk]\nlock = true\noperator_pin_hash = "73915824"\n')
    _, problems = load_config(path)
    assert problems and not any("73915824" in p for p in problems)
    log_file = setup_logging(tmp_path / "logs", to_stderr=False)
    assert log_file is not None
    logging.getLogger("solitaire.config").warning("%s", "; ".join(problems))
    logging.getLogger("solitaire.x").warning('operator_pin_hash = "73915824" read')
    stored = "pbkdf2_sha256$100000$" + "ab" * 16 + "$" + "cd" * 32
    logging.getLogger("solitaire.x").warning("hash %s", stored)
    text = log_file.read_text(encoding="utf-8")
    assert "73915824" not in text and "cdcdcdcd" not in text and "<hidden" in text


# ---------------------------------------------------------------- the property test


def toml_string(text: str) -> str:
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("?")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{toml_string(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
        )
    raise TypeError(value)


KNOWN = [(section, key) for section, keys in RULES.items() for key in keys]
scalars = st.one_of(
    st.booleans(),
    st.integers(min_value=-5, max_value=1500),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**420),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        [
            "",
            "fi",
            "ru",
            "en",
            "seahaven",
            "relaxed",
            "hard",
            "~nosuchuser/x",
            "~/x",
            "/tmp/x",
            "1234",
            "pbkdf2_sha256$1$00$00",
        ]
    ),
    st.text(max_size=30),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
entries = st.lists(
    st.tuples(
        st.one_of(st.sampled_from(KNOWN), st.tuples(st.text(max_size=8), st.text(max_size=8))),
        values,
    ),
    max_size=12,
)
nesting = st.integers(min_value=0, max_value=700)


def config_text(items: list[tuple[tuple[str, str], Any]], depth: int) -> str:
    by_section: dict[str, dict[str, Any]] = {}
    for (section, key), value in items:
        by_section.setdefault(section, {})[key] = value
    lines = []
    for section, keys in by_section.items():
        lines.append(f"[{toml_string(section)}]")
        lines.extend(f"{toml_string(k)} = {toml_value(v)}" for k, v in keys.items())
    if depth:
        lines.append("[deep]\nvalue = " + "[" * depth + "]" * depth)
    return "\n".join(lines) + "\n"


@pytest.fixture()
def quiet_launch(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """open_app as the kiosk runs it, minus the process-wide hooks a test must not install."""
    monkeypatch.setattr(launch, "install_sigterm_handler", lambda: None)
    monkeypatch.setattr(session, "install_excepthook", lambda save: None)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    yield
    pygame.display.quit()


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(items=entries, depth=nesting, garbage=st.one_of(st.none(), st.binary(max_size=40)))
def test_property_any_config_checks_cleanly_and_the_game_runs_100_frames(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    quiet_launch: None,
    items: list[tuple[tuple[str, str], Any]],
    depth: int,
    garbage: bytes | None,
) -> None:
    tmp = tmp_path_factory.mktemp("cfg")
    text = config_text(items, depth).encode("utf-8") + (garbage or b"")
    path = write(tmp, text)
    status = main.main(["--check-config", str(path)])  # any exception fails the test
    out = capsys.readouterr().out
    assert status in (0, 1)
    assert out.rstrip().endswith("OK" if status == 0 else "problem(s)")
    config, _ = load_config(path)
    app = launch.open_app(launch.LaunchOptions(config=path, state_dir=tmp / "s"))
    try:
        for _ in range(100):
            app.step()
        assert app.running
        assert app.table.model.game is not None
        assert app.settings.locale == config.game.locale
    finally:
        app.close()
        pygame.display.quit()
