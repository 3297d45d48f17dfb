"""Type stubs of irinorm._batch (the options are parsed natively, options.rs)."""

from typing import Any, Optional, Tuple

from ._native import Config, Evidence, Normalizer, Rules

__all__ = ["normalize_many", "key_many", "run_many"]

def run_many(n: Normalizer, urls: Any, key: bool) -> Tuple[Any, Any]: ...
def normalize_many(
    urls: Any,
    rung: Optional[str] = None,
    form: Optional[str] = None,
    preset: Optional[str] = None,
    rules: Rules = None,
    config: Config = None,
    base: Optional[str] = None,
    *,
    ignore_fragment: bool = False,
    nfc: bool = False,
    nfkc: bool = False,
    max_len: Optional[int] = None,
    repair: bool = False,
    evidence: Evidence = None,
    redirects: Optional[str] = None,
    min_host_support: Optional[int] = None,
) -> Tuple[Any, Any]: ...
def key_many(
    urls: Any,
    rung: Optional[str] = None,
    preset: Optional[str] = None,
    rules: Rules = None,
    config: Config = None,
    base: Optional[str] = None,
    *,
    ignore_fragment: bool = False,
    nfc: bool = False,
    nfkc: bool = False,
    max_len: Optional[int] = None,
    repair: bool = False,
    evidence: Evidence = None,
    redirects: Optional[str] = None,
    min_host_support: Optional[int] = None,
) -> Tuple[Any, Any]: ...
