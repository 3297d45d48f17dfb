#!/usr/bin/env bash
# Probing benchmark (issue 15), against the local server of
# crates/irinorm-probe/examples/bench_server.rs on 127.0.0.1 only:
#   1. requests/s of `irinorm probe` at concurrency 64 and 256 (per-host limit
#      raised to the same, one host), robots.txt on, store written;
#   2. memory per in-flight request: peak RSS at concurrency 256 against 16 on
#      the same URLs, the server holding each request DELAY ms;
#   3. overhead per URL at concurrency 1 beside curl on the same server: one
#      curl process per URL, and one curl process for all URLs (keep-alive).
# Every command runs ROUNDS times, interleaved; the median wall time is kept.
#
#   scripts/bench-probe.sh [URLS] [ROUNDS]     (defaults: 20000 URLs, 3 rounds)
#
# Prints Markdown tables for BENCHMARKS.md. Needs the Rust toolchain, GNU time
# (/usr/bin/time) and curl.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20000}
ROUNDS=${2:-3}
PORT=${PORT:-18099}
DELAY=200
WORK=${BENCH_DIR:-/tmp/irinorm-probe-bench}
mkdir -p "$WORK"
cargo build --release -q -p irinorm-cli
cargo build --release -q -p irinorm-probe --example bench_server
BIN=$PWD/target/release/irinorm
SRV=$PWD/target/release/examples/bench_server

urls() { # count prefix
  for ((i = 0; i < $1; i++)); do echo "http://127.0.0.1:$PORT/$2/$i"; done
}

SRV_PID=
start_server() { # delay_ms
  rm -f "$WORK/fifo"; mkfifo "$WORK/fifo"
  "$SRV" "$PORT" "$1" < "$WORK/fifo" > "$WORK/server.out" &
  SRV_PID=$!
  exec 3> "$WORK/fifo"
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && return; sleep 0.1; done
  echo "server did not start" >&2; exit 1
}
stop_server() { exec 3>&-; wait "$SRV_PID"; cat "$WORK/server.out" >&2; }
trap 'exec 3>&- 2>/dev/null || true' EXIT

# wall seconds and peak RSS (KB) of a command, as "S KB"
measure() {
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" > /dev/null 2> "$WORK/stderr" || true
  cat "$WORK/time"
}
# a probe run must have probed every URL without failure
checked() {
  grep -q "failed 0," "$WORK/stderr" || { echo "probe run failed:" >&2; cat "$WORK/stderr" >&2; exit 1; }
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "$N URLs, $ROUNDS rounds, $(nproc) cores" >&2

# 1. Throughput.
start_server 0
declare -A T
for r in $(seq "$ROUNDS"); do
  for c in 64 256; do
    urls "$N" "r$r-c$c" > "$WORK/urls.txt"
    rm -f "$WORK/t.db"*
    read -r s kb < <(measure "$BIN" probe --loopback-only -c "$c" --per-host "$c" \
      -i "$WORK/urls.txt" --db "$WORK/t.db")
    checked
    T[$c]+="$s "; T[$c.kb]+="$kb "
  done
done
stop_server
echo
echo "| concurrency | URLs | median wall s | requests/s | peak RSS MB |"
echo "|---:|---:|---:|---:|---:|"
for c in 64 256; do
  s=$(echo "${T[$c]}" | tr ' ' '\n' | grep . | median)
  kb=$(echo "${T[$c.kb]}" | tr ' ' '\n' | grep . | median)
  echo "| $c | $N | $s | $(awk -v n="$N" -v s="$s" 'BEGIN{printf "%.0f", n/s}') | $(awk -v k="$kb" 'BEGIN{printf "%.1f", k/1024}') |"
done

# 2. Memory per in-flight request.
M=2048
start_server "$DELAY"
declare -A R
for r in $(seq "$ROUNDS"); do
  for c in 16 256; do
    urls "$M" "m$r-c$c" > "$WORK/urls.txt"
    rm -f "$WORK/m.db"*
    read -r s kb < <(measure "$BIN" probe --loopback-only -c "$c" --per-host "$c" \
      -i "$WORK/urls.txt" --db "$WORK/m.db")
    checked
    R[$c]+="$kb "
  done
done
stop_server
k16=$(echo "${R[16]}" | tr ' ' '\n' | grep . | median)
k256=$(echo "${R[256]}" | tr ' ' '\n' | grep . | median)
echo
echo "| in flight | URLs | server delay ms | peak RSS KB |"
echo "|---:|---:|---:|---:|"
echo "| 16 | $M | $DELAY | $k16 |"
echo "| 256 | $M | $DELAY | $k256 |"
echo "| per request | | | $(awk -v a="$k16" -v b="$k256" 'BEGIN{printf "%.1f", (b-a)/240}') |"

# 3. Overhead per URL beside curl (concurrency 1).
K=1000
start_server 0
declare -A C
for r in $(seq "$ROUNDS"); do
  urls "$K" "k$r-p" > "$WORK/urls.txt"
  rm -f "$WORK/k.db"*
  read -r s _ < <(measure "$BIN" probe --loopback-only -c 1 --per-host 1 \
    -i "$WORK/urls.txt" --db "$WORK/k.db")
  checked
  C[probe]+="$s "
  urls "$K" "k$r-c1" > "$WORK/urls.txt"
  read -r s _ < <(measure xargs -n 1 curl -s -o /dev/null -I < "$WORK/urls.txt")
  C[curl1]+="$s "
  urls "$K" "k$r-ck" > "$WORK/urls.txt"
  read -r s _ < <(measure xargs -n "$K" curl -s -I < "$WORK/urls.txt")
  C[curlk]+="$s "
done
stop_server
echo
echo "| command ($K URLs, one at a time) | median wall s | per URL us |"
echo "|---|---:|---:|"
for k in probe curl1 curlk; do
  case $k in
    probe) name='`irinorm probe -c 1 --per-host 1` (HEAD, store)' ;;
    curl1) name='`xargs -n 1 curl -s -o /dev/null -I` (a process per URL)' ;;
    curlk) name="\`xargs -n $K curl -s -I\` (one process, keep-alive)" ;;
  esac
  s=$(echo "${C[$k]}" | tr ' ' '\n' | grep . | median)
  echo "| $name | $s | $(awk -v s="$s" -v n="$K" 'BEGIN{printf "%.0f", s*1e6/n}') |"
done
