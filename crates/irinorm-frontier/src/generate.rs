//! Writing a frontier: originals in a seeded order, pass after pass, each
//! followed by its share of aliases and confusers, mixed by a bounded
//! shuffle window. Streaming: memory depends on the number of originals
//! and the window, never on the number of lines.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};

use irinorm::ladder::Key;
use serde::Serialize;

use crate::kind::Kind;
use crate::originals::{Originals, PASS_MARKER};
use crate::plant::{plant, Parts};
use crate::rng::Rng;

/// How to generate.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Lines to write (without the header).
    pub lines: u64,
    /// The seed: the same seed and options give the same bytes.
    pub seed: u64,
    /// Fraction of the lines that are aliases.
    pub dup_ratio: f64,
    /// Fraction of the lines that are confusers.
    pub confuser_ratio: f64,
    /// The alias and confuser kinds to plant.
    pub kinds: Vec<Kind>,
    /// Only the URL column, no header.
    pub urls_only: bool,
    /// Lines held by the shuffle window (1 writes in generation order).
    pub window: usize,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            lines: 100_000,
            seed: 1,
            dup_ratio: 0.3,
            confuser_ratio: 0.05,
            kinds: Kind::ALL[1..].to_vec(),
            urls_only: false,
            window: 1 << 16,
        }
    }
}

/// What was written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GenerateStats {
    /// Lines written (without the header).
    pub lines: u64,
    /// Original lines.
    pub originals: u64,
    /// Alias lines.
    pub aliases: u64,
    /// Confuser lines.
    pub confusers: u64,
    /// Passes over the originals started (a pass beyond the first marks
    /// its originals to keep them distinct).
    pub passes: u64,
    /// Distinct originals available.
    pub pool: u64,
    /// Lines per kind.
    pub per_kind: BTreeMap<String, u64>,
    /// Lines per `equal_at`.
    pub per_equal_at: BTreeMap<String, u64>,
    /// Confuser candidates not planted because their `aggressive` key (or
    /// their text) equals that of another original or confuser, which
    /// would make their class ambiguous.
    pub confusers_rejected: u64,
}

/// Why generation failed.
#[derive(Debug)]
pub enum GenerateError {
    /// Writing failed.
    Io(io::Error),
    /// Bad options.
    Options(String),
    /// The originals do not give the kinds asked for enough material.
    NoMaterial(String),
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::Io(e) => write!(f, "{e}"),
            GenerateError::Options(s) | GenerateError::NoMaterial(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<io::Error> for GenerateError {
    fn from(e: io::Error) -> Self {
        GenerateError::Io(e)
    }
}

/// The TSV header.
pub const HEADER: &str = "url\tclass\tkind\tequal_at";

/// Marks original `url` for pass `pass`: pass 0 is the original itself; odd
/// passes put a first path segment `irn-pass-N`, even ones a last query
/// parameter `irn-pass=N`. Both are injective and keep the URL normal, so
/// marked originals are distinct resources under every configuration.
pub fn mark(p: &mut Parts, pass: u64) {
    if pass == 0 {
        return;
    }
    if pass % 2 == 1 {
        p.path.insert_str(0, &format!("/{PASS_MARKER}-{pass}"));
    } else {
        let m = format!("{PASS_MARKER}={pass}");
        p.query = Some(match p.query.take() {
            None => m,
            Some(q) => format!("{q}&{m}"),
        });
    }
}

/// The class id of an original (`tag` 0) or of one of its confusers (`tag`
/// = 1 + the confuser kind's rank) in a pass.
pub fn class_id(pass: u64, pool: u64, idx: u64, tag: u64) -> u64 {
    (pass * pool + idx) * 8 + tag
}

struct Writer<'w, W: Write> {
    out: &'w mut W,
    window: Vec<String>,
    cap: usize,
    rng: Rng,
    urls_only: bool,
}

impl<W: Write> Writer<'_, W> {
    fn push(&mut self, url: &str, class: u64, kind: Kind, equal_at: &str) -> io::Result<()> {
        let line = if self.urls_only {
            format!("{url}\n")
        } else {
            format!("{url}\t{class}\t{kind}\t{equal_at}\n")
        };
        if self.cap <= 1 {
            return self.out.write_all(line.as_bytes());
        }
        self.window.push(line);
        if self.window.len() >= self.cap {
            let j = self.rng.below(self.window.len());
            let l = self.window.swap_remove(j);
            self.out.write_all(l.as_bytes())?;
        }
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        let mut rest = std::mem::take(&mut self.window);
        self.rng.shuffle(&mut rest);
        for l in rest {
            self.out.write_all(l.as_bytes())?;
        }
        self.out.flush()
    }
}

/// Confuser candidates per (original, kind): the same for every pass.
struct Confusers {
    seed: u64,
    cache: HashMap<(u32, Kind), Option<String>>,
    /// `aggressive` digest / string digest -> the original that owns it.
    aggressive: HashMap<u128, u32>,
    strings: HashMap<u128, u32>,
    rejected: u64,
}

impl Confusers {
    /// The confuser of `kind` built on the unmarked original `idx`, or
    /// `None` when the kind does not apply or the confuser is ambiguous.
    fn get(&mut self, o: &Originals, idx: u32, kind: Kind) -> Option<&str> {
        if !self.cache.contains_key(&(idx, kind)) {
            let v = self.build(o, idx, kind);
            self.cache.insert((idx, kind), v);
        }
        self.cache.get(&(idx, kind)).and_then(|v| v.as_deref())
    }

    fn build(&mut self, o: &Originals, idx: u32, kind: Kind) -> Option<String> {
        let p = Parts::split(o.url(idx as usize))?;
        let mut rng = Rng::derived(self.seed, 2 + u64::from(idx) * 64 + kind as u64);
        let c = plant(kind, &p, &mut rng)?.url;
        let s = Key::of(&c).0;
        let a = o.aggressive_digest(&c);
        let other = |m: &HashMap<u128, u32>, d: u128| m.get(&d).is_some_and(|&j| j != idx);
        let Some(a) = a else {
            self.rejected += 1;
            return None;
        };
        if other(&self.strings, s) || other(&self.aggressive, a) {
            self.rejected += 1;
            return None;
        }
        self.strings.insert(s, idx);
        self.aggressive.insert(a, idx);
        Some(c)
    }
}

/// Writes a frontier of `opts.lines` lines built on `originals` (TSV with
/// the header [`HEADER`], or URLs only).
pub fn generate<W: Write>(
    originals: &Originals,
    opts: &GenerateOptions,
    out: &mut W,
) -> Result<GenerateStats, GenerateError> {
    let bad = |s: String| Err(GenerateError::Options(s));
    for (name, r) in [
        ("dup-ratio", opts.dup_ratio),
        ("confuser-ratio", opts.confuser_ratio),
    ] {
        if !(0.0..1.0).contains(&r) {
            return bad(format!("{name} must be in [0, 1), not {r}"));
        }
    }
    if opts.dup_ratio + opts.confuser_ratio >= 1.0 {
        return bad("dup-ratio + confuser-ratio must be below 1".into());
    }
    if originals.is_empty() && opts.lines > 0 {
        return Err(GenerateError::NoMaterial("no original URL".into()));
    }
    let alias_kinds: Vec<Kind> = opts
        .kinds
        .iter()
        .copied()
        .filter(|k| k.is_alias())
        .collect();
    let conf_kinds: Vec<Kind> = opts
        .kinds
        .iter()
        .copied()
        .filter(|k| k.is_confuser())
        .collect();
    let n = opts.lines;
    let share = |r: f64, kinds: &[Kind]| {
        if kinds.is_empty() {
            0
        } else {
            (n as f64 * r).round() as u64
        }
    };
    let a_total = share(opts.dup_ratio, &alias_kinds);
    let c_total = share(opts.confuser_ratio, &conf_kinds).min(n - a_total);
    let o_total = n - a_total - c_total;
    if o_total == 0 && n > 0 {
        return bad("no line left for the originals: lower the ratios".into());
    }

    let pool = originals.len() as u64;
    let mut st = GenerateStats {
        pool,
        ..GenerateStats::default()
    };
    if !opts.urls_only {
        writeln!(out, "{HEADER}")?;
    }
    let mut w = Writer {
        out,
        window: Vec::with_capacity(opts.window.min(1 << 20)),
        cap: opts.window,
        rng: Rng::derived(opts.seed, 1),
        urls_only: opts.urls_only,
    };
    let mut rng = Rng::derived(opts.seed, 0);
    let mut conf = Confusers {
        seed: opts.seed,
        cache: HashMap::new(),
        aggressive: originals.aggressive.clone(),
        strings: originals.strings.clone(),
        rejected: 0,
    };
    let mut counts: HashMap<Kind, u64> = HashMap::new();
    let mut order: Vec<u32> = (0..pool as u32).collect();
    let mut pos = order.len();
    let mut pass = 0u64;
    let mut recent: Vec<(u64, u32)> = Vec::new();
    const RECENT: usize = 4096;
    let (mut o, mut a, mut c) = (0u64, 0u64, 0u64);

    // Plants one line of the given family for original `idx` of `pass`.
    let plant_one = |w: &mut Writer<'_, W>,
                     rng: &mut Rng,
                     counts: &mut HashMap<Kind, u64>,
                     conf: &mut Confusers,
                     st: &mut GenerateStats,
                     pass: u64,
                     idx: u32,
                     confuser: bool|
     -> io::Result<bool> {
        let kinds = if confuser { &conf_kinds } else { &alias_kinds };
        let rot = rng.below(kinds.len());
        let mut cands: Vec<(u64, usize, Kind)> = kinds
            .iter()
            .enumerate()
            .map(|(i, k)| {
                (
                    counts.get(k).copied().unwrap_or(0),
                    (i + rot) % kinds.len(),
                    *k,
                )
            })
            .collect();
        cands.sort_unstable();
        let Some(mut marked) = Parts::split(originals.url(idx as usize)) else {
            return Ok(false);
        };
        mark(&mut marked, pass);
        for (_, _, kind) in cands {
            let (url, class, eq) = if confuser {
                // Applies to the marked original, built on the unmarked one
                // (the same confuser in every pass), then marked.
                if plant(kind, &marked, &mut rng.clone()).is_none() {
                    continue;
                }
                let Some(base) = conf.get(originals, idx, kind) else {
                    continue;
                };
                let Some(mut p) = Parts::split(base) else {
                    continue;
                };
                mark(&mut p, pass);
                let tag = 1 + Kind::confusers().position(|k| k == kind).unwrap_or(0) as u64;
                (
                    p.to_url(),
                    class_id(pass, pool, u64::from(idx), tag),
                    "never",
                )
            } else {
                let Some(pl) = plant(kind, &marked, rng) else {
                    continue;
                };
                (
                    pl.url,
                    class_id(pass, pool, u64::from(idx), 0),
                    pl.equal_at.name(),
                )
            };
            w.push(&url, class, kind, eq)?;
            *counts.entry(kind).or_insert(0) += 1;
            *st.per_kind.entry(kind.name().to_owned()).or_insert(0) += 1;
            *st.per_equal_at.entry(eq.to_owned()).or_insert(0) += 1;
            return Ok(true);
        }
        Ok(false)
    };

    while o < o_total {
        if pos == order.len() {
            if o > 0 {
                pass += 1;
            }
            rng.shuffle(&mut order);
            pos = 0;
            st.passes = pass + 1;
        }
        let idx = order[pos];
        pos += 1;
        let mut p = Parts::split(originals.url(idx as usize))
            .ok_or_else(|| GenerateError::NoMaterial("unsplittable original".into()))?;
        mark(&mut p, pass);
        w.push(
            &p.to_url(),
            class_id(pass, pool, u64::from(idx), 0),
            Kind::Original,
            "-",
        )?;
        o += 1;
        if recent.len() < RECENT {
            recent.push((pass, idx));
        } else {
            recent[(o as usize) % RECENT] = (pass, idx);
        }
        let due_a = (u128::from(a_total) * u128::from(o) / u128::from(o_total)) as u64;
        while a < due_a {
            if !plant_one(
                &mut w,
                &mut rng,
                &mut counts,
                &mut conf,
                &mut st,
                pass,
                idx,
                false,
            )? {
                break;
            }
            a += 1;
        }
        let due_c = (u128::from(c_total) * u128::from(o) / u128::from(o_total)) as u64;
        while c < due_c {
            if !plant_one(
                &mut w,
                &mut rng,
                &mut counts,
                &mut conf,
                &mut st,
                pass,
                idx,
                true,
            )? {
                break;
            }
            c += 1;
        }
    }
    // Debts left by originals no kind applied to: the most recent originals
    // take them.
    for confuser in [false, true] {
        let (done, total) = if confuser {
            (&mut c, c_total)
        } else {
            (&mut a, a_total)
        };
        let mut stuck = 0;
        let mut i = 0;
        while *done < total {
            if recent.is_empty() || stuck > recent.len() {
                let kinds: Vec<&str> = opts
                    .kinds
                    .iter()
                    .filter(|k| k.is_confuser() == confuser)
                    .map(|k| k.name())
                    .collect();
                return Err(GenerateError::NoMaterial(format!(
                    "the originals give no material for {}",
                    kinds.join(", ")
                )));
            }
            let (ps, idx) = recent[i % recent.len()];
            i += 1;
            if plant_one(
                &mut w,
                &mut rng,
                &mut counts,
                &mut conf,
                &mut st,
                ps,
                idx,
                confuser,
            )? {
                *done += 1;
                stuck = 0;
            } else {
                stuck += 1;
            }
        }
    }
    w.finish()?;
    st.lines = o + a + c;
    st.originals = o;
    st.aliases = a;
    st.confusers = c;
    st.confusers_rejected = conf.rejected;
    st.per_kind.insert("original".into(), o);
    Ok(st)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Originals {
        Originals::from_lines([
            "https://www.example.com/a/b/c?x=1&y=2",
            "http://example.org/",
            "https://xn--bcher-kva.example/%C3%A9t%C3%A9/%7Efoo",
            "http://shop.example.net:8080/p/index.html?id=7",
            "https://www.example.co.uk/News/Today",
        ])
    }

    #[test]
    fn exact_line_count_and_header() {
        let o = small();
        for lines in [0u64, 1, 7, 100, 1000] {
            let mut buf = Vec::new();
            let opts = GenerateOptions {
                lines,
                window: 16,
                ..GenerateOptions::default()
            };
            let st = generate(&o, &opts, &mut buf).unwrap();
            let text = String::from_utf8(buf).unwrap();
            assert_eq!(text.lines().count() as u64, lines + 1);
            assert_eq!(text.lines().next(), Some(HEADER));
            assert_eq!(st.lines, lines);
            assert_eq!(st.originals + st.aliases + st.confusers, lines);
        }
    }

    #[test]
    fn marks_are_distinct_and_normal() {
        let mut p = Parts::split("http://a/?q").unwrap();
        mark(&mut p, 1);
        assert_eq!(p.to_url(), "http://a/irn-pass-1/?q");
        let mut p = Parts::split("http://a/?q").unwrap();
        mark(&mut p, 2);
        assert_eq!(p.to_url(), "http://a/?q&irn-pass=2");
        let mut p = Parts::split("http://a/").unwrap();
        mark(&mut p, 4);
        assert_eq!(p.to_url(), "http://a/?irn-pass=4");
    }

    #[test]
    fn ambiguous_confusers_are_not_planted() {
        // The www1 confuser of the first is the second original: planting
        // it would give one URL two classes.
        let o = Originals::from_lines([
            "https://www.a.example/x",
            "https://www1.a.example/x",
            "https://www.b.example/y",
        ]);
        let opts = GenerateOptions {
            lines: 300,
            kinds: vec![Kind::ConfuserWww1],
            confuser_ratio: 0.2,
            ..GenerateOptions::default()
        };
        let mut out = Vec::new();
        let st = generate(&o, &opts, &mut out).unwrap();
        assert_eq!(st.confusers_rejected, 1);
        assert_eq!(st.confusers, 60);
        let text = String::from_utf8(out).unwrap();
        let www1_a: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("https://www1.a.example/x\t"))
            .collect();
        assert!(www1_a.iter().all(|l| l.ends_with("\toriginal\t-")));
        let r = crate::quality(text.as_bytes()).unwrap();
        assert_eq!(r.config("string").unwrap().false_merge_groups, 0);
    }

    #[test]
    fn ratio_validation() {
        let o = small();
        let opts = GenerateOptions {
            dup_ratio: 0.7,
            confuser_ratio: 0.3,
            ..GenerateOptions::default()
        };
        assert!(generate(&o, &opts, &mut Vec::new()).is_err());
        let opts = GenerateOptions {
            kinds: vec![Kind::EmptyPort],
            lines: 50,
            ..GenerateOptions::default()
        };
        let st = generate(&o, &opts, &mut Vec::new()).unwrap();
        assert_eq!(st.confusers, 0);
        assert_eq!(st.per_kind.get("empty-port"), Some(&15));
    }
}
