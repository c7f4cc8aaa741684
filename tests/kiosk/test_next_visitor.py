"""The next visitor starts clean (issue 29, item 8): when a locked kiosk goes idle, nothing of
the last visitor's touch reaches the next one. A paused Finish stops where it is (the game stays
open, not won), a Tap-to-place choice, a drag whose release was lost, a hint, its marks and any
toast are dropped; and every field of the table's state is either listed as kept across
visitors (the game and what belongs to it, the geometry) or reset to a fresh table's value, so
that a new field nobody thought of fails here until it is sorted."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pygame
import pytest

from engine import FOUNDATION, Game, Move
from engine.cards import parse_card
from game.config import Config, config_from_dict
from game.saves.persist import Autosave
from game.saves.storage import autosave_store
from game.scenes.attract import AttractScene
from game.table.feedback import tap_refusal
from game.table.gesture import LastTap, lift_drag
from game.table.hints import HintJob, HintMark
from game.table.scene import TableScene
from game.table.select import Selection
from tests.helpers.kioskhelp import (
    isolated_logging,  # noqa: F401 (autouse fixture)
    kiosk_app,
    wait,
)
from tests.helpers.tablehelp import WIN_LINE, WON_CODE, Finger

pytestmark = pytest.mark.app

CERTAIN_AT = (
    92  # WIN_LINE's moves before only foundation moves remain (tests/engine/test_finish.py)
)
ATTRACT_S = 3.0


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    yield
    pygame.display.quit()


def locked(**kiosk: object) -> Config:
    """A locked kiosk without a PIN (its exit gesture is off: no matter here) whose attract
    screen comes after three seconds without input."""
    settings = {"lock": True, "idle_attract_minutes": ATTRACT_S / 60, **kiosk}
    return config_from_dict({"kiosk": settings})[0]


def test_a_paused_finish_does_not_play_on_for_the_next_visitor(tmp_path: Path) -> None:
    """Finish, then Settings, walk away: the attract screen comes; the next visitor's waking
    touch plays nothing home. The cards stay where they were, the game stays open (not won, no
    high score, no win screen), and Finish is on offer again."""
    game = Game.from_code(WON_CODE)
    for move in WIN_LINE[:CERTAIN_AT]:
        game.play(move)
    assert Autosave(autosave_store(tmp_path)).save(game, 60.0, line=WIN_LINE[:CERTAIN_AT])
    app, _ = kiosk_app(tmp_path, locked())
    finger, table = Finger(app), app.table
    where = finger.button("hint")
    assert table.button_at(where) == "finish"
    finger.tap(where)
    finger.tap(finger.button("settings"))  # the run pauses under the dialog
    assert app.scenes.top.name == "settings" and not table.model.game.is_won
    wait(app, ATTRACT_S + 1)
    assert isinstance(app.scenes.top, AttractScene)
    left = table.model.game.to_dict()
    finger.tap(finger.card("TS"))  # the next visitor wakes the kiosk
    finger.settle(2.0)  # the rest would have gone home in half a second
    assert app.scenes.top is table
    assert table.model.game.to_dict() == left and not table.model.game.is_won
    assert app.arcade.scores.tables() == []  # nobody's high score
    assert table.button_at(where) == "finish"


def test_a_tap_to_place_choice_does_not_reach_the_next_visitor(tmp_path: Path) -> None:
    """A visitor turns Tap to place on and chooses 9S (it fits on TS, the top of column 7),
    then walks away. The next visitor's first tap on that column after the waking touch moves
    nothing: the choice went with the setting."""
    app, _ = kiosk_app(tmp_path, locked())  # RU1-C-AAAAAAD
    finger, table = Finger(app), app.table
    finger.tap(finger.button("settings"))
    finger.tap(finger.control(app.tr("settings.tap_to_place")))
    assert app.settings.tap_to_place
    app.scenes.pop_to_bottom()
    finger.settle(0.6)
    finger.tap(finger.card("9S"))
    assert table.model.chooser.lit() is not None  # chosen: lit on the table
    wait(app, ATTRACT_S + 1)
    assert isinstance(app.scenes.top, AttractScene)
    assert not app.settings.tap_to_place  # the operator's setting again
    finger.tap(finger.card("TS"))  # the waking touch
    finger.settle(0.6)
    finger.tap(finger.card("TS"))  # the next visitor's first tap on column 7
    finger.settle(0.6)
    assert table.model.game.moves == 0
    assert table.model.game.cols[6][-1] == parse_card("TS")


def test_a_drag_whose_release_was_lost_does_not_keep_the_attract_screen_away(
    tmp_path: Path,
) -> None:
    """A card lifted and the release lost (a touch screen can lose one): once the held finger
    no longer counts (two minutes), the kiosk goes idle as usual and the card lies down again;
    the next visitor's touch wakes it and a tap plays."""
    app, _ = kiosk_app(tmp_path, locked())
    finger, table = Finger(app), app.table
    start = finger.card("9S")
    finger.down(start)
    for dy in range(10, 80, 10):
        finger.move((start[0] + dy, start[1] + dy))
    assert table.model.drag is not None  # ...and the release never comes
    wait(app, 130.0)
    assert isinstance(app.scenes.top, AttractScene)
    assert table.model.drag is None and not table.model.moving()
    finger.tap(finger.card("AH"))  # wakes the kiosk: plays nothing
    finger.settle(0.6)
    finger.tap(finger.card("AH"))  # AH is alone in column 1: a tap sends it home
    finger.settle(0.6)
    assert (
        table.model.game.moves == 1 and table.model.game.locate(parse_card("AH"))[0] == FOUNDATION
    )


# What a table keeps from one visitor to the next: the game and what belongs to it (its play
# time, its kind of deal, a win waiting for its screen; the game holds the moves Redo would make
# again: the game stays open as the visitor left it), where things are drawn, and its helpers
# (their own fields are sorted below).
KEPT = {
    "table": {
        *("app", "model", "view"),
        *("buttons_are_pictures", "least_text"),  # how it shows itself: given when made
    },
    "model": {
        *("game", "play_time", "deal", "deal_day", "pending_win"),
        *("active", "version", "layout", "places"),
        *("board", "outside", "double_tap_window"),  # what it is given when made
        *("hints", "finisher", "chooser"),  # its parts (their own fields are sorted below)
    },
    # known: the game's finish moves, worked out once; shown, seen: whether the table shows
    # Finish (its pulse starts when that turns true)
    "finisher": {"model", "known", "shown", "seen"},
    "chooser": {"model"},
    "hints": {  # the indicator: the game's
        *("model", "workers", "indicator", "status", "seen", "lost", "lost_at"),
        *("looking", "undecided"),  # the search for the move that lost the game
    },
}


def dirty(table: TableScene) -> dict[str, dict[str, Any]]:
    """What a visitor may leave in each field that is not kept: a value a fresh table never
    has (made as the table makes it where that is short)."""
    game, now = table.model.game, table.app.clock.time
    card, rest = parse_card("9S"), table.model.rest()
    key = game.position_key()
    table.model.refuse([card], "a message", marks=[parse_card("TS")])  # shake, outline, toast
    refusal = tap_refusal(game, card, now + 100.0)
    assert refusal is not None
    future: Future[Any] = Future()
    return {
        "table": {},
        "model": {
            "tweens": list(table.model.tweens),
            "drag": lift_drag(game, card, rest, (10, 10), (40, 40)),
            "toast": table.model.toast,
            "last_tap": LastTap(card, False),
            "pressed_button": "undo",
            "pressed_card": card,
            "pending_refusal": refusal,
            "marks": table.model.marks,
            "marks_until": now + 100.0,
            "first_line": False,
            "touched_column": 3,  # a column under the finger, held (issue 38 item 13)
            "held": {3: {card: 10}},
            "held_until": now + 100.0,
            "_held_on": (game, table.model.layout),
        },
        "finisher": {  # a run under way, and Finish's pulse begun
            "queue": [Move(card, FOUNDATION)],
            "due": now + 1.0,
            "key": key,
            "pulse_from": now,
        },
        "chooser": {"selection": Selection(card, key, LastTap(card, False))},
        "hints": {
            "job": HintJob(future, game, key, now),
            "mark": HintMark(Move(card, 6), now + 100.0),
            "tipped": True,  # told where the winnable indicator is: the next visitor is told too
        },
    }


def parts(table: TableScene) -> dict[str, object]:
    return {"table": table, "model": table.model, "finisher": table.model.finisher,
            "chooser": table.model.chooser, "hints": table.model.hints}  # fmt: skip


def test_every_field_of_the_table_is_kept_or_reset_for_the_next_visitor(tmp_path: Path) -> None:
    app, controller = kiosk_app(tmp_path, locked())
    table = app.table
    left = dirty(table)
    for name, part in parts(table).items():
        fields, reset = set(vars(part)), set(left[name])
        unsorted = fields - KEPT[name] - reset
        assert not unsorted, f"{name}: {sorted(unsorted)}: kept across visitors, or reset?"
        gone = (KEPT[name] | reset) - fields
        assert not gone, f"{name}: no longer there: {sorted(gone)}"
        for field, value in left[name].items():
            setattr(part, field, value)
    fresh = parts(TableScene(app, table.model.game))
    for name, part in parts(table).items():
        for field in left[name]:
            assert getattr(part, field) != getattr(fresh[name], field), (name, field)
    controller.start_attract()  # what the idle timer does
    assert isinstance(app.scenes.top, AttractScene)
    for name, part in parts(table).items():
        for field in left[name]:
            assert getattr(part, field) == getattr(fresh[name], field), (name, field)
    assert table.model.game.moves == 0


@pytest.mark.parametrize("lock", [True, False], ids=["locked", "idle_unlocked"])
def test_the_next_visitor_sees_the_first_line_with_or_without_the_lock(
    tmp_path: Path, lock: bool
) -> None:
    """A visitor moves a card and walks away; the idle deal gives the next visitor a fresh game
    and its one line on how to play, on a locked kiosk as on an unlocked one with
    ``idle_unlocked`` (whose idle deal sets the game aside to resume)."""
    config = locked(lock=lock, idle_unlocked=not lock, idle_new_game_minutes=ATTRACT_S / 30)
    app, controller = kiosk_app(tmp_path, config)
    finger, table = Finger(app), app.table
    finger.tap(finger.card("AH"))  # AH is alone in column 1: a tap sends it home
    finger.settle(0.6)
    assert table.model.game.moves == 1
    wait(app, 2 * ATTRACT_S + 1)  # the attract screen, then the fresh deal
    assert isinstance(app.scenes.top, AttractScene)
    assert table.model.game.moves == 0 and (controller.aside is None) == lock
    finger.tap(finger.card("AH"))  # the next visitor wakes the kiosk
    finger.settle(0.6)
    assert app.scenes.top is table
    toast = table.model.toast
    assert toast is not None and toast.text == app.tr("table.first_time")
