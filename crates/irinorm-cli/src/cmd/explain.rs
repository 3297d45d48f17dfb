//! `irinorm explain`: an identifier at every rung, in both forms, and each
//! rule that changed something.

use std::fmt::Write as _;
use std::process::ExitCode;

use irinorm::ladder::trace::Change;
use irinorm::ladder::Step;
use irinorm_rules::Pipeline;
use irinorm_stream::{Failure, JsonObject, Op, RecordMode, Task};
use serde_json::{json, Value};

use crate::common::{execute, CliError, IoArgs};
use crate::ladder_args::LadderArgs;

const EXAMPLES: &str = "\
Examples:
  irinorm explain 'HTTP://Example.COM:80/a/./b/../%7euser?#'
  irinorm explain --preset crawler 'http://www.example.com./a/?utm_source=x#top'
  irinorm explain --format jsonl 'http://r%C3%A9sum%C3%A9.example/'
";

/// Explain: the identifier at every rung (string, syntax, scheme) in both
/// forms (uri, iri), and under each step the rules that changed something
/// there: what (before → after), where (component and byte offset in the
/// input), and the section that defines the rule. A step lists only what
/// the step before it (the lower rung, or the `uri` form of the same rung)
/// did not. Named rules (--preset, --apply) are shown after the ladder,
/// applied to the result at the chosen rung and form.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    #[command(flatten)]
    ladder: LadderArgs,

    #[command(flatten)]
    io: IoArgs,
}

struct ExplainOp {
    p: Pipeline,
    repair: Option<crate::ladder_args::Repairer>,
}

fn same(a: &Change, b: &Change) -> bool {
    a.rule == b.rule
        && a.component == b.component
        && a.offset == b.offset
        && a.before == b.before
        && a.after == b.after
}

/// The changes of `step` that none of `prev` had.
fn new_changes<'a>(step: &'a Step, prev: &[&Step]) -> Vec<&'a Change> {
    step.changes
        .iter()
        .filter(|c| !prev.iter().any(|p| p.changes.iter().any(|x| same(x, c))))
        .collect()
}

fn shown(s: &str) -> &str {
    if s.is_empty() {
        "(nothing)"
    } else {
        s
    }
}

impl ExplainOp {
    fn text(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        let _ = writeln!(out, "{input}");
        let repaired = self.repair.as_ref().and_then(|r| r.run(input));
        if let Some(r) = &repaired {
            // docs/repair.md: what --repair changed, before any rung.
            let _ = writeln!(out, "  repair  {}", r.text);
            for s in &r.steps {
                let _ = writeln!(out, "          {:<27} [{}]", s.name(), s.reason());
            }
        }
        let input = repaired.as_ref().map_or(input, |r| r.text.as_str());
        let (e, fired) = self.p.explain(input)?;
        for (i, step) in e.steps.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {:<6}  {}  {}",
                step.rung.name(),
                step.form.name(),
                step.output
            );
            // Steps come as (rung, uri), (rung, iri) from the lowest rung:
            // show what neither the lower rung (same form) nor, for iri,
            // the uri form of the same rung already showed.
            let mut prev = Vec::new();
            if let Some(p) = i.checked_sub(2).and_then(|j| e.steps.get(j)) {
                prev.push(p);
            }
            if i % 2 == 1 {
                prev.extend(e.steps.get(i - 1));
            }
            for c in new_changes(step, &prev) {
                let whr = match (c.component, c.offset) {
                    (Some(comp), Some(o)) => format!("{} @{o}", comp.name()),
                    (Some(comp), None) => comp.name().to_owned(),
                    (None, Some(o)) => format!("@{o}"),
                    (None, None) => "whole".to_owned(),
                };
                let _ = writeln!(
                    out,
                    "          {:<27} {:<14} {} -> {}   [{}]",
                    c.rule.name(),
                    whr,
                    shown(&c.before),
                    shown(&c.after),
                    c.rule.source()
                );
            }
            for w in &step.warnings {
                let _ = writeln!(out, "          warning: {w}");
            }
        }
        if let Some(k) = self.p.lookup_key() {
            // The preset replaces the ladder: its key is the result.
            let key = self.p.key(input).map_err(Failure::from)?;
            let _ = writeln!(out, "  {:<6}  key  {key}   [docs/rules.md]", k.name());
        }
        if !fired.is_empty() {
            let rung = self.p.normalizer().options().rung;
            let form = self.p.normalizer().options().form;
            let _ = writeln!(out, "  named rules (on {} {}):", rung.name(), form.name());
            for f in &fired {
                let _ = writeln!(
                    out,
                    "          {:<27} [{}] {} -> {}",
                    f.rule.name(),
                    f.rule.class().name(),
                    f.before,
                    f.after
                );
            }
        }
        Ok(())
    }
}

fn change_json(c: &Change) -> Value {
    json!({
        "rule": c.rule.name(),
        "source": c.rule.source(),
        "component": c.component.map(|x| x.name()),
        "offset": c.offset,
        "before": c.before,
        "after": c.after,
    })
}

impl Op for ExplainOp {
    /// The value of an explanation is its text (used by text output).
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        self.text(input, out)
    }

    fn write_text(
        &self,
        input: &str,
        scratch: &mut String,
        out: &mut Vec<u8>,
    ) -> Result<(), Failure> {
        scratch.clear();
        self.text(input, scratch)?;
        out.extend_from_slice(scratch.as_bytes());
        Ok(())
    }

    fn write_json(
        &self,
        input: &str,
        _: &mut String,
        obj: &mut JsonObject<'_>,
    ) -> Result<(), Failure> {
        let repaired = self.repair.as_ref().and_then(|r| r.run(input));
        if self.repair.is_some() {
            let steps: Vec<Value> = repaired
                .iter()
                .flat_map(|r| &r.steps)
                .map(|s| json!({"step": s.name(), "reason": s.reason()}))
                .collect();
            obj.value(
                "repair",
                &json!({"output": repaired.as_ref().map_or(input, |r| r.text.as_str()), "steps": steps}),
            );
        }
        let input = repaired.as_ref().map_or(input, |r| r.text.as_str());
        match self.p.explain(input) {
            Ok((e, fired)) => {
                let steps: Vec<Value> = e
                    .steps
                    .iter()
                    .map(|s| {
                        json!({
                            "rung": s.rung.name(),
                            "form": s.form.name(),
                            "output": s.output,
                            "changes": s.changes.iter().map(change_json).collect::<Vec<_>>(),
                            "warnings": s.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                obj.value("steps", &Value::Array(steps));
                let rules: Vec<Value> = fired
                    .iter()
                    .map(|f| json!({"rule": f.rule.name(), "class": f.rule.class().name(), "before": f.before, "after": f.after}))
                    .collect();
                obj.value("rules", &Value::Array(rules));
                Ok(())
            }
            Err(err) => {
                obj.null("steps");
                obj.null("rules");
                Err(err.into())
            }
        }
    }

    fn write_json_unavailable(&self, obj: &mut JsonObject<'_>) {
        obj.null("steps");
        obj.null("rules");
    }
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    let op = ExplainOp {
        p: a.ladder.pipeline(a.ladder.form)?,
        repair: a.ladder.repairer(),
    };
    execute(&a.io, RecordMode::Lines, Task::Map(&op))
}
