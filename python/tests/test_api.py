"""The single-call API: values checked against RFC 3986/3987 examples and
docs/cli.md, errors, str/bytes, Normalizer, explain, lint."""

from __future__ import annotations

import json
import pickle
import subprocess

import pytest

import irinorm


def test_rfc3986_6_2_2_example() -> None:
    # RFC 3986 §6.2.2: "eXAMPLE://a/./b/../b/%63/%7bfoo%7d" is equivalent to
    # "example://a/b/c/%7Bfoo%7D".
    assert irinorm.normalize("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", rung="syntax") == (
        "example://a/b/c/%7Bfoo%7D"
    )


def test_rfc3986_6_2_3_ports_and_empty_path() -> None:
    # RFC 3986 §6.2.3: these four are equivalent for http.
    forms = ["http://example.com", "http://example.com/", "http://example.com:/", "http://example.com:80/"]
    assert {irinorm.normalize(f) for f in forms} == {"http://example.com/"}
    assert irinorm.compare(forms[0], forms[3]) == "scheme"
    assert irinorm.compare("http://a/%7e", "http://a/~") == "syntax"
    assert irinorm.compare("http://a/", "http://a/") == "string"
    assert irinorm.compare("http://a/", "http://b/") is None


def test_form_iri_rfc3987() -> None:
    # RFC 3987 §3.2 maps percent-encoded UTF-8 back; the host as U-labels.
    assert irinorm.normalize("http://xn--rsum-bpad.example/%C3%A9", form="iri") == "http://résumé.example/é"
    assert irinorm.normalize("http://résumé.example/é") == "http://xn--rsum-bpad.example/%C3%A9"


def test_presets_and_rules() -> None:
    # docs/rules.md: crawler adds trailing host dot, tracking parameters, fragment.
    assert irinorm.normalize("HTTP://Example.COM.:80/a/./b?utm_source=x&id=7#top", preset="crawler") == (
        "http://example.com/a/b?id=7"
    )
    assert irinorm.normalize("http://a/b?z=1&a=2", rules="sort-query") == "http://a/b?a=2&z=1"
    assert irinorm.normalize("http://a/b?z=1&a=2", rules=["sort-query"]) == "http://a/b?a=2&z=1"
    assert irinorm.normalize("http://example.com./?utm_source=x", preset="rfc") == "http://example.com./?utm_source=x"
    names = dict(irinorm.presets())
    assert set(names) == {"rfc", "fetch", "crawler", "aggressive"}
    assert "remove-fragment" in names["fetch"]


def test_config_mapping_and_file(tmp_path) -> None:
    cfg = {"query_params": ["sid"]}
    assert irinorm.normalize("http://a/?sid=1&x=2", rules="remove-query-params", config=cfg) == "http://a/?x=2"
    # The settings file of docs/rules.md.
    p = tmp_path / "s.toml"
    p.write_text('[rules]\nquery-params = ["x"]\n')
    assert irinorm.normalize("http://a/?sid=1&x=2", rules="remove-query-params", config=p) == "http://a/?sid=1"
    with pytest.raises(ValueError, match="unknown config key"):
        irinorm.normalize("http://a/", config={"nope": 1})


def test_base() -> None:
    # RFC 3986 §5.4.1 examples, then normalization.
    assert irinorm.normalize("../g", base="http://a/b/c/d;p?q") == "http://a/b/g"
    assert irinorm.resolve("../g", "http://a/b/c/d;p?q") == "http://a/b/g"
    assert irinorm.resolve("g;x=1/../y", "http://a/b/c/d;p?q") == "http://a/b/c/y"
    with pytest.raises(irinorm.ParseError) as e:
        irinorm.resolve("g", "b/c")
    assert e.value.side == "base" and e.value.kind == "missing-scheme"


def test_parse_error_fields() -> None:
    with pytest.raises(irinorm.ParseError) as e:
        irinorm.normalize("http://example.com:8x/")
    err = e.value
    assert isinstance(err, ValueError)
    # "http://example.com:" is 19 bytes; '8' is a digit, 'x' at byte 20.
    assert (err.kind, err.offset, err.component) == ("bad-port", 20, "port")
    assert err.input == "http://example.com:8x/"
    assert str(err).startswith("bad-port: ")
    # Offsets are bytes of UTF-8: 'é' takes two.
    with pytest.raises(irinorm.ParseError) as e:
        irinorm.normalize("http://é.example/ a")
    assert e.value.offset == len("http://é.example/".encode())
    assert e.value.kind == "invalid-char"
    err2 = pickle.loads(pickle.dumps(err))
    assert (err2.kind, err2.offset, err2.component) == ("bad-port", 20, "port")


def test_compare_error_side() -> None:
    with pytest.raises(irinorm.ParseError) as e:
        irinorm.compare("http://a/", "http://a:x/")
    assert e.value.side == "b"
    with pytest.raises(irinorm.ParseError) as e:
        irinorm.equivalent("http://[::1/", "http://a/")
    assert e.value.side == "a" and e.value.component == "host"


def test_bytes_in_bytes_out() -> None:
    assert irinorm.normalize(b"HTTP://A/") == b"http://a/"
    assert irinorm.to_uri("http://a/ü".encode()) == b"http://a/%C3%BC"
    assert irinorm.key(b"http://a/") == irinorm.key("HTTP://A:80")
    with pytest.raises(irinorm.ParseError) as e:
        irinorm.normalize(b"http://a/\xff")
    assert (e.value.kind, e.value.offset) == ("invalid-utf8", 9)
    with pytest.raises(TypeError):
        irinorm.normalize(42)  # type: ignore[arg-type]


def test_key() -> None:
    k = irinorm.key("http://example.com/")
    assert isinstance(k, bytes) and len(k) == 16
    assert k == irinorm.key("HTTP://EXAMPLE.COM:80")
    assert k != irinorm.key("http://example.org/")
    # Fragments count unless ignored (RFC 3986 §6.1).
    assert irinorm.key("http://a/#x") != irinorm.key("http://a/")
    assert irinorm.key("http://a/#x", ignore_fragment=True) == irinorm.key("http://a/")
    n = irinorm.Normalizer()
    assert n.key_text("HTTP://A:80/x") == "http://a/x"


def test_normalizer_object() -> None:
    n = irinorm.Normalizer(preset="crawler")
    assert n.rung == "scheme" and n.form == "uri" and n.preset == "crawler"
    assert "remove-query-params" in n.rules
    assert n.normalize("http://a/?utm_source=x") == "http://a/"
    assert n.equivalent("http://a/?utm_source=x", "http://a/")
    assert "crawler" in repr(n)
    with pytest.raises(ValueError, match="unknown preset"):
        irinorm.Normalizer(preset="nope")
    with pytest.raises(ValueError, match="unknown rung"):
        irinorm.Normalizer(rung="nope")
    with pytest.raises(ValueError, match="unknown rule"):
        irinorm.Normalizer(rules="nope")


def test_protocol_and_learned_rules_options() -> None:
    # rung 3 and learned rules files are available (tests/test_protocol.py);
    # a missing store or rules file is an OSError, a protocol option without
    # the rung a ValueError, never a silent no-op.
    with pytest.raises(ValueError, match="rung='protocol'"):
        irinorm.normalize("http://a/", evidence="evidence.db")
    with pytest.raises(ValueError, match="needs evidence"):
        irinorm.Normalizer(rung="protocol")
    with pytest.raises(OSError):
        irinorm.Normalizer(config={"learned_rules": "absent-rules.toml"})


def test_parse() -> None:
    r = irinorm.parse("http://user@example.com:8080/a/b?q=1#top")
    assert (r.scheme, r.userinfo, r.host, r.host_kind, r.port, r.path, r.query, r.fragment) == (
        "http", "user", "example.com", "reg-name", "8080", "/a/b", "q=1", "top",
    )
    assert r.authority == "user@example.com:8080" and r.is_absolute
    assert r.to_dict()["host"] == "example.com"
    r = irinorm.parse("//[::1]/x")
    assert r.scheme is None and r.host == "[::1]" and r.host_kind == "ipv6"
    assert irinorm.parse("http://a/?").query == ""
    with pytest.raises(irinorm.ParseError):
        irinorm.parse("http://例え.jp/", grammar="URI")
    with pytest.raises(ValueError, match="unknown grammar"):
        irinorm.parse("x", grammar="nope")


def test_mapping() -> None:
    # RFC 3987 §3.1 and §3.2.
    assert irinorm.to_uri("http://résumé.example.org") == "http://r%C3%A9sum%C3%A9.example.org"
    assert irinorm.to_uri("http://résumé.example.org", idna=True) == "http://xn--rsum-bpad.example.org"
    assert irinorm.to_iri("http://www.example.org/D%C3%BCrst") == "http://www.example.org/Dürst"
    assert irinorm.to_iri("http://www.example.org/D%FCrst") == "http://www.example.org/D%FCrst"


def test_explain() -> None:
    e = irinorm.explain("HTTP://Example.COM:80/a/../b")
    assert e["output"] == "http://example.com/b"
    scheme_uri = [s for s in e["steps"] if s["rung"] == "scheme" and s["form"] == "uri"][0]
    rules = {c["rule"] for c in scheme_uri["changes"]}
    assert {"lowercase-scheme", "lowercase-host", "remove-default-port", "remove-dot-segments"} <= rules
    port = [c for c in scheme_uri["changes"] if c["rule"] == "remove-default-port"][0]
    assert port["source"].startswith("RFC 3986 §6.2.3")
    e = irinorm.explain("http://a/?utm_source=x", preset="crawler")
    assert [r["rule"] for r in e["rules"]] == ["remove-query-params"]


def test_lint() -> None:
    r = irinorm.lint("http://www.example.com@evil.example/")
    codes = {f["code"] for f in r["findings"]}
    assert "userinfo-looks-like-host" in codes
    assert r["valid"] is True
    r = irinorm.lint("http://a b/")
    assert r["valid"] is False and r["parse_error"]["kind"] == "invalid-char"
    # Round 22: the failure is the `error` (kind, offset), not a finding.
    assert (r["error"]["kind"], r["error"]["offset"]) == ("invalid-char", 8)
    assert r["findings"] == []
    assert irinorm.lint("http://a.example/")["error"] is None


def test_lint_agrees_with_check_lint(cli) -> None:
    """Round 22: `lint` is `check --lint --format jsonl` field for field
    (`valid`, `findings`, `error`), invalid input included. Before, a
    parse failure was also a `parse-error` finding in Python only (round
    20, docs/testing.md)."""
    lines = [
        "http://a b.example/",
        "http://www.example.com@evil.example/",
        "http:\\\\a.example\\b",
        "http://a.example/%zz",
        "http://a..example/",
        "http://xn--a.example/",
        "http://stra\u00dfe.example/",
        "http://a.example/\u202e",
        "http://a.example/\x0b",
        "http://a.example:99999/",
        "",
    ]
    r = subprocess.run(
        [str(cli), "check", "--lint", "--format", "jsonl"],
        input="".join(l + "\n" for l in lines).encode(),
        capture_output=True,
        check=False,
    )
    rows = [json.loads(l) for l in r.stdout.decode().splitlines()]
    assert len(rows) == len(lines)
    for line, row in zip(lines, rows):
        py = irinorm.lint(line)
        got = {k: py[k] for k in ("valid", "findings", "error")}
        assert got == {k: row[k] for k in ("valid", "findings", "error")}, line


def test_native_docstring_examples() -> None:
    # pytest --doctest-modules reads .py files only: the examples in the
    # extension's docstrings (src/lib.rs) run here.
    import doctest

    import irinorm._native as native

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = []
    for name in dir(native):
        obj = getattr(native, name)
        if name.startswith("_") or not getattr(obj, "__doc__", None):
            continue
        tests += finder.find(obj, name, globs=dict(vars(native)))
    examples = 0
    for t in tests:
        examples += len(t.examples)
        runner.run(t)
    r = runner.summarize(verbose=False)
    assert r.failed == 0
    assert examples >= 25, examples


def test_repair() -> None:
    # docs/repair.md: what browsers accept, made an RFC 3987 reference,
    # each step named; off by default (exact mode).
    u = '  http:\\\\example.com\\a b|c?q="x"#f#g%zz\n'
    with pytest.raises(irinorm.ParseError):
        irinorm.normalize(u)
    assert irinorm.normalize(u, repair=True) == "http://example.com/a%20b%7Cc?q=%22x%22#f%23g%25zz"
    e = irinorm.explain(u, repair=True)
    assert "backslash-to-slash" in e["repaired"]["steps"]
    assert irinorm.explain("http://a/")["repaired"] is None
    assert irinorm.equivalent("http://a/ b", "http://a/%20b", repair=True)
    res, err = irinorm.normalize_many(["http://a/ b", None], repair=True)
    assert res == ["http://a/%20b", None] and err == [None, None]
    assert "repair=True" in repr(irinorm.Normalizer(repair=True))


def test_safebrowsing_lookup_key() -> None:
    # Examples of Google's Safe Browsing URL canonicalization documentation.
    cases = {
        "http://host/%25%32%35": "http://host/%25",
        "http://www.google.com/blah/..": "http://www.google.com/",
        "http://www.GOOgle.com/": "http://www.google.com/",
        "http://3279880203/blah": "http://195.127.0.11/blah",
        "http://www.google.com/foo\tbar\rbaz\n2": "http://www.google.com/foobarbaz2",
    }
    for u, want in cases.items():
        assert irinorm.normalize(u, preset="safebrowsing") == want
    # A lookup key takes no other options (as the CLI says).
    with pytest.raises(ValueError, match="lookup key"):
        irinorm.Normalizer(preset="safebrowsing", rules="sort-query")
    with pytest.raises(ValueError, match="lookup key"):
        irinorm.normalize("http://a/", preset="safebrowsing", form="iri")


def test_options_parsed_as_python_would() -> None:
    # One parser for every entry point (src/options.rs): positional options
    # in the documented order, keyword-only ones, and TypeErrors where a
    # Python function would raise them.
    u = "eXAMPLE://a/./b/../b/%63/%7bfoo%7d"
    assert irinorm.normalize(u, "syntax") == irinorm.normalize(u, rung="syntax") == "example://a/b/c/%7Bfoo%7D"
    assert irinorm.normalize("http://a/b", "scheme", "iri", "crawler") == "http://a/b"
    assert irinorm.key("http://a/?utm_source=x", None, "crawler") == irinorm.key("http://a/")
    assert irinorm.Normalizer("syntax", "iri").form == "iri"
    assert irinorm.normalize("http://a/#x", ignore_fragment=None) == "http://a/#x"  # None: the default
    with pytest.raises(TypeError, match="unexpected keyword argument 'form'"):
        irinorm.key("http://a/", form="iri")  # keys are always uri
    with pytest.raises(TypeError, match="unexpected keyword argument 'prest'"):
        irinorm.normalize("http://a/", prest="crawler")
    with pytest.raises(TypeError, match="multiple values for argument 'rung'"):
        irinorm.normalize("http://a/", "syntax", rung="scheme")
    with pytest.raises(TypeError, match="at most 5 positional"):
        irinorm.compare("http://a/", "http://b/", None, None, None, None, None, None)
    with pytest.raises(TypeError, match="argument 'max_len'"):
        irinorm.Normalizer(max_len="long")
    with pytest.raises(TypeError, match="key_many.*unexpected keyword argument 'form'"):
        irinorm.key_many(["http://a/"], form="iri")
    with pytest.raises(TypeError):
        irinorm.normalize_many(["http://a/"], bogus=1)
    import inspect

    assert list(inspect.signature(irinorm.normalize).parameters)[:3] == ["url", "rung", "form"]
    assert "form" not in inspect.signature(irinorm.compare).parameters


def test_lone_surrogates_are_parse_errors(cli) -> None:
    """Round 20: a `str` with a lone surrogate has no UTF-8 form (RFC 3629
    §3); every entry point rejects it with `ParseError` kind `invalid-utf8`
    at the surrogate's byte offset, as the CLI rejects the line written with
    `surrogateescape` (before: Python's UnicodeEncodeError, no kind, no
    offset)."""
    u = "http://r\u00e9sum\u00e9.example/\udc80x"
    at = len("http://r\u00e9sum\u00e9.example/".encode())
    for call in (
        lambda: irinorm.normalize(u),
        lambda: irinorm.key(u),
        lambda: irinorm.explain(u),
        lambda: irinorm.parse(u),
        lambda: irinorm.lint(u),
        lambda: irinorm.to_uri(u),
        lambda: irinorm.Normalizer(preset="crawler").normalize(u),
    ):
        with pytest.raises(irinorm.ParseError) as e:
            call()
        assert (e.value.kind, e.value.offset) == ("invalid-utf8", at)
    with pytest.raises(irinorm.ParseError) as e:
        irinorm.compare("http://a/", u)
    assert (e.value.kind, e.value.offset, e.value.side) == ("invalid-utf8", at, "b")
    with pytest.raises(irinorm.ParseError) as e:
        irinorm.resolve("x", "http://a/\ud800")
    assert (e.value.kind, e.value.side) == ("invalid-utf8", "base")
    r = subprocess.run(
        [str(cli), "normalize", "--format", "jsonl"],
        input=u.encode("utf-8", "surrogateescape") + b"\n",
        capture_output=True,
        check=False,
    )
    row = json.loads(r.stdout)
    assert (row["error"]["kind"], row["error"]["offset"]) == ("invalid-utf8", at)
