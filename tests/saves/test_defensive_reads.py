"""Each file reader of the game, one damage at a time (issue 22): special files are refused
without blocking, a damaged font or locale falls back with one log line, a state file holds
nothing the game cannot write back, counters stay readable, a clock set back deletes no high
scores, and a log that cannot be written says so once. The whole game started on each damaged
file is in test_hostile_files.py."""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import resource
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pygame
import pytest

from engine import Game
from engine.catalog_file import CatalogError
from engine.catalog_file import load as load_catalog_file
from engine.safe_read import NotAFileError, TooLargeError, read_bytes
from game.arcade.highscores import KEEP_DAYS, Entry, HighScores, highscores_store
from game.config import load_config
from game.i18n import Translator
from game.logs import setup_logging
from game.look import fonts
from game.saves.persist import Autosave, load_stats, save_stats
from game.saves.stats import Stats
from game.saves.storage import MAX_COUNT, JsonStore, autosave_store, settings_store
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)

pytestmark = pytest.mark.app

REPO = Path(__file__).resolve().parents[2]


@contextmanager
def no_hang(seconds: int = 5) -> Iterator[None]:
    """A read that blocks (a FIFO with no writer) fails the test instead of hanging it."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"blocked for {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def memory_cap(extra: int = 1 << 29) -> Iterator[None]:
    """At most ``extra`` more bytes of address space: a reader that reads /dev/zero to the end
    fails with MemoryError instead of eating the machine's memory."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    used = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (used + extra, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


# ---------------------------------------------------------------------------------- item 3


class TestSafeRead:
    def test_a_regular_file_is_read_whole(self, tmp_path: Path) -> None:
        (tmp_path / "f").write_bytes(b"abc")
        assert read_bytes(tmp_path / "f", 3) == b"abc"

    @pytest.mark.parametrize("kind", ["fifo", "directory", "/dev/zero", "/dev/null"])
    def test_anything_but_a_regular_file_is_refused_at_once(
        self, tmp_path: Path, kind: str
    ) -> None:
        path = tmp_path / "f"
        if kind == "fifo":
            fifo(path)
        elif kind == "directory":
            path.mkdir()
        else:
            path.symlink_to(kind)
        with no_hang(), pytest.raises(NotAFileError) as refused:
            read_bytes(path, 1000)
        assert "not a regular file" in str(refused.value) and str(path) in str(refused.value)

    def test_more_than_the_limit_is_refused(self, tmp_path: Path) -> None:
        (tmp_path / "f").write_bytes(b"x" * 101)
        with pytest.raises(TooLargeError, match="101 bytes, more than the limit of 100"):
            read_bytes(tmp_path / "f", 100)

    def test_a_missing_file_is_file_not_found(self, tmp_path: Path) -> None:
        with pytest.raises(FileNotFoundError):
            read_bytes(tmp_path / "none", 10)


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_state_file_that_is_a_special_file_is_moved_aside(
    tmp_path: Path, special: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "autosave.json"
    fifo(path) if special == "fifo" else path.symlink_to(special)
    with no_hang(), memory_cap(), caplog.at_level(logging.WARNING, logger="solitaire"):
        assert Autosave(autosave_store(tmp_path)).load() is None
    assert not os.path.lexists(path) and list(tmp_path.glob("autosave.json.bad-*"))
    kind = "a FIFO" if special == "fifo" else "a character device"
    assert f"autosave.json is unusable ({kind}, not a regular file); moved aside" in caplog.text
    assert Autosave(autosave_store(tmp_path)).save(Game.from_code("RU1-C-AAAAABB"), 1.0)


def test_a_fifo_config_falls_back_to_the_defaults(tmp_path: Path) -> None:
    with no_hang():
        config, problems = load_config(fifo(tmp_path / "config.toml"))
    assert config.display.width > 0
    assert problems == [
        f"cannot read config file {tmp_path / 'config.toml'} (a FIFO, not a regular file); "
        "using the defaults"
    ]


def test_a_fifo_catalog_is_a_damaged_catalog(tmp_path: Path) -> None:
    fifo(tmp_path / "RU1-C.txt")
    with no_hang(), pytest.raises(CatalogError, match="a FIFO, not a regular file"):
        load_catalog_file("RU1-C", tmp_path)


# ---------------------------------------------------------------------------------- item 2


@pytest.fixture
def font_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The regular font's path, pointing into tmp_path (caches emptied before and after)."""
    path = tmp_path / "DejaVuSans.ttf"
    monkeypatch.setattr(fonts, "FONT_REGULAR", path)
    fonts.forget_fonts()
    yield path
    fonts.forget_fonts()


def damage_font(path: Path, damage: str) -> None:
    real = (REPO / "assets" / "fonts" / "DejaVuSans.ttf").read_bytes()
    if damage == "empty":
        path.write_bytes(b"")
    elif damage == "garbage":
        path.write_bytes(b"\x00\xff garbage \x80" * 300)
    elif damage == "fifo":
        fifo(path)
    elif damage == "truncated":
        path.write_bytes(real[:4000])


SUITS = "♠♥♦♣"


@pytest.mark.parametrize("damage", ["missing", "empty", "garbage", "fifo", "truncated"])
def test_a_damaged_font_falls_back_to_the_other_shipped_font_with_one_log_line(
    font_file: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 22 item 2: the suit symbols still show (in the bold font) where the regular font
    is damaged; before, pygame's default font drew them as boxes."""
    damage_font(font_file, damage)
    pygame.font.init()
    with no_hang(), caplog.at_level(logging.INFO, logger="solitaire"):
        made = [fonts.font(size) for size in (12, 20, 30)]
        surfaces = [f.render("Hello 7", True, (0, 0, 0)) for f in made]
    assert all(s.get_width() > 10 for s in surfaces)
    assert all(fonts.has_glyphs(f, SUITS) for f in made)
    assert not fonts.has_glyphs(pygame.font.Font(None, 30), SUITS)  # the check can fail
    lines = [r for r in caplog.records if "DejaVuSans.ttf" in r.getMessage()]
    assert len(lines) == 1 and lines[0].name.startswith("solitaire.")
    assert "using DejaVuSans-Bold.ttf" in lines[0].getMessage()


def test_with_both_fonts_damaged_pygames_font_stands_in(
    font_file: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    bold = font_file.with_name("DejaVuSans-Bold.ttf")
    monkeypatch.setattr(fonts, "FONT_BOLD", bold)
    damage_font(font_file, "garbage")
    damage_font(bold, "truncated")
    pygame.font.init()
    with no_hang(), caplog.at_level(logging.INFO, logger="solitaire"):
        surfaces = [
            fonts.font(size, b).render("Hello 7", True, (0, 0, 0))
            for size in (12, 30)
            for b in (False, True)
        ]
    assert all(s.get_width() > 10 for s in surfaces)
    said = [r.getMessage() for r in caplog.records if "unusable" in r.getMessage()]
    assert len(said) == 2 and all("using pygame's default font" in line for line in said), said


def test_the_shipped_font_is_still_used(font_file: Path) -> None:
    font_file.write_bytes((REPO / "assets" / "fonts" / "DejaVuSans.ttf").read_bytes())
    pygame.font.init()
    shipped = fonts.font(30).render("♠♥", True, (0, 0, 0))
    fallback = pygame.font.Font(None, 30).render("♠♥", True, (0, 0, 0))
    assert pygame.image.tobytes(shipped, "RGBA") != pygame.image.tobytes(fallback, "RGBA")


@pytest.fixture
def locales(tmp_path: Path) -> Path:
    for name in ("en", "fi", "ru"):
        source = REPO / "assets" / "locales" / f"{name}.toml"
        (tmp_path / f"{name}.toml").write_bytes(source.read_bytes())
    return tmp_path


def test_one_byte_not_utf8_in_ru_toml_falls_back_to_english_when_a_visitor_taps_russian(
    locales: Path, caplog: pytest.LogCaptureFixture
) -> None:
    text = (locales / "ru.toml").read_bytes()
    (locales / "ru.toml").write_bytes(text.replace("Новая".encode(), b"\xcd\xee\xe2\xe0\xff", 1))
    tr = Translator("en", directory=locales)
    with caplog.at_level(logging.INFO, logger="solitaire"):
        assert tr.set_locale("ru")
        shown = [tr("buttons.new"), tr("table.moves", count=3), tr("settings.title")]
        tr.set_locale("en")
        tr.set_locale("ru")  # tapped again: nothing more in the log
    assert shown == [
        Translator("en", directory=locales)(k, count=3)
        for k in ("buttons.new", "table.moves", "settings.title")
    ]
    assert [r.name for r in caplog.records] == ["solitaire.i18n"]
    assert "ru.toml: not UTF-8 text" in caplog.text and "showing English strings" in caplog.text


def test_a_damaged_english_file_shows_the_keys(
    locales: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (locales / "en.toml").write_bytes(b"\xff\xfe" + "[menu]".encode("utf-16-le"))
    with caplog.at_level(logging.INFO, logger="solitaire"):
        tr = Translator("en", directory=locales)
        assert tr("buttons.new") == "buttons.new"
        assert tr.set_locale("fi") and tr("buttons.new") != "buttons.new"
    assert len(caplog.records) == 1 and "en.toml" in caplog.text


# ---------------------------------------------------------------------------------- item 6

SURROGATE_FILES: dict[str, Callable[[Path], object]] = {
    "autosave": lambda d: Autosave(autosave_store(d)).load(),
    "settings": lambda d: settings_store(d).load(),
    "stats": lambda d: load_stats(d),
    "highscores": lambda d: HighScores.open(d),
}


@pytest.mark.parametrize("kind", list(SURROGATE_FILES))
def test_a_lone_surrogate_in_a_state_file_moves_it_aside(tmp_path: Path, kind: str) -> None:
    data: dict[str, object] = {"note": "\udc00"}
    if kind == "highscores":
        data = {"tables": {"RU1-C": {"all": [{"code": "RU1-C-AAAAABB", "when": "\udc00"}]}}}
    elif kind == "autosave":  # a real save whose table flags hold the surrogate
        Autosave(autosave_store(tmp_path)).save(Game.from_code("RU1-C-AAAAABB"), 1.0)
        data = json.loads((tmp_path / "autosave.json").read_text())["data"]
        data["meta"] = {"note": "\udc00"}
    store = JsonStore(tmp_path / f"{kind}.json", kind=kind, version=1)
    envelope = {"format": kind, "version": 1, "saved": "x", "data": data}
    store.path.write_text(json.dumps(envelope), encoding="ascii")  # "\udc00" as an escape
    SURROGATE_FILES[kind](tmp_path)
    assert not store.path.exists() and store.aside_files()


def test_a_surrogate_in_a_high_score_no_longer_blocks_every_later_save(tmp_path: Path) -> None:
    entry = {"code": "RU1-C-AAAAABB", "score": 500, "seconds": 90.0, "moves": 99}
    envelope = {"format": "highscores", "version": 1, "saved": "x", "data": {}}
    envelope["data"] = {"tables": {"RU1-C": {"all": [{**entry, "when": "\udc00"}]}}}
    (tmp_path / "highscores.json").write_text(json.dumps(envelope), encoding="ascii")
    table = HighScores.open(tmp_path)
    table.add(Entry(code="RU1-C-AAAAABB", score=600, seconds=80.0, moves=90))
    again = HighScores.open(tmp_path)
    assert [e.score for e in again.table("RU1-C")] == [600]  # the win was saved


# ---------------------------------------------------------------------------------- item 10


def test_an_autosave_seq_at_the_readers_limit_stays_readable(tmp_path: Path) -> None:
    game = Game.from_code("RU1-C-AAAAABB")
    Autosave(autosave_store(tmp_path)).save(game, 1.0)
    path = tmp_path / "autosave.json"
    data = json.loads(path.read_text())
    data["data"]["seq"] = MAX_COUNT
    path.write_text(json.dumps(data))
    autosave = Autosave(autosave_store(tmp_path))
    assert autosave.load() is not None
    game.play("AC-f")
    assert autosave.save(game, 2.0)
    resumed = Autosave(autosave_store(tmp_path)).load()
    assert resumed is not None and resumed.game.moves == 1 and resumed.seq == MAX_COUNT


def test_statistics_counts_at_the_readers_limit_stay_readable(tmp_path: Path) -> None:
    counts = dict(played=MAX_COUNT, won=MAX_COUNT, current_streak=MAX_COUNT, best_streak=MAX_COUNT)
    save_stats(Stats.from_dict({"RU1-C": counts}), tmp_path)
    stats = load_stats(tmp_path).record("RU1-C-AAAAABB", won=True, seconds=9, score=9, moves=9)
    assert save_stats(stats, tmp_path)
    again = load_stats(tmp_path)["RU1-C"]
    assert (again.played, again.won, again.best_streak) == (MAX_COUNT,) * 3
    assert not list(tmp_path.glob("stats.json.bad-*"))


def test_a_save_that_would_not_read_back_keeps_the_file_there(tmp_path: Path) -> None:
    store = JsonStore(tmp_path / "x.json", kind="x", version=1)
    assert store.save({"n": 1})
    assert not store.save({"n": 10**40})  # the reader refuses numbers of 41 digits
    assert store.load() == {"n": 1}


# ---------------------------------------------------------------------------------- item 7

DAY = dt.date(2026, 11, 30)


def entry_of(day: dt.date, score: int = 600) -> Entry:
    return Entry(code="RU1-C-AAAALUY", score=score, seconds=300.0, moves=150, day=day.isoformat())


@pytest.mark.parametrize("back", [dt.timedelta(days=2), dt.timedelta(days=30), None])
def test_a_clock_set_back_deletes_no_daily_table(tmp_path: Path, back: dt.timedelta | None) -> None:
    days = [DAY - dt.timedelta(days=n) for n in range(5)]
    for day in days:
        HighScores.open(tmp_path, today=lambda d=day: d).add(entry_of(day))
    wrong = dt.date(1970, 1, 1) if back is None else DAY - back
    HighScores.open(tmp_path, today=lambda: wrong).add(entry_of(wrong, 500))  # a win, a save
    right = HighScores.open(tmp_path, today=lambda: DAY)
    assert all(right.table("RU1-C", day) for day in days)
    stored = json.loads((tmp_path / "highscores.json").read_text())["data"]["tables"]["RU1-C"]
    assert {d.isoformat() for d in days} <= set(stored)


def test_old_days_go_by_their_number_not_their_age(tmp_path: Path) -> None:
    """A day's table goes only when KEEP_DAYS + 2 newer days have one (issue 39, item 12: by
    age against the newest stored day, one win while the clock was ahead deleted them all)."""
    HighScores.open(tmp_path, today=lambda: DAY).add(entry_of(DAY))
    later = DAY + dt.timedelta(days=8)
    HighScores.open(tmp_path, today=lambda: later).add(entry_of(later))

    def stored() -> set[str]:
        data = json.loads(highscores_store(tmp_path).path.read_text())["data"]
        return set(data["tables"]["RU1-C"]) - {"all"}

    assert stored() == {DAY.isoformat(), later.isoformat()}
    for n in range(1, KEEP_DAYS + 1):
        day = later + dt.timedelta(days=n)
        HighScores.open(tmp_path, today=lambda d=day: d).add(entry_of(day))
    assert DAY.isoformat() in stored() and len(stored()) == KEEP_DAYS + 2
    last = later + dt.timedelta(days=KEEP_DAYS + 1)
    HighScores.open(tmp_path, today=lambda: last).add(entry_of(last))
    assert DAY.isoformat() not in stored() and len(stored()) == KEEP_DAYS + 2


# ---------------------------------------------------------------------------------- item 13


def test_locale_warnings_reach_the_kiosk_log(tmp_path: Path, locales: Path) -> None:
    log_file = setup_logging(tmp_path / "logs", to_stderr=False)
    assert log_file is not None
    Translator("fi", directory=locales)("menu.no_such_key")
    for handler in logging.getLogger("solitaire").handlers:
        handler.flush()
    assert "locale key menu.no_such_key: missing" in log_file.read_text(encoding="utf-8")


def test_a_full_disk_costs_one_line_on_stderr_not_a_traceback_per_line(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "solitaire.log").symlink_to("/dev/full")  # every write: ENOSPC
    setup_logging(tmp_path / "logs", to_stderr=False)
    for n in range(5):
        logging.getLogger("solitaire.test").warning("line %d", n)
    err = capfd.readouterr().err
    assert "Logging error" not in err and "Traceback" not in err
    assert err.count("\n") == 1
    assert "cannot write the log" in err and "No space left on device" in err
