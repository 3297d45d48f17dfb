//! # irinorm-rules
//!
//! The named normalizations beyond the RFC ladder (LADDER.md, "Beyond the
//! ladder"), each with its class (`usually-safe` or `unsafe`), the presets
//! `rfc`, `fetch`, `crawler`, `aggressive` (and `safebrowsing`, a lookup key:
//! [`safebrowsing`]), and a record of which rule
//! changed what.
//!
//! ```
//! use irinorm_rules::{Pipeline, Preset};
//! let p = Pipeline::preset(Preset::Crawler);
//! let o = p.normalize("http://Example.com./a?utm_source=news&id=1#top").unwrap();
//! assert_eq!(o.text, "http://example.com/a?id=1");
//! ```
//!
//! - Rules run in one fixed order ([`RuleName::ORDER`]) whatever order
//!   they are listed in, and every combination is idempotent.
//! - Parameters are bytes: sorting and removing never decode or re-encode.
//! - No rule performs DNS or any other I/O.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod apply;
pub mod config;
mod glob;
pub mod host_rules;
mod name_order;
mod over_protocol;
mod pipeline;
mod preset;
mod query_filter;
mod query_section;
mod rule;
pub mod safebrowsing;

pub use apply::{apply, Fired};
pub use config::{load_toml, Config, DefaultParam};
pub use glob::{host_matches, matches as glob_matches};
pub use host_rules::{HostRule, HostRuleKind, HostRuleSet};
pub use pipeline::{Outcome, Pipeline, Verdict};
pub use preset::Preset;
pub use rule::{Class, RuleName, RuleSet};

/// The Rust blocks of README.md (the library quick start) run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
