#!/usr/bin/env bash
# Build the Debian package of the kiosk: dist/solitaire-kiosk_<version>_<arch>.deb.
#
#   bash kiosk/build-deb.sh                # for this machine's architecture
#   bash kiosk/build-deb.sh --arch arm64   # 64-bit Raspberry Pi OS (also amd64; armhf: see below)
#   bash kiosk/build-deb.sh --python 3.13  # the target's Python: 3.11 (default) for Debian and
#                                          # Pi OS Bookworm, 3.13 for Trixie
#
# The version is pyproject.toml's. The package holds the game in /usr/lib/solitaire-kiosk, the
# exact wheels of kiosk/requirements.lock for the target in /usr/lib/solitaire-kiosk/wheels
# (downloaded now with `pip download --platform ... --require-hashes`: each file checked
# against the lock's hash; a package that PyPI has only as a source archive, pytweening, is
# built here into a pure-Python wheel from its hashed archive), the operator's config
# /etc/solitaire-kiosk/config.toml (a conffile; it names the PIN file
# /etc/solitaire-kiosk/pin-hash, which is no conffile), the systemd units, the debconf PIN
# question and the maintainer scripts (kiosk/deb/) that create the user, write the PIN file,
# make the venv offline and report the game's own config check.
# Only files git tracks are shipped (a stray local file never lands on a kiosk).
# Needs: a Python 3 with pip and venv, network access to PyPI, dpkg-deb.
# armhf (32-bit Pi OS): PyPI has no pygame-ce wheel for it, and the build says so.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
# shellcheck source=kiosk/lib.sh
source "$here/lib.sh"
KMSDRM_UNIT=solitaire-kiosk.service
CAGE_UNIT=solitaire-kiosk-cage.service

PYTHON=${PYTHON:-python3}
arch=""
pyver=3.11
out="$src/dist"
while [ $# -gt 0 ]; do
    case "$1" in
    --arch)
        [ $# -gt 1 ] || die "--arch needs arm64, armhf or amd64"
        arch=$2
        shift 2
        ;;
    --arch=*)
        arch=${1#*=}
        shift
        ;;
    --python)
        [ $# -gt 1 ] || die "--python needs a version such as 3.11"
        pyver=$2
        shift 2
        ;;
    --out)
        [ $# -gt 1 ] || die "--out needs a directory"
        out=$2
        shift 2
        ;;
    -h | --help)
        awk 'NR > 1 && !/^#/ { exit } NR > 1 { print }' "$0"
        exit 0
        ;;
    *) die "unknown option $1 (try --help)" ;;
    esac
done
[ -n "$arch" ] || arch=$(dpkg --print-architecture)
case "$arch" in
amd64) machine=x86_64 ;;
arm64) machine=aarch64 ;;
armhf) machine=armv7l ;;
*) die "architecture $arch: expected arm64, armhf or amd64" ;;
esac
[[ "$pyver" =~ ^3\.[0-9]+$ ]] || die "--python $pyver: expected a version such as 3.11"
for tool in dpkg-deb gzip sha256sum; do
    command -v "$tool" >/dev/null || die "the command $tool is missing"
done
version=$(sed -n 's/^version = "\([^"]*\)"$/\1/p' "$src/pyproject.toml" | head -n 1)
[[ "$version" =~ ^[0-9][0-9A-Za-z.+~-]*$ ]] || die "no version in $src/pyproject.toml"
abi=cp${pyver/./}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"
app="$root/usr/lib/solitaire-kiosk"
wheels="$app/wheels"
mkdir -p "$wheels" "$work/dl"

# lock_block NAME: the lines of NAME's pin in FILE (the pin and its --hash lines).
lock_block() {
    awk -v name="$1" '
        /^[^ #]/ { keep = (index($0, name "==") == 1) }
        keep { print }
    ' "$2"
}

# A venv with the build tools of kiosk/build-requirements.lock, for source-only packages.
builder() {
    if [ ! -x "$work/build-venv/bin/python" ]; then
        "$PYTHON" -m venv "$work/build-venv"
        "$work/build-venv/bin/python" -m pip install -q --disable-pip-version-check \
            --require-hashes --no-deps -r "$here/build-requirements.lock"
    fi
    echo "$work/build-venv/bin/python"
}

pip_quiet=(-q --disable-pip-version-check --no-cache-dir --no-deps --require-hashes)
platforms=()
for tag in manylinux_2_28 manylinux_2_17 manylinux2014 manylinux_2_5 manylinux1; do
    platforms+=(--platform "${tag}_$machine")
done
pins=$(grep -E '^[A-Za-z0-9_.-]+==' "$here/requirements.lock" | cut -d' ' -f1)
for pin in $pins; do
    name=${pin%%==*}
    lock_block "$name" "$here/requirements.lock" >"$work/$name.lock"
    rm -rf "$work/dl"/*
    if "$PYTHON" -m pip download "${pip_quiet[@]}" --only-binary=:all: "${platforms[@]}" \
        --python-version "$pyver" --implementation cp --abi "$abi" -d "$work/dl" \
        -r "$work/$name.lock" 2>"$work/pip.err"; then
        cp "$work/dl"/*.whl "$wheels/"
        continue
    fi
    # No wheel in the lock for this target: a source archive may still give a pure wheel.
    py=$(builder)
    if "$py" -m pip wheel "${pip_quiet[@]}" --no-build-isolation -w "$work/dl" \
        -r "$work/$name.lock" 2>>"$work/pip.err" &&
        ls "$work/dl"/*-none-any.whl >/dev/null 2>&1; then
        cp "$work/dl"/*-none-any.whl "$wheels/"
        continue
    fi
    sed 's/^/  pip: /' "$work/pip.err" >&2
    hint=""
    [ "$arch" != armhf ] || hint="; PyPI has none for 32-bit ARM: use 64-bit Raspberry Pi OS"
    die "$pin: no wheel for CPython $pyver on $arch ($machine) among the files" \
        "kiosk/requirements.lock allows$hint"
done
{
    echo "# The wheels beside this file, installed offline by the package's postinst."
    for whl in "$wheels"/*.whl; do
        base=$(basename "$whl")
        dist=$(printf '%s' "${base%%-*}" | tr '_' '-')
        ver=$(printf '%s' "$base" | cut -d- -f2)
        echo "$dist==$ver --hash=sha256:$(sha256sum "$whl" | cut -d' ' -f1)"
    done
} >"$wheels/requirements.txt"

# The game: in a git checkout the files git tracks (no caches, nothing untracked), else the
# folders.
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached -- engine game assets |
        xargs -0 cp --parents -t "$app")
else
    for item in engine game assets; do
        cp -r "$src/$item" "$app/"
    done
fi
cp "$src/main.py" "$src/requirements.txt" "$src/config.toml" "$src/pyproject.toml" "$app/"
mkdir -p "$app/kiosk"
for item in run-kmsdrm.sh run-cage.sh run-wayland.sh pick-drm-card.sh record-exit.sh \
    console-setup.sh metrics-dir.sh; do
    install -m 755 "$here/$item" "$app/kiosk/$item"
done
install -m 644 "$here/lib.sh" "$app/kiosk/lib.sh"
# with_python FILE: FILE with the target's Python in place of the default python3.11.
with_python() {
    sed "s/^PYTHON=python3\.11 /PYTHON=python$pyver /" "$1"
}
mkdir -p "$root/usr/sbin"
with_python "$here/solitaire-kiosk-pin" >"$root/usr/sbin/solitaire-kiosk-pin"
mkdir -p "$root/usr/share/man/man8"
gzip -9n <"$here/deb/solitaire-kiosk-pin.8" >"$root/usr/share/man/man8/solitaire-kiosk-pin.8.gz"
find "$app" \( -name __pycache__ -o -name '*.pyc' \) -prune -exec rm -rf {} +

# The operator's config: the shipped one made for a kiosk by kiosk/kiosk-config.toml (the PIN
# hash comes from the operator).
conf="$root/etc/solitaire-kiosk/config.toml"
mkdir -p "$(dirname "$conf")"
cp "$src/config.toml" "$conf"
kiosk_config_onto "$here/kiosk-config.toml" "$conf"
# Its copy, which the postinst puts back when the operator deleted the conffile.
install -D -m 644 "$conf" "$root/usr/share/solitaire-kiosk/config.toml"

for unit in "$KMSDRM_UNIT" "$CAGE_UNIT"; do
    install -D -m 644 "$here/$unit" "$root/lib/systemd/system/$unit"
done
install -D -m 644 "$here/solitaire-kiosk.tmpfiles" "$root/usr/lib/tmpfiles.d/solitaire-kiosk.conf"

doc="$root/usr/share/doc/solitaire-kiosk"
mkdir -p "$doc"
install -m 644 "$here/deb/copyright" "$doc/copyright"
install -m 644 "$here/README.md" "$doc/README.md"
stamp=$(git -C "$src" log -1 --format=%ct 2>/dev/null || date +%s)
{
    printf 'solitaire-kiosk (%s) stable; urgency=medium\n\n' "$version"
    printf '  * Release %s.\n\n' "$version"
    printf ' -- %s  %s\n' "$(sed -n 's/^Maintainer: //p' "$here/deb/control.in")" \
        "$(date -R -u -d "@$stamp")"
} | gzip -9n >"$doc/changelog.gz"

find "$root" -type d -exec chmod 755 {} +
find "$root" -type f ! -perm -u+x -exec chmod 644 {} +
find "$app/kiosk" -name "*.sh" ! -name lib.sh -exec chmod 755 {} +
chmod 755 "$root/usr/sbin/solitaire-kiosk-pin"
find "$root" -exec touch -h -d "@$stamp" {} +

mkdir -p "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@PYTHON@/$pyver/g" \
    "$here/deb/control.in" >"$root/DEBIAN/control"
echo /etc/solitaire-kiosk/config.toml >"$root/DEBIAN/conffiles"
for script in preinst config postinst prerm postrm; do
    with_python "$here/deb/$script" >"$root/DEBIAN/$script"
    chmod 755 "$root/DEBIAN/$script"
done
install -m 644 "$here/deb/templates" "$root/DEBIAN/templates"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z |
    xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/md5sums" "$root/DEBIAN/control" "$root/DEBIAN/conffiles"

mkdir -p "$out"
deb="$out/solitaire-kiosk_${version}_$arch.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
