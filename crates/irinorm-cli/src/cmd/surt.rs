//! `irinorm surt`: SURT keys of CDX indexes, byte-identical to the `surt`
//! Python package (see `irinorm::surt` and docs/cli.md).

use std::process::ExitCode;

use irinorm::surt::{surt_with, SurtOptions};
use irinorm_stream::{Failure, Op, Task};

use crate::common::{execute, CliError, IoArgs, RecordArgs};

const EXAMPLES: &str = "\
Examples:
  irinorm surt 'http://www.archive.org/goo/?b&a'
      org,archive)/goo?a&b
  irinorm surt --heritrix 'http://www.archive.org/'
      http://(org,archive,)/
  irinorm surt --no-host-massage --no-reverse-ipaddr 'http://www.archive.org/' 'http://10.0.0.1/'
      org,archive,www)/
      10.0.0.1)/
  irinorm surt -i urls.txt.gz -o keys.txt.zst
";

/// Write the SURT (Sort-friendly URI Reordering Transform) key of each
/// URL: the key of CDX indexes (pywb, OpenWayback, Common Crawl's
/// `url_surtkey`), byte-identical to `surt.surt()` of the `surt` Python
/// package. A SURT is an archive lookup key, not an RFC normal form (it
/// lower-cases paths and queries, drops fragments and userinfo, sorts
/// query parameters). Inputs are taken as the package takes them (a
/// missing scheme means `http://`); only blank inputs and bad ports are
/// rejected, as the package raises on those.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    #[command(flatten)]
    surt: SurtArgs,

    #[command(flatten)]
    io: IoArgs,

    #[command(flatten)]
    records: RecordArgs,
}

/// The options of `surt.surt()`.
#[derive(Clone, Copy, Debug, clap::Args)]
#[command(next_help_heading = "SURT")]
pub(crate) struct SurtArgs {
    /// Start with `scheme://(` (surt's `with_scheme=True`).
    #[arg(long)]
    with_scheme: bool,
    /// A `,` after the reversed host (surt's `trailing_comma=True`).
    #[arg(long)]
    trailing_comma: bool,
    /// The Heritrix form `http://(org,archive,)/`: --with-scheme and
    /// --trailing-comma.
    #[arg(long)]
    heritrix: bool,
    /// Keep dotted-quad IPv4 hosts as they are (surt's `reverse_ipaddr=False`).
    #[arg(long)]
    no_reverse_ipaddr: bool,
    /// Keep a leading `www.`, `www2.`... (surt's `host_massage=False`).
    #[arg(long)]
    no_host_massage: bool,
}

impl SurtArgs {
    pub(crate) fn options(&self) -> SurtOptions {
        SurtOptions {
            with_scheme: self.with_scheme || self.heritrix,
            trailing_comma: self.trailing_comma || self.heritrix,
            reverse_ipaddr: !self.no_reverse_ipaddr,
            host_massage: !self.no_host_massage,
        }
    }
}

/// The key of one URL; `surt-error` where the package raises.
pub(crate) fn key(input: &str, o: SurtOptions, out: &mut String) -> Result<(), Failure> {
    let k = surt_with(input, o).map_err(|e| Failure::new("surt-error", 0, e.to_string()))?;
    out.push_str(&k);
    Ok(())
}

struct SurtOp(SurtOptions);

impl Op for SurtOp {
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        key(input, self.0, out)
    }
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    execute(
        &a.io,
        a.records.mode()?,
        Task::Map(&SurtOp(a.surt.options())),
    )
}
