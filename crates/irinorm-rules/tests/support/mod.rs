//! Generators shared by the property tests of the named rules and the
//! presets: absolute URLs made of the pieces the rules look at (hosts
//! with `www.`, trailing dots, IPv4 forms; segments with session ids,
//! index files, dot segments; tracking, session and default parameters;
//! fragments), and relative references made of the same pieces.

use proptest::prelude::*;

pub(crate) mod presets;

pub(crate) fn pick<T: Clone + core::fmt::Debug + 'static>(
    v: &'static [T],
) -> impl Strategy<Value = T> {
    proptest::sample::select(v)
}

const SCHEMES: &[&str] = &["http", "https", "HTTP", "ftp", "foo", "Https"];
const HOSTS: &[&str] = &[
    "www.example.com",
    "WWW.Example.COM.",
    "www.www.a.co.uk",
    "www.com",
    "www.co.uk",
    "0x7f.1",
    "2130706433",
    "127.0.0.1",
    "0177.0.0.1.",
    "[::1]",
    "[2001:DB8::1]",
    "résumé.example",
    "example.com.",
    "www1355544.com",
    "a",
    "",
    "sub.example.org",
    "xn--bcher-kva.de",
];
const PORTS: &[&str] = &["", ":", ":80", ":443", ":8080", ":0080"];
const SEGS: &[&str] = &[
    "",
    ".",
    "..",
    "index.html",
    "INDEX.HTM",
    "a;jsessionid=1",
    "(S(abc123))",
    "%2F",
    "A",
    "b",
    "default.aspx",
    "%7e",
    "é",
    "x;sid=2;k=v",
    ".;jsessionid=1",
];
const PARAMS: &[&str] = &[
    "utm_source=1",
    "UTM_Medium=x",
    "gclid=x",
    "sid=2",
    "PHPSESSID=z",
    "a=1",
    "b=%2F",
    "",
    "a=",
    "c",
    "page=1",
    "z=9&y",
    "%41=1",
];
const FRAGS: &[&str] = &["", "#", "#top", "#a/b?c"];

pub(crate) fn url() -> impl Strategy<Value = String> {
    (
        pick(SCHEMES),
        proptest::option::of(pick(&["u", "u:p", "U:%41"][..])),
        pick(HOSTS),
        pick(PORTS),
        proptest::collection::vec(pick(SEGS), 0..5),
        proptest::option::of(proptest::collection::vec(pick(PARAMS), 0..5)),
        pick(FRAGS),
    )
        .prop_map(|(s, ui, h, p, segs, q, f)| {
            let mut out = format!("{s}://");
            if let Some(ui) = ui {
                out.push_str(ui);
                out.push('@');
            }
            out.push_str(h);
            out.push_str(p);
            for seg in segs {
                out.push('/');
                out.push_str(seg);
            }
            if let Some(q) = q {
                out.push('?');
                out.push_str(&q.join("&"));
            }
            out.push_str(f);
            out
        })
}

/// A relative reference of the pieces above: a network-path reference
/// (`//host...`), an absolute path, a relative path (dot segments
/// included), a query alone, a fragment alone, or empty.
pub(crate) fn relative() -> impl Strategy<Value = String> {
    (
        0usize..5,
        pick(HOSTS),
        proptest::collection::vec(pick(SEGS), 0..4),
        proptest::option::of(proptest::collection::vec(pick(PARAMS), 0..4)),
        pick(FRAGS),
    )
        .prop_map(|(kind, h, segs, q, f)| {
            let mut out = match kind {
                0 => format!("//{h}"),
                _ => String::new(),
            };
            let path = segs.join("/");
            match kind {
                0 | 1 if !segs.is_empty() => {
                    out.push('/');
                    out.push_str(&path);
                }
                // A first segment holding `:` would read as a scheme.
                2 if !path.split('/').next().unwrap_or("").contains(':') => out.push_str(&path),
                _ => {}
            }
            if let Some(q) = q {
                out.push('?');
                out.push_str(&q.join("&"));
            }
            out.push_str(f);
            out
        })
}
