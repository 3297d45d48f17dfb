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
//! - [`observation`], [`text_reader`]: the shared `Observation` interface
//!   and readers of the text formats (stopgaps until `irinorm-archive`).

pub mod lookup;
pub mod observation;
pub mod store;
pub mod text_reader;

pub use lookup::StoreEvidence;
pub use observation::{Observation, ObservationKind, RecordError};
pub use store::{host_of, IngestOptions, IngestReport, Store, StoreError, Stored, SCHEMA_VERSION};
