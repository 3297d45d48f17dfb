"""Drop-ins tested against the real packages (PyPI) on the shared corpora:
w3lib's canonicalize_url and Scrapy's request fingerprinter interface."""

from __future__ import annotations

import collections
from urllib.parse import parse_qsl, unquote, urlsplit

import pytest

import irinorm
from conftest import corpus
from irinorm.compat.w3lib import canonicalize_url

w3lib_url = pytest.importorskip("w3lib.url")

DEFAULT_PORT = {"http": 80, "https": 443, "ftp": 21, "ws": 80, "wss": 443}


def test_w3lib_signature() -> None:
    import inspect

    ours = list(inspect.signature(canonicalize_url).parameters)
    theirs = list(inspect.signature(w3lib_url.canonicalize_url).parameters)
    assert ours == theirs


def test_w3lib_examples() -> None:
    # w3lib's documented behaviour: sorted query, fragment dropped unless
    # kept, blank values kept unless told.
    for u in ["http://www.example.com/do?c=3&b=5&b=2&a=50", "http://www.example.com/do?a=1#frag", "http://www.example.com/do?a=&b=1"]:
        assert canonicalize_url(u) == w3lib_url.canonicalize_url(u)
    u = "http://www.example.com/do?a=1#frag"
    assert canonicalize_url(u, keep_fragments=True) == w3lib_url.canonicalize_url(u, keep_fragments=True)
    u = "http://www.example.com/do?a=&b=1&c"
    assert canonicalize_url(u, keep_blank_values=False) == w3lib_url.canonicalize_url(u, keep_blank_values=False)
    u = "http://www.example.com/do?b=1;a=2"
    assert canonicalize_url(u, query_separator=";") == w3lib_url.canonicalize_url(u, query_separator=";")
    # Documented differences (docs/known-differences.md).
    assert canonicalize_url("http://a.example:80/") == "http://a.example/"
    assert w3lib_url.canonicalize_url("http://a.example:80/") == "http://a.example:80/"
    # What pages contain is repaired, not refused (w3lib never refuses it).
    assert canonicalize_url("http://example.com/a b?q=x y") == "http://example.com/a%20b?q=x%20y"
    with pytest.raises(ValueError):
        canonicalize_url("http://example.com:8x/")


def _decoded(u: str):
    # A relative reference whose first segment has a ':' needs "./" in
    # front (RFC 3986 §4.2); w3lib leaves it out.
    if u.startswith("./"):
        u = u[2:]
    s = urlsplit(u)
    port = s.port
    if port == DEFAULT_PORT.get(s.scheme):
        port = None
    return (s.scheme, unquote(s.hostname or ""), port, unquote(s.path) or "/", sorted(parse_qsl(s.query, keep_blank_values=True)), s.fragment)


@pytest.mark.parametrize("name", ["kasztp.txt", "userbait.txt", "node_files.txt", "isaacs_files.txt"])
def test_w3lib_on_corpora(name: str) -> None:
    """Every URL of the corpus: identical to w3lib, or different only in
    what docs/known-differences.md lists (percent-encoding and
    form-encoding of the query, default port, empty path), or rejected
    (none is today)."""
    seen = collections.Counter()
    unexplained = []
    for u in corpus(name):
        theirs = w3lib_url.canonicalize_url(u)
        try:
            ours = canonicalize_url(u)
        except irinorm.ParseError:
            seen["rejected"] += 1
            continue
        if ours == theirs:
            seen["identical"] += 1
        elif _decoded(ours) == _decoded(theirs):
            seen["encoding"] += 1
        else:
            unexplained.append((u, theirs, ours))
    assert not unexplained, unexplained[:10]
    total = sum(seen.values())
    # The share of identical results, as recorded in docs/known-differences.md.
    assert seen["identical"] / total > 0.9, seen
    assert seen["rejected"] == 0, seen


scrapy = pytest.importorskip("scrapy")


def test_scrapy_fingerprinter() -> None:
    from scrapy import Request
    from scrapy.utils.test import get_crawler

    from irinorm.compat.scrapy import IrinormRequestFingerprinter

    crawler = get_crawler(settings_dict={"REQUEST_FINGERPRINTER_CLASS": IrinormRequestFingerprinter})
    fp = crawler.request_fingerprinter
    assert isinstance(fp, IrinormRequestFingerprinter)
    a = fp.fingerprint(Request("HTTP://Example.COM:80/a/./b?x=1#frag"))
    assert isinstance(a, bytes) and len(a) == 20
    assert a == fp.fingerprint(Request("http://example.com/a/b?x=1"))
    assert a != fp.fingerprint(Request("http://example.com/a/b?x=2"))
    assert a != fp.fingerprint(Request("http://example.com/a/b?x=1", method="POST"))
    post = Request("http://example.com/", method="POST", body=b"q=1")
    assert fp.fingerprint(post) != fp.fingerprint(Request("http://example.com/", method="POST", body=b"q=2"))
    # The preset from the settings: crawler drops tracking parameters.
    c2 = get_crawler(settings_dict={
        "REQUEST_FINGERPRINTER_CLASS": "irinorm.compat.scrapy.IrinormRequestFingerprinter",
        "IRINORM_FINGERPRINT_PRESET": "crawler",
    })
    f2 = c2.request_fingerprinter
    assert f2.fingerprint(Request("http://example.com/?utm_source=x")) == f2.fingerprint(Request("http://example.com/"))
    assert fp.fingerprint(Request("http://example.com/?utm_source=x")) != fp.fingerprint(Request("http://example.com/"))
    # A URL irinorm rejects still gets a fingerprint of its own.
    assert fp.url_key("http://example.com:8x/") == b"rhttp://example.com:8x/"
    assert fp.url_key("http://example.com/")[:1] == b"k"


surt_pkg = pytest.importorskip("surt")

SURT_OPTIONS = [{}, {"with_scheme": True}, {"with_scheme": True, "trailing_comma": True}, {"reverse_ipaddr": False}, {"host_massage": False}]


@pytest.mark.parametrize("name", ["kasztp.txt", "userbait.txt", "node_files.txt", "isaacs_files.txt"])
def test_surt_byte_identical_on_corpora(name: str) -> None:
    from irinorm.compat.surt import surt

    diffs = []
    lines = corpus(name) + ["", " ", "filedesc:x", "http://a:x/", "HTTP://WWW.A.COM/", "http://bücher.example/ü", "http://%77ww.a.com/%2541"]
    for opts in SURT_OPTIONS:
        for u in lines:
            try:
                theirs = surt_pkg.surt(u, **opts)
            except Exception:
                theirs = None
            try:
                ours = surt(u, **opts)
            except ValueError:
                ours = None
            if ours != theirs:
                diffs.append((u, opts, theirs, ours))
    assert not diffs, diffs[:10]


def test_surt_bytes_and_options() -> None:
    from irinorm.compat.surt import surt

    for u in [b"http://www.archive.org/", b"http://a/\xff?B=1"]:
        assert surt(u) == surt_pkg.surt(u)
    with pytest.raises(irinorm.UnavailableError):
        surt("http://a/", public_suffix=True)
    with pytest.raises(irinorm.UnavailableError):
        surt("http://a/", canonicalizer=lambda h, **o: h)
