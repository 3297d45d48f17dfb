#!/usr/bin/env bash
# Issue 14, CLI part: `irinorm normalize` and `irinorm dedupe` on a 2 GB file
# against `LC_ALL=C sort -u`, and dedupe on the frontier generator's own
# 1.7M-line output. The inputs are generated here, under $BENCH_DIR
# (default /tmp/irinorm-cli14), and deleted at the end (KEEP=1 keeps them).
#
#   scripts/bench-cli14.sh [ROUNDS] [FIVE]     (defaults: 3 rounds; FIVE=1
#                                               adds dedupe on a 5 GB file)
#
# Environment:
#   BASE_BIN=PATH  a baseline binary (e.g. `main` built the same way and
#                  copied aside) run in the same rounds as this build, for
#                  the `normalize` and `dedupe` commands: rows `... (base)`,
#                  and a `vs base (CPU)` ratio for each command
#   ONLY=REGEX     run only the commands whose name matches (e.g.
#                  'normalize|frontier'; `sort -u` over 2 GB takes ~30 CPU-s)
#   KEEP=1         keep the generated inputs
#
# Besides wall and CPU time, the table gives MB per CPU-second and the wall
# throughput that CPU time allows on all cores of an idle machine
# (bytes x cores / CPU time): the ceiling, reached when every stage
# overlaps, which on a shared machine the wall time cannot show.
#
# The 2 GB file is a 300,000-line frontier (`irinorm frontier --urls-only
# --lines 300000 --seed 1`, 17 MB, 247,388 distinct keys at rung scheme)
# repeated 117 times; the 5 GB file the same repeated 292 times: the same
# distinct keys, 2.5x the input. Every command runs once per round in turn
# (interleaved), output to /dev/null unless it names a file; the table gives
# the median wall time, the median CPU time (user + system, all threads),
# the largest peak RSS (GNU time), and the load average before and after.
# Needs the Rust toolchain, GNU time, sort, zstd, and ../shared (corpora).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
FIVE=${2:-0}
WORK=${BENCH_DIR:-/tmp/irinorm-cli14}
mkdir -p "$WORK"
cargo build --release -q -p irinorm-cli
BIN=$PWD/target/release/irinorm
SMALL=$WORK/f300k.txt
BIG=$WORK/big2g.txt
FRONT=$WORK/frontier-1700000.txt
[ -s "$SMALL" ] || "$BIN" frontier --urls-only --lines 300000 --seed 1 -o "$SMALL" 2>/dev/null
[ -s "$FRONT" ] || "$BIN" frontier --urls-only --lines 1700000 --seed 1 -o "$FRONT" 2>/dev/null
if [ ! -s "$BIG" ]; then
  for _ in $(seq 117); do cat "$SMALL"; done > "$BIG"
fi
BIG_BYTES=$(stat -c %s "$BIG")
FRONT_BYTES=$(stat -c %s "$FRONT")
echo "2 GB input: $BIG_BYTES bytes, $(wc -l < "$BIG") lines; frontier: $FRONT_BYTES bytes;" \
  "$(nproc) cores; rounds: $ROUNDS; load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

declare -A CMDS=(
  ["normalize -j 1"]="$BIN normalize -q -j 1 -i $BIG"
  ["normalize"]="$BIN normalize -q -i $BIG"
  ["normalize -o out.txt"]="$BIN normalize -q -i $BIG -o $WORK/out.txt"
  ["normalize -o out.txt.zst"]="$BIN normalize -q -i $BIG -o $WORK/out.txt.zst"
  ["dedupe"]="$BIN dedupe -q -i $BIG"
  ["dedupe --hash-keys"]="$BIN dedupe -q --hash-keys -i $BIG"
  ["LC_ALL=C sort -u"]="env LC_ALL=C sort -u $BIG"
  ["frontier: dedupe"]="$BIN dedupe -q -i $FRONT"
  ["frontier: LC_ALL=C sort -u"]="env LC_ALL=C sort -u $FRONT"
)
ORDER=("normalize -j 1" "normalize" "normalize -o out.txt" "normalize -o out.txt.zst" "dedupe"
  "dedupe --hash-keys" "LC_ALL=C sort -u" "frontier: dedupe" "frontier: LC_ALL=C sort -u")
if [ -n "${BASE_BIN:-}" ]; then
  BASE_BIN=$(realpath "$BASE_BIN")
  for name in "${ORDER[@]}"; do
    case $name in
      *sort*) ;;
      *) CMDS["$name (base)"]=${CMDS[$name]/#$BIN/$BASE_BIN} ;;
    esac
  done
  WITH_BASE=()
  for name in "${ORDER[@]}"; do
    WITH_BASE+=("$name")
    [ -n "${CMDS["$name (base)"]:-}" ] && WITH_BASE+=("$name (base)")
  done
  ORDER=("${WITH_BASE[@]}")
fi
if [ -n "${ONLY:-}" ]; then
  KEPT=()
  for name in "${ORDER[@]}"; do
    [[ $name =~ $ONLY ]] && KEPT+=("$name")
  done
  ORDER=("${KEPT[@]}")
fi
CORES=$(nproc)

declare -A WALL CPU MEM
for r in $(seq 1 "$ROUNDS"); do
  for name in "${ORDER[@]}"; do
    line=$( { /usr/bin/time -f "%e %U %S %M" bash -c "${CMDS[$name]} > /dev/null" ; } 2>&1 | tail -1 )
    read -r w u s m <<< "$line"
    WALL[$name]+="$w "
    CPU[$name]+="$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }') "
    prev=${MEM[$name]:-0}
    MEM[$name]=$(( m > prev ? m : prev ))
  done
  echo "round $r done; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  for name in "${ORDER[@]}"; do echo "  $name: CPU ${CPU[$name]}| wall ${WALL[$name]}" >&2; done
done

# The outputs are those of one thread, byte for byte (and the baseline's).
"$BIN" normalize -q -j 1 -i "$BIG" -o "$WORK/one.txt"
if [ -s "$WORK/out.txt" ]; then cmp "$WORK/one.txt" "$WORK/out.txt"; fi
if [ -s "$WORK/out.txt.zst" ]; then zstd -qdc "$WORK/out.txt.zst" | cmp - "$WORK/one.txt"; fi
"$BIN" normalize -q -i "$BIG" | cmp - "$WORK/one.txt"
if [ -n "${BASE_BIN:-}" ]; then "$BASE_BIN" normalize -q -i "$BIG" | cmp - "$WORK/one.txt"; fi
"$BIN" dedupe -q -j 1 -i "$FRONT" | cmp - <("$BIN" dedupe -q -i "$FRONT")
if [ -n "${BASE_BIN:-}" ]; then "$BASE_BIN" dedupe -q -i "$FRONT" | cmp - <("$BIN" dedupe -q -i "$FRONT"); fi
echo "outputs: normalize -j 1 = -j $CORES (= base), plain = zstd -d, frontier dedupe -j 1 = dedupe (= base)" >&2
rm -f "$WORK/one.txt" "$WORK/out.txt" "$WORK/out.txt.zst"

median() { tr ' ' '\n' | { grep -v '^$' || true; } | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
SORT_T=$(echo "${WALL["LC_ALL=C sort -u"]:-}" | median)
FSORT_T=$(echo "${WALL["frontier: LC_ALL=C sort -u"]:-}" | median)
echo
echo "| command | median wall s | median CPU s | MB/s (wall) | MB per CPU-s | MB/s on $CORES idle cores (ceiling) | vs base (CPU) | vs \`sort -u\` (wall) | peak RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in "${ORDER[@]}"; do
  t=$(echo "${WALL[$name]}" | median)
  c=$(echo "${CPU[$name]}" | median)
  case $name in
    frontier*) b=$FRONT_BYTES; s=${FSORT_T:-0} ;;
    *) b=$BIG_BYTES; s=${SORT_T:-0} ;;
  esac
  base=${name% (base)}
  bc=0
  if [ "$base" = "$name" ] && [ -n "${CPU["$name (base)"]:-}" ]; then
    bc=$(echo "${CPU["$name (base)"]}" | median)
  fi
  awk -v n="$name" -v t="$t" -v c="$c" -v b="$b" -v s="$s" -v m="${MEM[$name]}" -v k="$CORES" -v bc="$bc" \
    'BEGIN { printf "| `%s` | %.2f | %.2f | %.0f | %.0f | %.0f | %s | %s | %.0f |\n", n, t, c, b/1e6/t, b/1e6/c, b/1e6*k/c, (bc > 0 ? sprintf("%.3f", c/bc) : ""), (s > 0 ? sprintf("%.2fx", s/t) : ""), m/1024 }'
done
echo
echo "CPU s per round (in round order):"
for name in "${ORDER[@]}"; do
  echo "  $name: ${CPU[$name]}"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

if [ "$FIVE" = 1 ]; then
  FIVE_F=$WORK/big5g.txt
  for _ in $(seq 292); do cat "$SMALL"; done > "$FIVE_F"
  for f in "$BIG" "$FIVE_F"; do
    /usr/bin/time -f "dedupe $(stat -c %s "$f") bytes: %e s wall, %U+%S s CPU, peak %M KB" \
      "$BIN" dedupe -i "$f" > /dev/null
  done
  rm -f "$FIVE_F"
fi
[ "${KEEP:-0}" = 1 ] || rm -f "$SMALL" "$BIG" "$FRONT"
