//! `irinorm`: parse, check, resolve, map and deduplicate URIs and IRIs
//! exactly per RFC 3986 / RFC 3987, on arguments or on files of millions
//! of lines. See docs/cli.md for every option.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;
mod common;
mod ladder_args;

const EXAMPLES: &str = "\
Examples:
  irinorm normalize 'HTTP://Example.COM:80/%7euser/./a'
  irinorm normalize --preset crawler -i frontier.txt.zst -o normal.txt.zst
  irinorm compare 'http://example.com' 'http://EXAMPLE.com:80/'
  irinorm explain 'HTTP://Example.COM:80/a/../b'
  irinorm dedupe --preset crawler --groups -i urls.txt
  irinorm parse 'http://example.com/a?b#c'
  irinorm check --grammar URI -i urls.txt --rejects bad.tsv > verdicts.txt
  irinorm resolve --base 'http://a/b/c/d;p?q' ../g
  irinorm surt --heritrix http://www.archive.org/
  irinorm to-uri --idna 'http://bücher.example/ü'
  irinorm dedupe -i urls.txt.gz -o unique.txt.zst

Exit status: 0 when every input was accepted, 1 when any was rejected,
2 for a usage error (or an input that cannot be read, an output that
cannot be written).
";

/// Exact RFC 3986/3987 URI and IRI tools.
///
/// Every subcommand takes identifiers as arguments, or reads them one per
/// line (a trailing CR is stripped, nothing else) from --input files or
/// stdin. Rejected inputs are reported with their line number, byte offset
/// and reason, and counted.
#[derive(Debug, Parser)]
#[command(name = "irinorm", version, after_help = EXAMPLES, propagate_version = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    Normalize(cmd::normalize::Args),
    Compare(cmd::compare::Args),
    Explain(cmd::explain::Args),
    Dedupe(cmd::dedupe::Args),
    Presets(cmd::presets::Args),
    Parse(cmd::parse::Args),
    Check(cmd::check::Args),
    Resolve(cmd::resolve::Args),
    Surt(cmd::surt::Args),
    ToUri(cmd::to_uri::Args),
    ToIri(cmd::to_iri::Args),
    /// Write a frontier of URLs with planted aliases and confusers (TSV
    /// with the true classes), for measuring deduplication quality.
    Frontier(irinorm_frontier::cli::GenerateArgs),
    /// Deduplication quality on a frontier: recall, false merges and
    /// reduction for each rung and preset.
    Quality(irinorm_frontier::cli::QualityArgs),
    Completions(cmd::completions::Args),
    Man(cmd::man::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Normalize(a) => cmd::normalize::run(a),
        Cmd::Compare(a) => cmd::compare::run(a),
        Cmd::Explain(a) => cmd::explain::run(a),
        Cmd::Presets(a) => cmd::presets::run(a),
        Cmd::Frontier(a) => cmd::frontier::generate(a),
        Cmd::Quality(a) => cmd::frontier::quality(a),
        Cmd::Parse(a) => cmd::parse::run(a),
        Cmd::Check(a) => cmd::check::run(a),
        Cmd::Resolve(a) => cmd::resolve::run(a),
        Cmd::Surt(a) => cmd::surt::run(a),
        Cmd::ToUri(a) => cmd::to_uri::run(a),
        Cmd::ToIri(a) => cmd::to_iri::run(a),
        Cmd::Dedupe(a) => cmd::dedupe::run(a),
        Cmd::Completions(a) => Ok(cmd::completions::run(a)),
        Cmd::Man(a) => cmd::man::run(a),
    };
    match r {
        Ok(code) => code,
        Err(common::CliError::Usage(m)) => {
            irinorm_stream::note(format_args!("irinorm: error: {m}"));
            ExitCode::from(2)
        }
        Err(common::CliError::Io(e)) => {
            irinorm_stream::note(format_args!("irinorm: error: {e}"));
            ExitCode::from(2)
        }
    }
}
