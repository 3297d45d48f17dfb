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
    /// One string per item ([`Inputs::urls`]).
    Urls,
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
}

impl Inputs {
    /// What kind of workload this data set feeds.
    pub fn kind(&self) -> Kind {
        if self.pairs.is_empty() {
            Kind::Urls
        } else {
            Kind::Pairs
        }
    }

    /// Number of items (URLs or pairs).
    pub fn items(&self) -> usize {
        match self.kind() {
            Kind::Urls => self.urls.len(),
            Kind::Pairs => self.pairs.len(),
        }
    }

    /// Input bytes per pass (for MB/s): the URLs' lengths, or both strings
    /// of each pair.
    pub fn bytes(&self) -> usize {
        match self.kind() {
            Kind::Urls => self.urls.iter().map(String::len).sum(),
            Kind::Pairs => self.pairs.iter().map(|(b, r)| b.len() + r.len()).sum(),
        }
    }
}

/// The name of the mixed data set (every `.txt` corpus concatenated).
pub const ALL: &str = "all";
/// The name of the resolution data set.
pub const RELATIVE: &str = "relative_urls_cc_10k";

/// Loads every data set: each `.txt` corpus, `all` (their concatenation in
/// name order) and the relative pairs. `None` when the corpora are absent
/// (see `irinorm_testdata::vectors_dir` for the policy).
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
            pairs: Vec::new(),
        });
    }
    sets.push(Inputs {
        name: ALL.to_owned(),
        urls: all,
        pairs: Vec::new(),
    });
    sets.push(Inputs {
        name: RELATIVE.to_owned(),
        urls: Vec::new(),
        pairs,
    });
    Some(sets)
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

/// The library every ratio is relative to.
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
}

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
];

const fn e(op: &'static str, lib: &'static str, kind: Kind, run: Workload) -> Entry {
    Entry { op, lib, kind, run }
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
            pairs: Vec::new(),
        };
        let pairs = Inputs {
            name: "tiny-pairs".into(),
            urls: Vec::new(),
            pairs: vec![
                ("http://a/b/c/d;p?q".into(), "../g".into()),
                ("http://a/b".into(), "g".into()),
            ],
        };
        (urls, pairs)
    }

    #[test]
    fn every_entry_runs_and_counts() {
        let (urls, pairs) = tiny();
        for e in REGISTRY {
            let inp = match e.kind {
                Kind::Urls => &urls,
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
            let first = REGISTRY.iter().find(|e| e.op == op).map(|e| e.lib);
            assert_eq!(first, Some(BASELINE), "{op}");
        }
    }
}
