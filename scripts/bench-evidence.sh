#!/usr/bin/env bash
# Benchmark of the evidence store and rung 3 (issue 10): CDX ingest lines/s on
# one core, store bytes per observation, and `normalize --rung protocol` on
# 1M URLs against a store of 1M redirects, 10% / 0% of the URLs with evidence,
# against rung 2 in the same run (interleaved rounds, median wall time, peak
# RSS from GNU time). Inputs are generated here, in $BENCH_DIR, never committed.
#
#   scripts/bench-evidence.sh [N] [ROUNDS]      (defaults: 1000000 lines, 3 rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
ROUNDS=${2:-3}
WORK=${BENCH_DIR:-/tmp/irinorm-evidence-bench}
mkdir -p "$WORK"
cargo build --release -q -p irinorm-cli
BIN=$PWD/target/release/irinorm

python3 - "$WORK" "$N" <<'PY'
import sys, os
work, n = sys.argv[1], int(sys.argv[2])
digest = lambda i: format(i * 2654435761 % (1 << 64), '032X')[:32]
# CDX, 11 fields: 80% 200, 20% 301 to the same path plus a slash.
with open(os.path.join(work, 'crawl.cdx'), 'w') as f:
    f.write(' CDX N b a m s k r M S V g\n')
    for i in range(n):
        host = f's{i % 2000}.example'
        url = f'http://{host}/section/page-{i}'
        t = f'2020{1 + i % 12:02d}{1 + i % 28:02d}120000'
        if i % 5 == 0:
            f.write(f'example,{host[:-8]})/section/page-{i} {t} {url} text/html 301 {digest(i)} {url}/ - 512 {i * 700} crawl.warc.gz\n')
        else:
            f.write(f'example,{host[:-8]})/section/page-{i} {t} {url} text/html 200 {digest(i)} - - 2048 {i * 700} crawl.warc.gz\n')
# 1M redirects (trailing slash, 301) on r*.example.
with open(os.path.join(work, 'redirects.tsv'), 'w') as f:
    for i in range(n):
        f.write(f'http://r{i % 5000}.example/d/{i}\t301\t/d/{i}/\t20200101000000\n')
# URLs: 10% redirect sources, 90% on hosts the store has never seen; and 0%.
with open(os.path.join(work, 'urls10.txt'), 'w') as f:
    for i in range(n):
        if i % 10 == 0:
            f.write(f'http://r{i % 5000}.example/d/{i}\n')
        else:
            f.write(f'http://u{i % 7000}.example/d/{i}?q={i % 13}\n')
with open(os.path.join(work, 'urls0.txt'), 'w') as f:
    for i in range(n):
        f.write(f'http://u{i % 7000}.example/d/{i}?q={i % 13}\n')
PY

t() { # wall seconds and peak RSS (KB) of a command
    /usr/bin/time -f '%e %M' "$@" 2> "$WORK/time.txt" > /dev/null || true
    tail -1 "$WORK/time.txt"
}

echo "## ingest (one process, one core)"
for r in $(seq "$ROUNDS"); do
    rm -f "$WORK/cdx.db"* "$WORK/red.db"*
    read -r s m < <(t taskset -c 0 "$BIN" evidence ingest -q --db "$WORK/cdx.db" "$WORK/crawl.cdx")
    bytes=$(stat -c %s "$WORK/cdx.db")
    echo "cdx round $r: $s s, $(python3 -c "print(round($N/$s))") lines/s, peak RSS $((m / 1024)) MB, store $bytes bytes, $(python3 -c "print(round($bytes/$N, 1))") bytes/observation"
done
read -r s m < <(t taskset -c 0 "$BIN" evidence ingest -q --db "$WORK/red.db" "$WORK/redirects.tsv")
echo "redirect log: $s s, $(python3 -c "print(round($N/$s))") lines/s, peak RSS $((m / 1024)) MB, store $(stat -c %s "$WORK/red.db") bytes"

echo "## normalize, -j 1, rung 2 vs rung 3 (store of $N redirects)"
for r in $(seq "$ROUNDS"); do
    for f in urls10 urls0; do
        read -r s2 m2 < <(t "$BIN" normalize -q -j 1 -i "$WORK/$f.txt")
        read -r s3 m3 < <(t "$BIN" normalize -q -j 1 --rung protocol --evidence "$WORK/red.db" -i "$WORK/$f.txt")
        echo "$f round $r: rung 2 $s2 s ($((m2 / 1024)) MB), rung 3 $s3 s ($((m3 / 1024)) MB), ratio $(python3 -c "print(round($s3/$s2, 2))")"
    done
done
"$BIN" normalize -q --rung protocol --evidence "$WORK/red.db" -i "$WORK/urls10.txt" | head -0
"$BIN" normalize --rung protocol --evidence "$WORK/red.db" http://r10.example/d/10 2>&1
