//! The quality report: for each configuration (the rungs alone, the
//! presets), how many planted aliases it merged with their original
//! (recall), how many distinct resources it merged (false merges), and how
//! much it shrinks the frontier (reduction ratio).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io::{self, BufRead};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;

use crate::generate::HEADER;
use crate::kind::{Configuration, EqualAt, Kind};

/// Samples kept per list for diagnosis.
pub const SAMPLES: usize = 5;

/// Why a frontier could not be read.
#[derive(Debug)]
pub enum QualityError {
    /// Reading failed.
    Io(io::Error),
    /// A line is not `url TAB class TAB kind TAB equal_at`.
    Format {
        /// 1-based line number.
        line: u64,
        /// What is wrong.
        what: String,
    },
}

impl std::fmt::Display for QualityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QualityError::Io(e) => write!(f, "{e}"),
            QualityError::Format { line, what } => write!(f, "line {line}: {what}"),
        }
    }
}

impl std::error::Error for QualityError {}

impl From<io::Error> for QualityError {
    fn from(e: io::Error) -> Self {
        QualityError::Io(e)
    }
}

#[derive(Clone, Copy, Debug)]
struct Meta {
    class: u64,
    kind: Kind,
    /// `None` for originals.
    equal_at: Option<EqualAt>,
}

/// A frontier in memory: the URLs in one buffer, and per line its class,
/// kind and level (about 40 bytes a line besides the URL).
#[derive(Debug, Default)]
pub struct Frontier {
    text: String,
    ends: Vec<usize>,
    meta: Vec<Meta>,
}

impl Frontier {
    /// Reads a frontier TSV (the header line is optional).
    pub fn read<R: BufRead>(mut r: R) -> Result<Frontier, QualityError> {
        let mut f = Frontier::default();
        let mut buf = Vec::new();
        let mut no = 0u64;
        let mut offset = 0u64;
        loop {
            buf.clear();
            let n = r.read_until(b'\n', &mut buf)?;
            if n == 0 {
                break;
            }
            no += 1;
            let start = offset;
            offset += n as u64;
            let bad = |what: String| QualityError::Format { line: no, what };
            // Bytes first, so that a line that is not UTF-8 is named by its
            // line and offset like any other bad line (`read_line` gave
            // an io::Error with neither: "stream did not contain valid
            // UTF-8", round 20).
            let line = std::str::from_utf8(&buf).map_err(|e| {
                bad(format!(
                    "not UTF-8 at byte {}",
                    start + e.valid_up_to() as u64
                ))
            })?;
            let l = line.trim_end_matches(['\n', '\r']);
            if l.is_empty() || (no == 1 && l == HEADER) {
                continue;
            }
            let mut it = l.split('\t');
            let (Some(url), Some(class), Some(kind), Some(eq), None) =
                (it.next(), it.next(), it.next(), it.next(), it.next())
            else {
                return Err(bad("expected 4 tab-separated fields".into()));
            };
            let class: u64 = class
                .parse()
                .map_err(|e| bad(format!("class {class:?}: {e}")))?;
            let kind: Kind = kind.parse().map_err(bad)?;
            let equal_at = if kind == Kind::Original {
                None
            } else {
                Some(eq.parse::<EqualAt>().map_err(bad)?)
            };
            if kind.is_confuser() != (equal_at == Some(EqualAt::Never)) {
                return Err(bad(format!("kind {kind} with equal_at {eq}")));
            }
            f.text.push_str(url);
            f.ends.push(f.text.len());
            f.meta.push(Meta {
                class,
                kind,
                equal_at,
            });
        }
        Ok(f)
    }

    /// Lines.
    pub fn len(&self) -> usize {
        self.meta.len()
    }

    /// Whether there is no line.
    pub fn is_empty(&self) -> bool {
        self.meta.is_empty()
    }

    /// The URL of line `i` (0-based, header not counted).
    pub fn url(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }
}

/// One cell of the recall table: the aliases of one kind (and level) under
/// one configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The alias kind.
    pub kind: String,
    /// Its level.
    pub equal_at: String,
    /// Whether the configuration must merge these aliases with their
    /// original (it includes the level); otherwise it must not.
    pub expected: bool,
    /// Aliases.
    pub total: u64,
    /// Aliases that got their original's key.
    pub merged: u64,
}

/// A group of lines with one key holding several true classes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FalseMerge {
    /// The classes (at most [`SAMPLES`]).
    pub classes: Vec<u64>,
    /// The kinds of the classes' own lines (original or confuser kind).
    pub kinds: Vec<String>,
    /// One URL of each class.
    pub urls: Vec<String>,
}

/// An alias and its original.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AliasSample {
    /// The alias kind.
    pub kind: String,
    /// Its level.
    pub equal_at: String,
    /// The alias.
    pub alias: String,
    /// Its original.
    pub original: String,
}

/// The results of one configuration.
#[derive(Clone, Debug, Serialize)]
pub struct ConfigReport {
    /// `string`, `syntax`, `scheme`, `rfc`, `fetch`, `crawler`, `aggressive`.
    pub config: String,
    /// Distinct keys.
    pub unique_keys: u64,
    /// Lines / distinct keys.
    pub reduction_ratio: f64,
    /// Aliases the configuration must merge.
    pub aliases_expected: u64,
    /// Of those, merged with their original.
    pub aliases_merged: u64,
    /// `aliases_merged / aliases_expected` (1 when none is expected).
    pub recall: f64,
    /// Aliases merged with their original although the configuration does
    /// not include their level (must be 0).
    pub unexpected_merges: u64,
    /// Groups of one key holding more than one true class.
    pub false_merge_groups: u64,
    /// Lines in those groups.
    pub false_merge_lines: u64,
    /// Of the groups, those that are a confuser merged with its own
    /// original by a rule of the configuration that treats the two as one
    /// on purpose (`remove-fragment` for `#`, `remove-empty-query` for `?`).
    pub false_merges_by_design: u64,
    /// Groups per kinds of the classes involved (confuser kinds, or
    /// `original` when only originals).
    pub false_merges_by_kind: BTreeMap<String, u64>,
    /// Lines whose key could not be computed (must be 0).
    pub key_errors: u64,
    /// Aliases whose class has no original line.
    pub orphans: u64,
    /// Recall per alias kind.
    pub cells: Vec<Cell>,
    /// First false merges not by design.
    pub false_merge_samples: Vec<FalseMerge>,
    /// First aliases not merged although expected.
    pub missed_samples: Vec<AliasSample>,
    /// First aliases merged although not expected.
    pub unexpected_samples: Vec<AliasSample>,
    /// Seconds to compute the keys and the groups.
    pub seconds: f64,
}

impl ConfigReport {
    /// The cell of a kind and level.
    pub fn cell(&self, kind: &str, equal_at: &str) -> Option<&Cell> {
        self.cells
            .iter()
            .find(|c| c.kind == kind && c.equal_at == equal_at)
    }

    /// False-merge groups that are not by design (must be 0 for the RFC
    /// rungs and `rfc`; for the others, what the unsafe rules cost).
    pub fn false_merges_not_by_design(&self) -> u64 {
        self.false_merge_groups - self.false_merges_by_design
    }
}

/// The quality report of a frontier.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Lines.
    pub lines: u64,
    /// True classes (distinct resources).
    pub classes: u64,
    /// Lines / classes: the reduction of a perfect deduplication.
    pub ideal_reduction: f64,
    /// Lines per kind.
    pub lines_per_kind: BTreeMap<String, u64>,
    /// One entry per configuration.
    pub configs: Vec<ConfigReport>,
    /// Seconds in all (keys of every configuration, on `threads` threads).
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
}

impl Report {
    /// The entry of a configuration.
    pub fn config(&self, name: &str) -> Option<&ConfigReport> {
        self.configs.iter().find(|c| c.config == name)
    }
}

/// Reads a frontier and reports on every configuration
/// ([`Configuration::ALL`]), on as many threads as the machine has.
pub fn quality<R: BufRead>(r: R) -> Result<Report, QualityError> {
    let f = Frontier::read(r)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    Ok(report(&f, &Configuration::ALL, threads))
}

/// Reports on `configs` for a frontier read with [`Frontier::read`].
pub fn report(f: &Frontier, configs: &[Configuration], threads: usize) -> Report {
    let t0 = Instant::now();
    let threads = threads.clamp(1, configs.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<ConfigReport>>> = Mutex::new(vec![None; configs.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = configs.get(i) else { break };
                let r = analyze(f, *c);
                if let Ok(mut v) = results.lock() {
                    v[i] = Some(r);
                }
            });
        }
    });
    let configs: Vec<ConfigReport> = results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect();
    let classes: BTreeSet<u64> = f.meta.iter().map(|m| m.class).collect();
    let mut lines_per_kind = BTreeMap::new();
    for m in &f.meta {
        *lines_per_kind.entry(m.kind.name().to_owned()).or_insert(0) += 1;
    }
    let lines = f.len() as u64;
    Report {
        lines,
        classes: classes.len() as u64,
        ideal_reduction: ratio(lines, classes.len() as u64),
        lines_per_kind,
        configs,
        seconds: t0.elapsed().as_secs_f64(),
        threads,
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// The class of the original a class was planted from (see
/// [`crate::generate::class_id`]).
fn family(class: u64) -> u64 {
    class >> 3
}

fn analyze(f: &Frontier, c: Configuration) -> ConfigReport {
    let t0 = Instant::now();
    let keyer = c.keyer();
    let n = f.len();
    let mut key_errors = 0;
    let keys: Vec<u128> = (0..n)
        .map(|i| match keyer.digest(f.url(i)) {
            Ok(k) => k.0,
            Err(_) => {
                key_errors += 1;
                u128::MAX - i as u128
            }
        })
        .collect();

    // The key of each class's own line (its original, or the confuser).
    let mut base: HashMap<u64, (u128, Kind, usize)> = HashMap::new();
    for (i, m) in f.meta.iter().enumerate() {
        if !m.kind.is_alias() {
            base.entry(m.class).or_insert((keys[i], m.kind, i));
        }
    }

    let mut cells: BTreeMap<(Kind, EqualAt), Cell> = BTreeMap::new();
    let (mut expected, mut merged_expected, mut unexpected, mut orphans) = (0, 0, 0, 0);
    let mut missed_samples = Vec::new();
    let mut unexpected_samples = Vec::new();
    for (i, m) in f.meta.iter().enumerate() {
        let Some(eq) = m.equal_at.filter(|_| m.kind.is_alias()) else {
            continue;
        };
        let Some(&(bkey, _, bline)) = base.get(&m.class) else {
            orphans += 1;
            continue;
        };
        let sat = c.satisfies(eq);
        let merged = keys[i] == bkey;
        let cell = cells.entry((m.kind, eq)).or_insert_with(|| Cell {
            kind: m.kind.name().to_owned(),
            equal_at: eq.name().to_owned(),
            expected: sat,
            total: 0,
            merged: 0,
        });
        cell.total += 1;
        cell.merged += u64::from(merged);
        let sample = || AliasSample {
            kind: m.kind.name().to_owned(),
            equal_at: eq.name().to_owned(),
            alias: f.url(i).to_owned(),
            original: f.url(bline).to_owned(),
        };
        if sat {
            expected += 1;
            if merged {
                merged_expected += 1;
            } else if missed_samples.len() < SAMPLES {
                missed_samples.push(sample());
            }
        } else if merged {
            unexpected += 1;
            if unexpected_samples.len() < SAMPLES {
                unexpected_samples.push(sample());
            }
        }
    }

    // Groups: lines sorted by (key, class).
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_unstable_by_key(|&i| (keys[i as usize], f.meta[i as usize].class));
    let mut unique = 0u64;
    let (mut fm_groups, mut fm_lines, mut fm_design) = (0u64, 0u64, 0u64);
    let mut by_kind: BTreeMap<String, u64> = BTreeMap::new();
    let mut fm_samples = Vec::new();
    let mut start = 0;
    while start < n {
        let k = keys[order[start] as usize];
        let mut end = start + 1;
        while end < n && keys[order[end] as usize] == k {
            end += 1;
        }
        unique += 1;
        let run = &order[start..end];
        // One line per class (the class's own line when it is there).
        let mut classes: Vec<(u64, usize)> = Vec::new();
        for &i in run {
            let cl = f.meta[i as usize].class;
            if classes.last().is_none_or(|l| l.0 != cl) {
                classes.push((cl, i as usize));
            }
        }
        if classes.len() > 1 {
            fm_groups += 1;
            fm_lines += run.len() as u64;
            let kind_of = |cl: u64, line: usize| base.get(&cl).map_or(f.meta[line].kind, |b| b.1);
            let kinds: BTreeSet<Kind> = classes.iter().map(|&(cl, l)| kind_of(cl, l)).collect();
            let confusers: Vec<&str> = kinds
                .iter()
                .filter(|k| k.is_confuser())
                .map(|k| k.name())
                .collect();
            let label = if confusers.is_empty() {
                "original".to_owned()
            } else {
                confusers.join("+")
            };
            *by_kind.entry(label).or_insert(0) += 1;
            let fam = family(classes[0].0);
            let by_design = classes.iter().all(|&(cl, l)| {
                family(cl) == fam && {
                    let k = kind_of(cl, l);
                    k == Kind::Original || k.merged_by_design().iter().any(|r| c.has_rule(*r))
                }
            });
            if by_design {
                fm_design += 1;
            } else if fm_samples.len() < SAMPLES {
                let shown = &classes[..classes.len().min(SAMPLES)];
                fm_samples.push(FalseMerge {
                    classes: shown.iter().map(|x| x.0).collect(),
                    kinds: shown
                        .iter()
                        .map(|&(cl, l)| kind_of(cl, l).name().to_owned())
                        .collect(),
                    urls: shown
                        .iter()
                        .map(|&(cl, l)| f.url(base.get(&cl).map_or(l, |b| b.2)).to_owned())
                        .collect(),
                });
            }
        }
        start = end;
    }
    let lines = n as u64;
    ConfigReport {
        config: c.name().to_owned(),
        unique_keys: unique,
        reduction_ratio: ratio(lines, unique),
        aliases_expected: expected,
        aliases_merged: merged_expected,
        recall: if expected == 0 {
            1.0
        } else {
            merged_expected as f64 / expected as f64
        },
        unexpected_merges: unexpected,
        false_merge_groups: fm_groups,
        false_merge_lines: fm_lines,
        false_merges_by_design: fm_design,
        false_merges_by_kind: by_kind,
        key_errors,
        orphans,
        cells: cells.into_values().collect(),
        false_merge_samples: fm_samples,
        missed_samples,
        unexpected_samples,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

impl Report {
    /// The report as text tables.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "frontier: {} lines, {} true classes (ideal reduction {:.3}); {:.1} s on {} thread(s)",
            self.lines, self.classes, self.ideal_reduction, self.seconds, self.threads
        );
        s.push('\n');
        let _ = writeln!(
            s,
            "{:<11} {:>10} {:>9} {:>8} {:>9} {:>10} {:>12} {:>11} {:>9} {:>7}",
            "config",
            "unique",
            "reduction",
            "recall",
            "missed",
            "unexpected",
            "false-merges",
            "fm-lines",
            "by-design",
            "time-s"
        );
        for c in &self.configs {
            let _ = writeln!(
                s,
                "{:<11} {:>10} {:>9.3} {:>7}% {:>9} {:>10} {:>12} {:>11} {:>9} {:>7.1}",
                c.config,
                c.unique_keys,
                c.reduction_ratio,
                pct_text(c.aliases_merged, c.aliases_expected),
                c.aliases_expected - c.aliases_merged,
                c.unexpected_merges,
                c.false_merge_groups,
                c.false_merge_lines,
                c.false_merges_by_design,
                c.seconds
            );
        }
        s.push('\n');
        s.push_str(
            "Merged with their original, per alias kind (% of the kind's lines; '-' = none merged and none expected;\n\
             '!x%' = merged although the configuration does not include the level):\n",
        );
        let _ = write!(s, "{:<18} {:<25} {:>7}", "kind", "equal_at", "lines");
        for c in &self.configs {
            let _ = write!(s, " {:>10}", c.config);
        }
        s.push('\n');
        let mut rows: Vec<(String, String, u64)> = Vec::new();
        for c in &self.configs {
            for cell in &c.cells {
                if !rows
                    .iter()
                    .any(|r| r.0 == cell.kind && r.1 == cell.equal_at)
                {
                    rows.push((cell.kind.clone(), cell.equal_at.clone(), cell.total));
                }
            }
        }
        rows.sort_by_key(|r| (r.0.parse::<Kind>().ok(), r.1.clone()));
        for (kind, eq, total) in rows {
            let _ = write!(s, "{kind:<18} {eq:<25} {total:>7}");
            for c in &self.configs {
                let cell = c.cell(&kind, &eq);
                let txt = match cell {
                    None => "".to_owned(),
                    Some(x) if x.expected => pct_text(x.merged, x.total),
                    Some(x) if x.merged == 0 => "-".to_owned(),
                    Some(x) => format!("!{}%", pct_text(x.merged, x.total)),
                };
                let _ = write!(s, " {txt:>10}");
            }
            s.push('\n');
        }
        let fm: Vec<_> = self
            .configs
            .iter()
            .filter(|c| !c.false_merges_by_kind.is_empty())
            .collect();
        if !fm.is_empty() {
            s.push_str("\nFalse merges by kinds involved:\n");
            for c in fm {
                let parts: Vec<String> = c
                    .false_merges_by_kind
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect();
                let _ = writeln!(s, "  {:<11} {}", c.config, parts.join(", "));
            }
        }
        for c in &self.configs {
            for fmg in &c.false_merge_samples {
                let _ = writeln!(
                    s,
                    "\n{}: false merge of classes {:?}:",
                    c.config, fmg.classes
                );
                for (k, u) in fmg.kinds.iter().zip(&fmg.urls) {
                    let _ = writeln!(s, "  {k:<20} {u}");
                }
            }
            for (what, list) in [
                ("missed", &c.missed_samples),
                ("unexpected merge", &c.unexpected_samples),
            ] {
                for a in list {
                    let _ = writeln!(
                        s,
                        "\n{}: {what} {} ({}):\n  alias    {}\n  original {}",
                        c.config, a.kind, a.equal_at, a.alias, a.original
                    );
                }
            }
            if c.key_errors > 0 || c.orphans > 0 {
                let _ = writeln!(
                    s,
                    "\n{}: {} key errors, {} aliases without their original",
                    c.config, c.key_errors, c.orphans
                );
            }
        }
        s
    }
}

/// `a / b` in percent, never rounded up to 100 or down to 0: `100`,
/// `99.98`, `0.02`, `0`.
fn pct_text(a: u64, b: u64) -> String {
    if a == b {
        return "100".into();
    }
    if a == 0 {
        return "0".into();
    }
    let v = (10_000.0 * a as f64 / b as f64).floor() / 100.0;
    if v <= 0.0 {
        "0.01".into()
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round 20: a line that is not UTF-8 is a format error with its line
    /// and the offset of the bad byte, not an io::Error without either.
    #[test]
    fn a_line_that_is_not_utf8_is_named() {
        let tsv = b"url\tclass\tkind\tequal_at\nhttp://a.example/\t1\toriginal\t-\nhttp://a.example/\xff\t2\toriginal\t-\n";
        match Frontier::read(&tsv[..]) {
            Err(QualityError::Format { line, what }) => {
                assert_eq!(line, 3);
                assert_eq!(what, "not UTF-8 at byte 72");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn counts_recall_and_false_merges() {
        // class 8: original + 3 aliases; class 9: its confuser `#`; class
        // 16: another original wrongly written like class 8's alias.
        let tsv = "url\tclass\tkind\tequal_at\n\
            http://a.example/x\t8\toriginal\t-\n\
            HTTP://a.example/x\t8\tscheme-case\tsyntax\n\
            http://a.example:80/x\t8\tdefault-port\tscheme\n\
            http://a.example/x#top\t8\tfragment\tremove-fragment\n\
            http://a.example/x#\t11\tconfuser-fragment\tnever\n\
            http://b.example/y\t16\toriginal\t-\n\
            http://b.example/y\t17\tconfuser-port\tnever\n";
        let f = Frontier::read(tsv.as_bytes()).unwrap();
        assert_eq!(f.len(), 7);
        let r = report(&f, &Configuration::ALL, 2);
        let get = |n: &str| r.config(n).unwrap();
        let string = get("string");
        assert_eq!(string.aliases_expected, 0);
        assert_eq!(string.unexpected_merges, 0);
        // The two lines labelled as different classes with one text.
        assert_eq!(string.false_merge_groups, 1);
        assert_eq!(string.false_merges_by_design, 0);
        assert_eq!(string.false_merge_samples[0].classes, vec![16, 17]);
        let syntax = get("syntax");
        assert_eq!(syntax.aliases_expected, 1);
        assert_eq!(syntax.aliases_merged, 1);
        assert_eq!(syntax.cell("default-port", "scheme").unwrap().merged, 0);
        let fetch = get("fetch");
        assert_eq!(fetch.aliases_expected, 3);
        assert_eq!(fetch.aliases_merged, 3);
        assert_eq!(fetch.false_merge_groups, 2);
        assert_eq!(fetch.false_merges_by_design, 1);
        assert_eq!(
            fetch.false_merges_by_kind.get("confuser-fragment"),
            Some(&1)
        );
        assert_eq!(get("aggressive").unique_keys, 2);
        assert!((r.ideal_reduction - 7.0 / 4.0).abs() < 1e-9);
        let text = r.to_text();
        assert!(text.contains("scheme-case"), "{text}");
    }

    #[test]
    fn format_errors() {
        assert!(Frontier::read("http://a/\t1\toriginal\n".as_bytes()).is_err());
        assert!(Frontier::read("http://a/\tx\toriginal\t-\n".as_bytes()).is_err());
        assert!(Frontier::read("http://a/\t1\tnope\t-\n".as_bytes()).is_err());
        assert!(Frontier::read("http://a/\t1\tconfuser-port\tsyntax\n".as_bytes()).is_err());
    }
}
