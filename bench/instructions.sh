#!/usr/bin/env bash
# bench/instructions.sh — the instructions one operation of a benchmark
# executes, counted by valgrind's callgrind: a measure that other work on a
# shared machine does not move, for comparing two builds of a change. (On
# such a machine the wall time of one build moves by several percent from
# run to run. The count outside the runtime moves too, but less: by 0.04%
# between runs of one build for config's Token and Unmarshal, by up to 4%
# for orders' Token, where a run now and then counts the set-up's JSON
# decoding too; so compare the least of a few runs of each build. It is
# not time: a change can save instructions and take as long, so a change
# is still judged by run.sh's ratios.)
#
# Usage: bench/instructions.sh PATTERN [N]
#   PATTERN  a -test.bench pattern that selects one benchmark, such as
#            'BenchmarkTokens/config/toon-Token$' (each level matches as
#            a prefix: 'BenchmarkUnmarshal$/config/toon-Unmarshal$')
#   N        iterations of the smaller run (default 10)
#
# Environment:
#   TOON_BENCH_SCALE  dataset size multiplier (default 0.25, run.sh's usual)
#   TAGS              build tags (purego for the portable path)
#   BIN               a test binary of this package to run instead of
#                     building one (go test -c), e.g. to compare two builds
#   TOP               how many functions to list (default 15)
# and any variable the benchmarks read (TOON_KERNELS=avx2, ...).
#
# The benchmark runs N times, then 2N times, in processes of their own;
# the difference of the two counts, divided by N, is one operation without
# the set-up (the dataset's generation, measure's first run). Printed: the
# instructions per operation outside the Go runtime's scheduler and
# collector ("library", which counts memmove and memequal, the copies and
# comparisons the code asks for), the total (whose runtime part moves with
# the collector's timing, and can come out below the library's), and the
# functions that take the most (the code inlined into a function counted
# as its own).
#
# Go programs run under valgrind 3.19 with two settings, set here:
# GODEBUG=asyncpreemptoff=1 (the preemption signals trip callgrind) and
# cpu.rdtscp=off (runtime.cputicks, which a contended runtime lock calls,
# uses RDTSCP, which valgrind does not decode). GOMAXPROCS=1 keeps the
# collector's work in line with the program's.
set -euo pipefail
cd "$(dirname "$0")"
if [ $# -lt 1 ]; then
	sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 2
fi
pattern=$1
n=${2:-10}
for tool in valgrind callgrind_annotate; do
	if ! command -v "$tool" > /dev/null; then
		echo "instructions.sh: $tool not found (Debian: apt-get install valgrind)" >&2
		exit 1
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${BIN:-}
if [ -z "$bin" ]; then
	bin=$tmp/bench.test
	go test -c ${TAGS:+-tags "$TAGS"} -o "$bin" .
fi
bin=$(readlink -f "$bin")
export TOON_BENCH_SCALE=${TOON_BENCH_SCALE:-0.25}

# One iteration without valgrind first: the pattern must select one
# benchmark (a level of it matches as a prefix unless ended with $).
names=$("$bin" -test.run '^$' -test.bench "$pattern" -test.benchtime 1x 2>&1 | awk '/^Benchmark/ {sub(/-[0-9]+$/, "", $1); print $1}')
if [ "$(printf '%s' "$names" | grep -c .)" -ne 1 ]; then
	echo "instructions.sh: the pattern must select one benchmark; it selects:" >&2
	printf '%s\n' "${names:-(none)}" | sed 's/^/  /' >&2
	exit 1
fi

# count K writes the per-function counts of a run of K*N iterations to
# $tmp/K.txt, as lines of "count function".
count() {
	local k=$1
	if ! GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 valgrind --tool=callgrind \
		--callgrind-out-file="$tmp/$k.out" "$bin" -test.run '^$' -test.bench "$pattern" \
		-test.benchtime "$((k * n))x" > "$tmp/$k.log" 2>&1 || ! grep -q '^Benchmark' "$tmp/$k.log"; then
		echo "instructions.sh: the run of $((k * n)) iterations failed or ran no benchmark:" >&2
		grep -v '^==' "$tmp/$k.log" | tail -20 >&2
		exit 1
	fi
	# Lines of callgrind_annotate: "1,234,567  file.go:pkg.function [binary]",
	# a function's name holding spaces where it has type arguments. Without
	# --auto=no it also prints the annotated source lines, some of which
	# (a line "case x:") pass for such lines.
	callgrind_annotate --auto=no --show-percs=no --threshold=100 "$tmp/$k.out" |
		awk '$1 ~ /^[0-9,]+$/ && $2 ~ /:/ { c = $1; gsub(",", "", c); f = $0; sub(/^ *[0-9,]+ +[^:]*:/, "", f); sub(/ \[[^]]*\]$/, "", f); print c "\t" f }' > "$tmp/$k.txt"
}
count 1
count 2
echo "$names, TOON_BENCH_SCALE=$TOON_BENCH_SCALE${TAGS:+, -tags $TAGS}, instructions per operation (runs of $n and $((2 * n)) iterations):"
awk -F '\t' -v n="$n" -v top="${TOP:-15}" '
	FNR == 1 { file++ }
	{ sum[$2] += (file == 2 ? $1 : -$1) }
	END {
		for (f in sum) {
			v = sum[f] / n
			total += v
			if (f !~ /^(runtime\.|internal\/runtime\/|gcWriteBarrier|internal\/sync\.)/ || f ~ /^runtime\.(memmove|memequal)$/)
				lib += v
		}
		printf "  library %.0f\n  total   %.0f\n", lib, total
		for (f in sum) printf "%.0f\t%s\n", sum[f] / n, f | "sort -rn | head -" top " | awk -F \x27\\t\x27 \x27{ printf \"  %12.0f  %s\\n\", $1, $2 }\x27"
	}' "$tmp/1.txt" "$tmp/2.txt"
