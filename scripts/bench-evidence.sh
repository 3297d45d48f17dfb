#!/usr/bin/env bash
# Benchmark of the evidence store and rung 3 (issue 10): CDX ingest lines/s on
# one core, store bytes per observation, and `normalize --rung protocol` on
# 1M URLs against a store of 1M redirects, 10% / 0% of the URLs with evidence,
# against rung 2 in the same run (interleaved rounds, median wall time, peak
# RSS from GNU time; CPU seconds, and perf stat task-clock when perf is
# there: on a shared machine wall time measures the neighbours). Inputs are
# generated here, in $BENCH_DIR, never committed.
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
# A WARC of responses with 2-30 KB HTML bodies, one gzip member per record
# (WARC 1.1 Annex D.2), 1 in 5 a redirect: ingest MB/s against gunzip alone.
import gzip, random
rnd = random.Random(1)
words = [w * k for w in ('lorem', 'ipsum', 'dolor', 'sit', 'amet', 'crawl', 'page') for k in (1, 2, 3)]
with open(os.path.join(work, 'bench.warc.gz'), 'wb') as f:
    for i in range(max(n // 200, 10)):
        url = f'http://w{i % 300}.example/p/{i}'
        if i % 5 == 0:
            head = f'HTTP/1.1 301 Moved Permanently\r\nLocation: {url}/\r\nContent-Length: 0\r\n\r\n'
            body = ''
        else:
            body = '<html><body>' + ' '.join(rnd.choice(words) for _ in range(rnd.randint(400, 6000))) + '</body></html>'
            head = f'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {len(body)}\r\n\r\n'
        block = (head + body).encode()
        rec = (f'WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\n'
               f'WARC-Date: 2020-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:{i:08d}-0000-0000-0000-000000000000>\r\n'
               f'Content-Type: application/http; msgtype=response\r\n'
               f'WARC-Payload-Digest: sha1:{digest(i)}\r\nContent-Length: {len(block)}\r\n\r\n').encode() + block + b'\r\n\r\n'
        f.write(gzip.compress(rec, 6))
# One URL: the fixed cost of a run (opening the store, mapping the file).
with open(os.path.join(work, 'one.txt'), 'w') as f:
    f.write('http://r10.example/d/10\n')
PY

t() { # wall seconds, CPU seconds (user + sys) and peak RSS (KB) of a command
    /usr/bin/time -f '%e %U %S %M' "$@" 2> "$WORK/time.txt" > /dev/null || true
    tail -1 "$WORK/time.txt" | awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}'
}
ratio() { python3 -c "print(round($1 / max($2, 0.005), 2))"; }

echo "## load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "## ingest (one process, one core; CPU seconds = user + sys)"
for r in $(seq "$ROUNDS"); do
    rm -f "$WORK/cdx.db"* "$WORK/red.db"*
    read -r s c m < <(t taskset -c 0 "$BIN" evidence ingest -q --db "$WORK/cdx.db" "$WORK/crawl.cdx")
    bytes=$(stat -c %s "$WORK/cdx.db")
    echo "cdx round $r: $s s wall, $c CPU s, $(python3 -c "print(round($N/$c))") lines per CPU s, peak RSS $((m / 1024)) MB, store $bytes bytes, $(python3 -c "print(round($bytes/$N, 1))") bytes/observation"
done
read -r s c m < <(t taskset -c 0 "$BIN" evidence ingest -q --db "$WORK/red.db" "$WORK/redirects.tsv")
echo "redirect log: $s s wall, $c CPU s, $(python3 -c "print(round($N/$c))") lines per CPU s, peak RSS $((m / 1024)) MB, store $(stat -c %s "$WORK/red.db") bytes"

echo "## WARC ingest against gunzip alone (GNU gzip -dc; one core, CPU seconds)"
for r in $(seq "$ROUNDS"); do
    rm -f "$WORK/warc.db"*
    read -r s1 c1 m1 < <(t taskset -c 0 gzip -dc "$WORK/bench.warc.gz")
    read -r s2 c2 m2 < <(t taskset -c 0 "$BIN" evidence ingest -q --db "$WORK/warc.db" "$WORK/bench.warc.gz")
    mb=$(gzip -dc "$WORK/bench.warc.gz" | wc -c)
    echo "warc round $r: $((mb / 1000000)) MB: gunzip $c1 CPU s, ingest $c2 CPU s ($(python3 -c "print(round($mb / 1e6 / max($c2, 0.005)))") MB per CPU s, $((m2 / 1024)) MB peak), ratio $(ratio "$c2" "$c1")"
done
for f in ../shared/evidence/pywb/warcs_iana.warc.gz; do
    [ -f "$f" ] || continue
    rm -f "$WORK/iana.db"*
    read -r s1 c1 m1 < <(t taskset -c 0 gzip -dc "$f")
    read -r s2 c2 m2 < <(t taskset -c 0 "$BIN" evidence ingest -q --db "$WORK/iana.db" "$f")
    echo "$f: gunzip $c1 CPU s, ingest $c2 CPU s (too small to time with GNU time's 10 ms)"
done

echo "## first rung-3 run after the ingest: loads the store, writes the lookup file"
read -r s c m < <(t "$BIN" normalize -q -j 1 --rung protocol --evidence "$WORK/red.db" -i "$WORK/one.txt")
echo "1 URL: $s s wall, $c CPU s, peak RSS $((m / 1024)) MB; lookup file $(stat -c %s "$WORK/red.db.lookup") bytes"

echo "## normalize, -j 1, rung 2 vs rung 3 (store of $N redirects, lookup file mapped)"
echo "## load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
    for f in urls10 urls0 one; do
        read -r s2 c2 m2 < <(t "$BIN" normalize -q -j 1 -i "$WORK/$f.txt")
        read -r s3 c3 m3 < <(t "$BIN" normalize -q -j 1 --rung protocol --evidence "$WORK/red.db" -i "$WORK/$f.txt")
        echo "$f round $r: rung 2 $c2 CPU s ($s2 wall, $((m2 / 1024)) MB), rung 3 $c3 CPU s ($s3 wall, $((m3 / 1024)) MB), CPU ratio $(ratio "$c3" "$c2")"
    done
done
if command -v perf > /dev/null; then
    echo "## the same with perf stat (task-clock ms, mean of $ROUNDS runs each)"
    for f in urls10 urls0; do
        r2=$(perf stat -x, -e task-clock -r "$ROUNDS" "$BIN" normalize -q -j 1 -i "$WORK/$f.txt" 2>&1 > /dev/null | awk -F, '/task-clock/ {print $1}')
        r3=$(perf stat -x, -e task-clock -r "$ROUNDS" "$BIN" normalize -q -j 1 --rung protocol --evidence "$WORK/red.db" -i "$WORK/$f.txt" 2>&1 > /dev/null | awk -F, '/task-clock/ {print $1}')
        echo "$f: rung 2 $r2 ms, rung 3 $r3 ms, ratio $(ratio "$r3" "$r2")"
    done
fi
echo "## load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$BIN" normalize --rung protocol --evidence "$WORK/red.db" http://r10.example/d/10 2>&1
