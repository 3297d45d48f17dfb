//! Generators for the ladder's property and differential tests
//! (`prop_ladder.rs`, `differential_ladder.rs`): references built from
//! components, with what breaks normalizers:
//!
//! - schemes in mixed case, known to the registry (DNS hosts, default
//!   ports, special normalizers: file, mailto, urn, tel, data) and not;
//! - hosts: mixed-case reg-names, lower-case and unnecessary triplets
//!   (`%41`, `%2e`), reserved triplets (`%2C`, `%25`), U-labels (with
//!   deviation characters, joiners, full-width forms and dots, ignored
//!   characters), A-labels (valid, upper-case, broken), percent-encoded
//!   UTF-8 of U-labels (valid and not), `localhost`, IPv4, IPv6 in every
//!   ABNF form and case (with RFC 6874 zones), IPvFuture, empty;
//! - ports: none, empty, default, with leading zeros, huge;
//! - paths with dot segments in every position (`a:/.//b`, `./a:b`,
//!   leading `..`, `%2E` forms), triplets of every kind, non-ASCII;
//! - queries and fragments with `?`, `/`, iprivate (query only), bidi
//!   controls, invalid and overlong UTF-8.
//!
//! The grammar atoms (IPv6, zones, IPvFuture, one-character mutations,
//! arbitrary input) come from `support/gen.rs`, shared with the
//! foundation's tests.

#![allow(dead_code, unreachable_pub)]

#[path = "../support/gen.rs"]
#[allow(dead_code, unreachable_pub)]
pub mod gen;

use proptest::prelude::*;
use proptest::sample::{select, Index};

/// Schemes: case variants of registry entries and unknown ones.
pub const SCHEMES: &[&str] = &[
    "http", "HTTP", "hTtP", "https", "HTTPS", "ws", "wss", "ftp", "FTP", "ldap", "coap", "file",
    "FILE", "mailto", "MailTo", "urn", "URN", "tel", "TEL", "data", "Data", "foo", "Foo",
    "a+b-c.d", "x", "z39.50r",
];

/// Ports (digits only: `port = *DIGIT`).
pub const PORTS: &[&str] = &[
    "",
    "80",
    "080",
    "0080",
    "443",
    "00443",
    "21",
    "8080",
    "0",
    "000",
    "65535",
    "65536",
    "99999999999999999999",
    "5683",
    "00000000000000000080",
];

/// Host labels (each a valid `ireg-name` piece).
pub const LABELS: &[&str] = &[
    "example",
    "Example",
    "COM",
    "a",
    "www",
    "localhost",
    "LocalHost",
    "%6Cocalhost",
    "a_b",
    "-a",
    "ab--c",
    "xn--rsum-bpad",
    "XN--BCHER-KVA",
    "xn--fa-hia",
    "xn--a-",
    "xn--",
    "xn--ls8h",
    "xn--9ca",
    "%41bc",
    "ex%61mple",
    "%65%78",
    "a%2Eb",
    "%7e",
    "r%C3%A9sum%C3%A9",
    "r%c3%a9sum%c3%a9",
    "%E2%82%AC",
    "%C0%AF",
    "%FF",
    "%C3",
    "a%2Cb",
    "a%25b",
    "%E2%80%AE",
    "résumé",
    "Bücher",
    "faß",
    "ΣΑΣ",
    "ς",
    "日本",
    "♥",
    "a\u{200D}b",
    "a\u{200C}b",
    "例え",
    "Ａ",
    "ａｂ",
    "ⅷ",
    "\u{AD}",
    "١",
    "א",
    "\u{0378}",
    "ǅ",
    "İ",
    "ﬁ",
    "a。b",
    "a．b",
    "\u{3002}",
    "𐌀",
    "",
];

/// Path segments: dot segments and their encodings, triplets of every
/// kind, non-ASCII, `:` (a `./` prefix case).
pub const SEGMENTS: &[&str] = &[
    "",
    "",
    ".",
    ".",
    "..",
    "..",
    "%2E",
    "%2e",
    ".%2E",
    "%2E%2e",
    "%2e.",
    ".a",
    "a.",
    "...",
    "a",
    "B",
    "aB",
    "%7e",
    "%7E",
    "~",
    "%41",
    "%5a",
    "a:b",
    ":",
    "@",
    "%2F",
    "%2f",
    "%3A",
    "%25",
    "%3F",
    "%23",
    "é",
    "%C3%A9",
    "%c3%a9",
    "%C0%AF",
    "%ED%A0%80",
    "%80",
    "%EF%BF%BE",
    "\u{202E}",
    "%E2%80%AE",
    "%EE%80%80",
    "日本",
    "%F0%9F%98%80",
    "e\u{301}",
    "\u{FB01}",
    "\u{FF0F}",
    "g;x=1",
    "=\u{338}",
    "+1-201;Ext=1-ß",
    "7042;Phone-Context=+1-é.2",
    "*%23-(1);isub=%C3%A9.x",
    "Text/PLAIN;Charset=UTF-8;BASE64,é",
    "Joe@Ex%41mple.COM,b@Bücher.DE",
];

/// Query atoms (`iprivate` allowed).
pub const QUERY: &[&str] = &[
    "a",
    "Q",
    "=",
    "&",
    "+",
    "/",
    "?",
    ":",
    "@",
    "%2F",
    "%3f",
    "%26",
    "%3D",
    "%25",
    "%7e",
    "%41",
    "é",
    "%C3%A9",
    "%c3%a9",
    "\u{E000}",
    "%EE%80%80",
    "%C0%AF",
    "%ED%A0%80",
    "\u{202E}",
    "%E2%80%AE",
    "..",
    "/./",
    "/../",
    "%20",
    "e\u{301}",
    "\u{FF1F}",
];

/// Fragment atoms (no `iprivate`).
pub const FRAGMENT: &[&str] = &[
    "a",
    "F",
    "=",
    "&",
    "/",
    "?",
    ":",
    "@",
    "%2F",
    "%23",
    "%25",
    "%7e",
    "%41",
    "é",
    "%C3%A9",
    "%EE%80%80",
    "%C0%AF",
    "\u{202E}",
    "%E2%80%8F",
    "..",
    "/./",
    "%20",
    "e\u{301}",
];

/// Userinfo atoms.
pub const USERINFO: &[&str] = &[
    "user", "User", ":", "pass", "%75", "%3A", "%40", "a%40b", "é", "%C3%A9", "%c3%a9", "~", "!",
    "%25", "%C0%AF",
];

/// Triplets that no rung may ever decode (LADDER.md rung 1 and invariant
/// 6): reserved characters (gen-delims and sub-delims, RFC 3986 §2.2),
/// `%25`, and UTF-8 that is invalid (lone continuation bytes, bytes that
/// never occur, truncated sequences), overlong (`%C0%AF` is `/`), a
/// surrogate, above U+10FFFF, or a noncharacter / bidi control (valid
/// UTF-8 that RFC 3987 §3.2 keeps encoded in IRIs). Lower-case hex too.
pub const NEVER_DECODED: &[&str] = &[
    "%3A",
    "%2F",
    "%3F",
    "%23",
    "%5B",
    "%5D",
    "%40",
    "%21",
    "%24",
    "%26",
    "%27",
    "%28",
    "%29",
    "%2A",
    "%2B",
    "%2C",
    "%3B",
    "%3D",
    "%25",
    "%2f",
    "%3d",
    "%C0%AF",
    "%c0%af",
    "%C1%BF",
    "%E0%80%AF",
    "%F0%80%80%AF",
    "%ED%A0%80",
    "%ed%bf%bf",
    "%80",
    "%BF",
    "%FE",
    "%FF",
    "%F5%80%80%80",
    "%F4%90%80%80",
    "%C3",
    "%E2%82",
    "%EF%BF%BE",
    "%EF%B7%90",
    "%E2%80%AE",
    "%E2%81%A6",
];

/// Upper-cases the ASCII letters of `s` selected by the bits of `mask`
/// (cycled): mixed case in any component, triplets included.
pub fn mix_case(s: &str, mask: u64) -> String {
    s.chars()
        .enumerate()
        .map(|(i, c)| {
            if mask >> (i % 64) & 1 == 1 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

fn atoms(pool: &'static [&'static str], max: usize) -> BoxedStrategy<String> {
    prop::collection::vec(select(pool), 0..=max)
        .prop_map(|v| v.concat())
        .boxed()
}

pub fn scheme() -> BoxedStrategy<String> {
    prop_oneof![
        4 => select(SCHEMES).prop_map(str::to_owned),
        1 => "[a-zA-Z][a-zA-Z0-9+.-]{0,4}",
    ]
    .boxed()
}

pub fn reg_name() -> BoxedStrategy<String> {
    (
        prop::collection::vec(select(LABELS), 1..4),
        any::<u64>(),
        0u8..4,
    )
        .prop_map(|(labels, mask, how)| {
            let h = labels.join(".");
            match how {
                0 => mix_case(&h, mask),
                1 => format!("{h}."),
                _ => h,
            }
        })
        .boxed()
}

pub fn host() -> BoxedStrategy<String> {
    prop_oneof![
        8 => reg_name(),
        2 => gen::ipv4(),
        3 => (gen::ipv6(), any::<u64>()).prop_map(|(a, m)| format!("[{}]", mix_case(&a, m))),
        1 => (gen::ipv6(), gen::zone(gen::URI_OK)).prop_map(|(a, z)| format!("[{a}{z}]")),
        1 => gen::ipvfuture(gen::URI_OK).prop_map(|s| format!("[{s}]")),
        1 => Just(String::new()),
    ]
    .boxed()
}

/// The components of a generated reference.
#[derive(Clone, Debug)]
pub struct Parts {
    pub scheme: Option<String>,
    /// (userinfo, host, port).
    pub authority: Option<(Option<String>, String, Option<String>)>,
    pub absolute: bool,
    pub segments: Vec<String>,
    pub query: Option<String>,
    pub fragment: Option<String>,
}

impl Parts {
    /// The path as written (before the structure fix-ups of [`Parts::text`]).
    pub fn path(&self) -> String {
        let mut p = self.segments.join("/");
        if self.absolute || (self.authority.is_some() && !p.is_empty()) {
            p.insert(0, '/');
        }
        p
    }

    /// The reference text, fixed up to keep its components (RFC 3986 §3.3,
    /// §4.2): `/.` before a `//` path without authority, `./` before a
    /// relative path whose first segment has a `:` — which is how
    /// `a:/.//b` and `./a:b` shapes come out.
    pub fn text(&self) -> String {
        let mut s = String::new();
        if let Some(sc) = &self.scheme {
            s.push_str(sc);
            s.push(':');
        }
        let mut path = self.path();
        if let Some((ui, h, p)) = &self.authority {
            s.push_str("//");
            if let Some(ui) = ui {
                s.push_str(ui);
                s.push('@');
            }
            s.push_str(h);
            if let Some(p) = p {
                s.push(':');
                s.push_str(p);
            }
        } else if path.starts_with("//") {
            path.insert_str(0, "/.");
        } else if self.scheme.is_none() && path.split('/').next().is_some_and(|f| f.contains(':')) {
            path.insert_str(0, "./");
        }
        s.push_str(&path);
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

pub fn parts(with_scheme: Option<bool>) -> BoxedStrategy<Parts> {
    let sch = match with_scheme {
        Some(true) => scheme().prop_map(Some).boxed(),
        Some(false) => Just(None).boxed(),
        None => prop::option::weighted(0.7, scheme()).boxed(),
    };
    let auth = prop::option::weighted(
        0.65,
        (
            prop::option::weighted(0.25, atoms(USERINFO, 3)),
            host(),
            prop::option::weighted(0.4, select(PORTS).prop_map(str::to_owned)),
        ),
    );
    let segs = prop::collection::vec(select(SEGMENTS).prop_map(str::to_owned), 0..6);
    (
        sch,
        auth,
        any::<bool>(),
        segs,
        prop::option::weighted(0.35, atoms(QUERY, 4)),
        prop::option::weighted(0.3, atoms(FRAGMENT, 3)),
    )
        .prop_map(
            |(scheme, authority, absolute, segments, query, fragment)| Parts {
                scheme,
                authority,
                absolute,
                segments,
                query,
                fragment,
            },
        )
        .boxed()
}

/// Special shapes that are easy to get wrong, literally.
pub const SHAPES: &[&str] = &[
    "a:/.//b",
    "a:/./b/..//c",
    "./a:b",
    "./a:b/../c",
    "a/..",
    "abc/..",
    ".",
    "..",
    "../",
    "../../a/./b/..",
    "..//a",
    ".//a",
    "zz:foo/../bar",
    "zz:a/..//b",
    "zz:.",
    "zz:./x:y",
    "/..//x",
    "//a/../b",
    "http://a",
    "http://a:",
    "http://a:/",
    "HTTP://A:080",
    "http://[::1]:80",
    "http://[0:0::0:1]",
    "http://[::FFFF:192.0.2.1]",
    "http://[fe80::1%25Eth0]/",
    "file://localhost/etc/hosts",
    "file://localhost:/etc/hosts",
    "file://%6cocalhost/x",
    "FILE://LOCALHOST/c:/x",
    "mailto:A@Example.COM?Subject=Hi",
    "mailto:a@r%C3%A9sum%C3%A9.example,b@xn--bcher-kva.de",
    "urn:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6?+r?=q#f",
    "tel:+1-201-555-0123;Ext=1-2",
    "tel:+1;ext=1-%C3%9F-",
    "tel:+1-201;Ext=0http://%C3%9F.fooyn--/#-2",
    "data:Text/Plain;Charset=UTF-8;BASE64,SGk=",
    "http://r%C3%A9sum%C3%A9.example/%7euser/./a/../b?%7e#%7e",
    "http://xn--rsum-bpad.example./",
    "http://%C3%A9%2C.com/",
    "?",
    "#",
    "",
];

/// A reference built from components (valid unless the parts are not).
pub fn reference() -> BoxedStrategy<String> {
    prop_oneof![
        12 => parts(None).prop_map(|p| p.text()),
        2 => select(SHAPES).prop_map(str::to_owned),
        2 => gen::reference(gen::IRI_OK),
        1 => gen::reference(gen::URI_OK),
    ]
    .boxed()
}

/// A reference with a scheme (a base for resolution).
pub fn absolute() -> BoxedStrategy<String> {
    prop_oneof![
        6 => parts(Some(true)).prop_map(|p| p.text()),
        1 => select(SHAPES.iter().copied().filter(|s| s.contains(':') && !s.starts_with('.')).collect::<Vec<_>>()).prop_map(str::to_owned),
    ]
    .boxed()
}

/// Anything at all, for totality.
pub fn anything() -> BoxedStrategy<String> {
    prop_oneof![
        3 => reference(),
        2 => gen::any_input(),
        1 => gen::mutated(),
        1 => any::<String>(),
        1 => prop::collection::vec(any::<u8>(), 0..40)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
    .boxed()
}

/// Where a triplet is planted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Userinfo,
    Host,
    Path,
    Query,
    Fragment,
}

/// Byte offsets of `s` where text can be inserted without splitting a
/// character or a triplet.
pub fn insertion_points(s: &str) -> Vec<usize> {
    let b = s.as_bytes();
    (0..=s.len())
        .filter(|&i| {
            s.is_char_boundary(i) && !(i >= 1 && b[i - 1] == b'%') && !(i >= 2 && b[i - 2] == b'%')
        })
        .collect()
}

/// A reference with `text` inserted into one component (between guard
/// letters `x`, so that it cannot join neighbouring triplets into a UTF-8
/// sequence). Returns the reference and the slot used, or `None` when the
/// parts have no such component (or the host is an IP literal).
pub fn plant(p: &Parts, slot: Slot, at: Index, text: &str) -> Option<String> {
    let mut p = p.clone();
    let ins = |s: &mut String| {
        let points = insertion_points(s);
        let i = points[at.index(points.len())];
        s.insert_str(i, &format!("x{text}x"));
    };
    match slot {
        Slot::Userinfo => {
            let a = p.authority.as_mut()?;
            ins(a.0.get_or_insert_with(String::new));
        }
        Slot::Host => {
            let a = p.authority.as_mut()?;
            if a.1.starts_with('[') {
                return None;
            }
            ins(&mut a.1);
        }
        Slot::Path => {
            if p.segments.is_empty() {
                p.segments.push(String::new());
            }
            let k = at.index(p.segments.len());
            ins(&mut p.segments[k]);
        }
        Slot::Query => ins(p.query.get_or_insert_with(String::new)),
        Slot::Fragment => ins(p.fragment.get_or_insert_with(String::new)),
    }
    Some(p.text())
}

pub fn slot() -> impl Strategy<Value = Slot> {
    select(vec![
        Slot::Userinfo,
        Slot::Host,
        Slot::Path,
        Slot::Query,
        Slot::Fragment,
    ])
}

/// Pieces of the texts the scheme-specific rules of rung 2 parse and
/// rewrite (`mailto` addresses and header fields, `urn` NIDs, `tel`
/// numbers and parameters, `data` media types, `file` hosts), with the
/// delimiters resolution and dot-segment removal act on.
const SCHEME_ATOMS: &[&str] = &[
    "a@B.COM",
    "@X",
    "x@Y",
    ",",
    "%22a@B,c%22",
    "%5B1.2%5D",
    "URN:",
    "ISBN:",
    "uuid:",
    "F81D4FAE",
    "+1-2",
    "(3)",
    ";Ext=1",
    ";Phone-Context=X",
    "Text/PLAIN",
    "TEXT",
    ";Charset=UTF-8",
    ";BASE64",
    ",x",
    ":",
    "=",
    ";",
    "Q",
    "é",
    "%C3%A9",
    "%2E",
    "localhost",
];

const SPECIAL_SCHEMES: &[&str] = &["mailto", "MAILTO", "urn", "tel", "data", "Data", "file"];

fn scheme_segment() -> BoxedStrategy<String> {
    prop_oneof![
        6 => atoms(SCHEME_ATOMS, 3),
        1 => select(&[".", ".."][..]).prop_map(str::to_owned),
    ]
    .boxed()
}

/// The query and fragment pieces of the same rules.
const SCHEME_QUERY: &[&str] = &["Subject=Hi", "CC=A@B.COM", "&", "+R", "=Q", "Body=x"];

/// A base with one of the schemes that have rung-2 rules of their own,
/// usually without authority and with an absolute path (the shape that
/// resolution merges against while the rule reads it as its own syntax:
/// the data: defect of b409d7f).
pub fn special_absolute() -> BoxedStrategy<String> {
    (
        select(SPECIAL_SCHEMES),
        prop::option::weighted(0.15, select(&["localhost", "LocalHost", "", "h"][..])),
        prop::collection::vec(scheme_segment(), 1..5),
        prop::option::weighted(0.3, atoms(SCHEME_QUERY, 3)),
        prop::option::weighted(0.2, atoms(SCHEME_ATOMS, 2)),
    )
        .prop_map(|(scheme, host, segments, query, fragment)| {
            Parts {
                scheme: Some(scheme.to_owned()),
                authority: host.map(|h| (None, h.to_owned(), None)),
                absolute: true,
                segments,
                query,
                fragment,
            }
            .text()
        })
        .boxed()
}

/// A relative reference built from the same pieces.
pub fn special_relative() -> BoxedStrategy<String> {
    (
        any::<bool>(),
        prop::collection::vec(scheme_segment(), 0..4),
        prop::option::weighted(0.3, atoms(SCHEME_QUERY, 3)),
        prop::option::weighted(0.2, atoms(SCHEME_ATOMS, 2)),
    )
        .prop_map(|(absolute, segments, query, fragment)| {
            Parts {
                scheme: None,
                authority: None,
                absolute,
                segments,
                query,
                fragment,
            }
            .text()
        })
        .boxed()
}

/// A reference with one of those schemes and a rootless path (opaque to
/// rung 1, while resolution removes its dot segments: RFC 3986 §5.2.2).
pub fn special_opaque() -> BoxedStrategy<String> {
    (
        select(SPECIAL_SCHEMES),
        prop::collection::vec(scheme_segment(), 1..5),
        prop::option::weighted(0.3, atoms(SCHEME_QUERY, 3)),
    )
        .prop_map(|(scheme, segments, query)| {
            let mut s = format!("{scheme}:{}", segments.join("/"));
            if s.len() == scheme.len() + 1 || s[scheme.len() + 1..].starts_with('/') {
                // Keep the path rootless (and the text a reference).
                s.insert(scheme.len() + 1, 'Q');
            }
            if let Some(q) = query {
                s.push('?');
                s.push_str(&q);
            }
            s
        })
        .boxed()
}
