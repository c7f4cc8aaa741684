"""Open the window and build the App from config.toml (when game.config is there) and the
player's saved settings; write screenshots of any scene.

This is the composition root: :func:`compose` makes the parts the loop and its scenes share
(game.app.Parts), :func:`open_app` adds the kiosk, its session and the metrics and hands it
all to the App, which only runs the loop.

Start-up: the window opens as soon as the config is read (what a kiosk shows first is a
window, at once); the modules of the App, the table, the session and the kiosk are imported
after that, in the functions that use them, and every scene but the table only when it first
opens (game.scenes). ``python -m game.dev.bench startup`` times it beside Aisleriot."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import pygame

from engine.rules import REGISTRY
from game.clock import FixedClock
from game.config import Config, effective_px_per_mm, load_config
from game.kiosk.startup import install_sigterm_handler, prepare_sdl
from game.look.display import Presenter
from game.scenes import register_scenes

if TYPE_CHECKING:
    from engine import Game
    from game.app import App, KioskFactory, Parts, Watcher
    from game.arcade.play import Arcade
    from game.games import GameChoice
    from game.hooks import Hooks
    from game.host import Stack
    from game.input import InputTuning
    from game.kiosk.session import Session
    from game.saves.persist import Resumed
    from game.saves.prefs import PlayerSettings


@dataclass
class LaunchOptions:
    """How main.py starts the game (its command line), besides what config.toml says."""

    config: Path | None = None
    windowed: bool = False
    size: tuple[int, int] | None = None
    locale: str | None = None
    state_dir: Path | None = None
    persist: bool = True  # autosave, statistics, logs, kiosk lock (off for screenshots)
    audio: bool = True  # sound as the settings say (off for screenshots: no audio device)
    kiosk: bool = False  # main.py --kiosk: the config's gaps and errors leave it locked


def log_problems(problems: list[str]) -> None:
    """The config's problems, one line each (never fatal: the defaults stand in)."""
    import logging

    for problem in problems:
        logging.getLogger("solitaire.config").warning("%s", problem)


def compose(
    screen: pygame.Surface,
    *,
    settings: PlayerSettings | None = None,
    save_settings: Callable[[PlayerSettings], object] | None = None,
    tuning: InputTuning | None = None,
    px_per_mm: float | None = None,
    choice: GameChoice | None = None,
    rng: random.Random | None = None,
    undo_depth: int = 100,
    rotate: int = 0,
    arcade: Arcade | None = None,
    audio: bool = True,
) -> Parts:
    """The parts of an App on ``screen`` (shown turned by ``rotate``). Without ``arcade``
    (tools, tests) the high-score tables are kept in memory and nobody is asked to sign a
    table that is not kept; ``audio`` False (a screenshot run): never sound, the saved
    setting shown as it is."""
    from game.app import Parts
    from game.arcade.play import Arcade
    from game.games import GameChoice, Games
    from game.hooks import Hooks
    from game.i18n import Translator
    from game.input import GestureReader
    from game.look.layout import estimate_px_per_mm
    from game.player import Preferences
    from game.scene import SceneRegistry
    from game.sound import CardSounds, Sounds
    from game.workers import Workers

    presenter = Presenter(screen, rotate)
    prefs = Preferences(settings, save_settings)
    arcade = arcade or Arcade.open(None, initials=False)
    sounds = Sounds(enabled=prefs.settings.sound and audio, volume=prefs.settings.volume)

    def follow_sound(changed: PlayerSettings) -> None:
        sounds.set_volume(changed.volume)
        sounds.set_enabled(changed.sound and audio)

    prefs.listeners.append(follow_sound)
    hooks = Hooks()
    hooks.add(CardSounds(sounds))
    hooks.add(arcade)  # a win enters the high-score tables
    scenes = SceneRegistry()
    register_scenes(scenes)
    size = presenter.surface.get_size()
    return Parts(
        presenter=presenter,
        prefs=prefs,
        tr=Translator(prefs.settings.locale),
        clock=FixedClock(),
        reader=GestureReader(tuning, px_per_mm or estimate_px_per_mm(*size)),
        arcade=arcade,
        games=Games(
            choice or GameChoice(),
            rng=rng or random.Random(),
            undo_depth=undo_depth,
            day_of=arcade.day_of,
        ),
        workers=Workers(),
        hooks=hooks,
        sounds=sounds,
        scenes=scenes,
        px_per_mm=px_per_mm,
    )


def plain_app(
    screen: pygame.Surface,
    code: str | None = None,
    *,
    game: Game | None = None,
    settings: PlayerSettings | None = None,
    save_settings: Callable[[PlayerSettings], object] | None = None,
    px_per_mm: float | None = None,
    rng: random.Random | None = None,
    rotate: int = 0,
    audio: bool = True,
) -> App:
    """An App with no kiosk and no saves (tools and tests): ``game``, else a new deal of
    ``code`` (None: the choice's)."""
    from game.app import App

    parts = compose(
        screen,
        settings=settings,
        save_settings=save_settings,
        px_per_mm=px_per_mm,
        rng=rng,
        rotate=rotate,
        audio=audio,
    )
    return App(parts, game if game is not None else parts.games.new(code))


def open_window(config: Config, options: LaunchOptions) -> pygame.Surface:
    """The game's window (or the whole screen), as the config and the options say."""
    display = config.display
    pygame.display.init()
    if pygame.display.get_driver() == "x11":
        # X11's own shared-memory framebuffer, not a texture of an OpenGL renderer: SDL
        # otherwise makes the window, loads GL, then makes the window again for GL (an
        # operator's SDL_FRAMEBUFFER_ACCELERATION in the environment still decides).
        os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
    pygame.font.init()
    flags = 0
    if display.fullscreen and not options.windowed:
        flags |= pygame.FULLSCREEN
        size = options.size or (0, 0)  # (0, 0): the screen's own size
    else:
        flags |= pygame.RESIZABLE
        size = options.size or (display.width, display.height)
    pygame.display.set_caption("Solitaire")
    screen = pygame.display.set_mode(size, flags)
    pygame.mouse.set_visible(display.show_cursor)
    return screen


def open_app(options: LaunchOptions, *, game: Game | None = None) -> App:
    # The operator's config (config.toml, or $SOLITAIRE_CONFIG when None); the kiosk's
    # defaults stand in with options.kiosk (game.config). Its problems are logged once: on
    # stderr, or with a session in its log (and the journal) once that is open.
    config, problems = load_config(options.config, kiosk=options.kiosk)
    display, rules, pointer = config.display, config.game, config.input
    if options.persist:
        install_sigterm_handler()
        prepare_sdl(config)
    screen = open_window(config, options)
    from game.app import App
    from game.arcade.play import Arcade
    from game.games import GameChoice
    from game.input import InputTuning
    from game.saves.prefs import load_prefs, save_prefs
    from game.saves.storage import state_dir

    directory = options.state_dir or state_dir()

    session, resumed = None, None
    if not options.persist:
        log_problems(problems)
    else:
        session, resumed = _open_session(config, problems, directory)
        if game is None and resumed is not None:
            game = resumed.game
    settings = load_prefs(config, directory, clear=options.persist)
    if options.locale:
        settings = replace(settings, locale=options.locale)

    def save_settings(changed: PlayerSettings) -> None:
        save_prefs(changed, config, directory)

    tuning = InputTuning(
        double_tap_ms=pointer.double_tap_ms,
        tap_slop_mm=pointer.tap_slop_mm,
        drag_threshold_mm=pointer.drag_threshold_mm,
        echo_ms=pointer.echo_ms,
    )
    choice = GameChoice.from_options(
        game=rules.default_game,
        options={i.option_key: getattr(rules, i.option_key) for i in REGISTRY.game_infos()},
        level=rules.russian_level,
        winnable_only=rules.winnable_only,
    )
    arcade = Arcade.open(
        directory,
        initials=config.arcade.initials,
        size=config.arcade.table_size,
        blocked=config.arcade.blocked_initials,  # the operator's words, besides the list
    )
    parts = compose(
        screen,
        settings=settings,
        save_settings=save_settings,
        tuning=tuning,
        px_per_mm=effective_px_per_mm(config, *screen.get_size()),
        choice=choice,
        undo_depth=rules.undo_depth,
        rotate=display.rotate,
        arcade=arcade,
        audio=options.audio,
    )
    kiosk: KioskFactory | None = None
    watchers: list[Watcher] = []
    if session is not None:
        from game.kiosk.controller import kiosk_factory

        kiosk = kiosk_factory(config, session, resumed=resumed is not None and resumed.game is game)
        if config.metrics.textfile_dir:
            from game.kiosk.metrics import metrics_watcher

            watchers.append(metrics_watcher(session, config.metrics.textfile_dir))
        _guard_x11_window(parts.hooks, session)
    return App(
        parts,
        game if game is not None else parts.games.new(None),
        elapsed=resumed.elapsed if resumed is not None else 0.0,
        kiosk=kiosk,
        watchers=watchers,
    )


def _guard_x11_window(hooks: Hooks, session: Session) -> None:
    """On X11, a destroyed window or a lost X server still saves (see game.kiosk.xguard)."""
    if pygame.display.get_driver() != "x11":
        return
    from game.kiosk import xguard

    guard = xguard.WindowGuard()
    if guard.install(session.shutdown):
        hooks.add(guard)


def _open_session(
    config: Config, problems: list[str], directory: Path
) -> tuple[Session, Resumed | None]:
    """The kiosk session (logs, crash hook, autosave, statistics) and the game to resume. The
    config's problems go to its log."""
    from game.kiosk.session import Session

    session = Session.open(config, directory)
    log_problems(problems)
    return session, session.resume()


PLAIN_SCENES: tuple[Literal["newgame", "settings", "scores", "stats"], ...] = (
    "newgame",
    "settings",
    "scores",
    "stats",
)


def show_scene(app: App, scene: str) -> None:
    """Push the named scene over the table (screenshots and tools)."""
    scenes: Stack = app.scenes  # each scene's opening checked (game.host.Stack)
    if scene == "keypad":
        scenes.open("newgame")
        scenes.open("keypad", text="RU1-C-AAAA")
    elif scene == "rules":
        scenes.open("settings")
        scenes.open("rules")
    elif scene == "win":
        scenes.open("win", game=app.table.game, play_time=app.table.play_time)
    elif scene in PLAIN_SCENES:
        scenes.open(next(name for name in PLAIN_SCENES if name == scene))
    elif scene == "initials":
        scenes.open("initials", ranks=app.tr("arcade.rank_today", place=1))
    elif scene in ("operator", "entries"):
        scenes.open("operator", controller=app.kiosk)
        if scene == "entries":
            scenes.open("entries")
    elif scene.startswith("attract"):  # attract, attract-today, attract-all, attract-howto
        scenes.open("attract", showing=scene.partition("-")[2] or "demo")


def save_screenshot(app: App, path: Path, scene: str = "table") -> None:
    show_scene(app, scene)
    app.step()
    if scene == "win":
        for _ in range(90):
            app.step()
    else:
        app.full_redraw = True
        app.draw()
    app.presenter.present([app.screen.get_rect()])
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(app.presenter.window, str(path))


def save_layout_json(app: App, path: Path) -> None:
    """Where every card and button of the table is drawn (game.table.report), as JSON."""
    import json

    from game.table.report import layout_report

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(layout_report(app.table), indent=1) + "\n", encoding="utf-8")
