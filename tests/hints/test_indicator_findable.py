"""The player can learn that a move lost the deal (issue 38 item 2). The winnable indicator
stays off by default (seed 000's app never declares a game lost), but it can be found: the first
hint that finds the game lost, with the indicator off, names the setting and where it is, and
stays long enough to read; the operator can turn it on for every visitor in config.toml
(``[defaults] winnable_indicator``, checked by ``--check-config``); on a won table it says
"Won", not "Winnable". The solver's answers and the indicator's verdicts are scripted; the
table is played through the input layer and the scripted player (game.dev.script)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

import engine.search.hints
from game.config import Config, check_config_file, hash_pin, load_config
from game.dev.script import Player
from game.launch import open_run
from game.saves.prefs import PlayerSettings, load_prefs, save_prefs
from game.scenes.win import WinScene
from game.table.hints import TIP_SECONDS
from tests.helpers.kioskhelp import isolated_logging  # noqa: F401 (autouse fixture)
from tests.helpers.tablehelp import ManualExecutor, almost_won, make_app
from tests.hints.test_indicator_states import ScriptedIndicator

pytestmark = pytest.mark.app

LOCALES = ("en", "fi", "ru")
CODE = "RU1-C-AAAAAAD"
PIN_HASH = hash_pin("246813", iterations=100_000)


@pytest.fixture(autouse=True)
def _quit_pygame():
    yield
    pygame.display.quit()


def lost_app(
    monkeypatch: pytest.MonkeyPatch, locale: str, *, indicator: bool = False, size=(800, 480)
):
    """A table whose solver proves every position lost, its hint worker run by the test."""
    app = make_app(CODE, size, settings=PlayerSettings(locale=locale))
    lost = lambda data, limit: (None, "lost", "no_useful_moves")  # noqa: E731
    monkeypatch.setattr(engine.search.hints, "hint_data", lost)
    pool = ManualExecutor()
    app.workers.use("hint", pool)
    # The indicator (when on) finds the deal winnable, every move lost: the first move lost it.
    lost_after_a_move = ScriptedIndicator(lambda game: bool(game.history))
    app.workers.indicator = lambda: lost_after_a_move  # type: ignore[method-assign]
    if indicator:
        app.prefs.change("winnable_indicator", True)
        app.table.model.hints.sync_indicator()
    return app, pool


def ask_hint(app, pool: ManualExecutor, player: Player) -> str:
    player.press("hint")
    pool.finish()
    app.step()
    assert app.table.model.toast is not None
    return app.table.model.toast.text


@pytest.mark.parametrize("locale", LOCALES)
def test_the_first_lost_hint_names_the_indicator_and_how_to_turn_it_on(monkeypatch, locale):
    app, pool = lost_app(monkeypatch, locale)
    tr, player = app.tr, Player(app)
    player.tap("AH")  # a move: the game may be lost by it (not the deal-lost question)
    said = ask_hint(app, pool, player)
    setting = tr("settings.winnable_indicator")
    assert said == tr("table.hint_lost_tip", setting=setting)
    assert said.startswith(tr("table.hint_lost").rstrip("."))  # what the hint said before
    where = {"en": "Settings", "fi": "Asetuksista", "ru": "настройках"}[locale]
    assert setting in said and where in said
    player.frames(TIP_SECONDS - 1.0)  # long enough to read two sentences
    assert app.table.model.toast is not None and app.table.model.toast.text == said
    player.double("9S")
    assert app.table.model.game.moves == 2
    assert ask_hint(app, pool, player) == tr("table.hint_lost")  # said once is enough
    # Following the tip: Settings, the switch, and the bar says it at once.
    player.press("settings")
    player.press("winnable_indicator")
    assert app.settings.winnable_indicator
    player.press("close")
    assert app.table.bar_text()[-1] == tr("table.winnable_lost_since", card=tr.card("AH"))


def test_no_tip_while_the_indicator_is_on(monkeypatch):
    app, pool = lost_app(monkeypatch, "en", indicator=True)
    player = Player(app)
    player.tap("AH")
    assert ask_hint(app, pool, player) == app.tr("table.hint_lost")


def test_the_next_kiosk_visitor_is_told_again(monkeypatch):
    app, pool = lost_app(monkeypatch, "en")
    player, tr = Player(app), app.tr
    player.tap("AH")
    tip = tr("table.hint_lost_tip", setting=tr("settings.winnable_indicator"))
    assert ask_hint(app, pool, player) == tip
    app.table.forget_visitor()  # what the kiosk going idle does
    player.double("9S")
    assert ask_hint(app, pool, player) == tip


@pytest.mark.parametrize("locale", LOCALES)
def test_a_won_table_says_won(locale):
    app = make_app(game=almost_won(), settings=PlayerSettings(locale=locale))
    app.workers.indicator = lambda: ScriptedIndicator(lambda game: False)  # type: ignore[method-assign]
    app.prefs.change("winnable_indicator", True)
    app.table.model.hints.sync_indicator()
    tr, player = app.tr, Player(app)
    assert app.table.bar_text()[-1] == tr("table.winnable_won")  # "Winnable"
    for king in ("KS", "KH", "KD", "KC"):
        player.tap(king)
    player.frames(1.5)
    assert app.table.model.game.is_won and isinstance(app.scenes.top, WinScene)
    assert app.table.bar_text()[-1] == tr("table.winnable_done")
    assert tr("table.winnable_done") != tr("table.winnable_won")


def kiosk_config(tmp_path: Path) -> tuple[Path, Config]:
    """The operator's config.toml: locked, and the indicator on for every visitor."""
    path = tmp_path / "config.toml"
    path.write_text(
        "[defaults]\nwinnable_indicator = true\n"
        f'[kiosk]\nlock = true\noperator_pin_hash = "{PIN_HASH}"\n',
        encoding="utf-8",
    )
    config, problems = load_config(path)
    assert problems == []
    return path, config


def test_check_config_takes_the_operators_indicator(tmp_path: Path, capsys) -> None:
    path, _ = kiosk_config(tmp_path)
    assert check_config_file(path) == 0
    assert "OK" in capsys.readouterr().out
    path.write_text("[defaults]\nwinnable_indicator = 1\n", encoding="utf-8")
    assert check_config_file(path) == 1
    assert "defaults.winnable_indicator = 1" in capsys.readouterr().out


def test_the_operator_turns_it_on_for_every_visitor(tmp_path: Path) -> None:
    """[defaults] winnable_indicator = true: the first visitor sees the indicator; one who
    switches it off leaves it off only until the kiosk goes idle."""
    _, config = kiosk_config(tmp_path)
    state = tmp_path / "state"
    state.mkdir()
    run = open_run(config, state, crash_hook=False, logging_on=False)
    app = make_app(
        CODE,
        (800, 480),
        settings=load_prefs(config, state),
        run=run,
        save_settings=lambda s: save_prefs(s, config, state),
        step=False,
    )
    assert app.table.model.hints.indicator is not None  # on from the start: the real one
    app.table.model.hints.close_indicator()  # its verdicts scripted from here
    app.workers.indicator = lambda: ScriptedIndicator(lambda game: False)  # type: ignore[method-assign]
    app.table.model.hints.sync_indicator()
    app.step()
    player, tr = Player(app), app.tr
    assert app.settings.winnable_indicator
    assert app.table.bar_text()[-1] == tr("table.winnable_won")
    player.press("settings")
    player.press("winnable_indicator")  # this visitor does not want it
    player.press("close")
    assert app.table.bar_text()[-1] == ""
    app.kiosk.start_attract()  # the kiosk goes idle: the attract screen
    assert app.scenes.top.name == "attract"
    player.down((400, 240))  # the next visitor's touch wakes it
    player.up((400, 240))
    player.frames(0.5)
    assert app.scenes.top is app.table
    assert app.settings.winnable_indicator
    assert app.table.bar_text()[-1] == tr("table.winnable_won")


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280), (1920, 1080)])
def test_the_tip_fits_every_screen(monkeypatch, size):
    """The longer message, on the screen whole in every language (screenshots in
    out/screens/indicator-tip/ for people to look at)."""
    out = Path(__file__).resolve().parents[2] / "out" / "screens" / "indicator-tip"
    out.mkdir(parents=True, exist_ok=True)
    for locale in LOCALES:
        app, pool = lost_app(monkeypatch, locale, size=size)
        player, tr = Player(app), app.tr
        player.tap("AH")
        ask_hint(app, pool, player)
        toast = app.table.model.toast
        tip = tr("table.hint_lost_tip", setting=tr("settings.winnable_indicator"))
        assert toast is not None and toast.text == tip
        assert app.screen.get_rect().contains(toast.rect)
        player.shot(str(out / f"tip-{size[0]}x{size[1]}-{locale}.png"))
        app.close()
