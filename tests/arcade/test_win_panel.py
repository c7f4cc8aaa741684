"""A win that leads somewhere (issue 31, item 4): the win panel shows the initials just entered,
High scores opens the table the win entered with its row marked, Look at the table leaves the
finished table in sight (New game from its buttons, no card moves), New deal deals. Won
through the input layer on the App in process (game.dev.script's Player, the scripted player)
and screenshot at four sizes in three languages (out/screens/win/)."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from pathlib import Path

import pytest

from game.app import App
from game.arcade.highscores import Entry
from game.dev.report import button_name
from game.dev.script import Player
from game.dev.shown import action_name, dialog_buttons, shown_texts
from game.look.png import save_png
from game.saves.prefs import PlayerSettings
from tests.arcade.test_arcade import day_of_won_code
from tests.helpers.tablehelp import WON_CODE, almost_won, make_app

pytestmark = pytest.mark.app

OUT = Path(__file__).resolve().parents[2] / "out" / "screens" / "win"
SIZES = ((800, 480), (1024, 600), (720, 1280), (1920, 1080))
KINGS = ("KS", "KH", "KD", "KC")


@functools.cache
def won_day() -> str:
    """The day whose Seahaven deal is WON_CODE (looked for once)."""
    return day_of_won_code()


def won_app(
    size: tuple[int, int] = (800, 480),
    locale: str = "en",
    others: tuple[int, ...] = (),
    before: Callable[[App], object] = lambda app: None,
) -> App:
    """An App whose game is WON_CODE four kings from its win, today being the day WON_CODE is
    the day's deal (so the win enters today's table and the all-time one), initials asked;
    ``before`` done to it; the kings tapped home (each tap through the input layer)."""
    app = make_app(WON_CODE, size, settings=PlayerSettings(locale=locale), game=almost_won())
    arcade, day = app.arcade, dt.date.fromisoformat(won_day())
    arcade.today = arcade.scores.today = lambda: day
    arcade.initials = True
    for k, score in enumerate(others):  # earlier wins of the day, with these scores
        entry = Entry(
            WON_CODE, score, 300.0 + k, 120, ("ANA", "OLG", "KIM")[k % 3], day=day.isoformat()
        )
        arcade.scores.add(entry)
    before(app)
    player = Player(app)
    for king in KINGS:  # a tap each, without the scripted player's settling time
        pos = player.point(king)
        player.down(pos)
        player.up(pos)
    for _ in range(60):  # the last king's glide, then the win screen
        if app.scenes.top.name == "win":
            break
        app.step()
    assert app.table.model.game.is_won and app.scenes.top.name == "win"
    return app


def press(app: App, name: str) -> None:
    """A tap on the top dialog's button ``name`` (its action's name or its label), one frame
    (the screenshots' quick path; the tests above take the scripted player's)."""
    top = app.scenes.top
    for control in top.controls:  # type: ignore[attr-defined]
        if control.action and name in (action_name(control.action), control.label):
            player = Player(app)
            player.down(control.rect.center)
            player.up(control.rect.center)
            return
    raise AssertionError(f"no button {name} on {top.name}")


def seen(app: App) -> tuple[str, list[str], list[str]]:
    """What the player sees on top, as the scripted player's ``state`` reports it: the
    screen's name, its texts and its buttons' names."""
    top = app.scenes.top
    return top.name, shown_texts(top), [str(b["name"]) for b in dialog_buttons(top)]


def sign(player: Player, letters: str) -> None:
    for letter in letters:
        player.press(letter)
    player.press("save")


def test_the_win_panel_leads_to_the_scores_and_to_the_table() -> None:
    app = won_app()
    tr, player = app.tr, Player(app)
    name, texts, buttons = seen(app)
    assert name == "win" and buttons == ["scores", "look", "new_deal", "sign"]
    assert tr("win.look") in [b["label"] for b in dialog_buttons(app.scenes.top)]
    player.wait("10")  # the panel waits for the player: no keypad comes by itself
    assert seen(app)[0] == "win"
    player.press("sign")  # Add your initials: the keypad, on this tap only
    assert seen(app)[0] == "initials"
    sign(player, "VIP")
    name, texts, buttons = seen(app)
    assert name == "win" and tr("win.signed", initials="VIP") in texts
    assert buttons == ["scores", "look", "new_deal"]  # signed: the button goes
    assert tr("arcade.rank_today", place=1) in texts
    player.press("scores")  # today's table, the new entry marked
    name, texts, buttons = seen(app)
    assert name == "scores" and texts[0] == tr("arcade.today_title")
    board = app.scenes.top.board  # type: ignore[attr-defined]
    game = app.table.model.game
    assert board.marked is not None
    assert board.texts[board.marked] == f"1. VIP 0:00 {game.moves} {game.score}"  # time, moves
    player.press("close")
    assert seen(app)[0] == "win"
    player.press("look")  # the panel goes; the finished table stays, with a way back
    assert seen(app)[2] == ["results"] and app.table.model.game.is_won
    before = app.table.model.game.to_dict()
    player.drag("KS", "t1")  # a finished game: no card leaves home
    player.tap("KH")
    assert app.table.model.game.to_dict() == before and seen(app)[0] == "win"
    assert "newgame" in {button_name(n) for n in app.table.shown_buttons()}
    player.press("hint")  # the table's own buttons work: nothing to hint on a won game
    assert app.table.model.toast is not None and app.table.model.toast.text == app.tr(
        "table.hint_won"
    )
    player.press("results")  # back to the panel, its figures and buttons
    name, texts, buttons = seen(app)
    assert name == "win" and tr("win.signed", initials="VIP") in texts
    assert buttons == ["scores", "look", "new_deal"]
    player.press("look")
    pos = app.table.model.layout.buttons["new"].center  # the table's New game, under no bar
    player.down(pos)
    player.up(pos)
    player.frames(0.6)
    assert seen(app)[0] == "newgame"


def test_the_win_panel_never_turns_into_the_keypad_under_a_finger() -> None:
    """Issue 38, item 7: a finger that comes down on New deal a few seconds after the win
    deals; no keypad took the panel's place meanwhile, so no letter was typed."""
    app = won_app()
    player = Player(app)
    player.frames(4.0)  # longer than the old 3.5 s after which the keypad came by itself
    assert seen(app)[0] == "win"  # the panel, not the keypad, is under the finger
    won = app.table.model.game
    press(app, "new_deal")
    player.frames(0.6)
    assert app.scenes.top is app.table and app.table.model.game is not won
    entry = app.arcade.scores.table(won.rules.key)[0]
    assert entry.initials == ""  # nothing typed


def test_escape_does_what_the_visible_close_action_does() -> None:
    """Issue 38, item 8: Escape on the panel is Look at the table; on the table, the bar's
    Back to the results."""
    app = won_app()
    player = Player(app)
    player.key("escape")
    assert seen(app)[2] == ["results"] and app.scenes.top.name == "win"
    player.key("escape")
    name, texts, buttons = seen(app)
    assert name == "win" and buttons == ["scores", "look", "new_deal", "sign"]
    assert app.tr("win.title") in texts


def test_a_skipped_win_shows_no_initials_and_new_deal_deals() -> None:
    app = won_app()
    player = Player(app)
    player.press("sign")
    player.press("skip")
    name, texts, _ = seen(app)
    signed = app.tr("win.signed", initials="").strip()
    assert name == "win" and not any(text.startswith(signed) for text in texts)
    won = app.table.model.game
    player.press("new_deal")
    assert app.scenes.top is app.table and app.table.model.game is not won
    assert not app.table.model.game.is_won


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_win_panel_and_marked_table_screenshots(size: tuple[int, int]) -> None:
    """The panel with the initials and its three buttons, and the marked table, in every
    language: every button inside the panel, apart, and its label's language's own."""
    OUT.mkdir(parents=True, exist_ok=True)
    w, h = size
    for locale in ("en", "fi", "ru"):
        app = won_app(size, locale, others=(600, 400, 380))
        win = app.scenes.top
        app.full_redraw = True
        app.draw()
        save_png(app.screen, str(OUT / f"win-sign-{w}x{h}-{locale}.png"))
        buttons = [c for c in win.controls if c.action]  # type: ignore[attr-defined]
        assert len(buttons) == 4 and all(win.panel.contains(b.rect) for b in buttons)  # type: ignore[attr-defined]
        assert not any(a is not b and a.rect.colliderect(b.rect) for a in buttons for b in buttons)
        press(app, "look")
        app.step()
        app.full_redraw = True
        app.draw()
        save_png(app.screen, str(OUT / f"win-look-{w}x{h}-{locale}.png"))
        bar = win.panel  # type: ignore[attr-defined]
        lay = app.table.model.layout
        assert app.screen.get_rect().contains(bar) and not bar.colliderect(lay.info_bar)
        assert not any(bar.colliderect(r) for r in lay.buttons.values())
        assert not any(bar.colliderect(r) for r in lay.foundations)  # the cards are home
        press(app, "results")
        app.step()
        for step in ("sign", "V", "I", "P", "save", "scores"):
            press(app, step)
        if locale == "en":  # the board's words are not new: one language (PNGs are slow)
            app.full_redraw = True
            app.draw()
            save_png(app.screen, str(OUT / f"scores-marked-{w}x{h}.png"))
        board = app.scenes.top.board  # type: ignore[attr-defined]
        assert board.texts[board.marked].startswith("2. VIP ")
        press(app, "close")
        win = app.scenes.top
        app.full_redraw = True
        app.draw()
        save_png(app.screen, str(OUT / f"win-panel-{w}x{h}-{locale}.png"))
        buttons = [c for c in win.controls if c.action]  # type: ignore[attr-defined]
        assert len(buttons) == 3
        for a in buttons:
            assert win.panel.contains(a.rect)  # type: ignore[attr-defined]
            assert not any(a is not b and a.rect.colliderect(b.rect) for b in buttons)
        texts = [c.rect for c in win.controls if not c.action]  # type: ignore[attr-defined]
        assert all(r.bottom <= buttons[0].rect.top for r in texts)
        app.close()
