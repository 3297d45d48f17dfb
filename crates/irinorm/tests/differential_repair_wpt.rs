//! Repair against the browsers: the WHATWG URL Standard's parser cases
//! (`wpt/urltestdata.json`). For every case a browser parses, repair
//! (resolved against the case's base) then rung 2 must equal rung 2 of the
//! browser's `href`, or the difference must fall into a named class of
//! docs/known-differences.md ("Repair against the WHATWG URL Standard"),
//! with exactly the count documented there. For every case a browser
//! refuses, what repair does is counted by class, and the counts too must
//! be the documented ones.

use std::collections::BTreeMap;

use irinorm::ladder::{normalize, Options};
use irinorm::repair::repair;
use serde_json::Value;

const NAME: &str = "differential_repair_wpt";

/// Rung 2 (`scheme`, `uri` form) of a repaired reference, resolved first
/// when there is a base.
fn repaired_rung2(input: &str, base: Option<&str>) -> Result<String, String> {
    let opts = Options::default();
    let base = base.map(|b| repair(b, None).text);
    let bscheme = base
        .as_deref()
        .and_then(|b| b.split_once(':'))
        .map(|(s, _)| s.to_owned());
    let r = repair(input, bscheme.as_deref());
    let abs = match &base {
        Some(b) => irinorm::resolve(b, &r.text).map_err(|e| match e {
            irinorm::ResolveError::Base(e) => format!("base {:?}", e.kind()),
            irinorm::ResolveError::Reference(e) => format!("{:?}", e.kind()),
        })?,
        None => r.text,
    };
    normalize(&abs, &opts)
        .map(|c| c.into_owned())
        .map_err(|e| format!("{:?}", e.kind()))
}

/// (start, end) of the authority of an absolute normal form.
fn authority(s: &str) -> Option<(usize, usize)> {
    let a = s.find("://")? + 3;
    let e = s[a..].find(['/', '?', '#']).map_or(s.len(), |e| a + e);
    Some((a, e))
}

/// Rewrites the userinfo (if any) with `f(userinfo) -> Option<new>`
/// (`None`: remove it and its `@`).
fn map_userinfo(s: &str, f: impl Fn(&str) -> Option<String>) -> String {
    let Some((a, e)) = authority(s) else {
        return s.to_owned();
    };
    let Some(at) = s[a..e].rfind('@').map(|x| a + x) else {
        return s.to_owned();
    };
    match f(&s[a..at]) {
        Some(u) => format!("{}{u}{}", &s[..a], &s[at..]),
        None => format!("{}{}", &s[..a], &s[at + 1..]),
    }
}

fn map_host(s: &str, f: impl Fn(&str) -> String) -> String {
    let Some((a, e)) = authority(s) else {
        return s.to_owned();
    };
    let h = s[a..e].rfind('@').map_or(a, |x| a + x + 1);
    let he = s[h..e].rfind(':').map_or(e, |x| h + x);
    format!("{}{}{}", &s[..h], f(&s[h..he]), &s[he..])
}

/// The named classes of docs/known-differences.md, each a rewrite that
/// removes exactly the difference it names (applied to both sides).
/// A rewrite of a normal form.
type Rewrite = fn(&str) -> String;

const CLASSES: [(&str, Rewrite); 6] = [
    // WHATWG drops an empty password and an empty userinfo; RFC 3986
    // §3.2.1 keeps the component, and §6.2.3 only removes an empty port.
    ("empty-userinfo", |s| {
        map_userinfo(s, |u| {
            let u = u.strip_suffix(':').unwrap_or(u);
            (!u.is_empty()).then(|| u.to_owned())
        })
    }),
    // WHATWG encodes `:` (after the first), `;` and `=` in userinfo; RFC
    // 3986 §3.2.1 allows them, and §2.2 makes `%3B` differ from `;`.
    ("userinfo-delimiters-encoded", |s| {
        map_userinfo(s, |u| {
            Some(
                u.replace("%3A", ":")
                    .replace("%3B", ";")
                    .replace("%3D", "="),
            )
        })
    }),
    // WHATWG encodes `'` in the query of special schemes; RFC 3986 §3.4
    // allows it (a sub-delim: `%27` differs from `'`, §2.2).
    ("query-apostrophe", |s| s.replace("%27", "'")),
    // WHATWG reads hosts of numbers (`0x7f.1`, `256`, `1.2.3.4.`) as IPv4;
    // RFC 3986 §3.2.2 reads them as reg-names (§7.4 warns of them).
    ("ipv4-number-forms", |s| {
        map_host(s, |h| {
            if !h.is_empty()
                && h.bytes()
                    .all(|c| c.is_ascii_hexdigit() || c == b'x' || c == b'.')
            {
                "IPV4".into()
            } else {
                h.to_owned()
            }
        })
    }),
    // WHATWG gives `file:` URLs with an empty path the path `/`; RFC 8089
    // §2 allows the empty path and the file scheme rule keeps it.
    ("file-empty-path", |s| match authority(s) {
        Some((_, e)) if s.starts_with("file:") && e == s.len() => format!("{s}/"),
        _ => s.to_owned(),
    }),
    // WHATWG maps the host through UTS #46 before recognizing `localhost`
    // (`loC𝐀𝐋𝐇𝐨𝐬𝐭`); rung 2 recognizes only the ASCII `localhost` before mapping.
    ("file-localhost-after-uts46", |s| {
        s.replacen("file://localhost/", "file:///", 1)
    }),
];

/// The named class of a difference between irinorm (`got`) and the
/// browser (`want`), or `None` when it has no class (a failure).
fn classify(input: &str, got: &Result<String, String>, want: &str) -> Option<&'static str> {
    // WHATWG's Windows drive letters in file URLs (`C|`, `/C:` kept above
    // the base, `//C:` as a path): RFC 8089 Appendix E.2 lists them as
    // non-standard forms; RFC 3986 reads `C|` as a segment, `//C:` as a host.
    let drive = |s: &str| {
        s.as_bytes()
            .windows(3)
            .any(|w| w[0] == b'/' && w[1].is_ascii_alphabetic() && w[2] == b':')
    };
    if want.starts_with("file:") && (input.contains('|') || drive(want)) {
        return Some("file-drive-letter");
    }
    let got = got.as_ref().ok()?;
    CLASSES
        .iter()
        .find(|(_, f)| f(got) == f(want))
        .map(|(n, _)| *n)
}

/// What repair does with an input the browser refuses: `rejected` (by
/// error kind) or `accepted` with the RFC reading that accepts it.
fn refused_class(input: &str, base: Option<&str>, got: &Result<String, String>) -> String {
    let got = match got {
        Err(e) => {
            return format!("rejected: {e}");
        }
        Ok(g) => g,
    };
    let has_scheme = |s: &str| {
        s.split_once(':').is_some_and(|(sc, _)| {
            !sc.is_empty()
                && sc
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(&c))
        })
    };
    let class = if base.is_none() && !has_scheme(input.trim()) {
        // RFC 3986 §4.1: a relative reference is a reference; WHATWG
        // refuses it without a base.
        "relative-reference-without-base"
    } else if base.is_some_and(|b| !b.contains("://")) {
        // RFC 3986 §5.2.2 resolves against any base URI; WHATWG refuses
        // a relative reference against an opaque path ("sc:sd").
        "relative-to-opaque-base"
    } else if let Some((a, e)) = authority(got) {
        let auth = &got[a..e];
        let hostport = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
        let (host, port) = match hostport.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(']') || hostport.starts_with('[') => (h, Some(p)),
            _ => (hostport, None),
        };
        if got.starts_with("file:") && port.is_some() {
            // RFC 8089 §2 has no port, but the generic syntax (RFC 3986
            // §3.2.3) that the parser checks does.
            "file-with-port"
        } else if port.is_some_and(|p| p.len() > 5 || p.parse::<u32>().is_ok_and(|n| n > 65535)) {
            // RFC 3986 §3.2.3: port = *DIGIT, no range.
            "port-out-of-range"
        } else if host.is_empty() {
            // RFC 3986 §3.2.2: a reg-name may be empty; WHATWG requires a
            // host in special schemes and refuses `:port` without one.
            "empty-host"
        } else if host.contains('%') {
            // RFC 3986 §3.2.2: reg-name allows pct-encoded octets; WHATWG
            // decodes them and refuses forbidden code points (lint flags
            // them: docs/lint.md).
            "host-percent-encoded"
        } else if host
            .bytes()
            .all(|c| c.is_ascii_hexdigit() || c == b'x' || c == b'.')
        {
            // RFC 3986 §3.2.2: not an IPv4address, so a reg-name; WHATWG
            // refuses numbers out of range.
            "ipv4-number-forms"
        } else if host.split('.').any(|l| l.starts_with("xn--"))
            || host.bytes().any(|c| c.is_ascii_digit())
        {
            // UTS #46 refuses the label (or WHATWG an IPv4-looking last
            // label); rung 2 keeps the host and warns (docs/ladder.md).
            "idna-or-numeric-label-refused"
        } else {
            "other"
        }
    } else {
        "other"
    };
    format!("accepted: {class}")
}

/// docs/known-differences.md, "Repair against the WHATWG URL Standard":
/// the cases browsers parse (`href-not-an-iri` counts hrefs that are no
/// RFC 3987 IRI themselves, compared after their own repair; they are
/// counted again in `equal` or a class).
const PARSED: &[(&str, usize)] = &[
    ("empty-userinfo", 12),
    ("equal", 487),
    ("file-drive-letter", 22),
    ("file-empty-path", 4),
    ("file-localhost-after-uts46", 1),
    ("href-not-an-iri", 33),
    ("ipv4-number-forms", 13),
    ("query-apostrophe", 3),
    ("userinfo-delimiters-encoded", 5),
];

/// The same section: the cases browsers refuse, by what repair then rung 2 does.
const REFUSED: &[(&str, usize)] = &[
    ("accepted: empty-host", 25),
    ("accepted: file-with-port", 1),
    ("accepted: host-percent-encoded", 69),
    ("accepted: idna-or-numeric-label-refused", 19),
    ("accepted: ipv4-number-forms", 25),
    ("accepted: port-out-of-range", 5),
    ("accepted: relative-reference-without-base", 8),
    ("accepted: relative-to-opaque-base", 10),
    ("rejected: BadIpLiteral", 5),
    ("rejected: BadIpv6", 28),
    ("rejected: BadPercentEncoding", 4),
    ("rejected: BadPort", 21),
    ("rejected: BadZoneId", 1),
    ("rejected: InvalidChar", 51),
];

#[test]
fn repair_then_rung2_matches_the_browsers() {
    let Some(p) = irinorm_testdata::vector_file(NAME, "wpt/urltestdata.json") else {
        return;
    };
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    let opts = Options::default();
    let mut failures = Vec::new();
    let mut classes: BTreeMap<String, usize> = BTreeMap::new();
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = 0;
    for c in cases.iter().filter(|c| c.is_object()) {
        total += 1;
        let input = c["input"].as_str().unwrap();
        let base = c["base"].as_str();
        let got = repaired_rung2(input, base);
        if c.get("failure").and_then(Value::as_bool) == Some(true) {
            if std::env::var_os("DUMP_REFUSED").is_some() {
                eprintln!("REFUSED {input:?} base {base:?} -> {got:?}");
            }
            let class = refused_class(input, base, &got);
            if class == "accepted: other" {
                failures.push(format!(
                    "refused {input:?} base {base:?}: repair gives {got:?}, no class"
                ));
            }
            *refused.entry(class).or_default() += 1;
            continue;
        }
        let href = c["href"].as_str().unwrap();
        let want = match normalize(href, &opts) {
            Ok(w) => w.into_owned(),
            Err(_) => {
                *classes.entry("href-not-an-iri".into()).or_default() += 1;
                match repaired_rung2(href, None) {
                    Ok(w) => w,
                    Err(e) => {
                        failures.push(format!("{input:?}: href {href:?} unrepairable: {e}"));
                        continue;
                    }
                }
            }
        };
        if got.as_deref() == Ok(want.as_str()) {
            *classes.entry("equal".into()).or_default() += 1;
        } else if let Some(k) = classify(input, &got, &want) {
            *classes.entry(k.into()).or_default() += 1;
        } else {
            failures.push(format!(
                "{input:?} base {base:?}: irinorm {got:?}, browser {want:?}"
            ));
        }
    }
    eprintln!("{NAME}: parsed by browsers: {classes:?}");
    eprintln!("{NAME}: refused by browsers: {refused:?}");
    // The counts of docs/known-differences.md: a change of behaviour must
    // change the documentation with it.
    let want = |pairs: &[(&str, usize)]| -> BTreeMap<String, usize> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
    };
    if classes != want(PARSED) {
        failures.push(format!(
            "parsed-case classes {classes:?} differ from the documented {PARSED:?}"
        ));
    }
    if refused != want(REFUSED) {
        failures.push(format!(
            "refused-case classes {refused:?} differ from the documented {REFUSED:?}"
        ));
    }
    irinorm_testdata::finish(NAME, total, failures);
}
