//! `irinorm resolve`: resolve references against a base (RFC 3986 §5.2).

use std::process::ExitCode;

use irinorm::{Grammar, Meta};
use irinorm_stream::{Failure, Op, Task};

use crate::common::{execute, usage, CliError, IoArgs, RecordArgs};

const EXAMPLES: &str = "\
Examples:
  irinorm resolve --base 'http://a/b/c/d;p?q' '../g' '?y' '#s' 'g;x=1/../y'
      http://a/b/g
      http://a/b/c/d;p?y
      http://a/b/c/d;p?q#s
      http://a/b/c/y
  irinorm resolve --base 'http://example.com/dir/' --format jsonl -i hrefs.txt
  irinorm resolve --base 'https://example.com/' --field href --into url -i links.jsonl
";

/// Resolve each reference against a base IRI (RFC 3986 §5.2, strict).
///
/// The base must be an absolute IRI (a scheme is required; a fragment is
/// ignored). Each reference is parsed as an IRI-reference; the empty
/// reference resolves to the base without its fragment.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// The base IRI.
    #[arg(long, short = 'b', value_name = "B")]
    base: String,

    #[command(flatten)]
    io: IoArgs,

    #[command(flatten)]
    records: RecordArgs,
}

pub(crate) struct ResolveOp {
    base: String,
    meta: Meta,
}

impl ResolveOp {
    pub(crate) fn new(base: String) -> Result<Self, CliError> {
        match irinorm::parse(&base, Grammar::Iri) {
            Ok(meta) => Ok(ResolveOp { base, meta }),
            Err(e) => usage(format!(
                "--base {base:?} is not an absolute IRI: {}",
                Failure::from(e)
            )),
        }
    }
}

impl Op for ResolveOp {
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        let rm = irinorm::parse(input, Grammar::IriReference)?;
        irinorm::resolve_into(&self.base, &self.meta, input, &rm, out);
        Ok(())
    }
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    let op = ResolveOp::new(a.base)?;
    execute(&a.io, a.records.mode()?, Task::Map(&op))
}
