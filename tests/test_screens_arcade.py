"""Screenshots of the arcade screens for people to look at (out/screens/arcade/, ignored by git):
today's best, the all-time table, how to play, the initials keypad, the win screen, the new-game
dialog, the operator menu and its list of entries, and the settings (sound), at the small and
the portrait kiosk screens in every language, with a few stored high scores. Each is drawn by
``main.py --screenshot``, as a maintainer would."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pygame
import pytest

import main
from engine import daily
from game.arcade.highscores import Entry, HighScores

OUT = Path(__file__).resolve().parent.parent / "out" / "screens" / "arcade"
DAY = dt.date(2026, 11, 30)
SCENES = ("attract-today", "attract-all", "attract-howto", "initials", "win", "newgame")
SCENES += ("operator", "entries", "settings")
SIZES = ((800, 480), (720, 1280))
LOCALES = ("fi", "ru", "en")
ROWS = (("VAL", 625, 422.0, 162), ("OLG", 625, 481.0, 154), ("ANA", 615, 370.0, 134))


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A state directory whose tables hold a few wins of RU1-C, of all time and of ``DAY``."""
    directory = tmp_path_factory.mktemp("state")
    scores = HighScores.open(directory, today=lambda: DAY)
    code = daily.deal_of_day("RU1-C", DAY)
    for initials, score, seconds, moves in ROWS:
        scores.add(Entry(code, score, seconds, moves, initials, day=DAY.isoformat()))
    return directory


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", SCENES)
def test_arcade_screens_in_every_language(
    scene: str, size: tuple[int, int], state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every language draws its own words (no two screenshots of a screen are the same), at
    the screen's size."""
    monkeypatch.setenv("SOLITAIRE_TODAY", DAY.isoformat())
    OUT.mkdir(parents=True, exist_ok=True)
    code = daily.deal_of_day("RU1-C", DAY)
    seen: dict[bytes, str] = {}
    for locale in LOCALES:
        shot = OUT / f"{scene}-{size[0]}x{size[1]}-{locale}.png"
        argv = ["--state-dir", str(state), "--size", f"{size[0]}x{size[1]}", "--code", code]
        argv += ["--scene", scene, "--locale", locale, "--screenshot", str(shot)]
        assert main.main(argv) == 0
        image = pygame.image.load(str(shot))
        assert image.get_size() == size
        pixels = pygame.image.tobytes(image, "RGB")
        assert pixels not in seen, f"{scene}: {locale} looks the same as {seen.get(pixels)}"
        seen[pixels] = locale


# The player's screens of issue 25 at the other two sizes too: the high scores (all four), the
# win and the new-game dialog (the two above have them).
MORE = ((1024, 600), (1920, 1080))
PLAYER = [("scores", size) for size in (*SIZES, *MORE)]
PLAYER += [(scene, size) for scene in ("win", "newgame") for size in MORE]


@pytest.mark.parametrize(("scene", "size"), PLAYER, ids=[f"{s}-{w}x{h}" for s, (w, h) in PLAYER])
def test_player_screens_in_every_language(
    scene: str, size: tuple[int, int], state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    test_arcade_screens_in_every_language(scene, size, state, monkeypatch)
