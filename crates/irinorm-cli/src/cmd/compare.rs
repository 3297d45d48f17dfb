//! `irinorm compare`: are two identifiers equivalent, and from which rung?

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use irinorm::ladder::{Form, Rung, Side};
use irinorm_rules::Pipeline;
use irinorm_stream::{Failure, JsonObject, Op, Task};

use crate::common::{execute, usage, CliError, IoArgs, RecordArgs};
use crate::ladder_args::LadderArgs;

const EXAMPLES: &str = "\
Examples:
  irinorm compare 'http://example.com/%7euser' 'HTTP://EXAMPLE.COM/~user'
      equivalent (syntax)
  irinorm compare 'http://example.com' 'http://example.com:80/'
      equivalent (scheme)
  irinorm compare --rung syntax 'http://example.com' 'http://example.com:80/'
      different                                            [exit status 1]
  irinorm compare 'http://a/b%2Fc' 'http://a/b/c'
      different                                            [exit status 1]
  irinorm compare --preset crawler 'http://a/?utm_source=x' 'http://a/'
      equivalent (string)
  printf 'http://a/\\thttp://A:80/\\n' | irinorm compare --format jsonl
  irinorm compare --csv --column old_url --column new_url -i moves.csv > checked.csv
";

/// Compare identifiers: `equivalent (RUNG)` with the lowest rung at which
/// they are equal, or `different`. Exit status 0 when every pair is
/// equivalent at the requested --rung (default `scheme`), 1 when any is not
/// (or is rejected).
///
/// With two arguments, compares them; with none, reads pairs from --input
/// files or stdin, one per line, the two identifiers separated by a TAB,
/// or from records: `--column A --column B` (CSV/TSV) or `--field A
/// --field B` (JSON Lines), the verdict added as column/field `comparison`
/// (or `--into NAME`).
/// Named rules and presets apply on top of each rung. jsonl: `"a"`, `"b"`,
/// `"equivalent"`, `"rung"` (the lowest equal rung, or null).
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    #[command(flatten)]
    ladder: LadderArgs,

    #[command(flatten)]
    io: IoArgs,

    #[command(flatten)]
    records: RecordArgs,
}

struct CompareOp {
    p: Pipeline,
    rung: Rung,
    different: AtomicU64,
}

impl CompareOp {
    /// The pair's lowest equal rung; a side that fails to parse is rejected
    /// with its offset in the line (`b` starts after the TAB).
    fn lowest<'s>(&self, line: &'s str) -> Result<(&'s str, &'s str, Option<Rung>), Failure> {
        let Some((a, b)) = line.split_once('\t') else {
            return Err(Failure::new(
                "not-a-pair",
                line.len(),
                "expected two identifiers separated by a TAB",
            ));
        };
        match self.p.compare(a, b) {
            Ok(r) => {
                if r.is_none_or(|r| r > self.rung) {
                    self.different.fetch_add(1, Ordering::Relaxed);
                }
                Ok((a, b, r))
            }
            Err(e) => {
                let mut f = Failure::from(e.error);
                if e.side == Side::B {
                    f.offset += a.len() + 1;
                }
                f.message = format!(
                    "{}: {}",
                    if e.side == Side::A { "a" } else { "b" },
                    f.message
                );
                Err(f)
            }
        }
    }
}

impl Op for CompareOp {
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        let (_, _, r) = self.lowest(input)?;
        match r.filter(|r| *r <= self.rung) {
            Some(r) => {
                out.push_str("equivalent (");
                out.push_str(r.name());
                out.push(')');
            }
            None => out.push_str("different"),
        }
        Ok(())
    }

    fn write_json(
        &self,
        input: &str,
        _: &mut String,
        obj: &mut JsonObject<'_>,
    ) -> Result<(), Failure> {
        let parts = input.split_once('\t');
        obj.opt_str("a", parts.map(|p| p.0));
        obj.opt_str("b", parts.map(|p| p.1));
        match self.lowest(input) {
            Ok((_, _, r)) => {
                obj.bool("equivalent", r.is_some_and(|r| r <= self.rung));
                obj.opt_str("rung", r.map(|r| r.name()));
                Ok(())
            }
            Err(f) => {
                obj.null("equivalent");
                obj.null("rung");
                Err(f)
            }
        }
    }

    fn write_json_unavailable(&self, obj: &mut JsonObject<'_>) {
        for k in ["a", "b", "equivalent", "rung"] {
            obj.null(k);
        }
    }
}

pub(crate) fn run(mut a: Args) -> Result<ExitCode, CliError> {
    match a.io.ids.len() {
        0 => {}
        2 => {
            let (x, y) = (a.io.ids[0].clone(), a.io.ids[1].clone());
            if x.to_string_lossy().contains('\t') || y.to_string_lossy().contains('\t') {
                return usage("an identifier cannot contain a TAB");
            }
            let mut pair = x;
            pair.push("\t");
            pair.push(y);
            a.io.ids = vec![pair];
        }
        n => {
            return usage(format!(
                "compare takes two identifiers (or none, to read TAB-separated pairs), not {n}"
            ))
        }
    }
    if a.ladder.is_protocol() {
        return super::protocol::compare(&a.ladder, &a.io, a.records.pair_mode()?);
    }
    let op = CompareOp {
        p: a.ladder.pipeline(Form::Uri)?,
        rung: a.ladder.rung(),
        different: AtomicU64::new(0),
    };
    let code = execute(&a.io, a.records.pair_mode()?, Task::Map(&op))?;
    if code == ExitCode::SUCCESS && op.different.load(Ordering::Relaxed) > 0 {
        return Ok(ExitCode::from(1));
    }
    Ok(code)
}
