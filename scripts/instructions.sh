#!/usr/bin/env bash
# Instruction counts of the check, a ply (callgrind, which stays steady on a shared machine
# where wall time does not): the Xiangqi corpus (2,000 games: two iccs files and
# parallel15_iccs.pgn joined; `--repetition claim`, every ply judged), cutting included, and
# every ruleset of bench_rulesets at 100,000 plies, the history rules on.
#   scripts/instructions.sh [EXAMPLES_DIR]
# EXAMPLES_DIR: where bench_archive and bench_rulesets were built (default: builds them with
# `cargo build --profile profiling` and uses the profiling examples of CARGO_TARGET_DIR, or
# target/); to compare two commits, build the other one's examples and pass its directory.
# The corpus: ARBITER_CORPUS, or ../shared/corpus beside the checkout.
# Prints one markdown row a workload: instructions in `pipeline::check_chunk` (and the
# cutter, for the archive; for the archive's parse-only row, one pass of cutting and parsing)
# divided by the plies checked. Needs valgrind; about 5 minutes.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
corpus=${ARBITER_CORPUS:-$root/../shared/corpus}
bin=${1:-}
if [[ -z $bin ]]; then
    (cd "$root" && cargo build --quiet --profile profiling --example bench_archive --example bench_rulesets)
    bin=${CARGO_TARGET_DIR:-$root/target}/profiling/examples
fi
for b in bench_archive bench_rulesets; do
    [[ -x $bin/$b ]] || { echo "$bin/$b absent: build it with --profile profiling" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "valgrind absent: apt-get install valgrind" >&2; exit 2; }
for d in xiangqi stratego-gravon stratego-gravon-setups; do
    [[ -d $corpus/$d ]] || { echo "corpus absent: $corpus/$d" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Inclusive instructions of the function whose name matches $2 in callgrind file $1: the
# largest of its rows (callgrind_annotate also lists the parts inlined from other files).
inclusive() {
    callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
        awk -v pat="$2" '$0 ~ pat { gsub(",", "", $1); if ($1 + 0 > m) m = $1 + 0 } END { print m + 0 }'
}
x=$corpus/xiangqi
cat "$x/hu_ronghua_iccs.pgn" "$x/liu_dahua_iccs_part.pgn" "$x/parallel15_iccs.pgn" >"$work/x2000.pgn"
# bench_archive cuts and parses the archive once to count its plies: that pass (`--phases
# none`) is taken off the cutter's count.
for phases in none check; do
    valgrind --tool=callgrind --callgrind-out-file="$work/xq.$phases" "$bin/bench_archive" \
        --game xiangqi --repetition claim --runs 1 --phases "$phases" "$work/x2000.pgn" \
        >"$work/xq.json" 2>"$work/xq.err" || { cat "$work/xq.err" >&2; exit 1; }
done
plies=$(sed -n 's/.*"plies":\([0-9]*\).*/\1/p' "$work/xq.json" | head -1)
next='ChunkReader<R> as core::iter::traits::iterator::Iterator>::next( \[.*)?$'
check=$(inclusive "$work/xq.check" 'pipeline::check_chunk( \[.*)?$')
cut=$(($(inclusive "$work/xq.check" "$next") - $(inclusive "$work/xq.none" "$next")))
echo "| workload | plies | instructions | a ply |"
echo "|---|---:|---:|---:|"
parse=$(inclusive "$work/xq.none" 'bench_archive::main( \[.*)?$')
echo "| Xiangqi corpus, parse only (cutting, parsing, freeing) | $plies | $parse | $((parse / plies)) |"
echo "| Xiangqi corpus, check and cutting | $plies | $((check + cut)) | $(((check + cut) / plies)) |"
# bench_rulesets checks each archive once while building it (to count the plies the check
# replays): that run (`--phases none`) is taken off.
for r in stratego barrage duel veldslag spionage jungle jieqi; do
    for phases in none check; do
        valgrind --tool=callgrind --callgrind-out-file="$work/$r.$phases" "$bin/bench_rulesets" \
            --runs 1 --plies 100000 --only "$r" --phases "$phases" --corpus "$corpus" \
            >"$work/$r.out" 2>"$work/$r.err" || { cat "$work/$r.err" >&2; exit 1; }
    done
    plies=$(grep -o '"plies":[0-9]*' "$work/$r.out" | head -1 | cut -d: -f2)
    [[ -n $plies ]] || { echo "bench_rulesets $r gave no figures:" >&2; cat "$work/$r.err" >&2; exit 1; }
    base=$(inclusive "$work/$r.none" 'pipeline::check_chunk( \[.*)?$')
    check=$(($(inclusive "$work/$r.check" 'pipeline::check_chunk( \[.*)?$') - base))
    echo "| $r | $plies | $check | $((check / plies)) |"
done
