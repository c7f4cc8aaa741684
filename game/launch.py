"""Open the window and build the App from config.toml (when game.config is there) and the
player's saved settings; write screenshots of any scene."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path

import pygame

from engine import Game
from engine.rules import REGISTRY
from game.app import App
from game.arcade import Arcade
from game.config import Config, effective_px_per_mm, load_config
from game.games import GameChoice
from game.input import InputTuning
from game.kiosk import install_sigterm_handler, prepare_sdl
from game.persist import Resumed
from game.prefs import PlayerSettings, load_prefs, save_prefs
from game.session import Session
from game.storage import state_dir


@dataclass
class LaunchOptions:
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
    for problem in problems:
        logging.getLogger("solitaire.config").warning("%s", problem)


def open_app(options: LaunchOptions, *, game: Game | None = None) -> App:
    # The operator's config (config.toml, or $SOLITAIRE_CONFIG when None); the kiosk's
    # defaults stand in with options.kiosk (game.config). Its problems are logged once: on
    # stderr, or with a session in its log (and the journal) once that is open.
    config, problems = load_config(options.config, kiosk=options.kiosk)
    display, rules, pointer = config.display, config.game, config.input
    directory = options.state_dir or state_dir()
    session, resumed = None, None
    if not options.persist:
        log_problems(problems)
    else:
        install_sigterm_handler()
        session, resumed = _open_session(config, problems, directory)
        if game is None and resumed is not None:
            game = resumed.game
        prepare_sdl(config)
    pygame.display.init()
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
    app = App(
        screen,
        settings=settings,
        save_settings=save_settings,
        tuning=tuning,
        px_per_mm=effective_px_per_mm(config, *screen.get_size()),
        choice=choice,
        game=game,
        undo_depth=rules.undo_depth,
        rotate=display.rotate,
        elapsed=resumed.elapsed if resumed is not None else 0.0,
        arcade=arcade,
        audio=options.audio,
    )
    if session is not None:
        from game.kiosk_ui import attach_kiosk

        attach_kiosk(app, config, session, resumed=resumed is not None and resumed.game is game)
        if config.metrics.textfile_dir:
            from game.metrics import attach_metrics

            attach_metrics(app, session, config.metrics.textfile_dir)
        _guard_x11_window(app, session)
    return app


def _guard_x11_window(app: App, session: Session) -> None:
    """On X11, a destroyed window or a lost X server still saves (see game.xguard)."""
    if pygame.display.get_driver() != "x11":
        return
    from game import xguard

    if xguard.install(session.shutdown):
        app.hooks.add(xguard.WindowGuard())


def _open_session(
    config: Config, problems: list[str], directory: Path
) -> tuple[Session, Resumed | None]:
    """The kiosk session (logs, crash hook, autosave, statistics) and the game to resume. The
    config's problems go to its log."""
    session = Session.open(config, directory)
    log_problems(problems)
    return session, session.resume()


def show_scene(app: App, scene: str) -> None:
    """Push the named scene over the table (screenshots and tools)."""
    if scene == "keypad":
        app.scenes.open("newgame")
        app.scenes.open("keypad", text="RU1-C-AAAA")
    elif scene == "rules":
        app.scenes.open("settings")
        app.scenes.open("rules")
    elif scene == "win":
        app.scenes.open("win", game=app.table.game, play_time=app.table.play_time)
    elif scene in ("newgame", "settings", "scores", "stats"):
        app.scenes.open(scene)
    elif scene == "initials":
        app.scenes.open("initials", ranks=app.tr("arcade.rank_today", place=1))
    elif scene in ("operator", "entries"):
        app.scenes.open("operator", controller=app.kiosk)
        if scene == "entries":
            app.scenes.open("entries")
    elif scene.startswith("attract"):  # attract, attract-today, attract-all, attract-howto
        app.scenes.open("attract", showing=scene.partition("-")[2] or "demo")


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
