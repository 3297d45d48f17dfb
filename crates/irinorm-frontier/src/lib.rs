//! # irinorm-frontier
//!
//! Measuring irinorm on realistic input: a seeded generator that turns real
//! URL lists into a frontier of any size with planted aliases, each tagged
//! with its true equivalence class and the lowest rung (or the named rule)
//! that makes it equal to its original, and confusers that no configuration
//! may merge; and the quality report of every rung and preset on such a
//! frontier: recall per alias kind, false merges, reduction ratio.
//!
//! ```
//! use irinorm_frontier::{generate, quality, GenerateOptions, Originals};
//! let originals = Originals::from_lines([
//!     "https://www.example.com/a/b?x=1&y=2",
//!     "http://example.org/%C3%A9t%C3%A9",
//! ]);
//! let opts = GenerateOptions { lines: 200, ..GenerateOptions::default() };
//! let mut tsv = Vec::new();
//! generate(&originals, &opts, &mut tsv).unwrap();
//! let report = quality(&tsv[..]).unwrap();
//! assert_eq!(report.config("rfc").unwrap().false_merge_groups, 0);
//! ```
//!
//! The format, every kind and the options are described in
//! `docs/frontier.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
mod crawl;
mod crawl_write;
mod generate;
mod kind;
mod originals;
mod plant;
mod quality;
mod rng;

pub use crawl::{simulate, Capture, CrawlOptions, Rung3};
pub use crawl_write::{payload_digest, write_crawl, CrawlFiles, TRUTH_HEADER};
pub use generate::{
    class_id, generate, mark, GenerateError, GenerateOptions, GenerateStats, HEADER,
};
pub use kind::{Configuration, EqualAt, Keyer, Kind};
pub use originals::{
    load_corpora, LoadStats, Originals, IDN_HOSTS, IRI_PATHS, PASS_MARKER, SYNTHETIC_EVERY,
};
pub use plant::{iri_allowed, plant, unicode_host, Parts, Planted};
pub use quality::{
    quality, report, AliasSample, Cell, ConfigReport, FalseMerge, Frontier, QualityError, Report,
    SAMPLES,
};
pub use rng::{mix, Rng};
