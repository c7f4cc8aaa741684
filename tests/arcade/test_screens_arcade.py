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

pytestmark = pytest.mark.app

OUT = Path(__file__).resolve().parents[2] / "out" / "screens" / "arcade"
DAY = dt.date(2026, 11, 30)
SCENES = ("attract-today", "attract-all", "attract-howto", "initials", "win", "newgame")
SCENES += ("operator", "entries", "settings")
SIZES = ((800, 480), (720, 1280))
LOCALES = ("fi", "ru", "en")
ROWS = (("VAL", 625, 422.0, 162), ("OLG", 625, 481.0, 154), ("ANA", 615, 370.0, 134))


def stored_wins(directory: Path, renamed: bool = False) -> Path:
    """``directory`` with a few wins of RU1-C in its tables, of all time and of ``DAY``
    (``renamed``: the same wins signed with other initials)."""
    scores = HighScores.open(directory, today=lambda: DAY)
    code = daily.deal_of_day("RU1-C", DAY)
    for initials, score, seconds, moves in ROWS:
        signed = initials[::-1] if renamed else initials
        scores.add(Entry(code, score, seconds, moves, signed, day=DAY.isoformat()))
    return directory


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return stored_wins(tmp_path_factory.mktemp("state"))


@pytest.fixture(scope="module")
def renamed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return stored_wins(tmp_path_factory.mktemp("renamed"), renamed=True)


# The screens that list the stored wins: their initials are on screen.
LISTS_WINS = ("attract-today", "attract-all", "entries", "scores")
SHOTS: dict[tuple[str, ...], bytes] = {}


def shot(state: Path, size: tuple[int, int], locale: str, scene: str | None) -> bytes:
    """The pixels ``main.py --screenshot`` draws of ``scene`` (None: the table alone); kept
    in out/screens/arcade/ when it is a scene."""
    key = (str(state), f"{size[0]}x{size[1]}", locale, scene or "table")
    if key not in SHOTS:
        name = f"{scene}-{key[1]}-{locale}.png" if scene else f"table-{key[1]}-{locale}.png"
        path = OUT / name if scene and state.name.startswith("state") else state / name
        argv = ["--state-dir", str(state), "--size", key[1], "--locale", locale]
        argv += ["--code", daily.deal_of_day("RU1-C", DAY), "--screenshot", str(path)]
        assert main.main([*argv, "--scene", scene] if scene else argv) == 0
        image = pygame.image.load(str(path))
        assert image.get_size() == size
        SHOTS[key] = pygame.image.tobytes(image, "RGB")
    return SHOTS[key]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", SCENES)
def test_arcade_screens_in_every_language(
    scene: str,
    size: tuple[int, int],
    state: Path,
    monkeypatch: pytest.MonkeyPatch,
    renamed: Path,
) -> None:
    """Each screen is drawn over the table (not the table alone), every language draws its own
    words (no two screenshots of a screen are the same), and the screens that list wins show
    the stored ones (signed with other initials, they look different), at the screen's size."""
    monkeypatch.setenv("SOLITAIRE_TODAY", DAY.isoformat())
    OUT.mkdir(parents=True, exist_ok=True)
    seen: dict[bytes, str] = {}
    for locale in LOCALES:
        pixels = shot(state, size, locale, scene)
        assert pixels not in seen, f"{scene}: {locale} looks the same as {seen.get(pixels)}"
        seen[pixels] = locale
        if locale != LOCALES[0]:
            continue  # what follows is the same in every language
        table_alone = pixels == shot(state, size, locale, None)
        assert not table_alone, f"{scene} ({locale}) shows the table alone"
        if scene in LISTS_WINS:
            initials_unseen = pixels == shot(renamed, size, locale, scene)
            assert not initials_unseen, f"{scene} ({locale}) shows no stored win's initials"


# The player's screens of issue 25 at the other two sizes too: the high scores (all four), the
# win and the new-game dialog (the two above have them).
MORE = ((1024, 600), (1920, 1080))
PLAYER = [("scores", size) for size in (*SIZES, *MORE)]
PLAYER += [(scene, size) for scene in ("win", "newgame") for size in MORE]


@pytest.mark.parametrize(("scene", "size"), PLAYER, ids=[f"{s}-{w}x{h}" for s, (w, h) in PLAYER])
def test_player_screens_in_every_language(
    scene: str,
    size: tuple[int, int],
    state: Path,
    monkeypatch: pytest.MonkeyPatch,
    renamed: Path,
) -> None:
    test_arcade_screens_in_every_language(scene, size, state, monkeypatch, renamed)


def test_a_screenshot_of_the_attract_screen_starts_no_solver_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo's search could not answer within the picture's frames: the picture is the same
    without the worker process it would cost (a second of CPU)."""
    import game.workers

    started: list[str] = []

    def no_pool() -> None:
        started.append("pool")
        raise OSError("no worker for a screenshot")  # the game goes on without one

    monkeypatch.setattr(game.workers, "_spawn_pool", no_pool)
    path = tmp_path / "attract.png"
    argv = ["--size", "800x480", "--screenshot", str(path), "--scene", "attract"]
    assert main.main([*argv, "--state-dir", str(tmp_path)]) == 0
    assert pygame.image.load(str(path)).get_size() == (800, 480)
    assert not started
