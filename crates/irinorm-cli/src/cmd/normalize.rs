//! `irinorm normalize`: the normal form of each identifier at a rung of the
//! comparison ladder, optionally with named rules or a preset.

use std::process::ExitCode;

use irinorm_rules::Pipeline;
use irinorm_stream::{Failure, JsonObject, Op, Task};

use crate::common::{execute, CliError, IoArgs, RecordArgs};
use crate::ladder_args::{LadderArgs, Repairer};

const EXAMPLES: &str = "\
Examples:
  irinorm normalize 'HTTP://Example.COM:80/a/./b/../%7euser'
      http://example.com/a/~user
  irinorm normalize --rung syntax 'HTTP://Example.COM:80/'
      http://example.com:80/
  irinorm normalize --form iri 'http://xn--rsum-bpad.example/%C3%A9t%C3%A9'
      http://résumé.example/été
  irinorm normalize --preset crawler 'http://Example.com./a?utm_source=x&id=1#top'
      http://example.com/a?id=1
  irinorm normalize --apply sort-query,remove-www 'http://www.example.com/?b=2&a=1'
      http://example.com/?a=1&b=2
  irinorm normalize --base http://example.com/a/b ../c
      http://example.com/c
  irinorm normalize --format jsonl -i urls.txt.gz -o normal.jsonl.zst
  irinorm normalize --preset crawler --format surt 'http://WWW.Example.com/b?z&a'
      com,example)/b?a&z
  irinorm normalize --csv --column url --into normal -i pages.csv > pages.normal.csv
";

/// Normalize each identifier: the canonical form at a rung of the
/// comparison ladder (default: rung `scheme`, `uri` form), then any named
/// rules. Two identifiers are equivalent at that rung iff their normal
/// forms (in `uri` form) are equal.
///
/// With --repair, what browsers accept is repaired first; jsonl then has
/// `"repaired"` (the names of the steps that changed the input).
///
/// jsonl: `"output"`, `"applied"` (the named rules that changed something)
/// and `"warnings"` (what could not be done, e.g. a host that UTS #46
/// refuses: it is kept as rung 1 left it, never guessed).
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

pub(crate) struct NormalizeOp {
    pub(crate) p: Pipeline,
    /// `--format surt`: the SURT key of the normal form instead of it.
    pub(crate) surt: bool,
    /// `--repair`.
    pub(crate) repair: Option<Repairer>,
}

impl NormalizeOp {
    /// [`Op::apply`] with `--repair` or `--format surt`.
    #[inline(never)]
    fn apply_other(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        let repaired = self.repair.as_ref().and_then(|r| r.run(input));
        let input = repaired.as_ref().map_or(input, |r| r.text.as_str());
        let mut scratch = Vec::new();
        if self.surt {
            let mut normal = String::new();
            self.p
                .normalize_text_into(input, &mut normal, &mut scratch)?;
            return crate::cmd::surt::key(&normal, Default::default(), out);
        }
        self.p.normalize_text_into(input, out, &mut scratch)?;
        Ok(())
    }
}

/// A reject's `Failure`, apart from the per-line path (it formats the
/// message).
#[cold]
#[inline(never)]
fn failure(e: irinorm::ParseError) -> Failure {
    e.into()
}

impl Op for NormalizeOp {
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        if self.repair.is_none() && !self.surt {
            // The usual run, once per line of a bulk input: nothing to
            // repair or convert first, and only the text is written (the
            // fused learned path then keeps no copy: issue 11, round 8).
            // The other paths, and a reject's `Failure`, are calls of their
            // own: this one then saves and restores fewer registers (issue
            // 14 round 13). Neither the warnings nor the rules that fired
            // are asked for (round 14).
            return match self.p.normalize_text_only(input, out) {
                Ok(_) => Ok(()),
                Err(e) => Err(failure(e)),
            };
        }
        self.apply_other(input, out)
    }

    fn text_is_value(&self) -> bool {
        true
    }

    fn write_json(
        &self,
        input: &str,
        scratch: &mut String,
        obj: &mut JsonObject<'_>,
    ) -> Result<(), Failure> {
        scratch.clear();
        let repaired = self.repair.as_ref().and_then(|r| r.run(input));
        if self.repair.is_some() {
            let steps = repaired
                .iter()
                .flat_map(|r| r.steps.iter().map(|s| s.name()));
            obj.str_array("repaired", steps);
        }
        let input = repaired.as_ref().map_or(input, |r| r.text.as_str());
        let mut applied = Vec::new();
        match self.p.normalize_into(input, scratch, &mut applied) {
            Ok(warnings) => {
                obj.str("output", scratch);
                obj.str_array("applied", applied.iter().map(|r| r.name()));
                let w: Vec<String> = warnings.iter().map(ToString::to_string).collect();
                obj.str_array("warnings", w.iter().map(String::as_str));
                Ok(())
            }
            Err(e) => {
                obj.null("output");
                obj.str_array("applied", []);
                obj.str_array("warnings", []);
                Err(e.into())
            }
        }
    }

    fn write_json_unavailable(&self, obj: &mut JsonObject<'_>) {
        if self.repair.is_some() {
            obj.str_array("repaired", []);
        }
        obj.null("output");
        obj.str_array("applied", []);
        obj.str_array("warnings", []);
    }
}

pub(crate) fn run(mut a: Args) -> Result<ExitCode, CliError> {
    let surt = a.io.format == crate::common::FormatArg::Surt;
    if a.ladder.is_protocol() {
        // Rung 3 keys are rung-2 keys followed through the evidence; a
        // repaired or SURT-transformed spelling would need its own key path
        // (docs/cli.md, "Rung 3").
        if surt || a.ladder.repairer().is_some() {
            return Err(CliError::Usage(
                "--rung protocol takes neither --repair nor --format surt".into(),
            ));
        }
        return super::protocol::normalize(&a.ladder, &a.io, a.records.mode()?);
    }
    let op = NormalizeOp {
        p: a.ladder.pipeline(a.ladder.form, a.io.max_len)?,
        surt,
        repair: a.ladder.repairer(),
    };
    a.io.surt_ok = true;
    execute(&a.io, a.records.mode()?, Task::Map(&op))
}
