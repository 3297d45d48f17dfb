//! Command-line arguments and their runners, reusable by another binary
//! (the `irinorm` CLI can flatten [`GenerateArgs`] and [`QualityArgs`] into
//! its own subcommands and call [`run_generate`] / [`run_quality`]).

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::crawl::{simulate, CrawlOptions};
use crate::crawl_write::write_crawl;
use crate::generate::{generate, GenerateError, GenerateOptions};
use crate::kind::{Configuration, Kind};
use crate::originals::{load_corpora, Originals};
use crate::quality::{report, Frontier};

/// `generate`: write a frontier with planted aliases.
#[derive(Args, Debug, Clone)]
pub struct GenerateArgs {
    /// URL lists: files, or folders whose *.txt files are read [default:
    /// $IRINORM_VECTORS/corpora, else ../shared/vectors/corpora]
    #[arg(long = "corpus", value_name = "PATH")]
    pub corpus: Vec<PathBuf>,
    /// Lines to write, without the header (`k` and `M` suffixes allowed:
    /// 10M)
    #[arg(long, default_value = "100000", value_parser = parse_count)]
    pub lines: u64,
    /// Seed: the same seed and options write the same bytes
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fraction of the lines that are aliases
    #[arg(long, default_value_t = 0.3)]
    pub dup_ratio: f64,
    /// Fraction of the lines that are confusers
    #[arg(long, default_value_t = 0.05)]
    pub confuser_ratio: f64,
    /// Kinds to plant: names, or the groups all, aliases, confusers, rungs,
    /// rules (comma-separated)
    #[arg(long, default_value = "all", value_parser = KindList::parse)]
    pub kinds: KindList,
    /// One URL a line, no header and no labels (for deduplication
    /// benchmarks)
    #[arg(long)]
    pub urls_only: bool,
    /// Lines held by the shuffle window (1: in generation order)
    #[arg(long, default_value_t = 1 << 16)]
    pub window: usize,
    /// Output file [default: standard output]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `quality`: report recall, false merges and reduction on a frontier.
#[derive(Args, Debug, Clone)]
pub struct QualityArgs {
    /// Frontier TSV (`-`: standard input)
    #[arg(default_value = "-")]
    pub file: PathBuf,
    /// Print JSON instead of the tables
    #[arg(long)]
    pub json: bool,
    /// Configurations (comma-separated): string, syntax, scheme, rfc,
    /// fetch, crawler, aggressive [default: all]
    #[arg(long, value_delimiter = ',')]
    pub configs: Vec<Configuration>,
    /// Threads [default: the machine's cores]
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `crawl`: write a simulated crawl (WARC, CDX, CDXJ and the truth file).
#[derive(Args, Debug, Clone)]
pub struct CrawlArgs {
    /// Sites to simulate
    #[arg(long, default_value_t = 40)]
    pub sites: usize,
    /// Pages of each site in epoch 0 (each later epoch adds about a quarter)
    #[arg(long, default_value_t = 30)]
    pub pages: usize,
    /// Seed: the same seed, sites, pages and epoch write the same files
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Crawl number: 0 is the first crawl; a later epoch crawls the same
    /// sites again (new pages, new session values, later times)
    #[arg(long, default_value_t = 0)]
    pub epoch: u32,
    /// Output folder (created if missing)
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// File name prefix (default: `crawl-s<SEED>-e<EPOCH>`)
    #[arg(long)]
    pub prefix: Option<String>,
}

/// A parsed `--kinds` list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindList(pub Vec<Kind>);

impl KindList {
    /// Parses names and groups (see [`Kind::parse_list`]).
    pub fn parse(s: &str) -> Result<KindList, String> {
        Kind::parse_list(s).map(KindList)
    }
}

/// Parses `123`, `100k`, `10M`, `1_000_000`.
pub fn parse_count(s: &str) -> Result<u64, String> {
    let t: String = s.trim().chars().filter(|c| *c != '_').collect();
    let (num, mul) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1_000),
        Some('m' | 'M') => (&t[..t.len() - 1], 1_000_000),
        _ => (&t[..], 1),
    };
    num.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mul))
        .ok_or_else(|| format!("not a count: {s:?}"))
}

/// The corpora folder used when `--corpus` is not given.
pub fn default_corpus() -> PathBuf {
    match std::env::var_os("IRINORM_VECTORS") {
        Some(v) => PathBuf::from(v).join("corpora"),
        None => PathBuf::from("../shared/vectors/corpora"),
    }
}

/// Runs `generate`; a summary goes to `log`.
pub fn run_generate(args: &GenerateArgs, log: &mut dyn Write) -> Result<(), String> {
    let t0 = Instant::now();
    let paths = if args.corpus.is_empty() {
        vec![default_corpus()]
    } else {
        args.corpus.clone()
    };
    let corpora = load_corpora(&paths).map_err(|e| e.to_string())?;
    let originals = Originals::from_corpora(&corpora);
    let opts = GenerateOptions {
        lines: args.lines,
        seed: args.seed,
        dup_ratio: args.dup_ratio,
        confuser_ratio: args.confuser_ratio,
        kinds: args.kinds.0.clone(),
        urls_only: args.urls_only,
        window: args.window,
    };
    let stats = match &args.output {
        Some(p) => {
            let f = File::create(p).map_err(|e| format!("{}: {e}", p.display()))?;
            let mut w = BufWriter::with_capacity(1 << 20, f);
            generate(&originals, &opts, &mut w)
        }
        None => {
            let stdout = io::stdout();
            let mut w = BufWriter::with_capacity(1 << 20, stdout.lock());
            generate(&originals, &opts, &mut w)
        }
    };
    let stats = match stats {
        Ok(s) => s,
        // A closed pipe (`irinorm frontier | head -1`) ends the run
        // quietly, as every Unix filter does.
        Err(GenerateError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
        Err(e) => return Err(e.to_string()),
    };
    let ls = originals.stats();
    let _ = writeln!(
        log,
        "irinorm-frontier: {} lines ({} originals, {} aliases, {} confusers), {} pass(es) over {} originals, {:.1} s\n\
         originals: {} corpus lines -> {} kept + {} built-in IDN/IRI; left out: {} duplicates (aggressive key), {} not http(s), {} invalid, {} not a name host, {} with warnings, {} with the pass marker; confuser candidates rejected as ambiguous: {}",
        stats.lines,
        stats.originals,
        stats.aliases,
        stats.confusers,
        stats.passes,
        stats.pool,
        t0.elapsed().as_secs_f64(),
        ls.corpus_lines,
        ls.corpus_originals,
        ls.synthetic_originals,
        ls.duplicates,
        ls.not_http,
        ls.invalid,
        ls.not_name_host,
        ls.warnings,
        ls.marker,
        stats.confusers_rejected,
    );
    Ok(())
}

/// Runs `crawl`: writes the four files; a summary (files, records, URLs
/// per rung-3 class and per mechanism) goes to `log`.
pub fn run_crawl(args: &CrawlArgs, log: &mut dyn Write) -> Result<(), String> {
    let opts = CrawlOptions {
        sites: args.sites,
        pages: args.pages,
        seed: args.seed,
        epoch: args.epoch,
    };
    let caps = simulate(&opts);
    let prefix = args
        .prefix
        .clone()
        .unwrap_or_else(|| format!("crawl-s{}-e{}", args.seed, args.epoch));
    let files = write_crawl(&caps, &args.out, &prefix)
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut classes = std::collections::BTreeMap::new();
    let mut mechanisms = std::collections::BTreeMap::new();
    for c in &caps {
        *classes.entry(c.rung3.name()).or_insert(0usize) += 1;
        *mechanisms.entry(c.mechanism).or_insert(0usize) += 1;
    }
    let join = |m: &std::collections::BTreeMap<&str, usize>| {
        m.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        log,
        "irinorm-frontier crawl: {} URLs on {} sites (epoch {}), {} WARC records ({} revisits)\n  {}\n  {}\n  {}\n  {}\nrung3: {}\nmechanisms: {}",
        caps.len(),
        args.sites,
        args.epoch,
        files.records,
        files.revisits,
        files.warc.display(),
        files.cdx.display(),
        files.cdxj.display(),
        files.truth.display(),
        join(&classes),
        join(&mechanisms),
    );
    Ok(())
}

/// Runs `quality`: the report goes to `out` (text or JSON).
pub fn run_quality(args: &QualityArgs, out: &mut dyn Write) -> Result<(), String> {
    let frontier = if args.file.as_os_str() == "-" {
        Frontier::read(io::stdin().lock())
    } else {
        let f = File::open(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
        Frontier::read(BufReader::with_capacity(1 << 20, f))
    }
    .map_err(|e| format!("{}: {e}", args.file.display()))?;
    let configs: Vec<Configuration> = if args.configs.is_empty() {
        Configuration::ALL.to_vec()
    } else {
        args.configs.clone()
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let r = report(&frontier, &configs, threads);
    let text = if args.json {
        serde_json::to_string_pretty(&r).map_err(|e| e.to_string())? + "\n"
    } else {
        r.to_text()
    };
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // A closed pipe ends the run quietly.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e.to_string()),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Parser, Debug)]
    struct Both {
        #[command(subcommand)]
        cmd: Sub,
    }

    #[derive(clap::Subcommand, Debug)]
    enum Sub {
        Generate(GenerateArgs),
        Quality(QualityArgs),
    }

    #[test]
    fn args_parse() {
        use clap::{CommandFactory, Parser};
        Both::command().debug_assert();
        let b = Both::try_parse_from([
            "x",
            "generate",
            "--lines",
            "10k",
            "--kinds",
            "rungs,confuser-port",
            "--seed",
            "9",
        ])
        .unwrap();
        let Sub::Generate(g) = b.cmd else { panic!() };
        assert_eq!(g.lines, 10_000);
        assert!(g.kinds.0.contains(&Kind::ConfuserPort));
        assert!(g.kinds.0.contains(&Kind::DefaultPort));
        assert!(!g.kinds.0.contains(&Kind::Fragment));
        let b = Both::try_parse_from(["x", "quality", "f.tsv", "--configs", "rfc,fetch", "--json"])
            .unwrap();
        let Sub::Quality(q) = b.cmd else { panic!() };
        assert_eq!(q.configs.len(), 2);
        assert!(q.json);
        assert!(Both::try_parse_from(["x", "generate", "--kinds", "nope"]).is_err());
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count("10M"), Ok(10_000_000));
        assert_eq!(parse_count("100k"), Ok(100_000));
        assert_eq!(parse_count("1_000"), Ok(1000));
        assert!(parse_count("x").is_err());
    }
}
