"""A Scrapy request fingerprinter keyed on irinorm's comparison key
(docs/python.md, "Drop-ins").

In a Scrapy project's settings::

    REQUEST_FINGERPRINTER_CLASS = "irinorm.compat.scrapy.IrinormRequestFingerprinter"
    IRINORM_FINGERPRINT_PRESET = "fetch"        # default; any irinorm preset
    IRINORM_FINGERPRINT_RULES = []              # extra named rules (irinorm presets --rules)

Two requests have the same fingerprint when they have the same method, the
same body and URLs with the same irinorm key at the preset's rung and
rules. The default preset ``fetch`` (rung 2 and ``remove-fragment``)
matches Scrapy's default of ignoring fragments; ``crawler`` also drops
tracking parameters. Unlike Scrapy's default fingerprinter, the query is
not re-sorted unless a rule says so (``sort-query``), and headers are never
included. A URL irinorm rejects (Scrapy lets through some that are not
RFC 3986 URIs) is fingerprinted on its exact text, so crawling never stops
on one. Fingerprints are 20 bytes (SHA-1), as Scrapy's.
"""

from __future__ import annotations

import hashlib
from typing import Any, List, Optional, Union
from weakref import WeakKeyDictionary

from .._errors import ParseError
from .._native import Normalizer

__all__ = ["IrinormRequestFingerprinter"]


class IrinormRequestFingerprinter:
    """Scrapy's ``REQUEST_FINGERPRINTER_CLASS`` interface
    (``from_crawler`` and ``fingerprint(request) -> bytes``)."""

    def __init__(
        self,
        crawler: Any = None,
        *,
        preset: Optional[str] = None,
        rules: Union[str, List[str], None] = None,
    ) -> None:
        if crawler is not None:
            s = crawler.settings
            preset = preset or s.get("IRINORM_FINGERPRINT_PRESET")
            rules = rules or s.getlist("IRINORM_FINGERPRINT_RULES") or None
        self.normalizer = Normalizer(preset=preset or "fetch", rules=rules)
        self._cache: "WeakKeyDictionary[Any, bytes]" = WeakKeyDictionary()

    @classmethod
    def from_crawler(cls, crawler: Any) -> "IrinormRequestFingerprinter":
        return cls(crawler)

    def url_key(self, url: str) -> bytes:
        """The part of the fingerprint that comes from the URL."""
        try:
            return b"k" + self.normalizer.key(url)
        except ParseError:
            return b"r" + url.encode("utf-8", "surrogateescape")

    def fingerprint(self, request: Any) -> bytes:
        fp = self._cache.get(request)
        if fp is None:
            method = request.method.encode("ascii", "replace") if isinstance(request.method, str) else request.method
            h = hashlib.sha1(method)
            h.update(b"\0")
            h.update(self.url_key(request.url))
            h.update(b"\0")
            h.update(request.body or b"")
            fp = h.digest()
            self._cache[request] = fp
        return fp
