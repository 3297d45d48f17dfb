//! The generator of `prop_fast_edges.rs` (docs/testing.md, round 16),
//! shared with the CLI's per-line differential
//! (`irinorm-cli/tests/prop_per_line.rs`, which includes this file by its
//! path): near-normal `http(s)` URLs at the edges of the fast answers, and
//! the options a caller sets.

use irinorm::idn::IdnaProfile;
use irinorm::ladder::{CharNorm, Form, Options};
use irinorm::scheme::{SchemeInfo, SchemeRegistry};
use proptest::prelude::*;
use proptest::sample::select;

const SCHEMES: &[&str] = &["http", "https", "HTTP", "Https", "hTtP", "HTTPS"];
const USERINFO: &[&str] = &["", "u@", "u:p@", "U%41@", "%7e@", "a%3Ab@", "é@", ":@"];
const HOSTS: &[&str] = &[
    "a.example",
    "a",
    "",
    "A.Example.COM",
    "www.example.com",
    "127.0.0.1",
    "0x7F.1",
    "[::1]",
    "[2001:DB8::a]",
    "%41.example",
    "a%2eb.example",
    "xn--bcher-kva.example",
    "bücher.example",
    "ex--ample.com",
    "example.com.",
];
const PORTS: &[&str] = &["", ":", ":80", ":443", ":8080", ":080", ":00443", ":65535"];
/// Pieces of the path, query and fragment; the triplets and dot segments
/// stand alone so that they fall at every boundary.
const PIECES: &[&str] = &[
    "a",
    "bc",
    "/",
    "/",
    "/",
    "-",
    "_",
    "~",
    ".",
    "..",
    "/./",
    "/../",
    "%2E",
    "%2e",
    "%2e.",
    ".%2E",
    "%2E%2E",
    ".well-known",
    "%41",
    "%7e",
    "%7E",
    "%7a",
    "%5F",
    "%2F",
    "%2f",
    "%3A",
    "%3a",
    "%3F",
    "%23",
    "%25",
    "%26",
    "%3D",
    "%2B",
    "%40",
    "%5B",
    "%C3%A9",
    "%c3%a9",
    "%C0%AF",
    "%c3",
    "%FF",
    "%E2%80%AE",
    "é",
    "ü",
    "\u{202E}",
    "ﬁ",
    "e\u{301}",
    "=",
    "&",
    ";",
    "+",
    ",",
    "@",
    ":",
    "!",
    "$",
    "'",
    "(",
    "*",
    "%20",
];

pub(crate) fn tail(n: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(select(PIECES), 0..n).prop_map(|v| v.concat())
}

/// A near-normal `http(s)` URL; the filler's length moves it across the
/// scanner's windows.
pub(crate) fn url() -> impl Strategy<Value = String> {
    (
        (
            select(SCHEMES),
            select(USERINFO),
            select(HOSTS),
            select(PORTS),
        ),
        tail(8),
        prop_oneof![2 => Just(0usize), 3 => 1usize..130],
        tail(4),
        proptest::option::of(tail(6)),
        proptest::option::of(tail(4)),
    )
        .prop_map(|((s, u, h, p), path, fill, path2, q, f)| {
            let mut out = format!("{s}://{u}{h}{p}");
            if !path.is_empty() && !path.starts_with('/') {
                out.push('/');
            }
            out.push_str(&path);
            if fill > 0 {
                out.push('/');
                out.extend(std::iter::repeat_n('x', fill));
            }
            out.push_str(&path2);
            if let Some(q) = q {
                out.push('?');
                out.push_str(&q);
            }
            if let Some(f) = f {
                out.push('#');
                out.push_str(&f);
            }
            out
        })
}

/// The options a caller sets (the CLI's `--nfc`, `--nfkc`,
/// `--ignore-fragment`, `--schemes`, the IDNA profile).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Variant {
    Plain,
    IgnoreFragment,
    Nfc,
    Nfkc,
    Conformance,
    Http8080,
    HttpUnknown,
}

pub(crate) const VARIANTS: [Variant; 7] = [
    Variant::Plain,
    Variant::IgnoreFragment,
    Variant::Nfc,
    Variant::Nfkc,
    Variant::Conformance,
    Variant::Http8080,
    Variant::HttpUnknown,
];

pub(crate) fn options(v: Variant, form: Form) -> Options {
    let mut o = Options {
        form,
        ..Options::default()
    };
    match v {
        Variant::Plain => {}
        Variant::IgnoreFragment => o.ignore_fragment = true,
        Variant::Nfc => o.char_norm = CharNorm::Nfc,
        Variant::Nfkc => o.char_norm = CharNorm::Nfkc,
        Variant::Conformance => o.idna = IdnaProfile::CONFORMANCE,
        Variant::Http8080 => o.schemes.insert(
            "http",
            SchemeInfo {
                default_port: Some(8080),
                ..*SchemeRegistry::builtin().get("http").unwrap()
            },
        ),
        Variant::HttpUnknown => o.schemes.forget("http"),
    }
    o
}
