#!/usr/bin/env bash
# Cross-checks arbiter's Xiangqi engine against Fairy-Stockfish (npm `ffish`, pinned in
# scripts/package.json) on every position of the xiangqi fixtures, of the 2000 corpus games
# and of RANDOM_GAMES random games (default 10000, each at most 300 plies, seeded by
# RANDOM_SEED): legal move sets, check, checkmate, stalemate; and on REPETITION_GAMES random
# games driven into repetitions (default 2000) as well as all the others, the first third
# occurrence and its verdict (rulings §4.3); and every line of play (main lines and
# variations) of the XQF and DhtmlXQ archives (corpus/xiangqi-xqf, corpus/xiangqi-dhtmlxq
# beside XIANGQI_CORPUS), each from the start, a move arbiter refuses refused there too.
# The engine and site PGN games of
# ENGINE_PGN_CORPUS (default ../shared/corpus/xiangqi-engine-pgn) are compared the same way,
# and their recorded verdicts (WinBoard's adjudications, Termination words) against arbiter's
# and Fairy-Stockfish's, every difference listed with its kind. Exits non-zero on any difference that is not a documented one. See docs/xiangqi.md.
#
# Needs cargo, node (20+) and npm. Installs ffish into scripts/node_modules (gitignored).
# Runs two pipelines at once (the machine has two cores); about two minutes in all.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
corpus="${XIANGQI_CORPUS:-$root/../shared/corpus/xiangqi}"
games="${RANDOM_GAMES:-10000}"
seed="${RANDOM_SEED:-20240601}"
repetitions="${REPETITION_GAMES:-2000}"
engine_pgn="${ENGINE_PGN_CORPUS:-$root/../shared/corpus/xiangqi-engine-pgn}"

if [ ! -f "$here/node_modules/ffish/ffish.js" ]; then
  echo "crosscheck-xiangqi: installing ffish with npm" >&2
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi
(cd "$root" && cargo build --release --quiet --example xiangqi_dump)
dump="$root/target/release/examples/xiangqi_dump"
check="$here/crosscheck-xiangqi.js"

half=$((games / 2))
files=(hu_ronghua_iccs.pgn liu_dahua_iccs_part.pgn parallel15_iccs.pgn)

first() {
  # The fixtures start from FENs too (Black to move, mates, stalemate); some are built to
  # break a rule, so refused moves are expected there (games with a bad FEN are skipped).
  (cd "$root" && "$dump" corpus fixtures/xiangqi/*.arb fixtures/xiangqi/*.pgn 2>/dev/null) |
    node "$check" --label fixtures --allow-rejected --min-games 30
  if [ -d "$corpus" ]; then
    (cd "$corpus" && "$dump" corpus "${files[@]}") | node "$check" --label corpus --min-games 2000
  else
    echo "SKIPPED: $corpus is absent (corpus part of the cross-check)"
  fi
  "$dump" random "$half" "$seed" 0 | node "$check" --label "random 0..$half" --min-games "$half"
}
# Every line of the XQF and DhtmlXQ archives (issue 23): plies, the first illegal ply,
# checkmate and stalemate, the first third occurrence.
archives() {
  local base
  base="$(dirname "$corpus")"
  for folder in xiangqi-xqf:1810 xiangqi-dhtmlxq:1457; do
    local name="${folder%%:*}" lines="${folder##*:}"
    if [ -d "$base/$name" ]; then
      "$dump" lines "$base/$name" | node "$check" --label "$name lines" --archive --min-games "$lines"
    else
      echo "SKIPPED: $base/$name is absent (archive part of the cross-check)"
    fi
  done
}
second() {
  if [ -d "$engine_pgn" ]; then
    # Every game listed with its kind where arbiter differs from Fairy-Stockfish or the record.
    (cd "$engine_pgn" && "$dump" corpus *.pgn) | node "$check" --label engine-pgn --every --min-games 481
  else
    echo "SKIPPED: $engine_pgn is absent (engine PGN part of the cross-check)"
  fi
  "$dump" random "$((games - half))" "$seed" "$half" |
    node "$check" --label "random $half..$games" --min-games "$((games - half))"
  "$dump" repetition "$repetitions" "$seed" 0 |
    node "$check" --label "repetition 0..$repetitions" --min-games "$repetitions"
  archives
}

first & a=$!
second & b=$!
status=0
wait "$a" || status=1
wait "$b" || status=1
if [ "$status" -ne 0 ]; then
  echo "crosscheck-xiangqi: FAILED: arbiter and Fairy-Stockfish disagree (details above)" >&2
else
  echo "crosscheck-xiangqi: arbiter and Fairy-Stockfish agree on every position"
fi
exit "$status"
