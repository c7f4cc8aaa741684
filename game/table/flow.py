"""The flow of one game around the moves: undo and redo, the keys, leaving a game for another
(asked first when moves would be thrown away) and a won game that stays won (docs/rules.md,
"The app")."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from engine import Game

if TYPE_CHECKING:
    from game.app import App
    from game.i18n import Translator
    from game.table.scene import TableScene


def in_progress(game: Game) -> bool:
    """A game a new deal would throw away: moves made, not won."""
    return bool(game.moves) and not game.is_won


def replace_game(table: TableScene, make: Callable[[], Game]) -> None:
    """Put the game ``make`` deals on the table, back at the table. A game in progress is
    thrown away only after the player says so (a game with no moves, or won, goes at once);
    ``make`` is called only then, so that a refused code or deal changes nothing."""

    def go() -> None:
        game = make()
        table.app.scenes.pop_to_bottom()
        table.start_game(game)

    if not in_progress(table.game):
        go()
        return
    tr = table.tr
    table.app.scenes.open(
        "confirm",
        question=tr("table.leave_question", moves=tr("table.moves", count=table.game.moves)),
        yes=tr("table.leave_yes"),
        no=tr("table.leave_no"),
        on_yes=go,
        on_no=table.app.scenes.pop_to_bottom,  # "keep playing": back to the game
    )


def undo_move(table: TableScene) -> bool:
    """Take back the last move (never a won game's: a finished game is finished); the move
    can be redone until the next new move."""
    table.finish_tweens()
    table.drag = None
    game = table.game
    if game.is_won:
        return False
    before, piles = dict(table.rest()), table.places.piles()
    undone = game.history[-1].move if game.history else None
    if undone is None or not game.undo():
        table.show_toast(table.tr("table.nothing_to_undo"))
        return False
    table.redo_moves.append(undone)
    table.changed()
    table.animate(before, piles, {})
    table.hints.mark = None
    table.hints.drop()
    table.hints.sync_indicator()
    table.app.hooks.undone(game)
    return True


def redo_move(table: TableScene) -> bool:
    """Make the last undone move again: a move like any other (the counter goes up)."""
    table.finish_tweens()
    table.drag = None
    if not table.redo_moves:
        table.show_toast(table.tr("table.nothing_to_redo"))
        return False
    return table.make_move(table.redo_moves[-1])


def key_command(event: pygame.event.Event) -> str | None:
    """The table button a key stands for: Ctrl+Z or Backspace undo, Ctrl+Y or Ctrl+Shift+Z
    redo, H hint, N new game."""
    if event.type != pygame.KEYDOWN:
        return None
    key, mod = event.key, getattr(event, "mod", 0)
    ctrl, shift = mod & pygame.KMOD_CTRL, mod & pygame.KMOD_SHIFT
    if (key == pygame.K_y and ctrl) or (key == pygame.K_z and ctrl and shift):
        return "redo"
    if (key == pygame.K_z and ctrl) or key == pygame.K_BACKSPACE:
        return "undo"
    return {pygame.K_h: "hint", pygame.K_n: "new"}.get(key)


def deal_day(app: App, game: Game, deal: str) -> dt.date | None:
    """The date whose day's deal ``game`` is (``deal`` "daily": today, or yesterday for a game
    begun before midnight or a typed code of yesterday's deal), else None."""
    return app.arcade.day_of(game) if deal == "daily" else None


def day_deal_label(tr: Translator, day: dt.date) -> str:
    """The deal of a past ``day`` in words: "Deal of 30 Nov 2026"."""
    return tr("arcade.past_deal", date=tr.date(day))


def deal_label(table: TableScene) -> str:
    """The kind of deal on the table, in words: "Today's deal" (or the deal of the past day it
    is, see :func:`day_deal_label`), its level, "Winnable deal" or "Random deal"."""
    if table.deal == "daily":
        day = table.deal_day
        if day is None or day == table.app.arcade.today():
            return table.tr("arcade.daily_deal")
        return day_deal_label(table.tr, day)
    if table.deal in ("easy", "medium", "hard"):
        return table.tr(f"names.{table.deal}")
    return table.tr(f"table.deal_{table.deal}")


def keep_first_line(table: TableScene) -> None:
    """A fresh start (and the next visitor of an idle kiosk) sees one line on how to play and
    where the rules are, shown again whenever nothing else is, until the first move."""
    if not table.first_line:
        return
    text = table.tr("table.first_time")
    if table.game.moves:
        table.first_line = False
        if table.toast is not None and table.toast.text == text:
            table.toast = None
        return
    if table.toast is None and table.active and not table.drag:
        cards = [table.places.group_rect(col[0]) for col in table.game.cols if col]
        table.show_toast(text, cards)  # clear of the cards: a banner at the top if need be
