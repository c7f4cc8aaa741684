"""The flow of one game around the moves: the keys, leaving a game for another (asked first
when moves would be thrown away), the kind of deal in words, and the first-time line
(docs/rules.md, "The app"). Undo and redo are the table model's (TableModel.undo, redo).

Nothing here writes the table's state: each function gets the few things it reads (a narrow
Protocol or plain values) and the table applies what it answers."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from engine import Game

if TYPE_CHECKING:
    from game.arcade.levels import Deal
    from game.host import Host
    from game.i18n import Translator
    from game.look.layout import Command
    from game.table.around import Ask


def in_progress(game: Game) -> bool:
    """A game a new deal would throw away: moves made, not won."""
    return bool(game.moves) and not game.is_won


def replace_game(
    now: Game,
    make: Callable[[], Game],
    *,
    start: Callable[[Game], None],
    tr: Translator,
    ask: Ask,
    back: Callable[[], None],
) -> None:
    """Put the game ``make`` deals on the table in place of ``now`` (``start``), ``back`` at
    the table. A game in progress is thrown away only after the player says so (``ask``; a
    game with no moves, or won, goes at once); ``make`` is called only then, so that a refused
    code or deal changes nothing."""

    def go() -> None:
        game = make()
        back()
        start(game)

    if not in_progress(now):
        go()
        return
    question = tr("table.leave_question", moves=tr("table.moves", count=now.moves))
    ask(question, tr("table.leave_yes"), tr("table.leave_no"), go)


def key_command(event: pygame.event.Event) -> Command | None:
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
    letters: dict[int, Command] = {pygame.K_h: "hint", pygame.K_n: "new"}
    return letters.get(key)


def deal_day(app: Host, game: Game, deal: Deal) -> dt.date | None:
    """The date whose day's deal ``game`` is (``deal`` "daily": today, or yesterday for a game
    begun before midnight or a typed code of yesterday's deal), else None."""
    return app.arcade.day_of(game) if deal == "daily" else None


def day_deal_label(tr: Translator, day: dt.date) -> str:
    """The deal of a past ``day`` in words: "Deal of 30 Nov 2026"."""
    return tr("arcade.past_deal", date=tr.date(day))


def shown_code(game: Game, deal: Deal) -> str:
    """The game code the info bar shows: none for an Examples page's position (``deal``
    "example"), which is no deal of its code."""
    return "" if deal == "example" else game.code


def deal_label(tr: Translator, deal: Deal, day: dt.date | None, today: dt.date) -> str:
    """The kind of deal on the table, in words: "Today's deal" (or the deal of the past day it
    is, see :func:`day_deal_label`), its level, "Winnable deal", "Random deal" or "Example" (the
    Examples page's positions)."""
    if deal == "daily":
        if day is None or day == today:
            return tr("arcade.daily_deal")
        return day_deal_label(tr, day)
    if deal in ("easy", "medium", "hard"):
        return tr(f"names.{deal}")
    return tr(f"table.deal_{deal}")
