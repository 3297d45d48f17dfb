"""Batches: ``normalize_many`` and ``key_many`` over a list or a pyarrow
array, with the GIL released and all cores working (docs/python.md,
"Batches").

Arrow arrays go to the native module as their buffers (validity bitmap,
offsets, data) and come back the same way: no Python object per URL.
"""

from __future__ import annotations

from typing import Any, Tuple

from ._native import Normalizer

__all__ = ["normalize_many", "key_many", "run_many"]


def _is_arrow(obj: Any) -> bool:
    mod = type(obj).__module__ or ""
    return mod.startswith("pyarrow")


def _arrow(n: Normalizer, arr: Any, key: bool) -> Tuple[Any, Any]:
    import pyarrow as pa

    if isinstance(arr, pa.ChunkedArray):
        parts = [_arrow(n, c, key) for c in arr.chunks]
        if key:
            out_type = pa.binary(16)
        else:
            out_type = parts[0][0].type if parts else _out_type(arr.type)
        return (
            pa.chunked_array([p[0] for p in parts], type=out_type),
            pa.chunked_array([p[1] for p in parts], type=pa.string()),
        )
    t = arr.type
    if pa.types.is_string(t) or pa.types.is_binary(t):
        large = False
    elif pa.types.is_large_string(t) or pa.types.is_large_binary(t):
        large = True
    else:
        raise TypeError(f"expected a pyarrow string or binary array, not {t}")
    validity_buf, offsets_buf, data_buf = arr.buffers()[:3]
    # The buffers themselves: the native side reads them a window at a time.
    validity = validity_buf if validity_buf is not None and arr.null_count else None
    data = data_buf if data_buf is not None else b""
    large_out, bits, nulls, offs, out, used, err = n._arrow(
        len(arr), arr.offset, offsets_buf, large, data, validity, key
    )
    # The values were written in place into a buffer sized by a bound of
    # them: the array holds the used part.
    values = pa.py_buffer(out).slice(0, used)
    if key:
        result = pa.Array.from_buffers(
            pa.binary(16), len(arr), [pa.py_buffer(bits), values], null_count=nulls
        )
    else:
        if pa.types.is_binary(t) or pa.types.is_large_binary(t):
            ty = pa.large_binary() if large_out else pa.binary()
        else:
            ty = pa.large_string() if large_out else pa.string()
        result = pa.Array.from_buffers(
            ty,
            len(arr),
            [pa.py_buffer(bits), pa.py_buffer(offs), values],
            null_count=nulls,
        )
    eb, en, eo, ed, el = err
    errors = pa.Array.from_buffers(
        pa.large_string() if el else pa.string(),
        len(arr),
        [pa.py_buffer(eb), pa.py_buffer(eo), pa.py_buffer(ed)],
        null_count=en,
    )
    if el:
        errors = errors.cast(pa.string())
    return result, errors


def _out_type(t: Any) -> Any:
    import pyarrow as pa

    if pa.types.is_large_string(t):
        return pa.large_string()
    if pa.types.is_binary(t):
        return pa.binary()
    if pa.types.is_large_binary(t):
        return pa.large_binary()
    return pa.string()


def run_many(n: Normalizer, urls: Any, key: bool) -> Tuple[Any, Any]:
    """``normalize_many``/``key_many`` with a ready ``Normalizer``."""
    if _is_arrow(urls):
        return _arrow(n, urls, key)
    if key:
        return n._key_list(urls)
    return n._normalize_list(urls)


def normalize_many(urls: Any, *args: Any, **options: Any) -> Tuple[Any, Any]:
    """Normalizes every entry of ``urls``: ``(results, errors)``.

    ``urls`` is a sequence of ``str``/``bytes``/``None`` (results are lists)
    or a ``pyarrow`` string/binary array or chunked array (results are
    arrays of the same kind). A rejected entry is ``None``/null in
    ``results`` and its reason (``"kind: description in component at byte
    N"``, as the CLI reports rejects) is at the same index of ``errors``;
    ``errors`` is null everywhere else, including for null inputs.

    The options are ``normalize``'s (``rung``, ``form``, ``preset``,
    ``rules``, ``config``, ``base``, then keyword-only ``ignore_fragment``,
    ``nfc``, ``nfkc``, ``max_len``, ``repair``, ``evidence``,
    ``redirects``, ``min_host_support``), parsed by the native module as
    for every other entry point.

    >>> normalize_many(["HTTP://A.example:80/", "http://a:x/", None])
    (['http://a.example/', None, None], [None, 'bad-port: port is not all digits in port at byte 9', None])
    """
    return run_many(Normalizer._for("normalize_many", True, args, options), urls, key=False)


def key_many(urls: Any, *args: Any, **options: Any) -> Tuple[Any, Any]:
    """The 16-byte comparison key of every entry: ``(keys, errors)``; keys
    are ``bytes`` (list input) or a ``pyarrow.binary(16)`` array. The
    options are ``key``'s (no ``form``: keys are always in ``uri`` form).

    >>> keys, errors = key_many(["http://a.example", "HTTP://A.EXAMPLE:80/"])
    >>> keys[0] == keys[1], errors
    (True, [None, None])
    """
    return run_many(Normalizer._for("key_many", False, args, options), urls, key=True)
