"""Every file the game reads, damaged every way a kiosk meets (issue 22): the game starts
through game.dev.script, plays a move, switches to Finnish and Russian, and ends normally, every
time. Each run is a child process with a time limit (a start that blocks on a FIFO fails
instead of hanging the suite) and an address-space limit (a reader that reads /dev/zero to the
end fails with MemoryError instead of eating the machine's memory)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

REPO = Path(__file__).resolve().parents[2]
ASSETS = REPO / "assets"
TIME_LIMIT_S = 60
MEMORY_LIMIT = 3 << 30
HUGE = 40_000_000  # past every reader's limit (a sparse file: no disk space used)

STATE_FILES = (
    *("autosave.json", "settings.json", "stats.json", "crashes.json", "highscores.json"),
    "pin-throttle.json",
)
ASSET_FILES = {
    "DejaVuSans.ttf": "fonts",
    "DejaVuSans-Bold.ttf": "fonts",
    "en.toml": "locales",
    "fi.toml": "locales",
    "ru.toml": "locales",
    "RU1-C.txt": "deals",
}
FILES = (*STATE_FILES, "config.toml", *ASSET_FILES)
DAMAGES = ("garbage", "empty", "huge", "fifo", "dev-zero", "encoding")
QUIET = {("config.toml", "empty")}  # an empty config is a valid one: every default

# The game's start with the asset directories moved to the test's copy, then a scripted visit:
# a move (AC to its foundation), the settings, Suomi, Русский, and the state of the screen.
PROGRAM = """
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
import engine.catalog_file, game.look.cards, game.look.fonts, game.i18n
assets = Path({assets!r})
game.look.fonts.FONT_REGULAR = assets / "fonts" / "DejaVuSans.ttf"
game.look.fonts.FONT_BOLD = assets / "fonts" / "DejaVuSans-Bold.ttf"
game.i18n.LOCALE_DIR = assets / "locales"
engine.catalog_file.CATALOG_DIR = assets / "deals"
from game.dev import script
sys.exit(script.main({argv!r}))
"""
STEPS = ["drag", "AC", "f", "press", "settings", "press", "fi", "press", "ru"]


def envelope(name: str) -> str:
    kind = name.removesuffix(".json")
    return f'{{"format":"{kind}","version":1,"saved":"x","data":{{"note":"Hyvää päivää"}}}}'


def damage(path: Path, how: str) -> None:
    """Put ``how`` in place of ``path`` (whatever was there is removed)."""
    real = path.read_bytes() if path.is_file() else b""
    if os.path.lexists(path):
        path.unlink()
    if how == "garbage":
        path.write_bytes(b"\x00\xff\xfe garbage \x80\xc3" * 300)
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "huge":
        with path.open("wb") as handle:
            handle.truncate(HUGE)
    elif how == "fifo":
        os.mkfifo(path)
    elif how == "dev-zero":
        path.symlink_to("/dev/zero")
    elif path.suffix == ".ttf":  # a font's "wrong encoding": another font format's bytes
        path.write_bytes(b"wOFF" + real[4:])
    elif path.suffix == ".json":  # a state file written as Latin-1
        path.write_bytes(envelope(path.name).encode("latin-1"))
    elif path.suffix == ".toml" and path.name != "config.toml":  # a Windows code page
        page = "cp1251" if path.name == "ru.toml" else "cp1252"
        path.write_bytes(real.decode("utf-8").encode(page, errors="replace"))
    else:  # config.toml or a catalog (ASCII, the same in any code page) saved as UTF-16
        path.write_bytes((real or b'[game]\nlocale = "en"\n').decode("utf-8").encode("utf-16"))


def asset_copy(root: Path) -> Path:
    """A directory of the shipped assets, each file a symlink to the real one."""
    assets = root / "assets"
    for sub in ("fonts", "locales", "deals"):
        (assets / sub).mkdir(parents=True)
        for source in (ASSETS / sub).iterdir():
            (assets / sub / source.name).symlink_to(source)
    return assets


def start(tmp_path: Path, name: str, how: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    state, assets = tmp_path / "state", asset_copy(tmp_path)
    state.mkdir()
    config = tmp_path / "config.toml"
    text = '[game]\nlocale = "en"\n'
    if name == "pin-throttle.json":  # the PIN pad's: only a kiosk reads it (not a desktop)
        text += "[kiosk]\nidle_unlocked = true\n"
    config.write_text(text, encoding="utf-8")
    if name in STATE_FILES:
        target = state / name
    elif name == "config.toml":
        target = config
    else:
        target = assets / ASSET_FILES[name] / name
        shipped = target.resolve()
        target.unlink()
        target.write_bytes(shipped.read_bytes())  # a real copy, damaged below
    damage(target, how)
    out = tmp_path / "out.json"
    argv = ["--size", "800x480", "--code", "RU1-C-AAAAABB", *STEPS, "state", str(out)]
    program = PROGRAM.format(limit=MEMORY_LIMIT, assets=str(assets), argv=argv)
    env = {**os.environ, "SOLITAIRE_STATE_DIR": str(state), "SOLITAIRE_CONFIG": str(config)}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    try:
        result = subprocess.run(
            [sys.executable, "-c", program],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIME_LIMIT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name} as {how}: the game did not end within {TIME_LIMIT_S} s (blocked?)")
    return result, out


@pytest.mark.parametrize("how", DAMAGES)
@pytest.mark.parametrize("name", FILES)
def test_the_game_starts_and_plays_whatever_the_file_holds(
    tmp_path: Path, name: str, how: str
) -> None:
    result, out = start(tmp_path, name, how)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    shown = json.loads(out.read_text(encoding="utf-8"))
    assert shown["moves"] == 1 and shown["foundations"] == [0, 0, 0, 1]  # AC went home
    assert shown["scene"] == "settings"
    log = (tmp_path / "state" / "logs" / "solitaire.log").read_text(encoding="utf-8")
    said = [line for line in log.splitlines() if name in line]
    assert said or (name, how) in QUIET, f"the log does not name {name}"
    if name in STATE_FILES:
        assert any("is unusable" in line and "moved aside" in line for line in said), said
        assert list((tmp_path / "state").glob(f"{name}.bad-*"))
    if name.endswith((".ttf", ".toml")) and name != "config.toml":
        assert len(said) == 1, said  # one clear line, not one per size or per string


def test_a_damaged_russian_file_still_shows_the_game_in_english(tmp_path: Path) -> None:
    result, out = start(tmp_path, "ru.toml", "encoding")
    assert result.returncode == 0, result.stderr[-3000:]
    texts = json.loads(out.read_text(encoding="utf-8"))["texts"]
    assert "Settings" in texts  # English stands in for the unreadable Russian
