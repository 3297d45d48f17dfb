//! Generators of references for the property and differential tests:
//! grammar-aware references built from components (valid ones, and ones
//! with forbidden characters mixed in), raw references, one-character
//! mutations, random text and delimiter soup. Shared by
//! `prop_foundation.rs` and `differential_parse.rs`.

use irinorm::{parse, Grammar};
use proptest::prelude::*;
use proptest::sample::{select, Index};

// ---------------------------------------------------------------------------
// Atoms
// ---------------------------------------------------------------------------

pub const UNRESERVED: &[&str] = &[
    "a", "b", "Z", "x", "0", "9", "-", ".", "_", "~", "ab", "Az", "09",
];
pub const SUB_DELIMS: &[&str] = &["!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "="];
/// Valid triplets: lower/upper hex, unreserved, reserved, `%25`, UTF-8
/// (valid, overlong, truncated, surrogate, > U+10FFFF, noncharacter,
/// bidi, iprivate), Latin-1.
pub const PCT: &[&str] = &[
    "%41",
    "%7e",
    "%7E",
    "%2F",
    "%2f",
    "%2E",
    "%2e",
    "%25",
    "%3A",
    "%40",
    "%23",
    "%3F",
    "%5B",
    "%20",
    "%00",
    "%C3%A9",
    "%c3%a9",
    "%E2%82%AC",
    "%F0%90%8C%80",
    "%C0%AF",
    "%E0%80%AF",
    "%C3",
    "%E2%82",
    "%ED%A0%80",
    "%F4%90%80%80",
    "%EF%BF%BE",
    "%EF%B7%90",
    "%E2%80%AE",
    "%E2%80%8F",
    "%D8%9C",
    "%E2%81%A6",
    "%EE%80%80",
    "%F3%B0%80%80",
    "%C2%85",
    "%C2%A0",
    "%E9",
    "%FF",
    "%80",
];
/// Broken percent-encodings.
pub const PCT_BAD: &[&str] = &["%", "%G1", "%4", "%%41", "%-1"];
/// `ucschar` (RFC 3987 §2.2), including the bidi controls (which the ABNF
/// allows; §4.1 forbids them separately) and the ranges' edges.
pub const UCSCHAR: &[&str] = &[
    "é",
    "€",
    "日本",
    "𐌀",
    "\u{A0}",
    "\u{D7FF}",
    "\u{F900}",
    "\u{FDCF}",
    "\u{FDF0}",
    "\u{FFEF}",
    "\u{10000}",
    "\u{1FFFD}",
    "\u{E1000}",
    "\u{EFFFD}",
    "\u{202E}",
    "\u{200F}",
    "\u{2066}",
    "\u{061C}",
];
/// `iprivate`: allowed in the query only.
pub const IPRIVATE: &[&str] = &["\u{E000}", "\u{F8FF}", "\u{F0000}", "\u{10FFFD}"];
/// Never allowed: noncharacters, C0/C1 controls, surrogate neighbours,
/// printable ASCII outside the URI alphabet.
pub const NEVER: &[&str] = &[
    "\u{FDD0}",
    "\u{FFFE}",
    "\u{FFFF}",
    "\u{1FFFE}",
    "\u{E0FFF}",
    "\u{85}",
    "\u{9F}",
    "\u{7F}",
    "\u{0}",
    "\t",
    " ",
    "\"",
    "<",
    ">",
    "\\",
    "^",
    "`",
    "{",
    "|",
    "}",
    "[",
    "]",
];

/// What a generator may produce.
#[derive(Clone, Copy, Debug)]
pub struct Mode {
    /// Non-ASCII allowed.
    pub iri: bool,
    /// Mix in characters the grammar forbids.
    pub bad: bool,
}

pub const URI_OK: Mode = Mode {
    iri: false,
    bad: false,
};
pub const IRI_OK: Mode = Mode {
    iri: true,
    bad: false,
};
pub const ANY: Mode = Mode {
    iri: true,
    bad: true,
};

pub fn pool(mode: Mode, base: &[&[&'static str]], iprivate: bool) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = base.iter().flat_map(|p| p.iter().copied()).collect();
    if mode.iri {
        v.extend_from_slice(UCSCHAR);
        if iprivate {
            v.extend_from_slice(IPRIVATE);
        }
    }
    if mode.bad {
        v.extend_from_slice(PCT_BAD);
        v.extend_from_slice(NEVER);
        v.extend_from_slice(IPRIVATE);
    }
    v
}

pub fn atoms(pool: Vec<&'static str>, max: usize) -> BoxedStrategy<String> {
    prop::collection::vec(select(pool), 0..=max)
        .prop_map(|v| v.concat())
        .boxed()
}

// ---------------------------------------------------------------------------
// Components
// ---------------------------------------------------------------------------

pub fn scheme(mode: Mode) -> BoxedStrategy<String> {
    let good = "[a-zA-Z][a-zA-Z0-9+.-]{0,5}";
    if mode.bad {
        prop_oneof![
            8 => good,
            1 => "[0-9+.-][a-z]{0,3}",
            1 => "[a-z]{1,3}[_~%!][a-z]{0,2}",
        ]
        .boxed()
    } else {
        prop_oneof![
            good,
            Just("http".to_owned()),
            Just("HtTp".to_owned()),
            Just("urn".to_owned()),
            Just("a+b-c.d".to_owned()),
        ]
        .boxed()
    }
}

pub fn userinfo(mode: Mode) -> BoxedStrategy<String> {
    let mut p = pool(
        mode,
        &[UNRESERVED, SUB_DELIMS, PCT, &[":", "%40", "%3a"]],
        false,
    );
    if mode.bad {
        p.extend_from_slice(&["@", "/"]);
    }
    atoms(p, 5)
}

pub fn dec_octet() -> BoxedStrategy<String> {
    prop_oneof![
        (0u8..=9).prop_map(|v| v.to_string()),
        (10u8..=99).prop_map(|v| v.to_string()),
        (100u8..=255).prop_map(|v| v.to_string()),
        Just("0".to_owned()),
        Just("255".to_owned()),
        Just("249".to_owned()),
        Just("250".to_owned()),
    ]
    .boxed()
}

/// Near-miss octets: out of range, leading zeros, hex, empty.
pub fn bad_octet() -> BoxedStrategy<String> {
    select(vec![
        "256", "260", "300", "999", "1000", "00", "01", "007", "0x1", "", "-1", "1a",
    ])
    .prop_map(str::to_owned)
    .boxed()
}

pub fn ipv4() -> BoxedStrategy<String> {
    prop::collection::vec(dec_octet(), 4)
        .prop_map(|v| v.join("."))
        .boxed()
}

pub fn near_ipv4() -> BoxedStrategy<String> {
    prop_oneof![
        (
            prop::collection::vec(dec_octet(), 4),
            bad_octet(),
            0usize..4
        )
            .prop_map(|(mut v, b, i)| {
                v[i] = b;
                v.join(".")
            }),
        prop::collection::vec(dec_octet(), 3).prop_map(|v| v.join(".")),
        prop::collection::vec(dec_octet(), 5).prop_map(|v| v.join(".")),
        ipv4().prop_map(|s| format!("{s}.")),
    ]
    .boxed()
}

pub fn h16() -> BoxedStrategy<String> {
    "[0-9a-fA-F]{1,4}".boxed()
}

/// `IPv6address` in every alternative of the RFC 3986 §3.2.2 ABNF: `n`
/// groups before `::`, `m` after (n + m <= 7), or 8 without `::`; the last
/// two groups optionally an IPv4 `ls32`.
pub fn ipv6() -> BoxedStrategy<String> {
    (
        0usize..=8,
        0usize..=8,
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(h16(), 8),
        ipv4(),
    )
        .prop_map(|(n, m, compress, v4, groups, four)| {
            let (n, m) = if compress {
                let n = n.min(7);
                (n, m.min(7 - n))
            } else {
                (8, 0)
            };
            let mut parts: Vec<String> = groups[..n + m].to_vec();
            let v4 = v4 && if compress { m >= 2 } else { true };
            if v4 {
                let last = parts.len();
                parts.truncate(last - 2);
                parts.push(four);
            }
            if compress {
                // The ls32 (if any) is in the right part.
                let left = n.min(parts.len());
                let (l, r) = parts.split_at(left);
                format!("{}::{}", l.join(":"), r.join(":"))
            } else {
                parts.join(":")
            }
        })
        .boxed()
}

/// Near-valid IPv6: each a one-step corruption of a valid address.
pub fn near_ipv6() -> BoxedStrategy<String> {
    (ipv6(), 0usize..9, any::<Index>(), near_ipv4())
        .prop_map(|(s, how, at, bad4)| match how {
            0 => format!("{s}:1"),
            1 => format!("1:{s}"),
            2 => s.replacen("::", ":::", 1),
            3 => format!("{s}::"),
            4 => s.replacen(':', "", 1),
            5 => format!("{s}0"),
            6 => format!("1:2:3:4:5:6:{bad4}"),
            7 => {
                let i = at.index(s.len() + 1);
                let mut t = s.clone();
                if s.is_char_boundary(i) {
                    t.insert(i, 'g');
                }
                t
            }
            _ => format!("::{bad4}"),
        })
        .boxed()
}

pub fn zone(mode: Mode) -> BoxedStrategy<String> {
    let good = select(vec!["%25eth0", "%25en%2F1", "%251", "%25~._-", "%25%41"]);
    if mode.bad {
        prop_oneof![good, select(vec!["%eth0", "%25", "%25eth 0", "%2", "%25é"])]
            .prop_map(str::to_owned)
            .boxed()
    } else {
        good.prop_map(str::to_owned).boxed()
    }
}

pub fn ipvfuture(mode: Mode) -> BoxedStrategy<String> {
    let good = (
        "[vV]",
        "[0-9a-fA-F]{1,3}",
        "[a-zA-Z0-9:!$&'()*+,;=._~-]{1,6}",
    )
        .prop_map(|(v, h, a)| format!("{v}{h}.{a}"));
    if mode.bad {
        prop_oneof![
            good,
            select(vec!["v.x", "v1.", "v1x", "v1.x/", "vG.x", "v1.%41", "v1.é"])
                .prop_map(str::to_owned)
        ]
        .boxed()
    } else {
        good.boxed()
    }
}

pub fn reg_name(mode: Mode) -> BoxedStrategy<String> {
    let p = pool(mode, &[UNRESERVED, SUB_DELIMS, PCT], false);
    prop_oneof![
        3 => atoms(p, 6),
        1 => Just("example.COM".to_owned()),
        1 => Just(String::new()),
        1 => Just("xn--rsum-bpad.example".to_owned()),
    ]
    .boxed()
}

pub fn host(mode: Mode) -> BoxedStrategy<String> {
    let mut alts: Vec<(u32, BoxedStrategy<String>)> = vec![
        (4, reg_name(mode)),
        (2, ipv4()),
        (1, near_ipv4()),
        // An IPv4 address with a percent-encoded unreserved character: a
        // reg-name that decodes to an IPv4address.
        (
            1,
            (ipv4(), select(vec![("."), ("1"), ("0")]))
                .prop_map(|(s, c)| s.replacen(c, &format!("%{:02x}", c.as_bytes()[0]), 1))
                .boxed(),
        ),
        (3, ipv6().prop_map(|s| format!("[{s}]")).boxed()),
        (
            1,
            (ipv6(), zone(mode))
                .prop_map(|(a, z)| format!("[{a}{z}]"))
                .boxed(),
        ),
        (1, ipvfuture(mode).prop_map(|s| format!("[{s}]")).boxed()),
    ];
    if mode.bad {
        alts.push((1, near_ipv6().prop_map(|s| format!("[{s}]")).boxed()));
        alts.push((
            1,
            select(vec!["[::1", "::1]", "[]", "[::1]x", "a[b]", "[[::1]]"])
                .prop_map(str::to_owned)
                .boxed(),
        ));
    }
    prop::strategy::Union::new_weighted(alts).boxed()
}

pub fn port(mode: Mode) -> BoxedStrategy<String> {
    if mode.bad {
        prop_oneof![
            "[0-9]{0,6}",
            select(vec!["8a", "80:80", "-1", "%38"]).prop_map(str::to_owned)
        ]
        .boxed()
    } else {
        prop_oneof!["[0-9]{0,6}", Just("0080".to_owned()), Just(String::new())].boxed()
    }
}

pub fn segment(mode: Mode) -> BoxedStrategy<String> {
    let dots = select(vec![
        "", "", ".", ".", "..", "..", ".a", "a.", "..a", "...", "%2E", "%2e%2E", "a:b", ":", "@",
        "g;x=1", "=",
    ])
    .prop_map(str::to_owned);
    let p = pool(mode, &[UNRESERVED, SUB_DELIMS, PCT, &[":", "@"]], false);
    prop_oneof![3 => dots, 2 => atoms(p, 3)].boxed()
}

pub fn segments(mode: Mode) -> BoxedStrategy<Vec<String>> {
    prop::collection::vec(segment(mode), 0..6).boxed()
}

pub fn query(mode: Mode) -> BoxedStrategy<String> {
    let p = pool(
        mode,
        &[
            UNRESERVED,
            SUB_DELIMS,
            PCT,
            &[":", "@", "/", "?", "/./", "/../"],
        ],
        true,
    );
    atoms(p, 5)
}

pub fn fragment(mode: Mode) -> BoxedStrategy<String> {
    let mut p = pool(
        mode,
        &[
            UNRESERVED,
            SUB_DELIMS,
            PCT,
            &[":", "@", "/", "?", "/./", "/../"],
        ],
        false,
    );
    if mode.bad {
        p.push("#");
    }
    atoms(p, 5)
}

/// The parts of a generated reference.
#[derive(Clone, Debug)]
pub struct Gen {
    pub scheme: Option<String>,
    pub authority: Option<(Option<String>, String, Option<String>)>,
    pub absolute_path: bool,
    pub segments: Vec<String>,
    pub query: Option<String>,
    pub fragment: Option<String>,
}

impl Gen {
    /// Writes the reference. Unless `raw`, fixes the path so that the
    /// result is in the grammar the parts suggest: a leading `/` after an
    /// authority, `/.` before a `//` path without authority, `./` before a
    /// first segment with `:` in a relative reference (RFC 3986 §3.3, §4.2)
    /// — which is also how `a:/.//b` and `./a:b` shapes get generated.
    pub fn text(&self, raw: bool) -> String {
        let mut s = String::new();
        if let Some(sc) = &self.scheme {
            s.push_str(sc);
            s.push(':');
        }
        let mut path = self.segments.join("/");
        if self.absolute_path || (self.authority.is_some() && !path.is_empty() && !raw) {
            path.insert(0, '/');
        }
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
        } else if !raw {
            if path.starts_with("//") {
                path.insert_str(0, "/.");
            } else if self.scheme.is_none()
                && path.split('/').next().is_some_and(|f| f.contains(':'))
            {
                path.insert_str(0, "./");
            }
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

pub fn gen_parts(mode: Mode, with_scheme: Option<bool>) -> BoxedStrategy<Gen> {
    let sch = match with_scheme {
        Some(true) => scheme(mode).prop_map(Some).boxed(),
        Some(false) => Just(None).boxed(),
        None => prop::option::weighted(0.6, scheme(mode)).boxed(),
    };
    let auth = prop::option::weighted(
        0.6,
        (
            prop::option::weighted(0.3, userinfo(mode)),
            host(mode),
            prop::option::weighted(0.3, port(mode)),
        ),
    );
    (
        sch,
        auth,
        any::<bool>(),
        segments(mode),
        prop::option::weighted(0.3, query(mode)),
        prop::option::weighted(0.3, fragment(mode)),
    )
        .prop_map(
            |(scheme, authority, absolute_path, segments, query, fragment)| Gen {
                scheme,
                authority,
                absolute_path,
                segments,
                query,
                fragment,
            },
        )
        .boxed()
}

/// A reference built from components (fixed up to be well-formed when the
/// parts are).
pub fn reference(mode: Mode) -> BoxedStrategy<String> {
    gen_parts(mode, None).prop_map(|g| g.text(false)).boxed()
}

/// A reference with a scheme.
pub fn absolute(mode: Mode) -> BoxedStrategy<String> {
    gen_parts(mode, Some(true))
        .prop_map(|g| g.text(false))
        .boxed()
}

/// One insertion, deletion or replacement in a generated reference.
pub fn mutated() -> BoxedStrategy<String> {
    let chars = select(vec![
        ':', '/', '?', '#', '[', ']', '@', '%', '.', ' ', 'é', '\u{E000}', '\u{FDD0}', '0', 'A',
    ]);
    (reference(ANY), 0u8..3, any::<Index>(), chars)
        .prop_map(|(s, op, at, c)| {
            let bounds: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
            let i = bounds[at.index(bounds.len())];
            let mut t = s.clone();
            match op {
                0 => t.insert(i, c),
                _ if i == s.len() => t.push(c),
                1 => {
                    t.remove(i);
                }
                _ => {
                    t.remove(i);
                    t.insert(i, c);
                }
            }
            t
        })
        .boxed()
}

/// Anything: grammar-aware references (valid and not), raw references
/// without the path fix-up, mutations, random text and delimiter soup.
pub fn any_input() -> BoxedStrategy<String> {
    prop_oneof![
        3 => reference(URI_OK),
        3 => reference(IRI_OK),
        3 => reference(ANY),
        2 => gen_parts(ANY, None).prop_map(|g| g.text(true)),
        3 => mutated(),
        1 => any::<String>(),
        1 => "[ -~]{0,24}",
        2 => "[a-c:/?#\\[\\]@%0-9.A-Fv]{0,24}",
    ]
    .boxed()
}

/// References valid under `g`.
pub fn valid_for(g: Grammar) -> BoxedStrategy<String> {
    let mode = if g.is_iri() { IRI_OK } else { URI_OK };
    prop_oneof![reference(mode), any_input()]
        .prop_filter(format!("valid {g}"), move |s| parse(s, g).is_ok())
        .boxed()
}
