"""High scores that mean something (issue 38, item 10): a won Russian deal always scores 625, so
its table ranks by time, and an Easy win ranked above every slower Hard one. Wins now rank within
the level of their deal (read from the code: a file written before levels reads as it is), the
high scores have a page per level, time and moves stand side by side, and a table of a few wins
reads large at 800x480. Screenshots at four sizes in three languages: out/screens/scores/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from engine import catalog
from game.app import App
from game.arcade.highscores import Entry, HighScores, highscores_store
from game.arcade.levels import deal_level
from game.arcade.play import Arcade
from game.i18n import Translator
from game.look.png import save_png
from game.saves.prefs import PlayerSettings
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app

OUT = Path(__file__).resolve().parents[2] / "out" / "screens" / "scores"
LEVELS = catalog.load("RU1-C").levels
EASY, HARD = LEVELS["easy"], LEVELS["hard"]
RANDOM = "RU1-C-AAAAABB"  # no catalog deal


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


def win(code: str, seconds: float, moves: int = 120, initials: str = "ANA") -> Entry:
    return Entry(code, 625, seconds, moves, initials)


def test_the_levels_of_deals_come_from_the_catalogs() -> None:
    assert (deal_level(EASY[0]), deal_level(HARD[0]), deal_level(RANDOM)) == (
        "easy",
        "hard",
        "random",
    )
    assert deal_level(catalog.load("SH1-C4").levels["hard"][0]) == "winnable"
    assert deal_level("not a code") == "random"


def test_the_level_names_are_one_set_the_config_the_catalogs_and_the_tables_share() -> None:
    """config.toml's russian_level (and the new-game dialog) offers the catalog levels and
    "any"; the high-score pages order every level a deal can have, easiest first."""
    from engine.search.levels import LEVELS as GRADED
    from game.arcade.levels import LEVELED, ORDER
    from game.config_rules import LEVELS

    assert LEVELED == GRADED == LEVELS[:3] and LEVELS[3:] == ("any",)
    assert ORDER[:3] == LEVELED and ORDER[3:] == ("winnable", "random")


def test_a_hard_win_ranks_among_hard_wins_not_behind_faster_easy_ones(tmp_path: Path) -> None:
    scores = HighScores(highscores_store(tmp_path), size=3)
    for k in range(3):  # three quick Easy wins fill the Easy table
        assert scores.add(win(EASY[k], 100.0 + k)).all_time == k + 1
    rank = scores.add(win(HARD[0], 900.0, initials="HRD"))  # slower than all: still first
    assert rank.all_time == 1
    assert [e.code for e in scores.table("RU1-C", level="hard")] == [HARD[0]]
    assert [e.code for e in scores.table("RU1-C", level="easy")] == EASY[:3]
    assert scores.add(win(EASY[3], 500.0)).all_time is None  # the Easy table is full
    assert scores.levels("RU1-C") == ["easy", "hard"]
    reread = HighScores(highscores_store(tmp_path), size=3)  # saved, and read back the same
    assert reread.table("RU1-C", level="hard") == scores.table("RU1-C", level="hard")
    assert len(reread.table("RU1-C")) == 4


def test_a_file_from_before_levels_reads_by_level(tmp_path: Path) -> None:
    """The old file: one all-time list per rule set, no level anywhere. Every entry is kept
    and ranked within its level; a table shrunk to 2 keeps the best 2 of each level."""
    rows = [
        {"code": code, "score": 625, "seconds": 60.0 * (k + 1), "moves": 100, "initials": "OLD"}
        for k, code in enumerate([EASY[0], EASY[1], EASY[2], HARD[0], RANDOM])
    ]
    path = tmp_path / "highscores.json"
    old = {"format": "highscores", "version": 1, "saved": "2026-11-30T10:00:00Z"}
    path.write_text(json.dumps({**old, "data": {"tables": {"RU1-C": {"all": rows}}}}), "utf-8")
    scores = HighScores(highscores_store(tmp_path), size=2)
    assert [e.code for e in scores.table("RU1-C", level="easy")] == EASY[:2]
    assert [e.code for e in scores.table("RU1-C", level="hard")] == [HARD[0]]
    assert [e.code for e in scores.table("RU1-C", level="random")] == [RANDOM]
    assert scores.rank_of(win(HARD[1], 1.0)).all_time == 1


def scores_app(size: tuple[int, int], locale: str, wins: list[Entry]) -> App:
    app = make_app(EASY[5], size, settings=PlayerSettings(locale=locale))
    arcade: Arcade = app.arcade
    for entry in wins:
        arcade.scores.add(entry)
    app.scenes.open("scores")
    app.step()
    return app


def easy_page(app: App) -> object:
    """The Easy all-time page of classic Russian Solitaire, shown; its board."""
    scene = app.scenes.top
    scene.page = scene.pages.index(("RU1-C", "all", "easy"))  # type: ignore[attr-defined]
    scene.rebuild()  # type: ignore[attr-defined]
    return scene.board  # type: ignore[attr-defined]


def test_the_high_scores_have_a_page_per_level_with_time_and_moves_side_by_side() -> None:
    app = scores_app((800, 480), "en", [win(EASY[0], 75.0, 88, "EZY"), win(HARD[0], 430.0, 151)])
    scene = app.scenes.top  # type: ignore[attr-defined]
    ru = [page for page in scene.pages if page[0] == "RU1-C"]
    assert ru == [("RU1-C", "today", None), ("RU1-C", "all", "easy"), ("RU1-C", "all", "hard")]
    tr = Translator("en")
    seen = {}
    for _ in range(len(scene.pages)):
        key, showing, level = scene.pages[scene.page]
        seen[(key, showing, level)] = list(scene.board.texts)
        scene.next()
    easy, hard = seen[("RU1-C", "all", "easy")], seen[("RU1-C", "all", "hard")]
    assert easy[1] == f"{tr('stats.RU1-C')} · {tr('names.easy')}"
    assert hard[1] == f"{tr('stats.RU1-C')} · {tr('names.hard')}"
    assert easy[2:] == ["1. EZY 1:15 88 625"] and hard[2:] == ["1. ANA 7:10 151 625"]
    assert seen[("SH1-C4", "all", "winnable")][2:] == [tr("arcade.empty_all")]


def test_a_few_wins_read_large_at_800x480_and_a_full_table_fits() -> None:
    """Three wins: rows of a large finger's height and text twice the info bar's; ten: every
    row on the board, text no smaller than the info bar's."""
    few = scores_app((800, 480), "en", [win(EASY[k], 60.0 + k) for k in range(3)])
    board = easy_page(few)
    least = few.table.model.layout.text_size
    assert board.row_h >= 40 and board.text_size >= 2 * least - 2
    full = scores_app((800, 480), "en", [win(EASY[k], 60.0 + k) for k in range(10)])
    board = easy_page(full)
    assert board.text_size >= full.table.model.layout.text_size
    assert len(board.texts) == 2 + 10  # title, subtitle, every row
    assert board.image.get_height() <= 480


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280), (1920, 1080)])
def test_high_score_screenshots(size: tuple[int, int]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    w, h = size
    wins = [win(EASY[k], 61.0 * (k + 1), 90 + k, ("ANA", "OLG", "KIM")[k % 3]) for k in range(4)]
    wins.append(win(HARD[0], 1234.0, 201, "HRD"))
    for locale in ("en", "fi", "ru"):
        app = scores_app(size, locale, wins)
        scene = app.scenes.top  # type: ignore[attr-defined]
        scene.page = scene.pages.index(("RU1-C", "all", "easy"))
        scene.rebuild()
        app.full_redraw = True
        app.draw()
        save_png(app.screen, str(OUT / f"scores-{w}x{h}-{locale}.png"))
        assert scene.board_rect.bottom <= min(c.rect.top for c in scene.controls)
        app.close()
