"""A scripted player for tests and bug reports: plays a session headless through the real input
layer (pointer events into the gesture reader), stepping the fixed clock.

python -m game.script --size 800x480 --code RU1-C-AAAAABB tap 4C drag 9S t6 state out.json

It starts as the game does (config.toml, the player's settings, the saved game when there is no
``--code``; the state directory is the usual one or $SOLITAIRE_STATE_DIR). Steps:

- ``tap X``, ``double X``, ``drag X Y``: X and Y are a card (``7H``) or a pile (``t1``..``t10``,
  ``f``, ``c1``..``c4``); a card is touched in the middle of the part of it that shows.
- ``hold X SECONDS``: a long press: the finger rests on X (as for ``tap``, or ``code``: the game
  code in the info bar, where the operator's long press opens the PIN keypad) while the clock
  runs on, then lifts.
- ``press BUTTON``: the table's ``newgame``, ``undo``, ``redo``, ``hint`` (``finish`` in its
  place once the rest of the game is certain), ``settings``, or a button of the dialog on top by
  its action's name or its label (a toggle of Settings: on its switch, which alone turns it).
- ``key NAME``: a key (pygame's names: ``backspace``, ``h``, ``escape``).
- ``wait SECONDS``: the clock runs on (1/60 s steps).
- ``sleep SECONDS``: the loop runs on in real time, a frame each 1/60 s of the wall clock, so
  that what other threads bring meanwhile arrives (the venue's tables, game.kiosk.venue_link).
- ``shot FILE.png``: the screen as shown.
- ``state FILE.json``: ``Game.to_dict()`` plus ``"scene"`` (the top scene's name),
  ``"message"`` (the text of the toast on screen, else null), ``"sound"`` (``on``,
  ``audible``: on and an audio device playing, ``volume``), ``"deal"`` (the kind of deal the
  table's title names: "daily", "easy", ..., "random"), ``"title"`` (the table's title text),
  ``"texts"`` (the texts of the screen on top: a dialog's titles, fields and lines, the
  attract screen's board), ``"buttons"`` (a dialog's buttons: name, label, rect, selected)
  and ``"settings"`` (the player's settings: toggles, ``locale``, sound).

``--date YYYY-MM-DD`` plays that day (today's deal and the daily high scores; game.arcade.play).
The ``state`` file's ``"layout"`` is the table's layout report (game.dev.report: each card's
rectangle, the part of it that shows, and ``strip``: how many pixels show of a covered face-up
card of a column). ``--set NAME=VALUE`` sets a player setting for this run
(``double_tap=false``) without saving it. Exit status 0, or 1 with a message on stderr when a
step cannot be done. A win screen looking at the table (its bar only) leaves the table's cards
and buttons to ``tap``, ``drag``, ``press``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.dev.shown import action_name, dialog_buttons, shown_texts

if TYPE_CHECKING:
    from pygame import Rect

    from game.app import App

STEP_ARGS = {"tap": 1, "double": 1, "drag": 2, "press": 1, "key": 1, "wait": 1, "shot": 1}
STEP_ARGS |= {"state": 1, "hold": 2, "sleep": 1}
FRAME = 1 / 60
SETTLE = 0.6  # seconds after each gesture: animations end before the next step
DRAG_STEPS = 8


class StepError(Exception):
    """A step that cannot be done (a card not on screen, a button not there)."""


def parse_steps(words: list[str]) -> list[tuple[str, list[str]]]:
    steps: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(words):
        name = words[i]
        if name not in STEP_ARGS:
            raise StepError(f"unknown step {name!r} (steps: {', '.join(STEP_ARGS)})")
        count = STEP_ARGS[name]
        args = words[i + 1 : i + 1 + count]
        if len(args) < count:
            raise StepError(f"step {name!r} needs {count} argument(s)")
        steps.append((name, args))
        i += 1 + count
    return steps


def parse_seconds(step: str, text: str) -> float:
    """A step's SECONDS: 0 to 3600."""
    try:
        value = float(text)
    except ValueError:
        raise StepError(f"{step}: seconds, not {text!r}") from None
    if not 0 <= value <= 3600:
        raise StepError(f"{step}: 0 to 3600 seconds, not {value}")
    return value


def parse_setting(text: str, known: dict[str, Any]) -> tuple[str, Any]:
    """``NAME=VALUE`` as the setting's type (true/false, a number, a word)."""
    name, sep, raw = text.partition("=")
    if not sep or name not in known:
        raise StepError(f"--set {text!r}: settings are {', '.join(sorted(known))}")
    current = known[name]
    if isinstance(current, bool):
        if raw.lower() not in ("true", "false", "on", "off", "1", "0"):
            raise StepError(f"--set {name}: true or false, not {raw!r}")
        return name, raw.lower() in ("true", "on", "1")
    if isinstance(current, int):
        try:
            return name, int(raw)
        except ValueError:
            raise StepError(f"--set {name}: a whole number, not {raw!r}") from None
    if isinstance(current, float):
        try:
            return name, float(raw)
        except ValueError:
            raise StepError(f"--set {name}: a number, not {raw!r}") from None
    return name, raw


class Player:
    """Plays steps on ``app``: pointer events as a touch screen sends them."""

    def __init__(self, app: App) -> None:
        self.app = app

    # ----------------------------------------------------------------- time and events
    def frames(self, seconds: float) -> None:
        for _ in range(max(1, round(seconds / FRAME))):
            self.app.step()

    def _send(self, kind: int, pos: tuple[int, int], **extra: Any) -> None:
        import pygame

        event = pygame.event.Event(kind, pos=pos, button=1, touch=True, **extra)
        self.app.step([event])

    def down(self, pos: tuple[int, int]) -> None:
        import pygame

        self._send(pygame.MOUSEBUTTONDOWN, pos)

    def up(self, pos: tuple[int, int]) -> None:
        import pygame

        self._send(pygame.MOUSEBUTTONUP, pos)

    def move(self, pos: tuple[int, int]) -> None:
        import pygame

        self._send(pygame.MOUSEMOTION, pos, rel=(0, 0), buttons=(1, 0, 0))

    # ----------------------------------------------------------------- where things are
    def _table_on_top(self, what: str) -> None:
        top = self.app.scenes.top  # the table, or a win screen looking at it (only its bar)
        if top is not self.app.table and getattr(top, "looking", False) is not True:
            raise StepError(f"{what}: the {top.name} screen is on top")

    def _card_rect(self, name: str) -> tuple[Rect, Rect]:
        """A card's rectangle and the part of it that shows."""
        from pygame import Rect

        from game.dev.report import layout_report

        for card in layout_report(self.app.table)["cards"]:
            if card["card"] == name:
                visible = Rect(card["visible"])
                if visible.height <= 0:
                    raise StepError(f"{name} is covered whole")
                return Rect(card["rect"]), visible
        raise StepError(f"{name} is not on the table")

    def _pile_rect(self, name: str) -> Rect | None:
        """The rectangle that shows pile ``name`` (its top card or its empty slot)."""
        from pygame import Rect

        from engine.cards import card_name

        table, lay = self.app.table, self.app.table.model.layout
        game = table.model.game
        if name == "f":
            return lay.foundation_zone()
        kind, number = name[:1], name[1:]
        if kind in ("t", "c") and number.isdigit():
            i = int(number) - 1
            if kind == "t" and 0 <= i < len(game.cols):
                col = game.cols[i]
                return self._card_rect(card_name(col[-1]))[0] if col else Rect(lay.columns[i])
            if kind == "c" and 0 <= i < len(lay.cells):
                return Rect(lay.cells[i])
        return None

    def point(self, target: str) -> tuple[int, int]:
        """Where a finger touches ``target``: a card's showing part, or a pile's top."""
        self._table_on_top(f"touch {target}")
        pile = self._pile_rect(target)
        if pile is not None:
            if target.startswith("t"):
                col = self.app.table.model.game.cols[int(target[1:]) - 1]
                if col:  # the top card: the middle of what shows of it
                    from engine.cards import card_name

                    return self._card_rect(card_name(col[-1]))[1].center
            return pile.center
        return self._card_rect(target.upper())[1].center

    # ----------------------------------------------------------------- steps
    def tap(self, target: str) -> None:
        pos = self.point(target)
        self.down(pos)
        self.up(pos)
        self.frames(SETTLE)

    def double(self, target: str) -> None:
        pos = self.point(target)
        for _ in range(2):
            self.down(pos)
            self.up(pos)
        self.frames(SETTLE)

    def hold(self, target: str, seconds: str) -> None:
        value = parse_seconds("hold", seconds)
        pos = self.code_point() if target == "code" else self.point(target)
        self.down(pos)
        self.frames(value)
        self.up(pos)
        self.frames(SETTLE)

    def code_point(self) -> tuple[int, int]:
        """A point on the game code, which the info bar shows at its right end."""
        self._table_on_top("hold code")
        lay = self.app.table.model.layout
        bar = lay.info_bar
        return bar.right - 2 * lay.margin - 3 * lay.text_size, bar.centery

    def _card_name(self, target: str) -> str:
        """The card ``target`` names: a card, or the top card of a column or a cell's card."""
        from engine.cards import card_name
        from engine.game import EMPTY

        game = self.app.table.model.game
        kind, number = target[:1], target[1:]
        if kind in ("t", "c") and number.isdigit():
            i = int(number) - 1
            if kind == "t" and 0 <= i < len(game.cols) and game.cols[i]:
                return card_name(game.cols[i][-1])
            if kind == "c" and 0 <= i < len(game.cells) and game.cells[i] != EMPTY:
                return card_name(game.cells[i])
            raise StepError(f"{target} holds no card")
        if target == "f":
            raise StepError("drag from f: name the card (AS)")
        return target.upper()

    def drag(self, source: str, dest: str) -> None:
        self._table_on_top(f"drag {source}")
        from engine.cards import parse_card

        name = self._card_name(source)
        grabbed, shows = self._card_rect(name)
        start = shows.center
        lay = self.app.table.model.layout
        if dest == "f":
            target = lay.foundations[parse_card(name) // 13]
        else:
            pile = self._pile_rect(dest)
            if pile is None:
                pile = self._card_rect(dest.upper())[0]
            covered = dest[:1] not in ("c", "t") or self._card_name_or_none(dest) is not None
            target = pile.move(0, lay.card_h // 3) if covered else pile
        end = (target.x + start[0] - grabbed.x, target.y + start[1] - grabbed.y)
        self.down(start)
        for k in range(1, DRAG_STEPS + 1):
            x = start[0] + (end[0] - start[0]) * k // DRAG_STEPS
            y = start[1] + (end[1] - start[1]) * k // DRAG_STEPS
            self.move((x, y))
        self.up(end)
        self.frames(SETTLE)

    def _card_name_or_none(self, target: str) -> str | None:
        """A column's top card (None: an empty column); a cell never counts as covered."""
        if target.startswith("c"):
            return None
        try:
            return self._card_name(target)
        except StepError:
            return None

    def press(self, name: str) -> None:
        from game.dev.report import button_name
        from game.look.switches import tap_point

        app = self.app
        top = app.scenes.top
        own = [action_name(c.action) for c in getattr(top, "controls", []) if c.action]
        if top is app.table or (getattr(top, "looking", False) is True and name not in own):
            shown = app.table.shown_buttons()  # Finish in Hint's place when certain
            for button, rect in shown.items():
                if name in (button, button_name(button)):
                    self.down(rect.center)
                    self.up(rect.center)
                    self.frames(SETTLE)
                    return
            raise StepError(
                f"no button {name!r} on the table ({', '.join(map(button_name, shown))})"
            )
        controls = getattr(top, "controls", [])
        names = []
        for control in controls:
            if not control.action:
                continue
            action = action_name(control.action)
            names.append(control.name or action or control.label)
            if name in (control.name, action) or name.lower() == control.label.lower():
                self.down(at := tap_point(control))  # a toggle: on its switch
                self.up(at)
                self.frames(SETTLE)
                return
        raise StepError(f"no button {name!r} on the {top.name} screen: {', '.join(names)}")

    def key(self, name: str) -> None:
        import pygame

        try:
            code = pygame.key.key_code(name)
        except ValueError:
            raise StepError(f"unknown key {name!r}") from None
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            self.app.step([pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0)])
        self.frames(SETTLE)

    def wait(self, seconds: str) -> None:
        self.frames(parse_seconds("wait", seconds))

    def sleep(self, seconds: str) -> None:
        end = time.monotonic() + parse_seconds("sleep", seconds)
        while time.monotonic() < end:
            self.app.step()
            time.sleep(FRAME)

    def shot(self, path: str) -> None:
        from game.look.png import save_png

        app = self.app
        app.full_redraw = True
        app.draw()
        app.presenter.present([app.screen.get_rect()])
        save_png(app.presenter.window, path)

    def state(self, path: str) -> None:
        table = self.app.table
        data: dict[str, object] = {**table.model.game.to_dict()}
        data["scene"] = self.app.scenes.top.name
        data["message"] = table.model.toast.text if table.model.toast else None
        sounds = self.app.sounds
        data["sound"] = {"on": sounds.enabled, "audible": sounds.audible, "volume": sounds.volume}
        data["deal"] = table.model.deal
        data["title"] = table.view.chrome.title_text() if table.view is not None else None
        data["texts"] = shown_texts(self.app.scenes.top)
        data["buttons"] = dialog_buttons(self.app.scenes.top)
        data["settings"] = self.app.settings.to_dict()
        data["layout"] = table_layout(table)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")

    def play(self, steps: list[tuple[str, list[str]]]) -> None:
        for name, args in steps:
            getattr(self, name)(*args)


def build_parser() -> argparse.ArgumentParser:
    from main import parse_size

    about = "play a scripted session headless"
    parser = argparse.ArgumentParser(prog="python -m game.script", description=about)
    parser.add_argument("--size", type=parse_size, required=True, help="e.g. 800x480")
    parser.add_argument("--code", help="start with this deal (else the saved game resumes)")
    parser.add_argument("--locale", help="fi, ru or en")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--date", help="play this day, YYYY-MM-DD (today's deal, high scores)")
    parser.add_argument("steps", nargs="*", help="tap X, double X, drag X Y, press B, ...")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from engine import CodeError, Game
    from game.config import default_config_path
    from game.launch import LaunchOptions, open_app

    try:
        steps = parse_steps(args.steps)
        game = Game.from_code(args.code) if args.code else None
        if args.date:
            from engine.daily import parse_day
            from game.arcade.play import TODAY_ENV

            os.environ[TODAY_ENV] = parse_day(args.date).isoformat()
    except (StepError, CodeError, ValueError) as error:
        print(f"game.dev.script: {error}", file=sys.stderr)
        return 1
    options = LaunchOptions(
        config=default_config_path(), windowed=True, size=args.size, locale=args.locale
    )
    app = open_app(options, game=game)
    try:
        known = {f.name: getattr(app.settings, f.name) for f in fields(app.settings)}
        for text in args.set:
            name, value = parse_setting(text, known)
            app.prefs.settings = replace(app.prefs.settings, **{name: value})
        app.step()
        Player(app).play(steps)
    except StepError as error:
        print(f"game.dev.script: {error}", file=sys.stderr)
        return 1
    finally:
        app.close()
    return 0


def table_layout(table: Any) -> dict[str, Any] | None:
    """The table's layout report (game.dev.report), when the table is drawn."""
    from game.dev.report import layout_report

    return layout_report(table) if table.view is not None else None


if __name__ == "__main__":
    sys.exit(main())
