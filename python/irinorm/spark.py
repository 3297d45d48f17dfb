"""Spark column functions on Arrow-based execution (docs/python.md, "Spark").

Each function returns a ``pyspark.sql.Column``; Spark ships each batch of
rows to a Python worker as Arrow, irinorm processes the whole batch with
the GIL released on all of the worker's cores, and the result goes back as
Arrow: no Python object per row. On Spark >= 4.1 the functions are Arrow
UDFs (``pyspark.sql.functions.arrow_udf``, ``pyarrow.Array`` in and out);
on older Spark they are ``pandas_udf`` (Arrow to pandas and back).

The options are the CLI's (``rung``, ``form``, ``preset``, ``rules``,
``config``, ``base``...). Rejected rows are null; ``normalize_result``
gives the reason beside the value. Example (examples/spark_dedupe.py is a
whole job)::

    from irinorm import spark as irs
    df = df.withColumn("key", irs.key("url", preset="crawler"))
    df = df.dropDuplicates(["key"])
"""

from __future__ import annotations

from typing import Any, Callable

import pyarrow as pa
import pyarrow.compute  # noqa: F401  (pa.compute)
from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.types import BinaryType, DataType, StringType, StructField, StructType

from ._batch import run_many
from ._native import Normalizer

__all__ = ["normalize", "normalize_result", "key", "compare", "equivalent"]

RESULT_TYPE = StructType([StructField("value", StringType()), StructField("error", StringType())])


def _options(kw: dict) -> dict:
    # Normalizer's keywords, checked by it (an unknown one is a TypeError)
    # on the driver, not in a task. `config` as a path is read by each
    # worker, so it must exist there (or pass a mapping).
    Normalizer(**kw)
    return kw


def _udf(fn: Callable[..., pa.Array], rtype: DataType) -> Callable[..., Column]:
    if hasattr(F, "arrow_udf"):
        return F.arrow_udf(fn, rtype)  # type: ignore[attr-defined]

    import pandas as pd

    def via_pandas(*cols: "pd.Series") -> "pd.Series":
        arrays = [pa.Array.from_pandas(c) for c in cols]
        out = fn(*arrays)
        return out.to_pandas() if not isinstance(out, pa.StructArray) else pd.DataFrame(
            {f.name: out.field(i).to_pandas() for i, f in enumerate(out.type)}
        )

    return F.pandas_udf(via_pandas, rtype)  # type: ignore[call-overload]


def _as_string(a: pa.Array) -> pa.Array:
    if isinstance(a, pa.ChunkedArray):
        a = a.combine_chunks()
    if pa.types.is_string(a.type) or pa.types.is_large_string(a.type):
        return a
    return a.cast(pa.string())


def normalize(col: Any, **options: Any) -> Column:
    """The normal form of each URL of ``col`` (null for a null or rejected
    row). Options as ``irinorm.normalize``."""
    opts = _options(options)
    state: dict = {}

    def f(v: pa.Array) -> pa.Array:
        n = state.get("n") or state.setdefault("n", Normalizer(**opts))
        res, _ = run_many(n, _as_string(v), key=False)
        return res.cast(pa.string())

    return _udf(f, StringType())(col)


RESULT_KEY_TYPE = StructType(
    [StructField("value", StringType()), StructField("error", StringType()), StructField("key", BinaryType())]
)


def normalize_result(col: Any, with_key: bool = False, **options: Any) -> Column:
    """A struct ``{value, error}`` per row: the normal form, or null and the
    reason (``"kind: description in component at byte N"``). With
    ``with_key=True`` also ``key``, the 16-byte comparison key, in the same
    pass over the batch (what a dedupe job needs, without a second UDF)."""
    opts = _options(options)
    state: dict = {}

    def f(v: pa.Array) -> pa.Array:
        n = state.get("n") or state.setdefault("n", Normalizer(**opts))
        s = _as_string(v)
        res, err = run_many(n, s, key=False)
        arrays = [res.cast(pa.string()), err]
        names = ["value", "error"]
        if with_key:
            keys, _ = run_many(n, s, key=True)
            arrays.append(keys.cast(pa.binary()))
            names.append("key")
        return pa.StructArray.from_arrays(arrays, names=names)

    return _udf(f, RESULT_KEY_TYPE if with_key else RESULT_TYPE)(col)


def key(col: Any, **options: Any) -> Column:
    """The 16-byte comparison key of each URL (binary; null when rejected).
    Group or deduplicate on it."""
    opts = _options(options)
    opts.pop("form", None)
    state: dict = {}

    def f(v: pa.Array) -> pa.Array:
        n = state.get("n") or state.setdefault("n", Normalizer(**opts))
        keys, _ = run_many(n, _as_string(v), key=True)
        return keys.cast(pa.binary())

    return _udf(f, BinaryType())(col)


def compare(a: Any, b: Any, **options: Any) -> Column:
    """The lowest rung at which the two URLs of each row are equivalent
    (``string``, ``syntax``, ``scheme``), or null (different, or either is
    null or rejected)."""
    opts = _options(options)
    state: dict = {}

    def f(x: pa.Array, y: pa.Array) -> pa.Array:
        n = state.get("n") or state.setdefault("n", Normalizer(**opts))
        out = []
        for u, w in zip(_as_string(x).to_pylist(), _as_string(y).to_pylist()):
            try:
                out.append(None if u is None or w is None else n.compare(u, w))
            except ValueError:
                out.append(None)
        return pa.array(out, type=pa.string())

    return _udf(f, StringType())(a, b)


def equivalent(a: Any, b: Any, **options: Any) -> Column:
    """Whether the two URLs of each row have the same key (null when either
    is null or rejected). Computed from the keys of both columns."""
    opts = _options(options)
    opts.pop("form", None)
    state: dict = {}

    def f(x: pa.Array, y: pa.Array) -> pa.Array:
        n = state.get("n") or state.setdefault("n", Normalizer(**opts))
        kx, _ = run_many(n, _as_string(x), key=True)
        ky, _ = run_many(n, _as_string(y), key=True)
        return pa.compute.equal(kx, ky)

    from pyspark.sql.types import BooleanType

    return _udf(f, BooleanType())(a, b)
