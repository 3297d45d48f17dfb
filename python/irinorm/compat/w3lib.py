"""A drop-in for ``w3lib.url.canonicalize_url`` on irinorm
(docs/python.md, "Drop-ins"; differences in docs/known-differences.md).

Same signature and the same idea: one canonical string per resource for a
crawler's seen-set. What it does: irinorm's repair pass (docs/repair.md:
what browsers accept, made an RFC 3987 reference, as w3lib accepts what
pages contain), then rung 2 (RFC 3986
§6.2.2-§6.2.3: case, percent-encoding, dot segments, default port, empty
path, IDN to A-labels), then the query sorted by name and value (as w3lib
does), blank values dropped when ``keep_blank_values=False``, and the
fragment dropped unless ``keep_fragments=True``.

Where it differs from w3lib, on purpose:

- the default port goes (``http://a:80/`` -> ``http://a/``; w3lib keeps it);
- ``%2F``, ``%3F`` and other reserved characters stay encoded and
  unreserved ones are decoded everywhere (w3lib re-encodes by its own safe
  lists);
- what is not a URI/IRI reference raises :class:`irinorm.ParseError` (a
  ``ValueError``) instead of coming out mangled (w3lib never refuses:
  ``'"http://a/"'`` gives ``'https://"http/a/%22'``-like strings);
- ``encoding`` is accepted for compatibility; irinorm's query text is
  UTF-8 (RFC 3987 §3.1) whatever it says, and a ``bytes`` URL must be UTF-8.

>>> canonicalize_url("HTTP://Example.COM:80/a/./b?b=2&a=1#frag")
'http://example.com/a/b?a=1&b=2'
>>> canonicalize_url("http://example.com/a?x=&y=1", keep_blank_values=False)
'http://example.com/a?y=1'
"""

from __future__ import annotations

from typing import Any, Optional, Union

from .._native import Normalizer

__all__ = ["canonicalize_url"]

_keep = Normalizer(repair=True)
_drop = Normalizer(rules="remove-fragment", repair=True)


def _sorted_query(q: str, keep_blank_values: bool, sep: str) -> str:
    parts = [p for p in q.split(sep) if p]
    if not keep_blank_values:
        parts = [p for p in parts if p.partition("=")[2]]
    # w3lib sorts (name, value) pairs; on the encoded text this is the same
    # order for ASCII names and values (irinorm's output is ASCII).
    parts.sort(key=lambda p: tuple(p.split("=", 1)) if "=" in p else (p, ""))
    return sep.join(parts)


def canonicalize_url(
    url: Union[str, bytes, Any],
    keep_blank_values: bool = True,
    keep_fragments: bool = False,
    encoding: Optional[str] = None,
    *,
    query_separator: str = "&",
) -> str:
    """Canonical form of ``url`` for deduplication (see the module doc)."""
    if not isinstance(url, (str, bytes)):
        # urllib.parse.ParseResult, as w3lib accepts.
        url = url.geturl()
    if isinstance(url, bytes):
        url = url.decode("utf-8")
    n = (_keep if keep_fragments else _drop).normalize(url)
    head, hash_, frag = n.partition("#")
    base, q_, query = head.partition("?")
    if q_:
        query = _sorted_query(query, keep_blank_values, query_separator)
        head = f"{base}?{query}" if query else base
    return head + hash_ + frag
