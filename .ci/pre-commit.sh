#!/usr/bin/env bash
# The pre-commit hook as a user gets it: pre-commit from PyPI, in a venv under
# a temporary folder, runs this repository's hook (`repo:` this clone, `rev:`
# its HEAD) on a throwaway git repository. `pre-commit run --all-files` must
# fail on a planted fault (a SKILL.md whose name differs from its folder,
# REF005) and pass once it is fixed.
#
# pre-commit builds the hook from the commit `rev` names, not from the work
# tree: commit first when trying a change locally (CI's clone is clean).
#
# The hook's build (`cargo install --bins --path .`, pre-commit's
# `language: rust`) goes to a target folder of this clone (CARGO_TARGET_DIR,
# which pre-commit passes on to cargo, like the rest of the environment), so
# a second run rebuilds nothing. SKEIN_HOOK_PROFILE=quick (the default)
# builds unoptimised (CARGO_PROFILE_RELEASE_* in the environment), in
# `target/pre-commit-hook`: what is tried here is the hook's wiring, and an
# optimised build costs minutes more on a cold target folder.
# SKEIN_HOOK_PROFILE=release keeps the release profile and uses `target/`,
# reusing a release build already there.
#
# Usage: .ci/pre-commit.sh   (from anywhere; needs git, python3 with venv,
# cargo, network access to PyPI and crates.io)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rev="$(git -C "$repo" rev-parse HEAD)"
if [[ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]]; then
    echo "note: $repo has uncommitted changes; the hook is built from HEAD ($rev)" >&2
fi

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
"$tmp/venv/bin/pip" install --quiet --disable-pip-version-check pre-commit==4.7.0
precommit="$tmp/venv/bin/pre-commit"
"$precommit" --version

# pre-commit's own cache (the hook's clone and build) goes away with $tmp.
export PRE_COMMIT_HOME="$tmp/cache"
case "${SKEIN_HOOK_PROFILE:-quick}" in
    quick)
        export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target/pre-commit-hook}"
        export CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=false \
            CARGO_PROFILE_RELEASE_STRIP=false CARGO_PROFILE_RELEASE_LTO=false \
            CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256
        ;;
    release)
        export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
        ;;
    *)
        echo "error: SKEIN_HOOK_PROFILE must be quick or release" >&2
        exit 2
        ;;
esac

demo="$tmp/demo"
mkdir -p "$demo/skills/review"
cd "$demo"
git init --quiet
cat > .pre-commit-config.yaml <<EOF
repos:
  - repo: $repo
    rev: $rev
    hooks:
      - id: skein
EOF
write_skill() {
    printf -- '---\nname: %s\ndescription: Reviews a change.\n---\n\nRead the diff.\n' "$1" \
        > skills/review/SKILL.md
    git add -A
}

# Run pre-commit; its output is kept in $tmp/out and shown.
run_hook() {
    local status=0
    "$precommit" run --all-files --color never > "$tmp/out" 2>&1 || status=$?
    cat "$tmp/out"
    return "$status"
}

echo "--- planted fault: skills/review/SKILL.md says name: reviewer"
write_skill reviewer
start=$SECONDS
if run_hook; then
    echo "error: pre-commit passed on a SKILL.md whose name differs from its folder" >&2
    exit 1
fi
echo "(first run, with the hook's build: $((SECONDS - start)) s)"
if ! grep -q 'REF005' "$tmp/out"; then
    echo "error: pre-commit failed, but not with skein's REF005 finding" >&2
    exit 1
fi

echo "--- fixed: name: review"
write_skill review
if ! run_hook; then
    echo "error: pre-commit failed on the fixed repository" >&2
    exit 1
fi
echo "pre-commit hook: fails on the planted fault, passes when it is fixed"
