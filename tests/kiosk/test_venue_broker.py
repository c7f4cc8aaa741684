"""The venue's high scores over a real broker (issue 42): Debian's mosquitto started by the test
with TLS, a password per kiosk and the venue's ACL (tests/helpers/broker.py). Each kiosk is this
game's own high scores (game.arcade.play.Arcade over highscores.json in its state directory), its
venue board (game.arcade.venue) and its link (game.kiosk.venue_link), as game.launch.compose
makes them; the loop's update is the link's step. Wins are real games won (WON_CODE, today's
deal of the day the tests play)."""

from __future__ import annotations

import datetime as dt
import logging
import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from engine import Game
from game.arcade.highscores import HighScores, highscores_store
from game.arcade.play import Arcade
from game.kiosk.venue_config import VenueConfig
from game.kiosk.venue_link import VenueLink
from tests.arcade.test_arcade import day_of_won_code
from tests.helpers.broker import VENUE, Broker
from tests.helpers.tablehelp import WIN_LINE, WON_CODE

pytestmark = pytest.mark.system

KIOSKS = ("cafe", "hall", "attic")
RULES = "SH1-C4"


class Kiosk:
    """One kiosk: its tables in ``directory``, its board and its link (started by ``online``)."""

    def __init__(self, name: str, directory: Path, venue: VenueConfig, day: str) -> None:
        self.name = name
        self.today = dt.date.fromisoformat(day)  # the kiosk's clock (a test may move it)
        scores = HighScores(highscores_store(directory), today=lambda: self.today)
        self.games = 0
        self.arcade = Arcade(
            scores,
            initials=False,
            today=lambda: self.today,
            game_id=lambda: f"{name}-{self.games}",
        )
        self.venue = venue
        self.board = self.arcade.join_venue(venue.shown_name, name)
        self.link: VenueLink | None = None
        self.day = day

    def online(self) -> VenueLink:
        """Start its link (as game.kiosk.venue_link.join_venue does, on the same board)."""
        self.link = VenueLink(self.venue, self.arcade.scores, self.board)
        self.link.start()
        return self.link

    def offline(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None

    def win(self, seconds: float) -> None:
        """Win today's deal in ``seconds`` (the table reports the winning move)."""
        self.games += 1
        game = Game.from_code(WON_CODE)
        for move in WIN_LINE:
            game.play(move)
        self.arcade.record(game, seconds)

    def seen(self, table: str = "") -> list[tuple[str, float]]:
        """(kiosk, seconds) of every row of the venue's table (today's by default)."""
        board = self.arcade.venue
        assert board is not None
        return [(row.kiosk, row.seconds) for row in board.rows(RULES, table or self.day)]


def pump(kiosks: Iterable[Kiosk], until: Callable[[], bool], seconds: float = 15.0) -> None:
    """Run the kiosks' loops (each link's step, as a frame would) until ``until`` holds."""
    kiosks = list(kiosks)
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "the venue did not settle in time"
        for kiosk in kiosks:
            if kiosk.link is not None:
                kiosk.link.step(1 / 60)
        time.sleep(0.02)


def settle(kiosks: Iterable[Kiosk], seconds: float = 1.0) -> None:
    """Run the loops a while longer: whatever would arrive twice has arrived."""
    kiosks = list(kiosks)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for kiosk in kiosks:
            if kiosk.link is not None:
                kiosk.link.step(1 / 60)
        time.sleep(0.02)


def connected(*kiosks: Kiosk) -> Callable[[], bool]:
    return lambda: all(k.link is not None and k.link.connected for k in kiosks)


@pytest.fixture
def broker(tmp_path: Path) -> Iterable[Broker]:
    broker = Broker(tmp_path / "broker", [*KIOSKS, "intruder"])
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def kiosks(tmp_path: Path, broker: Broker) -> Iterable[list[Kiosk]]:
    day = day_of_won_code()
    made = [Kiosk(name, tmp_path / name, broker.venue(name), day) for name in KIOSKS]
    yield made
    for kiosk in made:
        kiosk.offline()


def expected(*wins: tuple[str, float]) -> list[tuple[str, float]]:
    return sorted(wins, key=lambda win: win[1])


def test_three_kiosks_win_todays_deal_and_each_sees_the_others_once(kiosks: list[Kiosk]) -> None:
    for kiosk in kiosks:
        kiosk.online()
    pump(kiosks, connected(*kiosks))
    for kiosk, seconds in zip(kiosks, (300.0, 200.0, 250.0), strict=True):
        kiosk.win(seconds)
    everyone = expected(("cafe", 300.0), ("hall", 200.0), ("attic", 250.0))
    pump(kiosks, lambda: all(k.seen() == everyone for k in kiosks))
    settle(kiosks)
    for kiosk in kiosks:
        assert kiosk.seen() == everyone  # each win once, ranked by time
        assert kiosk.seen("all") == everyone
        board = kiosk.arcade.venue
        assert board is not None and board.kiosks() == sorted(KIOSKS)


def test_a_kiosk_offline_for_a_while_catches_up_both_ways(kiosks: list[Kiosk]) -> None:
    cafe, hall, attic = kiosks
    cafe.online()
    hall.online()
    pump(kiosks, connected(cafe, hall))
    cafe.win(300.0)
    attic.win(150.0)  # offline: entered at home at once, as always
    assert attic.seen() == [("attic", 150.0)]
    hall.win(200.0)
    pump(kiosks, lambda: hall.seen() == expected(("cafe", 300.0), ("hall", 200.0)))
    attic.online()  # back: it publishes what it won and reads what the others did
    everyone = expected(("cafe", 300.0), ("hall", 200.0), ("attic", 150.0))
    pump(kiosks, lambda: all(k.seen() == everyone for k in kiosks))
    settle(kiosks)
    assert [k.seen() for k in kiosks] == [everyone] * 3


def test_the_broker_stopped_and_started_mid_game_loses_nothing_and_doubles_nothing(
    kiosks: list[Kiosk], broker: Broker
) -> None:
    cafe, hall, attic = kiosks
    for kiosk in kiosks:
        kiosk.online()
    pump(kiosks, connected(*kiosks))
    cafe.win(300.0)
    pump(kiosks, lambda: hall.seen() == [("cafe", 300.0)])
    broker.stop()
    pump(kiosks, lambda: not any(k.link is not None and k.link.connected for k in kiosks))
    hall.win(200.0)  # while the broker is away
    attic.win(250.0)
    broker.start()  # the same port; the retained tables kept on disk
    everyone = expected(("cafe", 300.0), ("hall", 200.0), ("attic", 250.0))
    pump(kiosks, lambda: all(k.seen() == everyone for k in kiosks), seconds=30)
    settle(kiosks)
    assert [k.seen() for k in kiosks] == [everyone] * 3
    # A kiosk that starts afresh now gets every table from the broker's retained messages.
    cafe.offline()
    cafe.board = cafe.arcade.join_venue(cafe.venue.shown_name, "cafe")
    assert cafe.seen() == [("cafe", 300.0)]
    cafe.online()
    pump([cafe], lambda: cafe.seen() == everyone)


def test_entries_removed_by_the_operator_leave_the_venue_even_while_offline(
    kiosks: list[Kiosk],
) -> None:
    cafe, hall, _ = kiosks
    cafe.online()
    hall.online()
    pump(kiosks, connected(cafe, hall))
    hall.win(200.0)
    hall.win(210.0)
    pump(kiosks, lambda: cafe.seen() == [("hall", 200.0), ("hall", 210.0)])
    first = hall.arcade.scores.table(RULES, hall.day)[0]
    assert hall.arcade.scores.remove(first)  # the operator menu, online: gone at once
    pump(kiosks, lambda: cafe.seen() == [("hall", 210.0)])
    hall.offline()
    hall.arcade.scores.clear_all()  # the operator clears the tables while the broker is away
    assert cafe.seen() == [("hall", 210.0)]  # (the broker still holds hall's tables)
    hall.online()  # back: the tables the broker holds and hall no longer has are cleared
    pump(kiosks, lambda: cafe.seen() == [] and cafe.seen("all") == [])
    settle(kiosks)
    assert cafe.seen() == [] and hall.seen() == []


def test_a_day_out_of_view_is_cleared_from_the_broker(kiosks: list[Kiosk], broker: Broker) -> None:
    hall = kiosks[1]
    hall.online()
    pump(kiosks, connected(hall))
    hall.win(200.0)
    day_topic = f"solitaire/{VENUE}/hall/{RULES}/{hall.day}"
    all_topic = f"solitaire/{VENUE}/hall/{RULES}/all"
    assert set(retained(broker, [day_topic, all_topic])) == {day_topic, all_topic}
    hall.today += dt.timedelta(days=9)  # the day's table goes out of view (7 days back)
    link = hall.link
    assert link is not None
    link.refresh()  # the link's look once a minute
    deadline = time.monotonic() + 10
    while day_topic in retained(broker, [day_topic, all_topic]):
        assert time.monotonic() < deadline, "the day's retained table was not cleared"
    assert retained(broker, [all_topic]) == [all_topic]  # the all-time table stays


def test_a_wrong_password_is_refused_and_said_once(
    kiosks: list[Kiosk], broker: Broker, caplog: pytest.LogCaptureFixture
) -> None:
    cafe = kiosks[0]
    Path(cafe.venue.credentials_file).write_text("username=cafe\npassword=wrong\n")
    with caplog.at_level(logging.INFO, logger="solitaire.venue"):
        link = cafe.online()
        cafe.win(300.0)  # entered at home all the same
        settle([cafe], 4.0)  # the first attempt and the next ones, 1 and 2 s later
    assert not link.connected and cafe.seen() == [("cafe", 300.0)]
    said = [r.getMessage() for r in caplog.records if r.name == "solitaire.venue"]
    refused = [line for line in said if "refused" in line]
    assert len(refused) == 1 and "Not authorized" in refused[0], said
    assert all("wrong" not in line for line in said)
    assert broker.log().count("not authorised") >= 2  # (mosquitto's spelling): it tried again


def test_garbage_oversized_and_hostile_messages_are_dropped_and_never_shown(
    kiosks: list[Kiosk], broker: Broker, caplog: pytest.LogCaptureFixture
) -> None:
    cafe, hall, _ = kiosks
    for kiosk in (cafe, hall):
        kiosk.online()
    pump(kiosks, connected(cafe, hall))
    hall.win(200.0)
    pump(kiosks, lambda: cafe.seen() == [("hall", 200.0)])
    day = cafe.day
    good = (
        '{"v":1,"kiosk":"intruder","rules":"SH1-C4","table":"%s","entries":[{"code":"%s",'
        '"score":520,"seconds":%s,"moves":103,"initials":"%s","when":"2026-12-01T10:00:00Z"}]}'
    )
    topic = f"solitaire/{VENUE}/intruder/{RULES}/{day}"
    hostile = [
        (topic, b"\xff\xfe garbage"),
        (topic, b"{" * 5000),
        (topic, b"[" * 100_000 + b"]" * 100_000),  # deep and larger than 64 KiB
        (topic, (good % (day, WON_CODE, "NaN", "EVE")).encode()),
        (topic, (good % (day, WON_CODE, "1e300", "EVE")).encode()),
        (topic, (good % (day, WON_CODE, "-5", "EVE")).encode()),
        (topic, (good % (day, "RU1-C-AAAAAAD", "90", "EVE")).encode()),  # another rule set
        (topic, (good % (day, WON_CODE, "90", "<b>")).encode()),
        (topic, (good % (day, WON_CODE, "90", "EVE")).encode().replace(b"intruder", b"cafe", 1)),
        (f"solitaire/{VENUE}/intruder/XX9/{day}", (good % (day, WON_CODE, "90", "EVE")).encode()),
        (f"solitaire/{VENUE}/intruder/{RULES}/yesterday", b"{}"),
    ]
    with caplog.at_level(logging.WARNING, logger="solitaire.venue"):
        sent = publish_as(broker, "intruder", hostile)
        link = cafe.link
        assert link is not None
        pump(kiosks, lambda: link.dropped >= len(sent))
        settle(kiosks)
    assert cafe.seen() == [("hall", 200.0)] and hall.seen() == [("hall", 200.0)]
    dropped = [r for r in caplog.records if "dropped" in r.getMessage()]
    assert len(dropped) >= len(sent)  # one line each (on each kiosk)
    assert all("\n" not in r.getMessage() and len(r.getMessage()) < 400 for r in dropped)
    # Blocked initials from elsewhere are shown as none, as a damaged file's would be.
    publish_as(broker, "intruder", [(topic, (good % (day, WON_CODE, "90", "XXX")).encode())])
    pump(kiosks, lambda: ("intruder", 90.0) in cafe.seen())
    board = cafe.arcade.venue
    assert board is not None
    assert [row.initials for row in board.rows(RULES, day) if row.kiosk == "intruder"] == [""]


def test_a_kiosk_cannot_write_another_kiosks_tables(kiosks: list[Kiosk], broker: Broker) -> None:
    cafe, hall, attic = kiosks
    cafe.online()
    hall.online()
    pump(kiosks, connected(cafe, hall))
    hall.win(200.0)
    pump(kiosks, lambda: cafe.seen() == [("hall", 200.0)])
    # "attic" signs in as itself but writes hall's table (a better time) and a table of its own
    # as "cafe"; the broker's ACL drops both.
    forged = (
        '{"v":1,"kiosk":"%s","rules":"SH1-C4","table":"%s","entries":[{"code":"%s",'
        '"score":520,"seconds":10,"moves":103,"initials":"AAA","when":"2026-12-01T10:00:00Z"}]}'
    )
    day = cafe.day
    publish_as(broker, "attic", [
        (f"solitaire/{VENUE}/hall/{RULES}/{day}", (forged % ("hall", day, WON_CODE)).encode()),
        (f"solitaire/{VENUE}/cafe/{RULES}/{day}", (forged % ("cafe", day, WON_CODE)).encode()),
    ])  # fmt: skip
    settle(kiosks, 2.0)
    assert cafe.seen() == [("hall", 200.0)] and hall.seen() == [("hall", 200.0)]
    assert "denied" in broker.log().lower()
    attic.online()  # a kiosk that starts now sees only what each kiosk wrote itself
    pump(kiosks, lambda: attic.seen() == [("hall", 200.0)])
    settle(kiosks)
    assert attic.seen() == [("hall", 200.0)]


def publish_as(broker: Broker, user: str, messages: list[tuple[str, bytes]]) -> list[str]:
    """Publish ``messages`` retained at QoS 1 as ``user`` (a raw paho client); returns topics."""
    with broker.client(user) as client:
        infos = [client.publish(topic, payload, qos=1, retain=True) for topic, payload in messages]
        for info in infos:
            info.wait_for_publish(timeout=10)
    return [topic for topic, _ in messages]


def test_the_game_itself_publishes_its_win_shows_the_venue_and_counts_it(
    tmp_path: Path, broker: Broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The App as game.launch composes it from config.toml's [venue] and [metrics]: the win
    tapped on its table reaches another kiosk, the other kiosk's win reaches its board through
    the loop's own update, the metrics show the link, and quitting disconnects."""
    from game.arcade.play import TODAY_ENV
    from game.config import load_config
    from game.dev.script import Player
    from game.kiosk.metrics import Metrics
    from game.launch import open_run
    from tests.helpers.tablehelp import almost_won, make_app

    day = day_of_won_code()
    monkeypatch.setenv(TODAY_ENV, day)
    hall = Kiosk("hall", tmp_path / "hall", broker.venue("hall"), day)
    hall.online()
    hall.win(200.0)
    prom = tmp_path / "prom"
    prom.mkdir()
    venue = broker.venue("cafe")
    (tmp_path / "config.toml").write_text(
        "[arcade]\ninitials = false\n"
        f'[metrics]\ntextfile_dir = "{prom}"\n'
        "[venue]\n" + "".join(
            f"{key} = {value!r}\n".replace("'", '"') for key, value in venue._asdict().items()
        )
    )  # fmt: skip
    config, problems = load_config(tmp_path / "config.toml")
    assert problems == [] and config.venue == venue
    run = open_run(config, tmp_path / "state", crash_hook=False, logging_on=False)
    app = make_app(WON_CODE, (800, 480), game=almost_won(), run=run, step=False)
    (link,) = [hook for hook in app.hooks.listeners if isinstance(hook, VenueLink)]
    board = app.arcade.venue
    assert board is not None and board.venue_name == "City Library"

    def loop_until(until: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 15
        while not until():
            assert time.monotonic() < deadline, "the venue did not settle in time"
            app.step()
            if hall.link is not None:
                hall.link.step(1 / 60)
            time.sleep(0.01)

    loop_until(lambda: [row.kiosk for row in board.rows(RULES, day)] == ["hall"])
    player = Player(app)
    for king in ("KS", "KH", "KD", "KC"):
        pos = player.point(king)
        player.down(pos)
        player.up(pos)
    loop_until(lambda: app.table.model.game.is_won and len(hall.seen()) == 2)
    assert {kiosk for kiosk, _ in hall.seen()} == {"cafe", "hall"}
    assert sorted(row.kiosk for row in board.rows(RULES, day)) == ["cafe", "hall"]
    (metrics,) = [hook for hook in app.hooks.listeners if isinstance(hook, Metrics)]
    assert metrics.write()
    text = (prom / "solitaire_kiosk.prom").read_text()
    assert "solitaire_kiosk_venue_connected 1\n" in text
    stamp = re.search(r"(?m)^solitaire_kiosk_venue_last_update_timestamp_seconds (\S+)$", text)
    assert stamp is not None and time.time() - 60 < float(stamp.group(1)) <= time.time()
    app.quit()
    hall.offline()
    assert not link.connected
    deadline = time.monotonic() + 10
    while "Client solitaire-library-cafe disconnected" not in broker.log():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def retained(broker: Broker, topics: list[str]) -> list[str]:
    """Which of ``topics`` the broker holds a retained message on (read as "intruder")."""
    held: list[str] = []
    with broker.client("intruder") as client:
        client.on_message = lambda client, userdata, message: held.append(message.topic)
        for topic in topics:
            client.subscribe(topic, qos=1)
        time.sleep(0.5)  # retained messages come at once after the subscription
    return sorted(held)
