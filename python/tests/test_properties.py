"""Hypothesis properties: idempotence of every rung/preset, keys agree with
equivalence, batches agree with single calls, and the CLI agrees with the
Python API."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import irinorm
from conftest import run_cli

# URL-shaped text: a scheme, an optional authority, a path with dot
# segments, percent-encodings (some malformed), query and fragment, and
# some non-ASCII, so that the generator reaches both outputs and rejects.
_chars = st.sampled_from(list("aAzZ09-._~!$&'()*+,;=:@/?#%[] \u00e9\u4f8b") + ["%7e", "%2F", "%41", "%c3%a9", "%zz", "/../", "/./"])
_part = st.lists(_chars, max_size=12).map("".join)
_host = st.sampled_from(["example.com", "EXAMPLE.com.", "xn--rsum-bpad.example", "résumé.example", "127.0.0.1", "[::1]", "0x7f.1", ""])
_scheme = st.sampled_from(["http", "HTTPS", "ftp", "file", "mailto", "urn", "foo+bar", "ws"])
_port = st.sampled_from(["", ":", ":80", ":443", ":8080", ":x"])
urls = st.builds(
    lambda s, h, p, path, q, f: f"{s}://{h}{p}/{path}" + (f"?{q}" if q else "") + (f"#{f}" if f else ""),
    _scheme, _host, _port, _part, _part, _part,
) | _part

OPTS = [dict(rung="string"), dict(rung="syntax"), dict(), dict(form="iri"), dict(preset="crawler"), dict(preset="aggressive")]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(urls, st.sampled_from(OPTS))
def test_idempotent(u: str, opts: dict) -> None:
    try:
        once = irinorm.normalize(u, **opts)
    except irinorm.ParseError as e:
        assert 0 <= e.offset <= len(u.encode())
        return
    assert irinorm.normalize(once, **opts) == once


@settings(max_examples=300)
@given(urls, urls)
def test_keys_agree_with_equivalent(a: str, b: str) -> None:
    try:
        same = irinorm.equivalent(a, b)
    except irinorm.ParseError:
        return
    assert (irinorm.key(a) == irinorm.key(b)) == same
    # A normal form is equivalent to its input.
    assert irinorm.equivalent(irinorm.normalize(a), a)


@settings(max_examples=50)
@given(st.lists(urls | st.none(), max_size=40), st.sampled_from(OPTS))
def test_batch_agrees(us, opts) -> None:
    res, err = irinorm.normalize_many(us, **opts)
    for u, r, e in zip(us, res, err):
        if u is None:
            assert (r, e) == (None, None)
            continue
        try:
            assert (r, e) == (irinorm.normalize(u, **opts), None)
        except irinorm.ParseError as x:
            assert (r, e) == (None, str(x))


@settings(max_examples=25, deadline=None)
@given(st.lists(urls.filter(lambda s: "\n" not in s and "\r" not in s), min_size=1, max_size=30), st.sampled_from(OPTS))
def test_cli_agrees(cli, us, opts) -> None:
    args = ["normalize"]
    for k, v in opts.items():
        args += [f"--{k}", v]
    rows = run_cli(cli, args, us)
    assert len(rows) == len(us)
    for u, row in zip(us, rows):
        assert row["input"] == u
        try:
            got = irinorm.normalize(u, **opts)
            assert row["output"] == got and row["error"] is None
        except irinorm.ParseError as e:
            assert row["output"] is None
            assert (row["error"]["kind"], row["error"]["offset"]) == (e.kind, e.offset)


# Round 20 (docs/testing.md): the binding's inputs are any `str`, including
# lone surrogates (no UTF-8 form, RFC 3629 §3), NUL, bidi controls and
# non-characters; nulls and empty strings in batches.
_odd = st.sampled_from(["\ud800", "\udfff", "\udc80", "\x00", "\u202e", "\u200f", "\ufeff", "\ufdd0", "\U0001f600", "%", "%e2%82"])
odd_urls = st.lists(_chars | _odd, max_size=10).map("".join) | st.builds(lambda u, o, i: u[:i] + o + u[i:], urls, _odd, st.integers(0, 40))


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(urls | odd_urls | st.none(), max_size=30), st.sampled_from(OPTS))
def test_any_str_is_a_result_or_a_parse_error(us, opts) -> None:
    res, err = irinorm.normalize_many(us, **opts)
    kopts = {k: v for k, v in opts.items() if k != "form"}
    keys, kerr = irinorm.key_many(us, **kopts)
    assert len(res) == len(err) == len(keys) == len(kerr) == len(us)
    # input = outputs + rejects + nulls, for both batches.
    for out, errs in ((res, err), (keys, kerr)):
        assert sum(o is not None for o in out) + sum(e is not None for e in errs) + us.count(None) == len(us)
    for u, r, e, k, ke in zip(us, res, err, keys, kerr):
        if u is None:
            assert (r, e, k, ke) == (None, None, None, None)
            continue
        try:
            assert (r, e) == (irinorm.normalize(u, **opts), None)
        except irinorm.ParseError as x:
            assert (r, e) == (None, str(x))
            assert 0 <= x.offset <= len(u.encode("utf-8", "surrogatepass"))
        try:
            assert (k, ke) == (irinorm.key(u, **kopts), None)
        except irinorm.ParseError as x:
            assert (k, ke) == (None, str(x))


# Pairs that the named rules make equal (fragments, tracking parameters) as
# well as arbitrary ones.
_pairs = st.tuples(urls, urls) | urls.map(lambda a: (a, a + "#f")) | urls.map(lambda a: (a, a + "?utm_source=x")) | urls.map(lambda a: (a.upper(), a))
COMPARE_OPTS = [dict(), dict(rung="string"), dict(rung="syntax"), dict(preset="rfc"), dict(preset="fetch"), dict(preset="crawler"), dict(preset="aggressive")]


@settings(max_examples=25, deadline=None)
@given(st.lists(_pairs.filter(lambda p: not any(c in s for s in p for c in "\t\n\r")), min_size=1, max_size=30), st.sampled_from(COMPARE_OPTS))
def test_cli_compare_agrees(cli, pairs, opts) -> None:
    """`compare` is the CLI's verdict: the same rung (the rung the rules ran
    on when only they make the pair equal, docs/cli.md "compare"), the same
    rejects."""
    args = ["compare"]
    for k, v in opts.items():
        args += [f"--{k}", v]
    rows = run_cli(cli, args, [f"{a}\t{b}" for a, b in pairs])
    assert len(rows) == len(pairs)
    n = irinorm.Normalizer(**opts)
    for (a, b), row in zip(pairs, rows):
        try:
            got = n.compare(a, b)
        except irinorm.ParseError as e:
            assert row["error"] is not None and row["error"]["kind"] == e.kind
            continue
        assert row["error"] is None
        assert got == row["rung"], (a, b, row)
        assert irinorm.compare(a, b, **opts) == got
        assert n.equivalent(a, b) == (got is not None)
