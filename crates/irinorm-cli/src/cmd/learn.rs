//! `irinorm learn`: site-specific DUST rules from crawl evidence or a URL
//! list, written as `[[host-rule]]` sections (docs/learning.md).

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::TypedValueParser;
use std::time::Instant;

use irinorm::ladder::{Normalizer, Options as LadderOptions};
use irinorm_learn::evaluate::{evaluate, recall_beyond, Figures};
use irinorm_learn::{evidence_truth, learn, rows, sim, Options, Row};
use irinorm_rules::host_rules::to_toml;
use irinorm_rules::{Config, HostRule, Pipeline, Preset};

use crate::common::{usage, CliError};

const EXAMPLES: &str = "\
Examples:
  irinorm learn --evidence crawl.db -o rules.toml     (the store of `irinorm evidence ingest`)
  irinorm learn -i crawl.cdx -o rules.toml
  irinorm learn -i crawl.warc.gz -i redirects.tsv -o rules.toml
  irinorm learn -i index.cdxj.gz -i more.cdx.zst -o rules.toml
  irinorm learn -i urls.tsv -o rules.toml            (url<TAB>digest-or-size)
  irinorm learn --evaluate -i crawl.cdx              (hold out the latest 30% by time)
  irinorm learn --evaluate --holdout hash -i crawl.cdx
  irinorm learn --evaluate -i e0.cdx --test e1.cdx --truth e1.truth.tsv
  irinorm learn --simulate 1 --epoch 0 -o e0     (e0.warc.gz, e0.cdx, e0.cdxj, e0.truth.tsv)
  irinorm normalize --preset crawler --config rules.toml -i urls.txt
";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
enum Holdout {
    /// The latest rows (by timestamp) are held out.
    #[default]
    Time,
    /// Rows whose URL hashes into the held-out share.
    Hash,
}

/// Learn site-specific normalization rules (DUST rules) from crawl
/// evidence: URLs with equal payload digests on one host, redirects, or a
/// URL list with a digest or size column.
///
/// Inputs may be an evidence store (--evidence), WARC, ARC, redirect logs
/// (from, status, to), CDX (11 or 9 fields), CDXJ, TSV (url, digest or
/// size, optional 14-digit time) or bare URLs, plain, gzip or zstd. The
/// output is a settings file of `[[host-rule]]` sections, each with its
/// support, confidence and example pairs, for `--config` (learned on top
/// of the `crawler` preset: apply it with `--preset crawler`).
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// Input files (`-` for stdin); repeatable.
    #[arg(short, long = "input", value_name = "FILE")]
    input: Vec<PathBuf>,

    /// An evidence store (SQLite, written by `irinorm evidence ingest`):
    /// its digests and redirects.
    #[arg(long, value_name = "FILE.db")]
    evidence: Option<PathBuf>,

    /// Write the rules (or the simulated crawl) here instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// The preset the rules are learned on top of.
    #[arg(long, default_value = "crawler", value_parser = clap::builder::PossibleValuesParser::new(["rfc", "fetch", "crawler", "aggressive"]).map(|s| s.parse::<Preset>().unwrap_or(Preset::Crawler)))]
    base: Preset,

    /// Minimum distinct paths among the merges a rule's evidence confirms.
    #[arg(long, value_name = "N", default_value_t = 3)]
    min_paths: usize,

    /// Minimum confidence: confirmed / merged evidence pairs.
    #[arg(long, value_name = "X", default_value_t = 0.95)]
    min_confidence: f64,

    /// A digest or redirect target shared by more distinct paths of a host
    /// is boilerplate (soft-404, error page), not evidence.
    #[arg(long, value_name = "N", default_value_t = 8)]
    boilerplate_paths: usize,

    /// Hold out part of the evidence, learn on the rest and print the
    /// quality of the rules on the held-out part beside the presets.
    #[arg(long)]
    evaluate: bool,

    /// How to hold out (with --evaluate).
    #[arg(long, value_enum, default_value_t = Holdout::Time)]
    holdout: Holdout,

    /// With --evaluate: learn on all of -i and measure on these files
    /// instead of holding out (a later crawl of the same sites).
    #[arg(long, value_name = "FILE")]
    test: Vec<PathBuf>,

    /// Share of the rows held out (with --evaluate).
    #[arg(long, value_name = "X", default_value_t = 0.3)]
    holdout_share: f64,

    /// Write a simulated crawl (seed N, the crawl of `irinorm-frontier
    /// crawl`) instead of learning: `-o PREFIX` gives PREFIX.warc.gz,
    /// PREFIX.cdx, PREFIX.cdxj and PREFIX.truth.tsv (url, true page, ...).
    #[arg(long, value_name = "SEED")]
    simulate: Option<u64>,

    /// Epoch of the simulated crawl (0 is the first; a later one has new
    /// pages and new session values).
    #[arg(long, default_value_t = 0)]
    epoch: u32,

    /// Sites of the simulated crawl.
    #[arg(long, default_value_t = 40)]
    sites: usize,

    /// Pages per site of the simulated crawl (epoch 0).
    #[arg(long, default_value_t = 30)]
    pages: usize,

    /// With --evaluate: a truth file (url<TAB>true page[<TAB>...], as
    /// --simulate writes it) that replaces the digests as the truth of the
    /// held-out rows.
    #[arg(long, value_name = "FILE")]
    truth: Option<PathBuf>,
}

/// The file (or stdin for `-`), buffered but not decompressed.
fn open_raw(path: &Path) -> io::Result<BufReader<Box<dyn Read + Send>>> {
    let raw: Box<dyn Read + Send> = if path.as_os_str() == "-" {
        Box::new(io::stdin())
    } else {
        Box::new(
            File::open(path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?,
        )
    };
    let mut r = BufReader::with_capacity(64 * 1024, raw);
    r.fill_buf()
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    Ok(r)
}

/// The decompressed text of a buffered file (gzip: all members; zstd).
fn decompress(r: BufReader<Box<dyn Read + Send>>) -> io::Result<Box<dyn BufRead + Send>> {
    let head = r.buffer();
    Ok(if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(r)))
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Box::new(BufReader::new(zstd::Decoder::with_buffer(r)?))
    } else {
        Box::new(r)
    })
}

fn write_out(path: Option<&Path>, text: &str) -> Result<(), CliError> {
    match path {
        Some(p) => std::fs::write(p, text)
            .map_err(|e| CliError::Io(io::Error::new(e.kind(), format!("{}: {e}", p.display())))),
        None => {
            let mut o = io::stdout().lock();
            o.write_all(text.as_bytes())
                .and_then(|_| o.flush())
                .or_else(|e| {
                    if e.kind() == io::ErrorKind::BrokenPipe {
                        Ok(())
                    } else {
                        Err(CliError::Io(e))
                    }
                })
        }
    }
}

fn note(msg: std::fmt::Arguments<'_>) {
    irinorm_stream::note(msg);
}

/// Reads a crawl file (WARC, ARC, CDX, CDXJ, redirect log) with the
/// readers of irinorm-archive, from its raw (still compressed) bytes, so
/// that a gzip WARC's offsets are member starts and a ZipNum CDX's blocks
/// end their last lines, as `evidence ingest` reads them.
fn read_archive(
    p: &Path,
    r: BufReader<Box<dyn Read + Send>>,
    format: irinorm_archive::Format,
    all: &mut Rows,
) -> Result<bool, CliError> {
    let mut recs = irinorm_archive::from_reader(r, Some(format))
        .map_err(|e| CliError::Usage(format!("{}: {e}", p.display())))?;
    let mut bad = 0u64;
    let mut rows = 0u64;
    for r in recs.by_ref() {
        match r {
            Ok(o) => {
                rows += 1;
                all.origins.push(Origin {
                    file: all.files.len() - 1,
                    line: o.line,
                    offset: o.offset,
                });
                all.rows.push(Row::from(o));
            }
            Err(e) => {
                bad += 1;
                note(format_args!("{}: rejected: {e}", p.display()));
            }
        }
    }
    let c = recs.counts();
    note(format_args!(
        "{} ({}): {} records = {} rows + {} skipped + {} rejected",
        p.display(),
        recs.format().name(),
        c.records,
        rows,
        c.skipped,
        c.bad
    ));
    Ok(bad > 0)
}

/// Where a row came from: its file (an index into [`Rows::files`]), line
/// (line formats) and byte offset (a line's start, a WARC record's).
#[derive(Clone, Copy, Debug)]
struct Origin {
    file: usize,
    line: Option<u64>,
    offset: u64,
}

/// The rows read, each with its origin (same index), so that a row the
/// learner rejects (its URL does not parse) is reported where it is.
#[derive(Default)]
struct Rows {
    files: Vec<String>,
    rows: Vec<Row>,
    origins: Vec<Origin>,
}

impl Rows {
    /// Reports row `i` (an index into `rows`) rejected with `kind`: file,
    /// line, byte offset, as the readers report theirs (docs/learning.md,
    /// "Input").
    fn note_row(&self, i: usize, kind: &str) {
        match self.origins.get(i) {
            Some(o) => note_rejected(&self.files[o.file], o.line, o.offset, kind),
            // A row of the evidence store (after the files).
            None => note(format_args!(
                "evidence store row {}: rejected: {kind}",
                i - self.origins.len()
            )),
        }
    }

    /// Reports the rows the learner rejected (`Learned::rejects`, indexes
    /// into the rows it was given; `at` maps one to its index into `rows`).
    fn report(&self, l: &irinorm_learn::Learned, at: impl Fn(u64) -> usize) {
        for &(i, kind) in &l.rejects {
            self.note_row(at(i), kind);
        }
        if l.rejected > l.rejects.len() as u64 {
            note(format_args!(
                "{} more rejected rows not shown",
                l.rejected - l.rejects.len() as u64
            ));
        }
    }
}

/// One rejected row, as every reader of `learn` reports it: file, line
/// (line formats), byte offset and kind (docs/learning.md, "Input").
fn note_rejected(file: &str, line: Option<u64>, offset: u64, kind: impl std::fmt::Display) {
    match line {
        Some(n) => note(format_args!("{file}:{n}: byte {offset}: rejected: {kind}")),
        None => note(format_args!("{file}: byte {offset}: rejected: {kind}")),
    }
}

/// Reads every input, reporting rejected lines; returns the rows and
/// whether any line was rejected. Crawl files (WARC, ARC, CDX, CDXJ,
/// redirect logs, told by their first bytes) go through the readers of
/// irinorm-archive; anything else is a URL list with an optional digest or
/// size column ([`rows::read`]).
fn read_rows(inputs: &[PathBuf]) -> Result<(Rows, bool), CliError> {
    use irinorm_archive::Format;
    let mut all = Rows::default();
    let mut any_rejected = false;
    for p in inputs {
        all.files.push(p.display().to_string());
        let r = open_raw(p).map_err(CliError::Io)?;
        match irinorm_archive::detect_raw(r.buffer()) {
            Some(
                f @ (Format::Warc | Format::Arc | Format::Cdx | Format::Cdxj | Format::RedirectTsv),
            ) => {
                any_rejected |= read_archive(p, r, f, &mut all)?;
                continue;
            }
            // A digest list is a URL list with a digest column; a column
            // of digits is a size there.
            Some(Format::DigestTsv) | None => {}
        }
        let named =
            |e: io::Error| CliError::Io(io::Error::new(e.kind(), format!("{}: {e}", p.display())));
        let r = decompress(r).map_err(named)?;
        let file = all.files.len() - 1;
        let st = rows::read_at(r, |row, line, offset| {
            all.origins.push(Origin {
                file,
                line: Some(line),
                offset,
            });
            all.rows.push(row);
        })
        // A cut gzip or zstd list: the file, and the line and byte
        // reached (`rows::read_at`); round 22, it said only `incomplete
        // deflate stream`.
        .map_err(named)?;
        for rej in &st.rejects {
            note_rejected(&all.files[file], Some(rej.line), rej.offset, rej.kind);
        }
        if st.rejected > st.rejects.len() as u64 {
            note(format_args!(
                "{}: {} more rejected lines not shown",
                p.display(),
                st.rejected - st.rejects.len() as u64
            ));
        }
        note(format_args!(
            "{}: {} lines = {} rows + {} headers/comments + {} rejected",
            p.display(),
            st.lines,
            st.rows,
            st.skipped,
            st.rejected
        ));
        any_rejected |= st.rejected > 0;
    }
    Ok((all, any_rejected))
}

/// The rows of an evidence store: every (key, digest, time) of every host
/// and every redirect (a redirect source's own digest is left out: it is
/// the redirect page's).
fn read_store(path: &Path) -> Result<Vec<Row>, CliError> {
    let err =
        |e: irinorm_evidence::StoreError| CliError::Usage(format!("{}: {}", path.display(), e.0));
    if !path.is_file() {
        return usage(format!("{}: no such evidence store", path.display()));
    }
    let store = irinorm_evidence::Store::open(path).map_err(err)?;
    let mut rows = Vec::new();
    let mut sources = std::collections::HashSet::new();
    for (key, status, target, time) in store.redirects().map_err(err)? {
        sources.insert(key.clone());
        rows.push(Row {
            url: key,
            time,
            status: Some(status),
            location: target,
            digest: None,
        });
    }
    for (host, _) in store.count_by("host", usize::MAX).map_err(err)? {
        for (key, digest, time) in store.digests_of_host(&host).map_err(err)? {
            if sources.contains(&key) {
                continue;
            }
            rows.push(Row {
                url: key,
                digest: Some(digest),
                time,
                status: None,
                location: None,
            });
        }
    }
    note(format_args!(
        "{}: {} rows ({} redirects)",
        path.display(),
        rows.len(),
        sources.len()
    ));
    Ok(rows)
}

/// A `--truth` file: `url<TAB>page[<TAB>...]` a line (what --simulate
/// writes, its header `url<TAB>page...` skipped; blank lines too). A
/// truth file is a measurement's ground truth, so a bad line stops the
/// run, named by file, line and byte offset (as `irinorm quality` reads a
/// frontier); lines end as the CLI's do (`\n`, one `\r` before it). Round
/// 22: a line that was not UTF-8 or a cut gzip file failed without the
/// file's name, and a line without a tab was left out without a word.
fn read_truth(p: &Path) -> Result<std::collections::HashMap<String, String>, CliError> {
    let bad = |what: String| CliError::Io(io::Error::new(io::ErrorKind::InvalidData, what));
    let r = open_raw(p)
        .and_then(decompress)
        .map_err(|e| bad(format!("{}: {e}", p.display())))?;
    let mut map = std::collections::HashMap::new();
    let read = rows::each_line(r, |line, no, at| {
        let text = std::str::from_utf8(line).map_err(|e| {
            bad(format!(
                "{}:{no}: byte {}: not UTF-8",
                p.display(),
                at + e.valid_up_to() as u64
            ))
        })?;
        if text.is_empty() {
            return Ok(());
        }
        // url, page[, canonical, rung3, mechanism, status].
        let mut f = text.split('\t');
        match (f.next(), f.next()) {
            (Some("url"), Some("page")) if no == 1 => Ok(()),
            (Some(u), Some(t)) if !u.is_empty() => {
                map.insert(u.to_owned(), t.to_owned());
                Ok(())
            }
            _ => Err(bad(format!(
                "{}:{no}: byte {at}: expected url<TAB>page",
                p.display()
            ))),
        }
    });
    match read {
        Err(e) => Err(bad(format!("{}: {e}", p.display()))),
        Ok(Err(e)) => Err(e),
        Ok(Ok(_)) => Ok(map),
    }
}

fn with_rules(base: Preset, rules: Vec<HostRule>) -> Pipeline {
    Pipeline::new(
        Normalizer::new(LadderOptions::new(base.rung(), Default::default())),
        base.rule_set(),
        Config {
            host_rules: rules,
            ..Config::default()
        },
    )
}

fn hash(s: &str) -> u64 {
    // FNV-1a: stable across runs and platforms, unlike the std hasher.
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Rows, each with its index among the rows read (for reporting it).
type Indexed = Vec<(Row, usize)>;

fn split(rows: Indexed, how: Holdout, share: f64) -> (Indexed, Indexed) {
    match how {
        Holdout::Hash => rows
            .into_iter()
            .partition(|(r, _)| (hash(&r.url) % 10_000) as f64 >= share * 10_000.0),
        Holdout::Time => {
            let mut times: Vec<&str> = rows.iter().filter_map(|(r, _)| r.time.as_deref()).collect();
            times.sort_unstable();
            let cut = times
                .get(((1.0 - share) * times.len() as f64) as usize)
                .map(|s| (*s).to_owned());
            match cut {
                Some(cut) => rows
                    .into_iter()
                    .partition(|(r, _)| r.time.as_deref().is_none_or(|t| t < cut.as_str())),
                None => (rows, Vec::new()),
            }
        }
    }
}

fn line(f: &Figures, beyond: Option<f64>, rules: &str) -> String {
    format!(
        "{:<18} {:>8} {:>8} {:>10.4} {:>8.4} {:>8} {:>10.4} {:>10}  {}\n",
        f.name,
        f.urls,
        f.keys,
        f.precision,
        f.recall,
        beyond.map_or("-".to_owned(), |b| format!("{b:.4}")),
        f.reduction,
        f.merged_pairs,
        rules
    )
}

pub(crate) fn run(a: Args) -> Result<ExitCode, CliError> {
    if let Some(seed) = a.simulate {
        let Some(out) = a.output.as_deref() else {
            return usage("--simulate: give -o PREFIX (PREFIX.warc.gz, .cdx, .cdxj, .truth.tsv)");
        };
        let caps = sim::captures(seed, a.sites, a.pages, a.epoch);
        let dir = out.parent().filter(|d| !d.as_os_str().is_empty());
        let name = out.file_name().and_then(|n| n.to_str()).unwrap_or("crawl");
        let files = irinorm_frontier::write_crawl(&caps, dir.unwrap_or(Path::new(".")), name)
            .map_err(CliError::Io)?;
        note(format_args!(
            "{} captures: {} ({} records, {} revisits), {}, {}, {}",
            caps.len(),
            files.warc.display(),
            files.records,
            files.revisits,
            files.cdx.display(),
            files.cdxj.display(),
            files.truth.display()
        ));
        return Ok(ExitCode::SUCCESS);
    }
    if a.input.is_empty() && a.evidence.is_none() {
        return usage(
            "no input: give --evidence FILE.db or -i FILE (WARC, ARC, CDX, CDXJ, TSV or a URL list)",
        );
    }
    if !(0.0..=1.0).contains(&a.min_confidence) || !(0.0..1.0).contains(&a.holdout_share) {
        return usage("--min-confidence and --holdout-share are between 0 and 1");
    }
    let opts = Options {
        base: Pipeline::preset(a.base),
        min_paths: a.min_paths,
        min_confidence: a.min_confidence,
        boilerplate_paths: a.boilerplate_paths,
        ..Options::default()
    };
    let (mut read, rejected) = read_rows(&a.input)?;
    if let Some(db) = &a.evidence {
        read.rows.extend(read_store(db)?);
    }
    let mut code = if rejected {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    if !a.evaluate {
        let t = Instant::now();
        let rows = std::mem::take(&mut read.rows);
        let l = learn(rows, &opts);
        read.report(&l, |i| i as usize);
        if l.rejected > 0 {
            code = ExitCode::from(1);
        }
        let hosts: BTreeSet<&str> = l.rules.iter().map(|r| r.host.as_str()).collect();
        note(format_args!(
            "learned {} rules for {} hosts from {} rows ({} URLs, {} with {} evidence, {} rejected, {} not learnable, {} boilerplate digests/targets; {} candidates, {} below confidence, {} below support, {} narrowed) in {:.2} s",
            l.rules.len(),
            hosts.len(),
            l.rows,
            l.urls,
            l.with_evidence,
            if l.basis.is_empty() { "no" } else { l.basis },
            l.rejected,
            l.not_learnable,
            l.boilerplate,
            l.candidates,
            l.low_confidence,
            l.low_support,
            l.narrowed,
            t.elapsed().as_secs_f64()
        ));
        let mut text = format!(
            "# Learned by irinorm learn on top of the `{}` preset: apply with\n# `--preset {} --config FILE`. Each [[host-rule]] is one rule; review the\n# evidence (support, confidence, examples) and delete what you do not want.\n# {} rules for {} hosts, from {} rows ({} URLs, {} with evidence).\n\n",
            a.base.name(),
            a.base.name(),
            l.rules.len(),
            hosts.len(),
            l.rows,
            l.urls,
            l.with_evidence
        );
        text.push_str(&to_toml(&l.rules));
        write_out(a.output.as_deref(), &text)?;
        return Ok(code);
    }
    // --evaluate. Every row keeps its index among the rows read, so that
    // the rejected ones are reported where they are, held out or not, as
    // `learn` reports them (round 22: they were only counted).
    let indexed = |rows: Vec<Row>| -> Indexed { rows.into_iter().zip(0..).collect() };
    let rows = indexed(std::mem::take(&mut read.rows));
    let (train, test, tested) = if a.test.is_empty() {
        let (train, test) = split(rows, a.holdout, a.holdout_share);
        (train, test, None)
    } else {
        let (mut t, rejected) = read_rows(&a.test)?;
        if rejected {
            code = ExitCode::from(1);
        }
        (rows, indexed(std::mem::take(&mut t.rows)), Some(t))
    };
    if test.is_empty() || train.is_empty() {
        return usage("--evaluate: nothing to hold out (no timestamps?): try --holdout hash");
    }
    let (train, train_at): (Vec<Row>, Vec<usize>) = train.into_iter().unzip();
    let (test, test_at): (Vec<Row>, Vec<usize>) = test.into_iter().unzip();
    // The held-out rows whose URL the base preset does not parse (the
    // learner reports the training ones below): `evaluate` leaves them
    // out of its figures.
    let test_from = tested.as_ref().unwrap_or(&read);
    let mut held_rejected = 0u64;
    for (r, &i) in test.iter().zip(&test_at) {
        if let Err(e) = opts.base.normalize(&r.url) {
            held_rejected += 1;
            if held_rejected <= 1000 {
                test_from.note_row(i, e.kind().code());
            }
        }
    }
    if held_rejected > 1000 {
        note(format_args!(
            "{} more rejected held-out rows not shown",
            held_rejected - 1000
        ));
    }
    let truth: Vec<(String, Option<String>)> = match &a.truth {
        Some(p) => {
            let map = read_truth(p)?;
            test.iter()
                .map(|r| (r.url.clone(), map.get(&r.url).cloned()))
                .collect()
        }
        None => evidence_truth(&test, &opts),
    };
    let (n_train, n_test) = (train.len(), test.len());
    let t = Instant::now();
    let l = learn(train, &opts);
    let secs = t.elapsed().as_secs_f64();
    read.report(&l, |i| train_at[i as usize]);
    if l.rejected + held_rejected > 0 {
        code = ExitCode::from(1);
        note(format_args!(
            "{} training rows and {held_rejected} held-out rows rejected",
            l.rejected
        ));
    }
    let hosts: BTreeSet<String> = l.rules.iter().map(|r| r.host.clone()).collect();
    let n_rules = l.rules.len();
    let crawler = evaluate("crawler", &Pipeline::preset(Preset::Crawler), &truth);
    let aggressive = evaluate("aggressive", &Pipeline::preset(Preset::Aggressive), &truth);
    let name = format!("{}+learned", a.base.name());
    let mut mine = evaluate("", &with_rules(a.base, l.rules), &truth);
    mine.name = name;
    let mut out = format!(
        "learned on {n_train} rows, evaluated on {n_test} held-out rows ({}); truth: {}\nlearning: {secs:.2} s, {n_rules} rules for {} hosts ({:.2} rules per host)\n\n",
        if a.test.is_empty() {
            format!("{:?}, share {}", a.holdout, a.holdout_share)
        } else {
            "the --test files".to_owned()
        },
        if a.truth.is_some() { "the --truth file" } else { "equal digests and redirects, boilerplate set aside" },
        hosts.len(),
        if hosts.is_empty() { 0.0 } else { n_rules as f64 / hosts.len() as f64 },
    );
    out.push_str(&format!(
        "{:<18} {:>8} {:>8} {:>10} {:>8} {:>8} {:>10} {:>10}  {}\n",
        "normalization",
        "urls",
        "keys",
        "precision",
        "recall",
        "beyond",
        "reduction",
        "merged",
        "rules"
    ));
    out.push_str(&line(&crawler, None, "0"));
    out.push_str(&line(
        &aggressive,
        Some(recall_beyond(&aggressive, &crawler)),
        "0",
    ));
    out.push_str(&line(
        &mine,
        Some(recall_beyond(&mine, &crawler)),
        &n_rules.to_string(),
    ));
    write_out(a.output.as_deref(), &out)?;
    Ok(code)
}
