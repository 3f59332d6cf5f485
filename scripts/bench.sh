#!/usr/bin/env bash
# arbiter's published benchmark (issue #10), run the same way every time:
#  1. the Xiangqi corpus (../shared/corpus/xiangqi, the three ICCS files) replicated 10 times
#     (20,000 games) through (a) a plain read, (b) parse only on one core and on all cores,
#     (c) full check on one core,
#     (d) full check on all cores (examples/bench_archive.rs), and (e) Fairy-Stockfish (ffish)
#     replaying the same games (scripts/bench-ffish.js); each the median of RUNS rounds, a
#     round timing every phase once;
#  2. peak memory of `arbiter check` on a 100 MB multi-game file (the same games, replicated);
#  3. the Stratego-family check time against game length (examples/bench_length.rs);
#  4. every ruleset: parse only and the full check on one core and on all cores, on archives
#     of at least 1 M plies (examples/bench_rulesets.rs: Stratego on the Gravon games, Barrage
#     and Duel from the real Gravon setups, Veldslag, Spionage, Jungle and Jieqi random games),
#     in the same rounds;
#  5. `arbiter check` as users run it, in every output format, with one worker and with all
#     cores, on the 20,000-game archive (stdout to /dev/null), in the same rounds;
#  6. `--game-index` of the last game of a 70 MB file (show, claim, check, convert) against a
#     full check of that file;
#  7. the Xiangqi archive readers, XQF and DhtmlXQ, alone and with every line of play judged,
#     in MB/s of processor time (examples/bench_readers.rs; corpus/xiangqi-xqf and
#     corpus/xiangqi-dhtmlxq beside the Xiangqi corpus; skipped when absent);
#  8. the engine and site PGN reader (../shared/corpus/xiangqi-engine-pgn, or ENGINE_PGN_CORPUS,
#     replicated 20 times; skipped with a note when absent): parse, and the full check, which
#     resolves every SAN move against the legal moves, in MB/s.
# Prints a markdown report on stdout. Needs cargo, node and npm (installs ffish like the
# cross-check). Usage: scripts/bench.sh [ROUNDS] (RUNS below: the same number)
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
(cd "$root" && cargo build --release --quiet --bin arbiter --example bench_archive --example bench_length --example bench_rulesets --example bench_readers)
arbiter=$root/target/release/arbiter
cores=$(nproc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=(hu_ronghua_iccs.pgn liu_dahua_iccs_part.pgn parallel15_iccs.pgn)
for i in $(seq 1 10); do
    for f in "${files[@]}"; do cat "$corpus/$f"; printf '\n'; done
done >"$work/x20000.pgn"
for i in 1 2 3 4 5; do cat "$work/x20000.pgn"; done >"$work/x70mb.pgn"
big=$work/x100mb.pgn
while [[ $(stat -c %s "$big" 2>/dev/null || echo 0) -lt 100000000 ]]; do cat "$work/x20000.pgn" >>"$big"; done

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
results=$work/results.jsonl
rulesets=$work/rulesets.jsonl
cli=$work/cli.jsonl
: >"$results"
: >"$rulesets"
: >"$cli"
# Seconds (wall) that the command line "$@" takes, its output thrown away.
wall() {
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    python3 -c "print(f'{$t1 - $t0:.4f}')"
}
# --repetition claim: the archives play on after a third occurrence, and so does the check
# (every ply is judged, as Fairy-Stockfish replays every ply).
# Rounds, not phase after phase: each round times every phase once, arbiter's and then
# Fairy-Stockfish's, so that on a shared machine whose speed drifts every phase is sampled
# across the same stretch of time, and the medians (of RUNS rounds) compare like with like.
for round in $(seq 1 "$runs"); do
    "$root/target/release/examples/bench_archive" --game xiangqi --repetition claim --runs 1 "$work/x20000.pgn" >>"$results"
    node "$here/bench-ffish.js" --runs 1 "$work/x20000.pgn" >>"$results"
    "$root/target/release/examples/bench_rulesets" --runs 1 >>"$rulesets"
    for format in human json jsonl sarif; do
        for jobs in 1 "$cores"; do
            secs=$(wall "$arbiter" check --format "$format" --jobs "$jobs" --game xiangqi --repetition claim "$work/x20000.pgn")
            echo "{\"format\":\"$format\",\"threads\":$jobs,\"seconds\":$secs}" >>"$cli"
        done
    done
    echo "round $round of $runs done" >&2
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
/usr/bin/time -f '%M' -o "$work/mem" "$root/target/release/arbiter" check --quiet --game xiangqi --repetition claim "$big" >/dev/null 2>&1 || true
mem_kb=$(tail -1 "$work/mem")
big_mb=$(( $(stat -c %s "$big") / 1000000 ))
# One game without the rest: the last game of the 70 MB file, against a full check of it.
last=$(( $(grep -c '^\[Event ' "$work/x70mb.pgn") - 1 ))
x70="$work/x70mb.pgn"
full70=$(wall "$arbiter" check --quiet --game xiangqi --repetition claim "$x70")
idx_show=$(wall "$arbiter" show "$x70" --game xiangqi --game-index "$last" --ply 0)
idx_claim=$(wall "$arbiter" claim "$x70" draw --game xiangqi --game-index "$last" --ply 1)
idx_check=$(wall "$arbiter" check --game xiangqi --game-index "$last" "$x70")
idx_convert=$(wall "$arbiter" convert --game xiangqi --game-index "$last" "$x70")

echo "### Whole archives: the Xiangqi corpus replicated to 20,000 games"
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%Y-%m-%d). Median of $runs rounds (each round times every phase once)."
echo "Load average (1, 5, 15 minutes) at the start: $load_start; at the end of the rounds: $load_end."
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
names = {"read": "(a) read the files", "parse": "(b) parse only, 1 core",
         "parse-parallel": "(b) parse only, all cores", "check": "(c) full check, 1 core",
         "check-parallel": "(d) full check, all cores", "ffish": "(e) Fairy-Stockfish (ffish) replay"}
# plies per CPU-second: the one-core phases' plies over the time the thread spent on a CPU,
# which the others' load changes much less than the wall time (null where not measured).
cpu = lambda r: f"{r['plies_per_cpu_s']:,}" if r.get("plies_per_cpu_s") else "-"
print("| phase | threads | seconds | plies/s | MB/s | plies per CPU-second |")
print("|---|---:|---:|---:|---:|---:|")
for k in ["read", "parse", "parse-parallel", "check", "check-parallel", "ffish"]:
    r = by[k]
    print(f"| {names[k]} | {r['threads']} | {r['seconds']:.3f} | {r['plies_per_s']:,} | {r['mb_per_s']:.1f} | {cpu(r)} |")
print()
c, p, f = by["check"], by["check-parallel"], by["ffish"]
print(f"- full check vs Fairy-Stockfish, one core: {c['plies_per_s'] / f['plies_per_s']:.0f}x the plies/s"
      f" (round by round: {ratios[0]:.0f}x to {ratios[-1]:.0f}x, median {ratios[len(ratios) // 2]:.0f}x)")
print(f"- all cores vs one core: {p['plies_per_s'] / c['plies_per_s']:.2f}x")
print(f"- parse only: {by['parse']['mb_per_s']:.0f} MB/s on one core, {by['parse-parallel']['mb_per_s']:.0f} MB/s on all cores"
      f" ({by['parse']['games']:,} games, {by['parse']['plies']:,} plies)")
PY
echo "- peak memory of \`arbiter check\` on a ${big_mb} MB multi-game file: $((mem_kb / 1024)) MB"
engine_pgn=${ENGINE_PGN_CORPUS:-$root/../shared/corpus/xiangqi-engine-pgn}
echo
echo "### Engine and site PGN: the 481 games of xiangqi-engine-pgn replicated 20 times"
echo
if [[ -d $engine_pgn ]]; then
    for i in $(seq 1 20); do cat "$engine_pgn"/*.pgn; printf '\n'; done >"$work/engine20.pgn"
    "$root/target/release/examples/bench_archive" --repetition claim --runs "$runs" \
        --phases read,parse,check "$work/engine20.pgn" >"$work/engine.jsonl"
    python3 - "$work/engine.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print("| phase | seconds | plies/s | MB/s |")
print("|---|---:|---:|---:|")
for r in rows:
    print(f"| {r['phase']} | {r['seconds']:.3f} | {r['plies_per_s']:,} | {r['mb_per_s']:.1f} |")
print()
print(f"- {rows[0]['games']:,} games, {rows[0]['plies']:,} plies, {rows[0]['bytes'] / 1e6:.1f} MB; no --game: "
      "the ruleset from Variant or the text, the ranks decided per game, every SAN move resolved")
PY
else
    echo "SKIPPED: $engine_pgn is absent"
fi
echo
echo
echo "### Every ruleset (the same rounds; median round)"
echo
python3 - "$rulesets" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault((r["ruleset"], r["phase"]), []).append(r)
med = {k: sorted(v, key=lambda r: r["seconds"])[len(v) // 2] for k, v in by.items()}
names = {"stratego": "Stratego (Gravon games)", "barrage": "Barrage (Gravon setups, random play)",
         "duel": "Duel (Gravon setups, random play)", "veldslag": "Veldslag (random games)",
         "spionage": "Spionage (random games)", "jungle": "Jungle (random games)",
         "jieqi": "Jieqi (random games)"}
cpu = lambda r: f"{r['plies_per_cpu_s']:,}" if r.get("plies_per_cpu_s") else "-"
print("| ruleset | games | plies | parse plies/s, 1 core | parse MB/s, 1 core | parse plies/s, all cores | check plies/s, 1 core | check plies/s, all cores | check plies per CPU-second |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for k, label in names.items():
    if (k, "check") not in med:
        continue
    p, q = med[(k, "parse")], med[(k, "parse-parallel")]
    c, a = med[(k, "check")], med[(k, "check-parallel")]
    print(f"| {label} | {c['games']:,} | {c['plies']:,} | {p['plies_per_s']:,} | {p['mb_per_s']:.1f} | {q['plies_per_s']:,} | {c['plies_per_s']:,} | {a['plies_per_s']:,} ({a['threads']} threads) | {cpu(c)} |")
PY
echo
echo "### \`arbiter check\` as users run it: the 20,000-game archive, stdout to /dev/null (median round)"
echo
python3 - "$cli" "$(stat -c %s "$work/x20000.pgn")" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
mb = int(sys.argv[2]) / 1e6
by = {}
for r in rows:
    by.setdefault((r["format"], r["threads"]), []).append(r["seconds"])
med = {k: sorted(v)[len(v) // 2] for k, v in by.items()}
print("| format | 1 worker, s | all cores, s | MB/s, all cores | all cores vs one |")
print("|---|---:|---:|---:|---:|")
for f in ["human", "json", "jsonl", "sarif"]:
    one = med[(f, 1)]
    many = [v for (g, t), v in med.items() if g == f and t != 1] or [one]
    print(f"| {f} | {one:.3f} | {many[0]:.3f} | {mb / many[0]:.1f} | {one / many[0]:.2f}x |")
PY
echo
echo "### One game without the rest: the last game (index $last) of a $(( $(stat -c %s "$x70") / 1000000 )) MB file"
echo
echo "| command | seconds | share of the full check |"
echo "|---|---:|---:|"
for row in "check (full, all cores):$full70" "show --game-index:$idx_show" "claim --game-index:$idx_claim" \
           "check --game-index:$idx_check" "convert --game-index:$idx_convert"; do
    python3 -c "import sys; n, s = sys.argv[1].rsplit(':', 1); print(f'| \`{n}\` | {float(s):.3f} | {float(s) / $full70:.3f} |')" "$row"
done
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
