//! `irinorm compare`: are two identifiers equivalent, and from which rung?

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use irinorm::ladder::{Form, Rung, Side};
use irinorm_rules::{Pipeline, Verdict};
use irinorm_stream::{Failure, JsonObject, Op, Task};

use crate::common::{execute, usage, CliError, IoArgs, RecordArgs};
use crate::ladder_args::{LadderArgs, Repairer};

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
      equivalent (scheme + rules: remove-query-params)
  irinorm compare --echo 'http://a/%7e' 'http://a/~'
      http://a/%7e    http://a/~    equivalent (syntax)
  irinorm compare --repair 'http://a/b c' 'http://a/b%20c'
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
    /// Text output: write each pair before its verdict
    /// (`A<TAB>B<TAB>verdict`), so the output stands alone.
    #[arg(long)]
    echo: bool,

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
    repair: Option<Repairer>,
    /// `--echo`: text lines are `A<TAB>B<TAB>verdict`.
    echo: bool,
}

impl CompareOp {
    /// The pair's lowest equal rung; a side that fails to parse is rejected
    /// with its offset in the line (`b` starts after the TAB).
    fn lowest<'s>(&self, line: &'s str) -> Result<(&'s str, &'s str, Option<Verdict>), Failure> {
        let Some((a, b)) = line.split_once('\t') else {
            return Err(Failure::new(
                "not-a-pair",
                line.len(),
                "expected two identifiers separated by a TAB",
            ));
        };
        let ra = self.repair.as_ref().and_then(|r| r.run(a));
        let rb = self.repair.as_ref().and_then(|r| r.run(b));
        let xa = ra.as_ref().map_or(a, |r| r.text.as_str());
        let xb = rb.as_ref().map_or(b, |r| r.text.as_str());
        match self.p.compare_why(xa, xb) {
            Ok(r) => {
                let r = r.filter(|v| v.rung <= self.rung);
                if r.is_none() {
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
        let (a, b, r) = self.lowest(input)?;
        if self.echo {
            out.push_str(a);
            out.push('\t');
            out.push_str(b);
            out.push('\t');
        }
        match r {
            Some(Verdict {
                lookup_key: Some(p),
                ..
            }) => {
                out.push_str("equivalent (");
                out.push_str(p.name());
                out.push_str(" key)");
            }
            Some(v) if v.rules.is_empty() => {
                out.push_str("equivalent (");
                out.push_str(v.rung.name());
                out.push(')');
            }
            Some(v) => {
                // The rules made them equal, not a rung: name the rules.
                out.push_str("equivalent (");
                out.push_str(v.rung.name());
                out.push_str(" + rules: ");
                for (i, rule) in v.rules.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(rule.name());
                }
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
                obj.bool("equivalent", r.is_some());
                obj.opt_str("rung", r.as_ref().map(|v| v.rung.name()));
                let rules = r.iter().flat_map(|v| v.rules.iter().map(|x| x.name()));
                obj.str_array("rules", rules);
                Ok(())
            }
            Err(f) => {
                obj.null("equivalent");
                obj.null("rung");
                obj.null("rules");
                Err(f)
            }
        }
    }

    fn write_json_unavailable(&self, obj: &mut JsonObject<'_>) {
        for k in ["a", "b", "equivalent", "rung", "rules"] {
            obj.null(k);
        }
    }
}

pub(crate) fn run(mut a: Args) -> Result<ExitCode, CliError> {
    match a.io.ids.len() {
        0 => {}
        // `-`: pairs from stdin (common::execute).
        1 if a.io.ids[0] == "-" => {}
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
    let op = CompareOp {
        p: a.ladder.pipeline(Form::Uri)?,
        rung: a.ladder.rung(),
        different: AtomicU64::new(0),
        repair: a.ladder.repairer(),
        echo: a.echo,
    };
    let code = execute(&a.io, a.records.pair_mode()?, Task::Map(&op))?;
    if code == ExitCode::SUCCESS && op.different.load(Ordering::Relaxed) > 0 {
        return Ok(ExitCode::from(1));
    }
    Ok(code)
}
