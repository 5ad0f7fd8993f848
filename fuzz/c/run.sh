#!/usr/bin/env bash
# C-level libFuzzer run of the agentmd tree-sitter grammar (issue #18): builds
# fuzz/c/agentmd_fuzzer.c with the tree-sitter C runtime, the generated
# parser and skein's external scanner under clang's
# -fsanitize=fuzzer,address,undefined, builds a seed corpus from corpus/,
# and fuzzes for a bounded time. Exits non-zero on any crash, sanitizer
# report, leak or timeout (libFuzzer's own exit status).
#
# Usage: fuzz/c/run.sh [--install] [--build-only] [SECONDS] [-- LIBFUZZER_ARGS...]
#   --install     install clang with apt-get when no usable clang is found
#   --build-only  build the fuzzer and the seeds, do not fuzz
#   SECONDS       fuzzing time (default: $AGENTMD_FUZZ_SECONDS, else 60)
# Environment: CC (a clang to use), TREE_SITTER_DIR (the tree-sitter crate's
# source, instead of asking cargo metadata), AGENTMD_FUZZ_STRICT=1 (also check
# the correctness properties described in agentmd_fuzzer.c).
#
# Output under target/c-fuzz/: agentmd_fuzzer, seeds/ (rebuilt every run),
# corpus/ (what libFuzzer found, kept between runs), artifacts/ (crashing
# inputs), last-run.log.
set -euo pipefail

die() {
    echo "fuzz/c/run.sh: error: $*" >&2
    exit 2
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

install=false
build_only=false
seconds="${AGENTMD_FUZZ_SECONDS:-60}"
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --install) install=true ;;
        --build-only) build_only=true ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,22p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *)
            [[ "$1" =~ ^[0-9]+$ ]] || die "unknown argument '$1' (see --help)"
            seconds="$1"
            ;;
    esac
    shift
done
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || die "fuzzing time must be a positive number of seconds, got '$seconds'"

out="$root/target/c-fuzz"
mkdir -p "$out"

# ---------------------------------------------------------------------------
# clang with libFuzzer

find_clang() {
    if [[ -n "${CC:-}" ]]; then
        command -v "$CC" && return 0
    fi
    local c
    for c in clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
        if command -v "$c" >/dev/null 2>&1; then
            command -v "$c"
            return 0
        fi
    done
    return 1
}

# Links a one-line fuzz target: proves the compiler has the libFuzzer,
# ASan and UBSan runtimes.
can_fuzz() {
    local cc="$1" probe="$out/probe"
    mkdir -p "$probe"
    printf '%s\n' '#include <stdint.h>' '#include <stddef.h>' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
        >"$probe/probe.c"
    "$cc" -fsanitize=fuzzer,address,undefined "$probe/probe.c" -o "$probe/probe" >"$probe/log" 2>&1
}

as_root() {
    if [[ "$(id -u)" == "0" ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo -n "$@"
    else
        die "not root and no sudo: cannot run '$*'"
    fi
}

apt_install() {
    command -v apt-get >/dev/null 2>&1 || die "--install needs apt-get (Debian/Ubuntu); install clang yourself"
    echo "==> apt-get install -y $*"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
}

cc="$(find_clang || true)"
if [[ -z "$cc" ]] && $install; then
    command -v apt-get >/dev/null 2>&1 || die "--install needs apt-get (Debian/Ubuntu); install clang yourself"
    echo "==> apt-get update"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q || die "apt-get update failed"
    apt_install clang || die "apt-get could not install clang"
    cc="$(find_clang || true)"
fi
[[ -n "$cc" ]] || die "no clang found (tried \$CC, clang, clang-19 .. clang-14); install clang or pass --install"
cc_version="$("$cc" -dumpversion)"
echo "==> compiler: $cc ($cc_version)"

if ! can_fuzz "$cc"; then
    # Newer Debian/Ubuntu ship the sanitizer and libFuzzer runtimes apart
    # from clang itself.
    if $install; then
        major="${cc_version%%.*}"
        apt_install "libclang-rt-$major-dev" || true
    fi
    can_fuzz "$cc" || {
        cat "$out/probe/log" >&2
        die "$cc cannot link -fsanitize=fuzzer,address,undefined (libFuzzer/sanitizer runtimes missing; on Debian/Ubuntu try libclang-rt-<version>-dev or libclang-common-<version>-dev)"
    }
fi

# llvm-symbolizer turns the sanitizer reports' addresses into file:line.
if [[ -z "${ASAN_SYMBOLIZER_PATH:-}" ]]; then
    cc_dir="$(dirname "$(readlink -f "$cc")")"
    for s in "$cc_dir/llvm-symbolizer" "$(command -v llvm-symbolizer || true)"; do
        if [[ -n "$s" && -x "$s" ]]; then
            export ASAN_SYMBOLIZER_PATH="$s"
            break
        fi
    done
fi

# ---------------------------------------------------------------------------
# The tree-sitter C runtime the workspace builds (the `tree-sitter` crate
# ships src/lib.c, the amalgamated runtime, and include/tree_sitter/api.h).

if [[ -z "${TREE_SITTER_DIR:-}" ]]; then
    command -v cargo >/dev/null 2>&1 || die "cargo not found (needed to locate the tree-sitter crate; or set TREE_SITTER_DIR)"
    version="$(awk '/^name = "tree-sitter"$/ { getline; gsub(/^version = "|"$/, ""); print; exit }' Cargo.lock)"
    [[ -n "$version" ]] || die "no tree-sitter package in Cargo.lock"
    manifest="$(cargo metadata --format-version 1 |
        grep -o '"manifest_path":"[^"]*"' |
        sed 's/^"manifest_path":"//; s/"$//' |
        grep "/tree-sitter-$version/Cargo.toml\$" | head -n 1 || true)"
    [[ -n "$manifest" ]] || die "cargo metadata lists no tree-sitter $version package (set TREE_SITTER_DIR to its source)"
    TREE_SITTER_DIR="$(dirname "$manifest")"
fi
ts="$TREE_SITTER_DIR"
[[ -f "$ts/src/lib.c" && -f "$ts/include/tree_sitter/api.h" ]] ||
    die "$ts has no src/lib.c and include/tree_sitter/api.h (not the tree-sitter crate's source?)"
echo "==> tree-sitter runtime: $ts"

# ---------------------------------------------------------------------------
# Build

grammar="$root/crates/tree-sitter-agentmd/src"
harness="$root/fuzz/c/agentmd_fuzzer.c"
bin="$out/agentmd_fuzzer"
obj="$out/obj"
mkdir -p "$obj"

# Every file is instrumented: coverage feedback from the runtime (parse
# actions, subtree reuse in incremental parses) helps reach scanner states.
# -fno-sanitize-recover makes the first UBSan report fatal, so libFuzzer
# records it as a crash. UBSan's `function` check (clang >= 17 checks C
# too) is left on: every function pointer tree-sitter calls has the exact
# type of its target.
san=(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
cflags=(-g -O1 -std=c11 "${san[@]}" -fsanitize=fuzzer-no-link
    -Wall -Wno-unused-parameter -Wno-unused-but-set-variable -Wno-unused-function)
runtime_flags=(-I"$ts/src" -I"$ts/include" -D_POSIX_C_SOURCE=200112L -D_DEFAULT_SOURCE -w)
grammar_flags=(-I"$grammar" -Wno-trigraphs)

stamp="$out/build-flags"
want="$cc $cc_version ${cflags[*]} $ts"
rebuild=false
if [[ ! -x "$bin" || ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    rebuild=true
else
    for f in "$ts/src/"*.c "$ts/src/"*.h "$grammar/parser.c" "$grammar/scanner.c" \
        "$grammar/tree_sitter/"*.h "$harness" "${BASH_SOURCE[0]}"; do
        if [[ "$f" -nt "$bin" ]]; then rebuild=true; break; fi
    done
fi
if $rebuild; then
    echo "==> building $bin"
    rm -f "$bin" "$stamp"
    "$cc" "${cflags[@]}" "${runtime_flags[@]}" -c "$ts/src/lib.c" -o "$obj/runtime.o" &
    runtime_pid=$!
    "$cc" "${cflags[@]}" "${grammar_flags[@]}" -c "$grammar/parser.c" -o "$obj/parser.o" &
    parser_pid=$!
    "$cc" "${cflags[@]}" "${grammar_flags[@]}" -c "$grammar/scanner.c" -o "$obj/scanner.o" ||
        die "compiling scanner.c failed"
    "$cc" "${cflags[@]}" -I"$ts/include" -c "$harness" -o "$obj/harness.o" ||
        die "compiling the harness failed"
    wait "$runtime_pid" || die "compiling the tree-sitter runtime failed"
    wait "$parser_pid" || die "compiling parser.c failed"
    "$cc" -g "${san[@]}" -fsanitize=fuzzer "$obj/harness.o" "$obj/scanner.o" "$obj/parser.o" \
        "$obj/runtime.o" -o "$bin"
    echo "$want" >"$stamp"
else
    echo "==> $bin is up to date"
fi

# ---------------------------------------------------------------------------
# Seeds: every input of the grammar's tree-sitter tests (corpus/grammar/*.txt)
# and every Markdown file of corpus/rules/ and corpus/examples/.

seeds="$out/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"

# The tree-sitter test format: a header (a line of 3+ `=`, the name on one or
# more lines, a line of 3+ `=`), the input, a divider (a line of 3+ `-`; the
# longest one when the input has some too), the expected tree. The input is
# the text between header and divider without the newline before the
# divider, as `tree-sitter test` takes it.
for f in corpus/grammar/*.txt; do
    awk -v dir="$seeds" -v base="grammar-$(basename "$f" .txt)" '
        function all_of(s, c,   t) { t = s; gsub(c, "", t); return t == "" }
        function rule(s, c) { return length(s) >= 3 && substr(s, 1, 3) == c c c }
        function eqline(s,   t) { t = s; sub(/[^=].*$/, "", t); return rule(s, "=") && length(t) >= 3 }
        function dashes(s,   t) { t = s; sub(/[^-].*$/, "", t); return rule(s, "-") ? length(t) : 0 }
        { line[NR] = $0 }
        END {
            n = NR; t = 0; i = 1
            while (i <= n) {
                # a header starts at i when a name follows and an = line closes it
                if (eqline(line[i]) && i + 1 <= n && line[i + 1] != "" && !eqline(line[i + 1])) {
                    j = i + 1
                    while (j <= n && line[j] != "" && !eqline(line[j])) j++
                    if (j <= n && eqline(line[j])) { hs[++t] = i; he[t] = j; i = j + 1; continue }
                }
                i++
            }
            for (k = 1; k <= t; k++) {
                last = (k < t ? hs[k + 1] - 1 : n)
                best = 0; div = 0
                for (i = he[k] + 1; i <= last; i++) {
                    d = dashes(line[i]); if (d >= 3 && d >= best) { best = d; div = i }
                }
                if (!div) continue
                out = sprintf("%s/%s-%02d.md", dir, base, k)
                text = ""
                for (i = he[k] + 1; i < div; i++) text = text (i > he[k] + 1 ? "\n" : "") line[i]
                printf "%s", text > out
                close(out)
            }
        }' "$f"
done
grammar_seeds="$(find "$seeds" -name 'grammar-*' | wc -l)"
while IFS= read -r -d '' f; do
    name="${f//\//__}"
    cp "$f" "$seeds/$name"
done < <(find corpus/rules corpus/examples -type f -name '*.md' -print0)
total_seeds="$(find "$seeds" -type f | wc -l)"
echo "==> seeds: $total_seeds ($grammar_seeds grammar test inputs, $((total_seeds - grammar_seeds)) Markdown files)"

regressions="$root/fuzz/regressions/markdown"

if $build_only; then
    exit 0
fi

# ---------------------------------------------------------------------------
# Fuzz

corpus="$out/corpus"
artifacts="$out/artifacts"
mkdir -p "$corpus" "$artifacts"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

args=(-max_total_time="$seconds" -timeout=10 -max_len=16384 -rss_limit_mb=2048
    -print_final_stats=1 -dict="$root/fuzz/c/agentmd.dict" -artifact_prefix="$artifacts/")
dirs=("$corpus" "$seeds")
[[ -d "$regressions" ]] && dirs+=("$regressions")

echo "==> $bin ${args[*]} ${extra[*]:-} ${dirs[*]}"
set +e
"$bin" "${args[@]}" ${extra[@]+"${extra[@]}"} "${dirs[@]}" 2>&1 | tee "$out/last-run.log"
status="${PIPESTATUS[0]}"
set -e
if [[ "$status" != 0 ]]; then
    echo "fuzz/c/run.sh: the fuzzer failed (exit status $status); crashing input in $artifacts/, log in $out/last-run.log" >&2
    exit "$status"
fi
grep -E '^stat::(number_of_executed_units|peak_rss_mb|new_units_added)' "$out/last-run.log" || true
echo "==> no crash, sanitizer report, leak or timeout in ${seconds}s"
