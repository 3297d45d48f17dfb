//! Shared workloads for the criterion benches (`benches/`) and the
//! interleaved bench binary (`src/bin/bench.rs`).
//!
//! A workload is one (operation, library) pair: a plain function that
//! processes a whole input list and returns a [`Checksum`]-encoded `u64`, so
//! that the optimizer cannot drop the work and so that the number of inputs
//! the library accepted comes out of the same timed call.
//!
//! Every workload is listed once in [`REGISTRY`]. Adding a measurement
//! (normalize, presets, key hashing...) is one line there plus its function.
//!
//! The corpora are read in place through `irinorm-testdata` (never copied).

use std::hint::black_box;

/// What a workload reads from an [`Inputs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One string per item ([`Inputs::urls`]): the corpora as they are.
    Urls,
    /// One string per item, every one already in its rung-2 `uri` normal
    /// form ([`NORMAL`]).
    NormalUrls,
    /// (base, reference) pairs ([`Inputs::pairs`]).
    Pairs,
}

/// One data set. A URL-list data set has empty `pairs` and vice versa.
#[derive(Debug, Default)]
pub struct Inputs {
    /// Data set name (`kasztp.txt`, `all`, `relative_urls_cc_10k`...).
    pub name: String,
    /// The lines, in file order (invalid ones included).
    pub urls: Vec<String>,
    /// (base, relative) pairs.
    pub pairs: Vec<(String, String)>,
    /// Every URL is already normal ([`Kind::NormalUrls`]).
    pub normal: bool,
}

impl Inputs {
    /// What kind of workload this data set feeds.
    pub fn kind(&self) -> Kind {
        if !self.pairs.is_empty() {
            Kind::Pairs
        } else if self.normal {
            Kind::NormalUrls
        } else {
            Kind::Urls
        }
    }

    /// Number of items (URLs or pairs).
    pub fn items(&self) -> usize {
        match self.kind() {
            Kind::Urls | Kind::NormalUrls => self.urls.len(),
            Kind::Pairs => self.pairs.len(),
        }
    }

    /// Input bytes per pass (for MB/s): the URLs' lengths, or both strings
    /// of each pair.
    pub fn bytes(&self) -> usize {
        match self.kind() {
            Kind::Urls | Kind::NormalUrls => self.urls.iter().map(String::len).sum(),
            Kind::Pairs => self.pairs.iter().map(|(b, r)| b.len() + r.len()).sum(),
        }
    }
}

/// The name of the mixed data set (every `.txt` corpus concatenated).
pub const ALL: &str = "all";
/// The name of the resolution data set.
pub const RELATIVE: &str = "relative_urls_cc_10k";
/// The name of the already-normal data set: the rung-2 (`scheme`) `uri`
/// normal form of every line of [`ALL`] that is an IRI-reference, in order.
pub const NORMAL: &str = "all-normal";

/// The already-normal data set made from `all` (see [`NORMAL`]).
pub fn normal_set(all: &[String]) -> Inputs {
    let n = irinorm::ladder::Normalizer::new(irinorm::ladder::Options::new(
        irinorm::ladder::Rung::Scheme,
        irinorm::ladder::Form::Uri,
    ));
    Inputs {
        name: NORMAL.to_owned(),
        urls: all
            .iter()
            .filter_map(|s| n.normalize(s).ok().map(|c| c.into_owned()))
            .collect(),
        pairs: Vec::new(),
        normal: true,
    }
}

/// The length buckets of `all` (bytes, inclusive), each its own data set
/// named `len A-B` (`len 161+` for the last): the targets of issue 14 hold
/// per bucket, and long URLs behave differently (more query, more bytes
/// per component).
pub const BUCKETS: [(usize, usize, &str); 4] = [
    (0, 40, "len 0-40"),
    (41, 80, "len 41-80"),
    (81, 160, "len 81-160"),
    (161, usize::MAX, "len 161+"),
];

/// The name of the generated query-heavy data set ([`query_heavy`]).
pub const QUERY_HEAVY: &str = "query-heavy";

/// A deterministic generator (SplitMix64): the generated data sets are the
/// same in every run and on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn token(&mut self, out: &mut String, len: usize, alphabet: &[u8]) {
        for _ in 0..len {
            out.push(alphabet[self.below(alphabet.len())] as char);
        }
    }
}

/// Real-world-shaped URLs with long query strings (issue 14), built at
/// start-up from the `http(s)` lines of `all` (their scheme, host and path,
/// query and fragment cut off) and a seeded generator: 4 to 15 parameters
/// drawn from tracking, search, paging and session names, with values
/// that are tokens, numbers, `+`-joined words, percent-encoded URLs (upper
/// case hex, as browsers and most servers write them) and, in 1 URL in 12,
/// one lower-case triplet (`%2f`), which rung 2 rewrites; 1 in 25 has a
/// fragment, 1 in 40 an upper-case host. `n` URLs, never stored.
pub fn query_heavy(all: &[String], n: usize) -> Inputs {
    const NAMES: [&str; 24] = [
        "utm_source",
        "utm_medium",
        "utm_campaign",
        "utm_content",
        "utm_term",
        "gclid",
        "fbclid",
        "id",
        "q",
        "page",
        "sort",
        "lang",
        "ref",
        "sessionid",
        "token",
        "redirect_url",
        "callback",
        "filter.category",
        "pid",
        "sku",
        "offset",
        "limit",
        "ts",
        "sig",
    ];
    const WORDS: [&str; 12] = [
        "red", "shoes", "cheap", "flights", "paris", "best", "price", "new", "2024", "review",
        "buy", "online",
    ];
    const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const DIGITS: &[u8] = b"0123456789";
    const HEX: &[u8] = b"0123456789abcdef";
    let bases: Vec<&str> = all
        .iter()
        .filter(|s| s.starts_with("http://") || s.starts_with("https://"))
        .map(|s| &s[..s.find(['?', '#']).unwrap_or(s.len())])
        .filter(|s| s.is_ascii() && !s.contains('%'))
        .collect();
    let mut rng = Rng(14);
    let mut urls = Vec::with_capacity(n);
    for i in 0..n {
        let mut u = String::with_capacity(320);
        let base = bases
            .get(rng.below(bases.len().max(1)))
            .copied()
            .unwrap_or("http://a.example/");
        if i % 40 == 7 {
            // An upper-case host: rung 2 lower-cases it.
            let host_end = base[8..].find('/').map_or(base.len(), |p| p + 8);
            u.push_str(
                &base[..host_end]
                    .to_ascii_uppercase()
                    .replacen("HTTP", "http", 1),
            );
            u.push_str(&base[host_end..]);
        } else {
            u.push_str(base);
        }
        let params = 4 + rng.below(12);
        let dirty = i % 12 == 5;
        for k in 0..params {
            u.push(if k == 0 { '?' } else { '&' });
            u.push_str(NAMES[rng.below(NAMES.len())]);
            u.push('=');
            match rng.below(6) {
                0 | 1 => {
                    let len = 6 + rng.below(30);
                    rng.token(&mut u, len, ALNUM);
                }
                2 => {
                    let len = 1 + rng.below(12);
                    rng.token(&mut u, len, DIGITS);
                }
                3 => {
                    for w in 0..1 + rng.below(4) {
                        if w > 0 {
                            u.push('+');
                        }
                        u.push_str(WORDS[rng.below(WORDS.len())]);
                    }
                }
                4 => {
                    u.push_str("https%3A%2F%2Fwww.example.com%2F");
                    let len = 4 + rng.below(16);
                    rng.token(&mut u, len, ALNUM);
                    u.push_str("%3Fa%3D");
                    let len = 1 + rng.below(6);
                    rng.token(&mut u, len, DIGITS);
                }
                _ => {
                    let len = 16 + rng.below(24);
                    rng.token(&mut u, len, HEX);
                }
            }
        }
        if dirty {
            u.push_str("&next=%2fhome%2f");
        }
        if i % 25 == 3 {
            u.push_str("#section-");
            let len = 1 + rng.below(3);
            rng.token(&mut u, len, DIGITS);
        }
        urls.push(u);
    }
    Inputs {
        name: QUERY_HEAVY.to_owned(),
        urls,
        ..Inputs::default()
    }
}

/// The lines of `all` whose length is in `lo..=hi`, as a data set.
fn bucket(all: &[String], lo: usize, hi: usize, name: &str) -> Inputs {
    Inputs {
        name: name.to_owned(),
        urls: all
            .iter()
            .filter(|s| (lo..=hi).contains(&s.len()))
            .cloned()
            .collect(),
        ..Inputs::default()
    }
}

/// The lines of the data set `name` (a name [`load_all`] gives, e.g.
/// `query-heavy`), for the examples that count one set's instructions.
/// `None` when the corpora are absent; panics on a name no set has.
pub fn load_set(name: &str) -> Option<Vec<String>> {
    let sets = load_all()?;
    let set = sets
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no data set {name:?}"));
    Some(set.urls)
}

/// Loads every data set: each `.txt` corpus, `all` (their concatenation in
/// name order), `all` by length ([`BUCKETS`]), the generated
/// [`query_heavy`] set, the already-normal form of each of these (`NAME-normal`;
/// `all-normal` is [`NORMAL`]) and the relative pairs. `None` when the
/// corpora are absent (see `irinorm_testdata::vectors_dir` for the policy).
pub fn load_all() -> Option<Vec<Inputs>> {
    const WHO: &str = "irinorm-bench";
    let corpora = irinorm_testdata::text_corpora(WHO)?;
    let pairs = irinorm_testdata::relative_pairs(WHO)?;
    let mut sets = Vec::new();
    let mut all = Vec::new();
    for (name, lines) in corpora {
        all.extend(lines.iter().cloned());
        sets.push(Inputs {
            name,
            urls: lines,
            ..Inputs::default()
        });
    }
    let ncorpora = sets.len();
    for (lo, hi, name) in BUCKETS {
        sets.push(bucket(&all, lo, hi, name));
    }
    sets.push(query_heavy(&all, 20_000));
    let mut normals: Vec<Inputs> = sets
        .iter()
        .map(|s| {
            let mut n = normal_set(&s.urls);
            n.name = format!("{}-normal", s.name);
            n
        })
        .collect();
    normals.insert(0, normal_set(&all));
    sets.insert(
        ncorpora,
        Inputs {
            name: ALL.to_owned(),
            urls: all,
            ..Inputs::default()
        },
    );
    sets.extend(normals);
    sets.push(Inputs {
        name: RELATIVE.to_owned(),
        pairs,
        ..Inputs::default()
    });
    Some(sets)
}

/// Normalizes `urls` through `p`, `reps` times, and returns the bytes
/// written: the loop the cost examples (`preset_cost`, `learned_cost`)
/// count under callgrind (`--collect-atstart=no
/// --toggle-collect='*run_loop*'`) and the `learned` bench times.
#[inline(never)]
pub fn run_loop(p: &irinorm_rules::Pipeline, urls: &[String], reps: usize) -> usize {
    loop_by(p, urls, reps, irinorm_rules::Pipeline::normalize_into)
}

/// [`run_loop`] by `Pipeline::key_into` (the comparison key: `dedupe`'s
/// and `compare`'s path), `key_cost`'s loop: the bytes of the keys.
#[inline(never)]
pub fn run_loop_key(p: &irinorm_rules::Pipeline, urls: &[String], reps: usize) -> usize {
    let mut out = String::new();
    let mut n = 0usize;
    for _ in 0..reps {
        for u in urls {
            out.clear();
            if p.key_into(black_box(u), &mut out).is_ok() {
                n += out.len();
            }
        }
    }
    n
}

/// [`run_loop`] by `Pipeline::normalize_text_into` (no list of the rules
/// that fired: the CLI's bulk `normalize`); `learned_cost ... text`.
#[inline(never)]
pub fn run_loop_text(p: &irinorm_rules::Pipeline, urls: &[String], reps: usize) -> usize {
    loop_by(p, urls, reps, irinorm_rules::Pipeline::normalize_text_into)
}

/// The loop of [`run_loop`] and [`run_loop_text`], with the call.
#[inline(always)]
fn loop_by(
    p: &irinorm_rules::Pipeline,
    urls: &[String],
    reps: usize,
    call: impl Fn(
        &irinorm_rules::Pipeline,
        &str,
        &mut String,
        &mut Vec<irinorm_rules::RuleName>,
    ) -> Result<Vec<irinorm::ladder::Warning>, irinorm::ParseError>,
) -> usize {
    let mut out = String::new();
    let mut applied = Vec::new();
    let mut n = 0usize;
    for _ in 0..reps {
        for u in urls {
            out.clear();
            applied.clear();
            if call(p, black_box(u), &mut out, &mut applied).is_ok() {
                n += out.len();
            }
        }
    }
    n
}

/// Accumulates a workload's result: how many inputs were accepted (low 32
/// bits of [`Checksum::finish`]) and a hash of what came out (high 32 bits).
#[derive(Clone, Copy, Debug, Default)]
pub struct Checksum {
    accepted: u32,
    mix: u32,
}

impl Checksum {
    /// A fresh accumulator.
    pub fn new() -> Self {
        Self::default()
    }

    /// One accepted input whose result is summarized by `x` (a length, an
    /// offset...: something the library had to compute).
    #[inline(always)]
    pub fn accept(&mut self, x: usize) {
        self.accepted += 1;
        self.mix = self.mix.wrapping_mul(31).wrapping_add(x as u32);
    }

    /// One rejected input.
    #[inline(always)]
    pub fn reject(&mut self) {
        self.mix = self.mix.wrapping_mul(31).wrapping_add(7);
    }

    /// Packs the accumulator.
    pub fn finish(self) -> u64 {
        (u64::from(self.mix) << 32) | u64::from(self.accepted)
    }

    /// The accepted count of a packed checksum.
    pub fn accepted(packed: u64) -> u64 {
        packed & 0xffff_ffff
    }
}

/// A workload: processes a whole data set, returns a packed [`Checksum`].
pub type Workload = fn(&Inputs) -> u64;

/// One registered (operation, library) measurement.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Operation name; entries with the same name are compared.
    pub op: &'static str,
    /// Library (and variant) name. The baseline is [`BASELINE`].
    pub lib: &'static str,
    /// Which data sets it runs on.
    pub kind: Kind,
    /// The work.
    pub run: Workload,
}

/// The library ratios are relative to (see [`baseline`] for the exceptions).
pub const BASELINE: &str = "irinorm";

/// Operation names.
pub mod op {
    /// Validate as `URI-reference` (RFC 3986 §4.1).
    pub const PARSE_URI_REF: &str = "parse URI-reference";
    /// Validate as `IRI-reference` (RFC 3987 §2.2).
    pub const PARSE_IRI_REF: &str = "parse IRI-reference";
    /// Parse base as URI and reference as URI-reference, resolve, write the target.
    pub const RESOLVE_URI: &str = "resolve URI";
    /// Parse base as IRI and reference as IRI-reference, resolve, write the target.
    pub const RESOLVE_IRI: &str = "resolve IRI";
    /// Rung 0 (`string`), `uri` form: validate, copy.
    pub const NORM_STRING_URI: &str = "normalize string/uri";
    /// Rung 0 (`string`), `iri` form.
    pub const NORM_STRING_IRI: &str = "normalize string/iri";
    /// Rung 1 (`syntax`), `uri` form: parse, normalize, write the normal form.
    pub const NORM_SYNTAX_URI: &str = "normalize syntax/uri";
    /// Rung 1 (`syntax`), `iri` form.
    pub const NORM_SYNTAX_IRI: &str = "normalize syntax/iri";
    /// Rung 2 (`scheme`), `uri` form: parse, normalize, write the normal form.
    pub const NORM_SCHEME_URI: &str = "normalize scheme/uri";
    /// Rung 2 (`scheme`), `iri` form.
    pub const NORM_SCHEME_IRI: &str = "normalize scheme/iri";
    /// Rung 2, `uri` form, on input that is already in that normal form.
    pub const NORM_ALREADY_NORMAL: &str = "normalize scheme/uri, already normal";
    /// The presets of irinorm-rules (`rfc`, `fetch`, `crawler`, `aggressive`),
    /// each normalizing into a reused `String`; the baseline is `rfc`.
    pub const PRESETS: &str = "presets";
    /// Comparison-key digests (128-bit xxh3 of the key at rung 2).
    pub const KEY_DIGEST: &str = "key digest";
    /// The comparison key of a preset's pipeline (`Pipeline::key_into`
    /// into a reused `String`: `dedupe`'s and `compare`'s path), `rfc`
    /// against `crawler`; the baseline is `rfc`.
    pub const PIPELINE_KEY: &str = "pipeline key";
}

/// The operations on normalization, in table order (for the benches).
pub const NORMALIZE_OPS: [&str; 7] = [
    op::NORM_STRING_URI,
    op::NORM_STRING_IRI,
    op::NORM_SYNTAX_URI,
    op::NORM_SYNTAX_IRI,
    op::NORM_SCHEME_URI,
    op::NORM_SCHEME_IRI,
    op::NORM_ALREADY_NORMAL,
];

/// Every measurement. Order within an operation is the table order; the
/// baseline comes first.
#[rustfmt::skip]
pub static REGISTRY: &[Entry] = &[
    // parse URI-reference
    e(op::PARSE_URI_REF, BASELINE, Kind::Urls, parse::irinorm_uri_ref),
    e(op::PARSE_URI_REF, "fluent-uri", Kind::Urls, parse::fluent_uri_ref),
    e(op::PARSE_URI_REF, "iri-string", Kind::Urls, parse::iri_string_uri_ref),
    e(op::PARSE_URI_REF, "url (WHATWG)", Kind::Urls, parse::url_whatwg),
    e(op::PARSE_URI_REF, "ada-url (WHATWG)", Kind::Urls, parse::ada_whatwg),
    // parse IRI-reference
    e(op::PARSE_IRI_REF, BASELINE, Kind::Urls, parse::irinorm_iri_ref),
    e(op::PARSE_IRI_REF, "fluent-uri", Kind::Urls, parse::fluent_iri_ref),
    e(op::PARSE_IRI_REF, "oxiri", Kind::Urls, parse::oxiri_iri_ref),
    e(op::PARSE_IRI_REF, "iri-string", Kind::Urls, parse::iri_string_iri_ref),
    // resolve URI
    e(op::RESOLVE_URI, BASELINE, Kind::Pairs, resolve::irinorm_uri),
    e(op::RESOLVE_URI, "fluent-uri", Kind::Pairs, resolve::fluent_uri),
    e(op::RESOLVE_URI, "iri-string", Kind::Pairs, resolve::iri_string_uri),
    e(op::RESOLVE_URI, "url (WHATWG)", Kind::Pairs, resolve::url_whatwg),
    e(op::RESOLVE_URI, "ada-url (WHATWG)", Kind::Pairs, resolve::ada_whatwg),
    // resolve IRI
    e(op::RESOLVE_IRI, BASELINE, Kind::Pairs, resolve::irinorm_iri),
    e(op::RESOLVE_IRI, "irinorm typed", Kind::Pairs, resolve::irinorm_iri_typed),
    e(op::RESOLVE_IRI, "oxiri", Kind::Pairs, resolve::oxiri_iri),
    e(op::RESOLVE_IRI, "fluent-uri", Kind::Pairs, resolve::fluent_iri),
    e(op::RESOLVE_IRI, "iri-string", Kind::Pairs, resolve::iri_string_iri),
    // normalize at each rung and form (rung as 0/1/2, form as 0 = uri / 1 = iri)
    e(op::NORM_STRING_URI, BASELINE, Kind::Urls, normalize::irinorm::<0, 0>),
    e(op::NORM_STRING_IRI, BASELINE, Kind::Urls, normalize::irinorm::<0, 1>),
    e(op::NORM_SYNTAX_URI, BASELINE, Kind::Urls, normalize::irinorm::<1, 0>),
    e(op::NORM_SYNTAX_URI, "fluent-uri", Kind::Urls, normalize::fluent_uri_ref),
    e(op::NORM_SYNTAX_URI, "iri-string", Kind::Urls, normalize::iri_string_uri),
    e(op::NORM_SYNTAX_IRI, BASELINE, Kind::Urls, normalize::irinorm::<1, 1>),
    e(op::NORM_SYNTAX_IRI, "fluent-uri", Kind::Urls, normalize::fluent_iri_ref),
    e(op::NORM_SYNTAX_IRI, "iri-string", Kind::Urls, normalize::iri_string_iri),
    e(op::NORM_SCHEME_URI, BASELINE, Kind::Urls, normalize::irinorm::<2, 0>),
    e(op::NORM_SCHEME_URI, "fluent-uri", Kind::Urls, normalize::fluent_uri_ref),
    e(op::NORM_SCHEME_URI, "iri-string", Kind::Urls, normalize::iri_string_uri),
    e(op::NORM_SCHEME_URI, "url (WHATWG)", Kind::Urls, normalize::url_whatwg),
    e(op::NORM_SCHEME_URI, "ada-url (WHATWG)", Kind::Urls, normalize::ada_whatwg),
    e(op::NORM_SCHEME_IRI, BASELINE, Kind::Urls, normalize::irinorm::<2, 1>),
    e(op::NORM_SCHEME_IRI, "fluent-uri", Kind::Urls, normalize::fluent_iri_ref),
    e(op::NORM_SCHEME_IRI, "iri-string", Kind::Urls, normalize::iri_string_iri),
    // already normal: the same workloads on the normal forms
    e(op::NORM_ALREADY_NORMAL, BASELINE, Kind::NormalUrls, normalize::irinorm::<2, 0>),
    e(op::NORM_ALREADY_NORMAL, "irinorm Cow", Kind::NormalUrls, normalize::irinorm_cow),
    e(op::NORM_ALREADY_NORMAL, "irinorm parse only", Kind::NormalUrls, parse::irinorm_iri_ref),
    e(op::NORM_ALREADY_NORMAL, "lower-case copy", Kind::NormalUrls, floor::lowercase_copy),
    e(op::NORM_ALREADY_NORMAL, "fluent-uri", Kind::NormalUrls, normalize::fluent_uri_ref),
    e(op::NORM_ALREADY_NORMAL, "iri-string", Kind::NormalUrls, normalize::iri_string_uri),
    e(op::NORM_ALREADY_NORMAL, "url (WHATWG)", Kind::NormalUrls, normalize::url_whatwg),
    e(op::NORM_ALREADY_NORMAL, "ada-url (WHATWG)", Kind::NormalUrls, normalize::ada_whatwg),
    // presets (irinorm-rules); the baseline is `rfc`
    e(op::PRESETS, "irinorm rfc", Kind::Urls, presets::rfc),
    e(op::PRESETS, "irinorm fetch", Kind::Urls, presets::fetch),
    e(op::PRESETS, "irinorm crawler", Kind::Urls, presets::crawler),
    e(op::PRESETS, "irinorm aggressive", Kind::Urls, presets::aggressive),
    // key hashing
    e(op::KEY_DIGEST, "irinorm digest", Kind::Urls, keys::irinorm_digest),
    e(op::KEY_DIGEST, "irinorm key_into + Key::of", Kind::Urls, keys::irinorm_key_into),
    e(op::KEY_DIGEST, "irinorm crawler digest", Kind::Urls, keys::crawler_digest),
    // the key of a preset's pipeline; the baseline is `rfc`
    e(op::PIPELINE_KEY, "irinorm rfc key", Kind::Urls, keys::rfc_key_into),
    e(op::PIPELINE_KEY, "irinorm crawler key", Kind::Urls, keys::crawler_key_into),
];

const fn e(op: &'static str, lib: &'static str, kind: Kind, run: Workload) -> Entry {
    Entry { op, lib, kind, run }
}

/// The baseline of an operation: its first entry in [`REGISTRY`]
/// ([`BASELINE`] except where irinorm is compared with itself, as for the
/// presets, whose baseline is `irinorm rfc`).
pub fn baseline(op: &str) -> Option<&'static str> {
    REGISTRY.iter().find(|e| e.op == op).map(|e| e.lib)
}

/// The operation names of [`REGISTRY`], in order, without repeats.
pub fn operations() -> Vec<&'static str> {
    let mut ops: Vec<&'static str> = Vec::new();
    for e in REGISTRY {
        if !ops.contains(&e.op) {
            ops.push(e.op);
        }
    }
    ops
}

/// Floors: what any pass over the same bytes costs (issue 14's yardstick).
pub mod floor {
    use super::{black_box, Checksum, Inputs};

    /// Copies each URL into a reused buffer, ASCII letters lower-cased: one
    /// read and one write of every byte, the loop vectorised by the
    /// compiler, no validation. Issue 14 asks that already-normal input
    /// cost at most twice this.
    pub fn lowercase_copy(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        let mut out: Vec<u8> = Vec::new();
        for s in &inp.urls {
            out.clear();
            out.extend(black_box(s.as_bytes()).iter().map(u8::to_ascii_lowercase));
            c.accept(black_box(&out).len());
        }
        c.finish()
    }
}

/// Parsing workloads: validate every line of the list; the checksum mixes
/// the path length of each accepted line (every parser must find it).
pub mod parse {
    use super::{black_box, Checksum, Inputs};

    /// irinorm, `URI-reference`.
    pub fn irinorm_uri_ref(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            let s = black_box(s.as_str());
            match irinorm::parse(s, irinorm::Grammar::UriReference) {
                Ok(m) => c.accept(m.path(s).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// irinorm, `IRI-reference`.
    pub fn irinorm_iri_ref(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            let s = black_box(s.as_str());
            match irinorm::parse(s, irinorm::Grammar::IriReference) {
                Ok(m) => c.accept(m.path(s).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// `fluent_uri::UriRef::parse`.
    pub fn fluent_uri_ref(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            match fluent_uri::UriRef::parse(black_box(s.as_str())) {
                Ok(r) => c.accept(r.path().as_str().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// `fluent_uri::IriRef::parse`.
    pub fn fluent_iri_ref(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            match fluent_uri::IriRef::parse(black_box(s.as_str())) {
                Ok(r) => c.accept(r.path().as_str().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// `oxiri::IriRef::parse`.
    pub fn oxiri_iri_ref(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            match oxiri::IriRef::parse(black_box(s.as_str())) {
                Ok(r) => c.accept(r.path().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// `iri_string::types::UriReferenceStr::new`.
    pub fn iri_string_uri_ref(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            match iri_string::types::UriReferenceStr::new(black_box(s.as_str())) {
                Ok(r) => c.accept(r.path_str().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// `iri_string::types::IriReferenceStr::new`.
    pub fn iri_string_iri_ref(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            match iri_string::types::IriReferenceStr::new(black_box(s.as_str())) {
                Ok(r) => c.accept(r.path_str().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// `url::Url::parse`: WHATWG URL Standard, absolute URLs only, and it
    /// normalizes into a new allocation. Not the same grammar: a reference
    /// point, not a like-for-like comparison.
    pub fn url_whatwg(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            match url::Url::parse(black_box(s.as_str())) {
                Ok(u) => c.accept(u.path().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// `ada_url::Url::parse` (C++ ada through FFI): WHATWG, like [`url_whatwg`].
    pub fn ada_whatwg(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            match ada_url::Url::parse(black_box(s.as_str()), None) {
                Ok(u) => c.accept(u.pathname().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }
}

/// Resolution workloads on (base, relative) pairs: parse both, resolve,
/// produce the target text. The checksum mixes each target's length.
/// Where a library can write into a caller's buffer, one `String` is
/// reused for the whole pass; otherwise it allocates each target.
pub mod resolve {
    use super::{black_box, Checksum, Inputs};
    use std::fmt::Write as _;

    // Inlined so that each workload is one function (profilers see it).
    #[inline(always)]
    fn irinorm_with(inp: &Inputs, base_g: irinorm::Grammar, ref_g: irinorm::Grammar) -> u64 {
        let mut c = Checksum::new();
        let mut out = String::new();
        for (base, rel) in &inp.pairs {
            let (base, rel) = (black_box(base.as_str()), black_box(rel.as_str()));
            let Ok(bm) = irinorm::parse(base, base_g) else {
                c.reject();
                continue;
            };
            let Ok(rm) = irinorm::parse(rel, ref_g) else {
                c.reject();
                continue;
            };
            out.clear();
            irinorm::resolve_into(base, &bm, rel, &rm, &mut out);
            c.accept(black_box(&out).len());
        }
        c.finish()
    }

    /// irinorm: base `URI`, reference `URI-reference`, `resolve_into` a reused `String`.
    pub fn irinorm_uri(inp: &Inputs) -> u64 {
        irinorm_with(inp, irinorm::Grammar::Uri, irinorm::Grammar::UriReference)
    }

    /// irinorm: base `IRI`, reference `IRI-reference`, `resolve_into` a reused `String`.
    pub fn irinorm_iri(inp: &Inputs) -> u64 {
        irinorm_with(inp, irinorm::Grammar::Iri, irinorm::Grammar::IriReference)
    }

    /// irinorm's typed API: `Iri::parse(base)?.resolve(&IriRef::parse(rel)?)`,
    /// which allocates each target (an `IriBuf`).
    pub fn irinorm_iri_typed(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for (base, rel) in &inp.pairs {
            let (Ok(b), Ok(r)) = (
                irinorm::Iri::parse(black_box(base.as_str())),
                irinorm::IriRef::parse(black_box(rel.as_str())),
            ) else {
                c.reject();
                continue;
            };
            c.accept(black_box(b.resolve(&r)).as_str().len());
        }
        c.finish()
    }

    /// oxiri: `Iri::parse(base)?.resolve_into(&IriRef::parse(rel)?, &mut buf)`
    /// (a reused `String`; oxiri validates while it resolves).
    pub fn oxiri_iri(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        let mut out = String::new();
        for (base, rel) in &inp.pairs {
            let (Ok(b), Ok(r)) = (
                oxiri::Iri::parse(black_box(base.as_str())),
                oxiri::IriRef::parse(black_box(rel.as_str())),
            ) else {
                c.reject();
                continue;
            };
            out.clear();
            match b.resolve_into(&r, &mut out) {
                Ok(()) => c.accept(black_box(&out).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// fluent-uri: `UriRef::parse(rel)?.resolve_against(&Uri::parse(base)?)`
    /// (allocates each target; rejects bases with a fragment).
    pub fn fluent_uri(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for (base, rel) in &inp.pairs {
            let (Ok(b), Ok(r)) = (
                fluent_uri::Uri::parse(black_box(base.as_str())),
                fluent_uri::UriRef::parse(black_box(rel.as_str())),
            ) else {
                c.reject();
                continue;
            };
            match r.resolve_against(&b) {
                Ok(t) => c.accept(black_box(t).as_str().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// fluent-uri: `IriRef::parse(rel)?.resolve_against(&Iri::parse(base)?)`.
    pub fn fluent_iri(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for (base, rel) in &inp.pairs {
            let (Ok(b), Ok(r)) = (
                fluent_uri::Iri::parse(black_box(base.as_str())),
                fluent_uri::IriRef::parse(black_box(rel.as_str())),
            ) else {
                c.reject();
                continue;
            };
            match r.resolve_against(&b) {
                Ok(t) => c.accept(black_box(t).as_str().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// iri-string: `UriReferenceStr::new(rel)?.resolve_against(UriStr::new(base)?.to_absolute())`,
    /// written (`Display`) into a reused `String`. The base's fragment is
    /// dropped with `to_absolute`, as RFC 3986 §5.2.1 says.
    pub fn iri_string_uri(inp: &Inputs) -> u64 {
        use iri_string::types::{UriReferenceStr, UriStr};
        let mut c = Checksum::new();
        let mut out = String::new();
        for (base, rel) in &inp.pairs {
            let (Ok(b), Ok(r)) = (
                UriStr::new(black_box(base.as_str())),
                UriReferenceStr::new(black_box(rel.as_str())),
            ) else {
                c.reject();
                continue;
            };
            out.clear();
            match write!(out, "{}", r.resolve_against(b.to_absolute())) {
                Ok(()) => c.accept(black_box(&out).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// iri-string, IRI types (as [`iri_string_uri`]).
    pub fn iri_string_iri(inp: &Inputs) -> u64 {
        use iri_string::types::{IriReferenceStr, IriStr};
        let mut c = Checksum::new();
        let mut out = String::new();
        for (base, rel) in &inp.pairs {
            let (Ok(b), Ok(r)) = (
                IriStr::new(black_box(base.as_str())),
                IriReferenceStr::new(black_box(rel.as_str())),
            ) else {
                c.reject();
                continue;
            };
            out.clear();
            match write!(out, "{}", r.resolve_against(b.to_absolute())) {
                Ok(()) => c.accept(black_box(&out).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// url: `Url::parse(base)?.join(rel)` (WHATWG; normalizes; allocates).
    pub fn url_whatwg(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for (base, rel) in &inp.pairs {
            let t = url::Url::parse(black_box(base.as_str()))
                .and_then(|b| b.join(black_box(rel.as_str())));
            match t {
                Ok(t) => c.accept(black_box(t).as_str().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// ada-url: `Url::parse(rel, Some(base))` (WHATWG; normalizes).
    pub fn ada_whatwg(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for (base, rel) in &inp.pairs {
            match ada_url::Url::parse(black_box(rel.as_str()), Some(black_box(base.as_str()))) {
                Ok(t) => c.accept(black_box(t).href().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }
}

/// Normalization workloads: parse, normalize and serialize every line.
/// irinorm writes into one reused `String` (`Normalizer::normalize_into`);
/// the peers use their normalizing API and produce the text. The checksum
/// mixes each normal form's length.
///
/// What each peer does is not the same normalization: fluent-uri's
/// `normalize` is RFC 3986 §6.2.2 plus default-port removal (no IDN, no
/// scheme rules); iri-string's is §6.2.2 on absolute IRIs only (relative
/// references count as rejected); `url` and ada-url apply the WHATWG URL
/// Standard (IDNA included) to absolute URLs only.
pub mod normalize {
    use super::{black_box, Checksum, Inputs};
    use irinorm::ladder::{Form, Normalizer, Options, Rung};
    use std::fmt::Write as _;

    /// The normalizer for a rung (0, 1, 2) and form (0 `uri`, 1 `iri`).
    pub fn normalizer(rung: u8, form: u8) -> Normalizer {
        let rung = match rung {
            0 => Rung::String,
            1 => Rung::Syntax,
            _ => Rung::Scheme,
        };
        let form = if form == 0 { Form::Uri } else { Form::Iri };
        Normalizer::new(Options::new(rung, form))
    }

    /// irinorm: `Normalizer::normalize_into` a reused `String`, at rung
    /// `R` (0 string, 1 syntax, 2 scheme) and form `F` (0 uri, 1 iri).
    pub fn irinorm<const R: u8, const F: u8>(inp: &Inputs) -> u64 {
        let n = normalizer(R, F);
        let mut c = Checksum::new();
        let mut out = String::new();
        for s in &inp.urls {
            out.clear();
            match n.normalize_into(black_box(s.as_str()), &mut out) {
                Ok(_) => c.accept(black_box(&out).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// irinorm, rung 2 `uri`, `Normalizer::normalize`: a `Cow` borrowed
    /// from the input when it is already normal.
    pub fn irinorm_cow(inp: &Inputs) -> u64 {
        let n = normalizer(2, 0);
        let mut c = Checksum::new();
        for s in &inp.urls {
            match n.normalize(black_box(s.as_str())) {
                Ok(t) => c.accept(black_box(t).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// fluent-uri: `UriRef::parse(s)?.normalize()` (allocates the result).
    pub fn fluent_uri_ref(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            match fluent_uri::UriRef::parse(black_box(s.as_str())) {
                Ok(r) => c.accept(black_box(r.normalize()).as_str().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// fluent-uri: `IriRef::parse(s)?.normalize()`.
    pub fn fluent_iri_ref(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            match fluent_uri::IriRef::parse(black_box(s.as_str())) {
                Ok(r) => c.accept(black_box(r.normalize()).as_str().len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// iri-string: `UriStr::new(s)?.normalize()` written (`Display`) into a
    /// reused `String`. Absolute URIs only (with fragment).
    pub fn iri_string_uri(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        let mut out = String::new();
        for s in &inp.urls {
            let Ok(u) = iri_string::types::UriStr::new(black_box(s.as_str())) else {
                c.reject();
                continue;
            };
            out.clear();
            match write!(out, "{}", u.normalize()) {
                Ok(()) => c.accept(black_box(&out).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// iri-string: `IriStr::new(s)?.normalize()`, as [`iri_string_uri`].
    pub fn iri_string_iri(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        let mut out = String::new();
        for s in &inp.urls {
            let Ok(u) = iri_string::types::IriStr::new(black_box(s.as_str())) else {
                c.reject();
                continue;
            };
            out.clear();
            match write!(out, "{}", u.normalize()) {
                Ok(()) => c.accept(black_box(&out).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// url: `Url::parse(s)?.as_str()` (WHATWG parse + serialize).
    pub fn url_whatwg(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            match url::Url::parse(black_box(s.as_str())) {
                Ok(u) => c.accept(black_box(u.as_str()).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// ada-url: `Url::parse(s, None)?.href()` (WHATWG parse + serialize).
    pub fn ada_whatwg(inp: &Inputs) -> u64 {
        let mut c = Checksum::new();
        for s in &inp.urls {
            match ada_url::Url::parse(black_box(s.as_str()), None) {
                Ok(u) => c.accept(black_box(u.href()).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }
}

/// The presets of irinorm-rules: `Pipeline::preset(p).normalize_into` a
/// reused `String` (rung 2, `uri` form, then the preset's rules). Each
/// preset's pipeline is built once per process, as a crawler or the CLI
/// builds it, not once per pass: building compiles the preset's name
/// tables (the query filter's alone is about 26,000 instructions), which
/// on the 371 URLs of `len 161+` weighed 38-70 instructions per URL on
/// presets with different tables (issue 14, round 7).
pub mod presets {
    use std::sync::OnceLock;

    use super::{black_box, Checksum, Inputs};
    use irinorm_rules::{Pipeline, Preset};

    /// The pipeline of `p`, built on first use.
    fn pipeline(p: Preset) -> &'static Pipeline {
        static BUILT: [OnceLock<Pipeline>; 5] = [const { OnceLock::new() }; 5];
        let i = match p {
            Preset::Rfc => 0,
            Preset::Fetch => 1,
            Preset::Crawler => 2,
            Preset::Aggressive => 3,
            Preset::Safebrowsing => 4,
        };
        BUILT[i].get_or_init(|| Pipeline::preset(p))
    }

    #[inline(always)]
    fn run(inp: &Inputs, p: Preset) -> u64 {
        let pipe = pipeline(p);
        let mut c = Checksum::new();
        let mut out = String::new();
        let mut applied = Vec::new();
        for s in &inp.urls {
            out.clear();
            applied.clear();
            match pipe.normalize_into(black_box(s.as_str()), &mut out, &mut applied) {
                Ok(_) => c.accept(black_box(&out).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// `rfc`: rung 2 and nothing else.
    pub fn rfc(inp: &Inputs) -> u64 {
        run(inp, Preset::Rfc)
    }

    /// `fetch`: `rfc` + remove-fragment.
    pub fn fetch(inp: &Inputs) -> u64 {
        run(inp, Preset::Fetch)
    }

    /// `crawler`: `fetch` + remove-trailing-host-dot, decode-ipv4-forms,
    /// remove-query-params (tracking).
    pub fn crawler(inp: &Inputs) -> u64 {
        run(inp, Preset::Crawler)
    }

    /// `aggressive`: `crawler` + every unsafe rule with a default.
    pub fn aggressive(inp: &Inputs) -> u64 {
        run(inp, Preset::Aggressive)
    }
}

/// Comparison keys hashed to 128 bits; the checksum mixes the low bits of
/// each digest.
pub mod keys {
    use super::{black_box, Checksum, Inputs};
    use irinorm::ladder::{Key, Normalizer, Options};
    use irinorm_rules::{Pipeline, Preset};

    /// `Normalizer::digest` at rung 2.
    pub fn irinorm_digest(inp: &Inputs) -> u64 {
        let n = Normalizer::new(Options::default());
        let mut c = Checksum::new();
        for s in &inp.urls {
            match n.digest(black_box(s.as_str())) {
                Ok(k) => c.accept(black_box(k).0 as usize),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// `Normalizer::key_into` a reused `String`, then `Key::of` (the same
    /// digests as [`irinorm_digest`]).
    pub fn irinorm_key_into(inp: &Inputs) -> u64 {
        let n = Normalizer::new(Options::default());
        let mut c = Checksum::new();
        let mut out = String::new();
        for s in &inp.urls {
            out.clear();
            match n.key_into(black_box(s.as_str()), &mut out) {
                Ok(()) => c.accept(black_box(Key::of(&out)).0 as usize),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// `Pipeline::key_into` of `p` into a reused `String`.
    #[inline(always)]
    fn pipeline_key_into(inp: &Inputs, p: Preset) -> u64 {
        let p = Pipeline::preset(p);
        let mut c = Checksum::new();
        let mut out = String::new();
        for s in &inp.urls {
            out.clear();
            match p.key_into(black_box(s.as_str()), &mut out) {
                Ok(()) => c.accept(black_box(&out).len()),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }

    /// `Pipeline::key_into` with the `rfc` preset.
    pub fn rfc_key_into(inp: &Inputs) -> u64 {
        pipeline_key_into(inp, Preset::Rfc)
    }

    /// `Pipeline::key_into` with the `crawler` preset (`dedupe --preset
    /// crawler`'s key).
    pub fn crawler_key_into(inp: &Inputs) -> u64 {
        pipeline_key_into(inp, Preset::Crawler)
    }

    /// `Pipeline::digest` with the `crawler` preset.
    pub fn crawler_digest(inp: &Inputs) -> u64 {
        let p = Pipeline::preset(Preset::Crawler);
        let mut c = Checksum::new();
        for s in &inp.urls {
            match p.digest(black_box(s.as_str())) {
                Ok(k) => c.accept(black_box(k).0 as usize),
                Err(_) => c.reject(),
            }
        }
        c.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> (Inputs, Inputs) {
        let urls = Inputs {
            name: "tiny".into(),
            urls: vec![
                "http://a/b?c#d".into(),
                "/x y".into(),
                "http://例え.jp/".into(),
            ],
            ..Inputs::default()
        };
        let pairs = Inputs {
            name: "tiny-pairs".into(),
            pairs: vec![
                ("http://a/b/c/d;p?q".into(), "../g".into()),
                ("http://a/b".into(), "g".into()),
            ],
            ..Inputs::default()
        };
        (urls, pairs)
    }

    #[test]
    fn every_entry_runs_and_counts() {
        let (urls, pairs) = tiny();
        for e in REGISTRY {
            let inp = match e.kind {
                Kind::Urls | Kind::NormalUrls => &urls,
                Kind::Pairs => &pairs,
            };
            let sum = (e.run)(inp);
            let n = Checksum::accepted(sum) as usize;
            assert!(n <= inp.items(), "{} {}", e.op, e.lib);
            // Each workload is deterministic.
            assert_eq!(sum, (e.run)(inp), "{} {}", e.op, e.lib);
        }
    }

    #[test]
    fn rfc_parsers_agree_on_tiny_input() {
        let (urls, pairs) = tiny();
        let n = |f: Workload, i: &Inputs| Checksum::accepted(f(i));
        assert_eq!(n(parse::irinorm_uri_ref, &urls), 1);
        assert_eq!(n(parse::fluent_uri_ref, &urls), 1);
        assert_eq!(n(parse::irinorm_iri_ref, &urls), 2);
        assert_eq!(n(parse::oxiri_iri_ref, &urls), 2);
        assert_eq!(n(parse::fluent_iri_ref, &urls), 2);
        // Same targets, same checksums.
        assert_eq!(resolve::irinorm_iri(&pairs), resolve::oxiri_iri(&pairs));
        assert_eq!(resolve::irinorm_uri(&pairs), resolve::fluent_uri(&pairs));
    }

    #[test]
    fn baseline_first_in_each_operation() {
        for op in operations() {
            let first = baseline(op).unwrap_or_default();
            assert!(first.starts_with(BASELINE), "{op}: {first}");
            // One kind per operation (the binary groups by it).
            let kind = REGISTRY.iter().find(|e| e.op == op).map(|e| e.kind);
            assert!(REGISTRY.iter().all(|e| e.op != op || Some(e.kind) == kind));
        }
    }

    #[test]
    fn normal_set_is_normal() {
        let (urls, _) = tiny();
        let normal = normal_set(&urls.urls);
        assert_eq!(normal.kind(), Kind::NormalUrls);
        assert_eq!(normal.urls, ["http://a/b?c#d", "http://xn--r8jz45g.jp/"]);
        let n = normalize::normalizer(2, 0);
        for s in &normal.urls {
            assert!(
                matches!(n.normalize(s), Ok(std::borrow::Cow::Borrowed(_))),
                "{s}"
            );
        }
    }

    #[test]
    fn normalizers_agree_where_they_should() {
        let inp = Inputs {
            name: "agree".into(),
            urls: vec!["HTTP://A.example:80/%7ex/./y/../z?q#f".into()],
            ..Inputs::default()
        };
        // http://a.example/~x/z?q#f (WHATWG keeps `%7e`: not on this one).
        let want = normalize::irinorm::<2, 0>(&inp);
        assert_eq!(normalize::fluent_uri_ref(&inp), want);
        assert_eq!(presets::rfc(&inp), want);
        let inp = Inputs {
            name: "agree".into(),
            urls: vec!["HTTP://A.example:80/x/./y/../z?q#f".into()],
            ..Inputs::default()
        };
        let want = normalize::irinorm::<2, 0>(&inp);
        assert_eq!(normalize::url_whatwg(&inp), want);
        assert_eq!(normalize::ada_whatwg(&inp), want);
        assert_eq!(
            normalize::iri_string_uri(&inp),
            normalize::irinorm::<1, 0>(&inp)
        );
    }
}
