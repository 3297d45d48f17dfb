//! `irinorm evidence`: ingest crawl evidence into a store, and look at it
//! (docs/evidence.md; docs/cli.md "evidence").

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use irinorm::ladder::Options;
use irinorm::protocol::{classify, evidence_key, origin, Protocol, RedirectPolicy};
use irinorm_archive::Format;
use irinorm_evidence::{IngestOptions, Store, StoreEvidence};

use crate::common::{usage, CliError};
use crate::protocol_args::ProtocolArgs;

const EXAMPLES: &str = "\
Examples:
  irinorm evidence ingest --db crawl.db index.cdx redirects.tsv.gz --rejects bad.tsv
  irinorm evidence stats --db crawl.db
  irinorm evidence why --db crawl.db 'http://example.com/data'
  irinorm normalize --rung protocol --evidence crawl.db -i urls.txt
";

/// Crawl evidence for rung 3 (`--rung protocol`): an SQLite store of
/// observations (redirects, statuses, digests) read from crawl files.
#[derive(Debug, clap::Subcommand)]
#[command(after_help = EXAMPLES)]
pub(crate) enum Cmd {
    /// Read crawl files into the store (created if absent). Each file is
    /// read in batches; a file read completely before is skipped, one
    /// interrupted is resumed. Bad records are counted and reported with
    /// file, line and byte offset; a file that cannot be read is reported
    /// and the others go on. Exit status 1 when anything was rejected.
    Ingest(IngestArgs),
    /// Counts by kind, status and host; redirects that are edges under each
    /// --redirects policy; origins with host-level conventions.
    Stats(StatsArgs),
    /// Every observation about a URL, the redirects to it, its rung-3 chain
    /// and its origin's conventions.
    Why(WhyArgs),
}

#[derive(Debug, clap::Args)]
pub(crate) struct IngestArgs {
    /// The store.
    #[arg(long, value_name = "FILE.db")]
    db: PathBuf,
    /// Crawl files: WARC, ARC, CDX, CDXJ, redirect logs
    /// (from<TAB>status<TAB>to[<TAB>time]), digest lists (url<TAB>digest);
    /// plain, gzip or zstd; the format is detected from the content.
    #[arg(value_name = "INPUT", required = true)]
    inputs: Vec<PathBuf>,
    /// Skip format detection: `warc`, `arc`, `cdx`, `cdxj`, `redirects`,
    /// `digests`.
    #[arg(long, value_name = "FORMAT", value_parser = ["warc", "arc", "cdx", "cdxj", "redirects", "digests"])]
    format: Option<String>,
    /// Write every bad record to FILE:
    /// file<TAB>line<TAB>offset<TAB>kind<TAB>message.
    #[arg(long, value_name = "FILE")]
    rejects: Option<PathBuf>,
    /// Stop at the first bad record (what was committed stays).
    #[arg(long)]
    strict: bool,
    /// Observations per transaction.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    batch: usize,
    /// Without --rejects, show at most N bad records on stderr.
    #[arg(long, value_name = "N", default_value_t = 20)]
    show_rejects: u64,
    /// No summary lines.
    #[arg(short = 'q', long)]
    quiet: bool,
}

#[derive(Debug, clap::Args)]
pub(crate) struct StatsArgs {
    /// The store.
    #[arg(long, value_name = "FILE.db")]
    db: PathBuf,
    /// Show at most N hosts and statuses.
    #[arg(long, value_name = "N", default_value_t = 20)]
    top: usize,
    /// Minimum support counted in "origins with conventions".
    #[arg(long, value_name = "N", default_value_t = irinorm::protocol::DEFAULT_MIN_HOST_SUPPORT)]
    min_host_support: u32,
}

#[derive(Debug, clap::Args)]
pub(crate) struct WhyArgs {
    /// The store.
    #[arg(long, value_name = "FILE.db")]
    db: PathBuf,
    /// URLs to explain.
    #[arg(value_name = "URL", required = true)]
    urls: Vec<String>,
    /// Which redirects are edges (as for --rung protocol).
    #[arg(long, value_name = "POLICY", default_value = "conventional", value_parser = ["conventional", "permanent", "all"])]
    redirects: String,
    /// As for --rung protocol.
    #[arg(long, value_name = "N", default_value_t = irinorm::protocol::DEFAULT_MIN_HOST_SUPPORT)]
    min_host_support: u32,
}

pub(crate) fn run(c: Cmd) -> Result<ExitCode, CliError> {
    match c {
        Cmd::Ingest(a) => ingest(a),
        Cmd::Stats(a) => stats(a),
        Cmd::Why(a) => why(a),
    }
}

fn open(db: &Path) -> Result<Store, CliError> {
    Store::open(db).map_err(|e| CliError::Usage(e.to_string()))
}

fn out_line(s: &str) -> Result<(), CliError> {
    let mut o = std::io::stdout().lock();
    match o.write_all(s.as_bytes()).and_then(|_| o.write_all(b"\n")) {
        // A closed pipe (`| head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.map_err(CliError::Io),
    }
}

fn ingest(a: IngestArgs) -> Result<ExitCode, CliError> {
    let mut store = open(&a.db)?;
    let format = a.format.as_deref().and_then(Format::parse);
    let mut rejects_out = match &a.rejects {
        Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(
            |e| CliError::Usage(format!("--rejects {}: {e}", p.display())),
        )?)),
        None => None,
    };
    let opts = IngestOptions {
        batch: a.batch,
        strict: a.strict,
    };
    let (mut bad, mut shown, mut failed_files) = (0u64, 0u64, 0u64);
    let mut stop = false;
    for input in &a.inputs {
        if stop {
            break;
        }
        let shown_name = input.display().to_string();
        // A file is known by its absolute path: the same file ingested
        // again (from any working directory) adds nothing.
        let source = std::fs::canonicalize(input)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| shown_name.clone());
        let records = match irinorm_archive::open(input, format) {
            Ok(r) => r,
            Err(e) => {
                irinorm_stream::note(format_args!("irinorm: {shown_name}: {e}"));
                failed_files += 1;
                if a.strict {
                    stop = true;
                }
                continue;
            }
        };
        let mut write_err = None;
        let rep = store
            .ingest_observations(&source, records, &opts, &mut |e| {
                bad += 1;
                let line = e.line.map_or("-".to_owned(), |l| l.to_string());
                if let Some(w) = rejects_out.as_mut() {
                    if let Err(err) = writeln!(
                        w,
                        "{shown_name}\t{line}\t{}\t{}\t{}",
                        e.offset, e.kind, e.message
                    ) {
                        write_err = Some(err);
                    }
                } else if shown < a.show_rejects {
                    shown += 1;
                    irinorm_stream::note(format_args!(
                        "irinorm: {shown_name}: line {line}, byte {}: {}: {}",
                        e.offset, e.kind, e.message
                    ));
                }
            })
            .map_err(|e| CliError::Usage(e.to_string()))?;
        if let Some(e) = write_err {
            return Err(CliError::Io(e));
        }
        if let Some(f) = &rep.fatal {
            failed_files += 1;
            irinorm_stream::note(format_args!(
                "irinorm: {shown_name}: {f} (the file ends here; what came before is stored)"
            ));
        }
        if rep.stopped {
            stop = true;
        }
        if !a.quiet {
            if rep.already_complete {
                irinorm_stream::note(format_args!(
                    "{shown_name}: already ingested completely, skipped"
                ));
            } else {
                irinorm_stream::note(format_args!(
                    "{shown_name}: {} records: {} stored, {} already present, {} rejected{}",
                    rep.records,
                    rep.inserted,
                    rep.present,
                    rep.rejected,
                    rep.resumed_after
                        .map(|o| format!(" (resumed after byte {o})"))
                        .unwrap_or_default()
                ));
            }
        }
    }
    if let Some(mut w) = rejects_out {
        w.flush()?;
    }
    if !a.quiet && bad > shown && a.rejects.is_none() {
        irinorm_stream::note(format_args!(
            "irinorm: {} more bad records not shown (--rejects FILE lists all)",
            bad - shown
        ));
    }
    Ok(if bad > 0 || failed_files > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn stats(a: StatsArgs) -> Result<ExitCode, CliError> {
    if !a.db.is_file() {
        return usage(format!("--db {}: no such store", a.db.display()));
    }
    let store = open(&a.db)?;
    let err = |e: irinorm_evidence::StoreError| CliError::Usage(e.to_string());
    out_line(&format!("observations\t{}", store.count().map_err(err)?))?;
    let sources = store.sources().map_err(err)?;
    let complete = sources.iter().filter(|s| s.2).count();
    out_line(&format!(
        "sources\t{}\t({} complete, {} partial)",
        sources.len(),
        complete,
        sources.len() - complete
    ))?;
    for col in ["kind", "status", "host"] {
        for (v, n) in store.count_by(col, a.top).map_err(err)? {
            out_line(&format!("{col}\t{v}\t{n}"))?;
        }
    }
    let ev = StoreEvidence::load(&store).map_err(err)?;
    out_line(&format!("urls with a deciding observation\t{}", ev.len()))?;
    // Latest redirects of distinct URLs that are edges under each policy.
    let mut edges: BTreeMap<&str, u64> = BTreeMap::new();
    let mut redirects = 0u64;
    let keys = store_redirect_sources(&store).map_err(err)?;
    for (from, status, to) in &keys {
        redirects += 1;
        for p in RedirectPolicy::ALL {
            if p.is_edge(*status, from, to) {
                *edges.entry(p.name()).or_default() += 1;
            }
        }
    }
    out_line(&format!("latest redirects with a target\t{redirects}"))?;
    for p in RedirectPolicy::ALL {
        out_line(&format!(
            "edges under --redirects {}\t{}",
            p.name(),
            edges.get(p.name()).copied().unwrap_or(0)
        ))?;
    }
    let mut hosts: Vec<_> = ev.hosts().iter().collect();
    hosts.sort_by(|x, y| x.0.cmp(y.0));
    let mut applied = 0;
    for (o, conv) in hosts {
        for c in conv {
            let applies = c.contradictions == 0 && c.support >= a.min_host_support;
            applied += u64::from(applies);
            if c.support > 0 {
                out_line(&format!(
                    "host convention\t{o}\t{}\tsupport {}\tcontradictions {}\t{}",
                    c.convention,
                    c.support,
                    c.contradictions,
                    if applies { "applies" } else { "does not apply" }
                ))?;
            }
        }
    }
    out_line(&format!(
        "host conventions that apply (support >= {}, no contradiction)\t{applied}",
        a.min_host_support
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// The latest redirect with a target of each URL whose latest deciding
/// observation is a redirect.
fn store_redirect_sources(
    store: &Store,
) -> Result<Vec<(String, u16, String)>, irinorm_evidence::StoreError> {
    let mut last: BTreeMap<String, (Option<String>, u16, Option<String>)> = BTreeMap::new();
    for (k, status, target, time) in store.redirects()? {
        if target.is_none() {
            continue;
        }
        let e = last.entry(k).or_insert((None, status, None));
        if time >= e.0 {
            *e = (time, status, target);
        }
    }
    Ok(last
        .into_iter()
        .filter_map(|(k, (_, s, t))| t.map(|t| (k, s, t)))
        .collect())
}

fn why(a: WhyArgs) -> Result<ExitCode, CliError> {
    if !a.db.is_file() {
        return usage(format!("--db {}: no such store", a.db.display()));
    }
    let store = open(&a.db)?;
    let err = |e: irinorm_evidence::StoreError| CliError::Usage(e.to_string());
    let ev = StoreEvidence::load(&store).map_err(err)?;
    let popts = ProtocolArgs {
        evidence: None,
        redirects: a.redirects.parse().unwrap_or_default(),
        min_host_support: a.min_host_support,
    }
    .options();
    let p = Protocol::new(Options::default(), &ev, popts);
    let mut code = ExitCode::SUCCESS;
    for url in &a.urls {
        let key = match evidence_key(url) {
            Ok(k) => k,
            Err(e) => {
                irinorm_stream::note(format_args!("irinorm: {url:?}: {e}"));
                code = ExitCode::from(1);
                continue;
            }
        };
        out_line(&format!("{url}\n  key {key}"))?;
        let obs = store.observations_of(&key).map_err(err)?;
        if obs.is_empty() {
            out_line("  no observation of this URL")?;
        }
        for o in obs {
            out_line(&format!(
                "  observed {} {} status {}{}{}  url {}  ({}@{})",
                irinorm_evidence::store::kind_name(o.kind),
                o.time.as_deref().unwrap_or("-"),
                o.status.map_or("-".to_owned(), |s| s.to_string()),
                match (&o.target, &o.location) {
                    (Some(t), _) => format!(
                        " -> {t} ({})",
                        classify(&key, t).map_or("not conventional".to_owned(), |c| c.to_string())
                    ),
                    (None, Some(l)) if l != "-" => {
                        format!(" -> {l:?} (unresolvable: decides nothing)")
                    }
                    (None, _) if o.status.is_some_and(|s| (300..400).contains(&s)) => {
                        " -> unknown target (decides nothing)".to_owned()
                    }
                    _ => String::new(),
                },
                o.digest.map(|d| format!(" digest {d}")).unwrap_or_default(),
                o.url,
                o.source,
                o.offset
            ))?;
        }
        for o in store.redirects_to(&key).map_err(err)? {
            out_line(&format!(
                "  redirected to from {} {} status {}  ({}@{})",
                o.key,
                o.time.as_deref().unwrap_or("-"),
                o.status.map_or("-".to_owned(), |s| s.to_string()),
                o.source,
                o.offset
            ))?;
        }
        let chain = p.chain_of_key(&key);
        out_line(&format!(
            "  chain under --redirects {}: {} hop(s), ends at {}",
            popts.redirects.name(),
            chain.hops.len(),
            chain.end
        ))?;
        for h in &chain.hops {
            out_line(&format!("    {}", super::protocol::hop_text(h)))?;
        }
        if let Some(o) = origin(&key) {
            for c in irinorm::protocol::Evidence::host_conventions(&ev, o) {
                out_line(&format!(
                    "  origin {o}: {} support {} contradictions {}",
                    c.convention, c.support, c.contradictions
                ))?;
            }
        }
    }
    Ok(code)
}
