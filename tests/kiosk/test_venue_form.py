"""The venue's settings and messages without a broker (issue 42): config.toml's [venue] checked
by --check-config with messages that name the key and never show the password
(game.kiosk.venue_config), each message received read as a damaged file is
(game.kiosk.venue_form), the venue's metrics only with a venue, and no paho without one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.arcade.highscores import Entry
from game.arcade.initials import Blocklist
from game.config import Config, check_config_file, load_config
from game.kiosk import venue_form
from game.kiosk.metrics import Snapshot, VenueFigures, render
from game.kiosk.runs import Today
from game.kiosk.venue_config import VenueConfig, read_ca, read_credentials, tls_context
from game.saves.stats import Stats

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]
SECRET = "s3cret-Pa55"
CODE = "SH1-C4-AAAAAJ2"
# A CA certificate (openssl's, EC P-256; any will do: only its form is checked here).
CA = """-----BEGIN CERTIFICATE-----
MIIBhjCCASugAwIBAgIUV4C3jlvSW+Tlmb6bCofv6TebKWEwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNVmVudWUgdGVzdCBDQTAeFw0yNjEyMDYyMTIxMDFaFw0zNjEy
MDMyMTIxMDFaMBgxFjAUBgNVBAMMDVZlbnVlIHRlc3QgQ0EwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAAS/UokyvJpU7UXBS0HFvBRb2px0gkd7QPmTy1tw2/Gb0Egw
zOK7JzS7z9fOl0gjFbAp6Dy/Qk/lZUIF1JQYAXzvo1MwUTAdBgNVHQ4EFgQUec/x
+DMGm1QACGmHesjnIFNdp14wHwYDVR0jBBgwFoAUec/x+DMGm1QACGmHesjnIFNd
p14wDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNJADBGAiEA4C9fQnrA033A
CphHYGo+HxlBUSkFHk9wyzUvY82mqmkCIQDUS9H8baekATIY/M+5LuR8wTH9WITZ
PSKtV03/4KVPOA==
-----END CERTIFICATE-----
"""


def venue_toml(tmp_path: Path, **changes: object) -> Path:
    """A config.toml whose [venue] is whole (its files in tmp_path), with ``changes``."""
    (tmp_path / "credentials").write_text(f"username=cafe\npassword={SECRET}\n")
    (tmp_path / "ca.crt").write_text(CA)
    keys: dict[str, object] = {
        "broker": "scores.lan",
        "port": 8883,
        "id": "library",
        "name": "City Library",
        "kiosk": "cafe",
        "credentials_file": str(tmp_path / "credentials"),
        "ca_file": str(tmp_path / "ca.crt"),
        **changes,
    }
    lines = [f"{key} = {json.dumps(value)}" for key, value in keys.items() if value is not None]
    path = tmp_path / "config.toml"
    path.write_text("[venue]\n" + "\n".join(lines) + "\n")
    return path


class TestConfig:
    def test_without_venue_or_with_an_empty_broker_nothing_is_on(self, tmp_path: Path) -> None:
        assert load_config(tmp_path / "none.toml")[0].venue == VenueConfig()
        config, problems = load_config(venue_toml(tmp_path, broker=""))
        assert problems == [] and not config.venue.on
        assert Config().venue.on is False

    def test_a_whole_venue_is_on_and_its_name_defaults_to_its_id(self, tmp_path: Path) -> None:
        config, problems = load_config(venue_toml(tmp_path, name=None))
        assert problems == []
        assert config.venue.on and config.venue.shown_name == "library"
        assert config.venue.port == 8883 and config.venue.kiosk == "cafe"

    @pytest.mark.parametrize(
        ("changes", "said"),
        [
            ({"port": 99999}, "venue.port = 99999: expected a whole number from 1 to 65535"),
            ({"port": "mqtts"}, 'venue.port = "mqtts": expected a whole number'),
            ({"id": "City Library"}, 'venue.id = "City Library": expected "" or 1 to 32 of a-z'),
            ({"kiosk": "Café!"}, 'venue.kiosk = "Caf\\xe9!": expected "" or 1 to 12 of a-z'),
            ({"kiosk": "a-very-long-name"}, "venue.kiosk"),
            ({"broker": "scores lan"}, 'venue.broker = "scores lan": expected "" or a host name'),
            ({"name": "x" * 41}, "venue.name"),
            ({"credentials_file": "credentials"}, 'venue.credentials_file = "credentials": exp'),
        ],
    )
    def test_a_wrong_key_is_named_with_what_it_expects(
        self, tmp_path: Path, changes: dict[str, object], said: str
    ) -> None:
        problems = load_config(venue_toml(tmp_path, **changes))[1]
        assert any(said in problem for problem in problems), problems

    def test_missing_keys_leave_the_venue_off(self, tmp_path: Path) -> None:
        config, problems = load_config(venue_toml(tmp_path, kiosk=None, ca_file=None))
        assert not config.venue.on
        assert problems == [
            "[venue] without venue.kiosk, venue.ca_file: expected every one of broker, id, "
            "kiosk, credentials_file, ca_file; the venue stays off"
        ]

    @pytest.mark.parametrize(
        ("content", "said"),
        [
            (None, "there is no such file"),
            (f"username=cafe\npassword={SECRET}\nextra=1\n", "expected two lines"),
            (f"password={SECRET}\n", "its username is not a kiosk name"),
            ("username=cafe\npassword=\n", "its password is missing"),
            (f"username=hall\npassword={SECRET}\n", 'its username is not venue.kiosk ("cafe")'),
            (SECRET, "expected two lines"),
        ],
    )
    def test_a_bad_credentials_file_is_said_without_its_secret(
        self, tmp_path: Path, content: str | None, said: str
    ) -> None:
        path = venue_toml(tmp_path)
        if content is None:
            (tmp_path / "credentials").unlink()
        else:
            (tmp_path / "credentials").write_text(content)
        config, problems = load_config(path)
        assert not config.venue.on and len(problems) == 1
        assert said in problems[0] and problems[0].endswith("; the venue stays off")
        assert SECRET not in problems[0] and "hall" not in problems[0]

    def test_an_unreadable_or_damaged_ca_file_is_said(self, tmp_path: Path) -> None:
        path = venue_toml(tmp_path)
        for content, said in (
            ("hello", "it holds no PEM certificate"),
            (CA.replace("MII", "AAA"), "its PEM certificate is damaged"),
            (b"\xff\xfe", "it is not PEM text"),
        ):
            ca = tmp_path / "ca.crt"
            ca.write_bytes(content if isinstance(content, bytes) else content.encode())
            config, problems = load_config(path)
            assert not config.venue.on and len(problems) == 1 and said in problems[0]
        (tmp_path / "ca.crt").unlink()
        (tmp_path / "ca.crt").mkdir()  # a directory where the file should be
        assert "cannot read it" in load_config(path)[1][0]

    def test_check_config_prints_the_problems_and_fails(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = venue_toml(tmp_path, port=0)
        (tmp_path / "credentials").write_text(f"username=cafe\npassword={SECRET}\nx\n")
        assert check_config_file(path) == 1
        out = capsys.readouterr().out
        assert "venue.port = 0" in out and "venue.credentials_file" in out
        assert SECRET not in out and out.endswith("2 problem(s)\n")
        (tmp_path / "credentials").write_text(f"username=cafe\npassword={SECRET}\n")
        assert check_config_file(venue_toml(tmp_path)) == 0

    def test_the_password_is_never_in_a_repr(self, tmp_path: Path) -> None:
        venue_toml(tmp_path)
        read = read_credentials(str(tmp_path / "credentials"))
        assert not isinstance(read, str) and read.password == SECRET
        assert SECRET not in repr(read) and SECRET not in str(load_config(tmp_path / "x"))

    def test_a_ca_file_that_cannot_be_used_says_why(self, tmp_path: Path) -> None:
        """The CA file is read as the credentials are: what is in it, or why not (the
        operator's check and the kiosk's log line show the reason)."""
        ca = tmp_path / "ca.crt"
        assert read_ca(str(ca)) == "there is no such file"
        assert tls_context(str(ca)) == "there is no such file"
        ca.write_text("hello\n")
        assert read_ca(str(ca)) == "it holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        ca.write_text("-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----\n")
        assert read_ca(str(ca)) == "its PEM certificate is damaged (not base64 of a certificate)"


def entry(seconds: float = 100.0, initials: str = "ANA", game: str = "g1") -> Entry:
    return Entry(CODE, 520, seconds, 103, initials, when="2026-12-01T10:00:00Z", game=game)


TOPIC = "solitaire/library/hall/SH1-C4/all"


def read(payload: bytes, topic: str = TOPIC) -> venue_form.TableMessage | str:
    return venue_form.read_message(topic, payload, "library", Blocklist())


def payload(**changes: object) -> bytes:
    data: dict[str, object] = {"v": 1, "kiosk": "hall", "rules": "SH1-C4", "table": "all"}
    data["entries"] = [entry().to_dict()]
    data.update(changes)
    return json.dumps(data).encode()


class TestMessages:
    def test_a_table_published_reads_back_the_same(self) -> None:
        wins = [entry(100.0), entry(120.0, "", "g2")]
        got = read(venue_form.encode("hall", "SH1-C4", "all", wins))
        assert isinstance(got, venue_form.TableMessage)
        assert (got.kiosk, got.rules_key, got.table, list(got.entries)) == (
            "hall", "SH1-C4", "all", wins,
        )  # fmt: skip
        day = read(venue_form.encode("hall", "SH1-C4", "2026-12-01", wins),
                   "solitaire/library/hall/SH1-C4/2026-12-01")  # fmt: skip
        assert isinstance(day, venue_form.TableMessage)
        assert [e.day for e in day.entries] == ["2026-12-01"] * 2

    def test_an_empty_payload_clears_the_table(self) -> None:
        got = read(b"")
        assert isinstance(got, venue_form.TableMessage) and got.entries == ()

    def test_a_table_too_large_for_a_message_keeps_its_best_entries(self) -> None:
        wins = [entry(float(n), game=f"{'g' * 40}"[:39] + str(n % 10)) for n in range(1, 600)]
        data = venue_form.encode("hall", "SH1-C4", "all", wins)
        assert len(data) <= venue_form.MAX_PAYLOAD
        got = read(data)
        assert isinstance(got, venue_form.TableMessage)
        assert list(got.entries) == wins[: len(got.entries)] and len(got.entries) > 100

    @pytest.mark.parametrize(
        ("data", "topic", "said"),
        [
            (b"\xff\xfe", TOPIC, "not UTF-8"),
            (b"{" * 70_000, TOPIC, "more than 65536"),
            (b"[" * 30_000 + b"]" * 30_000, TOPIC, "not JSON"),
            (b"not json", TOPIC, "not JSON"),
            (payload().replace(b"520", b"NaN"), TOPIC, "not JSON (NaN is not a number"),
            (b"[]", TOPIC, "not an object but list"),
            (payload(v=2), TOPIC, "version '2', not 1"),
            (payload(v=True), TOPIC, "version 'True', not 1"),
            (payload(extra=1), TOPIC, "its keys are not"),
            (payload(kiosk="cafe"), TOPIC, "not what its topic says"),
            (payload(table="2026-12-01"), TOPIC, "not what its topic says"),
            (payload(entries={}), TOPIC, "its entries are not a list"),
            (payload(entries=[{}] * 501), TOPIC, "501 entries"),
            (payload(entries=[{**entry().to_dict(), "score": 10**9}]), TOPIC, "entry 1: score"),
            (payload(entries=[{**entry().to_dict(), "code": "RU1-C-AAAAAAD"}]), TOPIC,
             "is not of SH1-C4"),
            (payload(entries=[{**entry().to_dict(), "initials": "<b>"}]), TOPIC, "initials"),
            (payload(entries=[entry().to_dict(), {**entry().to_dict(), "seconds": -1}]), TOPIC,
             "entry 2: seconds is out of range"),
            (payload(), "solitaire/library/Hall!/SH1-C4/all", "the kiosk's name"),
            (payload(), "solitaire/library/hall/XX1/all", "no such rule set"),
            (payload(), "solitaire/library/hall/SH1-C4/2026-13-40", "neither all nor a day"),
            (payload(), "solitaire/library/hall/SH1-C4/all/more", "not a table's topic"),
            (payload(), "solitaire/other/hall/SH1-C4/all", "not a table's topic"),
        ],
    )  # fmt: skip
    def test_a_bad_message_is_refused_with_why(self, data: bytes, topic: str, said: str) -> None:
        got = read(data, topic)
        assert isinstance(got, str) and said in got, got
        assert len(got) < 200

    def test_blocked_initials_show_as_none_and_a_win_twice_counts_once(self) -> None:
        rows = [entry(initials="XXX").to_dict(), entry().to_dict(), entry(150.0).to_dict()]
        got = read(payload(entries=rows))
        assert isinstance(got, venue_form.TableMessage)
        assert [(e.initials, e.seconds) for e in got.entries] == [("", 100.0), ("ANA", 150.0)]
        mine = venue_form.read_message(TOPIC, payload(entries=[entry(initials="BOB").to_dict()]),
                                       "library", Blocklist(["BOB"]))  # fmt: skip
        assert isinstance(mine, venue_form.TableMessage) and mine.entries[0].initials == ""


def snapshot(venue: VenueFigures | None) -> Snapshot:
    return Snapshot("1", ("SH1-C4",), 1.0, 0.0, Stats(), None, Today("2026-12-01"), 0, 0, 0, 0,
                    0.0, venue)  # fmt: skip


def test_the_venues_metrics_show_only_with_a_venue() -> None:
    assert "venue" not in render(snapshot(None))
    text = render(snapshot(VenueFigures(True, 1796000000.5)))
    assert "\nsolitaire_kiosk_venue_connected 1\n" in text
    assert "\nsolitaire_kiosk_venue_last_update_timestamp_seconds 1796000000.5\n" in text
    assert "# TYPE solitaire_kiosk_venue_connected gauge" in text
    assert "\nsolitaire_kiosk_venue_connected 0\n" in render(snapshot(VenueFigures(False, 0.0)))


@pytest.mark.process
def test_without_a_venue_the_game_never_imports_paho(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from game.config import Config\n"
        "from game.launch import open_run\n"
        "from tests.helpers.tablehelp import make_app\n"
        f"run = open_run(Config(), __import__('pathlib').Path({str(tmp_path)!r}),"
        " crash_hook=False, logging_on=False)\n"
        "app = make_app(run=run)\n"
        "app.step()\n"
        "names = ('paho', 'ssl', 'game.kiosk.venue_link', 'game.kiosk.venue_form')\n"
        "print(sorted(m for m in sys.modules if m.startswith(names)))\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         timeout=120, env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                                           "PATH": "/usr/bin:/bin"}, check=False)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip().splitlines()[-1] == "[]"


def test_a_sandbox_without_network_sockets_is_said_and_the_venue_stays_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Under the kiosk units (RestrictAddressFamilies=AF_UNIX AF_NETLINK) without the venue's
    drop-in, the link says why in one line instead of trying for ever."""
    from game.arcade.highscores import HighScores, highscores_store
    from game.kiosk import venue_link

    config = load_config(venue_toml(tmp_path))[0]

    def refused(*args: object) -> None:
        raise PermissionError(1, "Address family not supported by protocol")

    class Board:
        def put(self, *args: object) -> bool:
            raise AssertionError("nothing arrives")

        def drop(self, *args: object) -> None:
            raise AssertionError("nothing arrives")

    monkeypatch.setattr(venue_link.socket, "socket", refused)
    link = venue_link.VenueLink(config.venue, HighScores(highscores_store(tmp_path)), Board())
    link._start()  # what start()'s thread runs
    assert link._client is None and not link.connected
    said = [r.getMessage() for r in caplog.records if r.name == "solitaire.venue"]
    assert len(said) == 1 and "may not open a network socket" in said[0], said
    assert "RestrictAddressFamilies" in said[0] and "the venue stays off" in said[0]
    # What to do: the drop-in of the unit it runs under (solitaire-kiosk.service when it cannot
    # tell) and where the README says how.
    unit = venue_link.own_unit() or "solitaire-kiosk.service"
    assert f"/etc/systemd/system/{unit}.d/venue.conf" in said[0], said
    assert "kiosk/README.md" in said[0] and "The unit's network drop-in" in said[0]


def test_the_link_names_the_unit_it_runs_under(tmp_path: Path) -> None:
    """The cgroup systemd put the game in names its unit (cage's child is in cage's)."""
    from game.kiosk.venue_link import own_unit

    v2, v1, none = tmp_path / "v2", tmp_path / "v1", tmp_path / "none"
    v2.write_text("0::/system.slice/solitaire-kiosk-cage.service\n")
    v1.write_text("12:pids:/\n1:name=systemd:/system.slice/solitaire-kiosk.service\n0::/\n")
    none.write_text("0::/user.slice/user-1000.slice/session-3.scope\n")
    assert own_unit(str(v2)) == "solitaire-kiosk-cage.service"
    assert own_unit(str(v1)) == "solitaire-kiosk.service"
    assert own_unit(str(none)) is None
    assert own_unit(str(tmp_path / "missing")) is None
