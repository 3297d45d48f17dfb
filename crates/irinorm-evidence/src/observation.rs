//! One observation of crawl evidence, as the shared interface of
//! `irinorm-archive` defines it (`irinorm_archive::Observation`).
//!
//! Stopgap: until the `archive` branch (the WARC/ARC/CDX/CDXJ readers) is
//! merged, the types live here with the same names and fields, so that the
//! merge replaces this file by `pub use irinorm_archive::{...}`.

/// What kind of record an observation came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObservationKind {
    /// A WARC/ARC `response` record or a CDX(J) capture.
    Response,
    /// A WARC `revisit` record (or a CDX `warc/revisit` line).
    Revisit,
    /// A line of a redirect log (`from<TAB>status<TAB>to`).
    Redirect,
    /// A line of a digest list (`url<TAB>digest`).
    Digest,
}

impl ObservationKind {
    /// Stable lower-case name (stored in the `observations.kind` column).
    pub const fn name(self) -> &'static str {
        match self {
            ObservationKind::Response => "response",
            ObservationKind::Revisit => "revisit",
            ObservationKind::Redirect => "redirect",
            ObservationKind::Digest => "digest",
        }
    }

    /// The kind of a stored name.
    pub fn from_name(s: &str) -> Option<Self> {
        [
            ObservationKind::Response,
            ObservationKind::Revisit,
            ObservationKind::Redirect,
            ObservationKind::Digest,
        ]
        .into_iter()
        .find(|k| k.name() == s)
    }
}

/// One observation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// Record kind.
    pub kind: ObservationKind,
    /// The request/target URI as recorded (original text).
    pub url: String,
    /// 14-digit UTC timestamp `YYYYMMDDhhmmss`, as text.
    pub time: Option<String>,
    /// HTTP status; `None` when unknown (`-`).
    pub status: Option<u16>,
    /// Redirect target resolved against `url` (RFC 3986 §5.2).
    pub location: Option<String>,
    /// The Location header / CDX `r` / CDXJ `redirect` as recorded.
    pub location_raw: Option<String>,
    /// Payload digest as `sha1:BASE32`.
    pub digest: Option<String>,
    /// Revisit: `WARC-Refers-To-Target-URI`.
    pub refers_to: Option<String>,
    /// Media type.
    pub mime: Option<String>,
    /// Byte offset of the record in its source (line start for text).
    pub offset: u64,
}

/// A bad record (the reader goes on) or, with `fatal`, the end of a file
/// that cannot be read further.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// Byte offset of the record.
    pub offset: u64,
    /// 1-based line, for text formats.
    pub line: Option<u64>,
    /// Stable kebab-case kind.
    pub kind: &'static str,
    /// What is wrong.
    pub message: String,
    /// The reader stops after this error.
    pub fatal: bool,
}

impl core::fmt::Display for RecordError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "byte {}", self.offset)?;
        if let Some(l) = self.line {
            write!(f, " (line {l})")?;
        }
        write!(f, ": {}: {}", self.kind, self.message)
    }
}
