//! `irinorm check`: does each identifier match a grammar?

use std::process::ExitCode;

use std::sync::atomic::{AtomicU64, Ordering};

use irinorm::Grammar;
use irinorm_lint::{lint, LintOptions, Severity};
use irinorm_stream::{Failure, JsonObject, Op, Task};

use crate::common::{execute, CliError, IoArgs, RecordArgs};

const EXAMPLES: &str = "\
Examples:
  irinorm check 'http://example.com/a b'
      invalid: character not allowed here in path at byte 20 (invalid-char)   [exit status 1]
  irinorm check --grammar absolute-URI 'http://a/b#frag'
  irinorm check --format jsonl -i urls.txt > verdicts.jsonl
  irinorm check --filter -i crawl.txt.zst --rejects bad.tsv -o good.txt.zst
  irinorm check --csv --column url -i links.csv --rejects bad.tsv > good.csv
  irinorm check --lint 'http://www.example.com@evil.example/'
      valid
        info[userinfo-present] userinfo@7+15: ...
        warning[userinfo-looks-like-host] userinfo@7+15: ...
  irinorm check --lint --min-severity warning --format jsonl -i urls.txt
";

/// Check that each identifier matches a grammar.
///
/// Text output: one verdict per input line, in input order: `valid`, or
/// `invalid: <reason> at byte <offset> (<kind>)`; with --filter, the valid
/// identifiers themselves (a filter, like grep). jsonl: `"valid": bool`.
/// Records (--column/--field): valid records are written unchanged, invalid
/// ones are rejected. Invalid inputs are also reported on stderr (or in
/// --rejects) and make the exit status 1.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// The grammar each identifier must match (an ABNF rule name of RFC 3986
    /// or RFC 3987).
    #[arg(long, short = 'g', value_name = "G", default_value = "IRI-reference", ignore_case = true, value_parser = super::grammar_parser())]
    grammar: Grammar,

    /// Print the valid identifiers instead of verdicts.
    #[arg(long, conflicts_with = "lint")]
    filter: bool,

    /// Also lint each identifier for security problems (bidi controls,
    /// confusables, mixed scripts, NFC/NFKC, overlong UTF-8, passwords in
    /// userinfo, userinfo that looks like a host, rare IP forms, UTS #46
    /// and DNS limits; docs/lint.md). Findings follow each verdict (text)
    /// or go in `"findings"` (jsonl). Exit status 1 when any input is
    /// invalid or has a finding of severity `error`.
    #[arg(long)]
    lint: bool,

    /// With --lint, report findings of at least this severity.
    #[arg(long, value_name = "LEVEL", default_value = "info", value_parser = ["info", "warning", "error"], requires = "lint")]
    min_severity: String,

    #[command(flatten)]
    io: IoArgs,

    #[command(flatten)]
    records: RecordArgs,
}

pub(crate) struct CheckOp {
    pub(crate) grammar: Grammar,
    pub(crate) filter: bool,
    pub(crate) lint: Option<LintOptions>,
    /// Inputs with an error-severity finding (exit status 1).
    pub(crate) flagged: AtomicU64,
}

impl CheckOp {
    /// Lints `input`; counts it when it has an error-severity finding.
    fn findings(&self, input: &str, o: &LintOptions) -> irinorm_lint::Report {
        let r = lint(input, o);
        if r.findings
            .iter()
            .any(|f| f.severity == Severity::Error && f.code != "parse-error")
        {
            self.flagged.fetch_add(1, Ordering::Relaxed);
        }
        r
    }
}

fn verdict(f: &Failure, out: &mut Vec<u8>) {
    out.extend_from_slice(format!("invalid: {f}\n").as_bytes());
}

impl Op for CheckOp {
    /// The value of a check is the identifier itself: valid records pass
    /// through unchanged.
    fn apply(&self, input: &str, out: &mut String) -> Result<(), Failure> {
        irinorm::parse(input, self.grammar)?;
        out.push_str(input);
        Ok(())
    }

    fn write_text(
        &self,
        input: &str,
        scratch: &mut String,
        out: &mut Vec<u8>,
    ) -> Result<(), Failure> {
        if self.filter {
            scratch.clear();
            self.apply(input, scratch)?;
            out.extend_from_slice(scratch.as_bytes());
            out.push(b'\n');
            return Ok(());
        }
        let r = match irinorm::parse(input, self.grammar) {
            Ok(_) => {
                out.extend_from_slice(b"valid\n");
                Ok(())
            }
            Err(e) => {
                let f = Failure::from(e);
                verdict(&f, out);
                Err(f)
            }
        };
        if let Some(o) = &self.lint {
            for finding in self
                .findings(input, o)
                .findings
                .iter()
                .filter(|f| f.code != "parse-error")
            {
                out.extend_from_slice(format!("  {finding}\n").as_bytes());
            }
        }
        r
    }

    fn write_text_unavailable(&self, f: &Failure, out: &mut Vec<u8>) {
        if !self.filter {
            verdict(f, out);
        }
    }

    fn write_json(
        &self,
        input: &str,
        _: &mut String,
        obj: &mut JsonObject<'_>,
    ) -> Result<(), Failure> {
        let r = irinorm::parse(input, self.grammar);
        obj.bool("valid", r.is_ok());
        if let Some(o) = &self.lint {
            let report = self.findings(input, o);
            let findings: Vec<_> = report
                .findings
                .iter()
                .filter(|f| f.code != "parse-error")
                .collect();
            obj.value("findings", &findings);
        }
        r.map(|_| ()).map_err(Failure::from)
    }

    fn write_json_unavailable(&self, obj: &mut JsonObject<'_>) {
        obj.bool("valid", false);
        if self.lint.is_some() {
            obj.null("findings");
        }
    }
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    let lint = a.lint.then(|| LintOptions {
        grammar: a.grammar,
        min_severity: match a.min_severity.as_str() {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            _ => Severity::Info,
        },
        ..LintOptions::default()
    });
    let op = CheckOp {
        grammar: a.grammar,
        filter: a.filter,
        lint,
        flagged: AtomicU64::new(0),
    };
    let code = execute(&a.io, a.records.mode()?, Task::Map(&op))?;
    if code == ExitCode::SUCCESS && op.flagged.load(Ordering::Relaxed) > 0 {
        return Ok(ExitCode::from(1));
    }
    Ok(code)
}
