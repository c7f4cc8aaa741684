#!/usr/bin/env bash
# Set everything up (a .venv beside this file) and run the whole test suite with the linters
# (the slow tests too, which a bare `pytest` skips).
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh requirements-dev.txt
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
.venv/bin/python -m ruff check .
.venv/bin/python -m ruff format --check .
.venv/bin/python -m mypy
.venv/bin/python -m pytest -m "" "$@"  # the whole suite, slow tests included
