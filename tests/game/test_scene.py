"""The scene stack (game.scene): scenes opened by name, the stated lifecycle, and the table
at the bottom that is never popped; and game.workers' one shutdown path."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game
from game.scene import Scene, SceneStack
from game.workers import worker_processes
from tests.helpers.tablehelp import make_app

pytestmark = pytest.mark.app


class Probe(Scene):
    def __init__(self, app: Any, log: list[str], label: str = "") -> None:
        super().__init__(app)
        self.log, self.label = log, label

    def enter(self) -> None:
        self.log.append(f"enter {self.label}")

    def leave(self) -> None:
        self.log.append(f"leave {self.label}")

    def pause(self) -> None:
        self.log.append(f"pause {self.label}")

    def resume(self) -> None:
        self.log.append(f"resume {self.label}")


def stack() -> tuple[SceneStack, list[str], list[int]]:
    log: list[str] = []
    changes: list[int] = []
    scenes = SceneStack(object(), on_change=lambda: changes.append(1))  # type: ignore[arg-type]
    scenes.register("probe", lambda app, label="": Probe(app, log, label))
    scenes.push(Probe(None, log, "table"))
    return scenes, log, changes


def test_open_builds_the_named_scene_with_its_arguments_and_pushes_it() -> None:
    scenes, log, changes = stack()
    opened = scenes.open("probe", label="rules")
    assert scenes.top is opened and len(scenes) == 2
    assert log == ["enter table", "pause table", "enter rules"]
    assert len(changes) == 2  # every change asks for a full redraw


def test_pop_replace_and_back_to_the_bottom() -> None:
    scenes, log, _ = stack()
    settings = scenes.open("probe", label="settings")
    scenes.open("probe", label="rules")
    scenes.pop(settings)  # settings and everything above it
    assert len(scenes) == 1 and log[-3:] == ["leave rules", "leave settings", "resume table"]
    scenes.open("probe", label="newgame")
    scenes.replace(scenes.build("probe", label="keypad"))
    assert [s.label for s in scenes] == ["table", "keypad"]  # type: ignore[attr-defined]
    scenes.pop_to_bottom()
    scenes.pop()
    assert [s.label for s in scenes] == ["table"]  # type: ignore[attr-defined]


def test_an_unknown_name_says_which() -> None:
    scenes, _, _ = stack()
    with pytest.raises(KeyError, match="'pin'"):
        scenes.open("pin")


def test_every_scene_of_the_game_is_registered_by_its_name() -> None:
    app = make_app("RU1-C-AAAAAAD")
    for name in ("newgame", "keypad", "settings", "rules", "stats"):
        assert app.scenes.open(name).name == name
    app.scenes.open("win", game=app.table.model.game, play_time=app.table.model.play_time)
    assert app.scenes.find("win") is app.scenes.top
    app.scenes.pop_to_bottom()
    assert app.scenes.top is app.table and app.table.name == "table"


def test_quit_stops_every_solver_process() -> None:
    """The hint, the demo search and the winnable indicator each run in a process of their
    own; quitting the game leaves none of them running."""
    import time
    from multiprocessing.connection import wait

    app = make_app("SH1-C4-AAAAAAA")
    workers = app.workers
    workers.ask_hint(app.table.model.game)
    workers.solve(Game.from_code("RU1-C-AAAAABB"), 30.0)
    indicator = workers.indicator()
    assert indicator is not None
    indicator.update(Game.from_code("RU1-C-AAAAA7B"))
    pools = [workers.pool("hint"), workers.pool("demo"), indicator.executor]
    processes: list[Any] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        processes = [p for pool in pools if pool is not None for p in worker_processes(pool)]
        if len(processes) == 3:
            break
        time.sleep(0.05)
    assert len(processes) == 3
    app.close()
    assert len(wait([p.sentinel for p in processes], 0)) == 3  # every one has exited
    assert workers.pool("hint") is None and workers.pool("demo") is None


def test_a_settings_save_that_fails_is_logged_and_the_change_kept(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A read-only disk: the switch still turns (for this session) and the kiosk's log (the
    "solitaire" loggers, game.logs) says why it was not kept."""
    from game.player import Preferences
    from game.saves.prefs import PlayerSettings

    def read_only(settings: PlayerSettings) -> None:
        raise OSError(30, "Read-only file system")

    prefs = Preferences(PlayerSettings(locale="en"), read_only)
    with caplog.at_level("WARNING", logger="solitaire"):
        prefs.change("double_tap", not prefs.settings.double_tap)
    assert prefs.settings.double_tap is not PlayerSettings().double_tap
    assert "cannot save settings" in caplog.text and "Read-only" in caplog.text
    assert caplog.records[-1].name.startswith("solitaire.")
