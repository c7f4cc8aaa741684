"""The venue's MQTT messages (issue 42): their topics, the payload a kiosk publishes for one of
its high-score tables, and the checked reading of a message received.

A kiosk publishes each of its tables, retained, at QoS 1, on
``solitaire/<venue id>/<kiosk>/<rules key>/<table>`` (``<table>``: ``all`` or the day
``YYYY-MM-DD``), as UTF-8 JSON of at most :data:`MAX_PAYLOAD` bytes::

    {"v": 1, "kiosk": "cafe", "rules": "RU1-C", "table": "all", "entries": [ENTRY, ...]}

ENTRY as in highscores.json (game.arcade.scoreform). An empty payload clears a table (a day the
kiosk dropped). A message received is read as a damaged file is: its size, its JSON (no NaN, no
deep nesting that breaks the parser), its form, the topic's kiosk, rule set and table equal to
the payload's, every entry through the checks of highscores.json's entries, blocked initials
checked again (shown as none, as the file's are). Anything else and the whole message is
refused with the reason, which never quotes more than a few characters of what came. Pure: no
paho, no pygame.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.codes import format_code, parse_code
from engine.daily import parse_day
from engine.rules import RULES_BY_KEY
from game.arcade.highscores import ALL_TIME, MAX_SIZE, Entry
from game.arcade.initials import Blocklist
from game.arcade.levels import ORDER
from game.arcade.scoreform import read_entry
from game.kiosk.venue_config import KIOSK_NAME

ROOT = "solitaire"
VERSION = 1
MAX_PAYLOAD = 64 * 1024
MAX_ENTRIES = MAX_SIZE * len(ORDER)  # a table keeps at most MAX_SIZE of each level
KEYS = {"v", "kiosk", "rules", "table", "entries"}


def topic(venue_id: str, kiosk: str, rules_key: str, table: str) -> str:
    """The topic of ``kiosk``'s ``table`` ("all" or an ISO day) of ``rules_key``."""
    return f"{ROOT}/{venue_id}/{kiosk}/{rules_key}/{table}"


def subscription(venue_id: str) -> str:
    """What every kiosk of the venue reads: every kiosk's tables, its own too."""
    return f"{ROOT}/{venue_id}/+/#"


def encode(kiosk: str, rules_key: str, table: str, entries: Sequence[Entry]) -> bytes:
    """The payload of a table. One that would pass MAX_PAYLOAD loses its last (worst) entries
    until it fits (only a table_size near 100 with long game ids comes close)."""
    rows = [entry.to_dict() for entry in entries]
    while True:
        message = {"v": VERSION, "kiosk": kiosk, "rules": rules_key, "table": table}
        text = json.dumps({**message, "entries": rows}, separators=(",", ":"), ensure_ascii=False)
        payload = text.encode("utf-8")
        if len(payload) <= MAX_PAYLOAD or not rows:
            return payload
        rows = rows[: len(rows) * 9 // 10]


@dataclass(frozen=True)
class TableMessage:
    """One kiosk's whole table as received; no entries: the kiosk cleared it."""

    topic: str
    kiosk: str
    rules_key: str
    table: str
    entries: tuple[Entry, ...]


def shown(text: object, most: int = 60) -> str:
    """A bit of a received text for a log line: escaped, cut."""
    return repr(str(text)[:most]) + ("..." if len(str(text)) > most else "")


def read_topic(name: str, venue_id: str) -> tuple[str, str, str] | str:
    """(kiosk, rules key, table) of a table's topic of the venue, or what is wrong with it."""
    parts = name.split("/")
    if len(parts) != 5 or parts[:2] != [ROOT, venue_id]:
        return "not a table's topic"
    kiosk, rules_key, table = parts[2:]
    if not re.fullmatch(KIOSK_NAME, kiosk):
        return "the kiosk's name is not 1 to 12 of a-z, 0-9 and -"
    if rules_key not in RULES_BY_KEY:
        return "no such rule set"
    if table != ALL_TIME:
        try:
            if len(table) != 10 or parse_day(table).isoformat() != table:
                return "the table is neither all nor a day"
        except ValueError:
            return "the table is neither all nor a day"
    return kiosk, rules_key, table


def read_message(
    name: str, payload: bytes | bytearray, venue_id: str, blocked: Blocklist
) -> TableMessage | str:
    """The message on topic ``name`` with ``payload``, checked; or why it is refused."""
    where = read_topic(name, venue_id)
    if isinstance(where, str):
        return where
    kiosk, rules_key, table = where
    if not payload:
        return TableMessage(name, kiosk, rules_key, table, ())
    if len(payload) > MAX_PAYLOAD:
        return f"{len(payload)} bytes, more than {MAX_PAYLOAD}"
    try:
        data = json.loads(payload.decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        return "not UTF-8 text"
    except (ValueError, RecursionError) as error:
        return f"not JSON ({str(error)[:80]})"
    problem = _form_problem(data, kiosk, rules_key, table)
    if problem:
        return problem
    entries: list[Entry] = []
    for number, row in enumerate(data["entries"], 1):
        form = read_entry(row, rules_key)
        if isinstance(form, str):
            return f"entry {number}: {form[:120]}"
        initials = form.get("initials", "")
        entry = Entry(
            code=format_code(*parse_code(form["code"])),
            score=form["score"],
            seconds=float(form["seconds"]),
            moves=form["moves"],
            initials="" if blocked.is_blocked(initials) else initials,
            day=None if table == ALL_TIME else table,
            when=form.get("when", ""),
            game=form.get("game", ""),
        )
        if not any(entry.same_win(other) for other in entries):  # the same win once
            entries.append(entry)
    return TableMessage(name, kiosk, rules_key, table, tuple(entries))


def _refuse_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a number")


def _form_problem(data: object, kiosk: str, rules_key: str, table: str) -> str:
    """What is wrong with the payload's form around the entries ("" when nothing)."""
    if not isinstance(data, dict):
        return f"not an object but {type(data).__name__}"
    if set(data) != KEYS:
        return f"its keys are not {', '.join(sorted(KEYS))}"
    if type(data["v"]) is not int or data["v"] != VERSION:
        return f"version {shown(data['v'], 10)}, not {VERSION}"
    said = (data["kiosk"], data["rules"], data["table"])
    if said != (kiosk, rules_key, table):
        return f"the payload says {shown('/'.join(map(str, said)))}, not what its topic says"
    entries = data["entries"]
    if not isinstance(entries, list):
        return "its entries are not a list"
    if len(entries) > MAX_ENTRIES:
        return f"{len(entries)} entries, more than {MAX_ENTRIES}"
    return ""
