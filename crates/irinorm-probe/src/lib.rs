//! Live probing: evidence for the protocol rung (RFC 3986 §6.2.4) gathered
//! from the servers themselves, politely.
//!
//! Each distinct URL (deduplicated at rung 2) is requested with `HEAD`
//! (`GET` when `HEAD` is refused, or when a digest of the body is wanted),
//! redirects are followed hop by hop and each response becomes an
//! [`Observation`] as a crawl file would give it: `Redirect` for a hop,
//! `Response` for the final answer. Every URL that cannot be probed ends
//! in a [`Failure`] with a stable kind. Politeness: robots.txt (RFC 9309),
//! per-host concurrency and rate, `Crawl-delay`, `Retry-After`.
//! See docs/probe.md.

pub mod config;
pub mod failure;
mod host_gate;
pub mod prober;
mod robots;
pub mod run;
pub mod store_run;
pub mod timestamp;

pub use config::{parse_resolve, ProbeConfig, DEFAULT_USER_AGENT};
pub use failure::Failure;
/// The shared observation type (`irinorm_archive::Observation`, through the store crate).
pub use irinorm_evidence::{Observation, ObservationKind};
pub use prober::{Probed, Prober};
pub use run::{run, rung2, InputUrl, ProbeRecord, Summary};
pub use store_run::{probe_into_store, StoreRun};
