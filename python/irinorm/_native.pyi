"""Type stubs of the native module (src/lib.rs)."""

import os
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, TypeVar, Union

_T = TypeVar("_T", str, bytes)
Rung = Literal["string", "syntax", "scheme", "protocol"]
Redirects = Literal["conventional", "permanent", "all"]
Evidence = Union[str, "os.PathLike[str]", None]
Form = Literal["uri", "iri"]
Preset = Literal["rfc", "fetch", "crawler", "aggressive"]
Rules = Union[str, Sequence[str], None]
Config = Union[str, "os.PathLike[str]", Mapping[str, Any], None]

class Normalizer:
    """Options held for repeated use; thread-safe."""

    def __init__(
        self,
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
    ) -> None: ...
    @staticmethod
    def _for(func: str, form: bool, args: Tuple[Any, ...], kwargs: Optional[Mapping[str, Any]] = None) -> "Normalizer": ...
    def normalize(self, url: _T) -> _T: ...
    def key(self, url: Union[str, bytes]) -> bytes: ...
    def key_text(self, url: Union[str, bytes]) -> str: ...
    def compare(self, a: Union[str, bytes], b: Union[str, bytes]) -> Optional[str]: ...
    def equivalent(self, a: Union[str, bytes], b: Union[str, bytes]) -> bool: ...
    def explain(self, url: Union[str, bytes]) -> Dict[str, Any]: ...
    def _normalize_list(self, items: Sequence[Union[str, bytes, None]]) -> Tuple[List[Any], List[Optional[str]]]: ...
    def _key_list(self, items: Sequence[Union[str, bytes, None]]) -> Tuple[List[Optional[bytes]], List[Optional[str]]]: ...
    def _arrow(
        self, n: int, offset: int, offsets: Any, large: bool, data: Any, validity: Any, key: bool
    ) -> Tuple[bool, bytes, int, bytes, bytes, int, Tuple[bytes, int, bytes, bytes, bool]]: ...
    @property
    def rung(self) -> str: ...
    @property
    def form(self) -> str: ...
    @property
    def preset(self) -> Optional[str]: ...
    @property
    def rules(self) -> List[str]: ...
    @property
    def base(self) -> Optional[str]: ...

class Reference:
    """The components of a parsed reference."""

    text: str
    grammar: str
    scheme: Optional[str]
    authority: Optional[str]
    userinfo: Optional[str]
    host: Optional[str]
    host_kind: Optional[str]
    port: Optional[str]
    path: str
    query: Optional[str]
    fragment: Optional[str]
    @property
    def is_absolute(self) -> bool: ...
    def to_dict(self) -> Dict[str, Optional[str]]: ...

def normalize(
    url: _T,
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
) -> _T: ...
def key(
    url: Union[str, bytes],
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
) -> bytes: ...
def compare(
    a: Union[str, bytes],
    b: Union[str, bytes],
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
) -> Optional[str]: ...
def equivalent(
    a: Union[str, bytes],
    b: Union[str, bytes],
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
) -> bool: ...
def explain(
    url: Union[str, bytes],
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
) -> Dict[str, Any]: ...
def parse(url: Union[str, bytes], grammar: str = "IRI-reference") -> Reference: ...
def resolve(reference: _T, base: Union[str, bytes]) -> _T: ...
def to_uri(iri: _T, idna: bool = False) -> _T: ...
def to_iri(uri: _T) -> _T: ...
def lint(url: Union[str, bytes], grammar: str = "IRI-reference") -> Dict[str, Any]: ...
def presets() -> List[Tuple[str, List[str]]]: ...
def _surt(
    url: _T, with_scheme: bool = False, trailing_comma: bool = False, reverse_ipaddr: bool = True, host_massage: bool = True
) -> _T: ...
