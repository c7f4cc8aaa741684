"""A real MQTT broker for the venue's tests (issue 42): Debian's mosquitto, started by the test on
a free port of 127.0.0.1 with TLS (a CA and a server certificate made by openssl in the test's
directory), a password per kiosk (mosquitto_passwd) and the venue's ACL: a kiosk writes only
``solitaire/<venue>/<its user>/#`` and reads ``solitaire/<venue>/#``. Retained messages are
kept on disk, so a broker stopped and started again still holds them.

Skips with the reason when mosquitto, mosquitto_passwd or openssl is missing (Debian:
``apt-get install mosquitto openssl``)."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from game.kiosk.venue_config import VenueConfig, tls_context

MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None
)
PASSWD = shutil.which("mosquitto_passwd")
OPENSSL = shutil.which("openssl")
VENUE = "library"


def need_broker() -> None:
    """Skip the test, saying what to install, unless mosquitto and openssl are here."""
    missing = [name for name, path in
               (("mosquitto", MOSQUITTO), ("mosquitto_passwd", PASSWD), ("openssl", OPENSSL))
               if path is None]  # fmt: skip
    if missing:
        names = ", ".join(missing)
        pytest.skip(f"{names} not installed (Debian: apt-get install mosquitto openssl)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _openssl(*args: str, cwd: Path) -> None:
    assert OPENSSL is not None
    subprocess.run([OPENSSL, *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_certificates(directory: Path) -> None:
    """ca.crt/ca.key, and server.crt/server.key for localhost and 127.0.0.1 signed by it."""
    directory.mkdir(parents=True, exist_ok=True)
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
             "ca.crt", "-days", "2", "-subj", "/CN=Venue test CA", cwd=directory)  # fmt: skip
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out",
             "server.csr", "-subj", "/CN=localhost", cwd=directory)  # fmt: skip
    (directory / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
             "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "san.ext",
             cwd=directory)  # fmt: skip


class Broker:
    """mosquitto in ``directory`` with a user per name of ``kiosks`` (password: the name
    reversed, plus "-pw"); :meth:`start` and :meth:`stop` may be called again and again (the
    same port, the retained messages kept)."""

    def __init__(self, directory: Path, kiosks: Iterable[str]) -> None:
        need_broker()
        self.directory = directory
        self.kiosks = list(kiosks)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        make_certificates(directory)
        passwd = directory / "passwd"
        assert PASSWD is not None
        for i, kiosk in enumerate(self.kiosks):
            flags = ["-c", "-b"] if i == 0 else ["-b"]
            subprocess.run([PASSWD, *flags, str(passwd), kiosk, self.password(kiosk)],
                           check=True, capture_output=True, timeout=30)  # fmt: skip
        (directory / "acl").write_text(
            f"pattern read solitaire/{VENUE}/#\npattern write solitaire/{VENUE}/%u/#\n"
        )
        (directory / "mosquitto.conf").write_text(
            "\n".join((
                "per_listener_settings false",
                "user root",  # as root (CI), stay so: the files here are root's
                f"listener {self.port} 127.0.0.1",
                f"cafile {directory / 'ca.crt'}",
                f"certfile {directory / 'server.crt'}",
                f"keyfile {directory / 'server.key'}",
                "allow_anonymous false",
                f"password_file {passwd}",
                f"acl_file {directory / 'acl'}",
                "persistence true",
                f"persistence_location {directory}/",
                f"log_dest file {directory / 'mosquitto.log'}",
                "log_type all",
            )) + "\n"
        )  # fmt: skip

    @staticmethod
    def password(kiosk: str) -> str:
        return kiosk[::-1] + "-pw"

    def credentials(self, kiosk: str, user: str | None = None) -> Path:
        """A credentials file for ``kiosk`` (as the user ``user``: another's, to try)."""
        path = self.directory / f"credentials-{kiosk}"
        name = user or kiosk
        path.write_text(f"username={name}\npassword={self.password(name)}\n")
        path.chmod(0o600)
        return path

    def venue(self, kiosk: str, *, port: int | None = None, host: str = "localhost") -> VenueConfig:
        """The [venue] of ``kiosk`` on this broker."""
        return VenueConfig(
            broker=host,
            port=self.port if port is None else port,
            id=VENUE,
            name="City Library",
            kiosk=kiosk,
            credentials_file=str(self.credentials(kiosk)),
            ca_file=str(self.directory / "ca.crt"),
        )

    def start(self) -> None:
        assert MOSQUITTO is not None and self.process is None
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.directory / "mosquitto.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None:
                    err = self.process.stderr.read().decode() if self.process.stderr else ""
                    raise RuntimeError(f"mosquitto did not start: {err}\n{self.log()}") from None
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        """Stop it as systemd would (SIGTERM: it saves the retained messages first)."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None

    @contextlib.contextmanager
    def client(self, user: str) -> Iterator[mqtt.Client]:
        """A raw paho client connected as ``user`` (its network thread running), not a kiosk."""
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-{user}")
        client.username_pw_set(user, self.password(user))
        client.tls_set_context(tls_context(str(self.directory / "ca.crt")))
        client.connect("localhost", self.port)
        client.loop_start()
        try:
            yield client
        finally:
            client.disconnect()
            client.loop_stop()

    def log(self) -> str:
        path = self.directory / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""
