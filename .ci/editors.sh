#!/usr/bin/env bash
# The language server from real clients (issue #16), run after the test
# suite built target/debug/skein:
# 1. pytest-lsp (PyPI, pinned in editors/e2e/requirements.txt, in a venv
#    under a temporary folder) drives `skein server` over stdio on the demo
#    repository (editors/e2e/test_server.py);
# 2. headless Neovim (the Debian package, installed with apt-get when
#    missing) opens a demo file with its built-in LSP client and asserts
#    the diagnostics it received (editors/e2e/nvim_diagnostics.lua);
# 3. the VS Code extension (editors/vscode) installs with `npm ci`,
#    compiles with `tsc` and is packaged to a .vsix with @vscode/vsce.
#
# Usage: .ci/editors.sh   (from anywhere; needs python3 with venv, node and
# npm, network access to PyPI and the npm registry; apt-get for Neovim)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
export SKEIN_BIN="${SKEIN_BIN:-$repo/target/debug/skein}"
if [[ ! -x "$SKEIN_BIN" ]]; then
    cargo build -p skein
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

apt_install() {
    local sudo=()
    if [[ "$(id -u)" != "0" ]]; then
        sudo=(sudo -n)
    fi
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

echo "--> pytest-lsp"
if ! python3 -m venv "$tmp/venv" >/dev/null 2>&1; then
    rm -rf "$tmp/venv"
    apt_install python3-venv
    python3 -m venv "$tmp/venv"
fi
"$tmp/venv/bin/pip" install --quiet --disable-pip-version-check -r editors/e2e/requirements.txt
"$tmp/venv/bin/pytest" -c editors/e2e/pytest.ini -p no:cacheprovider -q editors/e2e

echo "--> neovim"
if ! command -v nvim >/dev/null 2>&1; then
    apt_install neovim
fi
nvim --version | head -n 1
timeout 120 nvim --headless --clean -u NONE -c 'luafile editors/e2e/nvim_diagnostics.lua'

echo "--> vscode extension"
if ! command -v npm >/dev/null 2>&1; then
    apt_install nodejs npm
fi
cp -r editors/vscode "$tmp/vscode"
rm -rf "$tmp/vscode/node_modules" "$tmp/vscode/out"
(
    cd "$tmp/vscode"
    npm ci --no-audit --no-fund
    npx tsc -p ./
    npx vsce package --out "$tmp/skein.vsix"
)
# The entry point and the client library it requires are in the package.
unzip -Z1 "$tmp/skein.vsix" > "$tmp/vsix-files"
grep -qx 'extension/out/extension.js' "$tmp/vsix-files"
grep -q '^extension/node_modules/vscode-languageclient/' "$tmp/vsix-files"
echo "built $(du -h "$tmp/skein.vsix" | cut -f1) skein.vsix"
