"""A drop-in for ``surt.surt()`` of the ``surt`` package (0.3.1): the
Sort-friendly URI Reordering Transform, the key of every CDX index (pywb,
OpenWayback, Common Crawl's ``url_surtkey``). Byte-identical with the
default options and with ``with_scheme``, ``trailing_comma``,
``reverse_ipaddr`` and ``host_massage`` (the Rust port ``irinorm::surt``,
tested against the package on the shared corpora; docs/known-differences.md,
"SURT").

A SURT is an archive lookup key, not an RFC 3986 normal form: it lower-cases
paths and queries. ``str`` in, ``str`` out; ``bytes`` in, ``bytes`` out.

>>> surt("http://www.archive.org/")
'org,archive)/'
>>> surt("http://archive.org/goo/?b&a", with_scheme=True, trailing_comma=True)
'http://(org,archive,)/goo?a&b'

Differences from the package: a custom ``canonicalizer`` and the options
the port does not have (``public_suffix``, ...) raise
:class:`irinorm.UnavailableError`; where the package raises
``AttributeError`` (a blank URL) this raises ``ValueError``, as it does for a
port that is not a number.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, TypeVar

from .._errors import UnavailableError
from .._native import _surt

__all__ = ["surt"]

_T = TypeVar("_T", str, bytes)

_OPTIONS = {"with_scheme", "trailing_comma", "reverse_ipaddr", "host_massage"}


def surt(url: _T, canonicalizer: Optional[Callable[..., Any]] = None, **options: bool) -> _T:
    """The SURT key of ``url`` (see the module doc)."""
    if canonicalizer is not None:
        raise UnavailableError("irinorm.compat.surt has no custom canonicalizers: use the surt package")
    other = set(options) - _OPTIONS
    if other:
        raise UnavailableError(f"surt option(s) not ported: {', '.join(sorted(other))}")
    return _surt(url, **{k: bool(v) for k, v in options.items()})
