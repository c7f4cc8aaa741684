"""Offensive initials: the list file (several hundred words, read defensively, a built-in core
when it is damaged), and the operator's own words from config.toml."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.arcade.initials import (
    BLOCKED_FILE,
    CORE,
    Blocklist,
    InitialsInput,
    is_valid_initials,
    read_words,
)
from game.config import config_from_dict, load_config
from game.launch import LaunchOptions, open_app
from game.scenes.initials import InitialsScene

pytestmark = pytest.mark.unit


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


def is_blocked(word: str) -> bool:
    return Blocklist().is_blocked(word)


# The ones the attack stored through the keypad, and Latin spellings of Finnish and Russian
# words a visitor would type.
REFUSED = [
    *("FGT", "NGA", "XUJ", "HYI", "HUI", "XUI", "XUY", "HUY", "HUJ", "XYU", "EBL", "EBU", "EBA"),
    *("PZD", "PIZ", "BLJ", "BLY", "BLD", "SUK", "CYK", "MDK", "PDR", "PIS", "PSK", "VIT", "VTU"),
    *("VTN", "KYR", "KRP", "MLK", "KUS", "PRS", "PRK", "STN", "KUK", "NIG", "FUK", "CNT"),
]


@pytest.mark.parametrize("word", REFUSED)
def test_refused_on_the_keypad(word: str) -> None:
    typed = InitialsInput()
    for letter in word.lower():
        typed.type(letter)
    assert typed.refused and not typed.ready


@pytest.mark.parametrize("word", ["ABC", "AAA", "KAI", "PER", "HER", "SAM", "ANA", "OLI", "MAX"])
def test_ordinary_initials_are_not(word: str) -> None:
    assert not is_blocked(word)


def test_the_list_holds_several_hundred_words() -> None:
    lines = BLOCKED_FILE.read_text(encoding="utf-8").splitlines()
    listed = {line for line in lines if line and not line.startswith("#")}
    assert len(listed) >= 300 and all(is_valid_initials(word) for word in listed)
    assert read_words(BLOCKED_FILE) == CORE | listed


def damage(path: Path, how: str) -> None:
    if how == "fifo":
        os.mkfifo(path)
    elif how == "directory":
        path.mkdir()
    elif how == "not utf-8":
        path.write_bytes(b"ABC\n\xff\xfe\xfa\n")
    elif how == "huge":
        path.write_bytes(b"ABC\n" * 100_000)
    elif how == "/dev/zero":
        path.symlink_to("/dev/zero")
    elif how == "empty":
        path.write_bytes(b"")


@pytest.mark.parametrize(
    "how", ["missing", "fifo", "directory", "not utf-8", "huge", "/dev/zero", "empty"]
)
def test_a_damaged_list_leaves_the_core(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "blocked_initials.txt"
    damage(path, how)
    with caplog.at_level(logging.WARNING, "solitaire"):
        assert read_words(path) == CORE  # a FIFO does not block the start either
    assert caplog.text.count("using the built-in list") == 1


def test_lines_that_are_not_words_are_skipped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "blocked_initials.txt"
    path.write_text("# a comment\nqqq\nQQ\nZZZZ  # too long\n\nXQX # a word\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING, "solitaire"):
        assert read_words(path) == CORE | {"QQQ", "XQX"}
    assert "2 lines" in caplog.text


def test_the_operators_words_are_checked() -> None:
    config, problems = config_from_dict({"arcade": {"blocked_initials": ["qqq", "XQX"]}})
    assert problems == [] and config.arcade.blocked_initials == ("QQQ", "XQX")
    for bad in (["AB"], ["ÄBC"], "QQQ", [1, 2, 3], ["A B"]):
        config, problems = config_from_dict({"arcade": {"blocked_initials": bad}})
        assert config.arcade.blocked_initials == ()
        assert len(problems) == 1 and problems[0].startswith("arcade.blocked_initials = ")
        assert "a list of three-letter words A-Z" in problems[0]
        assert problems[0].endswith("using the default []")


def test_the_operators_words_reach_the_keypad(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[arcade]\nblocked_initials = ["QQQ", "zzx"]\n', encoding="utf-8")
    assert load_config(config)[1] == []
    assert not is_blocked("QQQ")
    app = open_app(LaunchOptions(config=config, size=(800, 480), windowed=True, persist=False))
    blocked = app.arcade.blocked
    assert blocked.is_blocked("QQQ") and blocked.is_blocked("ZZX") and blocked.is_blocked("FGT")
    assert blocked.words() >= CORE
    app.scenes.open("initials")
    scene = app.scenes.top
    assert isinstance(scene, InitialsScene)
    keypad = scene.input
    for letter in "QQQ":
        keypad.type(letter)
    assert keypad.refused  # the keypad asks the arcade's list
    assert not is_blocked("QQQ")  # only this kiosk's: nothing global changed
