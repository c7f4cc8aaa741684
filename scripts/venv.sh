# Sourced by play.sh and test.sh: make .venv and install what the given requirements file names.
# Installs again only when the requirements changed since the last install.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
req="$1"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
stamp=".venv/.installed-$(basename "$req")"
if ! cat requirements.txt "$req" | cmp -s - "$stamp"; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$req"
    cat requirements.txt "$req" >"$stamp"
fi
