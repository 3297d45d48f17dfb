"""normalize_many / key_many: lists and pyarrow arrays, nulls and rejects,
agreement with single calls, input = output + rejects."""

from __future__ import annotations

import pyarrow as pa
import pytest

import irinorm
from conftest import corpus

MIXED = ["HTTP://A.example:80/", "http://a:x/", None, "http://résumé.example/é", "", "http://[::1/", "mailto:A@B.EXAMPLE"]


def _single(u, **kw):
    if u is None:
        return None, None
    try:
        return irinorm.normalize(u, **kw), None
    except irinorm.ParseError as e:
        return None, str(e)


def test_list_matches_single_calls() -> None:
    res, err = irinorm.normalize_many(MIXED)
    assert len(res) == len(err) == len(MIXED)
    assert list(zip(res, err)) == [_single(u) for u in MIXED]
    assert err[1].startswith("bad-port:")
    assert res[2] is None and err[2] is None  # a null input is no reject


def test_list_bytes_and_types() -> None:
    res, err = irinorm.normalize_many([b"HTTP://A/", "HTTP://B/", b"http://a/\xff"])
    assert res[:2] == [b"http://a/", "http://b/"] and res[2] is None
    assert err[2].startswith("invalid-utf8:")
    with pytest.raises(TypeError):
        irinorm.normalize_many(["http://a/", 3])


@pytest.mark.parametrize("ty", [pa.string(), pa.large_string()])
def test_arrow_in_arrow_out(ty) -> None:
    arr = pa.array(MIXED * 3, type=ty)
    for a in (arr, arr.slice(2), arr.slice(5, 9)):
        res, err = irinorm.normalize_many(a)
        assert isinstance(res, pa.Array) and res.type == ty and err.type == pa.string()
        want = [_single(u) for u in a.to_pylist()]
        assert list(zip(res.to_pylist(), err.to_pylist())) == want
        res.validate(full=True)
        err.validate(full=True)


def test_arrow_binary_and_chunked() -> None:
    arr = pa.array([b"HTTP://A/", None, b"http://a:x/"], type=pa.binary())
    res, err = irinorm.normalize_many(arr)
    assert res.type == pa.binary()
    assert res.to_pylist() == [b"http://a/", None, None]
    ch = pa.chunked_array([pa.array(["HTTP://A/"]), pa.array(["http://a:x/", "http://B"])])
    res, err = irinorm.normalize_many(ch, preset="crawler")
    assert isinstance(res, pa.ChunkedArray)
    assert res.to_pylist() == ["http://a/", None, "http://b/"]
    with pytest.raises(TypeError):
        irinorm.normalize_many(pa.array([1, 2]))


def test_key_many() -> None:
    keys, err = irinorm.key_many(MIXED)
    for u, k, e in zip(MIXED, keys, err):
        if u is None:
            assert k is None and e is None
        elif e is None:
            assert k == irinorm.key(u)
        else:
            assert k is None
    ak, aerr = irinorm.key_many(pa.array(MIXED))
    assert ak.type == pa.binary(16)
    assert ak.to_pylist() == keys and aerr.to_pylist() == err


def test_many_chunks_order_kept() -> None:
    # Many units of parallel work (1,024 entries for texts, 8,192 for keys
    # and lists), placed in order by whichever thread finishes them.
    urls = [f"HTTP://h{i % 97}.example:80/{i}/./x" if i % 13 else f"http://h:{i}x/" for i in range(40_000)]
    res, err = irinorm.normalize_many(pa.array(urls))
    r, e = res.to_pylist(), err.to_pylist()
    for i in (0, 1, 13, 8191, 8192, 8193, 16384, 39_999):
        assert (r[i], e[i]) == _single(urls[i])
    # Every input is either an output or a reject.
    assert sum(x is not None for x in r) + sum(x is not None for x in e) == len(urls)


def test_corpus_agrees_with_single_calls() -> None:
    urls = corpus("kasztp.txt")[:5000]
    res, err = irinorm.normalize_many(pa.array(urls), preset="crawler")
    n = irinorm.Normalizer(preset="crawler")
    for u, r, e in zip(urls, res.to_pylist(), err.to_pylist()):
        try:
            assert (r, e) == (n.normalize(u), None)
        except irinorm.ParseError as x:
            assert (r, e) == (None, str(x))


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=300)
@given(
    st.integers(0, 40), st.integers(0, 40), st.binary(max_size=200), st.booleans(),
    st.binary(max_size=200), st.one_of(st.none(), st.binary(max_size=8)), st.booleans(),
)
def test_arrow_buffers_never_crash(n, offset, offsets, large, data, validity, key) -> None:
    # Buffers that are not a valid Arrow array (short, decreasing or
    # out-of-range offsets, bytes that are not UTF-8) give a ValueError or
    # nulls, never a crash or a panic.
    nz = irinorm.Normalizer()
    try:
        out = nz._arrow(n, offset, offsets, large, data, validity, key)
    except ValueError:
        return
    assert out[2] <= n


def test_arrow_results_longer_than_the_bound() -> None:
    # repair percent-encodes spaces (docs/repair.md): results longer than
    # the bound the values buffer is sized by (input bytes + 1 per entry +
    # 2 per non-ASCII byte), so the batch starts again into growing
    # buffers; the results are the single calls' all the same.
    urls = [f"http://a.example/{i} a b c d e f g h i j k l" for i in range(3000)] + ["http://a:x/", None]
    res, err = irinorm.normalize_many(pa.array(urls), repair=True)
    res.validate(full=True)
    assert res.to_pylist()[0] == "http://a.example/0%20a%20b%20c%20d%20e%20f%20g%20h%20i%20j%20k%20l"
    for u, r, e in zip(urls, res.to_pylist(), err.to_pylist()):
        assert (r, e) == _single(u, repair=True)


def test_list_gives_back_normal_inputs() -> None:
    # An already-normal entry comes back as the same object, as from a
    # single call; others are new objects of the input's type.
    urls = ["http://a.example/", "HTTP://A.example/", b"http://b.example/", b"HTTP://B/"]
    res, _ = irinorm.normalize_many(urls)
    assert res[0] is urls[0] and res[2] is urls[2]
    assert res[1] == "http://a.example/" and res[3] == b"http://b/"


@pytest.mark.parametrize("ty", [pa.string(), pa.large_string()])
def test_arrow_windows_agree_with_lists(ty) -> None:
    # More entries than one window of the native side (2**17 entries,
    # copied a window at a time), sliced so that neither the offsets nor the
    # validity bitmap start at 0, with nulls and rejects across window
    # boundaries: the list path (its own code) gives the same results.
    base = [f"HTTP://h{i % 89}.example:80/{i}/./x" if i % 11 else f"http://h:{i}x/" for i in range(300_000)]
    urls = [None if i % 9973 == 0 else u for i, u in enumerate(base)]
    arr = pa.array(urls, type=ty).slice(3, 290_001)
    want_r, want_e = irinorm.normalize_many(arr.to_pylist())
    res, err = irinorm.normalize_many(arr)
    res.validate(full=True)
    assert res.type == ty and res.to_pylist() == want_r and err.to_pylist() == want_e
    keys, kerr = irinorm.key_many(arr)
    want_k, want_ke = irinorm.key_many(arr.to_pylist())
    assert keys.to_pylist() == want_k and kerr.to_pylist() == want_ke


@settings(max_examples=200)
@given(
    st.integers(0, 40), st.integers(0, 40), st.binary(max_size=200), st.booleans(),
    st.binary(max_size=200), st.one_of(st.none(), st.binary(max_size=8)), st.booleans(),
)
def test_arrow_windows_never_crash(n, offset, offsets, large, data, validity, key) -> None:
    # The same through pyarrow Buffers, which the native side reads a
    # window at a time (Buffer.slice().to_pybytes()): a ValueError or
    # nulls, never a crash, never a slice past a buffer's end.
    nz = irinorm.Normalizer()
    v = None if validity is None else pa.py_buffer(validity)
    try:
        out = nz._arrow(n, offset, pa.py_buffer(offsets), large, pa.py_buffer(data), v, key)
    except ValueError:
        return
    assert out[2] <= n


# Round 20 (docs/testing.md): a `str` may hold lone surrogates (a
# `\ud800` literal, `surrogateescape` decoding of bytes that are not
# UTF-8). They have no UTF-8 form (RFC 3629 §3), so such an entry is
# rejected as its bytes would be, `invalid-utf8` at the surrogate's byte
# offset, for that entry alone: before, Python's UnicodeEncodeError failed
# the whole batch.
SURROGATES = ["http://a.example/\ud800", "HTTP://B.example/", None, "\udfff", "\u00e9\udc80x", ""]


@pytest.mark.parametrize("fn", [irinorm.normalize_many, irinorm.key_many])
def test_lone_surrogates_are_rejected_per_entry(fn) -> None:
    res, err = fn(SURROGATES)
    assert len(res) == len(err) == len(SURROGATES)
    kinds = [e.split(":")[0] if e else None for e in err]
    assert kinds == ["invalid-utf8", None, None, "invalid-utf8", "invalid-utf8", None]
    assert [int(e.rsplit(" ", 1)[1]) for e in err if e] == [17, 0, 2]
    outputs = sum(r is not None for r in res)
    nulls = SURROGATES.count(None)
    assert outputs + sum(e is not None for e in err) + nulls == len(SURROGATES)
    single = irinorm.normalize if fn is irinorm.normalize_many else irinorm.key
    for u, r, e in zip(SURROGATES, res, err):
        if u is None:
            continue
        try:
            assert (r, e) == (single(u), None)
        except irinorm.ParseError as x:
            assert (r, e) == (None, str(x))
