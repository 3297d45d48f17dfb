"""irinorm.spark in a local-mode SparkSession (needs Java 17+; .ci/run
installs a JRE when `java` is missing)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import irinorm

pyspark = pytest.importorskip("pyspark")

if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    if os.environ.get("CI", "").lower() == "true":
        raise RuntimeError("java not found under CI=true (.ci/run installs openjdk-17-jre-headless)")
    pytest.skip("java not found", allow_module_level=True)

from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

from irinorm import spark as irs  # noqa: E402

URLS = [
    "http://example.com/a?utm_source=x",
    "HTTP://EXAMPLE.COM:80/a",
    "http://example.com/a#top",
    "http://a:x/",
    None,
    "http://résumé.example/é",
    "http://xn--rsum-bpad.example/%C3%A9",
]


@pytest.fixture(scope="module")
def spark():
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    s = (
        SparkSession.builder.master("local[2]")
        .appName("irinorm-test")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    yield s
    s.stop()


def test_column_functions(spark) -> None:
    df = spark.createDataFrame([(u, "http://example.com/a") for u in URLS], "url string, other string")
    rows = df.select(
        irs.normalize("url", preset="crawler").alias("n"),
        irs.normalize_result(F.col("url")).alias("r"),
        irs.normalize_result("url", with_key=True, preset="crawler").alias("rk"),
        irs.key("url", preset="crawler").alias("k"),
        irs.compare("url", "other").alias("c"),
        irs.equivalent("url", "other", preset="crawler").alias("e"),
    ).collect()
    n = irinorm.Normalizer(preset="crawler")
    for u, row in zip(URLS, rows):
        if u is None:
            assert row.n is None and row.k is None and row.c is None
            continue
        try:
            want = n.normalize(u)
        except irinorm.ParseError as e:
            assert row.n is None and row.k is None
            assert row.r.value is None and row.r.error == str(e)
            assert row.rk.value is None and row.rk.key is None and row.rk.error == str(e)
            continue
        assert row.n == want
        assert bytes(row.k) == n.key(u)
        assert row.rk.value == want and bytes(row.rk.key) == n.key(u) and row.rk.error is None
        assert row.r.value == irinorm.normalize(u) and row.r.error is None
        assert row.c == irinorm.compare(u, "http://example.com/a")
        assert row.e == n.equivalent(u, "http://example.com/a")
    with pytest.raises(ValueError):
        irs.normalize("url", preset="nope")
    with pytest.raises(TypeError):
        irs.normalize("url", bogus=1)


def test_dedupe_example(tmp_path: Path) -> None:
    urls = (URLS * 50)[:-3]
    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({"url": urls, "id": list(range(len(urls)))}), src)
    out = tmp_path / "out.parquet"
    ex = Path(__file__).resolve().parents[1] / "examples" / "spark_dedupe.py"
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    r = subprocess.run(
        [sys.executable, str(ex), str(src), str(out), "--master", "local[2]"],
        capture_output=True, text=True, env=env, check=False,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    got = pq.read_table(out).to_pydict()
    n = irinorm.Normalizer(preset="crawler")
    keys = set()
    for u in urls:
        try:
            if u is not None:
                keys.add(n.key(u))
        except irinorm.ParseError:
            pass
    # One row per distinct key, each with its normal form.
    assert len(got["url"]) == len(keys) == 2
    assert sorted(got["url_normal"]) == sorted({n.normalize(u) for u in urls if u and u != "http://a:x/"})
    rej = pq.read_table(str(out) + ".rejects").to_pydict()
    assert set(rej["url"]) == {"http://a:x/"} and rej["error"][0].startswith("bad-port:")
    assert "rejected" in r.stderr
