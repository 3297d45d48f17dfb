//! A simulated crawl of many small sites, for the protocol rung (issue 10)
//! and rule learning (issue 11): every URL a crawler saw, what the server
//! answered (status, `Location`, payload), and the truth behind it: which
//! page the URL really is, and which rung-3 option (if any) should merge it
//! with that page's canonical URL.
//!
//! Each site draws its own server behaviour from the seed: canonical scheme
//! and `www.`, which conventional redirects it sends (trailing slash,
//! http -> https, `www.`, path case, directory index, dropped session
//! parameter), which DUST it serves without redirecting (session and
//! tracking parameters under site-specific names, default-valued
//! parameters, parameter order, `story?id=N` vs `story_N.html`,
//! case-insensitive paths, a host alias, index files), its non-conventional
//! redirects (moves, login, home page, 302/307) and its traps (parameters
//! that matter, pagination, soft-404 pages sharing one payload, a parameter
//! that is noise here and meaningful elsewhere, a `www.` host that is
//! another site, case-sensitive paths). The site model depends on the seed
//! only; `epoch` is a later crawl of the same sites: new pages, new session
//! values, new times. `docs/frontier.md` ("Simulated crawls") has the
//! format.

use crate::rng::{mix, Rng};

/// What to simulate.
#[derive(Debug, Clone)]
pub struct CrawlOptions {
    /// Number of sites.
    pub sites: usize,
    /// Pages of each site in epoch 0 (a later epoch adds about a quarter).
    pub pages: usize,
    /// The seed: the same seed, sites, pages and epoch give the same bytes.
    pub seed: u64,
    /// 0 for the first crawl; each later epoch is a later crawl.
    pub epoch: u32,
}

impl Default for CrawlOptions {
    fn default() -> Self {
        CrawlOptions {
            sites: 40,
            pages: 30,
            seed: 1,
            epoch: 0,
        }
    }
}

/// The rung-3 option under which a URL merges with its page's canonical
/// URL (the `rung3` column of the truth file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rung3 {
    /// The page's own URL.
    Canonical,
    /// Merged by rung 3 with the default `--redirects conventional`: a chain
    /// of permanent conventional redirects leads to the canonical URL.
    Protocol,
    /// Merged only with `--redirects permanent` (a permanent move).
    Permanent,
    /// Merged only with `--redirects all` (a 302/307 to the same page).
    All,
    /// The same page with no redirect: only content evidence (rule
    /// learning) can merge it.
    Learn,
    /// A page of its own (a trap or another resource): nothing may merge it
    /// with another page's URL.
    Distinct,
}

impl Rung3 {
    /// The name in the truth file.
    pub fn name(self) -> &'static str {
        match self {
            Rung3::Canonical => "canonical",
            Rung3::Protocol => "protocol",
            Rung3::Permanent => "permanent",
            Rung3::All => "all",
            Rung3::Learn => "learn",
            Rung3::Distinct => "distinct",
        }
    }
}

/// One fetch of the simulated crawl.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// The URL requested.
    pub url: String,
    /// 14-digit UTC time of the fetch.
    pub time: String,
    /// HTTP status.
    pub status: u16,
    /// The `Location` header as sent (relative on some sites).
    pub location: Option<String>,
    /// The payload (response body).
    pub body: String,
    /// The true page: URLs with the same page are the same resource.
    pub page: String,
    /// The canonical URL of the page.
    pub canonical: String,
    /// How rung 3 should treat the URL.
    pub rung3: Rung3,
    /// The mechanism that produced the URL (`canonical`, `https`, `www`,
    /// `trailing-slash`, `session-param`, `soft-404`, ...).
    pub mechanism: &'static str,
}

const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ne", "po", "ru", "sa", "ti", "vu", "ze", "bra", "cli", "dro", "fen", "gal",
];
const SECTIONS: &[&str] = &[
    "news", "docs", "shop", "blog", "about", "help", "team", "events", "press", "data",
];
const SLUGS: &[&str] = &[
    "welcome", "report", "guide", "update", "release", "story", "intro", "faq", "pricing", "map",
    "history", "contact", "archive", "summary", "notes", "plan",
];
const INDEX_FILES: &[&str] = &["index.html", "index.php", "default.aspx", "index.htm"];
/// A parameter name used by every site: noise on half of them, meaningful
/// on the other half (the learning trap of issue 11).
const SHARED_PARAM: &str = "ref";

fn word(r: &mut Rng, n: usize) -> String {
    (0..n).map(|_| *r.pick(SYLLABLES)).collect()
}

/// How a site treats the other spelling of its host's `www.`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Www {
    /// The other spelling redirects (301) to the canonical one.
    Redirect,
    /// `www.` is another site (trap).
    OtherSite,
}

/// How a site treats another case of a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    Redirect,
    Insensitive,
    Sensitive,
}

/// One simulated server's behaviour.
#[derive(Debug, Clone)]
struct Site {
    id: String,
    host: String,
    other_host: String,
    https: bool,
    www: Www,
    relative_location: bool,
    slash_redirect: bool,
    case: Case,
    index_file: &'static str,
    index_redirect: bool,
    session: String,
    session_redirect: bool,
    tracking: String,
    default_param: (String, String, String),
    story: String,
    alias_host: Option<String>,
    soft404: bool,
    shared_param_is_noise: bool,
    temp_status: u16,
}

impl Site {
    fn new(seed: u64, i: usize) -> Site {
        let mut r = Rng::derived(seed, 1000 + i as u64);
        let bare = format!("{}{i}.example", word(&mut r, 2));
        let with_www = r.chance(1, 2);
        let (host, other_host) = if with_www {
            (format!("www.{bare}"), bare.clone())
        } else {
            (bare.clone(), format!("www.{bare}"))
        };
        Site {
            id: format!("s{i}"),
            host,
            other_host,
            https: r.chance(2, 3),
            www: if r.chance(1, 6) {
                Www::OtherSite
            } else {
                Www::Redirect
            },
            relative_location: r.chance(1, 2),
            slash_redirect: r.chance(3, 4),
            case: *r.pick(&[Case::Redirect, Case::Insensitive, Case::Sensitive]),
            index_file: INDEX_FILES[r.below(INDEX_FILES.len())],
            index_redirect: r.chance(1, 2),
            session: format!("{}id", word(&mut r, 1)),
            session_redirect: r.chance(1, 3),
            tracking: format!("{}_src", word(&mut r, 1)),
            default_param: (
                word(&mut r, 2),
                word(&mut r, 1),
                format!("{}x", word(&mut r, 1)),
            ),
            story: r.pick(&["story", "item", "article", "post"]).to_string(),
            alias_host: r
                .chance(1, 4)
                .then(|| format!("{}{i}-mirror.example", word(&mut r, 1))),
            soft404: r.chance(1, 2),
            shared_param_is_noise: i % 2 == 0,
            temp_status: *r.pick(&[302, 307]),
        }
    }

    fn scheme(&self) -> &'static str {
        if self.https {
            "https"
        } else {
            "http"
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}://{}{path}", self.scheme(), self.host)
    }

    /// The `Location` this site sends from `from` to `target`: a
    /// path-absolute reference on sites that send relative ones, when both
    /// have the same scheme and host (else the reference would resolve to
    /// another URL).
    fn location(&self, from: &str, target: &str) -> String {
        let origin = |u: &str| {
            let (scheme, rest) = u.split_once("://").unwrap_or(("", u));
            let host = rest.split('/').next().unwrap_or("");
            format!("{scheme}://{host}")
        };
        let own = origin(target);
        match target.strip_prefix(&own) {
            Some(path)
                if self.relative_location && origin(from) == own && path.starts_with('/') =>
            {
                path.to_owned()
            }
            _ => target.to_owned(),
        }
    }
}

/// A page of a site: its path and whether it is a directory (`/x/`).
#[derive(Debug, Clone)]
struct Page {
    path: String,
    dir: bool,
    item: Option<u32>,
}

fn pages(site: &Site, seed: u64, i: usize, opts: &CrawlOptions) -> Vec<Page> {
    let mut out = vec![Page {
        path: "/".to_owned(),
        dir: true,
        item: None,
    }];
    let mut seen = std::collections::HashSet::new();
    seen.insert("/".to_owned());
    // Epoch 0's pages, then about a quarter more per later epoch: each
    // epoch's new pages come from their own stream, so epoch 1 holds every
    // page of epoch 0.
    for e in 0..=opts.epoch {
        let n = if e == 0 {
            opts.pages
        } else {
            opts.pages.div_ceil(4)
        };
        let mut r = Rng::derived(seed, mix(i as u64) ^ (u64::from(e) << 40) ^ 0x5eed);
        let mut tries = 0;
        let mut made = 0;
        while made < n && tries < n * 20 {
            tries += 1;
            let section = r.pick(SECTIONS);
            let p = match r.below(4) {
                0 => Page {
                    path: format!("/{section}/"),
                    dir: true,
                    item: None,
                },
                1 => {
                    let id = r.below(100_000) as u32;
                    Page {
                        path: format!("/{}?id={id}", site.story),
                        dir: false,
                        item: Some(id),
                    }
                }
                _ => Page {
                    path: format!("/{section}/{}-{}", r.pick(SLUGS), r.below(1000)),
                    dir: false,
                    item: None,
                },
            };
            if seen.insert(p.path.clone()) {
                out.push(p);
                made += 1;
            }
        }
    }
    out
}

/// Every fetch of the simulated crawl, in crawl order.
pub fn simulate(opts: &CrawlOptions) -> Vec<Capture> {
    let mut out = Vec::new();
    let mut clock = 0u64;
    for i in 0..opts.sites {
        let site = Site::new(opts.seed, i);
        let mut r = Rng::derived(
            opts.seed,
            mix(i as u64) ^ (u64::from(opts.epoch) << 32) ^ 0xc4a3,
        );
        let mut b = Builder {
            site: &site,
            epoch: opts.epoch,
            out: &mut out,
            clock: &mut clock,
            seen: std::collections::HashSet::new(),
        };
        for p in pages(&site, opts.seed, i, opts) {
            b.page(&p, &mut r);
        }
        b.site_traps(&mut r);
    }
    out
}

struct Builder<'a> {
    site: &'a Site,
    epoch: u32,
    out: &'a mut Vec<Capture>,
    clock: &'a mut u64,
    seen: std::collections::HashSet<String>,
}

/// The 14-digit time of the `n`th fetch of an epoch: epoch `e` starts on
/// the first day of month `e + 1` of 2024 (then 2025...), one fetch every
/// 7 seconds.
fn timestamp(epoch: u32, n: u64) -> String {
    let secs = n * 7;
    let (day, rest) = (secs / 86_400, secs % 86_400);
    let year = 2024 + epoch / 12;
    let month = epoch % 12 + 1;
    format!(
        "{year}{month:02}{:02}{:02}{:02}{:02}",
        1 + day.min(27),
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

impl Builder<'_> {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        url: String,
        status: u16,
        location: Option<String>,
        body: String,
        page: &str,
        canonical: &str,
        rung3: Rung3,
        mechanism: &'static str,
    ) {
        if !self.seen.insert(url.clone()) {
            return;
        }
        *self.clock += 1;
        self.out.push(Capture {
            url,
            time: timestamp(self.epoch, *self.clock),
            status,
            location,
            body,
            page: page.to_owned(),
            canonical: canonical.to_owned(),
            rung3,
            mechanism,
        });
    }

    /// A redirect from `url` to `target` (same page as `target` unless the
    /// class says otherwise).
    #[allow(clippy::too_many_arguments)]
    fn redirect(
        &mut self,
        url: String,
        status: u16,
        target: &str,
        page: &str,
        canonical: &str,
        rung3: Rung3,
        mechanism: &'static str,
    ) {
        let loc = self.site.location(&url, target);
        let body = format!("<html><body>Moved: <a href=\"{target}\">here</a></body></html>\n");
        self.push(
            url,
            status,
            Some(loc),
            body,
            page,
            canonical,
            rung3,
            mechanism,
        );
    }

    /// A permanent (301) redirect from `url` to the page's canonical URL:
    /// the conventional kind rung 3 follows (LADDER.md "Rung 3").
    fn moved(&mut self, url: String, canonical: &str, page: &str, mechanism: &'static str) {
        self.redirect(
            url,
            301,
            canonical,
            page,
            canonical,
            Rung3::Protocol,
            mechanism,
        );
    }

    fn body(&self, page: &str) -> String {
        // The home page changes with every crawl; other pages do not.
        let version = if page.ends_with(":/") { self.epoch } else { 0 };
        format!(
            "<!doctype html><html><head><title>{page}</title></head><body><h1>{page}</h1><p>version {version}</p></body></html>\n"
        )
    }

    fn page(&mut self, p: &Page, r: &mut Rng) {
        let s = self.site;
        let canonical = s.url(&p.path);
        let page = format!("{}:{}", s.id, p.path);
        let body = self.body(&page);
        self.push(
            canonical.clone(),
            200,
            None,
            body.clone(),
            &page,
            &canonical,
            Rung3::Canonical,
            "canonical",
        );
        let same = |b: &mut Self, url: String, mech: &'static str| {
            b.push(
                url,
                200,
                None,
                body.clone(),
                &page,
                &canonical,
                Rung3::Learn,
                mech,
            );
        };
        let chance = |r: &mut Rng| r.chance(1, 3);
        // http -> https (conventional, permanent).
        if s.https && chance(r) {
            let url = format!("http://{}{}", s.host, p.path);
            self.moved(url, &canonical, &page, "https");
        }
        // The other `www.` spelling.
        if chance(r) {
            let url = format!("{}://{}{}", s.scheme(), s.other_host, p.path);
            match s.www {
                Www::Redirect => self.moved(url, &canonical, &page, "www"),
                Www::OtherSite => {
                    let other = format!("{}w:{}", s.id, p.path);
                    let b = self.body(&other);
                    self.push(
                        url.clone(),
                        200,
                        None,
                        b,
                        &other,
                        &url,
                        Rung3::Distinct,
                        "www-other-site",
                    );
                }
            }
        }
        if p.dir && p.path != "/" {
            let bare = p.path.trim_end_matches('/');
            // Trailing slash.
            if chance(r) {
                let url = s.url(bare);
                if s.slash_redirect {
                    self.redirect(
                        url.clone(),
                        301,
                        &canonical,
                        &page,
                        &canonical,
                        Rung3::Protocol,
                        "trailing-slash",
                    );
                    // A chain: http + no slash -> https + no slash -> slash.
                    if s.https && r.chance(1, 2) {
                        let http = format!("http://{}{bare}", s.host);
                        self.redirect(
                            http,
                            301,
                            &url,
                            &page,
                            &canonical,
                            Rung3::Protocol,
                            "https+trailing-slash",
                        );
                    }
                } else {
                    self.redirect(
                        url,
                        s.temp_status,
                        &canonical,
                        &page,
                        &canonical,
                        Rung3::All,
                        "trailing-slash-temporary",
                    );
                }
            }
            // Directory index.
            if chance(r) {
                let url = s.url(&format!("{}{}", p.path, s.index_file));
                if s.index_redirect {
                    self.moved(url, &canonical, &page, "directory-index");
                } else {
                    same(self, url, "index-file");
                }
            }
        }
        if p.path.len() > 1 && p.item.is_none() && chance(r) {
            // Another case of the path.
            let upper = upper_first_letters(&p.path);
            let url = s.url(&upper);
            match s.case {
                Case::Redirect => self.moved(url, &canonical, &page, "path-case"),
                Case::Insensitive => same(self, url, "case-insensitive"),
                Case::Sensitive => {
                    let own = format!("{}:{upper}", s.id);
                    self.not_found(url, &own, "case-sensitive");
                }
            }
        }
        let q = if p.path.contains('?') { '&' } else { '?' };
        // Session parameter under the site's own name.
        if chance(r) {
            let value = mix(r.next_u64() ^ u64::from(self.epoch)) % 1_000_000_000;
            let url = format!("{canonical}{q}{}={value:x}", s.session);
            if s.session_redirect {
                self.moved(url, &canonical, &page, "dropped-query");
            } else {
                same(self, url, "session-param");
            }
        }
        // Tracking parameter.
        if chance(r) {
            let url = format!("{canonical}{q}{}={}", s.tracking, word(r, 2));
            same(self, url, "tracking-param");
        }
        // Default-valued parameter, and the same parameter with a value
        // that matters.
        if chance(r) {
            let (name, default, other) = &s.default_param;
            same(
                self,
                format!("{canonical}{q}{name}={default}"),
                "default-param",
            );
            let url = format!("{canonical}{q}{name}={other}");
            let own = format!("{page}{q}{name}={other}");
            let b = self.body(&own);
            self.push(
                url.clone(),
                200,
                None,
                b,
                &own,
                &url,
                Rung3::Distinct,
                "param-matters",
            );
        }
        // The parameter shared by every site.
        if chance(r) {
            let url = format!("{canonical}{q}{SHARED_PARAM}={}", r.below(50));
            if s.shared_param_is_noise {
                same(self, url, "noise-param");
            } else {
                let own = format!("{page}{}", &url[canonical.len()..]);
                let b = self.body(&own);
                self.push(
                    url.clone(),
                    200,
                    None,
                    b,
                    &own,
                    &url,
                    Rung3::Distinct,
                    "param-matters",
                );
            }
        }
        if let Some(id) = p.item {
            // story?id=N vs story_N.html.
            if chance(r) {
                same(
                    self,
                    s.url(&format!("/{}_{id}.html", s.story)),
                    "substitution",
                );
            }
            // Parameter order.
            if chance(r) {
                let (name, default, _) = &s.default_param;
                let a = format!("{canonical}&{name}={default}");
                let b = s.url(&format!("/{}?{name}={default}&id={id}", s.story));
                same(self, a, "default-param");
                same(self, b, "param-order");
            }
        }
        // Host alias.
        if let Some(alias) = &s.alias_host {
            if chance(r) {
                let url = format!("{}://{alias}{}", s.scheme(), p.path);
                same(self, url, "host-alias");
            }
        }
        // A temporary redirect to the page (print view, A/B test).
        if !p.dir && r.chance(1, 8) {
            let url = format!("{canonical}{q}view=print");
            self.redirect(
                url,
                s.temp_status,
                &canonical,
                &page,
                &canonical,
                Rung3::All,
                "temporary",
            );
        }
        // A permanent move from an old path.
        if !p.dir && p.item.is_none() && r.chance(1, 6) {
            let url = s.url(&format!("/old{}", p.path));
            self.redirect(
                url,
                301,
                &canonical,
                &page,
                &canonical,
                Rung3::Permanent,
                "move",
            );
        }
        // Pagination: another page.
        if p.dir && r.chance(1, 4) {
            let url = format!("{canonical}?page={}", 2 + r.below(5));
            let own = format!("{page}{}", &url[canonical.len()..]);
            let b = self.body(&own);
            self.push(
                url.clone(),
                200,
                None,
                b,
                &own,
                &url,
                Rung3::Distinct,
                "pagination",
            );
        }
    }

    /// Pages the crawler found that do not exist.
    fn not_found(&mut self, url: String, own: &str, mechanism: &'static str) {
        if self.site.soft404 {
            // One payload for every missing URL of the site.
            let body = format!(
                "<html><body>Sorry, {} has no such page.</body></html>\n",
                self.site.id
            );
            self.push(
                url.clone(),
                200,
                None,
                body,
                own,
                &url,
                Rung3::Distinct,
                mechanism,
            );
        } else {
            let body = "<html><body>404 Not Found</body></html>\n".to_owned();
            self.push(
                url.clone(),
                404,
                None,
                body,
                own,
                &url,
                Rung3::Distinct,
                mechanism,
            );
        }
    }

    /// Per-site URLs that are not variants of a page.
    fn site_traps(&mut self, r: &mut Rng) {
        let s = self.site;
        let home = s.url("/");
        for k in 0..3 {
            // Soft-404s (or real 404s).
            let path = format!(
                "/{}/{}-missing-{}",
                r.pick(SECTIONS),
                r.pick(SLUGS),
                r.below(10_000)
            );
            let own = format!("{}:{path}", s.id);
            self.not_found(s.url(&path), &own, "soft-404");
            // Login walls: a private page that redirects to the login page.
            if k == 0 || r.chance(1, 2) {
                let path = format!("/account/{}-{}", r.pick(SLUGS), r.below(1000));
                let url = s.url(&path);
                let login = s.url(&format!("/login?next={}", path.replace('/', "%2F")));
                let own = format!("{}:{path}", s.id);
                self.redirect(
                    url.clone(),
                    302,
                    &login,
                    &own,
                    &url,
                    Rung3::Distinct,
                    "login",
                );
            }
            // A discontinued page that sends everyone home.
            if r.chance(1, 2) {
                let path = format!("/discontinued/{}-{}", r.pick(SLUGS), r.below(1000));
                let url = s.url(&path);
                let own = format!("{}:{path}", s.id);
                self.redirect(url.clone(), 301, &home, &own, &url, Rung3::Distinct, "home");
            }
        }
    }
}

/// `/news/story-1` -> `/News/Story-1`: the first letter of each segment
/// upper-cased.
fn upper_first_letters(path: &str) -> String {
    path.split('/')
        .map(|seg| {
            let mut c = seg.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_epochs_extend() {
        let o = CrawlOptions {
            sites: 6,
            pages: 10,
            ..CrawlOptions::default()
        };
        assert_eq!(simulate(&o), simulate(&o));
        let later = simulate(&CrawlOptions {
            epoch: 1,
            ..o.clone()
        });
        let first = simulate(&o);
        let pages = |c: &[Capture]| {
            c.iter()
                .filter(|c| c.rung3 == Rung3::Canonical)
                .map(|c| c.url.clone())
                .collect::<std::collections::BTreeSet<_>>()
        };
        let (p0, p1) = (pages(&first), pages(&later));
        assert!(p0.is_subset(&p1) && p1.len() > p0.len());
        // Session values are new in the later crawl.
        let sess = |c: &[Capture]| {
            c.iter()
                .filter(|c| c.mechanism == "session-param" || c.mechanism == "dropped-query")
                .map(|c| c.url.clone())
                .collect::<std::collections::BTreeSet<_>>()
        };
        assert!(sess(&first).is_disjoint(&sess(&later)));
        assert!(first[0].time.starts_with("202401") && later[0].time.starts_with("202402"));
    }

    #[test]
    fn the_truth_is_consistent() {
        let caps = simulate(&CrawlOptions {
            sites: 30,
            pages: 20,
            ..CrawlOptions::default()
        });
        let mut mechanisms = std::collections::BTreeSet::new();
        let mut distinct = Vec::new();
        let by_url: std::collections::HashMap<_, _> =
            caps.iter().map(|c| (c.url.as_str(), c)).collect();
        assert_eq!(by_url.len(), caps.len(), "one capture per URL");
        for c in &caps {
            mechanisms.insert(c.mechanism);
            irinorm::parse(&c.url, irinorm::Grammar::Uri)
                .unwrap_or_else(|e| panic!("{}: {e}", c.url));
            match c.rung3 {
                Rung3::Canonical => assert_eq!((c.status, &c.url), (200, &c.canonical)),
                Rung3::Learn => {
                    // Same payload as the canonical URL, no redirect.
                    let canon = by_url[c.canonical.as_str()];
                    assert_eq!((c.status, &c.body), (200, &canon.body), "{c:?}");
                }
                Rung3::Protocol | Rung3::Permanent | Rung3::All => {
                    // Following the redirects reaches the canonical URL.
                    let mut u = c;
                    for _ in 0..5 {
                        let Some(l) = &u.location else { break };
                        let t = irinorm::resolve(&u.url, l).unwrap();
                        u = by_url
                            .get(t.as_str())
                            .unwrap_or_else(|| panic!("{c:?} -> {t}"));
                    }
                    assert_eq!(u.url, c.canonical, "{c:?}");
                    let permanent = matches!(c.status, 301 | 308);
                    assert_eq!(permanent, c.rung3 != Rung3::All, "{c:?}");
                }
                Rung3::Distinct => distinct.push(c),
            }
        }
        // A trap is a page of its own: no real page has its page id.
        let real: std::collections::HashSet<_> = caps
            .iter()
            .filter(|c| c.rung3 == Rung3::Canonical)
            .map(|c| c.page.as_str())
            .collect();
        assert!(distinct.len() > 50);
        for c in distinct {
            assert!(!real.contains(c.page.as_str()), "{c:?}");
        }
        for m in [
            "https",
            "www",
            "trailing-slash",
            "directory-index",
            "path-case",
            "dropped-query",
            "session-param",
            "tracking-param",
            "default-param",
            "param-order",
            "substitution",
            "case-insensitive",
            "host-alias",
            "index-file",
            "move",
            "login",
            "home",
            "temporary",
            "param-matters",
            "pagination",
            "soft-404",
            "www-other-site",
            "case-sensitive",
            "noise-param",
            "https+trailing-slash",
        ] {
            assert!(mechanisms.contains(m), "no {m}: {mechanisms:?}");
        }
    }

    #[test]
    fn times() {
        assert_eq!(timestamp(0, 0), "20240101000000");
        assert_eq!(timestamp(0, 1), "20240101000007");
        // 12,343 fetches = 86,401 s: day 2, one second past midnight.
        assert_eq!(timestamp(13, 12_343), "20250202000001");
    }
}
