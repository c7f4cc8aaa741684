"""config.toml's ``[venue]`` (issue 42: one high-score table for every kiosk of a building,
over an MQTT broker), the kiosk's credentials file and the broker's CA certificate.

Each key alone is checked in game.config_rules; here what belongs together: a ``[venue]`` needs
its broker, venue id, kiosk name, credentials file and CA file, the credentials file must hold
two lines ``username=<kiosk>`` and ``password=<secret>`` (nothing else, the user being this
kiosk's name: the broker's ACL lets a user write only under its own name), and the CA file
must hold PEM certificates (ssl reads them in full when the client starts: :func:`tls_context`).
Anything wrong leaves the venue off (and the game as it is without one), with one line that
names the key and never shows a secret.
Without ``[venue]``, or with its ``broker = ""``, nothing here runs. Must not import pygame
(nor paho, nor ssl at import).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from engine.safe_read import TooLargeError, read_bytes, reason

if TYPE_CHECKING:
    import ssl

MAX_CREDENTIALS_BYTES = 4096
MAX_CA_BYTES = 1_000_000
KIOSK_NAME = r"[a-z0-9-]{1,12}"  # (patterns compiled when first used: re keeps them)
NEEDED = ("broker", "id", "kiosk", "credentials_file", "ca_file")


class VenueConfig(NamedTuple):
    """[venue]: the broker (TLS only), the venue's id and name, this kiosk's short name, the
    credentials and CA files. ``broker`` "" (no [venue], or one that cannot be used): off."""

    broker: str = ""
    port: int = 8883
    id: str = ""
    name: str = ""  # shown on screens; "" shows the id
    kiosk: str = ""
    credentials_file: str = ""
    ca_file: str = ""

    @property
    def on(self) -> bool:
        return bool(self.broker)

    @property
    def shown_name(self) -> str:
        return self.name or self.id


class Credentials(NamedTuple):
    """This kiosk's MQTT user and password (the password never in a repr, a log or a message).
    A NamedTuple, as the config's sections: made at start, where a dataclass costs more."""

    username: str
    password: str

    def __repr__(self) -> str:
        return f"Credentials(username={self.username!r}, password=<hidden>)"


def read_credentials(path: str) -> Credentials | str:
    """The credentials in ``path``, or why they cannot be used (a reason that never shows what
    the file holds)."""
    try:
        raw = read_bytes(path, MAX_CREDENTIALS_BYTES)
    except FileNotFoundError:
        return "there is no such file"
    except TooLargeError:
        return f"larger than {MAX_CREDENTIALS_BYTES} bytes, not a credentials file"
    except (OSError, ValueError) as error:
        return f"cannot read it ({reason(error)})"
    try:
        lines = [line.strip() for line in raw.decode("utf-8").splitlines() if line.strip()]
    except UnicodeDecodeError:
        return "it is not UTF-8 text"
    values: dict[str, str] = {}
    for line in lines:
        key, equals, value = line.partition("=")
        if not equals or key.strip() not in ("username", "password") or key.strip() in values:
            return "expected two lines, username=<kiosk> and password=<secret>, and nothing else"
        values[key.strip()] = value.strip()
    user, password = values.get("username", ""), values.get("password", "")
    if not re.fullmatch(KIOSK_NAME, user):
        return "its username is not a kiosk name (1 to 12 of a-z, 0-9 and -)"
    if not password or not password.isprintable() or len(password) > 256:
        return "its password is missing, not printable or longer than 256 characters"
    return Credentials(user, password)


PEM = r"-----BEGIN CERTIFICATE-----\s*([A-Za-z0-9+/=\s]+?)\s*-----END CERTIFICATE-----"


def read_ca(path: str) -> str:
    """The PEM text of the CA file ``path`` (one certificate or more), or raises ValueError
    with why it cannot be used. Read as a damaged file would be (a regular file, at most
    MAX_CA_BYTES); the certificates' base64 must decode to DER (ssl, imported with the venue's
    client only, reads them in full: :func:`tls_context`)."""
    import binascii  # (a shared library: loaded only with a venue)

    try:
        text = read_bytes(path, MAX_CA_BYTES).decode("ascii")
    except FileNotFoundError:
        raise ValueError("there is no such file") from None
    except TooLargeError:
        raise ValueError(f"larger than {MAX_CA_BYTES} bytes, not a CA certificate") from None
    except UnicodeDecodeError:
        raise ValueError("it is not PEM text") from None
    except (OSError, ValueError) as error:
        raise ValueError(f"cannot read it ({reason(error)})") from None
    blocks = re.findall(PEM, text)
    if not blocks:
        raise ValueError("it holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
    for block in blocks:
        try:
            der = binascii.a2b_base64("".join(block.split()))
        except binascii.Error:
            der = b""
        if der[:1] != b"\x30":  # a DER certificate is a SEQUENCE
            raise ValueError("its PEM certificate is damaged (not base64 of a certificate)")
    return text


def tls_context(path: str) -> ssl.SSLContext:
    """A client TLS context (TLS 1.2 or later) that trusts only the CA certificates in
    ``path`` and checks the broker's host name; ValueError with why it cannot be made."""
    import ssl

    text = read_ca(path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # checks the certificate and host name
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_verify_locations(cadata=text)
    except (ssl.SSLError, ValueError) as error:
        why = getattr(error, "reason", None) or str(error)[:80]
        raise ValueError(f"ssl does not load its certificate ({why})") from None
    return context


def venue_problems(venue: VenueConfig, present: bool) -> tuple[VenueConfig, list[str]]:
    """The [venue] to use (off when it cannot be) and what is wrong with it, one line each.
    ``present``: config.toml has a [venue] section. Its ``broker = ""`` turns it off quietly,
    whatever the other keys say (the switch an operator uses for a while)."""
    if not present or not venue.broker:  # broker = "" (config.toml as shipped): no venue
        return VenueConfig(), []
    missing = [key for key in NEEDED if not getattr(venue, key)]
    if missing:
        return VenueConfig(), [
            f"[venue] without {', '.join(f'venue.{key}' for key in missing)}: expected every "
            f"one of {', '.join(NEEDED)}; the venue stays off"
        ]
    problems = []
    read = read_credentials(venue.credentials_file)
    if isinstance(read, str):
        problems.append(f'venue.credentials_file = "{venue.credentials_file}": {read}')
    elif read.username != venue.kiosk:
        problems.append(
            f'venue.credentials_file = "{venue.credentials_file}": its username is not '
            f'venue.kiosk ("{venue.kiosk}"); the broker lets a kiosk write only under its own name'
        )
    try:
        read_ca(venue.ca_file)
    except ValueError as error:
        problems.append(f'venue.ca_file = "{venue.ca_file}": {error}')
    if problems:
        return VenueConfig(), [f"{problem}; the venue stays off" for problem in problems]
    return venue, []
