//! Differential tests of rung `syntax` against fluent-uri 0.4 and
//! iri-string 0.7 (`normalize()`), on every line of the text corpora and on
//! generated references (`ladder_gen`), in both forms.
//!
//! For `uri` form the libraries get the URI that RFC 3987 §3.1 maps the
//! input to (`irinorm::iri_to_uri`, as LADDER.md rung 1 does first) and
//! their URI types; for `iri` form, the input and their IRI types.
//! iri-string normalizes only references with a scheme (`UriStr`,
//! `IriStr`); fluent-uri normalizes every reference (`UriRef`, `IriRef`).
//! Inputs a library does not parse are counted, not compared (parse
//! differences are in the parse section of docs/known-differences.md).
//!
//! Every disagreement must be explained by the known classes below, each a
//! precise transformation of irinorm's output that models one thing the
//! library does differently (docs/known-differences.md, "Normalization
//! (syntax rung)"): a disagreement is explained when applying the classes
//! that apply turns irinorm's output into the library's exactly. Anything
//! else fails the test: a new class, or an irinorm bug.

mod ladder_gen;

use std::collections::BTreeMap;
use std::net::Ipv6Addr;
use std::str::FromStr;

use iri_string::format::ToDedicatedString;
use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm::{iri_to_uri, parse, ucs, Components, Grammar};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Lib {
    FluentUri,
    FluentIri,
    IriStringUri,
    IriStringIri,
}

impl Lib {
    const ALL: [Lib; 4] = [
        Lib::FluentUri,
        Lib::FluentIri,
        Lib::IriStringUri,
        Lib::IriStringIri,
    ];
    fn form(self) -> Form {
        match self {
            Lib::FluentUri | Lib::IriStringUri => Form::Uri,
            Lib::FluentIri | Lib::IriStringIri => Form::Iri,
        }
    }
    fn fluent(self) -> bool {
        matches!(self, Lib::FluentUri | Lib::FluentIri)
    }
    fn name(self) -> &'static str {
        match self {
            Lib::FluentUri => "fluent-uri UriRef",
            Lib::FluentIri => "fluent-uri IriRef",
            Lib::IriStringUri => "iri-string UriStr",
            Lib::IriStringIri => "iri-string IriStr",
        }
    }
    /// The library's normal form of `x` (already mapped for `uri` form);
    /// `None` when it does not parse it.
    fn normalize(self, x: &str) -> Option<String> {
        match self {
            Lib::FluentUri => fluent_uri::UriRef::parse(x)
                .ok()
                .map(|r| r.normalize().as_str().to_owned()),
            Lib::FluentIri => fluent_uri::IriRef::parse(x)
                .ok()
                .map(|r| r.normalize().as_str().to_owned()),
            Lib::IriStringUri => iri_string::types::UriStr::new(x)
                .ok()
                .map(|r| r.normalize().to_dedicated_string().as_str().to_owned()),
            Lib::IriStringIri => iri_string::types::IriStr::new(x)
                .ok()
                .map(|r| r.normalize().to_dedicated_string().as_str().to_owned()),
        }
    }
}

// ---------------------------------------------------------------------------
// Rewriting components of irinorm's output
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, Default)]
struct Parts {
    scheme: Option<String>,
    userinfo: Option<String>,
    host: Option<String>,
    port: Option<String>,
    path: String,
    query: Option<String>,
    fragment: Option<String>,
}

impl Parts {
    fn of(s: &str) -> Parts {
        let m = parse(s, Grammar::IriReference).unwrap_or_else(|e| panic!("{s:?}: {e}"));
        let c = Components::of(s, &m);
        let own = |x: Option<&str>| x.map(str::to_owned);
        Parts {
            scheme: own(c.scheme),
            userinfo: own(c.userinfo),
            host: own(c.host),
            port: own(c.port),
            path: c.path.to_owned(),
            query: own(c.query),
            fragment: own(c.fragment),
        }
    }
    fn text(&self) -> String {
        let mut s = String::new();
        if let Some(x) = &self.scheme {
            s.push_str(x);
            s.push(':');
        }
        if let Some(h) = &self.host {
            s.push_str("//");
            if let Some(u) = &self.userinfo {
                s.push_str(u);
                s.push('@');
            }
            s.push_str(h);
            if let Some(p) = &self.port {
                s.push(':');
                s.push_str(p);
            }
        }
        s.push_str(&self.path);
        if let Some(q) = &self.query {
            s.push('?');
            s.push_str(q);
        }
        if let Some(f) = &self.fragment {
            s.push('#');
            s.push_str(f);
        }
        s
    }
}

fn syntax(form: Form) -> Normalizer {
    Normalizer::new(Options::new(Rung::Syntax, form))
}

/// What a class sees.
struct Ctx<'a> {
    lib: Lib,
    /// The input as given to the library.
    input: &'a str,
    theirs: &'a str,
}

/// A known disagreement: its name, the libraries it concerns, and the
/// rewrite of irinorm's output that models it.
struct Class {
    name: &'static str,
    applies: fn(Lib) -> bool,
    rewrite: fn(&str, &Ctx<'_>) -> String,
}

/// The bidi formatting characters (RFC 3987 §4.1) irinorm keeps encoded.
const BIDI: [char; 12] = [
    '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
];

fn encoded(c: char) -> String {
    let mut b = [0u8; 4];
    c.encode_utf8(&mut b)
        .bytes()
        .map(|x| format!("%{x:02X}"))
        .collect()
}

/// iri-string's `is_ascii_only_host`: no non-ASCII character and no triplet
/// of a byte >= 0x80.
fn ascii_only_host(h: &str) -> bool {
    let b = h.as_bytes();
    h.is_ascii()
        && !(0..b.len()).any(|i| {
            b[i] == b'%'
                && i + 2 < b.len()
                && u8::from_str_radix(&h[i + 1..i + 3], 16).is_ok_and(|v| v >= 0x80)
        })
}

/// A path with every dot segment (after decoding unreserved triplets)
/// replaced by a placeholder, normalized by irinorm, and restored: rung 1
/// on the path without dot-segment removal.
fn path_keeping_dots(input: &str, form: Form) -> Option<String> {
    let m = parse(input, Grammar::IriReference).ok()?;
    let c = Components::of(input, &m);
    let segs: Vec<String> = c
        .path
        .split('/')
        .map(|s| match &*irinorm::pct::decode(s) {
            b"." => "zqdotone".to_owned(),
            b".." => "zqdottwo".to_owned(),
            _ => s.to_owned(),
        })
        .collect();
    let mut p = Parts::of(input);
    p.path = segs.join("/");
    let text = p.text();
    let out = syntax(form).normalize(&text).ok()?;
    Some(
        Parts::of(&out)
            .path
            .replace("zqdotone", ".")
            .replace("zqdottwo", ".."),
    )
}

/// The query of `input` normalized by irinorm (iri form) except that
/// percent-encoded `iprivate` stays encoded (upper-case hex).
fn query_keeping_iprivate_encoded(input: &str) -> Option<String> {
    let m = parse(input, Grammar::IriReference).ok()?;
    let q = m.query(input)?;
    let b = q.as_bytes();
    let triplet = |i: usize| -> Option<u8> {
        (i + 2 < b.len() && b[i] == b'%')
            .then(|| u8::from_str_radix(&q[i + 1..i + 3], 16).ok())
            .flatten()
    };
    let mut out = String::new();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let lead = triplet(i);
        let n = match lead {
            Some(0xEE | 0xEF) => 3,
            Some(0xF3 | 0xF4) => 4,
            _ => 0,
        };
        let bytes: Option<Vec<u8>> = (0..n).map(|k| triplet(i + 3 * k)).collect();
        let ch = bytes
            .filter(|v| v.len() == n && n > 0)
            .and_then(|v| String::from_utf8(v).ok())
            .and_then(|s| s.chars().next())
            .filter(|c| ucs::is_iprivate(*c as u32));
        match ch {
            Some(c) => {
                out.push_str(&format!("zqpv{}z", kept.len()));
                kept.push(encoded(c));
                i += 3 * n;
            }
            None => {
                let c = q[i..].chars().next()?;
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    let mut p = Parts::of(input);
    p.query = Some(out);
    let text = p.text();
    let normal = syntax(Form::Iri).normalize(&text).ok()?;
    let mut nq = Parts::of(&normal).query?;
    for (k, t) in kept.iter().enumerate().rev() {
        nq = nq.replace(&format!("zqpv{k}z"), t);
    }
    Some(nq)
}

const CLASSES: &[Class] = &[
    Class {
        // LADDER.md: "`http://a:/` keeps `:` at this rung"; rung 2 removes
        // it. Both libraries drop an empty port while normalizing.
        name: "empty port removed",
        applies: |_| true,
        rewrite: |ours, _| {
            let mut p = Parts::of(ours);
            if p.port.as_deref() == Some("") {
                p.port = None;
            }
            p.text()
        },
    },
    Class {
        // fluent-uri removes a port equal to its scheme table's default
        // (`Scheme::default_port`); LADDER.md does that at rung 2 only.
        name: "default port removed (fluent-uri's table)",
        applies: Lib::fluent,
        rewrite: |ours, cx| {
            let mut p = Parts::of(ours);
            let default = fluent_uri::UriRef::parse(cx.input)
                .ok()
                .and_then(|r| r.scheme().and_then(|s| s.default_port()))
                .or_else(|| {
                    fluent_uri::IriRef::parse(cx.input)
                        .ok()
                        .and_then(|r| r.scheme().and_then(|s| s.default_port()))
                });
            if let (Some(d), Some(port)) = (default, &p.port) {
                if port.parse::<u16>().ok() == Some(d) {
                    p.port = None;
                }
            }
            p.text()
        },
    },
    Class {
        // fluent-uri writes IPv6 addresses in RFC 5952 form (as
        // `std::net::Ipv6Addr` displays them); LADDER.md does that at
        // rung 2, rung 1 only lower-cases.
        name: "IPv6 in RFC 5952 form",
        applies: Lib::fluent,
        rewrite: |ours, _| {
            let mut p = Parts::of(ours);
            if let Some(h) = &p.host {
                if let Some(inner) = h.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
                    if let Ok(a) = Ipv6Addr::from_str(inner) {
                        p.host = Some(format!("[{a}]"));
                    }
                }
            }
            p.text()
        },
    },
    Class {
        // fluent-uri removes dot segments only from a reference that has a
        // scheme and an absolute path; LADDER.md rung 1 removes them from
        // every hierarchical path and from relative references (leading
        // `..` of a relative path stay). The rootless path of an absolute
        // URI is opaque for both (irinorm keeps it: the rewrite is then
        // the identity).
        name: "dot segments kept without scheme or in a rootless path",
        applies: Lib::fluent,
        rewrite: |ours, cx| {
            let m = parse(cx.input, Grammar::IriReference).unwrap();
            let c = Components::of(cx.input, &m);
            if c.scheme.is_some() && c.path.starts_with('/') {
                return ours.to_owned();
            }
            let mut p = Parts::of(ours);
            match path_keeping_dots(cx.input, cx.lib.form()) {
                Some(path) => p.path = path,
                None => return ours.to_owned(),
            }
            p.text()
        },
    },
    Class {
        // iri-string applies RFC 3986 §5.2.4 to the rootless path of an
        // absolute URI too (`urn:a/../b` -> `urn:/b`); LADDER.md rung 1
        // keeps that path as it is: it is opaque (`urn:isbn:1/../x` and
        // `urn:issn:1/../x` must not merge), issue 16, and keeps `%2E` /
        // `%2E%2E` segments encoded there.
        name: "dot segments removed from a rootless path",
        applies: |l| !l.fluent(),
        rewrite: |ours, _| {
            let mut p = Parts::of(ours);
            if p.scheme.is_none() || p.host.is_some() || p.path.starts_with('/') {
                return ours.to_owned();
            }
            // iri-string decodes `%2E` first; irinorm keeps the triplets of
            // a segment that would decode to a dot segment there.
            let decoded: Vec<String> = p
                .path
                .split('/')
                .map(|s| match &*irinorm::pct::decode(s) {
                    b"." => ".".to_owned(),
                    b".." => "..".to_owned(),
                    _ => s.to_owned(),
                })
                .collect();
            let mut out = String::new();
            irinorm::path::remove_dot_segments(&decoded.join("/"), &mut out);
            // Both keep the structure with `/.` (RFC 3986 §5.2.4 note).
            if out.starts_with("//") {
                out.insert_str(0, "/.");
            }
            p.path = out;
            p.text()
        },
    },
    Class {
        // iri-string does not decode percent-encoded `iprivate` in the
        // query (it keeps literal ones); RFC 3987 §2.2 allows `iprivate`
        // there and LADDER.md rung 1 (iri form) decodes it.
        name: "iprivate kept encoded in the query",
        applies: |l| l == Lib::IriStringIri,
        rewrite: |ours, cx| {
            let mut p = Parts::of(ours);
            if p.query.is_some() {
                if let Some(q) = query_keeping_iprivate_encoded(cx.input) {
                    p.query = Some(q);
                }
            }
            p.text()
        },
    },
    Class {
        // Both libraries decode percent-encoded bidi formatting characters
        // in IRIs (they are `ucschar`) and leave literal ones; RFC 3987 §4.1
        // and LADDER.md keep them percent-encoded in `iri` form.
        name: "bidi formatting characters decoded in iri form",
        applies: |l| l.form() == Form::Iri,
        rewrite: |ours, _| {
            let mut s = ours.to_owned();
            for c in BIDI {
                s = s.replace(&encoded(c), &c.to_string());
            }
            s
        },
    },
    Class {
        // iri-string lower-cases a reg-name only when it is "ASCII only"
        // (no non-ASCII character, no triplet of a byte >= 0x80);
        // RFC 3986 §6.2.2.1 and LADDER.md lower-case every ASCII letter of
        // every host. Only the case of ASCII letters may differ.
        name: "host case kept when the host has non-ASCII",
        applies: |l| !l.fluent(),
        rewrite: |ours, cx| {
            let mut p = Parts::of(ours);
            let t = Parts::of(cx.theirs);
            let input_host = parse(cx.input, Grammar::IriReference)
                .ok()
                .and_then(|m| m.host(cx.input).map(str::to_owned));
            if let (Some(h), Some(th), Some(ih)) = (&p.host, &t.host, input_host) {
                if !ascii_only_host(&ih) && h.eq_ignore_ascii_case(th) {
                    p.host = Some(th.clone());
                }
            }
            p.text()
        },
    },
];

// ---------------------------------------------------------------------------
// The comparison
// ---------------------------------------------------------------------------

#[derive(Default)]
struct Stats {
    compared: usize,
    agree: usize,
    not_parsed_by_lib: usize,
    /// iri-string: references without a scheme (it normalizes only
    /// `RiStr`, which requires one).
    relative_skipped: usize,
    not_parsed_by_irinorm: usize,
    classes: BTreeMap<&'static str, (usize, String)>,
    unexplained: Vec<String>,
}

fn compare(x: &str, stats: &mut BTreeMap<Lib, Stats>) {
    for lib in Lib::ALL {
        let st = stats.entry(lib).or_default();
        let form = lib.form();
        let Ok(ours) = syntax(form).normalize(x) else {
            st.not_parsed_by_irinorm += usize::from(lib.normalize(x).is_some());
            continue;
        };
        let input = match form {
            Form::Uri => match iri_to_uri(x) {
                Ok(u) => u.into_owned(),
                Err(_) => continue,
            },
            Form::Iri => x.to_owned(),
        };
        let Some(theirs) = lib.normalize(&input) else {
            let relative = parse(x, Grammar::IriReference).is_ok_and(|m| m.scheme(x).is_none());
            if !lib.fluent() && relative {
                st.relative_skipped += 1;
            } else {
                st.not_parsed_by_lib += 1;
            }
            continue;
        };
        st.compared += 1;
        if ours == theirs {
            st.agree += 1;
            continue;
        }
        let cx = Ctx {
            lib,
            input: &input,
            theirs: &theirs,
        };
        let mut now = ours.clone().into_owned();
        let mut used = Vec::new();
        for c in CLASSES.iter().filter(|c| (c.applies)(lib)) {
            let next = (c.rewrite)(&now, &cx);
            if next != now {
                used.push(c.name);
                now = next;
            }
        }
        if now == theirs {
            for name in used {
                st.classes
                    .entry(name)
                    .or_insert_with(|| (0, format!("{x:?}: irinorm {ours:?}, {theirs:?}")))
                    .0 += 1;
            }
        } else {
            st.unexplained.push(format!(
                "{}: {x:?}\n    irinorm {ours:?}\n    library {theirs:?}\n    modelled {now:?}",
                lib.name()
            ));
        }
    }
}

fn report(what: &str, stats: &BTreeMap<Lib, Stats>) -> Vec<String> {
    let mut unexplained = Vec::new();
    for (lib, st) in stats {
        eprintln!(
            "{what}: {}: {} compared, {} agree; relative (not normalized by the library): {}; not parsed by the library: {}, by irinorm only: {}",
            lib.name(),
            st.compared,
            st.agree,
            st.relative_skipped,
            st.not_parsed_by_lib,
            st.not_parsed_by_irinorm
        );
        for (name, (n, example)) in &st.classes {
            eprintln!("  class {n:6} {name}   e.g. {example}");
        }
        unexplained.extend(st.unexplained.iter().cloned());
    }
    unexplained
}

fn assert_explained(unexplained: &[String]) {
    assert!(
        unexplained.is_empty(),
        "{} unexplained disagreements (a new class or a bug):\n{}",
        unexplained.len(),
        unexplained[..unexplained.len().min(30)].join("\n")
    );
}

#[test]
fn corpora_agree_or_differ_by_known_classes() {
    let Some(corpora) = irinorm_testdata::text_corpora("corpora_agree_or_differ_by_known_classes")
    else {
        return;
    };
    let mut stats = BTreeMap::new();
    let mut lines = 0;
    for (_, ls) in &corpora {
        for l in ls {
            lines += 1;
            compare(l, &mut stats);
        }
    }
    let unexplained = report(&format!("corpora ({lines} lines)"), &stats);
    assert_explained(&unexplained);
    // The corpora are real URLs: both libraries parse and agree on most.
    for (lib, st) in &stats {
        assert!(st.agree * 10 > lines * 9, "{}: {}", lib.name(), st.agree);
    }
}

/// Generated inputs: `LADDER_DIFF_CASES` (default 6000), deterministic.
#[test]
fn generated_agree_or_differ_by_known_classes() {
    let n: usize = std::env::var("LADDER_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6000);
    let mut runner = TestRunner::deterministic();
    let s = ladder_gen::reference();
    let mut stats = BTreeMap::new();
    for _ in 0..n {
        let x = s.new_tree(&mut runner).unwrap().current();
        compare(&x, &mut stats);
    }
    let unexplained = report(&format!("generated ({n})"), &stats);
    assert_explained(&unexplained);
    // Every class is real: each explains some generated disagreement.
    for c in CLASSES {
        let seen = stats.values().any(|st| st.classes.contains_key(c.name));
        assert!(seen, "class {:?} never seen: obsolete?", c.name);
    }
    for st in stats.values() {
        assert!(st.compared > n / 4 && st.agree > 0);
    }
}

/// One example of each class, checked against the libraries directly:
/// these are the examples of docs/known-differences.md.
#[test]
fn documented_examples() {
    let cases: &[(Lib, &str, &str, &str)] = &[
        (Lib::FluentUri, "http://a:/", "http://a:/", "http://a/"),
        (Lib::IriStringUri, "http://a:/", "http://a:/", "http://a/"),
        (Lib::FluentUri, "http://a:80/", "http://a:80/", "http://a/"),
        (
            Lib::FluentUri,
            "http://[0:0::1]/",
            "http://[0:0::1]/",
            "http://[::1]/",
        ),
        (Lib::FluentUri, "a/./b/../c", "a/c", "a/./b/../c"),
        (Lib::IriStringUri, "zz:a/../b", "zz:a/../b", "zz:/b"),
        (
            Lib::FluentIri,
            "http://a/%E2%80%AE",
            "http://a/%E2%80%AE",
            "http://a/\u{202E}",
        ),
        (
            Lib::IriStringIri,
            "http://a/\u{202E}",
            "http://a/%E2%80%AE",
            "http://a/\u{202E}",
        ),
        (
            Lib::IriStringIri,
            "http://a/?%EE%80%80",
            "http://a/?\u{E000}",
            "http://a/?%EE%80%80",
        ),
        (
            Lib::IriStringUri,
            "http://Ex%C3%A9.COM/",
            "http://ex%C3%A9.com/",
            "http://Ex%C3%A9.COM/",
        ),
    ];
    for &(lib, input, ours, theirs) in cases {
        assert_eq!(
            syntax(lib.form()).normalize(input).unwrap(),
            ours,
            "{input}"
        );
        assert_eq!(lib.normalize(input).as_deref(), Some(theirs), "{input}");
    }
    // Zones (RFC 6874) are not parsed by either library: not compared.
    assert!(Lib::FluentUri
        .normalize("http://[fe80::1%25eth0]/")
        .is_none());
}

/// Rung `scheme` writes IPv6 literals in RFC 5952 form; `std::net::Ipv6Addr`
/// does too, with one known difference: RFC 5952 §5 recommends the mixed
/// (dotted) notation for IPv4-translated addresses (`::ffff:0:0/96`,
/// RFC 2765) and the well-known prefix `64:ff9b::/96` (RFC 6052) as well
/// as IPv4-mapped ones; `std` uses it for IPv4-mapped only.
#[test]
fn ipv6_text_at_rung_scheme_matches_std() {
    let n = Normalizer::new(Options::new(Rung::Scheme, Form::Uri));
    let mut runner = TestRunner::deterministic();
    let s = ladder_gen::gen::ipv6();
    let (mut same, mut dotted) = (0, 0);
    let mut check = |a: &str| {
        let ours = n.normalize(&format!("x://[{a}]")).unwrap().into_owned();
        let addr = Ipv6Addr::from_str(a).unwrap();
        let std = format!("x://[{addr}]");
        if ours == std {
            same += 1;
            return;
        }
        let g = addr.segments();
        let prefixed = g[..6] == [0, 0, 0, 0, 0xffff, 0] || g[..6] == [0x64, 0xff9b, 0, 0, 0, 0];
        let [_, _, _, _, _, _, hi, lo] = g;
        let v4 = format!("{}.{}.{}.{}", hi >> 8, hi & 0xff, lo >> 8, lo & 0xff);
        // The six leading groups as RFC 5952 writes them (std, with the
        // last two groups made non-zero and cut off again), then the IPv4.
        let mut six = g;
        six[6] = 1;
        six[7] = 1;
        let head = Ipv6Addr::from(six).to_string();
        let head = head.strip_suffix(":1:1").unwrap();
        assert!(
            prefixed && ours == format!("x://[{head}:{v4}]"),
            "{a}: irinorm {ours}, std {std}"
        );
        dotted += 1;
    };
    for a in [
        "::ffff:0:1.2.3.4",
        "64:ff9b::1.2.3.4",
        "64:ff9b::",
        "::ffff:0:0:0",
    ] {
        check(a);
    }
    for _ in 0..5000 {
        check(&s.new_tree(&mut runner).unwrap().current());
    }
    eprintln!("IPv6 at rung scheme: {same} as std, {dotted} dotted per RFC 5952 §5");
    assert!(dotted >= 4 && same > 4000);
}
