"""irinorm: URI/IRI normalization and comparison, exactly as RFC 3986 and
RFC 3987 say (the comparison ladder of rungs ``string``, ``syntax``,
``scheme``), named normalizations and presets beyond the RFCs, a linter,
Arrow batches and Spark column functions.

>>> import irinorm
>>> irinorm.normalize("HTTP://Example.COM:80/a/./b/../%7euser")
'http://example.com/a/~user'
>>> irinorm.normalize("http://xn--rsum-bpad.example/%C3%A9", form="iri")
'http://résumé.example/é'
>>> irinorm.compare("http://example.com", "HTTP://EXAMPLE.com:80/")
'scheme'
>>> irinorm.equivalent("http://a/?utm_source=x", "http://a/", preset="crawler")
True
>>> irinorm.key("http://example.com/").hex() == irinorm.key("HTTP://example.com:80").hex()
True
>>> irinorm.resolve("../g", "http://a/b/c/d;p?q")
'http://a/b/g'

The vocabulary is the CLI's (docs/cli.md, docs/python.md): ``rung``,
``form``, ``preset``, ``rules`` (``--apply``), ``config`` (``--config``),
``base``. Invalid input raises :class:`ParseError` (a ``ValueError``)
with ``kind``, ``offset`` and ``component``; inputs are ``str`` or UTF-8
``bytes`` and results have the input's type.
"""

from __future__ import annotations

from ._errors import ParseError, UnavailableError
from ._native import (
    Normalizer,
    Reference,
    compare,
    equivalent,
    explain,
    key,
    lint,
    normalize,
    parse,
    presets,
    resolve,
    to_iri,
    to_uri,
)
from ._batch import key_many, normalize_many

__all__ = [
    "Normalizer",
    "ParseError",
    "Reference",
    "UnavailableError",
    "compare",
    "equivalent",
    "explain",
    "key",
    "key_many",
    "lint",
    "normalize",
    "normalize_many",
    "parse",
    "presets",
    "resolve",
    "to_iri",
    "to_uri",
]

__version__ = "0.1.0"
