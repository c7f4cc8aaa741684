"""Start the solitaire table: fullscreen from config.toml, or windowed, or just a screenshot.

python main.py                         # as config.toml says
python main.py --windowed --size 1024x600
python main.py --code RU1-C-AAAAABB    # a given deal
python main.py --screenshot out.png --size 800x480 --code RU1-C-AAAAABB --moves 4C-f ...
python main.py --screenshot out.png --scene newgame --locale fi
python main.py --screenshot out.png --layout-json out.json --size 800x480   # and the layout
python main.py --kiosk                 # as the kiosk units: a broken config leaves it locked
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine import Game

DEFAULT_SIZE = (1280, 800)


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 800x480, not {text!r}") from None
    if not (240 <= w <= 8000 and 240 <= h <= 8000):
        raise argparse.ArgumentTypeError(f"size {text!r} is outside 240..8000 pixels a side")
    return w, h


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Russian Solitaire and Seahaven Towers")
    parser.add_argument("--windowed", action="store_true", help="a window instead of fullscreen")
    parser.add_argument("--size", type=parse_size, help="window or screenshot size, e.g. 800x480")
    parser.add_argument("--code", help="start with this deal, e.g. RU1-C-AAAAABB")
    parser.add_argument(
        "--config", type=Path, help="default: $SOLITAIRE_CONFIG, else config.toml beside main.py"
    )
    parser.add_argument("--state-dir", type=Path, help="where settings and saves are kept")
    parser.add_argument("--locale", help="language: " + ", ".join(("fi", "ru", "en")))
    parser.add_argument("--screenshot", type=Path, help="write a PNG of the screen and exit")
    parser.add_argument(
        "--layout-json",
        type=Path,
        metavar="FILE",
        help="with --screenshot: also write where every card and button is (JSON)",
    )
    parser.add_argument("--moves", nargs="*", default=[], help="moves to play first (7H-t5 ...)")
    parser.add_argument(
        "--scene",
        default="table",
        help="with --screenshot: the screen to show, e.g. newgame (a wrong name lists them; "
        "game.launch.SHOWN holds them)",
    )
    parser.add_argument(
        "--probe-video",
        action="store_true",
        help="open a small window with SDL's video driver and exit 0 (kiosk/run-wayland.sh)",
    )
    parser.add_argument(
        "--check-config",
        type=Path,
        metavar="FILE",
        help="report every problem of a config file; exit 1 when there is one",
    )
    parser.add_argument(
        "--kiosk",
        action="store_true",
        help="run as the kiosk units do: what the config does not say, says wrongly, or a config "
        "that cannot be read at all (not TOML, missing) falls back to the kiosk defaults: "
        "lock on, fullscreen, no cursor (with --check-config: check it that way)",
    )
    return parser


PROBE_LIMIT_S = 8
"""The video probe ends itself after this long (kiosk/run-wayland.sh also gives it a limit)."""


def probe_video() -> int:
    """Open and draw a 64x64 window with the chosen SDL video driver: 0 when that works (a
    driver that crashes the process, as SDL's wayland driver can without EGL, never returns).

    A probe must never hang the kiosk: SDL installs no SIGTERM/SIGINT handler of its own (that
    handler only posts a QUIT event, which nobody reads here, so a probe stuck in the driver
    ignored SIGTERM), and SIGALRM, whose default action ends the process even inside C code,
    comes after PROBE_LIMIT_S seconds."""
    import signal

    os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(PROBE_LIMIT_S)
    import pygame

    try:
        pygame.display.init()
        screen = pygame.display.set_mode((64, 64))
        screen.fill((0, 0, 0))
        pygame.display.flip()
        driver = pygame.display.get_driver()
    except pygame.error as error:
        print(f"main.py: the video driver failed: {error}", file=sys.stderr)
        return 1
    finally:
        pygame.display.quit()
    print(driver)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.check_config:
        from game.config import check_config_file

        return check_config_file(args.check_config, kiosk=args.kiosk)
    if args.probe_video:
        return probe_video()
    if args.screenshot:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

    from game.config import default_config_path
    from game.launch import SHOWN, LaunchOptions, open_app

    if args.scene not in SHOWN:  # as argparse words it (--scene's names are game.launch's)
        choices = ", ".join(map(repr, SHOWN))
        parser.error(f"argument --scene: invalid choice: {args.scene!r} (choose from {choices})")

    game: Game | None = None
    if args.code:  # the engine's modules only for a given deal: the window comes first
        from engine import CodeError, Game, IllegalMove

        try:
            game = Game.from_code(args.code)
        except CodeError as error:
            print(f"main.py: bad --code: {error}", file=sys.stderr)
            return 2
        for text in args.moves:
            try:
                game.play(text)
            except IllegalMove as error:
                print(f"main.py: move {text!r} refused: {error}", file=sys.stderr)
                return 2
    elif args.moves:
        print("main.py: --moves needs --code", file=sys.stderr)
        return 2
    if args.layout_json and not args.screenshot:
        print("main.py: --layout-json needs --screenshot", file=sys.stderr)
        return 2
    options = LaunchOptions(
        config=args.config or default_config_path(),
        windowed=args.windowed or bool(args.screenshot),
        size=args.size or (DEFAULT_SIZE if args.screenshot else None),
        locale=args.locale,
        state_dir=args.state_dir,
        persist=not args.screenshot,
        audio=not args.screenshot,  # a headless tool run never opens the audio device
        kiosk=args.kiosk,
    )
    app = open_app(options, game=game)
    if args.screenshot:
        from game.launch import save_screenshot

        save_screenshot(app, args.screenshot, args.scene)
        print(args.screenshot)
        if args.layout_json:
            from game.launch import save_layout_json

            save_layout_json(app, args.layout_json)
            print(args.layout_json)
        return 0
    app.run()
    return app.exit_status


if __name__ == "__main__":
    sys.exit(main())
