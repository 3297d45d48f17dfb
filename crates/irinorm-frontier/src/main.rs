//! `irinorm-frontier generate ...` / `irinorm-frontier quality FILE`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use irinorm_frontier::cli::{
    run_crawl, run_generate, run_quality, CrawlArgs, GenerateArgs, QualityArgs,
};

/// Planted-alias URL frontiers and the quality report of irinorm on them.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Write a frontier (TSV: url, class, kind, equal_at) with planted aliases
    Generate(GenerateArgs),
    /// Report recall, false merges and reduction of every rung and preset
    Quality(QualityArgs),
    /// Write a simulated crawl of many small sites: WARC, CDX, CDXJ and
    /// the truth file (true page and expected rung-3 class of every URL)
    Crawl(CrawlArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let res = match &cli.cmd {
        Cmd::Generate(a) => run_generate(a, &mut std::io::stderr()),
        Cmd::Quality(a) => run_quality(a, &mut std::io::stdout().lock()),
        Cmd::Crawl(a) => run_crawl(a, &mut std::io::stderr()),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("irinorm-frontier: {e}");
            ExitCode::FAILURE
        }
    }
}
