#!/usr/bin/env bash
# The Xiangqi corpus (../shared/corpus/xiangqi, 2,000 games, or XIANGQI_CORPUS) as one
# `arbiter report` page, and its load time in headless chromium: scripts/report-load-time.sh
# [RUNS]. Needs a release build, chromium (apt-get install chromium) and `npm ci --prefix
# scripts` (puppeteer-core). Exit 77 when the corpus is absent.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
arbiter=${ARBITER:-$root/target/release/arbiter}
corpus=${XIANGQI_CORPUS:-$root/../shared/corpus/xiangqi}
if [[ ! -d $corpus ]]; then
    echo "corpus absent: $corpus (the report load time was not measured)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
page=$work/xiangqi-2000.html
start=$(date +%s.%N)
"$arbiter" report --game xiangqi --repetition claim -o "$page" \
    "$corpus/hu_ronghua_iccs.pgn" "$corpus/liu_dahua_iccs_part.pgn" "$corpus/parallel15_iccs.pgn" 2>&1 | tail -1
end=$(date +%s.%N)
printf 'page: %s bytes, written in %.2f s\n' "$(stat -c %s "$page")" "$(echo "$end - $start" | bc)"
node "$root/scripts/report-load-time.mjs" "$page" "${1:-5}" "${CHROMIUM:-/usr/bin/chromium}"
