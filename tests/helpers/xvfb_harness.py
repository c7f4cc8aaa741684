"""Run the real game loop in a real window (tests/game/test_e2e_xvfb.py starts it under Xvfb) and
report what a player would see as JSON lines, so the test can aim its clicks and check results.

    python -m tests.helpers.xvfb_harness STATUS_FILE --size 800x480 --code RU1-C-AAAAABB --locale en

After each presented frame whose picture of the game changed, one line is appended: the top
scene, the window size, the position (``Game.to_dict``), the settings, the popup text, and
where things are (window coordinates): each face-up card, the table buttons and the top
dialog's controls (label -> where a click acts on it). Nothing in the game is changed; only
``present`` of the real loop is wrapped.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from main import parse_size


def snapshot(app: Any) -> dict[str, Any]:
    from engine.cards import card_name
    from game.look.switches import tap_point
    from game.scenes.rules import RulesScene

    table = app.table
    game = table.model.game
    cards: dict[str, list[int]] = {}
    for card, (x, y, up) in table.model.rest().items():
        if up:
            cards[card_name(card)] = [x, y, table.model.layout.card_w, table.model.layout.card_h]
    top = app.scenes.top
    controls = {  # where a click acts: a toggle's switch (the rest of its row only explains it)
        c.label: list(tap_point(c)) for c in getattr(top, "controls", []) if c.action is not None
    }
    return {
        "top": type(top).__name__,
        "size": list(app.screen.get_size()),
        "game": game.to_dict(),
        "settings": asdict(app.settings),
        "toast": table.model.toast.text if table.model.toast else "",
        "cards": cards,
        "buttons": {name: list(r.center) for name, r in table.model.layout.buttons.items()},
        "controls": controls,
        "scroll": getattr(top, "scroll", None),
        "view": list(top.view.center) if isinstance(top, RulesScene) else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("status", type=Path)
    parser.add_argument("--size", type=parse_size, default=(800, 480))
    parser.add_argument("--code", default="RU1-C-AAAAABB")
    parser.add_argument("--locale", default="en")
    parser.add_argument("--state-dir", type=Path)
    args = parser.parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_VIDEO_WINDOW_POS", "0,0")

    from engine import Game
    from game.launch import LaunchOptions, open_app

    options = LaunchOptions(
        windowed=True, size=args.size, locale=args.locale, state_dir=args.state_dir
    )
    app = open_app(options, game=Game.from_code(args.code))
    present = app.presenter.present
    last = ""

    def reporting_present(rects: list[Any]) -> None:
        nonlocal last
        present(rects)
        line = json.dumps(snapshot(app), sort_keys=True)
        if line != last:
            last = line
            with args.status.open("a", encoding="utf-8") as out:
                out.write(line + "\n")

    app.presenter.present = reporting_present  # type: ignore[method-assign]
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
