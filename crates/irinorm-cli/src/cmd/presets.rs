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
    if !a.rules {
        println!("Presets (rules run in the order listed):");
        for p in Preset::ALL {
            let rules: Vec<&str> = p.rules().iter().map(|r| r.name()).collect();
            println!("  {:<11} {}", p.name(), p.what());
            println!(
                "  {:<11} rules: {}",
                "",
                if rules.is_empty() {
                    "(none)".to_owned()
                } else {
                    rules.join(", ")
                }
            );
        }
        println!();
    }
    println!("Named normalizations, in their fixed order of application:");
    for r in RuleName::ORDER {
        println!("  {:<28} {:<13} {}", r.name(), r.class().name(), r.what());
    }
    Ok(ExitCode::SUCCESS)
}
