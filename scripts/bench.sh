#!/usr/bin/env bash
# arbiter's published benchmark (issue #10), run the same way every time:
#  1. the Xiangqi corpus (../shared/corpus/xiangqi, the three ICCS files) replicated 10 times
#     (20,000 games) through (a) a plain read, (b) parse only, (c) full check on one core,
#     (d) full check on all cores (examples/bench_archive.rs), and (e) Fairy-Stockfish (ffish)
#     replaying the same games (scripts/bench-ffish.js); each the median of RUNS rounds, a
#     round timing every phase once;
#  2. peak memory of `arbiter check` on a 100 MB multi-game file (the same games, replicated);
#  3. the Stratego-family check time against game length (examples/bench_length.rs);
#  4. the Xiangqi archive readers, XQF and DhtmlXQ, alone and with every line of play judged,
#     in MB/s of processor time (examples/bench_readers.rs; corpus/xiangqi-xqf and
#     corpus/xiangqi-dhtmlxq beside the Xiangqi corpus; skipped when absent).
# Prints a markdown report on stdout. Needs cargo, node and npm (installs ffish like the
# cross-check). Usage: scripts/bench.sh [RUNS]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
runs=${1:-5}
corpus=${XIANGQI_CORPUS:-$root/../shared/corpus/xiangqi}
if [[ ! -d $corpus ]]; then
    echo "corpus absent: $corpus (the benchmark needs the Xiangqi corpus)" >&2
    exit 77
fi
if [[ ! -f $here/node_modules/ffish/ffish.js ]]; then
    (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi
(cd "$root" && cargo build --release --quiet --bin arbiter --example bench_archive --example bench_length --example bench_readers)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=(hu_ronghua_iccs.pgn liu_dahua_iccs_part.pgn parallel15_iccs.pgn)
for i in $(seq 1 10); do
    for f in "${files[@]}"; do cat "$corpus/$f"; printf '\n'; done
done >"$work/x20000.pgn"
big=$work/x100mb.pgn
while [[ $(stat -c %s "$big" 2>/dev/null || echo 0) -lt 100000000 ]]; do cat "$work/x20000.pgn" >>"$big"; done

results=$work/results.jsonl
: >"$results"
# --repetition claim: the archives play on after a third occurrence, and so does the check
# (every ply is judged, as Fairy-Stockfish replays every ply).
# Rounds, not phase after phase: each round times every phase once, arbiter's and then
# Fairy-Stockfish's, so that on a shared machine whose speed drifts every phase is sampled
# across the same stretch of time, and the medians (of RUNS rounds) compare like with like.
for round in $(seq 1 "$runs"); do
    "$root/target/release/examples/bench_archive" --game xiangqi --repetition claim --runs 1 "$work/x20000.pgn" >>"$results"
    node "$here/bench-ffish.js" --runs 1 "$work/x20000.pgn" >>"$results"
    echo "round $round of $runs done" >&2
done
/usr/bin/time -f '%M' -o "$work/mem" "$root/target/release/arbiter" check --quiet --game xiangqi --repetition claim "$big" >/dev/null 2>&1 || true
mem_kb=$(tail -1 "$work/mem")
big_mb=$(( $(stat -c %s "$big") / 1000000 ))

echo "### Whole archives: the Xiangqi corpus replicated to 20,000 games"
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%Y-%m-%d). Median of $runs rounds (each round times every phase once)."
echo
python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
# The median round of each phase (by time).
phases = {}
for r in rows:
    phases.setdefault(r["phase"], []).append(r)
by = {k: sorted(v, key=lambda r: r["seconds"])[len(v) // 2] for k, v in phases.items()}
# The same-round ratio of arbiter's one-core check to Fairy-Stockfish, round by round.
ratios = sorted(c["plies_per_s"] / f["plies_per_s"] for c, f in zip(phases["check"], phases["ffish"]))
names = {"read": "(a) read the files", "parse": "(b) parse only", "check": "(c) full check, 1 core",
         "check-parallel": "(d) full check, all cores", "ffish": "(e) Fairy-Stockfish (ffish) replay"}
print("| phase | threads | seconds | plies/s | MB/s |")
print("|---|---:|---:|---:|---:|")
for k in ["read", "parse", "check", "check-parallel", "ffish"]:
    r = by[k]
    print(f"| {names[k]} | {r['threads']} | {r['seconds']:.3f} | {r['plies_per_s']:,} | {r['mb_per_s']:.1f} |")
print()
c, p, f = by["check"], by["check-parallel"], by["ffish"]
print(f"- full check vs Fairy-Stockfish, one core: {c['plies_per_s'] / f['plies_per_s']:.0f}x the plies/s"
      f" (round by round: {ratios[0]:.0f}x to {ratios[-1]:.0f}x, median {ratios[len(ratios) // 2]:.0f}x)")
print(f"- all cores vs one core: {p['plies_per_s'] / c['plies_per_s']:.2f}x")
print(f"- parse only: {by['parse']['mb_per_s']:.0f} MB/s ({by['parse']['games']:,} games, {by['parse']['plies']:,} plies)")
PY
echo "- peak memory of \`arbiter check\` on a ${big_mb} MB multi-game file: $((mem_kb / 1024)) MB"
echo
echo "### Stratego family: check time against game length (Barrage, history rules on)"
echo
"$root/target/release/examples/bench_length"
archives=$(dirname "$corpus")
echo
echo "### Xiangqi archives: the XQF and DhtmlXQ readers (one core, processor time)"
echo
if [[ -d $archives/xiangqi-xqf && -d $archives/xiangqi-dhtmlxq ]]; then
    "$root/target/release/examples/bench_readers" "$archives/xiangqi-xqf" "$archives/xiangqi-dhtmlxq" >"$work/readers.jsonl"
    python3 - "$work/readers.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print("| format | phase | files | lines | plies | MB/s | plies/s |")
print("|---|---|---:|---:|---:|---:|---:|")
for r in rows:
    phase = "read" if r["phase"] == "read" else "check, every line"
    print(f"| {r['format']} | {phase} | {r['files']:,} | {r['lines']:,} | {r['plies']:,} | {r['mb_per_s']:.1f} | {r['plies_per_s']:,} |")
PY
else
    echo "corpus absent: $archives/xiangqi-xqf or xiangqi-dhtmlxq (this part did not run)"
fi
