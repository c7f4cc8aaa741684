"""How the parts are wired where the App is composed (game.launch): the table's listeners in
one ordered list, a listener that names no hook refused at start, saving that every saved run
has (a desktop's too) and the kiosk controller only for a kiosk (issue 41, items 2 to 4)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from engine import Game, Move
from engine.cards import Card
from game.app import App
from game.clock import PlayTime
from game.config import Config, config_from_dict, hash_pin
from game.hooks import HOOK_NAMES, Hooks, TableHooks, heard
from game.kiosk.controller import KioskController
from game.kiosk.metrics import FILE_NAME, Metrics
from game.launch import compose, open_run
from game.saves.persist import load_stats
from game.saves.session import Session
from tests.helpers.kioskhelp import isolated_logging, saved_app, wait  # noqa: F401 (autouse fixture)
from tests.helpers.tablehelp import WIN_LINE, WON_CODE, Finger, make_app

pytestmark = pytest.mark.app

PIN_HASH = hash_pin("246813", iterations=100_000)


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


def config_of(**sections: dict[str, object]) -> Config:
    config, problems = config_from_dict(dict(sections))
    assert not problems
    return config


def desktop(**kiosk: object) -> Config:
    return config_of(kiosk={"lock": False, **kiosk})


def play_to_the_win(app: App) -> None:
    """The table plays a real deal's winning line, the last move by a tap."""
    for move in WIN_LINE[:-1]:
        assert app.table.model.make_move(Move.parse(move))
    finger = Finger(app)
    finger.settle(0.6)
    finger.tap(finger.card("KS"))  # the last king home
    finger.settle(0.6)


# ------------------------------------------------------------------ a desktop run saves


def test_a_desktop_run_saves_counts_and_resumes_without_a_kiosk(tmp_path: Path) -> None:
    """Lock off and no idle times: no kiosk controller, yet every move is saved, a game left
    is counted, the statistics are in Settings, and the restart resumes the game."""
    app = saved_app(tmp_path, desktop())
    assert app.kiosk is None and app.session is not None
    finger = Finger(app)
    finger.tap(finger.card("AH"))
    finger.settle(1.0)
    app.table.start_game(Game.from_code("RU1-C-AAAAAAD"))  # the first game is left
    assert load_stats(tmp_path)["RU1-C"].played == 1
    finger.tap(finger.button("settings"))
    assert "Statistics" in [c.label for c in app.scenes.top.controls]  # type: ignore[attr-defined]
    app.scenes.pop_to_bottom()
    finger.tap(finger.card("AH"))
    finger.settle(1.0)
    clock = app.table.model.play_time.seconds
    app.step([pygame.event.Event(pygame.QUIT)])
    again = saved_app(tmp_path, desktop())
    assert again.kiosk is None
    assert again.table.model.game is not app.table.model.game
    assert (
        again.table.model.game.to_dict() == app.table.model.game.to_dict()
        and again.table.model.game.moves == 1
    )
    assert again.table.model.play_time.seconds == pytest.approx(clock, abs=0.02)


def test_a_desktop_left_waiting_keeps_its_game(tmp_path: Path) -> None:
    """Without the lock (and without idle_unlocked) waiting replaces, counts or hides nothing."""
    app = saved_app(tmp_path, desktop(idle_attract_minutes=0.05, idle_new_game_minutes=0.1))
    finger = Finger(app)
    finger.tap(finger.card("AH"))
    played = app.table.model.game
    wait(app, 3600.0)
    assert app.table.model.game is played and app.scenes.top is app.table
    assert load_stats(tmp_path)["RU1-C"].played == 0


def test_idle_times_without_the_lock_make_a_kiosk(tmp_path: Path) -> None:
    """[kiosk] idle_unlocked: the kiosk controller runs without the lock (its idle deal)."""
    config = desktop(idle_unlocked=True, idle_attract_minutes=0, idle_new_game_minutes=0.1)
    app = saved_app(tmp_path, config)
    assert isinstance(app.kiosk, KioskController) and not app.kiosk.lock
    Finger(app).tap(Finger(app).card("AH"))
    played = app.table.model.game
    wait(app, 10.0)
    assert app.table.model.game is not played  # the idle deal, the game set aside to resume
    assert app.kiosk.aside is not None and app.kiosk.aside.game is played


def test_a_desktop_win_is_entered_once_and_resumed_with_its_rank(tmp_path: Path) -> None:
    """The high scores are wired to the session where both are made: the win carries the
    game's id and the table's play time, and after a restart the won game has its rank."""
    run = open_run(desktop(), tmp_path, crash_hook=False)
    app = make_app(WON_CODE, run=run, step=False)
    assert app.kiosk is None
    play_to_the_win(app)
    assert app.table.model.game.is_won
    won = app.arcade.won(app.table.model.game)
    assert won is not None and won.rank.all_time == 1
    assert won.entry.game == run.session.game_id
    assert won.entry.seconds == pytest.approx(app.table.model.play_time.seconds, abs=0.1)
    pygame.display.quit()
    rerun = open_run(desktop(), tmp_path, crash_hook=False)
    again = make_app(run=rerun, step=False)
    assert again.table.model.game.is_won and rerun.session.game_id == run.session.game_id
    back = again.arcade.won(again.table.model.game)
    assert back is not None and back.rank == won.rank and back.entry == won.entry


def test_a_saved_run_takes_no_other_high_scores_or_play_time(tmp_path: Path) -> None:
    """A run has its own high scores and play time: given others beside it, compose says so
    rather than dropping them silently."""
    run = open_run(desktop(), tmp_path, crash_hook=False)
    screen = pygame.display.set_mode((800, 480))
    with pytest.raises(ValueError, match="own high scores and play time"):
        compose(screen, run=run, play_time=PlayTime(5.0))
    with pytest.raises(ValueError, match="own high scores and play time"):
        compose(screen, run=run, arcade=run.arcade)
    parts = compose(screen, run=run)
    assert parts.play_time is run.session.clock and parts.arcade is run.arcade


# ------------------------------------------------------------------ the listeners


def test_the_listeners_hear_each_report_in_the_one_order(tmp_path: Path) -> None:
    """compose's list: the sounds, the high scores, the session, the metrics; the kiosk is
    no listener (the App steps it after them). The order shows: the win is saved with its
    rank (the high scores heard it first) and the metrics write it counted (after the
    session)."""
    prom = tmp_path / "prom"
    prom.mkdir()
    config = config_of(
        kiosk={"lock": True, "operator_pin_hash": PIN_HASH},
        metrics={"textfile_dir": str(prom)},
    )
    run = open_run(config, tmp_path / "state", crash_hook=False)
    app = make_app(WON_CODE, run=run, step=False)
    names = [type(listener).__name__ for listener in app.hooks.listeners]
    assert names == ["CardSounds", "Arcade", "Session", "Metrics"]
    assert isinstance(app.kiosk, KioskController) and app.kiosk not in app.hooks.listeners
    play_to_the_win(app)
    resumed = Session(config, tmp_path / "state").resume()
    assert resumed is not None and resumed.game.is_won
    win = resumed.meta.get("win")
    assert isinstance(win, dict) and win.get("all") == 1, win
    text = (prom / FILE_NAME).read_text(encoding="utf-8")
    assert 'solitaire_kiosk_games_won_total{rule_set="SH1-C4"} 1' in text
    (metrics,) = [m for m in app.hooks.listeners if isinstance(m, Metrics)]
    assert app.event_filters == [metrics.saw_input, app.kiosk.filter]


class Misspelt(TableHooks):
    def moveed(self, game: Game, move: Move) -> None:  # a typo: "moved"
        raise AssertionError("never called")


class Heard(TableHooks):
    def __init__(self) -> None:
        self.moves = 0

    def moved(self, game: Game, move: Move) -> None:
        self.moves += 1


def test_a_listener_that_names_no_hook_fails_at_start() -> None:
    """A misspelt method would never be called: the listener is refused when the hooks are
    made (at start), and so is one added later; one that names a hook is told."""
    with pytest.raises(TypeError, match="Misspelt listens to no hook"):
        Hooks([Heard(), Misspelt()])
    hooks = Hooks([heard := Heard()])
    with pytest.raises(TypeError, match="object listens to no hook"):
        hooks.add(object())  # type: ignore[arg-type]
    game = Game.from_code("RU1-C-AAAAAAD")
    move = Move.parse("AH-f")
    game.play(move)
    hooks.moved(game, move)
    assert heard.moves == 1 and hooks.listeners == [heard]


class HalfRight(TableHooks):
    def moved(self, game: Game, move: Move) -> None:
        pass

    def undoen(self, game: Game) -> None:  # a typo: "undone"
        raise AssertionError("never called")

    def on_lifted(self, game: Game, card: Card) -> None:  # not the table's name for it
        raise AssertionError("never called")


class Busy(Heard):
    """Hears a hook and has methods of its own, one named close to a hook (``start`` is no
    ``started(game)``: it takes no game)."""

    def start(self) -> None:
        pass

    def checkpoint(self, game: Game) -> None:
        pass


def test_one_misspelt_hook_beside_a_right_one_fails_at_start() -> None:
    """A listener that hears one hook and misspells another is refused too, naming the
    methods that would never be called; methods of its own that are no hook are kept."""
    with pytest.raises(TypeError, match=r"HalfRight\.on_lifted, undoen names no hook"):
        Hooks([HalfRight()])
    hooks = Hooks([busy := Busy()])
    assert hooks.listeners == [busy]


def test_the_hook_names_are_the_table_hooks_and_all_are_passed_on() -> None:
    """The names come from TableHooks alone, and Hooks passes every one of them on."""
    assert HOOK_NAMES == (
        "started",
        "moved",
        "lifted",
        "undone",
        "refused",
        "ended",
        "step",
        "shutdown",
    )
    assert heard(Hooks()) == HOOK_NAMES
