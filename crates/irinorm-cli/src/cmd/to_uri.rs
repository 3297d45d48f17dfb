//! `irinorm to-uri`: IRI to URI (RFC 3987 §3.1).

use std::process::ExitCode;

use irinorm::ToUriOptions;
use irinorm_stream::{Failure, Op, Task};

use crate::common::{execute, CliError, IoArgs, RecordArgs};

const EXAMPLES: &str = "\
Examples:
  irinorm to-uri 'http://example.com/résumé?q=ü'
      http://example.com/r%C3%A9sum%C3%A9?q=%C3%BC
  irinorm to-uri --idna 'http://bücher.example/'
      http://xn--bcher-kva.example/
  irinorm to-uri 'http://bücher.example/'
      http://b%C3%BCcher.example/
  irinorm to-uri --format jsonl -i iris.txt
";

/// Map each IRI to a URI (RFC 3987 §3.1): non-ASCII characters become
/// percent-encoded UTF-8; with --idna, a non-ASCII host becomes its
/// A-label form (UTS #46 ToASCII).
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// Convert non-ASCII host names with UTS #46 ToASCII (punycode
    /// `xn--` labels) instead of percent-encoding them.
    #[arg(long)]
    idna: bool,

    #[command(flatten)]
    io: IoArgs,

    #[command(flatten)]
    records: RecordArgs,
}

pub(crate) struct ToUriOp {
    pub(crate) opts: ToUriOptions,
}

impl Op for ToUriOp {
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        out.push_str(&irinorm::iri_to_uri_with(input, &self.opts)?);
        Ok(())
    }
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    let op = ToUriOp {
        opts: ToUriOptions {
            idna: a.idna,
            ..ToUriOptions::default()
        },
    };
    execute(&a.io, a.records.mode()?, Task::Map(&op))
}
