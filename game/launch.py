"""Open the window and build the App from config.toml (when game.config is there) and the
player's saved settings; write screenshots of any scene."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pygame

from engine import Game
from game.app import App, GameChoice
from game.input import InputTuning
from game.settings import Settings, SettingsStore, default_state_dir


@dataclass
class LaunchOptions:
    config: Path | None = None
    windowed: bool = False
    size: tuple[int, int] | None = None
    locale: str | None = None
    state_dir: Path | None = None
    persist: bool = True  # autosave, statistics, logs, kiosk lock (off for screenshots)


def read_config(path: Path | None) -> Any:
    """The operator's Config, or None when game.config is not installed or the file is absent.
    Problems are printed, never fatal."""
    try:
        from game import config as config_module  # type: ignore[attr-defined]
    except ImportError:
        return None
    if path is None:
        return None
    config, problems = config_module.load_config(path)
    for problem in problems:
        print(f"config: {problem}", file=sys.stderr)
    return config


def _section(config: Any, name: str) -> Any:
    return getattr(config, name, None) if config is not None else None


def _get(section: Any, name: str, default: Any) -> Any:
    value = getattr(section, name, default) if section is not None else default
    return default if value is None else value


def open_app(options: LaunchOptions, *, game: Game | None = None) -> App:
    config = read_config(options.config)
    display = _section(config, "display")
    game_cfg = _section(config, "game")
    input_cfg = _section(config, "input")
    defaults_cfg = _section(config, "defaults")
    session, resumed = None, None
    if options.persist and config is not None:
        session, resumed = _open_session(options, config)
        if game is None and resumed is not None:
            game = resumed.game
        from game.kiosk import prepare_sdl

        prepare_sdl(config)
    pygame.display.init()
    pygame.font.init()
    fullscreen = _get(display, "fullscreen", True) and not options.windowed
    size = options.size or (
        int(_get(display, "width", 0) or 0),
        int(_get(display, "height", 0) or 0),
    )
    flags = 0
    if fullscreen:
        flags |= pygame.FULLSCREEN
        if not options.size:
            size = (0, 0)
    else:
        flags |= pygame.RESIZABLE
        if not size[0] or not size[1]:
            size = (1280, 800)
    pygame.display.set_caption("Solitaire")
    screen = pygame.display.set_mode(size, flags)
    pygame.mouse.set_visible(bool(_get(display, "show_cursor", True)))
    defaults = Settings(
        double_tap=bool(_get(defaults_cfg, "double_tap", True)),
        placement_help=bool(_get(defaults_cfg, "placement_help", True)),
        interactive_rules=bool(_get(defaults_cfg, "interactive_rules", True)),
        auto_placement=bool(_get(defaults_cfg, "auto_placement", False)),
        locale=str(_get(game_cfg, "locale", "fi")),
    )
    state_dir = options.state_dir or default_state_dir()
    store = SettingsStore(state_dir / "settings.json", defaults)
    settings = store.load()
    for problem in store.problems:
        print(f"settings: {problem}", file=sys.stderr)
    if options.locale:
        settings = replace(settings, locale=options.locale)
    tuning = InputTuning(
        double_tap_ms=int(_get(input_cfg, "double_tap_ms", 350)),
        tap_slop_mm=float(_get(input_cfg, "tap_slop_mm", 4.0)),
        drag_threshold_mm=float(_get(input_cfg, "drag_threshold_mm", 2.5)),
        echo_ms=int(_get(input_cfg, "echo_ms", 500)),
    )
    choice = GameChoice(
        game=str(_get(game_cfg, "default_game", "russian")),
        russian_rules=str(_get(game_cfg, "russian_rules", "classic")),
        seahaven_cells=int(_get(game_cfg, "seahaven_cells", 4)),
        level=str(_get(game_cfg, "russian_level", "any")),
        winnable_only=bool(_get(game_cfg, "winnable_only", False)),
    )
    px_per_mm = _get(display, "px_per_mm", None) or None
    if config is not None:
        try:
            from game import config as config_module  # type: ignore[attr-defined]

            px_per_mm = config_module.effective_px_per_mm(config, *screen.get_size())
        except (ImportError, AttributeError):
            pass
    app = App(
        screen,
        settings=settings,
        store=store,
        tuning=tuning,
        px_per_mm=float(px_per_mm) if px_per_mm else None,
        choice=choice,
        game=game,
        undo_depth=int(_get(game_cfg, "undo_depth", 100)),
        elapsed=resumed.elapsed if resumed is not None else 0.0,
    )
    if session is not None:
        from game.kiosk_ui import attach_kiosk

        attach_kiosk(app, config, session, resumed=resumed is not None and resumed.game is game)
    return app


def _open_session(options: LaunchOptions, config: Any) -> tuple[Any, Any]:
    """The kiosk session (logs, crash hook, autosave, statistics) and the game to resume."""
    import logging

    from game.config import load_config
    from game.session import Session

    session = Session.open(config, options.state_dir or default_state_dir())
    if options.config is not None:
        for problem in load_config(options.config)[1]:
            logging.getLogger("solitaire.config").warning("%s", problem)
    return session, session.resume()


def show_scene(app: App, scene: str) -> None:
    """Push the named scene over the table (screenshots and tools)."""
    from game import dialogs

    if scene == "newgame":
        app.push(dialogs.NewGameScene(app))
    elif scene == "keypad":
        app.push(dialogs.NewGameScene(app))
        keypad = dialogs.KeypadScene(app, "RU1-C-AAAA")
        app.push(keypad)
    elif scene == "settings":
        app.push(dialogs.SettingsScene(app))
    elif scene == "rules":
        app.push(dialogs.SettingsScene(app))
        app.push(dialogs.RulesScene(app))
    elif scene == "win":
        app.push(dialogs.WinScene(app, app.table.game, app.table.elapsed))


def save_screenshot(app: App, path: Path, scene: str = "table") -> None:
    show_scene(app, scene)
    app.step()
    if scene == "win":
        for _ in range(90):
            app.step()
    else:
        app.full_redraw = True
        app.draw()
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(app.screen, str(path))
