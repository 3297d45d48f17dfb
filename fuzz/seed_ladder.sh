#!/usr/bin/env bash
# Seeds the corpora of the ladder fuzz targets (normalize_*) from the shared
# vectors and URL corpora, plus shapes that break normalizers.
#
#   fuzz/seed_ladder.sh [VECTORS_DIR]
#
# Each seed is one option-selector byte (see fuzz_targets/ladder_check.rs)
# followed by a reference. Files are named by their SHA-1 (as libFuzzer
# does) under fuzz/corpus/normalize_*/, which is gitignored.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
vectors="${1:-${IRINORM_VECTORS:-$here/../../shared/vectors}}"
if [[ ! -f "$vectors/README.md" ]]; then
    echo "seed_ladder.sh: no vectors at $vectors" >&2
    exit 1
fi

python3 - "$vectors" "$here/corpus" <<'PY'
import glob, hashlib, json, os, sys

vectors, out = sys.argv[1], sys.argv[2]
inputs = set()
for name in ("normalize.jsonl", "equivalent.jsonl", "iri_to_uri.jsonl",
             "uri_to_iri.jsonl", "parse.jsonl"):
    with open(os.path.join(vectors, name), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                case = json.loads(line)
                for k in ("input", "a", "b", "expected"):
                    if isinstance(case.get(k), str):
                        inputs.add(case[k])
for path in sorted(glob.glob(os.path.join(vectors, "corpora", "*.txt"))):
    with open(path, encoding="utf-8", errors="replace") as f:
        for i, line in enumerate(f):
            if i >= 300:
                break
            inputs.add(line.rstrip("\n"))
inputs.update([
    "a:/.//b", "./a:b", "../../a/./b/..", "zz:foo/../bar", "http://a:",
    "HTTP://A:080", "http://[::FFFF:192.0.2.1]", "http://[fe80::1%25Eth0]/",
    "file://localhost:/p", "file://%6Cocalhost/p",
    "mailto:A@Example.COM?Subject=Hi", "mailto:a@r%C3%A9sum%C3%A9.example",
    "urn:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6?+r?=q#f",
    "tel:+1-201-555-0123;Ext=1-2", "data:Text/Plain;Charset=UTF-8;BASE64,SGk=",
    "http://r%C3%A9sum%C3%A9.example/%7euser/./a/../b?%7e#%7e",
    "http://xn--rsum-bpad.example./", "http://%C3%A9%2C.com/",
    "http://Bücher.DE/?q=%EE%80%80#%E2%80%AE", "http://a_b.com/", "//[::%25%41]",
])
count = 0
for target in ("normalize_string", "normalize_syntax_uri", "normalize_syntax_iri",
               "normalize_scheme_uri", "normalize_scheme_iri"):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    for k, s in enumerate(sorted(inputs)):
        data = bytes([(k * 37) % 256]) + s.encode("utf-8")
        p = os.path.join(d, hashlib.sha1(data).hexdigest())
        if not os.path.exists(p):
            with open(p, "wb") as f:
                f.write(data)
            count += 1
print(f"seed_ladder.sh: {len(inputs)} references, {count} new files")
PY
