#!/usr/bin/env bash
# bench/run.sh — run the comparative benchmarks of this module and write
# their results as markdown tables (bench/RESULTS.md by default).
#
# Usage: bench/run.sh
#
# Environment:
#   TOON_BENCH_SCALE  dataset size multiplier (default 1: a few MB of JSON each)
#   BENCHTIME         go test -benchtime (default 1s)
#   COUNT             go test -count; the tables show medians (default 1)
#   BENCH             go test -bench pattern (default .)
#   TOKENS_SCALE      dataset scale of the token table, 0 to skip (default 0.1)
#   OUT               markdown file to write (default bench/RESULTS.md)
#
# The raw benchmark output is kept in bench/out/bench.txt (git-ignored).
# Every number in the tables comes from this run.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p out
export TOON_BENCH_SCALE=${TOON_BENCH_SCALE:-1}
BENCHTIME=${BENCHTIME:-1s}
COUNT=${COUNT:-1}
TOKENS_SCALE=${TOKENS_SCALE:-0.1}
OUT=${OUT:-RESULTS.md}

export BENCH_DATE="$(date -u '+%Y-%m-%d %H:%M UTC')"
export BENCH_GOVERSION="$(go version)"
export BENCH_LOADAVG="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
export BENCH_FLAGS="-benchtime $BENCHTIME -count $COUNT"
commit="$(git rev-parse --short HEAD 2>/dev/null || true)"
if [ -n "$commit" ] && ! git diff --quiet HEAD -- .. 2>/dev/null; then
	commit="$commit (with uncommitted changes)"
fi
export BENCH_COMMIT="$commit"

go test -run '^$' -bench "${BENCH:-.}" -benchmem -benchtime "$BENCHTIME" -count "$COUNT" -timeout 120m . | tee out/bench.txt
go run ./cmd/benchreport -in out/bench.txt -tokens-scale "$TOKENS_SCALE" -o "$OUT"
echo "wrote $(pwd)/$OUT"
