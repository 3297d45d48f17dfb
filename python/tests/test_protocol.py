"""Rung 3 (`rung="protocol"`, `evidence=`) and `[[host-rule]]` settings
files from Python, against the CLI on the same store and the same file
(docs/python.md; LADDER.md "Rung 3"; docs/rules.md "Host rules")."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import List

import pytest

import irinorm
from conftest import run_cli

# A redirect log (docs/evidence.md: from<TAB>status<TAB>to[<TAB>time]).
# a: one conventional 301 (slash added); b: three http -> https upgrades,
# enough for the host convention at the default min_host_support 3; c: a
# 302 (an edge only with redirects="all"); d: a 301 to another host (a
# move: an edge with "permanent" and "all", not "conventional").
LOG = [
    ("http://a.example/data", 301, "http://a.example/data/", "20240101000000"),
    ("http://b.example/x", 301, "https://b.example/x", None),
    ("http://b.example/y", 301, "https://b.example/y", None),
    ("http://b.example/z", 301, "https://b.example/z", None),
    ("http://c.example/old", 302, "http://c.example/new", None),
    ("http://d.example/p", 301, "http://e.example/q", None),
]

URLS = [
    "http://a.example/data",
    "HTTP://A.example:80/data#frag",
    "http://a.example/data/",
    "http://b.example/w?utm_source=x&k=1",
    "http://b.example/x",
    "http://c.example/old",
    "http://d.example/p",
    "http://unknown.example/",
    "http://a.example:x/",  # a reject: bad port
]

PAIRS = [
    ("http://a.example/data", "http://a.example/data/"),
    ("http://a.example/data", "HTTP://a.example/data"),
    ("http://b.example/w", "https://b.example/w"),
    ("http://c.example/old", "http://c.example/new"),
    ("http://d.example/p", "http://e.example/q"),
    ("http://a.example/x", "http://b.example/x"),
]

OPTIONS = [
    {},
    {"redirects": "permanent"},
    {"redirects": "all"},
    {"min_host_support": 0},
    {"min_host_support": 4},
    {"preset": "crawler"},
    {"form": "iri"},
]


def _flags(opts: dict) -> List[str]:
    out: List[str] = []
    for k, v in opts.items():
        out += ["--" + k.replace("_", "-"), str(v)]
    return out


@pytest.fixture(scope="module")
def store(cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("evidence")
    log = d / "redirects.tsv"
    log.write_text(
        "".join(f"{a}\t{s}\t{b}" + (f"\t{t}" if t else "") + "\n" for a, s, b, t in LOG),
        encoding="utf-8",
    )
    db = d / "crawl.db"
    r = subprocess.run(
        [str(cli), "evidence", "ingest", "-q", "--db", str(db), str(log)],
        capture_output=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr.decode()
    return db


def test_protocol_by_hand(store: Path) -> None:
    # LADDER.md "Rung 3": a conventional permanent redirect is followed, the
    # fragment of the input kept (RFC 9110 §10.2.2).
    n = irinorm.Normalizer(rung="protocol", evidence=store)
    assert n.rung == "protocol"
    assert n.normalize("http://a.example/data") == "http://a.example/data/"
    assert n.normalize("HTTP://A.example:80/data#f") == "http://a.example/data/#f"
    # Host convention: three upgrades, none contradicting, cover unseen URLs.
    assert n.normalize("http://b.example/w") == "https://b.example/w"
    assert irinorm.normalize("http://b.example/w", rung="protocol", evidence=store, min_host_support=4) == "http://b.example/w"
    # A 302 and a move to another host are not conventional.
    assert n.normalize("http://c.example/old") == "http://c.example/old"
    assert n.normalize("http://d.example/p") == "http://d.example/p"
    assert irinorm.normalize("http://c.example/old", rung="protocol", evidence=str(store), redirects="all") == "http://c.example/new"
    assert irinorm.normalize("http://d.example/p", rung="protocol", evidence=store, redirects="permanent") == "http://e.example/q"
    # compare says "protocol" only when the evidence alone makes them equal.
    assert irinorm.compare("http://a.example/data", "http://a.example/data/", rung="protocol", evidence=store) == "protocol"
    assert irinorm.compare("http://a.example/data", "HTTP://a.example/data", rung="protocol", evidence=store) == "syntax"
    assert irinorm.compare("http://a.example/data", "http://a.example/data/") is None
    assert n.equivalent("http://a.example/data", "http://a.example/data/")
    assert n.key("http://a.example/data") == n.key("http://a.example/data/")
    assert n.key_text("http://a.example/data") == "http://a.example/data/"
    assert irinorm.key("http://a.example/data", rung="protocol", evidence=store) == n.key("http://a.example/data/")
    e = irinorm.explain("http://a.example/data", rung="protocol", evidence=store)
    assert e["output"] == "http://a.example/data/"
    hop = e["protocol"]["chain"]["hops"][0]
    assert (hop["status"], hop["conventions"], hop["offset"]) == (301, "slash-added", 0)
    assert irinorm.explain("http://a.example/data")["protocol"] is None


def test_protocol_option_errors(store: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="needs evidence"):
        irinorm.normalize("http://a/", rung="protocol")
    with pytest.raises(ValueError, match="rung='protocol'"):
        irinorm.Normalizer(evidence=store)
    with pytest.raises(ValueError, match="rung='protocol'"):
        irinorm.normalize("http://a/", redirects="all")
    with pytest.raises(ValueError):
        irinorm.Normalizer(rung="protocol", evidence=store, redirects="sometimes")
    with pytest.raises(FileNotFoundError):
        irinorm.Normalizer(rung="protocol", evidence=tmp_path / "absent.db")
    with pytest.raises(irinorm.ParseError) as ei:
        irinorm.normalize("http://a.example:x/", rung="protocol", evidence=store)
    assert ei.value.kind == "bad-port"


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_protocol_normalize_agrees_with_cli(cli: Path, store: Path, opts: dict) -> None:
    args = ["normalize", "--rung", "protocol", "--evidence", str(store), "-q", *_flags(opts)]
    rows = run_cli(cli, args, URLS)
    assert [r["input"] for r in rows] == URLS
    n = irinorm.Normalizer(rung="protocol", evidence=store, **opts)
    for u, row in zip(URLS, rows):
        try:
            got = n.normalize(u)
        except irinorm.ParseError as e:
            assert row["output"] is None and row["error"]["kind"] == e.kind, (u, row)
            continue
        assert got == row["output"], (u, row)
        assert irinorm.normalize(u, rung="protocol", evidence=store, **opts) == got
    # Batches: the same outputs, the reject in errors.
    values, errors = irinorm.normalize_many(URLS, rung="protocol", evidence=store, **opts)
    assert values == [r["output"] for r in rows]
    assert [e is not None for e in errors] == [r["output"] is None for r in rows]


@pytest.mark.parametrize("opts", [o for o in OPTIONS if "form" not in o], ids=str)
def test_protocol_keys_agree_with_cli_dedupe(cli: Path, store: Path, opts: dict) -> None:
    good = URLS[:-1]
    args = ["dedupe", "--key-only", "--rung", "protocol", "--evidence", str(store), "-q", *_flags(opts)]
    r = subprocess.run([str(cli), *args], input="".join(u + "\n" for u in good).encode(), capture_output=True, check=False)
    assert r.returncode == 0, r.stderr.decode()
    n = irinorm.Normalizer(rung="protocol", evidence=store, **opts)
    keys = list(dict.fromkeys(n.key_text(u) for u in good))
    assert keys == r.stdout.decode().splitlines()
    digests, errors = irinorm.key_many(good, rung="protocol", evidence=store, **opts)
    assert errors == [None] * len(good)
    assert digests == [n.key(u) for u in good]
    assert len(set(digests)) == len(keys)


@pytest.mark.parametrize("opts", [o for o in OPTIONS if "form" not in o], ids=str)
def test_protocol_compare_agrees_with_cli(cli: Path, store: Path, opts: dict) -> None:
    args = ["compare", "--rung", "protocol", "--evidence", str(store), "-q", *_flags(opts)]
    rows = run_cli(cli, args, [f"{a}\t{b}" for a, b in PAIRS])
    assert len(rows) == len(PAIRS)
    n = irinorm.Normalizer(rung="protocol", evidence=store, **opts)
    for (a, b), row in zip(PAIRS, rows):
        assert n.compare(a, b) == row["rung"], (a, b, row)
        assert n.equivalent(a, b) == row["equivalent"]
        assert irinorm.compare(a, b, rung="protocol", evidence=store, **opts) == row["rung"]


# A settings file of host rules, as `irinorm learn` writes them
# (docs/rules.md "Host rules"; docs/learning.md).
RULES = """\
[[host-rule]]
host = "shop.example"
rule = "substitute"
from = "/story?id="
to = "/story/"
learned = true

[[host-rule]]
host = "shop.example"
rule = "ignore-param"
name = "sid"

[[host-rule]]
host = "*.wiki.example"
rule = "lowercase-path"
"""

RULE_URLS = [
    "http://shop.example/story?id=5",
    "http://shop.example/story?id=5&sid=abc",
    "http://shop.example/cart?sid=abc&x=1",
    "http://en.wiki.example/Main_Page",
    "http://other.example/story?id=5&sid=abc",
    "http://shop.example:x/",
]


@pytest.mark.parametrize("opts", [{}, {"preset": "crawler"}, {"rung": "syntax"}], ids=str)
def test_host_rules_agree_with_cli(cli: Path, tmp_path: Path, opts: dict) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(RULES, encoding="utf-8")
    rows = run_cli(cli, ["normalize", "--config", str(path), "-q", *_flags(opts)], RULE_URLS)
    assert [r["input"] for r in rows] == RULE_URLS
    for cfg in (path, str(path), {"learned_rules": path}, {"toml": RULES}):
        n = irinorm.Normalizer(config=cfg, **opts)
        assert "host-rules" in n.rules
        values, errors = irinorm.normalize_many(RULE_URLS, config=cfg, **opts)
        assert values == [r["output"] for r in rows], cfg
        assert [e is not None for e in errors] == [r["output"] is None for r in rows]
        for u, row in zip(RULE_URLS[:-1], rows):
            assert irinorm.normalize(u, config=cfg, **opts) == row["output"]
    # By hand (docs/rules.md): the substitution, the ignored parameter, the
    # case-insensitive paths; another host is left alone.
    n = irinorm.Normalizer(config=path)
    assert n.normalize("http://shop.example/story?id=5&sid=abc") == "http://shop.example/story/5"
    assert n.normalize("http://en.wiki.example/Main_Page") == "http://en.wiki.example/main_page"
    assert n.normalize("http://other.example/story?id=5&sid=abc") == "http://other.example/story?id=5&sid=abc"
    assert irinorm.equivalent("http://shop.example/story?id=5", "http://shop.example/story/5", config=path)
    rules = irinorm.explain("http://shop.example/story?id=5", config=path)["rules"]
    assert [r["rule"] for r in rules] == ["host-rules"]


def test_host_rules_compare_agrees_with_cli(cli: Path, tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(RULES, encoding="utf-8")
    pairs = [(a, b) for a in RULE_URLS[:-1] for b in RULE_URLS[:-1]]
    rows = run_cli(cli, ["compare", "--config", str(path), "-q"], [f"{a}\t{b}" for a, b in pairs])
    n = irinorm.Normalizer(config=path)
    # The rung too (round 20): with rules, `compare` is the CLI's verdict
    # (Pipeline::compare_why, docs/cli.md "compare"): the configured rung
    # when only the rules make them equal, never a lower one. Before, it
    # named the lowest rung with the rules on top (Pipeline::compare).
    assert [n.equivalent(a, b) for a, b in pairs] == [r["equivalent"] for r in rows]
    assert [n.compare(a, b) for a, b in pairs] == [r["rung"] for r in rows]
    assert sum(r["equivalent"] for r in rows) > len(RULE_URLS) - 1  # host rules merged some


# Pairs that only the named rules make equal (`remove-fragment`,
# `remove-query-params` of `crawler`), and one the ladder does at `syntax`.
RULE_PAIRS = [
    ("http://a.example/x#f", "http://a.example/x"),
    ("%7E#f~", "%7e"),
    ("?q=1", "?q=1#f"),
    ("http://a.example/?utm_source=x", "http://a.example/"),
    ("http://a.example/%7e", "http://a.example/~"),
    ("http://unknown.example/", "http://a.example/data"),
]


def test_compare_rung_with_rules_same_everywhere(cli: Path, store: Path) -> None:
    """Round 20: the rung of a verdict that the named rules made is the
    rung they ran on (docs/cli.md "compare"), from the CLI at rung 2, the
    CLI at rung 3 (where only the evidence decides past the rules), and
    Python at both. Before: the CLI said `scheme` at rung 2 and `string` at
    rung 3, Python `string` at both."""
    lines = [f"{a}\t{b}" for a, b in RULE_PAIRS]
    at2 = run_cli(cli, ["compare", "--preset", "crawler", "-q"], lines)
    at3 = run_cli(cli, ["compare", "--preset", "crawler", "--rung", "protocol", "--evidence", str(store), "-q"], lines)
    want = ["scheme", "scheme", "scheme", "scheme", "syntax", None]
    assert [r["rung"] for r in at2] == want
    assert [r["rung"] for r in at3] == want
    assert [r["rules"] for r in at2][:2] == [["remove-fragment"]] * 2
    n2 = irinorm.Normalizer(preset="crawler")
    n3 = irinorm.Normalizer(preset="crawler", rung="protocol", evidence=store)
    assert [n2.compare(a, b) for a, b in RULE_PAIRS] == want
    assert [n3.compare(a, b) for a, b in RULE_PAIRS] == want
    assert [irinorm.compare(a, b, preset="crawler") for a, b in RULE_PAIRS] == want
