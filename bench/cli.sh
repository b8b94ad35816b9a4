#!/bin/sh
# bench/cli.sh — throughput and memory of the toon command on a large table.
#
# Usage: bench/cli.sh [ROWS]     (default 5000000, about 870 MB of JSON)
#
# Generates a JSON document {"users":[...ROWS uniform rows...]} with awk,
# and the same rows as JSON Lines (rows.jsonl, one object a line) and as
# CSV (rows.csv, a header and a record a row), then measures with
# /usr/bin/time -v:
#   encode: toon rows.json -o rows.toon      (JSON -> TOON, two passes)
#   decode: toon rows.toon -o back.json      (TOON -> JSON, streaming)
#   decode: toon rows.toon > /dev/null       (the same, output discarded)
#   stats:  toon --stats rows.json -o stats.toon  (encode, counting the
#           o200k_base tokens of the compact JSON and of the TOON)
#   stats-d: toon --stats rows.toon -o stats.json (the same, decoding)
#   jsonl:  toon rows.jsonl -o rows-jsonl.toon   (JSON Lines -> TOON, two passes)
#   csv:    toon rows.csv -o rows-csv.toon       (CSV -> TOON, two passes)
#   to-jsonl: toon rows-jsonl.toon -o back.jsonl (TOON -> JSON Lines)
#   to-csv:   toon rows-csv.toon -o back.csv     (TOON -> CSV)
# and checks that back.json is byte-identical to rows.json (the generator
# writes compact JSON with canonical numbers, so the round trip is exact),
# back.jsonl to rows.jsonl, back.csv to rows.csv, and rows-jsonl.toon to
# rows-csv.toon (both are the root table of the same typed rows).
# RUNS=3 measures each conversion three times.
# The second decode line shows the converter without the file system: the
# difference between the two is the cost of writing 800 MB to a file, the
# kernel's copy into the page cache above all (and, when back.json exists
# from a KEEP=1 run, of replacing it: the line then says so).
# Targets (issue 6): encode >= 250 MB/s of JSON with max RSS < 64 MB;
# decode >= 500 MB/s of TOON with max RSS < 32 MB. Target (issue 15):
# --stats in max RSS < 64 MB, counting >= 20 MB/s of text, the text being
# the compact JSON and the TOON together, both of which it counts.
# (Issue 18): JSON Lines and CSV to TOON >= 300 MB/s of input with max
# RSS < 64 MB.
#
# Generated data lives in bench/out/ (git-ignored) and is deleted at the
# end unless KEEP=1 is set.
set -eu
ROWS=${1:-5000000}
RUNS=${RUNS:-1}
cd "$(dirname "$0")/.."
OUT=bench/out
mkdir -p "$OUT"
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench/cli.sh: $TIME (GNU time) is required" >&2; exit 2; }

go build -o "$OUT/toon" ./cmd/toon

echo "generating $ROWS rows..."
awk -v n="$ROWS" -v out="$OUT" 'BEGIN {
  split("Berlin Paris London Madrid Rome Vienna Prague Warsaw Lisbon Dublin", city, " ")
  split("free pro team enterprise", plan, " ")
  json = out "/rows.json"; jsonl = out "/rows.jsonl"; csv = out "/rows.csv"
  printf "{\"users\":[" > json
  print "id,name,email,age,active,score,city,joined,plan" > csv
  for (i = 1; i <= n; i++) {
    if (i > 1) printf "," > json
    age = 18 + (i * 7) % 60; active = (i % 3 ? "true" : "false")
    score = sprintf("%d.%d", (i * 13) % 100, (i * 7) % 9 + 1)
    c = city[(i % 10) + 1]; p = plan[(i % 4) + 1]
    joined = sprintf("20%02d-%02d-%02d", 10 + i % 15, 1 + i % 12, 1 + i % 28)
    r = sprintf("{\"id\":%d,\"name\":\"User %d\",\"email\":\"user%d@example.com\",\"age\":%d,\"active\":%s,\"score\":%s,\"city\":\"%s\",\"joined\":\"%s\",\"plan\":\"%s\"}",
      i, i, i, age, active, score, c, joined, p)
    printf "%s", r > json
    print r > jsonl
    printf "%d,User %d,user%d@example.com,%d,%s,%s,%s,%s,%s\n", i, i, i, age, active, score, c, joined, p > csv
  }
  printf "]}\n" > json
}'

# measure NAME INPUT OUTPUT [LABEL]: runs the command and prints one result
# line, ending with LABEL if given. An OUTPUT of /dev/null is standard
# output redirected there, not -o.
measure() {
  name=$1 in=$2 out=$3 label=${4:-}
  if [ "$out" != /dev/null ] && [ -e "$out" ]; then
    label="$label (replacing the file of an earlier KEEP=1 run)"
  fi
  tf=$OUT/$name.time
  sync
  if [ "$out" = /dev/null ]; then
    tf=$OUT/$name-null.time
    "$TIME" -v -o "$tf" "$OUT/toon" "$in" > /dev/null
  else
    "$TIME" -v "$OUT/toon" "$in" -o "$out" 2> "$tf"
  fi
  size=$(wc -c < "$in")
  awk -v name="$name" -v size="$size" -v label="$label" -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
    /User time/ { user = $2 }
    /System time/ { sys = $2 }
    /Maximum resident set size/ { rss = $2 }
    END {
      cpu = user + sys
      printf "%-8s %8.1f MB in %6.2f s wall (%6.1f MB/s), %6.2f s CPU (%6.1f MB/s per CPU second), max RSS %6.1f MB; user %.2f s, sys %.2f s%s\n",
        name, size / 1e6, wall, size / 1e6 / wall, cpu, size / 1e6 / cpu, rss / 1024, user, sys, label
    }' "$tf"
}

# measure_stats NAME INPUT OUTPUT: runs toon --stats INPUT -o OUTPUT and
# prints its table and one result line; the table gives the bytes of text
# counted (the compact JSON and the TOON).
measure_stats() {
  name=$1 in=$2 out=$3
  sync
  "$TIME" -v -o "$OUT/$name.time" "$OUT/toon" --stats "$in" -o "$out" 2> "$OUT/$name.txt"
  cat "$OUT/$name.txt"
  awk -v name="$name" -v size="$(wc -c < "$in")" -F': ' '
    FILENAME ~ /[.]txt$/ && /^(JSON \(compact\)|TOON) / { n = split($0, f, " +"); text += f[n - 1] }
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
    /User time/ { user = $2 }
    /System time/ { sys = $2 }
    /Maximum resident set size/ { rss = $2 }
    END {
      printf "%-7s %8.1f MB in %6.2f s wall (%6.1f MB/s), %6.2f s CPU; text counted %.1f MB (%.1f MB/s), max RSS %6.1f MB; user %.2f s, sys %.2f s\n",
        name, size / 1e6, wall, size / 1e6 / wall, user + sys, text / 1e6, text / 1e6 / wall, rss / 1024, user, sys
    }' "$OUT/$name.txt" "$OUT/$name.time"
}

# same A B: fails unless files A and B are byte-identical.
same() {
  if cmp -s "$1" "$2"; then
    echo "round trip: $(basename "$2") identical to $(basename "$1")"
  else
    echo "round trip: $(basename "$2") DIFFERS from $(basename "$1")" >&2
    exit 1
  fi
}

run=1
while [ "$run" -le "$RUNS" ]; do
  if [ "$run" -gt 1 ]; then # the outputs of the run before, not of a KEEP=1 run
    rm -f "$OUT/rows.toon" "$OUT/back.json" "$OUT/rows-jsonl.toon" "$OUT/rows-csv.toon" "$OUT/back.jsonl" "$OUT/back.csv"
  fi
  measure encode "$OUT/rows.json" "$OUT/rows.toon"
  measure decode "$OUT/rows.toon" "$OUT/back.json" "  [-o back.json]"
  measure decode "$OUT/rows.toon" /dev/null "  [> /dev/null]"
  measure jsonl "$OUT/rows.jsonl" "$OUT/rows-jsonl.toon"
  measure csv "$OUT/rows.csv" "$OUT/rows-csv.toon"
  measure to-jsonl "$OUT/rows-jsonl.toon" "$OUT/back.jsonl"
  measure to-csv "$OUT/rows-csv.toon" "$OUT/back.csv"
  run=$((run + 1))
done
measure_stats stats "$OUT/rows.json" "$OUT/stats.toon"
if ! cmp -s "$OUT/rows.toon" "$OUT/stats.toon"; then
  echo "stats: the TOON written with --stats differs from the one without" >&2
  exit 1
fi
measure_stats stats-d "$OUT/rows.toon" "$OUT/stats.json"
if ! cmp -s "$OUT/rows.json" "$OUT/stats.json"; then
  echo "stats: the JSON written with --stats differs from the input" >&2
  exit 1
fi

same "$OUT/rows.json" "$OUT/back.json"
same "$OUT/rows.jsonl" "$OUT/back.jsonl"
same "$OUT/rows.csv" "$OUT/back.csv"
same "$OUT/rows-jsonl.toon" "$OUT/rows-csv.toon"
head -c 300 "$OUT/rows.toon"; echo
ls -l "$OUT"/rows.json "$OUT"/rows.toon "$OUT"/rows.jsonl "$OUT"/rows.csv "$OUT"/rows-csv.toon
echo "targets: encode >= 250 MB/s, RSS < 64 MB; decode >= 500 MB/s, RSS < 32 MB;"
echo "         stats >= 20 MB/s of text, RSS < 64 MB; jsonl and csv >= 300 MB/s, RSS < 64 MB"
if [ "${KEEP:-0}" != 1 ]; then
  rm -f "$OUT/rows.json" "$OUT/rows.toon" "$OUT/back.json" "$OUT/rows.jsonl" "$OUT/rows.csv" \
    "$OUT/rows-jsonl.toon" "$OUT/rows-csv.toon" "$OUT/back.jsonl" "$OUT/back.csv" \
    "$OUT/stats.toon" "$OUT/stats.json"
fi
