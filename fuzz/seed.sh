#!/usr/bin/env bash
# Seeds the fuzz corpora from the shared conformance vectors and URL corpora.
#
#   fuzz/seed.sh [VECTORS_DIR]
#
# VECTORS_DIR defaults to $IRINORM_VECTORS, else ../shared/vectors beside the
# checkout. Writes one file per input into fuzz/corpus/<target>/ (named by
# the SHA-1 of the content, as libFuzzer does, so re-running adds nothing
# twice). The corpus folders are gitignored: seeds are never committed.
#
# - parse:   every string field of every *.jsonl vector, plus up to
#            $SEED_LINES (default 3000) lines of each corpora/*.txt
# - resolve: "base NUL ref" for every resolve.jsonl case, and for the first
#            $SEED_LINES pairs of corpora/relative_urls_cc_10k.csv
# - mapping: the inputs and expected values of iri_to_uri.jsonl,
#            uri_to_iri.jsonl and normalize.jsonl, plus the parse seeds'
#            non-ASCII and percent-encoded lines
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
vectors="${1:-${IRINORM_VECTORS:-$here/../../shared/vectors}}"
lines="${SEED_LINES:-3000}"
if [[ ! -f "$vectors/README.md" ]]; then
    echo "seed.sh: no vectors at $vectors" >&2
    exit 1
fi

python3 - "$vectors" "$here/corpus" "$lines" <<'PY'
import hashlib, json, os, sys, glob

vectors, out, lines = sys.argv[1], sys.argv[2], int(sys.argv[3])
counts = {}

def put(target, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, hashlib.sha1(data).hexdigest())
    if not os.path.exists(p):
        with open(p, "wb") as f:
            f.write(data)
        counts[target] = counts.get(target, 0) + 1

def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            if k not in ("src", "note", "grammar", "rung", "form"):
                yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)

for path in sorted(glob.glob(os.path.join(vectors, "*.jsonl"))):
    name = os.path.basename(path)
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            case = json.loads(line)
            for s in strings(case):
                put("parse", s)
                if name in ("iri_to_uri.jsonl", "uri_to_iri.jsonl", "normalize.jsonl"):
                    put("mapping", s)
            if name == "resolve.jsonl":
                put("resolve", case["base"] + "\0" + case["ref"])

for path in sorted(glob.glob(os.path.join(vectors, "corpora", "*.txt"))):
    with open(path, encoding="utf-8", errors="replace") as f:
        for i, line in enumerate(f):
            if i >= lines:
                break
            s = line.rstrip("\n")
            put("parse", s)
            if "%" in s or not s.isascii():
                put("mapping", s)

csv = os.path.join(vectors, "corpora", "relative_urls_cc_10k.csv")
if os.path.exists(csv):
    with open(csv, encoding="utf-8", errors="replace") as f:
        next(f)
        for i, line in enumerate(f):
            if i >= lines:
                break
            base, _, ref = line.rstrip("\n").partition(",")
            put("resolve", base + "\0" + ref)

for t in ("parse", "resolve", "mapping"):
    print(f"seed.sh: {t}: {counts.get(t, 0)} new files in {os.path.join(out, t)}")
PY
