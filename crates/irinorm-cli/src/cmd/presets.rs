//! `irinorm presets`: every preset's exact list, and every named rule.

use std::process::ExitCode;

use irinorm_rules::{Preset, RuleName};

use crate::common::CliError;

/// Print the presets (rung and exact rules, in order of application) and
/// the named normalizations with their class.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Print only the named rules.
    #[arg(long)]
    rules: bool,
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    use std::fmt::Write as _;
    let mut out = String::new();
    if !a.rules {
        let _ = writeln!(out, "Presets (rules run in the order listed):");
        for p in Preset::EVERY {
            let rules: Vec<&str> = p.rules().iter().map(|r| r.name()).collect();
            let list = if rules.is_empty() {
                "(none)".to_owned()
            } else {
                rules.join(", ")
            };
            let _ = writeln!(out, "  {:<13} {}", p.name(), p.what());
            let _ = writeln!(out, "  {:<13} rules: {list}", "");
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "Named normalizations, in their fixed order of application:"
    );
    for r in RuleName::ORDER {
        let _ = writeln!(
            out,
            "  {:<28} {:<13} {}",
            r.name(),
            r.class().name(),
            r.what()
        );
    }
    // A closed stdout (`irinorm presets | head -1`) is not an error.
    use std::io::Write as _;
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    Ok(ExitCode::SUCCESS)
}
