"""Durable saves: atomic writes that survive a crash, bad files moved aside, player settings."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from game.config import config_from_dict
from game.saves import storage
from game.saves.prefs import PlayerSettings, load_prefs, save_prefs
from game.saves.storage import (
    KEEP_ASIDE,
    JsonStore,
    autosave_store,
    settings_store,
    state_dir,
    stats_store,
)

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]
GAME = {"game": {"code": "RU1-C-AAAAABB", "columns": [["4C"], ["#KD", "7H"]], "moves": 3}}


def store(tmp_path: Path) -> JsonStore:
    return JsonStore(tmp_path / "autosave.json", kind="autosave", version=1)


class TestStateDir:
    def test_systemd_wins(self) -> None:
        env = {
            "STATE_DIRECTORY": "/var/lib/solitaire-kiosk:/var/lib/other",
            "SOLITAIRE_STATE_DIR": "/x",
            "XDG_STATE_HOME": "/y",
        }
        assert state_dir(env) == Path("/var/lib/solitaire-kiosk")

    def test_explicit_then_xdg_then_home(self) -> None:
        assert state_dir({"SOLITAIRE_STATE_DIR": "/x", "XDG_STATE_HOME": "/y"}) == Path("/x")
        assert state_dir({"XDG_STATE_HOME": "/y"}) == Path("/y/solitaire-kiosk")
        home = Path.home() / ".local" / "state" / "solitaire-kiosk"
        assert state_dir({}) == home
        assert state_dir({"XDG_STATE_HOME": "relative"}) == home

    def test_named_stores_live_in_the_state_dir(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.delenv("STATE_DIRECTORY", raising=False)
        monkeypatch.setenv("SOLITAIRE_STATE_DIR", str(tmp_path))
        assert autosave_store().path == tmp_path / "autosave.json"
        assert settings_store().path == tmp_path / "settings.json"
        assert stats_store().path == tmp_path / "stats.json"


class TestSaveLoad:
    def test_round_trip(self, tmp_path: Path) -> None:
        s = store(tmp_path)
        assert s.load() is None
        assert s.save(GAME)
        assert s.load() == GAME
        envelope = json.loads(s.path.read_text(encoding="utf-8"))
        assert envelope["format"] == "autosave" and envelope["version"] == 1
        assert envelope["data"] == GAME

    def test_creates_the_directory(self, tmp_path: Path) -> None:
        s = JsonStore(tmp_path / "a" / "b" / "stats.json", kind="stats", version=1)
        assert s.save({"x": 1})
        assert s.load() == {"x": 1}

    def test_overwrite_keeps_only_the_newest(self, tmp_path: Path) -> None:
        s = store(tmp_path)
        for moves in range(5):
            assert s.save({"moves": moves})
        assert s.load() == {"moves": 4}
        assert sorted(p.name for p in tmp_path.iterdir()) == ["autosave.json"]

    def test_unicode_survives(self, tmp_path: Path) -> None:
        s = store(tmp_path)
        assert s.save({"locale": "ru", "name": "Русский пасьянс ♠"})
        assert s.load() == {"locale": "ru", "name": "Русский пасьянс ♠"}

    def test_fsyncs_file_before_replace_and_directory_after(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        events: list[str] = []
        real_fsync, real_replace = os.fsync, os.replace

        def fsync(fd: int) -> None:
            target = os.readlink(f"/proc/self/fd/{fd}")
            events.append("fsync-dir" if os.path.isdir(target) else "fsync-file")
            real_fsync(fd)

        def replace(src: str, dst: str) -> None:
            events.append("replace")
            real_replace(src, dst)

        monkeypatch.setattr(storage.os, "fsync", fsync)
        monkeypatch.setattr(storage.os, "replace", replace)
        assert store(tmp_path).save(GAME)
        assert events == ["fsync-file", "replace", "fsync-dir"]

    def test_not_json_ready_data_is_refused_and_old_kept(self, tmp_path: Path) -> None:
        s = store(tmp_path)
        assert s.save(GAME)
        assert not s.save({"elapsed": float("nan")})
        assert not s.save({"cards": {1, 2}})
        assert s.load() == GAME

    def test_unwritable_place_returns_false(self, tmp_path: Path) -> None:
        (tmp_path / "file").write_text("x")
        s = JsonStore(tmp_path / "file" / "autosave.json", kind="autosave", version=1)
        assert s.save(GAME) is False
        assert s.load() is None

    def test_clear(self, tmp_path: Path) -> None:
        s = store(tmp_path)
        s.save(GAME)
        s.clear()
        assert s.load() is None
        s.clear()  # twice is fine


class TestCrashDuringWrite:
    def test_failure_between_temp_write_and_replace_keeps_old_file(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        s = store(tmp_path)
        assert s.save({"moves": 1})

        def crash(src: str, dst: str) -> None:
            raise OSError(5, "simulated power cut")

        monkeypatch.setattr(storage.os, "replace", crash)
        assert s.save({"moves": 2}) is False
        monkeypatch.undo()
        assert s.load() == {"moves": 1}
        assert [p.name for p in tmp_path.iterdir()] == ["autosave.json"]

    @pytest.mark.process
    def test_process_killed_between_temp_write_and_replace(self, tmp_path: Path) -> None:
        """A real process dies after writing the temporary file and before the rename."""
        s = store(tmp_path)
        assert s.save({"moves": 1})
        child = f"""
import os, sys
from pathlib import Path
from game.saves import storage
from game.config import config_from_dict
from game.saves.prefs import PlayerSettings, load_prefs, save_prefs
storage.os.replace = lambda src, dst: os._exit(9)
storage.JsonStore(Path({str(s.path)!r}), kind="autosave", version=1).save({{"moves": 2}})
sys.exit(0)
"""
        result = subprocess.run([sys.executable, "-c", child], cwd=REPO, check=False)
        assert result.returncode == 9
        leftovers = [p.name for p in tmp_path.iterdir() if p.name != "autosave.json"]
        assert len(leftovers) == 1 and leftovers[0].startswith(".autosave.json.tmp")
        assert s.load() == {"moves": 1}
        assert [p.name for p in tmp_path.iterdir()] == ["autosave.json"]  # temp cleaned up


def _valid_bytes(tmp_path: Path) -> bytes:
    s = JsonStore(tmp_path / "model.json", kind="autosave", version=1)
    s.save(GAME)
    return s.path.read_bytes()


BAD_FILES = {
    "empty": lambda valid: b"",
    "whitespace": lambda valid: b"  \n",
    "truncated": lambda valid: valid[: len(valid) // 2],
    "truncated_one_byte": lambda valid: valid[:-1],
    "not_json": lambda valid: b"hello, this is not json",
    "binary": lambda valid: bytes(range(256)),
    "list": lambda valid: b"[1, 2, 3]",
    "no_envelope": lambda valid: json.dumps(GAME).encode(),
    "wrong_kind": lambda valid: valid.replace(b'"autosave"', b'"stats"'),
    "wrong_version": lambda valid: valid.replace(b'"version":1', b'"version":2'),
    "version_true": lambda valid: valid.replace(b'"version":1', b'"version":true'),
    "no_data": lambda valid: b'{"format":"autosave","version":1}',
    "deep": lambda valid: b"[" * 100_000,
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_file_is_moved_aside_and_logged(
    tmp_path: Path, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    content = BAD_FILES[case](_valid_bytes(tmp_path))
    s = store(tmp_path)
    s.path.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="solitaire.storage"):
        assert s.load() is None
    assert not s.path.exists()
    aside = s.aside_files()
    assert len(aside) == 1
    assert aside[0].name.startswith("autosave.json.bad-")
    assert aside[0].read_bytes() == content
    assert "unusable" in caplog.text and aside[0].name in caplog.text
    # The next start finds no save and starts fresh; a new save works.
    assert s.load() is None
    assert s.save(GAME) and s.load() == GAME


def test_wrong_version_message_names_both_versions(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    JsonStore(tmp_path / "autosave.json", kind="autosave", version=2).save(GAME)
    with caplog.at_level(logging.WARNING):
        assert store(tmp_path).load() is None
    assert "format version 2, expected 1" in caplog.text


def test_directory_in_place_of_the_file(tmp_path: Path) -> None:
    s = store(tmp_path)
    s.path.mkdir()
    assert s.load() is None
    assert not s.path.exists()
    assert s.save(GAME) and s.load() == GAME


def test_caller_can_move_aside_data_it_cannot_use(tmp_path: Path) -> None:
    s = store(tmp_path)
    s.save({"game": "nonsense"})
    target = s.move_aside("the game does not load")
    assert target is not None and target.exists()
    assert s.load() is None


def test_only_a_few_bad_copies_are_kept(tmp_path: Path) -> None:
    s = store(tmp_path)
    for i in range(KEEP_ASIDE + 4):
        s.path.write_text(f"garbage {i}")
        assert s.load() is None
    aside = s.aside_files()
    assert len(aside) == KEEP_ASIDE
    assert aside[-1].read_text() == f"garbage {KEEP_ASIDE + 3}"


class TestPrefs:
    """The player's settings (game.saves.prefs) are kept through this module."""

    def test_defaults_come_from_config(self, tmp_path: Path) -> None:
        config, _ = config_from_dict({"defaults": {"double_tap": False}, "game": {"locale": "ru"}})
        prefs = load_prefs(config, tmp_path)
        assert prefs.double_tap is False and prefs.locale == "ru"
        assert prefs.placement_help is True

    def test_saved_choice_wins_over_config(self, tmp_path: Path) -> None:
        config, _ = config_from_dict({})
        chosen = replace(PlayerSettings.from_config(config), auto_placement=True, locale="en")
        assert save_prefs(chosen, config, tmp_path)
        assert load_prefs(config, tmp_path) == chosen

    def test_untouched_settings_follow_a_changed_default(self, tmp_path: Path) -> None:
        config, _ = config_from_dict({})
        save_prefs(
            replace(PlayerSettings.from_config(config), auto_placement=True), config, tmp_path
        )
        changed, _ = config_from_dict({"defaults": {"placement_help": False}})
        prefs = load_prefs(changed, tmp_path)
        assert prefs.auto_placement is True
        assert prefs.placement_help is False

    def test_damaged_entries_fall_back(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        settings_store(tmp_path).save(
            {"double_tap": "yes", "locale": "xx", "placement_help": False, "junk": 1}
        )
        config, _ = config_from_dict({})
        with caplog.at_level(logging.WARNING):
            prefs = load_prefs(config, tmp_path)
        assert prefs == PlayerSettings(placement_help=False)
        assert "double_tap" in caplog.text and "locale" in caplog.text

    def test_damaged_file_is_moved_aside(self, tmp_path: Path) -> None:
        path = tmp_path / "settings.json"
        path.write_text('{"format": "settings", "version": 1, "data": {"double_tap": ')
        config, _ = config_from_dict({"game": {"locale": "ru"}})
        assert load_prefs(config, tmp_path) == PlayerSettings.from_config(config)
        assert len(settings_store(tmp_path).aside_files()) == 1

    def test_not_an_object(self, tmp_path: Path) -> None:
        settings_store(tmp_path).save([1, 2])
        config, _ = config_from_dict({})
        assert load_prefs(config, tmp_path) == PlayerSettings.from_config(config)


def test_the_settings_file_form_names_every_setting() -> None:
    """game.saves.prefs.PrefsDict, the typed form of settings.json, has one key per setting: a new
    setting cannot be saved untyped."""
    from dataclasses import fields

    from game.saves.prefs import PlayerSettings, PrefsDict

    assert PrefsDict.__required_keys__ == {f.name for f in fields(PlayerSettings)}
    assert set(PlayerSettings().to_dict()) == PrefsDict.__required_keys__
