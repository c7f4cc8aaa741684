#!/usr/bin/env bash
# Set everything up (a .venv beside this file) and run the whole test suite with the linters:
# every tier (unit, app, process, system; a bare `pytest` runs only unit and app) and the
# engine's docstring examples. Extra arguments go to pytest instead (for one file or one test),
# every tier of it.
#
# The whole suite runs as two pytest runs side by side: the Debian package and fleet tests, the
# venue's broker among them (minutes of dpkg, apt and Ansible in throw-away Debian roots, one
# build of the package for all) with the deal catalog checks (minutes of solving) on one core,
# and the rest on the other, so that both take about as long.
# Both must pass; the first run's output follows the other's. Each is one process (-n 0: the
# two side by side already fill both cores; a bare pytest spreads over the cores with
# pytest-xdist instead), and the randomised tests try every example they ask for (the full
# profile of tests/helpers/profiles.py; a bare pytest runs the fast one).
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh requirements-dev.txt
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy SOLITAIRE_TEST_PROFILE=full
.venv/bin/python -m ruff check .
.venv/bin/python -m ruff format --check .
.venv/bin/python -m mypy
if [ $# -gt 0 ]; then
    exec .venv/bin/python -m pytest -m "" -n 0 "$@"
fi
beside_tests=(tests/deploy/test_deb.py tests/deploy/test_deb_fleet.py tests/deploy/test_fleet_venue.py
    tests/engine/test_catalog.py)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
.venv/bin/python -m pytest -m "" -n 0 -p no:cacheprovider "${beside_tests[@]}" >"$log" 2>&1 &
beside=$!
status=0
.venv/bin/python -m pytest -m "" -n 0 "${beside_tests[@]/#/--ignore=}" || status=$?
beside_status=0
wait "$beside" || beside_status=$?
echo "---- the Debian package, fleet and catalog tests (run beside the others):"
cat "$log"
[ "$status" != 0 ] || status=$beside_status
exit "$status"
