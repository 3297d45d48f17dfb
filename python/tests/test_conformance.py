"""The shared conformance vectors (../shared/vectors) through the Python
API: the same cases as crates/irinorm/tests/conformance*.rs."""

from __future__ import annotations

import pytest

import irinorm
from conftest import read_jsonl


def _check(name: str, fails: list, total: int) -> None:
    assert not fails, f"{name}: {len(fails)} of {total} failed:\n" + "\n".join(fails[:20])


def test_normalize_vectors() -> None:
    cases = read_jsonl("normalize.jsonl")
    fails = []
    for c in cases:
        try:
            got = irinorm.normalize(c["input"], rung=c["rung"], form=c["form"])
        except irinorm.ParseError:
            got = None
        if got != c["expected"]:
            fails.append(f"{c['input']!r} {c['rung']}/{c['form']}: want {c['expected']!r}, got {got!r}")
    _check("normalize.jsonl", fails, len(cases))


def test_equivalent_vectors() -> None:
    cases = read_jsonl("equivalent.jsonl")
    fails = []
    order = ["string", "syntax", "scheme"]
    for c in cases:
        got = irinorm.equivalent(c["a"], c["b"], rung=c["rung"])
        if got != c["equivalent"]:
            fails.append(f"{c['a']!r} {c['b']!r} at {c['rung']}: want {c['equivalent']}")
        # compare() names the lowest rung: equivalent at r iff that rung <= r.
        low = irinorm.compare(c["a"], c["b"], rung=c["rung"])
        if (low is not None and order.index(low) <= order.index(c["rung"])) != c["equivalent"]:
            fails.append(f"{c['a']!r} {c['b']!r}: compare says {low}")
    _check("equivalent.jsonl", fails, len(cases))


def test_parse_vectors() -> None:
    cases = read_jsonl("parse.jsonl")
    fails = []
    for c in cases:
        try:
            r = irinorm.parse(c["input"], grammar=c["grammar"])
        except irinorm.ParseError:
            r = None
        if (r is not None) != c["valid"]:
            fails.append(f"{c['input']!r} under {c['grammar']}: want valid={c['valid']}")
            continue
        if r is not None and "components" in c:
            have = r.to_dict()
            for k, w in c["components"].items():
                if have[k] != w:
                    fails.append(f"{c['input']!r}: {k}: want {w!r}, got {have[k]!r}")
    _check("parse.jsonl", fails, len(cases))


def test_resolve_vectors() -> None:
    cases = read_jsonl("resolve.jsonl")
    fails = []
    for c in cases:
        try:
            got = irinorm.resolve(c["ref"], c["base"])
        except irinorm.ParseError:
            got = None
        if got != c["expected"]:
            fails.append(f"base {c['base']!r} ref {c['ref']!r}: want {c['expected']!r}, got {got!r}")
    _check("resolve.jsonl", fails, len(cases))


@pytest.mark.parametrize("name", ["iri_to_uri.jsonl", "uri_to_iri.jsonl"])
def test_mapping_vectors(name: str) -> None:
    cases = read_jsonl(name)
    fails = []
    for c in cases:
        try:
            if name == "iri_to_uri.jsonl":
                got = irinorm.to_uri(c["input"], idna=c.get("idna", False))
            else:
                got = irinorm.to_iri(c["input"])
        except irinorm.ParseError:
            got = None
        if got != c["expected"]:
            fails.append(f"{c['input']!r}: want {c['expected']!r}, got {got!r}")
    _check(name, fails, len(cases))
