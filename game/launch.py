"""Open the window and build the App from config.toml (when game.config is there) and the
player's saved settings; write screenshots of any scene.

This is the composition root: :func:`open_run` opens what a saved run keeps (its session, the
high scores wired to it, the game to resume), :func:`compose` makes the parts the loop and its
scenes share (game.app.Parts: the table's listeners among them, in their one order) and
:func:`build_app` hands them to the App, with the kiosk only for a kiosk; the App only runs the
loop.

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
from typing import TYPE_CHECKING

import pygame

from engine.rules import REGISTRY
from game.clock import FixedClock, FrameWindow, PlayTime
from game.config import Config, effective_px_per_mm, load_config
from game.kiosk.startup import install_sigterm_handler, prepare_sdl
from game.look.display import Presenter
from game.look.png import save_png
from game.scenes import register_scenes

if TYPE_CHECKING:
    from engine import Game
    from game.app import App, KioskFactory, Parts
    from game.arcade.play import Arcade
    from game.games import GameChoice
    from game.hooks import TableHooks
    from game.host import Stack
    from game.input import InputTuning
    from game.kiosk.xguard import WindowGuard
    from game.saves.persist import Resumed
    from game.saves.prefs import PlayerSettings
    from game.saves.session import Session


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


@dataclass
class SavedRun:
    """What a run that keeps its state has, a desktop's as a kiosk's (game.saves): the session
    (autosave, statistics, logs, the crash save), the high scores wired to it and the game to
    resume. ``config``: the operator's (whether this run is a kiosk: game.kiosk.models)."""

    config: Config
    session: Session
    arcade: Arcade
    resumed: Resumed | None


def open_run(
    config: Config,
    directory: Path,
    *,
    problems: list[str] | None = None,
    logging_on: bool = True,
    crash_hook: bool = True,
) -> SavedRun:
    """The session in ``directory`` (with ``logging_on`` its log, where the config's
    ``problems`` go; with ``crash_hook`` a crash saves), the high scores wired to it both ways
    and the saved game to resume, if any."""
    from game.saves.session import Session

    def with_win(game: Game) -> dict[str, object]:
        """Kept with a saved game: its win's result (a won game resumed shows its rank)."""
        record = arcade.saved_record(game)  # (the arcade below: asked at the first save)
        return {"win": record} if record else {}

    session = Session.open(
        config, directory, logging_on=logging_on, crash_hook=crash_hook, meta=with_win
    )
    log_problems(problems or [])
    resumed = session.resume()
    arcade = _open_arcade(
        config,
        directory,
        seconds=lambda: session.clock.seconds,  # the table's play time (compose)
        game_id=lambda: session.game_id,  # a win is entered once per game
        changed=session.checkpoint,  # a signed win is saved with its game at once
    )
    return SavedRun(config, session, arcade, resumed)


def _open_arcade(
    config: Config,
    directory: Path | None,
    seconds: Callable[[], float],
    game_id: Callable[[], str] = lambda: "",
    changed: Callable[[Game], object] = lambda game: None,
) -> Arcade:
    from game.arcade.play import Arcade

    return Arcade.open(
        directory,
        initials=config.arcade.initials,
        size=config.arcade.table_size,
        blocked=config.arcade.blocked_initials,  # the operator's words, besides the list
        seconds=seconds,
        game_id=game_id,
        changed=changed,
    )


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
    play_time: PlayTime | None = None,
    audio: bool = True,
    run: SavedRun | None = None,
    guard_x11: bool = False,
) -> Parts:
    """The parts of an App on ``screen`` (shown turned by ``rotate``). With a saved ``run``,
    its session, play time and high scores (and its metrics when the config asks; an ``arcade``
    or ``play_time`` beside it is a ValueError); else ``arcade`` and ``play_time`` (the arcade
    reading that play time), or without them (tools, tests) tables kept in memory, where nobody
    is asked to sign. ``audio`` False (a screenshot run): never sound, the setting shown as
    saved; ``guard_x11``: on X11 a lost window or X server still saves the run."""
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

    session = run.session if run is not None else None
    if run is not None:
        if arcade is not None or play_time is not None:  # one of them would be dropped
            raise ValueError("a saved run has its own high scores and play time")
        arcade, play_time = run.arcade, run.session.clock
    presenter = Presenter(screen, rotate)
    prefs = Preferences(settings, save_settings)
    time = play_time if play_time is not None else PlayTime()
    arcade = arcade or Arcade.open(None, initials=False, seconds=lambda: time.seconds)
    sounds = Sounds(enabled=prefs.settings.sound and audio, volume=prefs.settings.volume)

    def follow_sound(changed: PlayerSettings) -> None:
        sounds.set_volume(changed.volume)
        sounds.set_enabled(changed.sound and audio)

    prefs.listeners.append(follow_sound)
    workers, frames = Workers(), FrameWindow()
    venue = None
    if run is not None and run.config.venue.on:  # the venue's tables over MQTT (issue 42)
        from game.kiosk.venue_link import join_venue

        venue = join_venue(run.config.venue, arcade)
    metrics = None
    if run is not None and run.config.metrics.textfile_dir and session is not None:
        from game.kiosk.metrics import session_metrics

        textfile_dir = run.config.metrics.textfile_dir
        metrics = session_metrics(session, workers, frames, textfile_dir, venue)
    guard = _guard_x11_window(session) if guard_x11 and session is not None else None
    # Every listener of the table's reports, in the order each report reaches them (the one
    # list; game.hooks). The kiosk is none: the App steps it after them (game.app.App.update).
    listeners: list[TableHooks | None] = [
        CardSounds(sounds),  # the card sounds, at once
        arcade,  # a win enters the high scores before the session saves it with its rank
        session,  # autosave, statistics, the game's log (a saved run)
        metrics,  # after the session: a game's end is counted when they write
        venue,  # [venue]: the venue's tables to the board each step; quits after the save
        guard,  # X11: a lost window posts QUIT (which saves)
    ]
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
        workers=workers,
        hooks=Hooks(listener for listener in listeners if listener is not None),
        sounds=sounds,
        scenes=scenes,
        play_time=time,
        px_per_mm=px_per_mm,
        frame_times=frames,
        session=session,
        event_filters=[metrics.saw_input] if metrics is not None else [],
    )


def build_app(parts: Parts, game: Game | None = None, run: SavedRun | None = None) -> App:
    """The App on ``parts``, playing ``game``, else the run's resumed one, else a new deal.
    With a saved ``run``: a game not resumed is a fresh deal (saved and logged), a won one
    resumed has its win back (its rank and initials), and for a kiosk
    (game.kiosk.models.is_kiosk) the kiosk controller joins, with its lock applied."""
    from game.app import App

    kiosk: KioskFactory | None = None
    if run is not None:
        from game.kiosk.models import apply_lock, is_kiosk

        resumed = run.resumed.game if run.resumed is not None else None
        game = game if game is not None else resumed
        game = game if game is not None else parts.games.new(None)
        session = run.session
        if game is not resumed:
            session.started(game)
        elif game.is_won:
            run.arcade.restore(game, session.resumed_meta.get("win"), session.game_id)
        if is_kiosk(run.config):
            from game.kiosk.controller import kiosk_factory

            kiosk = kiosk_factory(run.config, session)
            apply_lock(run.config)
    return App(parts, game if game is not None else parts.games.new(None), kiosk=kiosk)


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
    # stderr, or with a saved run in its log (and the journal) once that is open.
    config, problems = load_config(options.config, kiosk=options.kiosk)
    display, rules, pointer = config.display, config.game, config.input
    if options.persist:
        install_sigterm_handler()
        prepare_sdl(config)
    screen = open_window(config, options)
    from game.games import GameChoice
    from game.input import InputTuning
    from game.saves.prefs import load_prefs, save_prefs
    from game.saves.storage import state_dir

    directory = options.state_dir or state_dir()
    run, play_time, arcade = None, None, None
    if options.persist:
        run = open_run(config, directory, problems=problems)
    else:  # a screenshot run: the high scores shown as kept, nothing else read or saved
        log_problems(problems)
        play_time = shown_time = PlayTime()
        arcade = _open_arcade(config, directory, seconds=lambda: shown_time.seconds)
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
        play_time=play_time,
        audio=options.audio,
        run=run,
        guard_x11=True,
    )
    return build_app(parts, game, run)


def _guard_x11_window(session: Session) -> WindowGuard | None:
    """On X11, a destroyed window or a lost X server still saves (see game.kiosk.xguard)."""
    if pygame.display.get_driver() != "x11":
        return None
    from game.kiosk import xguard

    guard = xguard.WindowGuard()
    return guard if guard.install(session.shutdown) else None


def _over(*openings: Callable[[Stack, App], object]) -> Callable[[App], None]:
    """A screenshot's scene: ``openings`` made in turn on the app's scene stack, each checked
    by mypy against that scene's own arguments (game.host.Stack)."""

    def show(app: App) -> None:
        for opening in openings:
            opening(app.scenes, app)

    return show


# The --scene names of main.py's screenshots, in the order --scene lists them, and how each is
# opened: the one list of them (every scene of the game is registered in game.scenes).
SHOWN: dict[str, Callable[[App], None]] = {
    "table": _over(),
    "newgame": _over(lambda s, a: s.open("newgame")),
    "keypad": _over(
        lambda s, a: s.open("newgame"), lambda s, a: s.open("keypad", text="RU1-C-AAAA")
    ),
    "settings": _over(lambda s, a: s.open("settings")),
    "rules": _over(lambda s, a: s.open("settings"), lambda s, a: s.open("rules")),
    "win": _over(
        lambda s, a: s.open("win", game=a.table.model.game, play_time=a.table.model.play_time)
    ),
    "initials": _over(lambda s, a: s.open("initials", ranks=a.tr("arcade.rank_today", place=1))),
    "operator": _over(lambda s, a: s.open("operator", controller=a.kiosk)),
    "entries": _over(
        lambda s, a: s.open("operator", controller=a.kiosk), lambda s, a: s.open("entries")
    ),
    "attract": _over(lambda s, a: s.open("attract", showing="demo")),
    "attract-today": _over(lambda s, a: s.open("attract", showing="today")),
    "attract-all": _over(lambda s, a: s.open("attract", showing="all")),
    "attract-howto": _over(lambda s, a: s.open("attract", showing="howto")),
    "scores": _over(lambda s, a: s.open("scores")),
    "stats": _over(lambda s, a: s.open("stats")),
}


def show_scene(app: App, scene: str) -> None:
    """Push the named scene (a name of :data:`SHOWN`) over the table (screenshots and tools);
    a name not there shows the table alone."""
    SHOWN.get(scene, SHOWN["table"])(app)


def save_screenshot(app: App, path: Path, scene: str = "table") -> None:
    app.workers.starts = False  # no solver process: none could answer in the picture's frames
    show_scene(app, scene)
    app.step()
    if scene == "win":
        for _ in range(90):
            app.step()
    else:
        app.full_redraw = True
        app.draw()
    app.presenter.present([app.screen.get_rect()])
    save_png(app.presenter.window, path)


def save_layout_json(app: App, path: Path) -> None:
    """Where every card and button of the table is drawn (game.dev.report), as JSON."""
    import json

    from game.dev.report import layout_report

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(layout_report(app.table), indent=1) + "\n", encoding="utf-8")
