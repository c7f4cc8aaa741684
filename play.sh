#!/usr/bin/env bash
# Set everything up (a .venv beside this file) and start the game. Extra arguments go to main.py.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh requirements.txt
exec .venv/bin/python main.py "$@"
