"""The venue link (issue 42): this kiosk's high-score tables to the venue's MQTT broker, every
kiosk's tables from it to the venue board (game.arcade.venue), over paho-mqtt.

Offline first: the kiosk's own tables (highscores.json, game.arcade.highscores) stay its truth.
The link keeps what the broker should hold of them, one retained QoS 1 message per table
(game.kiosk.venue_form), worked out again after each change of the tables (a win, initials, an
entry removed, a day dropped: :attr:`HighScores.saved`) and once a minute (a day that passed).
What changed is published at once when connected; a table gone is cleared (an empty retained
message). On each connection, first or again, the link subscribes to every kiosk's tables and
publishes all of its own: a kiosk that was offline for a day publishes what it won when it
returns. A table of its own that the broker still holds but the kiosk no longer has (the
operator removed it, or cleared the tables, while the broker was away) comes back through the
subscription and is cleared then.

Nothing here waits on the network in the frame loop. paho's own thread (``loop_start``)
connects (``connect_async``: DNS, TCP, TLS all there), reconnects with a growing pause (1 s to a
minute), and reads; importing paho and ssl and reading the CA file happen in a short thread of
the link's own, so start-up does not wait either. A message received is checked in paho's
thread (game.kiosk.venue_form: a bad one is dropped with one log line) and left in a mailbox,
the newest per topic; the loop's :meth:`step` takes what is there to the board, a few tables a
frame. pygame is never touched from another thread; the board is touched only from the loop.
Publishing from the loop only hands a message to paho (a lock held for microseconds).

The password is read from the credentials file when the client starts and handed to paho,
never logged. Must not import pygame; imports paho only when started.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from engine import Game
from game.arcade.highscores import ALL_TIME, Entry, HighScores
from game.hooks import TableHooks
from game.kiosk import venue_form
from game.kiosk.venue_config import VenueConfig, read_credentials, tls_context

if TYPE_CHECKING:
    from paho.mqtt.client import Client, ConnectFlags, DisconnectFlags, MQTTMessage
    from paho.mqtt.properties import Properties
    from paho.mqtt.reasoncodes import ReasonCode

    from game.arcade.play import Arcade

log = logging.getLogger("solitaire.venue")

CHECK_EVERY_S = 60.0  # the tables looked at again without a change (a day passes)
TAKEN_PER_STEP = 16  # tables handed to the board in one update of the loop, at most
RECONNECT_S = (1, 60)  # paho's pause before a new attempt: doubling from the first to the second
CONNECT_TIMEOUT_S = 5.0
KEEPALIVE_S = 60
STOP_WAIT_S = 1.0  # how long quitting waits for paho's thread


def own_unit(cgroup: str = "/proc/self/cgroup") -> str | None:
    """The systemd service this process runs in (the kiosk's unit: cage's child too), or None."""
    try:
        with open(cgroup, encoding="utf-8") as lines:
            for line in lines:
                last = line.rstrip("\n").rsplit("/", 1)[-1]
                if last.endswith(".service"):
                    return last
    except OSError:
        pass
    return None


class VenueSink(Protocol):
    """Where the tables received go: game.arcade.venue.VenueBoard."""

    def put(self, kiosk: str, rules_key: str, table: str, entries: Sequence[Entry]) -> bool: ...

    def drop(self, kiosk: str, rules_key: str, table: str) -> None: ...


class VenueLink(TableHooks):
    """This kiosk's link to the venue ``venue`` (config.toml [venue], checked): its ``scores``
    published, the other kiosks' tables put on ``board``. Made by game.launch.compose (a
    listener of the table: :meth:`step` and :meth:`shutdown`); :meth:`start` connects."""

    def __init__(
        self,
        venue: VenueConfig,
        scores: HighScores,
        board: VenueSink,
        *,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.venue, self.scores, self.board = venue, scores, board
        self.clock, self.monotonic = clock, monotonic
        self.connected = False  # the broker accepted us and nothing since says otherwise
        self.last_update = 0.0  # UNIX time of the last good message from the broker (0: none)
        self.dropped = 0  # messages dropped as bad, since the start
        self._lock = threading.Lock()  # the fields below, between the loop and paho's thread
        self._local: dict[str, bytes] = {}  # topic -> payload: what the broker should hold
        self._mailbox: dict[str, venue_form.TableMessage] = {}  # newest per topic, not yet taken
        self._client: Client | None = None
        self._stopping = False
        self._said = ""  # the last state logged (connected, or why not): each once
        self._next_check = 0.0
        scores.saved.append(self.refresh)
        self.refresh()

    # ---------------------------------------------------------------- the loop's side

    def start(self) -> None:
        """Start connecting, in the background; returns at once."""
        threading.Thread(target=self._start, name="venue-start", daemon=True).start()

    def step(self, dt: float) -> None:
        """Hand what arrived to the board (a few tables), and look at the tables once a minute."""
        now = self.monotonic()
        if now >= self._next_check:
            self.refresh()
        with self._lock:
            if not self._mailbox:
                return
            topics = list(self._mailbox)[:TAKEN_PER_STEP]
            taken = [self._mailbox.pop(name) for name in topics]
        for message in taken:
            if message.entries:
                self.board.put(message.kiosk, message.rules_key, message.table, message.entries)
            else:
                self.board.drop(message.kiosk, message.rules_key, message.table)

    def refresh(self) -> None:
        """Work out this kiosk's tables again; publish what changed (when connected)."""
        self._next_check = self.monotonic() + CHECK_EVERY_S
        tables = self._tables_now()
        with self._lock:
            changed = {name: data for name, data in tables.items() if self._local.get(name) != data}
            gone = [name for name in self._local if name not in tables]
            for name in gone:
                del self._local[name]
            self._local.update(changed)
            if self.connected and self._client is not None:
                for name, data in [*changed.items(), *((name, b"") for name in gone)]:
                    self._client.publish(name, data, qos=1, retain=True)

    def shutdown(self, game: Game) -> None:
        self.close()

    def close(self) -> None:
        """Disconnect cleanly and stop paho's thread (waiting STOP_WAIT_S at most: a connection
        attempt under way may hold it up to CONNECT_TIMEOUT_S; it is a daemon thread)."""
        if self.refresh in self.scores.saved:
            self.scores.saved.remove(self.refresh)
        with self._lock:
            self._stopping = True
            client, self._client = self._client, None
            self.connected = False
        if client is not None:
            client.disconnect()
            stopper = threading.Thread(target=client.loop_stop, name="venue-stop", daemon=True)
            stopper.start()
            stopper.join(STOP_WAIT_S)

    def _tables_now(self) -> dict[str, bytes]:
        """topic -> payload of every table this kiosk holds now (days out of view are none)."""
        out = {}
        for rules_key, name in self.scores.tables():
            entries = self.scores.table(rules_key, None if name == ALL_TIME else name)
            if entries:
                topic = venue_form.topic(self.venue.id, self.venue.kiosk, rules_key, name)
                out[topic] = venue_form.encode(self.venue.kiosk, rules_key, name, entries)
        return out

    # ---------------------------------------------------------------- the client's threads

    def _start(self) -> None:
        venue = self.venue
        try:  # the kiosk units' sandbox allows no network unless the venue's drop-in does
            socket.socket(socket.AF_INET6 if ":" in venue.broker else socket.AF_INET).close()
        except OSError as error:
            unit = own_unit() or "solitaire-kiosk.service"
            log.warning("venue: this process may not open a network socket (%s): the kiosk "
                        "unit's RestrictAddressFamilies= forbids it; the venue needs the drop-in "
                        "/etc/systemd/system/%s.d/venue.conf (the fleet playbook writes it; by "
                        "hand: kiosk/README.md, \"The unit's network drop-in\"), then "
                        "systemctl daemon-reload and a restart; the venue stays off",
                        error.strerror or error, unit)  # fmt: skip
            return
        credentials = read_credentials(venue.credentials_file)
        if isinstance(credentials, str):
            log.warning("venue: credentials file %s: %s; the venue stays off",
                        venue.credentials_file, credentials)  # fmt: skip
            return
        try:
            context = tls_context(venue.ca_file)
        except ValueError as error:
            log.warning("venue: CA file %s: %s; the venue stays off", venue.ca_file, error)
            return
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"solitaire-{venue.id}-{venue.kiosk}",
            clean_session=True,
            protocol=mqtt.MQTTv311,
        )
        client.username_pw_set(credentials.username, credentials.password)
        client.tls_set_context(context)
        client.reconnect_delay_set(*RECONNECT_S)
        client.connect_timeout = CONNECT_TIMEOUT_S
        client.suppress_exceptions = True  # a failing callback is logged; the thread goes on
        client.enable_logger(logging.getLogger("solitaire.venue.paho"))  # its errors only:
        logging.getLogger("solitaire.venue.paho").setLevel(logging.WARNING)  # (not each packet)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        with self._lock:
            if self._stopping:
                return
            self._client = client
            client.connect_async(venue.broker, venue.port, keepalive=KEEPALIVE_S)
            client.loop_start()
        log.info("venue: connecting to %s:%d as %s", venue.broker, venue.port, venue.kiosk)

    def _on_connect(
        self,
        client: Client,
        userdata: Any,
        flags: ConnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason.is_failure:
            self._say(f"the broker refused the connection ({reason})")
            return
        client.subscribe(venue_form.subscription(self.venue.id), qos=1)
        with self._lock:
            self.connected = not self._stopping
            for name, data in self._local.items():  # the catch-up: every table, again
                client.publish(name, data, qos=1, retain=True)
            count = len(self._local)
        self._say(f"connected to {self.venue.broker}:{self.venue.port}; {count} tables sent")

    def _on_connect_fail(self, client: Client, userdata: Any) -> None:
        self._say(f"cannot reach the broker {self.venue.broker}:{self.venue.port}; trying again")

    def _on_disconnect(
        self,
        client: Client,
        userdata: Any,
        flags: DisconnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        with self._lock:
            was, self.connected = self.connected, False
            stopping = self._stopping
        if was and not stopping:  # (a refused connection has said why already)
            self._say(f"lost the broker ({reason}); trying again")

    def _on_message(self, client: Client, userdata: Any, message: MQTTMessage) -> None:
        name = "(a topic that is not UTF-8)"
        try:
            name = message.topic
            read = venue_form.read_message(
                name, message.payload, self.venue.id, self.scores.blocked
            )
        except Exception as error:  # a message no check foresaw: dropped, the link goes on
            read = f"unreadable ({type(error).__name__})"
        if isinstance(read, str):
            self.dropped += 1
            log.warning("venue: message on %s dropped: %s", venue_form.shown(name), read)
            return
        self.last_update = self.clock()
        with self._lock:
            if read.kiosk != self.venue.kiosk:
                self._mailbox[read.topic] = read
            elif read.entries and read.topic not in self._local and self.connected:
                client.publish(read.topic, b"", qos=1, retain=True)  # a table no longer held

    def _say(self, state: str) -> None:
        """Log a change of the link's state once (a broker that stays away: one line)."""
        if state != self._said:
            self._said = state
            log.log(logging.INFO if state.startswith("connected") else logging.WARNING,
                    "venue: %s", state)  # fmt: skip


def join_venue(venue: VenueConfig, arcade: Arcade) -> VenueLink:
    """The arcade's venue board (:meth:`Arcade.join_venue`) and the link that fills it and
    publishes the arcade's tables, started (game.launch.compose, with [venue] set)."""
    board = arcade.join_venue(venue.shown_name, venue.kiosk)
    link = VenueLink(venue, arcade.scores, board)
    link.start()
    return link
