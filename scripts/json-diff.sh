#!/usr/bin/env bash
# Behaviour check for a refactoring: builds two commits of arbiter and diffs
# `arbiter check --format json` over fixtures/ (the AFTER commit's, for both) and every folder
# of ../shared/corpus.
#   scripts/json-diff.sh BEFORE AFTER     (commits; e.g. 1fd5462 aed5dec)
# Prints one line per input, "identical" or "DIFFERS" (with the first differing lines), and
# exits 1 when anything differs. Builds in a temporary worktree (its own target directory).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Resolved here: `HEAD` in the temporary worktree would be its own (the BEFORE commit).
before=$(git -C "$root" rev-parse --verify "$1^{commit}")
after=$(git -C "$root" rev-parse --verify "$2^{commit}")
corpus=${ARBITER_CORPUS:-$root/../shared/corpus}
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/tree" >/dev/null 2>&1; rm -rf "$work"' EXIT
git -C "$root" worktree add -q --detach "$work/tree" "$before"
judge() { # commit outdir
    git -C "$work/tree" checkout -q --detach "$1"
    (cd "$work/tree" && cargo build --release --quiet --bin arbiter)
    mkdir -p "$2"
    local bin=$work/tree/target/release/arbiter
    # The AFTER commit's fixtures for both: a changed fixture is no change of behaviour.
    (cd "$work/inputs" && "$bin" check --format json fixtures >"$2/fixtures.json" 2>/dev/null) || true
    [[ -d $corpus ]] || { echo "corpus absent: $corpus (fixtures only)"; return; }
    for d in "$corpus"/*/; do
        local extra=()
        [[ $(basename "$d") == xiangqi ]] && extra=(--game xiangqi)
        "$bin" check --format json "${extra[@]}" "$d" >"$2/$(basename "$d").json" 2>/dev/null || true
    done
}
mkdir -p "$work/inputs"
git -C "$root" archive "$after" fixtures | tar -x -C "$work/inputs"
judge "$before" "$work/before"
judge "$after" "$work/after"
status=0
for f in "$work"/before/*.json; do
    n=$(basename "$f")
    if cmp -s "$f" "$work/after/$n"; then
        echo "$n identical ($(wc -c <"$f") bytes)"
    else
        echo "$n DIFFERS"; { diff "$f" "$work/after/$n" || true; } | head -5; status=1
    fi
done
exit $status
