#!/usr/bin/env bash
# bench/run.sh — run the benchmark matrix of this module in one or more
# build modes and write its results as markdown tables (bench/RESULTS.md
# by default).
#
# Usage: bench/run.sh
#
# Environment:
#   TOON_BENCH_SCALE  dataset size multiplier (default 1: a few MB of JSON each)
#   BENCHTIME         -test.benchtime (default 1s)
#   COUNT             rounds (default 1); the tables give the median of the
#                     per-round ratios and their range
#   BENCH             -test.bench pattern (default .)
#   MODES             build modes, run in this order in every round (default
#                     "native avx2:TOON_KERNELS=avx2 purego"):
#                       native         the library as built for this machine
#                       purego         built with -tags purego (no assembly)
#                       NAME:VAR=VALUE the native build run with the environment
#                                      variable VAR=VALUE (for a switch that turns
#                                      kernels off; several VAR=VALUE may follow,
#                                      separated by commas)
#   BASIS             what the summary and the matrices take ratios of: wall
#                     (rows per second of wall time, the default) or cpu (rows
#                     per second of the process's CPU time, steadier when the
#                     machine is shared); the report gives both summaries
#   TOKENS_SCALE      dataset scale of the token table, 0 to skip (default 0.1)
#   OUT               markdown file to write (default bench/RESULTS.md)
#
# The test binaries are built once per mode; then each round runs every
# mode once, so that the runs of all modes are spread alike over the time
# of the whole run rather than one mode after the other. Inside a round,
# toon's benchmarks and their peers on a dataset run one after the other.
# The raw output is kept in bench/out/bench-MODE.txt (git-ignored). Every
# number in the tables comes from this run.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p out
export TOON_BENCH_SCALE=${TOON_BENCH_SCALE:-1}
BENCHTIME=${BENCHTIME:-1s}
COUNT=${COUNT:-1}
MODES=${MODES:-native avx2:TOON_KERNELS=avx2 purego}
TOKENS_SCALE=${TOKENS_SCALE:-0.1}
OUT=${OUT:-RESULTS.md}

export BENCH_DATE="$(date -u '+%Y-%m-%d %H:%M UTC')"
export BENCH_GOVERSION="$(go version)"
export BENCH_LOADAVG="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
export BENCH_FLAGS="-benchtime $BENCHTIME, $COUNT interleaved rounds"
commit="$(git rev-parse --short HEAD 2>/dev/null || true)"
if [ -n "$commit" ] && ! git diff --quiet HEAD -- .. 2>/dev/null; then
	commit="$commit (with uncommitted changes)"
fi
export BENCH_COMMIT="$commit"

go test -c -o out/bench-native.test .
inputs=()
for m in $MODES; do
	name=${m%%:*}
	case $m in
	purego) go test -c -tags purego -o out/bench-purego.test . ;;
	native | *:*) ;;
	*) echo "run.sh: unknown mode $m" >&2; exit 2 ;;
	esac
	: > "out/bench-$name.txt"
	inputs+=(-in "$name=out/bench-$name.txt")
done

for round in $(seq "$COUNT"); do
	for m in $MODES; do
		name=${m%%:*}
		bin=out/bench-native.test
		env=()
		case $m in
		purego) bin=out/bench-purego.test ;;
		*:*) IFS=, read -ra env <<< "${m#*:}" ;;
		esac
		echo "== round $round of $COUNT, mode $name" >&2
		env "${env[@]}" "./$bin" -test.run '^$' -test.bench "${BENCH:-.}" -test.benchmem \
			-test.benchtime "$BENCHTIME" -test.count 1 -test.timeout 120m | tee -a "out/bench-$name.txt"
	done
done
go run ./cmd/benchreport "${inputs[@]}" -basis "${BASIS:-wall}" -tokens-scale "$TOKENS_SCALE" -o "$OUT"
echo "wrote $OUT"
