//! A simulated crawl with ground truth (issue 11, "Ground truth you
//! build"): many small sites, each with its own mix of DUST mechanisms
//! under site-specific names, and traps, seeded and deterministic. Epoch 2
//! of a crawl has the pages of epoch 1, new pages and new session values,
//! so rules learned on epoch 1 are measured on URLs they never saw.
//!
//! Mechanisms: a session parameter (site-specific name, random token), a
//! tracking parameter, a default-valued parameter (`lang=en`; `lang=fr` is
//! another page), a path/query substitution (`/news/story/5` and
//! `/news/story.php?id=5`), case-insensitive paths, a `www.` alias, an
//! http/https alias (sometimes by a 301 redirect), a trailing slash, a
//! directory index file, the order of the parameters of listing pages,
//! and `utm_*` (which the `crawler` preset already removes).
//!
//! Traps: pagination (`page=2` is another page), one soft-404 page served
//! for many missing paths, `ref` as noise on some sites and as a real
//! parameter on others, a `www.` host that is another site, and
//! case-sensitive paths where `/News/x` and `/news/x` differ.

use crate::rows::Row;

/// One observation with the page it really is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimRow {
    /// The observation.
    pub row: Row,
    /// The true page (ground truth).
    pub truth: String,
}

/// splitmix64: a tiny seeded generator (no dependency needed for this).
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len() as u64) as usize]
    }
}

fn digest_of(truth: &str) -> String {
    // FNV-1a, 64 bits, twice: a stand-in for a payload digest.
    let mut h1: u64 = 0xcbf2_9ce4_8422_2325;
    let mut h2: u64 = 0x8422_2325_cbf2_9ce4;
    for b in truth.bytes() {
        h1 = (h1 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        h2 = (h2 ^ u64::from(b))
            .wrapping_mul(0x100_0000_01b3)
            .rotate_left(7);
    }
    format!("sha1:{h1:016X}{h2:016X}")
}

/// The mechanisms and traps of one site (the same in every epoch).
#[derive(Clone, Debug)]
struct Site {
    host: String,
    word: &'static str,
    session: Option<&'static str>,
    tracking: Option<&'static str>,
    lang: Option<&'static str>,
    substitute: bool,
    case_insensitive: bool,
    case_sensitive_trap: bool,
    www_alias: bool,
    www_other_site: bool,
    scheme_alias: bool,
    trailing_slash: bool,
    index: Option<&'static str>,
    param_order: bool,
    ref_meaningful: bool,
}

fn site(seed: u64, k: usize) -> Site {
    let mut r = Rng(seed ^ (k as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let mut on = |p| r.chance(p);
    let (a, b, c, d, e, f, g, h, i, j, l, m, n) = (
        on(50),
        on(50),
        on(40),
        on(40),
        on(30),
        on(15),
        on(35),
        on(15),
        on(40),
        on(35),
        on(35),
        on(40),
        on(20),
    );
    let mut r = Rng(seed.rotate_left(17) ^ k as u64);
    let ref_meaningful = n;
    Site {
        host: format!("site{k}.example"),
        word: r.pick(&["story", "item", "art", "post", "entry"]),
        session: a.then(|| r.pick(&["sess", "visit", "tok", "sk", "vid", "s"])),
        tracking: b.then(|| {
            if ref_meaningful {
                r.pick(&["src", "from", "via", "cmp"])
            } else {
                r.pick(&["src", "from", "ref", "via", "cmp"])
            }
        }),
        lang: c.then(|| r.pick(&["lang", "hl", "locale"])),
        substitute: d,
        case_insensitive: e,
        case_sensitive_trap: f && !e,
        www_alias: g,
        www_other_site: h && !g,
        scheme_alias: i,
        trailing_slash: j,
        index: l.then(|| r.pick(&["home.php", "main.htm", "start.asp", "index.html"])),
        param_order: m,
        ref_meaningful,
    }
}

const SECTIONS: [&str; 3] = ["news", "shop", "docs"];

/// A crawl of `sites` sites with about `pages` article pages each, epoch
/// `epoch` (1, 2...): epoch `e` has `pages * (1 + (e - 1) / 2)` pages.
pub fn crawl(seed: u64, sites: usize, pages: usize, epoch: u32) -> Vec<SimRow> {
    let mut out = Vec::new();
    let mut r = Rng(seed ^ u64::from(epoch).wrapping_mul(0xd1b5_4a32_d192_ed03));
    let n_pages = pages + pages * (epoch.saturating_sub(1) as usize) / 2;
    let time = format!("20{:02}0101000000", 20 + epoch);
    for k in 0..sites {
        let s = site(seed, k);
        let emit = |url: String, truth: String, out: &mut Vec<SimRow>, r: &mut Rng| {
            // A scheme alias is sometimes a 301 to the https form.
            if s.scheme_alias && r.chance(30) {
                if let Some(rest) = url.strip_prefix("https://") {
                    let from = format!("http://{rest}");
                    out.push(SimRow {
                        row: Row {
                            url: from,
                            digest: Some(digest_of("redirect body")),
                            time: Some(time.clone()),
                            status: Some(301),
                            location: Some(url.clone()),
                        },
                        truth: truth.clone(),
                    });
                }
            }
            out.push(SimRow {
                row: Row {
                    digest: Some(digest_of(&truth)),
                    time: Some(time.clone()),
                    status: Some(200),
                    location: None,
                    url,
                },
                truth,
            });
        };
        let host = &s.host;
        // Article pages.
        for p in 0..n_pages {
            let sec = SECTIONS[p % 3];
            let truth = format!("{host}|{sec}/{p}");
            let visits = 1 + r.below(3);
            for _ in 0..visits {
                let mut scheme = "https";
                let mut h = host.clone();
                let mut path = format!("/{sec}/{}/{p}", s.word);
                let mut params: Vec<String> = Vec::new();
                if s.substitute && r.chance(50) {
                    path = format!("/{sec}/{}.php", s.word);
                    params.push(format!("id={p}"));
                }
                if s.case_insensitive && r.chance(30) {
                    path = path.to_ascii_uppercase();
                }
                if s.trailing_slash && r.chance(40) && !path.ends_with(".php") {
                    path.push('/');
                }
                if s.www_alias && r.chance(40) {
                    h = format!("www.{host}");
                }
                if s.scheme_alias && r.chance(40) {
                    scheme = "http";
                }
                if let Some(n) = s.session {
                    if r.chance(50) {
                        params.push(format!("{n}={:016x}", r.next()));
                    }
                }
                if let Some(n) = s.tracking {
                    if r.chance(40) {
                        params.push(format!("{n}={}", r.pick(&["mail", "feed", "home", "top"])));
                    }
                }
                if let Some(n) = s.lang {
                    if r.chance(40) {
                        params.push(format!("{n}=en"));
                    }
                }
                if r.chance(10) {
                    params.push(format!("utm_source={}", r.pick(&["a", "b"])));
                }
                let q = if params.is_empty() {
                    String::new()
                } else {
                    format!("?{}", params.join("&"))
                };
                emit(
                    format!("{scheme}://{h}{path}{q}"),
                    truth.clone(),
                    &mut out,
                    &mut r,
                );
            }
            // Trap: the French page is another page.
            if let Some(n) = s.lang {
                if p % 4 == 0 {
                    let url = format!("https://{host}/{sec}/{}/{p}?{n}=fr", s.word);
                    emit(url, format!("{truth}|fr"), &mut out, &mut r);
                }
            }
            // Trap: case-sensitive paths are other pages.
            if s.case_sensitive_trap && p % 3 == 0 {
                let url = format!("https://{host}/{}/{}/{p}", sec.to_ascii_uppercase(), s.word);
                emit(url, format!("{truth}|upper"), &mut out, &mut r);
            }
            // Trap: www. is another site.
            if s.www_other_site && p % 2 == 0 {
                let url = format!("https://www.{host}/{sec}/{}/{p}", s.word);
                emit(url, format!("www.{truth}"), &mut out, &mut r);
            }
        }
        // Section index pages.
        for sec in SECTIONS {
            let truth = format!("{host}|{sec}/");
            emit(
                format!("https://{host}/{sec}/"),
                truth.clone(),
                &mut out,
                &mut r,
            );
            if let Some(ix) = s.index {
                emit(
                    format!("https://{host}/{sec}/{ix}"),
                    truth,
                    &mut out,
                    &mut r,
                );
            }
        }
        // Listing pages: pagination is meaningful; the parameter order is
        // not on some sites; `ref` is meaningful on others.
        for (c, sec) in SECTIONS.iter().enumerate() {
            for page in 1..=3 {
                let truth = format!("{host}|{sec}/list/{c}/{page}");
                emit(
                    format!("https://{host}/{sec}/list?cat={c}&page={page}"),
                    truth.clone(),
                    &mut out,
                    &mut r,
                );
                if s.param_order {
                    emit(
                        format!("https://{host}/{sec}/list?page={page}&cat={c}"),
                        truth.clone(),
                        &mut out,
                        &mut r,
                    );
                }
                if s.ref_meaningful {
                    for rv in ["a", "b"] {
                        emit(
                            format!("https://{host}/{sec}/list?cat={c}&page={page}&ref={rv}"),
                            format!("{truth}|ref={rv}"),
                            &mut out,
                            &mut r,
                        );
                    }
                }
            }
        }
        // Trap: one soft-404 page for every missing path.
        let soft = format!("{host}|soft-404");
        for m in 0..12 {
            let id = 100_000 + r.below(1_000_000);
            let url = if m % 2 == 0 {
                format!("https://{host}/{}/{}/{id}", SECTIONS[m % 3], s.word)
            } else {
                format!("https://{host}/missing/{id:x}")
            };
            out.push(SimRow {
                row: Row {
                    url,
                    digest: Some(digest_of(&soft)),
                    time: Some(time.clone()),
                    status: Some(200),
                    location: None,
                },
                // Each missing URL is its own (absent) page.
                truth: format!("{soft}|{m}|{epoch}"),
            });
        }
    }
    out
}

/// Rows as CDX lines (` CDX N b a m s k r M S V g`), for the CLI and the
/// 1M-record measurement.
pub fn to_cdx(rows: &[SimRow], out: &mut String) {
    out.push_str(" CDX N b a m s k r M S V g\n");
    for (i, s) in rows.iter().enumerate() {
        let r = &s.row;
        let d = r.digest.as_deref().unwrap_or("-");
        let d = d.strip_prefix("sha1:").unwrap_or(d);
        out.push_str(&format!(
            "- {} {} text/html {} {} {} - 1000 {} sim.warc.gz\n",
            r.time.as_deref().unwrap_or("-"),
            r.url,
            r.status.map_or("-".to_owned(), |s| s.to_string()),
            d,
            r.location.as_deref().unwrap_or("-"),
            i * 1000
        ));
    }
}

/// The distinct URLs of a crawl with their true page (the 200 rows; a
/// redirect's source counts as the page it redirects to).
pub fn truth(rows: &[SimRow]) -> Vec<(String, Option<String>)> {
    rows.iter()
        .map(|s| (s.row.url.clone(), Some(s.truth.clone())))
        .collect()
}
