#!/usr/bin/env bash
# zizmor (https://docs.zizmor.sh), from PyPI in a venv under a temporary
# folder, must report nothing on `action.yml` and on the sample workflow
# `docs/examples/skein.yml`, which README.md quotes verbatim (checked here).
# The sample pins skein as `skein-dev/skein@COMMIT_SHA`, a placeholder for
# the commit the user picks; it is replaced with this clone's HEAD, so zizmor
# sees the workflow as a user would have it.
#
# Usage: .ci/zizmor.sh   (from anywhere; needs python3 with venv, network
# access to PyPI)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
sample=docs/examples/skein.yml

python3 - "$sample" <<'EOF'
import sys
sample = open(sys.argv[1], encoding="utf-8").read()
readme = open("README.md", encoding="utf-8").read()
if "```yaml\n" + sample + "```\n" not in readme:
    sys.exit(f"error: README.md does not quote {sys.argv[1]} verbatim (a ```yaml block)")
if "skein-dev/skein@COMMIT_SHA" not in sample:
    sys.exit(f"error: {sys.argv[1]} no longer pins skein as skein-dev/skein@COMMIT_SHA")
print(f"README.md quotes {sys.argv[1]} verbatim")
EOF

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Debian and Ubuntu ship venv apart from python3 (python3-venv).
if ! python3 -m venv "$tmp/venv" >/dev/null 2>&1; then
    if [[ "$(id -u)" != "0" ]] || ! command -v apt-get >/dev/null; then
        echo "error: python3 -m venv fails: install python3-venv" >&2
        exit 1
    fi
    rm -rf "$tmp/venv"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$tmp/venv"
fi
"$tmp/venv/bin/pip" install --quiet --disable-pip-version-check zizmor==1.32.0
zizmor="$tmp/venv/bin/zizmor"
"$zizmor" --version

sed "s/@COMMIT_SHA\b/@$(git rev-parse HEAD)/" "$sample" > "$tmp/skein.yml"

# Offline: the audits that need GitHub's API (and a token) are left out, so
# the result does not depend on the network or on who runs it. Any finding
# (at the default persona) fails.
"$zizmor" --offline --no-progress action.yml "$tmp/skein.yml"
