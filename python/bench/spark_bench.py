"""The Spark dedupe example's rows/s with irinorm's Arrow UDFs against the
same job with w3lib's canonicalize_url in a Python UDF (BENCHMARKS.md,
"Python"). One run each, local[2].

    target/py-venv/bin/python python/bench/spark_bench.py [--rows 500000]
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
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import load  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "spark_dedupe.py"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=500_000)
    a = ap.parse_args()
    urls = load()
    rows = (urls * (a.rows // len(urls) + 1))[: a.rows]
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "in.parquet"
        pq.write_table(pa.table({"url": rows, "id": list(range(len(rows)))}), src)
        env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
        for label, extra in (("irinorm (Arrow UDF)", []), ("w3lib (Python UDF)", ["--w3lib"])):
            t = time.perf_counter()
            r = subprocess.run(
                [sys.executable, str(EXAMPLE), str(src), str(Path(d) / f"out{len(extra)}.parquet"),
                 "--master", "local[2]", *extra],
                capture_output=True, text=True, env=env, check=True,
            )
            dt = time.perf_counter() - t
            summary = [l for l in r.stderr.splitlines() if l.startswith("read ")]
            print(f"{label:22s} {len(rows):,} rows: {dt:.1f} s with JVM start, {len(rows) / dt:,.0f} rows/s; {summary}")


if __name__ == "__main__":
    main()
