"""The operator's config.toml: defaults, validation messages, fallbacks, the PIN hash."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from game.config import (
    EXIT_OPERATOR,
    RULES,
    Config,
    check_config_file,
    config_from_dict,
    default_config_path,
    effective_px_per_mm,
    hash_pin,
    load_config,
    verify_pin,
)

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "config.toml"


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`python -m game.config ARGS` with standard input (not a terminal) from `stdin`."""
    return subprocess.run(
        [sys.executable, "-m", "game.config", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


class TestShippedFile:
    def test_has_no_problems_and_matches_the_defaults(self) -> None:
        config, problems = load_config(SHIPPED)
        assert problems == []
        assert config == Config()

    def test_documents_every_key(self) -> None:
        text = SHIPPED.read_text(encoding="utf-8")
        lines = text.splitlines()
        for section, keys in RULES.items():
            assert f"[{section}]" in lines
            for key in keys:
                index = next(i for i, line in enumerate(lines) if line.startswith(f"{key} = "))
                assert lines[index - 1].startswith("#"), f"{section}.{key} has no comment"

    def test_schema_values(self) -> None:
        config = Config()
        assert (config.display.fullscreen, config.display.width, config.display.height) == (
            True,
            1280,
            800,
        )
        assert config.game.locale == "fi"
        assert config.game.default_game == "russian"
        assert config.game.undo_depth == 100
        assert config.input.double_tap_ms == 300
        assert config.defaults.double_tap and not config.defaults.auto_placement
        assert config.kiosk.lock is False
        assert config.kiosk.idle_attract_minutes == 3.0

    def test_config_is_frozen(self) -> None:
        with pytest.raises(AttributeError):
            Config().display.width = 3  # type: ignore[misc]


class TestFallbacks:
    def test_missing_file_gives_defaults_and_says_so(self, tmp_path: Path) -> None:
        config, problems = load_config(tmp_path / "nope.toml")
        assert config == Config()
        assert len(problems) == 1
        assert "nope.toml" in problems[0] and "not found" in problems[0]

    def test_unparsable_file_gives_defaults(self, tmp_path: Path) -> None:
        path = write(tmp_path, "[display]\nwidth = = 3\n")
        config, problems = load_config(path)
        assert config == Config()
        assert len(problems) == 1 and "not valid TOML" in problems[0]
        assert "line 2" in problems[0]

    def test_binary_garbage_gives_defaults(self, tmp_path: Path) -> None:
        path = tmp_path / "config.toml"
        path.write_bytes(b"\xff\xfe\x00garbage\x80")
        config, problems = load_config(path)
        assert config == Config()
        assert len(problems) == 1 and "not UTF-8 text" in problems[0]

    def test_directory_instead_of_file(self, tmp_path: Path) -> None:
        config, problems = load_config(tmp_path)
        assert config == Config()
        assert len(problems) == 1 and "cannot read" in problems[0]

    def test_empty_file_is_all_defaults_without_problems(self, tmp_path: Path) -> None:
        assert load_config(write(tmp_path, "")) == (Config(), [])

    def test_partial_file_keeps_other_defaults(self, tmp_path: Path) -> None:
        path = write(tmp_path, '[game]\nlocale = "ru"\n[kiosk]\nidle_attract_minutes = 0\n')
        config, problems = load_config(path)
        assert problems == []
        assert config.game.locale == "ru"
        assert config.kiosk.idle_attract_minutes == 0.0
        assert config.game.default_game == "russian"
        assert config.display == Config().display

    def test_good_keys_survive_beside_bad_ones(self, tmp_path: Path) -> None:
        path = write(tmp_path, "[display]\nwidth = 800\nheight = -1\nfullscreen = false\n")
        config, problems = load_config(path)
        assert (config.display.width, config.display.height) == (800, 800)
        assert config.display.fullscreen is False
        assert len(problems) == 1

    def test_int_accepted_for_float_keys(self, tmp_path: Path) -> None:
        config, problems = load_config(write(tmp_path, "[input]\ntap_slop_mm = 4\n"))
        assert problems == []
        assert config.input.tap_slop_mm == 4.0 and isinstance(config.input.tap_slop_mm, float)

    def test_settings_not_a_table(self) -> None:
        config, problems = config_from_dict(["x"])
        assert config == Config() and len(problems) == 1


# Each bad value: (section, key, TOML value, a word of the expected form, the default shown)
BAD_VALUES = [
    ("display", "fullscreen", '"yes"', "true or false", "true"),
    ("display", "width", "-5", "from 320 to 8192", "1280"),
    ("display", "width", "1280.5", "whole number", "1280"),
    ("display", "width", "true", "whole number", "1280"),
    ("display", "height", "99999", "from 240 to 8192", "800"),
    ("display", "px_per_mm", "0.5", "0 or a number from 1.0 to 50.0", "0.0"),
    ("display", "px_per_mm", "nan", "0 or a number", "0.0"),
    ("display", "rotate", "45", "one of 0, 90, 180, 270", "0"),
    ("game", "locale", '"de"', 'one of "fi", "ru", "en"', '"fi"'),
    ("game", "locale", '"FI"', 'one of "fi", "ru", "en"', '"fi"'),
    ("game", "default_game", '"klondike"', '"russian", "seahaven"', '"russian"'),
    ("game", "russian_rules", "1", '"classic", "relaxed"', '"classic"'),
    ("game", "russian_level", '"expert"', '"easy", "medium", "hard", "any"', '"easy"'),
    ("game", "seahaven_cells", "3", "one of 4, 2, 1", "4"),
    ("game", "winnable_only", "1", "true or false", "true"),
    ("game", "undo_depth", "-1", "0 (unlimited) or a whole number from 1 to 100", "100"),
    ("game", "undo_depth", "101", "0 (unlimited) or a whole number from 1 to 100", "100"),
    ("input", "double_tap_ms", "20", "from 100 to 1000", "300"),
    ("input", "tap_slop_mm", '"3mm"', "a number from 0.5 to 20.0", "3.0"),
    ("input", "drag_threshold_mm", "0", "a number from 0.5 to 20.0", "2.0"),
    ("input", "echo_ms", "-1", "from 0 to 2000", "400"),
    ("defaults", "double_tap", '"on"', "true or false", "true"),
    ("defaults", "auto_placement", "0", "true or false", "false"),
    ("kiosk", "lock", '"true"', "true or false", "false"),
    ("kiosk", "operator_pin_hash", '"1234"', "hash-pin", '""'),
    ("kiosk", "operator_pin_hash", '"pbkdf2_sha256$0$00$00"', "pbkdf2_sha256$", '""'),
    ("kiosk", "exit_press_seconds", "1", "from 2.0 to 30.0", "5.0"),
    ("kiosk", "idle_attract_minutes", "-3", "from 0.0 to 1440.0", "3.0"),
    ("kiosk", "idle_new_game_minutes", "[10]", "from 0.0 to 10080.0", "10.0"),
    ("kiosk", "log_dir", '"logs"', "absolute directory path", '""'),
    ("sound", "enabled", '"yes"', "true or false", "false"),
    ("sound", "enabled", "1", "true or false", "false"),
    ("sound", "volume", "1.5", "a number from 0.0 to 1.0", "0.6"),
    ("sound", "volume", "-0.1", "a number from 0.0 to 1.0", "0.6"),
    ("sound", "volume", '"loud"', "a number from 0.0 to 1.0", "0.6"),
]


@pytest.mark.parametrize(("section", "key", "value", "expected", "default"), BAD_VALUES)
def test_every_message_names_key_value_and_expected_form(
    tmp_path: Path, section: str, key: str, value: str, expected: str, default: str
) -> None:
    path = write(tmp_path, f"[{section}]\n{key} = {value}\n")
    config, problems = load_config(path)
    assert len(problems) == 1, problems
    message = problems[0]
    assert message.startswith(f"{section}.{key} = ")
    shown = message.split(" = ", 1)[1].split(": expected", 1)[0]
    if key == "operator_pin_hash":  # never echoed: it may be a PIN typed in by mistake
        assert shown.startswith("<hidden text of ") and value.strip('"') not in message
    elif value not in ("nan", "[10]"):
        assert shown == value
    assert expected in message
    assert message.endswith(f"using the default {default}")
    assert getattr(getattr(config, section), key) == getattr(getattr(Config(), section), key)


def test_unknown_keys_and_sections_are_reported_with_a_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, "[display]\nwidht = 800\n[kiosks]\nlock = true\n")
    config, problems = load_config(path)
    assert config == Config()
    assert any("display.widht" in p and "did you mean width?" in p for p in problems)
    assert any("[kiosks]" in p and "did you mean kiosk?" in p for p in problems)


def test_section_given_as_a_value(tmp_path: Path) -> None:
    config, problems = load_config(write(tmp_path, "display = 5\n"))
    assert config == Config()
    assert problems == [
        "display = 5: expected a section [display]; using the defaults for every key of [display]"
    ]


def test_lock_without_pin_is_a_problem(tmp_path: Path) -> None:
    config, problems = load_config(write(tmp_path, "[kiosk]\nlock = true\n"))
    assert config.kiosk.lock is True
    assert len(problems) == 1 and "kiosk.operator_pin_hash" in problems[0]


def test_lock_with_pin_is_fine(tmp_path: Path) -> None:
    stored = hash_pin("246813", iterations=100_000)
    path = write(tmp_path, f'[kiosk]\nlock = true\noperator_pin_hash = "{stored}"\n')
    config, problems = load_config(path)
    assert problems == []
    assert verify_pin("246813", config.kiosk.operator_pin_hash)


def test_check_config_file_reports_every_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, '[display]\nwidth = 1\n[game]\nlocale = "xx"\nundo_depth = 500\n')
    assert check_config_file(path) == 1
    out = capsys.readouterr().out
    assert "display.width = 1" in out
    assert 'game.locale = "xx"' in out
    assert "game.undo_depth = 500" in out
    assert "3 problem(s)" in out


def test_check_config_file_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_config_file(SHIPPED) == 0
    assert "OK" in capsys.readouterr().out


def test_check_config_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check_config_file(tmp_path / "missing.toml") == 1
    assert "not found" in capsys.readouterr().out


def test_default_path_follows_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOLITAIRE_CONFIG", raising=False)
    assert default_config_path() == SHIPPED
    monkeypatch.setenv("SOLITAIRE_CONFIG", str(tmp_path / "x.toml"))
    assert default_config_path() == tmp_path / "x.toml"


class TestPxPerMm:
    def test_configured_value_wins(self) -> None:
        config, _ = config_from_dict({"display": {"px_per_mm": 11.6}})
        assert effective_px_per_mm(config, 720, 1280) == 11.6

    @pytest.mark.parametrize(
        ("size", "expected"), [((800, 480), 5.2), ((720, 1280), 8.3), ((1920, 1080), 3.8)]
    )
    def test_estimate_from_screen_size(self, size: tuple[int, int], expected: float) -> None:
        assert effective_px_per_mm(Config(), *size) == pytest.approx(expected, abs=0.1)


class TestPin:
    def test_hash_format(self) -> None:
        stored = hash_pin("123456", bytes(range(16)), iterations=100_000)
        algorithm, iterations, salt, digest = stored.split("$")
        assert algorithm == "pbkdf2_sha256"
        assert iterations == "100000"
        assert salt == bytes(range(16)).hex()
        assert len(digest) == 64

    def test_verify_right_and_wrong(self) -> None:
        stored = hash_pin("902100", iterations=100_000)
        assert verify_pin("902100", stored)
        assert not verify_pin("902101", stored)
        assert not verify_pin("", stored)
        assert not verify_pin("90210", stored)

    def test_salt_makes_hashes_differ(self) -> None:
        assert hash_pin("123456", iterations=100_000) != hash_pin("123456", iterations=100_000)

    def test_default_iterations_are_strong(self) -> None:
        assert int(hash_pin("123456").split("$")[1]) >= 100_000

    @pytest.mark.parametrize("stored", ["", "1234", "pbkdf2_sha256$x$00$00", "md5$1$ab$cd"])
    def test_malformed_hash_matches_nothing(self, stored: str) -> None:
        assert not verify_pin("1234", stored)

    def test_tampered_iterations_do_not_match(self) -> None:
        stored = hash_pin("123456", iterations=100_000)
        assert verify_pin("123456", stored)
        assert not verify_pin("123456", stored.replace("$100000$", "$100001$"))

    @pytest.mark.parametrize(
        "pin", ["123", "1234", "12345", "abcdef", "123 456", "1234567890123", "١٢٣٤٥٦"]
    )
    def test_bad_pins_refused_with_the_reason(self, pin: str) -> None:
        with pytest.raises(ValueError, match="6 to 12 digits: 4 digits are only 10,000"):
            hash_pin(pin)

    @pytest.mark.process
    def test_cli_prints_a_config_line_that_verifies(self) -> None:
        result = run_cli("hash-pin", stdin="555555\n")
        assert result.returncode == 0, result.stderr
        line = result.stdout.strip()
        assert line.startswith('operator_pin_hash = "pbkdf2_sha256$')
        stored = line.split('"')[1]
        assert verify_pin("555555", stored)
        config, problems = config_from_dict({"kiosk": {"operator_pin_hash": stored}})
        assert problems == [] and config.kiosk.operator_pin_hash == stored

    @pytest.mark.process
    def test_cli_refuses_a_bad_pin(self) -> None:
        result = run_cli("hash-pin", stdin="2468\n")
        assert result.returncode == 2
        assert "a new PIN needs 6 to 12 digits: 4 digits are only 10,000" in result.stderr
        assert "2468" not in result.stderr
        assert result.stdout == ""


@pytest.mark.process
def test_cli_check_exit_status(tmp_path: Path) -> None:
    bad = write(tmp_path, "[game]\nundo_depth = -1\n")
    for path, status in ((SHIPPED, 0), (bad, 1)):
        result = run_cli("check", str(path))
        assert result.returncode == status, result.stdout


def test_operator_exit_code_matches_the_units() -> None:
    for unit in ("solitaire-kiosk.service", "solitaire-kiosk-cage.service"):
        text = (REPO / "kiosk" / unit).read_text(encoding="utf-8")
        assert f"RestartPreventExitStatus={EXIT_OPERATOR}" in text


@pytest.mark.process
def test_module_does_not_import_pygame() -> None:
    code = (
        "import sys, game.config, game.saves.storage, game.saves.stats, game.logs, "
        "game.saves.persist, game.saves.session; "
    )
    code += "assert 'pygame' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)


def test_undo_depth_zero_means_unlimited(tmp_path: Path) -> None:
    """Seed 003's unlimited undo: the operator writes 0, and it is no problem."""
    config, problems = load_config(write(tmp_path, "[game]\nundo_depth = 0\n"))
    assert problems == []
    assert config.game.undo_depth == 0


class TestSoundSection:
    """[sound]: the card sounds' defaults; off in the shipped file (a kiosk is silent until
    the operator or a player turns sound on)."""

    def test_shipped_sound_is_off(self) -> None:
        config, _ = load_config(SHIPPED)
        assert config.sound.enabled is False and config.sound.volume == 0.6

    @pytest.mark.parametrize(("text", "volume"), [("0", 0.0), ("1", 1.0), ("0.25", 0.25)])
    def test_accepted_values(self, tmp_path: Path, text: str, volume: float) -> None:
        path = write(tmp_path, f"[sound]\nenabled = true\nvolume = {text}\n")
        config, problems = load_config(path)
        assert problems == [] and config.sound.enabled and config.sound.volume == volume

    @pytest.mark.process
    def test_check_config_reports_bad_sound_keys(self, tmp_path: Path) -> None:
        path = write(tmp_path, '[sound]\nenabled = "on"\nvolume = 2\nvolum = 0.5\n')
        done = run_cli("check", str(path))  # the same check as main.py --check-config
        assert done.returncode == 1
        assert 'sound.enabled = "on": expected true or false' in done.stdout
        assert "sound.volume = 2: expected a number from 0.0 to 1.0" in done.stdout
        assert "sound.volum: unknown key" in done.stdout and "did you mean volume?" in done.stdout
        assert "3 problem(s)" in done.stdout
