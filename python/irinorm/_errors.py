"""The exceptions of irinorm (raised by the native module)."""

from __future__ import annotations

from typing import Optional

__all__ = ["ParseError", "UnavailableError"]


class ParseError(ValueError):
    """An input that is not a valid URI/IRI (reference) for the operation.

    Attributes mirror the CLI's reject reports (docs/cli.md, "Rejects"):

    - ``kind``: stable kebab-case code (``invalid-char``, ``bad-port``, ...)
    - ``offset``: byte offset (UTF-8) of the first byte that is not valid
    - ``component``: ``scheme``, ``authority``, ``userinfo``, ``host``,
      ``port``, ``path``, ``query``, ``fragment`` or ``None``
    - ``input``: the input as text
    - ``side``: for ``compare``/``equivalent``, ``"a"`` or ``"b"``; for
      ``resolve``, ``"base"`` when the base was at fault; else ``None``

    >>> import irinorm
    >>> try:
    ...     irinorm.normalize("http://example.com:8x/")
    ... except irinorm.ParseError as e:
    ...     print(e.kind, e.offset, e.component)
    bad-port 20 port
    """

    def __init__(
        self,
        message: str,
        kind: str,
        offset: int,
        component: Optional[str],
        input: str,
        side: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.offset = offset
        self.component = component
        self.input = input
        self.side = side

    def __reduce__(self):  # type: ignore[override]
        return (
            type(self),
            (self.args[0], self.kind, self.offset, self.component, self.input, self.side),
        )


class UnavailableError(NotImplementedError):
    """A feature this build of irinorm does not have: options of peers that
    are not ported (see :mod:`irinorm.compat.surt`)."""
