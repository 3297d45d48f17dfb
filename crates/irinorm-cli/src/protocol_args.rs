//! The options of rung 3 (`--rung protocol`): the evidence store, which
//! redirects are edges, host-level conventions (docs/cli.md,
//! "Rung 3: protocol"; LADDER.md "Rung 3").

use std::path::PathBuf;
use std::sync::Arc;

use clap::builder::TypedValueParser;
use irinorm::ladder::Rung;
use irinorm::protocol::{ProtocolOptions, RedirectPolicy, DEFAULT_MIN_HOST_SUPPORT};
use irinorm_evidence::{open_lookups, Lookups, Store};

use crate::common::{usage, CliError};

/// `--rung`: a rung of the ladder, or `protocol` (rung 3, with evidence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RungArg {
    /// Rungs 0-2.
    Ladder(Rung),
    /// Rung 3.
    Protocol,
}

/// The `--rung` value parser.
pub(crate) fn rung_parser() -> impl clap::builder::TypedValueParser<Value = RungArg> {
    clap::builder::PossibleValuesParser::new(["string", "syntax", "scheme", "protocol"]).map(|s| {
        if s.eq_ignore_ascii_case("protocol") {
            RungArg::Protocol
        } else {
            RungArg::Ladder(s.parse::<Rung>().unwrap_or_default())
        }
    })
}

/// Rung-3 options.
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Rung 3: protocol")]
pub(crate) struct ProtocolArgs {
    /// The evidence store (`irinorm evidence ingest`) that `--rung
    /// protocol` follows.
    #[arg(long, value_name = "FILE.db")]
    pub(crate) evidence: Option<PathBuf>,

    /// Which recorded redirects are edges: `conventional` (301/308 whose
    /// source and target differ only by a trailing slash, http -> https,
    /// `www.`, path case, a directory index or dropped query parameters),
    /// `permanent` (every 301/308), `all` (302, 303, 307 too).
    #[arg(long, value_name = "POLICY", default_value = "conventional", value_parser = clap::builder::PossibleValuesParser::new(["conventional", "permanent", "all"]).map(|s| s.parse::<RedirectPolicy>().unwrap_or_default()))]
    pub(crate) redirects: RedirectPolicy,

    /// A host-level convention (http -> https, `www.` added or removed,
    /// trailing slash added) applies to an origin's unseen URLs when at
    /// least N distinct URLs there show it and none contradicts it; 0 turns
    /// this off.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MIN_HOST_SUPPORT)]
    pub(crate) min_host_support: u32,
}

impl ProtocolArgs {
    /// The core options.
    pub(crate) fn options(&self) -> ProtocolOptions {
        ProtocolOptions {
            redirects: self.redirects,
            min_host_support: self.min_host_support,
        }
    }

    /// Opens the store and its lookups: mapped from the lookup file beside
    /// it, written first when missing or stale (docs/evidence.md,
    /// "Lookups").
    pub(crate) fn load(&self, quiet: bool) -> Result<(Store, Arc<Lookups>), CliError> {
        let Some(path) = &self.evidence else {
            return usage(
                "--rung protocol needs --evidence FILE.db (see `irinorm evidence ingest`)",
            );
        };
        if !path.is_file() {
            return usage(format!("--evidence {}: no such store", path.display()));
        }
        let store = Store::open(path).map_err(|e| CliError::Usage(e.to_string()))?;
        let (ev, note) = open_lookups(&store, path).map_err(|e| CliError::Usage(e.to_string()))?;
        if !quiet {
            irinorm_stream::note(format_args!("evidence: {note}"));
        }
        Ok((store, Arc::new(ev)))
    }
}
