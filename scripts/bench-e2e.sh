#!/usr/bin/env bash
# End-to-end benchmark of the bulk CLI (issue 5): a frontier of at least 100 MB
# built from ../shared/vectors/corpora with seeded aliases at every rung, then
# irinorm normalize and dedupe against `LC_ALL=C sort -u` and
# `awk '!seen[$0]++'` (which do not even normalize), in the same run,
# interleaved, several rounds; median wall time, MB/s and peak memory (RSS).
#
#   scripts/bench-e2e.sh [LINES] [ROUNDS]      (defaults: 1700000 lines, 5 rounds)
#
# Prints a Markdown table for BENCHMARKS.md. Needs only the Rust toolchain,
# GNU time (/usr/bin/time), sort and awk.
set -euo pipefail
cd "$(dirname "$0")/.."
LINES=${1:-1700000}
ROUNDS=${2:-5}
WORK=${BENCH_DIR:-/tmp/irinorm-e2e}
mkdir -p "$WORK"
cargo build --release -q -p irinorm-cli
BIN=$PWD/target/release/irinorm
FILE=$WORK/frontier-$LINES.txt
if [ ! -s "$FILE" ]; then
  "$BIN" frontier --urls-only --lines "$LINES" --seed 1 > "$FILE"
fi
BYTES=$(stat -c %s "$FILE")
echo "input: $FILE, $(wc -l < "$FILE") lines, $BYTES bytes; $(nproc) cores; rounds: $ROUNDS" >&2

declare -A CMDS=(
  ["irinorm normalize"]="$BIN normalize -q -i $FILE"
  ["irinorm normalize --preset crawler"]="$BIN normalize -q --preset crawler -i $FILE"
  ["irinorm normalize -j 1"]="$BIN normalize -q -j 1 -i $FILE"
  ["irinorm dedupe"]="$BIN dedupe -q -i $FILE"
  ["irinorm dedupe --hash-keys"]="$BIN dedupe -q --hash-keys -i $FILE"
  ["irinorm dedupe --preset crawler"]="$BIN dedupe -q --preset crawler -i $FILE"
  ["LC_ALL=C sort -u"]="env LC_ALL=C sort -u $FILE"
  ["awk '!seen[\$0]++'"]="awk '!seen[\$0]++' $FILE"
)
ORDER=("irinorm normalize" "irinorm normalize --preset crawler" "irinorm normalize -j 1" "irinorm dedupe" "irinorm dedupe --hash-keys" "irinorm dedupe --preset crawler" "LC_ALL=C sort -u" "awk '!seen[\$0]++'")

declare -A TIMES MEMS
for r in $(seq 1 "$ROUNDS"); do
  for name in "${ORDER[@]}"; do
    start=$(date +%s%N)
    mem=$( { /usr/bin/time -f "%M" bash -c "${CMDS[$name]} > /dev/null" ; } 2>&1 | tail -1 )
    end=$(date +%s%N)
    TIMES[$name]+="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", (b - a) / 1e9 }') "
    MEMS[$name]=$mem
  done
  echo "round $r done" >&2
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
SORT_T=$(echo "${TIMES["LC_ALL=C sort -u"]}" | median)
echo
echo "| command | median wall s | MB/s | vs \`LC_ALL=C sort -u\` | peak RSS MB |"
echo "|---|---:|---:|---:|---:|"
for name in "${ORDER[@]}"; do
  t=$(echo "${TIMES[$name]}" | median)
  awk -v n="$name" -v t="$t" -v b="$BYTES" -v s="$SORT_T" -v m="${MEMS[$name]}" \
    'BEGIN { printf "| `%s` | %.3f | %.0f | %.2fx | %.0f |\n", n, t, b/1e6/t, s/t, m/1024 }'
done
