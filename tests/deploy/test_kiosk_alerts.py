"""The Prometheus alert rules for the fleet (kiosk/prometheus/solitaire-kiosk.rules.yml, quoted in
kiosk/README.md), checked with `promtool test rules` over series that show each case: a game
that stopped writing its file, a kiosk that stopped answering, a kiosk whose game never wrote
its file, a healthy kiosk; a new kiosk nobody touched yet and one last touched a day ago.

The series are a minute apart, as if Prometheus scraped each kiosk every minute; `time()` is
the minutes of the test in seconds. A healthy game writes its file every 30 s, so its
`node_textfile_mtime_seconds` is the time of each scrape here."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.system

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "kiosk" / "prometheus" / "solitaire-kiosk.rules.yml"
PROMTOOL = shutil.which("promtool")
JOB = "solitaire-kiosks"
FILE = "/var/lib/prometheus/node-exporter/solitaire_kiosk.prom"

SUMMARIES = {
    "KioskDown": "{instance}: the kiosk or its game is not running",
    "KioskUntouched": "{instance}: no input for a whole day (screen, touch, cable?)",
}

needs_promtool = pytest.mark.skipif(
    PROMTOOL is None, reason="promtool is not installed (Debian: apt-get install prometheus)"
)


def series(metric: str, instance: str, values: str, **labels: str) -> dict[str, str]:
    extra = "".join(f', {k}="{v}"' for k, v in labels.items())
    return {"series": f'{metric}{{job="{JOB}", instance="{instance}"{extra}}}', "values": values}


def alerts(name: str, at: str, *instances: str, **labels: str) -> dict[str, object]:
    """Alert `name` evaluated at `at` fires for exactly `instances`."""
    summary = SUMMARIES[name]
    return {
        "alertname": name,
        "eval_time": at,
        "exp_alerts": [
            {
                "exp_labels": {"job": JOB, "instance": instance, **labels},
                "exp_annotations": {"summary": summary.format(instance=instance)},
            }
            for instance in instances
        ],
    }


def promtool_test(tmp_path: Path, tests: list[dict[str, object]]) -> str:
    """`promtool test rules` over the rules file; its output (the test fails when it does)."""
    assert PROMTOOL is not None
    spec = tmp_path / "alerts.test.yml"
    # JSON is YAML: promtool reads it as written.
    spec.write_text(json.dumps({"rule_files": [str(RULES)], "evaluation_interval": "1m",
                                "tests": tests}, indent=1))  # fmt: skip
    result = subprocess.run(
        [PROMTOOL, "test", "rules", str(spec)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@needs_promtool
def test_kiosk_down_fires_five_minutes_after_the_game_stops_or_a_kiosk_goes_quiet(
    tmp_path: Path,
) -> None:
    file = {"file": FILE}
    stopped = [
        series("up", "stopped.local:9100", "1x30"),
        # The game's last write is at minute 10; node_exporter goes on serving the old file.
        series("node_textfile_mtime_seconds", "stopped.local:9100", "0+60x10 600x20", **file),
    ]
    unplugged = [
        # The whole kiosk is gone from minute 11: no scrape, no file.
        series("up", "unplugged.local:9100", "1x10 0x20"),
        series("node_textfile_mtime_seconds", "unplugged.local:9100", "0+60x10 _x20", **file),
    ]
    healthy = [
        series("up", "healthy.local:9100", "1x30"),
        series("node_textfile_mtime_seconds", "healthy.local:9100", "0+60x30", **file),
    ]
    promtool_test(
        tmp_path,
        [
            {
                "interval": "1m",
                "input_series": stopped + healthy,
                "alert_rule_test": [
                    alerts("KioskDown", "10m"),
                    alerts("KioskDown", "15m"),  # 4 minutes late: pending
                    alerts("KioskDown", "16m", "stopped.local:9100", **file),
                    alerts("KioskDown", "30m", "stopped.local:9100", **file),
                ],
            },
            {
                "interval": "1m",
                "input_series": unplugged + healthy,
                "alert_rule_test": [
                    alerts("KioskDown", "15m"),
                    alerts("KioskDown", "16m", "unplugged.local:9100"),
                    alerts("KioskDown", "30m", "unplugged.local:9100"),
                ],
            },
        ],
    )


@needs_promtool
def test_kiosk_down_fires_for_a_kiosk_whose_game_never_wrote_its_file(tmp_path: Path) -> None:
    # node_exporter answers, but the game has never written solitaire_kiosk.prom: no series.
    promtool_test(
        tmp_path,
        [
            {
                "interval": "1m",
                "input_series": [
                    series("up", "new.local:9100", "1x30"),
                    series("up", "healthy.local:9100", "1x30"),
                    series(
                        "node_textfile_mtime_seconds", "healthy.local:9100", "0+60x30", file=FILE
                    ),
                ],
                "alert_rule_test": [
                    alerts("KioskDown", "0m"),  # pending
                    alerts("KioskDown", "2m", "new.local:9100"),
                    alerts("KioskDown", "30m", "new.local:9100"),
                ],
            }
        ],
    )


@needs_promtool
def test_kiosk_untouched_counts_a_new_kiosk_from_its_start_not_from_1970(tmp_path: Path) -> None:
    day = 24 * 60  # minutes
    on = 2 * day  # both kiosks are switched on two days into the test (time() is not 0 there)
    rest = day + 100  # and run on for a day and more
    started = f"_x{on} {on * 60}x{rest}"
    promtool_test(
        tmp_path,
        [
            {
                "interval": "1m",
                "input_series": [
                    # Never touched: its last input is 0.
                    series("solitaire_kiosk_start_time_seconds", "fresh.local:9100", started),
                    series(
                        "solitaire_kiosk_last_input_time_seconds",
                        "fresh.local:9100",
                        f"_x{on} 0x{rest}",
                    ),
                    # Touched an hour after its start, then never again.
                    series("solitaire_kiosk_start_time_seconds", "used.local:9100", started),
                    series(
                        "solitaire_kiosk_last_input_time_seconds",
                        "used.local:9100",
                        f"_x{on} 0x60 {(on + 60) * 60}x{rest - 61}",
                    ),
                ],
                "alert_rule_test": [
                    alerts("KioskUntouched", f"{on + 60}m"),
                    alerts("KioskUntouched", f"{on + day + 5}m"),  # a day: pending
                    alerts("KioskUntouched", f"{on + day + 15}m", "fresh.local:9100"),
                    alerts("KioskUntouched", f"{on + day + 60}m", "fresh.local:9100"),
                    alerts(
                        "KioskUntouched", f"{on + day + 80}m", "fresh.local:9100", "used.local:9100"
                    ),
                ],
            }
        ],
    )


def test_the_readme_quotes_the_rules_file_as_it_is() -> None:
    readme = (REPO / "kiosk" / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```yaml\n(groups:\n.*?)^```", readme, re.M | re.S)
    assert blocks == [RULES.read_text(encoding="utf-8")]
