"""Drive the real table headless: a window from the dummy driver, synthetic pointer events fed
through the input layer, and a clock stepped by hand (1/60 s per step)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pygame

from engine import Game
from engine.cards import parse_card
from game.app import App
from game.clock import PlayTime
from game.config import Config
from game.launch import SavedRun, build_app, compose
from game.saves.prefs import PlayerSettings, load_prefs, save_prefs
from game.table.scene import TableScene


def add_locale_names(monkeypatch: Any, names: dict[str, str]) -> None:
    """Locale keys (a new rule set's ``variant.<key>``, ``stats.<key>``) in every locale, for
    one test: no locale file is edited."""
    import game.i18n

    real_load = game.i18n.load_catalog

    def load_catalog(locale: str, directory: Path | None = None) -> Any:
        return {**real_load(locale, directory), **names}

    monkeypatch.setattr(game.i18n, "load_catalog", load_catalog)


def make_app(
    code: str = "RU1-C-AAAAABB",
    size: tuple[int, int] = (1280, 800),
    *,
    settings: PlayerSettings | None = None,
    state_dir: Path | None = None,
    game: Game | None = None,
    px_per_mm: float | None = None,
    first_line: bool | None = False,
    run: SavedRun | None = None,
    elapsed: float = 0.0,
    step: bool = True,
    save_settings: Callable[[PlayerSettings], object] | None = None,
) -> App:
    """The App on a dummy window. ``first_line``: show the fresh start's how-to-play line
    (most tests want a table without it; None: as the table decides); ``run``: a saved run
    (game.launch.open_run: its session, and the kiosk when its config makes one), else
    ``elapsed``: the play time resumed; ``step``: one pass of the loop before the test
    (launch.open_app makes none); ``save_settings``: how the
    player's settings are saved (launch passes prefs.save_prefs; ``state_dir`` sets one)."""
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size)
    save = save_settings
    if state_dir is not None:
        config = Config()
        settings = load_prefs(config, state_dir)

        def save(changed: PlayerSettings) -> None:
            save_prefs(changed, config, state_dir)

    parts = compose(
        screen,
        settings=settings or PlayerSettings(locale="en"),
        save_settings=save,
        px_per_mm=px_per_mm,
        play_time=PlayTime(elapsed) if run is None else None,  # a run has its session's
        run=run,
    )
    if game is None and (run is None or run.resumed is None):
        game = parts.games.new(code)  # else, as launch.open_app does, the resumed game
    app = build_app(parts, game, run)
    if first_line is not None:
        app.table.model.first_line = first_line
    if step:
        app.step()
    return app


class Finger:
    """A finger (or mouse) on the screen of ``app``; every call steps the clock."""

    def __init__(self, app: App, *, touch: bool = True) -> None:
        self.app = app
        self.touch = touch

    @property
    def table(self) -> TableScene:
        return self.app.table

    def _event(self, kind: int, pos: tuple[int, int], **extra: object) -> pygame.event.Event:
        return pygame.event.Event(kind, pos=pos, button=1, touch=self.touch, **extra)

    def down(self, pos: tuple[int, int]) -> None:
        self.app.step([self._event(pygame.MOUSEBUTTONDOWN, pos)])

    def up(self, pos: tuple[int, int]) -> None:
        self.app.step([self._event(pygame.MOUSEBUTTONUP, pos)])

    def move(self, pos: tuple[int, int]) -> None:
        self.app.step([self._event(pygame.MOUSEMOTION, pos, rel=(0, 0), buttons=(1, 0, 0))])

    def tap(self, pos: tuple[int, int]) -> None:
        self.down(pos)
        self.up(pos)

    def double_tap(self, pos: tuple[int, int]) -> None:
        self.tap(pos)
        self.tap(pos)

    def drag(self, start: tuple[int, int], end: tuple[int, int], steps: int = 6) -> None:
        self.down(start)
        for k in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * k // steps
            y = start[1] + (end[1] - start[1]) * k // steps
            self.move((x, y))
        self.up(end)

    # ----------------------------------------------------------------- where things are
    def card(self, name: str) -> tuple[int, int]:
        """A point on the visible part of card ``name`` (its corner strip)."""
        rect = self.table.model.card_rect(parse_card(name))
        return (rect.centerx, rect.top + 6)

    def column(self, index: int) -> tuple[int, int]:
        """A point where a card dragged from its corner lands on column ``index``."""
        table = self.table
        col = table.model.game.cols[index]
        rect = table.model.card_rect(col[-1]) if col else table.model.layout.columns[index]
        return (rect.centerx, rect.top + 6 + rect.height // 3)

    def button(self, name: str) -> tuple[int, int]:
        return self.table.model.layout.buttons[name].center

    def control(self, label: str) -> tuple[int, int]:
        """Where a finger acts on the top dialog's control with this label: its centre, a
        toggle's switch (the only part of a toggle's row that turns it)."""
        from game.look.switches import tap_point

        scene = self.app.scenes.top
        for control in scene.controls:  # type: ignore[attr-defined]
            if control.label == label and control.action:
                return tap_point(control)
        labels = [c.label for c in scene.controls]  # type: ignore[attr-defined]
        raise AssertionError(f"no control {label!r} in {type(scene).__name__}: {labels}")

    def settle(self, seconds: float = 0.5) -> None:
        for _ in range(int(seconds * 60)):
            self.app.step()


def names(cards: tuple[int, ...] | list[int]) -> list[str]:
    from engine.cards import card_name

    return [card_name(c) for c in cards]


class ManualExecutor(Executor):
    """An executor for hint tests: ``submit`` only records the work; the test decides when it
    runs (``finish``), so what the table shows meanwhile is deterministic."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.jobs.append((future, fn, args))
        return future

    def finish(self) -> None:
        """Run every recorded job that is still wanted (a cancelled one never runs)."""
        for future, fn, args in self.jobs:
            if future.done() or not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except Exception as error:
                future.set_exception(error)


def almost_won(code: str = "SH1-C4-AAAAAJ2") -> Game:
    """Every card home but the four kings, which lie in columns 1 to 4."""
    data = Game.from_code(code).to_dict()
    columns: list[list[str]] = [[] for _ in range(10)]
    for i, king in enumerate(("KS", "KH", "KD", "KC")):
        columns[i] = [king]
    data.update(columns=columns, cells=[None] * 4, foundations=[12] * 4, history=[])
    data.update(won=False, moves=90, score=480)
    return Game.from_dict(data)


WON_CODE = "SH1-C4-AAAAAJ2"
WIN_MOVES = (  # the solver's win of WON_CODE, 103 moves
    "4D-c3 AD-f 2D-f 5S-t4 AC-f 2C-f 3C-f 4C-f 6H-c1 TC-t3 KC-c4 JD-t9 4H-t7 8D-c2 KC-t5 TS-c4 "
    "9C-t3 8H-t8 8C-t3 3D-f 4D-f 7C-t3 KC-c3 6C-t3 9H-t2 TH-t8 KC-t5 2H-c3 KH-t6 AH-f 2H-f 7D-c3 "
    "3H-f 4H-f 5H-f 6H-f QD-t1 9D-t1 8D-t1 7D-t1 6D-t1 KH-c1 KC-c2 KS-c3 JH-t2 5D-f 6D-f 7D-f "
    "8D-f 9D-f TD-f JD-f QD-f KD-f KS-t1 5S-c3 KH-t5 QH-t5 AS-f QS-t1 5S-t4 KC-t2 8S-c1 QC-t2 "
    "JC-t2 7S-c2 2S-f 8S-t3 7S-t3 6S-t3 5S-c1 6S-c2 4S-c3 JS-t1 5C-f 6C-f 7C-f 8C-f 9C-f TC-f "
    "JC-f QC-f KC-f 7H-f 8H-f 9H-f TH-f JH-f QH-f KH-f TS-t1 9S-t1 3S-f 4S-f 5S-f 6S-f 7S-f 8S-f "
    "9S-f TS-f JS-f QS-f KS-f"
)
WIN_LINE = WIN_MOVES.split()
