"""Deduplicates the URL column of a Parquet file with Spark and irinorm.

    python examples/spark_dedupe.py IN.parquet OUT.parquet [--column url]
        [--preset crawler] [--rung scheme] [--master local[*]] [--w3lib]

Rows whose URLs have the same comparison key (the rung and preset's key,
docs/ladder.md) are one; the first row of each key in Spark's order is
kept, with the key's normal form in a column ``<column>_normal``. Rows
whose URL irinorm rejects are kept apart: they are written to
``OUT.parquet.rejects`` with the reason, never dropped silently (input =
output + duplicates + rejects, printed at the end).

``--w3lib`` runs the same job with w3lib's ``canonicalize_url`` in a plain
Python UDF instead, for the comparison in BENCHMARKS.md ("Python").
"""

from __future__ import annotations

import argparse
import sys
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--column", default="url")
    ap.add_argument("--preset", default="crawler")
    ap.add_argument("--rung", default=None)
    ap.add_argument("--master", default="local[*]")
    ap.add_argument("--w3lib", action="store_true", help="dedupe on w3lib.url.canonicalize_url instead")
    a = ap.parse_args(argv)

    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    spark = (
        SparkSession.builder.master(a.master)
        .appName("irinorm-dedupe")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    t0 = time.perf_counter()
    df = spark.read.parquet(a.input)
    col = a.column
    if a.w3lib:
        from pyspark.sql.types import StringType

        def canon(u):
            from w3lib.url import canonicalize_url

            try:
                return None if u is None else canonicalize_url(u)
            except Exception:  # w3lib raises on some inputs
                return None

        norm = F.udf(canon, StringType())(F.col(col))
        withk = df.withColumn("_r", F.struct(norm.alias("value"), F.lit(None).cast("string").alias("error")))
        withk = withk.withColumn("_key", F.col("_r.value"))
    else:
        from irinorm import spark as irs

        opts = {"preset": a.preset}
        if a.rung:
            opts["rung"] = a.rung
        # One Arrow UDF gives the normal form, the reject reason and the key.
        withk = df.withColumn("_r", irs.normalize_result(F.col(col), with_key=True, **opts))
        withk = withk.withColumn("_key", F.col("_r.key"))
    withk = withk.cache()
    good = withk.where(F.col("_r.value").isNotNull())
    bad = withk.where(F.col("_r.value").isNull() & F.col(col).isNotNull())
    out = good.dropDuplicates(["_key"]).withColumn(f"{col}_normal", F.col("_r.value")).drop("_r", "_key")
    out.write.mode("overwrite").parquet(a.output)
    bad.select(col, F.col("_r.error").alias("error")).write.mode("overwrite").parquet(a.output + ".rejects")
    n_in = withk.count()
    n_null = withk.where(F.col(col).isNull()).count()
    n_out = spark.read.parquet(a.output).count()
    n_rej = spark.read.parquet(a.output + ".rejects").count()
    dt = time.perf_counter() - t0
    print(
        f"read {n_in}, written {n_out}, duplicates {n_in - n_null - n_out - n_rej}, "
        f"rejected {n_rej}, null {n_null}; {dt:.1f} s, {n_in / dt:,.0f} rows/s",
        file=sys.stderr,
    )
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
