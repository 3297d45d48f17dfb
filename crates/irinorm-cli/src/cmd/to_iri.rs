//! `irinorm to-iri`: URI to IRI (RFC 3987 §3.2).

use std::process::ExitCode;

use irinorm_stream::{Failure, Op, Task};

use crate::common::{execute, CliError, IoArgs, RecordArgs};

const EXAMPLES: &str = "\
Examples:
  irinorm to-iri 'http://example.com/r%C3%A9sum%C3%A9'
      http://example.com/résumé
  irinorm to-iri 'http://a/%2F%C0%AF'          (reserved and invalid UTF-8 stay encoded)
      http://a/%2F%C0%AF
  irinorm to-iri --format jsonl -i uris.txt
";

/// Map each URI to an IRI (RFC 3987 §3.2): percent-encoded UTF-8 of
/// characters allowed in an IRI is decoded; reserved characters, `%25`,
/// invalid or overlong UTF-8 and bidi formatting characters stay encoded.
/// The input must be a URI-reference (ASCII).
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    #[command(flatten)]
    io: IoArgs,

    #[command(flatten)]
    records: RecordArgs,
}

pub(crate) struct ToIriOp;

impl Op for ToIriOp {
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        out.push_str(&irinorm::uri_to_iri(input)?);
        Ok(())
    }
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    execute(&a.io, a.records.mode()?, Task::Map(&ToIriOp))
}
