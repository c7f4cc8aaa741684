"""A venue's board filled by hand (no network): this kiosk ("cafe") and two others, for the
venue's screens' tests and screenshots (game.arcade.venue)."""

from __future__ import annotations

from game.app import App
from game.arcade.highscores import Entry
from game.arcade.venue import VenueBoard

OTHERS = ("upstairs", "children-rm")
LONGEST = ("west-wing-12", "mmmmmmmmmmmm")  # 12 characters, the most a kiosk's name has
LONG_VENUE = "Kaupunginkirjasto, Pääkirjasto ja Musiik"  # 40 characters, the most


def three_kiosks(
    app: App, rules_key: str = "RU1-C", *, others: tuple[str, ...] = OTHERS, venue: str = ""
) -> VenueBoard:
    """The app's arcade joins the venue ``venue`` ("City Library") as "cafe", with three
    wins of today's deal of ``rules_key`` here and wins of it today and all time on each of
    ``others``: ten rows today, none of them a tie."""
    arcade = app.arcade
    board = arcade.join_venue(venue or "City Library", "cafe")
    day, code = arcade.today().isoformat(), arcade.code_of_day(rules_key)
    for k in range(3):
        arcade.scores.add(Entry(code, 625, 200.0 + 31 * k, 120 + k, "ANA", day=day,
                                when=f"{day}T10:0{k}:00Z"))  # fmt: skip
    for n, kiosk in enumerate(others):
        rows = [
            Entry(code, 625, 150.0 + 40 * k + 7 * n, 110 + k, ("BOB", "")[n % 2],
                  when=f"{day}T0{8 + n}:0{k}:00Z")
            for k in range(4 - n)
        ]  # fmt: skip
        board.put(kiosk, rules_key, day, rows)
        board.put(kiosk, rules_key, "all", rows)
    return board
