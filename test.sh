#!/usr/bin/env bash
# Set everything up (a .venv beside this file) and run the whole test suite with the linters:
# every tier (unit, app, process, system; a bare `pytest` runs only unit and app) and the
# engine's docstring examples. Extra arguments go to pytest instead (for one file or one test),
# every tier of it.
#
# The whole suite is one pytest run over three workers (pytest-xdist, each test file whole in
# one worker): the Debian package and fleet tests spend most of their minutes waiting on dpkg,
# apt and Ansible in throw-away Debian roots, so a third worker keeps both cores busy. The
# longest files are named first, so that no worker is left with one of them at the end (every
# other file follows from `tests engine`; pytest collects a file once). The randomised tests try
# every example they ask for (the full profile of tests/helpers/profiles.py; a bare pytest runs
# the fast one). Two runs side by side, one process each, took 8.5 minutes; this takes 7.
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
longest=(tests/deploy/test_deb_fleet.py tests/deploy/test_deb.py tests/deploy/test_fleet_venue.py
    tests/engine/test_catalog.py tests/project/test_private_clone.py tests/deploy/test_deb_operator.py)
exec .venv/bin/python -m pytest -m "" -n 3 --dist loadfile "${longest[@]}" tests engine
