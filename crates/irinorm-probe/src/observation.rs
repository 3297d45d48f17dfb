//! STOPGAP: a copy of `irinorm_archive::Observation` as agreed between the
//! branches (the `archive` branch had no crate yet when this was written).
//! Replace this module by `pub use irinorm_archive::{Observation,
//! ObservationKind};` once `crates/irinorm-archive` is merged: the fields
//! and their meaning are the same.

use serde::Serialize;

/// What kind of record an observation comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObservationKind {
    /// A response (here: the final response of a probe).
    Response,
    /// A WARC revisit record (never produced by probing).
    Revisit,
    /// A redirect (here: one hop of a probe).
    Redirect,
    /// A `url<TAB>digest` list entry (never produced by probing).
    Digest,
}

/// One observation about one URL at one time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Observation {
    /// The kind of record.
    pub kind: ObservationKind,
    /// The request URI (for a probe: the rung-2 `uri` form that was requested).
    pub url: String,
    /// 14-digit UTC timestamp `YYYYMMDDhhmmss` (when the response headers arrived).
    pub time: Option<String>,
    /// HTTP status.
    pub status: Option<u16>,
    /// The `Location` resolved against `url` (RFC 3986 §5.2); None if absent or unparseable.
    pub location: Option<String>,
    /// The `Location` header as sent.
    pub location_raw: Option<String>,
    /// Payload digest, `sha1:BASE32` like `WARC-Payload-Digest`.
    pub digest: Option<String>,
    /// Revisit target (never set by probing).
    pub refers_to: Option<String>,
    /// `Content-Type` of the response.
    pub mime: Option<String>,
    /// Position of the record in its source (for a probe: see docs/probe.md).
    pub offset: u64,
}
