#!/bin/sh
# bench/mmap.sh — the toon command with its input read through a memory
# mapping (this tree) against the same command reading it with read(2)
# (BASE, a git revision from before the mapping), on bench/cli.sh's files.
#
# Usage: BASE=REV bench/mmap.sh [ROUNDS]     (default 5 rounds)
#
# Needs bench/out/rows.json and bench/out/rows.toon: run KEEP=1
# bench/cli.sh first. Each round runs every case with A (BASE) and then B
# (this tree), so that both meet the same load on a shared machine:
#   enc-file  toon rows.json -o enc.out       (JSON -> TOON)
#   enc-null  toon rows.json > /dev/null
#   dec-file  toon rows.toon -o dec.out       (TOON -> JSON)
#   dec-null  toon rows.toon > /dev/null
# and prints, per case and build, the median and the range of the wall,
# user and system times (s) and of the maximum resident set size (MB)
# that /usr/bin/time -v reports. B's outputs are checked against A's.
set -eu
ROUNDS=${1:-5}
: "${BASE:?set BASE to the git revision to compare with}"
cd "$(dirname "$0")/.."
OUT=bench/out
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench/mmap.sh: $TIME (GNU time) is required" >&2; exit 2; }
for f in rows.json rows.toon; do
  [ -f "$OUT/$f" ] || { echo "bench/mmap.sh: $OUT/$f is missing: run KEEP=1 bench/cli.sh" >&2; exit 2; }
done

src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git archive "$BASE" | tar -x -C "$src"
(cd "$src" && go build -o toon ./cmd/toon)
cp "$src/toon" "$OUT/toon-A"
go build -o "$OUT/toon-B" ./cmd/toon

res=$OUT/mmap.tsv
: > "$res"
# run BUILD CASE: one run, appending "case build wall user sys rss" to $res.
run() {
  b=$1 case=$2
  case $case in
    enc-*) in=$OUT/rows.json ;;
    dec-*) in=$OUT/rows.toon ;;
  esac
  sync
  case $case in
    *-null) "$TIME" -v -o "$OUT/mmap.time" "$OUT/toon-$b" "$in" > /dev/null ;;
    *) rm -f "$OUT/$case-$b.out"
       "$TIME" -v -o "$OUT/mmap.time" "$OUT/toon-$b" "$in" -o "$OUT/$case-$b.out" ;;
  esac
  awk -v c="$case" -v b="$b" -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
    /User time/ { user = $2 }
    /System time/ { sys = $2 }
    /Maximum resident set size/ { rss = $2 / 1024 }
    END { printf "%s\t%s\t%.2f\t%.2f\t%.2f\t%.1f\n", c, b, wall, user, sys, rss }' "$OUT/mmap.time" >> "$res"
}

i=0
while [ "$i" -lt "$ROUNDS" ]; do
  i=$((i + 1))
  for case in enc-file enc-null dec-file dec-null; do
    run A "$case"
    run B "$case"
  done
  echo "round $i of $ROUNDS done" >&2
done
for case in enc-file dec-file; do
  cmp "$OUT/$case-A.out" "$OUT/$case-B.out" || { echo "$case: B's output differs from A's" >&2; exit 1; }
  rm -f "$OUT/$case-A.out" "$OUT/$case-B.out"
done

# The median and range of each column, per case and build.
echo "case      build  wall median [range]     user median [range]     sys median [range]      max RSS MB median [range]"
for case in enc-file enc-null dec-file dec-null; do
  for b in A B; do
    line="$case $b"
    for col in 3 4 5 6; do
      vals=$(awk -F'\t' -v c="$case" -v b="$b" -v k="$col" '$1 == c && $2 == b { print $k }' "$res" | sort -n)
      n=$(echo "$vals" | wc -l)
      med=$(echo "$vals" | awk -v n="$n" '{ v[NR] = $1 } END { if (n % 2) print v[(n + 1) / 2]; else printf "%.2f\n", (v[n / 2] + v[n / 2 + 1]) / 2 }')
      lo=$(echo "$vals" | head -1)
      hi=$(echo "$vals" | tail -1)
      line="$line  $med [$lo-$hi]"
    done
    echo "$line"
  done
done
