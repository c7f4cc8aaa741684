"""The Raspberry Pi kiosk files: systemd units, wrapper scripts, installer."""

from __future__ import annotations

import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

REPO = Path(__file__).resolve().parents[2]
KIOSK = REPO / "kiosk"
UNITS = ("solitaire-kiosk.service", "solitaire-kiosk-cage.service")
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")

needs_systemd_analyze = pytest.mark.skipif(
    SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed"
)


def unit_settings(name: str) -> dict[str, list[str]]:
    """Key -> every value given in the unit (systemd allows repeated keys)."""
    settings: dict[str, list[str]] = {}
    for line in (KIOSK / name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        settings.setdefault(key, []).append(value)
    return settings


def installed_copy(tmp_path: Path, name: str) -> Path:
    """The unit with /usr/lib/solitaire-kiosk pointing at this checkout, so its commands exist."""
    text = (KIOSK / name).read_text(encoding="utf-8")
    target = tmp_path / name
    target.write_text(text.replace("/usr/lib/solitaire-kiosk", str(REPO)), encoding="utf-8")
    return target


@pytest.mark.system
@needs_systemd_analyze
@pytest.mark.parametrize("name", UNITS)
def test_systemd_analyze_verify(tmp_path: Path, name: str) -> None:
    unit = installed_copy(tmp_path, name)
    result = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", str(unit)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    ours = [line for line in (result.stdout + result.stderr).splitlines() if name in line]
    assert result.returncode == 0, result.stderr
    assert ours == []


@pytest.mark.system
@needs_systemd_analyze
@pytest.mark.parametrize("name", UNITS)
def test_security_exposure_at_most_1_2(tmp_path: Path, name: str) -> None:
    unit = installed_copy(tmp_path, name)
    result = subprocess.run(
        [SYSTEMD_ANALYZE, "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", result.stdout)
    if match is None and "offline" in result.stderr:
        pytest.skip(f"this systemd-analyze has no --offline: {result.stderr.strip()}")
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= 1.2, result.stdout


@pytest.mark.unit
@pytest.mark.parametrize("name", UNITS)
def test_unit_runs_unprivileged_restarts_and_is_sandboxed(name: str) -> None:
    s = unit_settings(name)
    assert s["User"] == ["solitaire"]
    assert s["Restart"] == ["always"]
    assert s["RestartPreventExitStatus"] == ["64"]
    assert s["StateDirectory"] == ["solitaire-kiosk"]
    assert s["PAMName"] == ["login"]
    assert s["TTYPath"] == ["/dev/tty1"]
    assert s["StandardInput"] == ["tty"]
    assert "getty@tty1.service" in s["Conflicts"][0].split()
    assert set(s["SupplementaryGroups"][0].split()) == {"video", "render", "input", "audio"}
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp"):
        assert s[key] == ["yes"], key
    assert s["ProtectSystem"] == ["strict"]
    assert s["CapabilityBoundingSet"] == [""]
    assert s["DevicePolicy"] == ["closed"]
    assert {"char-drm rw", "char-input rw", "char-alsa rw"} <= set(s["DeviceAllow"])
    assert "@system-service" in s["SystemCallFilter"]
    assert set(s["RestrictAddressFamilies"][0].split()) <= {"AF_UNIX", "AF_NETLINK"}
    # No network, but in the host's network namespace: udev's netlink messages about input
    # devices that appear later (a touch panel enumerated late, a replugged cable) only reach
    # processes there; PrivateNetwork=yes would hide them.
    assert s["IPAddressDeny"] == ["any"]
    assert "PrivateNetwork" not in s or s["PrivateNetwork"] == ["no"]
    assert s["StartLimitIntervalSec"] == ["0"]


@pytest.mark.unit
def test_console_unit_uses_kmsdrm_and_the_card_picker() -> None:
    s = unit_settings("solitaire-kiosk.service")
    assert "SDL_VIDEODRIVER=kmsdrm" in s["Environment"]
    assert s["ExecStart"] == ["/usr/lib/solitaire-kiosk/kiosk/run-kmsdrm.sh --kiosk"]
    assert "solitaire-kiosk-cage.service" in s["Conflicts"][0].split()


def test_scripts_are_executable_and_parse() -> None:
    """The wrappers, the installers, the PIN tool and the package's maintainer scripts."""
    maintainer = [
        KIOSK / "deb" / name for name in ("preinst", "config", "postinst", "prerm", "postrm")
    ]
    scripts = [*sorted(KIOSK.glob("*.sh")), KIOSK / "solitaire-kiosk-pin", *maintainer]
    for script in scripts:
        text = script.read_text()
        # A library (kiosk/lib.sh) is sourced, never run: it is no program (and not executable).
        library = text.startswith("# shellcheck shell=bash")
        executable = bool(script.stat().st_mode & stat.S_IXUSR)
        assert executable != library, f"{script.name}: executable {executable}, library {library}"
        bash = text.startswith(("#!/usr/bin/env bash", "# shellcheck shell=bash"))
        shell = "bash" if bash else "sh"
        subprocess.run([shell, "-n", str(script)], check=True)
    if shutil.which("shellcheck"):
        subprocess.run(["shellcheck", "-x", *map(str, scripts)], check=True, cwd=REPO)


def fake_drm(root: Path, connectors: dict[str, str]) -> Path:
    for name, status in connectors.items():
        (root / name).mkdir(parents=True)
        (root / name / "status").write_text(status + "\n")
    (root / "card0").mkdir(parents=True, exist_ok=True)
    (root / "renderD128").mkdir(exist_ok=True)
    return root


@pytest.mark.parametrize(
    ("connectors", "expected"),
    [
        ({"card0-HDMI-A-1": "connected", "card1-DSI-1": "connected"}, "1"),
        ({"card0-HDMI-A-1": "connected", "card2-DSI-1": "unknown"}, "2"),
        ({"card0-HDMI-A-1": "connected", "card1-DSI-1": "disconnected"}, "0"),
        ({"card1-HDMI-A-1": "disconnected", "card1-HDMI-A-2": "connected"}, "1"),
        ({"card0-HDMI-A-1": "disconnected"}, None),
        ({}, None),
    ],
)
def test_pick_drm_card(tmp_path: Path, connectors: dict[str, str], expected: str | None) -> None:
    drm = fake_drm(tmp_path / "drm", connectors)
    result = subprocess.run(
        [str(KIOSK / "pick-drm-card.sh"), str(drm)], capture_output=True, text=True, check=False
    )
    if expected is None:
        assert result.returncode == 1 and result.stdout == ""
    else:
        assert result.returncode == 0 and result.stdout == expected + "\n"


HANGS = -1  # a probe_exit: the probe hangs, ignoring SIGTERM (as on a headless wlroots)


def fake_app(tmp_path: Path, game_exit: int, probe_exit: int = 0) -> Path:
    """A copy of kiosk/ beside a fake venv python that records how it was started (the video
    probe, main.py --probe-video, exits with `probe_exit` and records nothing; with HANGS it
    writes its process id to probe.pid and sleeps, deaf to SIGTERM)."""
    app = tmp_path / "app"
    shutil.copytree(KIOSK, app / "kiosk")
    python = app / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    probe = (
        f"{{ echo $$ > \"{tmp_path}/probe.pid\"; trap '' TERM; exec sleep 120; }}"
        if probe_exit == HANGS
        else f"exit {probe_exit}"
    )
    python.write_text(
        "#!/bin/sh\n"
        f'[ "$2" = --probe-video ] && {probe}\n'
        'echo "driver=$SDL_VIDEODRIVER index=${SDL_KMSDRM_DEVICE_INDEX:-none} args=$*"'
        f' >> "{tmp_path}/started"\n'
        f"exit {game_exit}\n"
    )
    python.chmod(0o755)
    return app


def test_run_kmsdrm_exports_the_panel_card(tmp_path: Path) -> None:
    app = fake_app(tmp_path, 0)
    drm = fake_drm(tmp_path / "drm", {"card0-HDMI-A-1": "connected", "card1-DSI-1": "connected"})
    env = {"PATH": os.environ["PATH"], "SOLITAIRE_DRM_SYSFS": str(drm)}
    subprocess.run([str(app / "kiosk" / "run-kmsdrm.sh"), "--x"], env=env, check=True)
    started = (tmp_path / "started").read_text()
    assert started == f"driver=kmsdrm index=1 args={app}/main.py --x\n"


@pytest.mark.parametrize("name", UNITS)
def test_the_units_start_the_game_as_the_kiosk(tmp_path: Path, name: str) -> None:
    """Each unit's ExecStart, through its wrappers, starts main.py with --kiosk: a config the
    game cannot use leaves the kiosk locked (tests/kiosk/test_kiosk_flag.py)."""
    app = fake_app(tmp_path, 0)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    cage = bin_dir / "cage"
    cage.write_text('#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n')
    cage.chmod(0o755)
    drm = fake_drm(tmp_path / "drm", {"card0-DSI-1": "connected"})
    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "SOLITAIRE_DRM_SYSFS": str(drm)}
    (command,) = unit_settings(name)["ExecStart"]
    subprocess.run(
        command.replace("/usr/lib/solitaire-kiosk", str(app)).split(), env=env, check=True
    )
    started = (tmp_path / "started").read_text().splitlines()
    assert len(started) == 1
    args = started[0].partition(" args=")[2].split()
    assert args[0] == f"{app}/main.py" and "--kiosk" in args[1:]


def test_run_kmsdrm_keeps_an_operator_override(tmp_path: Path) -> None:
    app = fake_app(tmp_path, 0)
    drm = fake_drm(tmp_path / "drm", {"card1-DSI-1": "connected"})
    env = {
        "PATH": os.environ["PATH"],
        "SOLITAIRE_DRM_SYSFS": str(drm),
        "SDL_KMSDRM_DEVICE_INDEX": "3",
    }
    subprocess.run([str(app / "kiosk" / "run-kmsdrm.sh")], env=env, check=True)
    assert "index=3" in (tmp_path / "started").read_text()


@pytest.mark.parametrize("cage_exit", [0, 1])
@pytest.mark.parametrize("game_exit", [0, 64, 70])
def test_run_cage_passes_the_games_exit_status(
    tmp_path: Path, cage_exit: int, game_exit: int
) -> None:
    """systemd must see 64 (do not restart) even when cage itself reports something else."""
    app = fake_app(tmp_path, game_exit)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    cage = bin_dir / "cage"
    cage.write_text(
        f'#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\n"$@"\nexit {cage_exit}\n'
    )
    cage.chmod(0o755)
    state = tmp_path / "state"
    state.mkdir()
    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "STATE_DIRECTORY": str(state)}
    result = subprocess.run([str(app / "kiosk" / "run-cage.sh")], env=env, check=False)
    assert result.returncode == game_exit
    assert (tmp_path / "started").read_text().startswith("driver=wayland ")
    assert list(state.iterdir()) == []


@pytest.mark.parametrize(
    ("probe_exit", "game_exit", "drivers", "reason"),
    [
        (0, 0, ["wayland"], ""),
        (134, 0, ["x11"], "failed to open a window (killed by signal 6 SIGABRT)"),
        (1, 64, ["x11"], "failed to open a window (exit status 1)"),
        (0, 139, ["wayland", "x11"], "died at start under SDL's wayland driver (killed by signal"),
    ],
)
def test_run_wayland_falls_back_to_xwayland_and_says_why(
    tmp_path: Path, probe_exit: int, game_exit: int, drivers: list[str], reason: str
) -> None:
    app = fake_app(tmp_path, game_exit, probe_exit)
    status = tmp_path / "status"
    env = {"PATH": os.environ["PATH"], "SOLITAIRE_EXIT_STATUS_FILE": str(status)}
    result = subprocess.run(
        [str(app / "kiosk" / "run-wayland.sh")], env=env, capture_output=True, text=True
    )
    started = [line.split()[0] for line in (tmp_path / "started").read_text().splitlines()]
    assert started == [f"driver={d}" for d in drivers]
    assert result.returncode == game_exit and status.read_text() == f"{game_exit}\n"
    if reason:
        assert reason in result.stderr and "SDL_VIDEODRIVER=x11" in result.stderr
    else:
        assert result.stderr == ""


def test_run_wayland_kills_a_hung_probe_and_falls_back(tmp_path: Path) -> None:
    """A probe that never answers (and ignores SIGTERM) is killed after PROBE_TIMEOUT_S and the
    game runs under XWayland; the log says so, and no probe is left behind."""
    app = fake_app(tmp_path, 0, probe_exit=HANGS)
    env = {"PATH": os.environ["PATH"], "PROBE_TIMEOUT_S": "1"}
    result = subprocess.run(
        [str(app / "kiosk" / "run-wayland.sh")], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0
    assert (tmp_path / "started").read_text().startswith("driver=x11 ")
    assert "did not open a window within 1 s; the probe was killed" in result.stderr
    assert "SDL_VIDEODRIVER=x11" in result.stderr
    assert not is_running(int((tmp_path / "probe.pid").read_text()))


def is_running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting for its parent does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


PROBE_STUCK = """
import sys, time
import pygame
import main

def stuck() -> None:
    open(sys.argv[1], "w").close()
    time.sleep(120)

pygame.display.flip = stuck
main.PROBE_LIMIT_S = int(sys.argv[2])
sys.exit(main.probe_video())
"""


@pytest.mark.parametrize(("limit", "stop"), [(120, signal.SIGTERM), (1, None)])
def test_a_stuck_video_probe_ends(tmp_path: Path, limit: int, stop: int | None) -> None:
    """main.py --probe-video stuck in the driver: SIGTERM ends it (SDL's own handler used to
    swallow it), and without a signal it ends itself after PROBE_LIMIT_S (SIGALRM)."""
    marker = tmp_path / "in-flip"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    probe = subprocess.Popen(
        [sys.executable, "-c", PROBE_STUCK, str(marker), str(limit)], cwd=REPO, env=env
    )
    try:
        while not marker.exists() and probe.poll() is None:
            time.sleep(0.05)
        if stop is not None:
            probe.send_signal(stop)
        probe.wait(timeout=30)
    finally:
        if probe.poll() is None:
            probe.kill()
            probe.wait()
    assert probe.returncode == -(stop or signal.SIGALRM)


def test_run_wayland_keeps_the_operators_driver(tmp_path: Path) -> None:
    app = fake_app(tmp_path, 0, probe_exit=134)
    env = {"PATH": os.environ["PATH"], "SDL_VIDEODRIVER": "wayland"}
    subprocess.run([str(app / "kiosk" / "run-wayland.sh")], env=env, check=True)
    assert (tmp_path / "started").read_text().startswith("driver=wayland ")


def run_install_function(tmp_path: Path, call: str) -> None:
    script = f'source "{KIOSK / "lib.sh"}"; {call}'
    subprocess.run(["bash", "-c", script], check=True, cwd=tmp_path)


def test_install_writes_a_valid_kiosk_config(tmp_path: Path) -> None:
    from game.config import config_from_dict, hash_pin, load_config

    config = tmp_path / "config.toml"
    shutil.copy(REPO / "config.toml", config)
    stored = hash_pin("135790", iterations=100_000)
    run_install_function(
        tmp_path,
        f'set_toml_key "{config}" display show_cursor false; '
        f'set_toml_key "{config}" kiosk lock true; '
        f'set_toml_key "{config}" kiosk operator_pin_hash \'"{stored}"\'',
    )
    loaded, problems = load_config(config)
    assert problems == []
    assert loaded.display.show_cursor is False
    assert loaded.kiosk.lock is True
    assert loaded.kiosk.operator_pin_hash == stored
    assert loaded.game == config_from_dict({})[0].game
