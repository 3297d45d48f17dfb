//! The crawl-evidence store behind rung 3 (`protocol`) of the irinorm
//! comparison ladder (`LADDER.md`, "Rung 3"; RFC 3986 §6.2.4).
//!
//! - [`Store`]: one SQLite file (WAL mode, schema versioned, documented in
//!   docs/evidence.md): observations keyed by their rung-2 `uri` form, with
//!   the original text, source, byte offset and time of each; ingestion in
//!   batches, idempotent by (source, offset), resumable after a kill.
//! - [`StoreEvidence`]: the latest deciding observation of every key and
//!   the host-level conventions, loaded once; implements
//!   [`irinorm::protocol::Evidence`] for [`irinorm::protocol::Protocol`].
//! - [`MappedEvidence`]: the same lookups materialized in a file beside
//!   the store (`FILE.db.lookup`, written once per store generation) and
//!   memory-mapped, with Bloom filters in front ([`open_lookups`]).
//! - Observations come from the readers of `irinorm-archive` (WARC, ARC,
//!   CDX, CDXJ, redirect logs, digest lists).

pub mod lookup;
pub mod mapped;
pub mod store;

pub use irinorm_archive::{Observation, ObservationKind, RecordError};
pub use lookup::StoreEvidence;
pub use mapped::{lookup_path, open_lookups, Lookups, MappedEvidence};
pub use store::{
    host_of, IngestOptions, IngestReport, Reject, Stamp, Store, StoreError, Stored, SCHEMA_VERSION,
};
