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
