"""The last win's result, kept with the saved game (``autosave.json``'s ``meta.win``:
docs/save-format.md), so that a won game resumed after a restart (the watchdog's too) opens its
win panel with the rank, the initials and the marked row, and may still be signed once.

    {"entry": ENTRY (highscores.json's form, with "day": ISO date or null),
     "today": 2, "all": 1, "asks": true}

Read defensively: a record that is not what it should be is the caller's to replace (with the
entry the high-score tables hold for the game's id, or nothing); reading never raises. Must not
import pygame."""

from __future__ import annotations

import datetime as dt

from engine import Game
from engine.codes import format_code, parse_code
from game.arcade.highscores import MAX_SIZE, Entry, Rank
from game.arcade.scoreform import read_entry


def win_record(entry: Entry, rank: Rank, *, asks: bool) -> dict[str, object]:
    """The record of a win: its entry as stored, where it stood, and whether it may be signed."""
    data: dict[str, object] = {**entry.to_dict(), "day": entry.day}
    return {"entry": data, "today": rank.today, "all": rank.all_time, "asks": asks}


def read_win_record(data: object, game: Game) -> tuple[Entry, Rank, bool] | str:
    """The entry, rank and "may still be signed" of ``game``'s win record, or what is wrong."""
    if not isinstance(data, dict):
        return f"not an object but {type(data).__name__}"
    raw = data.get("entry")
    form = read_entry(raw, game.rules.key)
    if isinstance(form, str):
        return f"entry: {form}"
    if format_code(*parse_code(form["code"])) != game.code:
        return f"entry of {form['code']!r}, not of the game {game.code}"
    day = raw.get("day") if isinstance(raw, dict) else None
    if day is not None:
        try:
            day = dt.date.fromisoformat(day).isoformat() if isinstance(day, str) else "?"
        except ValueError:
            day = "?"
        if day == "?":
            return "entry: day is not a date"
    today, all_time = _place(data.get("today")), _place(data.get("all"))
    if isinstance(today, str):
        return today
    if isinstance(all_time, str):
        return all_time
    asks = data.get("asks")
    if not isinstance(asks, bool):
        return "asks is not true or false"
    entry = Entry(
        code=game.code,
        score=form["score"],
        seconds=float(form["seconds"]),
        moves=form["moves"],
        initials=form.get("initials", ""),
        day=day,
        when=form.get("when", ""),
        game=form.get("game", ""),
    )
    return entry, Rank(today, all_time), asks and not entry.initials


def _place(value: object) -> int | str | None:
    """A place in a table (1 .. MAX_SIZE), None (not entered), or what is wrong."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIZE:
        return f"rank {value!r:.20} is not a place in a table"
    return value
