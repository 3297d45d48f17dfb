//! # irinorm-learn
//!
//! Learns site-specific DUST rules ("different URLs with similar text",
//! Bar-Yossef, Keidar, Schonfeld, WWW 2007) as `[[host-rule]]` sections of
//! the settings file (irinorm-rules), from rows of crawl evidence: URLs
//! with payload digests (content evidence), redirects, or a URL list with
//! an optional size or digest column (DustBuster's setting). See
//! docs/learning.md for the method, its validation and the measured
//! precision and recall.
//!
//! The crate does no I/O of its own beyond reading URL lists from a
//! [`std::io::BufRead`] ([`rows`]); crawl files (WARC, ARC, CDX, CDXJ,
//! redirect logs) come from the readers of irinorm-archive and the
//! evidence store, as the same [`Row`]s, and the simulated crawl it is
//! measured on is irinorm-frontier's ([`sim`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod candidate;
pub mod evaluate;
mod learner;
pub mod rows;
pub mod sim;
mod structure;
mod url;

pub use evaluate::{evaluate, Figures};
pub use learner::{evidence_truth, learn, Learned, Options};
pub use rows::Row;
