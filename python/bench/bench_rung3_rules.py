"""Rung 3 (``rung="protocol"``, ``evidence=``) and learned ``[[host-rule]]``
files from Python (BENCHMARKS.md, "Python"): single calls and Arrow
batches beside rung 2 and ``crawler`` alone, and the one-off cost of
loading the store and the rules. One run; CPU time of the process
(``time.process_time``), the fastest of interleaved rounds; ratios matter.

    target/py-venv/bin/python python/bench/bench_rung3_rules.py [--redirects 1000000]

The inputs are generated (never committed) in a temporary directory with
the CLI (``$IRINORM_CLI``, else target/release/irinorm, else
target/debug/irinorm), as scripts/bench-evidence.sh and the learning
benchmark build theirs:

- a store of N ``301`` trailing-slash redirects over 5,000 hosts
  (``irinorm evidence ingest``), and 1M URLs of which every tenth is a
  redirect source (``urls10``) or none is (``urls0``);
- a simulated crawl of 400 sites (``irinorm learn --simulate``), rules
  learned from epoch 1 (``irinorm learn``), applied to the URLs of epoch 2,
  every host of which has rules.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa

import irinorm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import load  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def cli() -> str:
    for c in (os.environ.get("IRINORM_CLI"), ROOT / "target/release/irinorm", ROOT / "target/debug/irinorm"):
        if c and Path(c).is_file():
            return str(c)
    sys.exit("no irinorm binary: cargo build -p irinorm-cli")


def per_call(fn, urls) -> float:
    t = time.process_time_ns()
    for u in urls:
        try:
            fn(u)
        except ValueError:
            pass
    return (time.process_time_ns() - t) / len(urls)


def batch(n, arr) -> tuple:
    """CPU ns per URL of normalize_many on a pyarrow array, best of 3, and
    its rejects."""
    best = None
    for _ in range(3):
        c = time.process_time()
        res, _ = irinorm._batch.run_many(n, arr, key=False)
        cpu = (time.process_time() - c) * 1e9 / len(arr)
        best = cpu if best is None else min(best, cpu)
    return best, res.null_count


def timed(f):
    c = time.process_time()
    x = f()
    return x, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--redirects", type=int, default=1_000_000)
    ap.add_argument("--urls", type=int, default=1_000_000)
    ap.add_argument("--single-sample", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    b = cli()
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        with open(d / "redirects.tsv", "w") as f:
            for i in range(a.redirects):
                f.write(f"http://r{i % 5000}.example/d/{i}\t301\t/d/{i}/\t20200101000000\n")
        t = time.perf_counter()
        subprocess.run([b, "evidence", "ingest", "-q", "--db", str(d / "red.db"), str(d / "redirects.tsv")], check=True)
        print(f"setup: store of {a.redirects:,} redirects ingested by {b} in {time.perf_counter() - t:.1f} s wall")
        urls10 = [f"http://r{i % 5000}.example/d/{i}" if i % 10 == 0 else f"http://u{i % 7000}.example/d/{i}?q={i % 13}" for i in range(a.urls)]
        urls0 = [f"http://u{i % 7000}.example/d/{i}?q={i % 13}" for i in range(a.urls)]
        for e in (1, 2):
            subprocess.run([b, "learn", "--simulate", "1", "--epoch", str(e), "--sites", "400", "-o", str(d / f"e{e}.cdx")], check=True)
        r = subprocess.run([b, "learn", "-i", str(d / "e1.cdx"), "-o", str(d / "rules.toml")], check=True, capture_output=True, text=True)
        print("setup:", r.stderr.strip().splitlines()[-1])
        e2 = [line.split(" ")[2] for line in open(d / "e2.cdx", encoding="utf-8") if not line.startswith(" CDX")]
        corpus = load()

        # One-off costs: loading the store's lookups, reading the rules.
        rung2 = irinorm.Normalizer()
        rung3, load3 = timed(lambda: irinorm.Normalizer(rung="protocol", evidence=d / "red.db"))
        crawler = irinorm.Normalizer(preset="crawler")
        learned, load_rules = timed(lambda: irinorm.Normalizer(preset="crawler", config=d / "rules.toml"))
        print(f"load: Normalizer(rung='protocol', evidence=<{a.redirects:,} redirects>) {load3:.2f} CPU s; "
              f"Normalizer(preset='crawler', config=<{(d / 'rules.toml').read_text().count('[[host-rule]]')} host rules, "
              f"{(d / 'rules.toml').stat().st_size:,} bytes>) {load_rules:.3f} CPU s")
        changed = sum(learned.normalize(u) != crawler.normalize(u) for u in e2[:20000])
        print(f"learned rules change {changed / min(20000, len(e2)):.0%} of epoch-2 URLs beyond crawler")

        from w3lib.url import canonicalize_url

        s = a.single_sample
        cases = {
            "rung 2, urls10": (rung2.normalize, urls10[:s]),
            "rung 3, urls10 (10% with evidence)": (rung3.normalize, urls10[:s]),
            "rung 3, urls0 (no evidence)": (rung3.normalize, urls0[:s]),
            "crawler, epoch 2": (crawler.normalize, e2[:s]),
            "crawler + learned, epoch 2": (learned.normalize, e2[:s]),
            "crawler, corpora": (crawler.normalize, corpus[:s]),
            "crawler + learned, corpora (no host with rules)": (learned.normalize, corpus[:s]),
            "w3lib.canonicalize_url, epoch 2": (canonicalize_url, e2[:s]),
            "w3lib.canonicalize_url, urls10": (canonicalize_url, urls10[:s]),
        }
        res = {}
        for r_ in range(a.rounds):
            for name, (fn, us) in cases.items():
                if r_ >= 2 and name.startswith("w3lib"):
                    continue
                ns = per_call(fn, us)
                res[name] = min(ns, res.get(name, ns))
        for name, ns in res.items():
            print(f"single  {name:50s} {ns:8.0f} ns/URL")
        w_e2, w_u = res["w3lib.canonicalize_url, epoch 2"], res["w3lib.canonicalize_url, urls10"]
        print(f"single  rung 3 / rung 2: {res['rung 3, urls10 (10% with evidence)'] / res['rung 2, urls10']:.2f}x (urls10), "
              f"{res['rung 3, urls0 (no evidence)'] / res['rung 2, urls10']:.2f}x (urls0); "
              f"w3lib / rung 3: {w_u / res['rung 3, urls10 (10% with evidence)']:.1f}x")
        print(f"single  learned / crawler: {res['crawler + learned, epoch 2'] / res['crawler, epoch 2']:.2f}x (epoch 2), "
              f"{res['crawler + learned, corpora (no host with rules)'] / res['crawler, corpora']:.2f}x (corpora); "
              f"w3lib / learned: {w_e2 / res['crawler + learned, epoch 2']:.1f}x")

        cores = os.cpu_count() or 1
        reps = max(1, a.urls // len(e2))
        bcases = {
            "rung 2, urls10": (rung2, pa.array(urls10), w_u),
            "rung 3, urls10": (rung3, pa.array(urls10), w_u),
            "rung 3, urls0": (rung3, pa.array(urls0), w_u),
            "crawler, epoch 2": (crawler, pa.array(e2 * reps), w_e2),
            "crawler + learned, epoch 2": (learned, pa.array(e2 * reps), w_e2),
        }
        for name, (n, arr, w) in bcases.items():
            ns, rej = batch(n, arr)
            print(f"batch   {name:28s} {len(arr):,} URLs: {ns:6.0f} CPU ns/URL = {cores / ns * 1e3:5.2f} M URLs/s on {cores} idle cores; "
                  f"{w / ns * cores:4.0f}x w3lib on one core ({rej:,} rejected)")
    print(f"load average during the run: {os.getloadavg()}")


if __name__ == "__main__":
    main()
