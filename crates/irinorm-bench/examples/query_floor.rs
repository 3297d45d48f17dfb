//! How cheap removing the default tracking parameters from a query can be
//! at all (issue 14, round 15: the floor), against what `rfc` costs on the
//! same URLs. The URLs of a data set are first put in their `rfc` normal
//! form (outside what is counted); then, on each normal query:
//!
//! - `amps`: the `&` of the whole query as 64-bit masks, one vector pass
//!   (`irinorm_simd::eq_mask64_padded` on the 64 bytes that end the query
//!   for the last block, as the library's filter does), counted;
//! - `judge`: the same, and every parameter's name judged by the
//!   library's perfect-hash judge (copied here: the key bits of the
//!   default list, one bucket per pattern, one masked compare);
//! - `copy`: the same, and the kept parameters copied forward into a
//!   scratch buffer (the filtered query), one by one;
//! - `starts`: the `&` masks and the parameters' starts noted as the
//!   library notes them (four unconditional writes per block);
//! - `judge2`: `starts`, then the judges in a loop of known count;
//! - `copy2`: `judge2`, every parameter copied as 64 fixed bytes and the
//!   write position advanced by its length when it is kept (no branch on
//!   the verdict); `copy2b`: the result then put into a `String` through
//!   `str::from_utf8`;
//! - `rfc`, `crawler`: the pipelines on the raw URLs, as `preset_cost`.
//!
//! Each filter runs after `rfc` on the same URL, on its output (in cache,
//! as the library's filter meets it).
//!
//! `query_floor MODE [SET] [REPS]` runs one of them in a function whose
//! name holds `run_loop` (callgrind: `--toggle-collect='*run_loop*'`);
//! `query_floor check [SET]` checks that `copy`'s and `copy2`'s queries
//! are `crawler`'s on every URL; `query_floor time [SET] [REPS]` times them all,
//! interleaved, by thread CPU time (median ns per URL, and per `rfc`).
//! BENCHMARKS.md, "Issue 14, round 15: `crawler` on query-heavy, the
//! floor", has the figures.

use std::hint::black_box;

use irinorm_rules::{Pipeline, Preset};
use rustix::time::{clock_gettime, ClockId};

/// Bit 5 of each byte: the ASCII case fold.
const FOLD: u64 = 0x2020_2020_2020_2020;

/// The first `k` bytes of a word.
const MASKS: [u64; 9] = [
    0,
    0xff,
    0xffff,
    0xff_ffff,
    0xffff_ffff,
    0xff_ffff_ffff,
    0xffff_ffff_ffff,
    0xff_ffff_ffff_ffff,
    u64::MAX,
];

/// The bytes that end a name: `=`, `&`, `#`, and the zero past the query.
static ENDS_NAME: [bool; 256] = {
    let mut t = [false; 256];
    t[0] = true;
    t[b'=' as usize] = true;
    t[b'&' as usize] = true;
    t[b'#' as usize] = true;
    t
};

#[derive(Clone, Copy)]
struct Slot {
    k0: u64,
    m0: u64,
    k1: u64,
    m1: u64,
    len: u8,
    prefix: bool,
}

/// The library's judge for the default list (`query_filter::QueryFilter`,
/// its key bits as its unit test gives them: the first three bytes, bit 1
/// of the fourth, bit 2 of the fifth), 1,024 buckets.
struct Judge {
    index: Box<[u8; 1024]>,
    slots: Box<[Slot; 64]>,
    key: u64,
    mul: u64,
}

fn words(b: &[u8]) -> (u64, u64) {
    let mut w = [0u8; 16];
    w[..b.len()].copy_from_slice(b);
    let w0 = u64::from_le_bytes(w[..8].try_into().expect("8"));
    let w1 = u64::from_le_bytes(w[8..].try_into().expect("8"));
    (
        (w0 | FOLD) & MASKS[b.len().min(8)],
        (w1 | FOLD) & MASKS[b.len().saturating_sub(8)],
    )
}

impl Judge {
    fn new(patterns: &[&str]) -> Judge {
        let key = MASKS[3] | 1 << 25 | 1 << 34;
        let mut slots = vec![Slot {
            k0: 1,
            m0: 0,
            k1: 0,
            m1: 0,
            len: 0,
            prefix: true,
        }];
        // Each pattern's hashed words: its fixed bytes, the key bits past
        // them at every value they can take (the byte after an exact name
        // is `=`, `&`, `#` or zero; any other byte is free but bit 5).
        let mut places: Vec<(u64, u8)> = Vec::new();
        for p in patterns {
            let (body, prefix) = match p.strip_suffix('*') {
                Some(b) => (b, true),
                None => (*p, false),
            };
            let (k0, k1) = words(body.as_bytes());
            let len = body.len();
            slots.push(Slot {
                k0,
                m0: MASKS[len.min(8)],
                k1,
                m1: MASKS[len.saturating_sub(8)],
                len: len as u8,
                prefix,
            });
            let id = (slots.len() - 1) as u8;
            let mut ws = vec![k0 & key & MASKS[len.min(8)]];
            let mut extra = key & !MASKS[len.min(8)];
            while extra != 0 {
                let bit = extra & extra.wrapping_neg();
                extra &= extra - 1;
                let byte = bit.trailing_zeros() as usize / 8;
                let values: Vec<bool> = if !prefix && byte == len {
                    [b'=', b'&', b'#', 0]
                        .iter()
                        .map(|&e| u64::from(e | 0x20) << (8 * byte) & bit != 0)
                        .collect()
                } else if bit & FOLD != 0 {
                    vec![true]
                } else {
                    vec![false, true]
                };
                let mut next = Vec::new();
                for &w in &ws {
                    for &v in &values {
                        let x = if v { w | bit } else { w };
                        if !next.contains(&x) {
                            next.push(x);
                        }
                    }
                }
                ws = next;
            }
            places.extend(ws.into_iter().map(|w| (w, id)));
        }
        let mut seed = 0x5eed_u64;
        loop {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            let mul = (z ^ (z >> 31)) | 1;
            let mut index = Box::new([0u8; 1024]);
            let ok = places.iter().all(|&(x, id)| {
                let o = &mut index[(x.wrapping_mul(mul) >> 54) as usize];
                let free = *o == 0 || *o == id;
                *o = id;
                free
            });
            if ok {
                let mut table = Box::new([slots[0]; 64]);
                table[..slots.len()].copy_from_slice(&slots);
                return Judge {
                    index,
                    slots: table,
                    key,
                    mul,
                };
            }
        }
    }

    /// Whether the name whose 17 bytes are `w` (zeros past the query) goes.
    #[inline(always)]
    fn goes(&self, w: &[u8; 17]) -> bool {
        let f0 = u64::from_le_bytes(w[..8].try_into().expect("8")) | FOLD;
        let f1 = u64::from_le_bytes(w[8..16].try_into().expect("8")) | FOLD;
        let h = ((f0 & self.key).wrapping_mul(self.mul) >> 54) as usize;
        let s = &self.slots[usize::from(self.index[h & 1023]) & 63];
        (f0 & s.m0 == s.k0)
            & (f1 & s.m1 == s.k1)
            & (s.prefix | ENDS_NAME[usize::from(w[usize::from(s.len).min(16)])])
    }

    /// The name at `at` of the query `s[qs..qe]`: straight from `s` when 17
    /// bytes are there (a fragment's `#` ends the name), else copied into
    /// a zeroed window.
    #[inline(always)]
    fn goes_at(&self, s: &[u8], qs: usize, qe: usize, at: usize) -> bool {
        match s.get(qs + at..qs + at + 17) {
            Some(w) => self.goes(w.try_into().expect("17")),
            None => {
                let mut w = [0u8; 17];
                let r = &s[qs + at..qe];
                w[..r.len()].copy_from_slice(r);
                self.goes(&w)
            }
        }
    }
}

/// The `&` of the query `s[qs..qe]` in the 64 bytes from its byte `base`
/// (the library's `amps`: a full block is four compares; the last one the
/// 64 bytes that end the query, shifted down).
#[inline(always)]
fn amps(s: &[u8], qs: usize, qe: usize, base: usize) -> u64 {
    let len = qe - qs;
    if qe >= 64 {
        let w = (qs + base).min(qe - 64);
        irinorm_simd::eq_mask64_padded(s, w, b'&') >> (qs + base - w)
    } else {
        irinorm_simd::eq_mask64(s, qs + base, b'&')
            & (u64::MAX >> 64usize.saturating_sub(len - base))
    }
}

/// One URL's query in its `rfc` normal form: its offsets (after the `?`).
struct Normal {
    q: Option<(usize, usize)>,
}

/// `rfc` on each URL, then `then` on its output (in cache, as the
/// library's filter meets it) with the query's offsets noted beforehand
/// (the ladder's `Meta` gives them for nothing).
#[inline(always)]
fn after_rfc(
    rfc: &Pipeline,
    urls: &[String],
    normal: &[Normal],
    reps: usize,
    mut then: impl FnMut(&[u8], usize, usize) -> usize,
) -> usize {
    let mut out = String::new();
    let mut applied = Vec::new();
    let mut n = 0usize;
    for _ in 0..reps {
        for (u, q) in urls.iter().zip(normal) {
            out.clear();
            if rfc
                .normalize_into(black_box(u), &mut out, &mut applied)
                .is_ok()
            {
                n += out.len();
                if let Some((qs, qe)) = q.q {
                    n = n.wrapping_add(then(out.as_bytes(), qs, qe));
                }
            }
        }
    }
    n
}

#[inline(never)]
fn run_loop_amps(rfc: &Pipeline, urls: &[String], normal: &[Normal], reps: usize) -> usize {
    after_rfc(rfc, urls, normal, reps, |s, qs, qe| {
        let mut n = 0usize;
        let mut base = 0;
        while base < qe - qs {
            n = n.wrapping_add(amps(s, qs, qe, base) as usize);
            base += 64;
        }
        n
    })
}

#[inline(never)]
fn run_loop_judge(
    j: &Judge,
    rfc: &Pipeline,
    urls: &[String],
    normal: &[Normal],
    reps: usize,
) -> usize {
    after_rfc(rfc, urls, normal, reps, |s, qs, qe| {
        let mut n = usize::from(j.goes_at(s, qs, qe, 0));
        let mut base = 0;
        while base < qe - qs {
            let mut m = amps(s, qs, qe, base);
            while m != 0 {
                let at = base + m.trailing_zeros() as usize + 1;
                n += usize::from(j.goes_at(s, qs, qe, at));
                m &= m - 1;
            }
            base += 64;
        }
        n
    })
}

/// The starts of the parameters of the query `s[qs..qe]` into `starts`
/// (the library's way: four unconditional writes per block, so that the
/// loop over a block's `&` has no data-dependent exit but past four);
/// their count, or `None` past 63.
#[inline(always)]
fn starts_of(s: &[u8], qs: usize, qe: usize, starts: &mut [u16; 72]) -> Option<usize> {
    let len = qe - qs;
    starts[0] = 0;
    let mut n = 0usize;
    let mut base = 0;
    loop {
        let mut m = amps(s, qs, qe, base);
        let at = (base as u16).wrapping_add(1);
        let dst: &mut [u16; 4] = (&mut starts[n + 1..n + 5]).try_into().expect("4");
        for d in dst {
            let tz = core::num::NonZeroU64::new(m | 1 << 63)
                .map_or(63, core::num::NonZeroU64::trailing_zeros);
            *d = at.wrapping_add(tz as u16);
            n += usize::from(m != 0);
            m &= m.wrapping_sub(1);
        }
        while m != 0 {
            starts[(n + 1) & 63] = at.wrapping_add(m.trailing_zeros() as u16);
            n += 1;
            m &= m - 1;
        }
        if n >= 63 {
            return None;
        }
        base += 64;
        if base >= len {
            break;
        }
    }
    starts[n + 1] = len as u16 + 1;
    Some(n + 1)
}

/// [`run_loop_judge`] by [`starts_of`], then the judges in a loop of a
/// known count (one exit per query), the verdicts as bits.
#[inline(never)]
fn run_loop_judge2(
    j: &Judge,
    rfc: &Pipeline,
    urls: &[String],
    normal: &[Normal],
    reps: usize,
) -> usize {
    let mut starts = [0u16; 72];
    after_rfc(rfc, urls, normal, reps, |s, qs, qe| {
        let Some(count) = starts_of(s, qs, qe, &mut starts) else {
            return 0;
        };
        let mut gone = 0u64;
        for (i, &at) in starts[..count].iter().enumerate() {
            gone |= u64::from(j.goes_at(s, qs, qe, usize::from(at))) << i;
        }
        gone as usize
    })
}

/// [`starts_of`] alone.
#[inline(never)]
fn run_loop_starts(rfc: &Pipeline, urls: &[String], normal: &[Normal], reps: usize) -> usize {
    let mut starts = [0u16; 72];
    after_rfc(rfc, urls, normal, reps, |s, qs, qe| {
        starts_of(s, qs, qe, &mut starts).unwrap_or(0)
    })
}

/// The kept parameters of the query `s[qs..qe]` compacted forward into
/// `buf` without a branch on the verdicts: every parameter is copied with
/// the byte before it (`?` or `&`) as 64 fixed bytes (where `s` holds
/// them; a longer one or one near the end of `s` by a copy of its length)
/// and the write position advanced by its length when it is kept. The
/// first kept parameter's delimiter is made `?`. The length written (0:
/// nothing kept, the `?` dropped), or `None` past 63 parameters.
#[inline(always)]
fn compacted(
    j: &Judge,
    s: &[u8],
    qs: usize,
    qe: usize,
    starts: &mut [u16; 72],
    buf: &mut [u8],
) -> Option<usize> {
    let count = starts_of(s, qs, qe, starts)?;
    let mut w = 0usize;
    for i in 0..count {
        let (a, b) = (usize::from(starts[i]), usize::from(starts[i + 1]) - 1);
        let keep = !j.goes_at(s, qs, qe, a);
        // The parameter with its delimiter: `s[qs + a - 1..qs + b]`.
        let (from, n) = (qs + a - 1, b - a + 1);
        match (s.get(from..from + 64), buf.get_mut(w..w + 64)) {
            (Some(src), Some(dst)) if n <= 64 => dst.copy_from_slice(src),
            _ => buf[w..w + n].copy_from_slice(&s[from..from + n]),
        }
        w += usize::from(keep) * n;
    }
    if w > 0 {
        buf[0] = b'?';
    }
    Some(w)
}

#[inline(never)]
fn run_loop_copy2(
    j: &Judge,
    rfc: &Pipeline,
    urls: &[String],
    normal: &[Normal],
    reps: usize,
) -> usize {
    let mut starts = [0u16; 72];
    let mut buf = vec![0u8; (1 << 16) + 128];
    after_rfc(rfc, urls, normal, reps, |s, qs, qe| {
        compacted(j, s, qs, qe, &mut starts, &mut buf).unwrap_or(0)
    })
}

/// [`run_loop_copy2`], the result then put into a `String` as the
/// library would put it back (`str::from_utf8`, a copy).
#[inline(never)]
fn run_loop_copy2b(
    j: &Judge,
    rfc: &Pipeline,
    urls: &[String],
    normal: &[Normal],
    reps: usize,
) -> usize {
    let mut starts = [0u16; 72];
    let mut buf = vec![0u8; (1 << 16) + 128];
    let mut back = String::with_capacity(1 << 16);
    after_rfc(rfc, urls, normal, reps, |s, qs, qe| {
        let w = compacted(j, s, qs, qe, &mut starts, &mut buf).unwrap_or(0);
        back.clear();
        back.push_str(std::str::from_utf8(&buf[..w]).unwrap_or_default());
        back.len()
    })
}

/// The kept parameters of the query `s[qs..qe]` copied into `out`
/// (joined by `&`); whether any is kept.
#[inline(always)]
fn filtered(j: &Judge, s: &[u8], qs: usize, qe: usize, out: &mut Vec<u8>) -> bool {
    let q = &s[qs..qe];
    let mut kept = false;
    let mut start = 0usize;
    let mut base = 0;
    loop {
        let mut m = if base < q.len() {
            amps(s, qs, qe, base)
        } else {
            0
        };
        // The parameters that end in this block (at its `&`), then the last
        // one (at the query's end).
        let last = base + 64 >= q.len();
        loop {
            let end = match m {
                0 if last => q.len(),
                0 => break,
                _ => base + m.trailing_zeros() as usize,
            };
            if !j.goes_at(s, qs, qe, start) {
                if kept {
                    out.push(b'&');
                }
                out.extend_from_slice(&q[start..end]);
                kept = true;
            }
            start = end + 1;
            if m == 0 {
                return kept;
            }
            m &= m - 1;
        }
        base += 64;
    }
}

#[inline(never)]
fn run_loop_copy(
    j: &Judge,
    rfc: &Pipeline,
    urls: &[String],
    normal: &[Normal],
    reps: usize,
) -> usize {
    let mut buf = Vec::with_capacity(1 << 16);
    after_rfc(rfc, urls, normal, reps, |s, qs, qe| {
        buf.clear();
        usize::from(filtered(j, s, qs, qe, &mut buf)) + buf.len()
    })
}

fn prepare(urls: &[String]) -> Vec<Normal> {
    let rfc = Pipeline::preset(Preset::Rfc);
    urls.iter()
        .map(|u| {
            let mut s = String::new();
            if rfc.normalize_into(u, &mut s, &mut Vec::new()).is_err() {
                return Normal { q: None };
            }
            let end = s.find('#').unwrap_or(s.len());
            let q = s[..end].find('?').map(|i| (i + 1, end));
            Normal { q }
        })
        .collect()
}

fn cpu_ns() -> f64 {
    let t = clock_gettime(ClockId::ThreadCPUTime);
    t.tv_sec as f64 * 1e9 + t.tv_nsec as f64
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("check", String::as_str);
    let set = args.get(2).map_or("query-heavy", String::as_str);
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let Some(urls) = irinorm_bench::load_set(set) else {
        eprintln!("query_floor: the corpora are absent (../shared/vectors)");
        return;
    };
    let urls = &urls;
    let normal = prepare(urls);
    let j = Judge::new(irinorm_rules::config::DEFAULT_TRACKING_PARAMS);
    let rfc = Pipeline::preset(Preset::Rfc);
    let crawler = Pipeline::preset(Preset::Crawler);
    match mode {
        "rfc" => println!("{}", irinorm_bench::run_loop(&rfc, urls, reps)),
        "crawler" => println!("{}", irinorm_bench::run_loop(&crawler, urls, reps)),
        "amps" => println!("{}", run_loop_amps(&rfc, urls, &normal, reps)),
        "judge" => println!("{}", run_loop_judge(&j, &rfc, urls, &normal, reps)),
        "copy" => println!("{}", run_loop_copy(&j, &rfc, urls, &normal, reps)),
        "copy2" => println!("{}", run_loop_copy2(&j, &rfc, urls, &normal, reps)),
        "copy2b" => println!("{}", run_loop_copy2b(&j, &rfc, urls, &normal, reps)),
        "judge2" => println!("{}", run_loop_judge2(&j, &rfc, urls, &normal, reps)),
        "starts" => println!("{}", run_loop_starts(&rfc, urls, &normal, reps)),
        "check" => check(&j, urls, &crawler),
        "time" => time(&j, urls, &normal, &rfc, &crawler, reps.max(3)),
        _ => panic!("mode: rfc, crawler, amps, judge, copy, check, time"),
    }
}

/// `copy`'s result put back into the URL (the `?` dropped when nothing is
/// kept, the fragment dropped as `crawler` does) against `crawler`.
fn check(j: &Judge, urls: &[String], crawler: &Pipeline) {
    let rfc = Pipeline::preset(Preset::Rfc);
    let (mut same, mut differ) = (0, 0);
    for u in urls {
        let mut s = String::new();
        if rfc.normalize_into(u, &mut s, &mut Vec::new()).is_err() {
            continue;
        }
        let end = s.find('#').unwrap_or(s.len());
        let mut want = String::new();
        crawler
            .normalize_into(u, &mut want, &mut Vec::new())
            .expect("crawler accepts what rfc does");
        let got = match s[..end].find('?') {
            Some(i) => {
                let mut out = Vec::new();
                let kept = filtered(j, s.as_bytes(), i + 1, end, &mut out);
                let q = String::from_utf8(out).expect("cut at ASCII bytes");
                let mut starts = [0u16; 72];
                let mut buf = vec![0u8; (1 << 16) + 128];
                if let Some(w) = compacted(j, s.as_bytes(), i + 1, end, &mut starts, &mut buf) {
                    let want = if kept { format!("?{q}") } else { String::new() };
                    assert_eq!(&buf[..w], want.as_bytes(), "compacted {u}");
                }
                match kept {
                    true => format!("{}?{q}", &s[..i]),
                    false => s[..i].to_owned(),
                }
            }
            None => s[..end].to_owned(),
        };
        // The query and whether it is there (`crawler`'s other rules, the
        // host's trailing dot, are not the filter's).
        let query = |x: &str| x.find('?').map(|i| x[i..].to_owned());
        if query(&got) == query(&want) {
            same += 1;
        } else {
            differ += 1;
            if differ <= 5 {
                eprintln!("differ: {u}\n  got  {got}\n  want {want}");
            }
        }
    }
    println!("queries: same {same}, differ {differ}");
}

/// Each variant timed over the whole set `reps` times, the variants in
/// turn, eleven rounds: the median ns per URL and its ratio to `rfc`.
fn time(
    j: &Judge,
    urls: &[String],
    normal: &[Normal],
    rfc: &Pipeline,
    crawler: &Pipeline,
    reps: usize,
) {
    let names = [
        "rfc", "crawler", "amps", "judge", "copy", "starts", "judge2", "copy2", "copy2b",
    ];
    let mut ns: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for round in 0..11 {
        for k in 0..names.len() {
            let v = (k + round) % names.len();
            let t = cpu_ns();
            let n = match v {
                0 => irinorm_bench::run_loop(rfc, urls, reps),
                1 => irinorm_bench::run_loop(crawler, urls, reps),
                2 => run_loop_amps(rfc, urls, normal, reps),
                3 => run_loop_judge(j, rfc, urls, normal, reps),
                4 => run_loop_copy(j, rfc, urls, normal, reps),
                5 => run_loop_starts(rfc, urls, normal, reps),
                6 => run_loop_judge2(j, rfc, urls, normal, reps),
                7 => run_loop_copy2(j, rfc, urls, normal, reps),
                _ => run_loop_copy2b(j, rfc, urls, normal, reps),
            };
            black_box(n);
            ns[v].push((cpu_ns() - t) / (reps * urls.len()) as f64);
        }
    }
    let med: Vec<f64> = ns.iter_mut().map(|v| median(v)).collect();
    println!("| variant | ns per URL | per `rfc` |");
    println!("|---|---:|---:|");
    for (k, name) in names.iter().enumerate() {
        println!("| {name} | {:.1} | {:.3} |", med[k], med[k] / med[0]);
    }
}
