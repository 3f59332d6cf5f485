#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ for SECONDS seconds each (default 300), seeding its
# corpus from fixtures/ first:
#   grammar  every fixture (.arb, .pgn, .xml) as a native log
#   gravon   the Gravon XML fixtures (and the other fixtures, as text the importer must survive)
#   xqbase   the Xiangqi and Jieqi fixtures, read with --game xiangqi
#   pipeline structured logs from `arbitrary` (no seed: libFuzzer starts from nothing)
#   xqf      the XQF reader on raw bytes, each line replayed (no seed: the real files stay in
#            ../shared/corpus/xiangqi-xqf, never copied into the project)
#   multigame files of many native or Gravon games written every hostile way (`arbitrary`, no
#            seed): each game judged exactly as it is alone
#   dhtmlxq  the DhtmlXQ reader on raw bytes, then the whole check with every variation
#            judged (seeded from fixtures/dhtmlxq)
#   engine_pgn  engine and site PGN read without --game (the ruleset from Variant or the
#            text, SAN and coordinates, Termination words, GB18030), converted and checked
#            again: the engine-pgn fixtures and the Xiangqi fixtures
# Needs cargo-fuzz (`cargo install cargo-fuzz`); without it, it says so and exits 77. libFuzzer's
# instrumentation needs unstable compiler flags: a nightly toolchain when rustup has one, else
# the stable one with RUSTC_BOOTSTRAP=1 (no sanitizer is used either way: the targets look for
# panics, hangs and memory blow-ups in safe Rust). Exits 1 on a crash, a hang (a run
# over 10 s) or an out-of-memory (over 2 GB); the input is in fuzz/artifacts/<target>/:
# make it a fixture. A summary line per target goes to stdout.
#
#   scripts/fuzz.sh          5 minutes per target (the issue's clean-run length)
#   scripts/fuzz.sh 30       what CI runs
set -euo pipefail
seconds=${1:-300}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root/fuzz"
toolchain=
if rustup run nightly rustc --version >/dev/null 2>&1; then
    toolchain=+nightly
fi
if ! cargo $toolchain fuzz --help >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed (cargo install cargo-fuzz): the fuzz runs did not run"
    exit 77
fi
if [[ -z $toolchain ]] && ! rustc --version | grep -q nightly; then
    export RUSTC_BOOTSTRAP=1
fi

seed() { # target, then fixture globs
    local target=$1
    shift
    mkdir -p "corpus/$target"
    local f
    for f in "$@"; do
        [[ -f $f ]] && cp "$f" "corpus/$target/seed-$(basename "$(dirname "$f")")-$(basename "$f")"
    done
    return 0
}
shopt -s nullglob
seed grammar ../fixtures/*/*.arb ../fixtures/*/*.pgn ../fixtures/*/*.xml
seed gravon ../fixtures/gravon/*.xml ../fixtures/stratego/*.arb
seed xqbase ../fixtures/xiangqi/*.pgn ../fixtures/xiangqi/*.arb ../fixtures/jieqi/*.arb
seed pipeline
seed xqf
seed multigame
seed dhtmlxq ../fixtures/dhtmlxq/*
seed engine_pgn ../fixtures/xiangqi/engine-pgn-*.pgn ../fixtures/xiangqi/*.pgn

cargo $toolchain fuzz build -s none 2>&1 | tail -1
status=0
for target in grammar gravon xqbase pipeline xqf dhtmlxq multigame engine_pgn; do
    log=$(mktemp)
    rc=0
    cargo $toolchain fuzz run -s none "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 >"$log" 2>&1 || rc=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    if [[ $rc -eq 0 ]]; then
        echo "fuzz $target: ${seconds}s, $runs runs, $cov, no crash, hang or out-of-memory"
    else
        status=1
        echo "FAIL fuzz $target: exit $rc after $runs runs; the input is in fuzz/artifacts/$target/" >&2
        grep -E 'panicked|ERROR|SUMMARY|timeout|out-of-memory' "$log" | head -20 >&2
    fi
    rm -f "$log"
done
exit $status
