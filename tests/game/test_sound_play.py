"""The card sounds in play: what a player hears at each event (driven through the input layer),
nothing starts the mixer while sound is off, and no audio device means silence and a clean
log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from engine import Game
from game.app import App
from game.dev.script import Player
from game.launch import LaunchOptions, open_app
from game.saves.prefs import PlayerSettings
from game.scenes.win import WinScene
from tests.helpers.tablehelp import almost_won, make_app

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
CODE = "RU1-C-AAAAAAD"  # AH goes home; then KH (with the cards on it) to t1 turns KD up
SOUND_ON = PlayerSettings(locale="en", sound=True)


@pytest.fixture(autouse=True)
def no_mixer() -> Iterator[None]:
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()


def listen(app: App, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the sounds ``app`` plays from now on (they still play)."""
    heard: list[str] = []
    play = app.sounds.play

    def record(name: str) -> None:
        heard.append(name)
        play(name)  # type: ignore[arg-type]

    monkeypatch.setattr(app.sounds, "play", record)
    return heard


def take(heard: list[str]) -> list[str]:
    taken = list(heard)
    heard.clear()
    return taken


class TestWhatThePlayerHears:
    def test_lift_place_flip_refuse_undo(self, monkeypatch: pytest.MonkeyPatch) -> None:
        app = make_app(CODE, (800, 480), settings=SOUND_ON)
        assert app.sounds.audible  # SDL's dummy audio driver plays (into nothing)
        heard, player = listen(app, monkeypatch), Player(app)
        player.tap("AH")  # a tap sends it home: no pick-up, it lands
        assert take(heard) == ["place"]
        player.drag("KH", "t1")  # lifted, laid on the empty column, KD turned up
        assert take(heard) == ["pickup", "place", "flip"]
        player.drag("8C", "t3")  # 8C does not go on 6C: it flies back
        assert take(heard) == ["pickup", "refuse"]
        player.tap("9S")  # cannot go home: refused once no second tap can follow
        assert take(heard) == ["refuse"]
        player.press("undo")  # KH's group lands back on KD (which turns down, silently)
        assert take(heard) == ["place"]
        player.press("hint")
        player.wait("1")
        assert app.scenes.top is app.table and take(heard) == []  # a hint is not a move

    def test_the_winning_move_plays_the_win(self, monkeypatch: pytest.MonkeyPatch) -> None:
        app = make_app(game=almost_won(), settings=SOUND_ON)
        heard, player = listen(app, monkeypatch), Player(app)
        for king in ("KS", "KH", "KD"):
            player.tap(king)
        assert take(heard) == ["place"] * 3
        player.tap("KC")
        player.wait("1.5")
        assert take(heard) == ["win"] and isinstance(app.scenes.top, WinScene)

    def test_sound_off_plays_nothing(self, monkeypatch: pytest.MonkeyPatch) -> None:
        app = make_app(CODE, settings=PlayerSettings(locale="en"))
        heard, player = listen(app, monkeypatch), Player(app)
        player.drag("8C", "t3")
        assert heard == ["pickup", "refuse"]  # asked for, and the Sounds object stays silent
        assert not app.sounds.audible and app.sounds.sound("place") is None

    def test_the_attract_demo_is_silent(self, monkeypatch: pytest.MonkeyPatch) -> None:
        app = make_app(CODE, settings=SOUND_ON)
        heard = listen(app, monkeypatch)
        attract = app.scenes.open("attract")
        demo = attract.demo  # type: ignore[attr-defined]
        for _ in range(60 * 30):  # the demo deals, solves and plays a few moves
            app.step()
            if demo.model.game.moves >= 3:
                break
        app.close()
        assert demo.model.game.moves >= 3 and heard == []


def refuse_mixer(monkeypatch: pytest.MonkeyPatch, when: str) -> list[str]:
    """Make starting pygame.mixer (or all of pygame) fail the test; the calls made."""
    calls: list[str] = []

    def refuse_init(*args: object, **kwargs: object) -> None:
        calls.append("init")
        raise AssertionError(f"pygame.mixer.init called {when}")

    monkeypatch.setattr(pygame.mixer, "init", refuse_init)
    monkeypatch.setattr(pygame.mixer, "pre_init", refuse_init)
    monkeypatch.setattr(pygame, "init", refuse_init)
    return calls


def test_sound_off_never_touches_the_mixer(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A whole session with sound off (the default, and the shipped config.toml's), started as
    the game starts: drags, a refusal, an undo, the settings screen, a win; nothing initialises
    pygame.mixer."""
    calls = refuse_mixer(monkeypatch, "with sound off")
    assert PlayerSettings().sound is False
    shipped = LaunchOptions(ROOT / "config.toml", size=(800, 480), state_dir=tmp_path)
    shipped.persist = False  # no session: the test's own logging and signals stay as they are
    app = open_app(shipped, game=Game.from_code(CODE))
    player = Player(app)
    player.tap("AH")
    player.drag("KH", "t1")
    player.drag("8C", "t3")
    player.press("undo")
    player.press("settings")
    player.key("escape")
    won = make_app(game=almost_won())
    for king in ("KS", "KH", "KD", "KC"):
        Player(won).tap(king)
    Player(won).wait("1.5")
    assert isinstance(won.scenes.top, WinScene)
    app.close()
    won.close()
    assert calls == [] and pygame.mixer.get_init() is None


def script(tmp: Path, audio: str, config: str, *steps: str) -> dict[str, object]:
    """Run ``python -m game.script`` (the game as it starts: config, saved settings) with the
    SDL audio driver ``audio``; the state it writes at the end, its stderr and its log."""
    (tmp / "config.toml").write_text(config, encoding="utf-8")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER=audio)
    env.update(SOLITAIRE_STATE_DIR=str(tmp / "state"), SOLITAIRE_CONFIG=str(tmp / "config.toml"))
    out = tmp / "state.json"
    done = subprocess.run(
        [sys.executable, "-m", "game.script", "--size", "800x480", "--code", CODE, *steps,
         "state", str(out)],
        capture_output=True, text=True, env=env, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    data["stderr"] = done.stderr
    data["log"] = (tmp / "state" / "logs" / "solitaire.log").read_text(encoding="utf-8")
    return data


PLAY = ("tap", "AH", "drag", "KH", "t1", "drag", "8C", "t3")


@pytest.mark.process
def test_no_audio_device_is_silent_with_a_clean_log(tmp_path: Path) -> None:
    """Sound on in config.toml, but SDL finds no audio device: the game plays on, silent, with
    no warning or error in its log or on stderr."""
    data = script(tmp_path, "no-such-driver", "[sound]\nenabled = true\n", *PLAY)
    assert data["sound"] == {"on": True, "audible": False, "volume": 0.6}
    assert data["moves"] == 2
    log, stderr = str(data["log"]), str(data["stderr"])
    assert "event=move n=2" in log
    # The log (a copy goes to stderr too) holds the game's INFO lines and nothing else.
    lines = log.splitlines() + stderr.splitlines()
    assert [line for line in lines if " INFO solitaire." not in line] == []


@pytest.mark.process
def test_the_operators_sound_default_reaches_the_game(tmp_path: Path) -> None:
    on = script(tmp_path, "dummy", "[sound]\nenabled = true\nvolume = 0.3\n", *PLAY)
    assert on["sound"] == {"on": True, "audible": True, "volume": 0.3}
    off = script(tmp_path, "dummy", "")  # the shipped default: off
    assert off["sound"] == {"on": False, "audible": False, "volume": 0.6}


@pytest.mark.parametrize("scene", ["table", "settings", "win"])
def test_a_screenshot_never_opens_the_audio_device(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, scene: str
) -> None:
    """``main.py --screenshot`` is a headless tool run: with sound on in config.toml and in the
    player's saved settings, nothing starts pygame.mixer; the saved settings stay as they were."""
    import main
    from game.config import load_config
    from game.saves.prefs import load_prefs, save_prefs

    calls = refuse_mixer(monkeypatch, "by a screenshot")
    (tmp_path / "config.toml").write_text("[sound]\nenabled = true\n", encoding="utf-8")
    config = load_config(tmp_path / "config.toml")[0]
    save_prefs(SOUND_ON, config, tmp_path / "state")
    assert load_prefs(config, tmp_path / "state", clear=False).sound is True
    shot = tmp_path / "shot.png"
    argv = ["--config", str(tmp_path / "config.toml"), "--state-dir", str(tmp_path / "state")]
    argv += ["--size", "800x480", "--code", CODE, "--scene", scene, "--screenshot", str(shot)]
    assert main.main(argv) == 0
    assert shot.is_file() and calls == [] and pygame.mixer.get_init() is None
    assert load_prefs(config, tmp_path / "state", clear=False).sound is True
