#!/usr/bin/env bash
# Seeds for the crawl-file fuzz targets (warc, cdx, cdxj) from the shared
# crawl evidence ($IRINORM_EVIDENCE or ../shared/evidence), written into the
# gitignored fuzz/corpus/<target>/. Each seed is the selector byte the target
# reads first, then a file (decompressed; files over 64 KiB are skipped).
set -euo pipefail
cd "$(dirname "$0")"
EV=${IRINORM_EVIDENCE:-../../shared/evidence}
[ -f "$EV/README.md" ] || { echo "no crawl evidence at $EV" >&2; exit 1; }
mkdir -p corpus/warc corpus/cdx corpus/cdxj
n=0
seed() { # target selector file
  local out="corpus/$1/$(basename "$3").$2"
  if [[ "$3" == *.gz ]]; then gzip -dc "$3" 2>/dev/null || true; else cat "$3"; fi >"$out.tmp"
  if [ "$(stat -c %s "$out.tmp")" -le 65536 ]; then
    { [ -n "$2" ] && printf "\\x$2"; cat "$out.tmp"; } >"$out"; n=$((n + 1))
  fi
  rm -f "$out.tmp"
}
for f in "$EV"/warcio/*.warc* "$EV"/pywb/warcs_*; do
  seed warc 00 "$f"; seed warc 01 "$f"; seed warc 03 "$f"
done
for f in "$EV"/pywb/warcs_*.arc*; do seed warc 02 "$f"; done
for f in "$EV"/pywb/cdx_* "$EV"/pywb/non-surt-cdx_* "$EV"/pywb/zipcdx_*; do seed cdx 00 "$f"; done
printf '\x01http://a.example/b\t301\t/b/\nhttp://a.example/c\t302\thttps://a.example/c\t20240101000000\n' >corpus/cdx/redirects
printf '\x02http://a.example/b\tsha1:OSSAPWJ23L56IYVRW3GFEAR4MCJMGPTB\n' >corpus/cdx/digests
for f in "$EV"/pywb/cdxj_*; do seed cdxj "" "$f"; done
echo "$n seeds (+2 TSV) in corpus/{warc,cdx,cdxj}"
