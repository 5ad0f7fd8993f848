#!/usr/bin/env bash
# Builds the seed corpus of every fuzz target from the repository's own
# examples and rule fixtures (never from ../shared): fuzz/corpus/<target>/.
# Idempotent: seeds are named by content hash.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
root=..
seed() { # target file
    local dir="corpus/$1"
    mkdir -p "$dir"
    cp "$2" "$dir/$(sha1sum "$2" | cut -c1-16)"
}
while IFS= read -r -d '' f; do seed yaml "$f"; done < <(find "$root/corpus" -type f \( -name '*.yaml' -o -name '*.yml' \) -print0)
while IFS= read -r -d '' f; do seed json "$f"; done < <(find "$root/corpus" -type f \( -name '*.json' -o -name '*.jsonc' \) -print0)
while IFS= read -r -d '' f; do seed markdown "$f"; done < <(find "$root/corpus" -type f -name '*.md' -print0)
# The check target: each fixture repository (and the example repository) as
# one input, its files separated by `#>> PATH` lines (see src/props.rs).
mkdir -p corpus/check
tmp=$(mktemp)
while IFS= read -r -d '' case; do
    case=${case%/expected.out}
    : > "$tmp"
    first=1
    while IFS= read -r -d '' f; do
        rel=${f#"$case"/}
        [[ "$rel" == expected.out ]] && continue
        printf '#>> %s\n' "$rel" >> "$tmp"
        cat "$f" >> "$tmp"
        [[ -n "$(tail -c1 "$f")" ]] && printf '\n' >> "$tmp"
        first=0
    done < <(find "$case" -type f -print0 | sort -z)
    [[ $first == 0 ]] && cp "$tmp" "corpus/check/$(sha1sum "$tmp" | cut -c1-16)"
done < <(find "$root/corpus/rules" "$root/corpus/examples" -name expected.out -print0)
rm -f "$tmp"
for t in yaml json markdown check; do
    echo "$t: $(find "corpus/$t" -type f | wc -l) seeds"
done
