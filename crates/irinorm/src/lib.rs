//! # irinorm
//!
//! Decides when two URIs or IRIs identify the same resource, and turns each
//! one into the canonical form that makes that decision a string comparison.
//!
//! - [`parse`](mod@parse): an exact, single-pass parser for every grammar of RFC 3986
//!   and RFC 3987, with typed results in [`reference`](mod@reference) ([`Uri`], [`IriRef`],
//!   ... borrowed and owned).
//! - [`resolve`](mod@resolve): reference resolution (RFC 3986 §5.2-§5.3).
//! - [`mapping`]: IRI to URI (RFC 3987 §3.1) and URI to IRI (§3.2).
//! - [`path`]: `remove_dot_segments` (RFC 3986 §5.2.4).
//! - [`host`]: IPv4/IPv6/IPvFuture hosts, RFC 5952 IPv6 text.
//! - [`idn`]: UTS #46 through the `idna` crate.
//! - [`protocol`]: rung 3, the ladder plus recorded evidence (the
//!   [`protocol::Evidence`] trait).
//! - [`ladder`]: the comparison ladder (string, syntax, scheme rungs) as
//!   normalization, comparison and keys; [`scheme`]: the scheme registry.
//! - [`repair`]: opt-in repair of what browsers accept into an RFC 3987 reference.
//! - [`surt`]: SURT archive keys, byte-identical to the `surt` Python package.
//!
//! The library does no I/O and has no `unsafe` code (the SIMD kernels of
//! its scanner are in `irinorm-simd`, whose only `unsafe` is the call of a
//! kernel after runtime feature detection: docs/simd.md). Errors are values:
//! no input, however malformed, makes it panic.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bytefind;
pub mod error;
pub mod host;
pub mod idn;
pub mod ladder;
pub mod mapping;
pub mod norm;
pub mod parse;
pub mod path;
pub mod pct;
pub mod protocol;
pub mod reference;
pub mod repair;
pub mod resolve;
mod scan;
pub mod scheme;
pub mod surt;
mod table;
pub mod ucs;

pub use error::{Component, ErrorKind, ParseError};
pub use host::HostKind;
pub use mapping::{iri_to_uri, iri_to_uri_with, uri_to_iri, MapError, ToUriOptions};
pub use parse::{parse, parse_bytes, split_trusted, Grammar, Meta, Offsets};
pub use reference::{
    AbsoluteIri, AbsoluteIriBuf, AbsoluteUri, AbsoluteUriBuf, Components, Iri, IriBuf, IriRef,
    IriRefBuf, IriRelativeRef, IriRelativeRefBuf, Ref, RefBuf, RelativeRef, RelativeRefBuf, Uri,
    UriBuf, UriRef, UriRefBuf,
};
pub use resolve::{resolve, resolve_into, ResolveError};
