//! What applying learned rules must cost at least, on the crawl of
//! `learned_cost` (issue 11, round 15: the floor). The rules are learned
//! from epoch 0 of the simulated crawl; for each URL of epoch 1 the
//! output of `crawler` and of `crawler` with the rules are computed
//! outside the counted loops, and the loops do only what any application
//! of the rules has to do on top of `crawler`:
//!
//! - `learned_floor lookup`: find the URL's host among the rules' hosts
//!   (a multiply-rotate hash of the host's words, one probe of an open
//!   addressing table, one compare of the bytes); the host's offsets are
//!   given (the ladder's `Meta` hands them over for free);
//! - `learned_floor copy`: write `crawler`'s output into the buffer (what
//!   `crawler` itself ends with: the base the edits are measured from);
//! - `learned_floor edit`: the same, then the rules' edit made directly:
//!   one `replace_range` of the span where the two outputs differ by the
//!   known new bytes (precomputed), for the URLs the rules change;
//! - `learned_floor all`: `edit` with the host looked up in the buffer
//!   just written (the floor's whole loop, to compare with `copy`);
//! - `learned_floor none`: the loop alone (what to subtract from `lookup`);
//! - `learned_floor stats`: how many URLs the rules change, and how;
//! - `learned_floor shapes`: the hosts' plan shapes (their rules' kinds),
//!   with the hosts and the crawl's URLs of each (round 16);
//! - `learned_floor time ROUNDS`: `crawler` and `crawler` + rules by
//!   `normalize_text_into`, and the floor's loops, timed in interleaved
//!   rounds (thread CPU time, the median per URL).
//!
//! Each counted loop is a function whose name holds `run_loop`
//! (`valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect='*run_loop*'`). BENCHMARKS.md ("Issue 11, round 15")
//! has the figures.

use irinorm::ladder::{Normalizer, Options};
use irinorm_learn::{learn, sim};
use irinorm_rules::{Config, Pipeline, Preset};
use std::hint::black_box;

/// One URL of the crawl, prepared outside the counted loops.
struct Item {
    /// `crawler`'s output.
    crawler: String,
    /// The host's offsets in it.
    host: (usize, usize),
    /// The span of `crawler` the rules replace, and its new bytes (`None`:
    /// the rules leave the URL as `crawler` wrote it).
    edit: Option<(usize, usize, String)>,
}

/// The rules' hosts: open addressing on [`hash`], at most half full.
struct Table {
    slots: Vec<(u64, u32)>,
    names: Vec<Vec<u8>>,
}

#[inline(always)]
fn word(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"))
}

/// The last 8 bytes of `h` (overlapping), or all of it zero-padded.
#[inline(always)]
fn last(h: &[u8]) -> u64 {
    let n = h.len();
    if n >= 8 {
        word(h, n - 8)
    } else {
        h.iter()
            .enumerate()
            .fold(0, |w, (i, &x)| w | u64::from(x) << (8 * i))
    }
}

/// FxHash's multiply-rotate over the whole words and the last word.
#[inline(always)]
fn hash(h: &[u8]) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let mix = |x: u64, w: u64| (x ^ w).wrapping_mul(K).rotate_left(26);
    let mut x = h.len() as u64;
    let mut i = 0;
    while i + 8 < h.len() {
        x = mix(x, word(h, i));
        i += 8;
    }
    mix(x, last(h)).wrapping_mul(K)
}

#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i + 8 < a.len() {
        if word(a, i) != word(b, i) {
            return false;
        }
        i += 8;
    }
    last(a) == last(b)
}

impl Table {
    fn new(hosts: &[&str]) -> Table {
        let cap = (hosts.len() * 2).next_power_of_two().max(8);
        let mut slots = vec![(0, u32::MAX); cap];
        for (i, h) in hosts.iter().enumerate() {
            let x = hash(h.as_bytes());
            let mut k = (x >> 20) as usize & (cap - 1);
            while slots[k].1 != u32::MAX {
                k = (k + 1) & (cap - 1);
            }
            slots[k] = (x, i as u32);
        }
        Table {
            slots,
            names: hosts.iter().map(|h| h.as_bytes().to_vec()).collect(),
        }
    }

    #[inline(always)]
    fn get(&self, host: &[u8]) -> Option<u32> {
        let x = hash(host);
        let mask = self.slots.len() - 1;
        let mut k = (x >> 20) as usize & mask;
        loop {
            let (h, p) = self.slots[k];
            if p == u32::MAX {
                return None;
            }
            if h == x && same(&self.names[p as usize], host) {
                return Some(p);
            }
            k = (k + 1) & mask;
        }
    }
}

#[inline(never)]
fn floor_run_loop_none(items: &[Item]) -> usize {
    let mut n = 0;
    for it in items {
        let it = black_box(it);
        n += it.crawler.as_bytes()[it.host.0..it.host.1].len();
    }
    n
}

#[inline(never)]
fn floor_run_loop_lookup(items: &[Item], t: &Table) -> usize {
    let mut n = 0;
    for it in items {
        let it = black_box(it);
        let h = &it.crawler.as_bytes()[it.host.0..it.host.1];
        n += h.len() + t.get(h).map_or(0, |p| p as usize);
    }
    n
}

#[inline(never)]
fn floor_run_loop_copy(items: &[Item]) -> usize {
    let mut out = String::new();
    let mut n = 0;
    for it in items {
        let it = black_box(it);
        out.clear();
        out.push_str(&it.crawler);
        n += out.len();
    }
    n
}

#[inline(never)]
fn floor_run_loop_edit(items: &[Item]) -> usize {
    let mut out = String::new();
    let mut n = 0;
    for it in items {
        let it = black_box(it);
        out.clear();
        out.push_str(&it.crawler);
        if let Some((a, b, with)) = &it.edit {
            out.replace_range(a..b, with);
        }
        n += out.len();
    }
    n
}

/// [`floor_run_loop_edit`] with the host looked up in the buffer just
/// written (hot, as the ladder's output is): the floor's whole loop.
#[inline(never)]
fn floor_run_loop_all(items: &[Item], t: &Table) -> usize {
    let mut out = String::new();
    let mut n = 0;
    for it in items {
        let it = black_box(it);
        out.clear();
        out.push_str(&it.crawler);
        let p = t.get(&out.as_bytes()[it.host.0..it.host.1]);
        if let (Some(_), Some((a, b, with))) = (p, &it.edit) {
            out.replace_range(a..b, with);
        }
        n += out.len() + p.map_or(0, |p| p as usize);
    }
    n
}

/// The host's offsets in an absolute URL with an authority.
fn host_of(u: &str) -> (usize, usize) {
    let a = u.find("://").expect("an authority") + 3;
    let rest = &u[a..];
    let a = a + rest.find('@').map_or(0, |i| i + 1);
    let b = a + u[a..].find([':', '/', '?', '#']).unwrap_or(u.len() - a);
    (a, b)
}

/// The one span where `a` and `b` differ, and its bytes in `b`.
fn diff(a: &str, b: &str) -> Option<(usize, usize, String)> {
    if a == b {
        return None;
    }
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let mut p = x.iter().zip(y).take_while(|(u, v)| u == v).count();
    while !a.is_char_boundary(p) || !b.is_char_boundary(p) {
        p -= 1;
    }
    let room = x.len().min(y.len()) - p;
    let mut s = x
        .iter()
        .rev()
        .zip(y.iter().rev())
        .take(room)
        .take_while(|(u, v)| u == v)
        .count();
    while !a.is_char_boundary(x.len() - s) || !b.is_char_boundary(y.len() - s) {
        s -= 1;
    }
    Some((p, x.len() - s, b[p..y.len() - s].to_owned()))
}

fn normalize(p: &Pipeline, u: &str) -> Option<String> {
    let mut out = String::new();
    p.normalize_text_into(u, &mut out, &mut Vec::new())
        .ok()
        .map(|_| out)
}

/// Thread CPU time in ns.
fn cpu_ns() -> u128 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as u128 * 1_000_000_000 + t.tv_nsec as u128
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("stats", String::as_str);
    let train = sim::crawl(1, 200, 60, 0);
    let rules = learn(train.iter().map(|s| s.row.clone()), &Default::default()).rules;
    let urls: Vec<String> = sim::crawl(1, 200, 60, 1)
        .into_iter()
        .map(|s| s.row.url)
        .collect();
    let crawler = Pipeline::preset(Preset::Crawler);
    let learned = Pipeline::new(
        Normalizer::new(Options::new(Preset::Crawler.rung(), Default::default())),
        Preset::Crawler.rule_set(),
        Config {
            host_rules: rules.clone(),
            ..Config::default()
        },
    );
    let items: Vec<Item> = urls
        .iter()
        .filter_map(|u| {
            let c = normalize(&crawler, u)?;
            let l = normalize(&learned, u)?;
            Some(Item {
                host: host_of(&c),
                edit: diff(&c, &l),
                crawler: c,
            })
        })
        .collect();
    let mut hosts: Vec<&str> = rules.iter().map(|r| r.host.as_str()).collect();
    hosts.sort_unstable();
    hosts.dedup();
    let table = Table::new(&hosts);
    let n = match mode {
        "none" => floor_run_loop_none(&items),
        "lookup" => floor_run_loop_lookup(&items, &table),
        "copy" => floor_run_loop_copy(&items),
        "edit" => floor_run_loop_edit(&items),
        "all" => floor_run_loop_all(&items, &table),
        "shapes" => {
            // Each host's plan shape: its rules' kinds in the plans' order,
            // a kind that comes more than once with its count; the hosts
            // and the crawl's URLs of each shape (issue 11, round 16: the
            // shapes a per-host program or dedicated code would serve).
            let mut by_host: std::collections::BTreeMap<&str, Vec<usize>> = Default::default();
            for r in &rules {
                by_host
                    .entry(r.host.as_str())
                    .or_default()
                    .push(r.kind.rank());
            }
            let mut urls_of: std::collections::HashMap<&[u8], usize> = Default::default();
            for i in &items {
                *urls_of
                    .entry(&i.crawler.as_bytes()[i.host.0..i.host.1])
                    .or_default() += 1;
            }
            let mut shapes: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
            for (h, mut ranks) in by_host {
                ranks.sort_unstable();
                let mut parts = Vec::new();
                for (k, name) in irinorm_rules::HostRuleKind::ORDER.iter().enumerate() {
                    match ranks.iter().filter(|&&r| r == k).count() {
                        0 => {}
                        1 => parts.push((*name).to_owned()),
                        c => parts.push(format!("{name} x{c}")),
                    }
                }
                let e = shapes.entry(parts.join(", ")).or_default();
                e.0 += 1;
                e.1 += urls_of.get(h.as_bytes()).copied().unwrap_or(0);
            }
            let mut v: Vec<_> = shapes.into_iter().collect();
            v.sort_by_key(|(_, (h, u))| std::cmp::Reverse((*u, *h)));
            println!("| shape | hosts | URLs |\n|---|---:|---:|");
            for (shape, (h, u)) in v {
                println!("| {shape} | {h} | {u} |");
            }
            0
        }
        "stats" => {
            let changed = items.iter().filter(|i| i.edit.is_some()).count();
            let found = items
                .iter()
                .filter(|i| {
                    table
                        .get(&i.crawler.as_bytes()[i.host.0..i.host.1])
                        .is_some()
                })
                .count();
            let moved: usize = items
                .iter()
                .filter_map(|i| i.edit.as_ref().map(|(_, b, _)| i.crawler.len() - b))
                .sum();
            println!(
                "{} URLs ({} parsed), {} hosts with rules, {} rules; {} URLs changed \
                 ({:.1}%), {} with a host among the rules' hosts; the tails moved by the \
                 edits: {:.1} bytes per changed URL",
                urls.len(),
                items.len(),
                hosts.len(),
                rules.len(),
                changed,
                100.0 * changed as f64 / items.len() as f64,
                found,
                moved as f64 / changed.max(1) as f64
            );
            0
        }
        "time" => {
            let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(9);
            let names = [
                "crawler", "learned", "copy", "edit", "lookup", "none", "all",
            ];
            let mut t: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
            let per = |f: &dyn Fn() -> usize| {
                let s = cpu_ns();
                black_box(f());
                (cpu_ns() - s) as f64 / items.len() as f64
            };
            for _ in 0..rounds {
                t[0].push(per(&|| irinorm_bench::run_loop_text(&crawler, &urls, 1)));
                t[1].push(per(&|| irinorm_bench::run_loop_text(&learned, &urls, 1)));
                t[2].push(per(&|| floor_run_loop_copy(&items)));
                t[3].push(per(&|| floor_run_loop_edit(&items)));
                t[4].push(per(&|| floor_run_loop_lookup(&items, &table)));
                t[5].push(per(&|| floor_run_loop_none(&items)));
                t[6].push(per(&|| floor_run_loop_all(&items, &table)));
            }
            for (name, mut v) in names.iter().zip(t) {
                v.sort_by(f64::total_cmp);
                println!(
                    "{name}: median {:.2} ns per URL (min {:.2}, max {:.2})",
                    v[v.len() / 2],
                    v[0],
                    v[v.len() - 1]
                );
            }
            0
        }
        other => {
            panic!("mode {other:?}: lookup, copy, edit, all, none, stats, shapes or time ROUNDS")
        }
    };
    eprintln!("{mode}: {} URLs, {n}", items.len());
}
