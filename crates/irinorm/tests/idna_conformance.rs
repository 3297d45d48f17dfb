//! UTS #46 conformance through irinorm's host path (issue 3).
//!
//! Unicode's conformance file `IdnaTestV2.txt` (format in its header; the
//! shared vectors hold the Unicode 17 file and the Unicode 16 one) is run
//! twice:
//!
//! 1. Directly through the `idna` crate, the way rust-url's own test does
//!    (`idna/tests/uts46.rs`: STD3 rules, CheckHyphens, VerifyDnsLength;
//!    toUnicode rows whose status has `X4_2` are not checked, the crate does
//!    not implement that code). This tells which file matches the Unicode
//!    version of the crate's compiled data (`idna_adapter` -> ICU4X
//!    `icu_normalizer` / `icu_properties` 2.x data): the test picks the file
//!    that passes completely and fails if none does.
//! 2. Through the host path: every source becomes the host of
//!    `http://<host>/` and is normalized at rung `scheme` with
//!    `IdnaProfile::CONFORMANCE`, in `uri` form (ToASCII, non-transitional,
//!    compared with `toAsciiN` and its status) and in `iri` form (ToUnicode,
//!    compared with `toUnicode` and its status).
//!
//! Writing the source as a host: characters that may appear literally in an
//! IRI `ireg-name` (unreserved, sub-delims, `ucschar` other than the bidi
//! formatting characters that RFC 3987 §4.1 forbids) are written as they
//! are; every other character is written as `%HH` triplets of its UTF-8
//! bytes. Percent-encoded, even `/ ? # @ : [ ]` are data, not delimiters
//! (RFC 3986 §2.2), so such rows *are* carried: the host path decodes the
//! host before UTS #46. A triplet that encodes ASCII is reserved data that
//! no rung may decode, so the host path refuses such a host (reported,
//! kept); every such source contains ASCII outside letters, digits, `-` and
//! `.`, which UseSTD3ASCIIRules refuses too (status U1), so the expected
//! outcome is the same.
//!
//! Expected results:
//! - a row whose status is an error must give a `Warning::Idna` and the
//!   host exactly as rung 1 (`syntax`) left it: never a guessed host;
//! - a row without error must give exactly `http://<expected>/` (lower-case
//!   A-labels in `uri` form, U-labels in `iri` form) and no warning.
//! - `iri` form: LADDER.md invariant 5 (`to_uri(N_iri(x)) == N_uri(x)`)
//!   makes the `iri` form refuse a host whose ToASCII fails, even when
//!   ToUnicode alone succeeds (with VerifyDnsLength: `toAsciiN` status
//!   `A4_1` / `A4_2`). Those rows are counted apart and must give the
//!   warning and the rung-1 host.
//!
//! Rows the host path cannot carry are counted and listed by reason:
//! - the source contains an unpaired surrogate (`\uD800`...): no Rust
//!   string, no UTF-8 (the header: "implementations that cannot work with
//!   ill-formed strings would skip test cases that contain them");
//! - the source is empty: `http:///` has an empty host, which RFC 3986
//!   §3.2.2 allows and which is no DNS name at all, so UTS #46 is not
//!   applied to it.

use std::collections::BTreeMap;
use std::path::Path;

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
use irinorm::idn::{self, IdnaProfile};
use irinorm::ladder::{Form, Normalizer, Options, Rung, Warning};
use irinorm::ucs;
use irinorm_testdata::vector_file;

const FILES: [&str; 2] = ["idna/IdnaTestV2.txt", "idna/IdnaTestV2-Unicode16.txt"];

/// Code points that the `idna` crate's data accepts and that the Unicode 17
/// conformance file treats as unassigned (status `V7`): the crate's data
/// is Unicode 18.0.0 (`icu_properties_data` / `icu_normalizer_data` 2.4.0,
/// README: "generated with ... Unicode version 18.0.0"), one version ahead
/// of the newest file. Found by probing every plane-3 code point through
/// the crate (see `unicode_18_skew_is_exactly_this_range`): Unicode 17 ends
/// plane 3 with CJK Extension J at U+3347F.
const UNICODE_18_SKEW: std::ops::RangeInclusive<u32> = 0x3D000..=0x3FC3F;

/// One test line.
#[derive(Debug)]
struct Row {
    line: usize,
    /// `None`: the source has an unpaired surrogate.
    source: Option<String>,
    to_unicode: Option<String>,
    to_unicode_status: Vec<String>,
    to_ascii_n: Option<String>,
    to_ascii_n_status: Vec<String>,
}

/// `\uHHHH` and `\x{H...}` escapes; `None` when one is a surrogate.
fn unescape(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let v = u32::from_str_radix(&hex, 16).expect("\\u escape");
                out.push(char::from_u32(v)?);
            }
            Some('x') => {
                assert_eq!(chars.next(), Some('{'), "\\x escape in {s:?}");
                let hex: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let v = u32::from_str_radix(&hex, 16).expect("\\x escape");
                out.push(char::from_u32(v)?);
            }
            Some('\\') => out.push('\\'),
            other => panic!("unknown escape {other:?} in {s:?}"),
        }
    }
    Some(out)
}

fn status(s: &str) -> Vec<String> {
    let s = s.trim();
    if s.is_empty() || s == "[]" {
        return Vec::new();
    }
    let inner = s
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .unwrap_or_else(|| panic!("status {s:?}"));
    inner.split(',').map(|x| x.trim().to_owned()).collect()
}

/// A value column: blank means `default`; `""` means the empty string.
fn value(col: &str, default: &Option<String>) -> Option<String> {
    match col.trim() {
        "" => default.clone(),
        "\"\"" => Some(String::new()),
        v => unescape(v),
    }
}

fn read_rows(path: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split(';').collect();
        assert!(cols.len() >= 5, "{}:{}: {line:?}", path.display(), i + 1);
        let source = match cols[0].trim() {
            "\"\"" => Some(String::new()),
            v => unescape(v),
        };
        let to_unicode = value(cols[1], &source);
        let to_unicode_status = status(cols[2]);
        let to_ascii_n = value(cols[3], &to_unicode);
        let to_ascii_n_status = if cols[4].trim().is_empty() {
            to_unicode_status.clone()
        } else {
            status(cols[4])
        };
        rows.push(Row {
            line: i + 1,
            source,
            to_unicode,
            to_unicode_status,
            to_ascii_n,
            to_ascii_n_status,
        });
    }
    rows
}

/// rust-url's check, through the `idna` crate directly: failures (line,
/// what) of one file.
fn direct_failures(rows: &[Row]) -> Vec<(usize, String)> {
    let u = Uts46::new();
    let mut fails = Vec::new();
    for r in rows {
        let Some(src) = &r.source else { continue };
        let (uni, res) = u.to_unicode(src.as_bytes(), AsciiDenyList::STD3, Hyphens::Check);
        if !r.to_unicode_status.iter().any(|s| s == "X4_2") {
            let want_err = !r.to_unicode_status.is_empty();
            match (res.is_err(), want_err) {
                (true, true) => {}
                (false, false) if Some(uni.as_ref()) == r.to_unicode.as_deref() => {}
                _ => fails.push((
                    r.line,
                    format!("line {}: toUnicode {src:?} -> {uni:?}", r.line),
                )),
            }
        }
        let ascii = u.to_ascii(
            src.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::Check,
            DnsLength::Verify,
        );
        let want_err = !r.to_ascii_n_status.is_empty();
        match (&ascii, want_err) {
            (Err(_), true) => {}
            (Ok(a), false) if Some(a.as_ref()) == r.to_ascii_n.as_deref() => {}
            _ => fails.push((
                r.line,
                format!("line {}: toAsciiN {src:?} -> {ascii:?}", r.line),
            )),
        }
    }
    fails
}

/// Whether a row uses a code point of [`UNICODE_18_SKEW`].
fn skewed(r: &Row) -> bool {
    [&r.source, &r.to_unicode]
        .into_iter()
        .flatten()
        .any(|s| s.chars().any(|c| UNICODE_18_SKEW.contains(&(c as u32))))
}

/// A file that matches the crate: its rows, and the lines that differ only
/// by the Unicode 17/18 skew.
struct Matching {
    file: String,
    rows: Vec<Row>,
    skew: Vec<usize>,
}

/// The file(s) that the `idna` crate passes, apart from rows of the
/// Unicode 18 skew (which must all expect `V7`).
fn matching_files(test: &str) -> Option<Vec<Matching>> {
    let mut matching = Vec::new();
    let mut report = Vec::new();
    for f in FILES {
        let path = vector_file(test, f)?;
        let rows = read_rows(&path);
        let (skew_fails, fails): (Vec<_>, Vec<_>) =
            direct_failures(&rows).into_iter().partition(|(line, _)| {
                rows.iter().any(|r| {
                    r.line == *line && skewed(r) && r.to_unicode_status.iter().any(|s| s == "V7")
                })
            });
        let fails: Vec<String> = fails.into_iter().map(|(_, f)| f).collect();
        let mut skew: Vec<usize> = skew_fails.into_iter().map(|(l, _)| l).collect();
        skew.dedup();
        eprintln!(
            "{test}: {f}: the idna crate directly: {} of {} rows differ, {} more only by the Unicode 18 skew {:?}",
            fails.len(),
            rows.len(),
            skew.len(),
            skew
        );
        if fails.is_empty() {
            matching.push(Matching {
                file: f.to_owned(),
                rows,
                skew,
            });
        } else {
            report.push(format!(
                "{f}: {} rows differ, e.g.\n  {}",
                fails.len(),
                fails[..fails.len().min(5)].join("\n  ")
            ));
        }
    }
    assert!(
        !matching.is_empty(),
        "no IdnaTestV2 file matches the idna crate's Unicode version:\n{}",
        report.join("\n")
    );
    Some(matching)
}

#[test]
fn idna_crate_matches_one_conformance_file() {
    let Some(files) = matching_files("idna_crate_matches_one_conformance_file") else {
        return;
    };
    let names: Vec<&str> = files.iter().map(|m| m.file.as_str()).collect();
    eprintln!("files matching the idna crate's data: {names:?}");
    // The two files differ (Unicode 17 assigned new characters): a crate
    // cannot pass both, so exactly one matches.
    assert_eq!(files.len(), 1, "{names:?}");
    // The skew is a handful of rows, not a way to hide a real difference.
    assert!(files[0].skew.len() <= 8, "{:?}", files[0].skew);
}

/// [`UNICODE_18_SKEW`] is exactly what the crate accepts in plane 3 beyond
/// Unicode 17's last assignment there (U+3347F): if the crate's data
/// changes, this says so instead of silently skipping other rows.
#[test]
fn unicode_18_skew_is_exactly_this_range() {
    let u = Uts46::new();
    let accepted: Vec<u32> = (0x33480u32..=0x3FFFF)
        .filter(|&cp| {
            let s = char::from_u32(cp).map(String::from).unwrap_or_default();
            u.to_ascii(
                s.as_bytes(),
                AsciiDenyList::STD3,
                Hyphens::Check,
                DnsLength::Verify,
            )
            .is_ok()
        })
        .collect();
    assert_eq!(accepted.first(), Some(UNICODE_18_SKEW.start()));
    assert_eq!(accepted.last(), Some(UNICODE_18_SKEW.end()));
    assert_eq!(
        accepted.len() as u32,
        UNICODE_18_SKEW.end() - UNICODE_18_SKEW.start() + 1
    );
}

const COMPOSED_ASCII: &str = "an ASCII character that a host can only hold percent-encoded (`<` `>`) composes with U+0338 under UTS #46 (NFC: `≮` `≯`): no rung decodes that triplet, the host is refused";

/// Whether a host text holds a triplet of an ASCII character.
fn has_ascii_triplet(host: &str) -> bool {
    let b = host.as_bytes();
    (0..b.len()).any(|i| {
        b[i] == b'%'
            && i + 2 < b.len()
            && u8::from_str_radix(&host[i + 1..i + 3], 16).is_ok_and(|v| v < 0x80)
    })
}

/// The host text for a source (see the module documentation).
fn host_text(src: &str) -> String {
    let mut h = String::new();
    for c in src.chars() {
        let literal = if c.is_ascii() {
            c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=".contains(c)
        } else {
            ucs::is_ucschar(c as u32) && !ucs::is_bidi_format(c as u32)
        };
        if literal {
            h.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                h.push_str(&format!("%{b:02X}"));
            }
        }
    }
    h
}

fn normalizer(rung: Rung, form: Form) -> Normalizer {
    Normalizer::new(Options {
        idna: IdnaProfile::CONFORMANCE,
        ..Options::new(rung, form)
    })
}

#[derive(Default)]
struct Tally {
    carried: usize,
    passed: usize,
    errors_expected: usize,
    /// iri form: ToUnicode succeeds, ToASCII fails (invariant 5).
    iri_refused_for_ascii: usize,
    /// Expected errors that the host path refuses before UTS #46 because
    /// the host holds a triplet of an ASCII character.
    refused_for_triplet: usize,
    not_carried: BTreeMap<&'static str, Vec<usize>>,
    fails: Vec<String>,
}

/// Checks one form; `want` is `Err(())` for an expected error.
fn check_form(t: &mut Tally, r: &Row, url: &str, form: Form, want: Result<&str, ()>) {
    let got = normalizer(Rung::Scheme, form).normalize_full(url);
    let rung1 = normalizer(Rung::Syntax, form).normalize(url);
    let (got, rung1) = match (got, rung1) {
        (Ok(g), Ok(r1)) => (g, r1),
        (g, r1) => {
            t.fails.push(format!(
                "line {} {}: {url:?} does not normalize: {g:?} / {r1:?}",
                r.line,
                form.name()
            ));
            return;
        }
    };
    let ok = match want {
        Err(()) => {
            // Reported, with the kind and a label taken from the host, and
            // the host exactly as rung 1 left it.
            let rung1_host = rung1
                .strip_prefix("http://")
                .and_then(|h| h.strip_suffix('/'))
                .unwrap_or("");
            let decoded = String::from_utf8_lossy(&irinorm::pct::decode(rung1_host)).into_owned();
            let labelled = got.warnings.iter().any(|w| match w {
                Warning::Idna { error, .. } => {
                    !error.kind.code().is_empty()
                        && (decoded.contains(error.label.as_str())
                            || rung1_host.contains(error.label.as_str()))
                }
                Warning::CharNormKept { .. } => false,
            });
            got.warnings.len() == 1 && labelled && got.text == rung1
        }
        Ok(expected) => got.warnings.is_empty() && got.text == format!("http://{expected}/"),
    };
    if ok {
        t.passed += 1;
    } else {
        t.fails.push(format!(
            "line {} {}: source {:?} as {url:?}: want {want:?}, got {:?} warnings {:?}",
            r.line,
            form.name(),
            r.source,
            got.text,
            got.warnings
        ));
    }
}

/// Runs every row of a file through the host path in both forms; also
/// through `irinorm::idn::{to_ascii, to_unicode}` directly.
fn host_path(rows: &[Row], skew: &[usize]) -> (Tally, Tally) {
    let (mut ta, mut tu) = (Tally::default(), Tally::default());
    for r in rows {
        if skew.contains(&r.line) {
            for t in [&mut ta, &mut tu] {
                t.not_carried
                    .entry("the file says V7 (unassigned) for a code point the crate's Unicode 18 data assigns")
                    .or_default()
                    .push(r.line);
            }
            continue;
        }
        let Some(src) = r.source.as_deref() else {
            for t in [&mut ta, &mut tu] {
                t.not_carried
                    .entry("unpaired surrogate in the source (ill-formed)")
                    .or_default()
                    .push(r.line);
            }
            continue;
        };
        if src.is_empty() {
            for t in [&mut ta, &mut tu] {
                t.not_carried
                    .entry("empty source: an empty host is no DNS name")
                    .or_default()
                    .push(r.line);
            }
            continue;
        }
        let host = host_text(src);
        let url = format!("http://{host}/");
        let parsed = irinorm::parse(&url, irinorm::Grammar::Iri);
        assert!(
            parsed.is_ok_and(|m| m.host(&url) == Some(host.as_str())),
            "line {}: {url:?} does not carry the host",
            r.line
        );

        let ascii_triplet = has_ascii_triplet(&host);
        let ascii_err = !r.to_ascii_n_status.is_empty();
        let uni_err = !r.to_unicode_status.is_empty();

        // uri form: ToASCII (non-transitional).
        if ascii_triplet && !ascii_err {
            ta.not_carried
                .entry(COMPOSED_ASCII)
                .or_default()
                .push(r.line);
        } else {
            ta.carried += 1;
            if ascii_err {
                ta.errors_expected += 1;
            }
            if ascii_triplet {
                ta.refused_for_triplet += 1;
            }
            let want = if ascii_err {
                Err(())
            } else {
                Ok(r.to_ascii_n.as_deref().unwrap_or(""))
            };
            check_form(&mut ta, r, &url, Form::Uri, want);
        }
        // The wrapper on its own agrees (it gets the decoded text: no
        // triplets there).
        let direct = idn::to_ascii(src, &IdnaProfile::CONFORMANCE);
        if direct.is_err() != ascii_err
            || (!ascii_err && direct.as_deref().ok() != r.to_ascii_n.as_deref())
        {
            ta.fails.push(format!(
                "line {}: idn::to_ascii({src:?}) = {direct:?}, want {:?} {:?}",
                r.line, r.to_ascii_n, r.to_ascii_n_status
            ));
        }

        // iri form: ToUnicode, refused too when ToASCII fails.
        if ascii_triplet && !(uni_err || ascii_err) {
            tu.not_carried
                .entry(COMPOSED_ASCII)
                .or_default()
                .push(r.line);
        } else {
            tu.carried += 1;
            if uni_err || ascii_err {
                tu.errors_expected += 1;
            }
            if !uni_err && ascii_err {
                tu.iri_refused_for_ascii += 1;
            }
            if ascii_triplet {
                tu.refused_for_triplet += 1;
            }
            let want = if uni_err || ascii_err {
                Err(())
            } else {
                Ok(r.to_unicode.as_deref().unwrap_or(""))
            };
            check_form(&mut tu, r, &url, Form::Iri, want);
        }
        let direct = idn::to_unicode(src, &IdnaProfile::CONFORMANCE);
        if direct.is_err() != (uni_err || ascii_err)
            || (!(uni_err || ascii_err) && direct.as_deref().ok() != r.to_unicode.as_deref())
        {
            tu.fails.push(format!(
                "line {}: idn::to_unicode({src:?}) = {direct:?}, want {:?} {:?}",
                r.line, r.to_unicode, r.to_unicode_status
            ));
        }
    }
    (ta, tu)
}

fn report(name: &str, t: &Tally) {
    eprintln!(
        "{name}: {} rows carried, {} passed ({} of them expected errors, {} of these refused before UTS #46 for an ASCII triplet{}), {} failures",
        t.carried,
        t.passed,
        t.errors_expected,
        t.refused_for_triplet,
        if t.iri_refused_for_ascii > 0 {
            format!(
                ", {} refused in iri form because ToASCII fails",
                t.iri_refused_for_ascii
            )
        } else {
            String::new()
        },
        t.fails.len()
    );
    for (why, lines) in &t.not_carried {
        eprintln!(
            "{name}: not carried: {} rows: {why}: lines {lines:?}",
            lines.len()
        );
    }
}

#[test]
fn host_path_passes_uts46_conformance() {
    let test = "host_path_passes_uts46_conformance";
    let Some(files) = matching_files(test) else {
        return;
    };
    let Matching { file, rows, skew } = &files[0];
    let (ta, tu) = host_path(rows, skew);
    report(&format!("{file} ToASCII (uri form)"), &ta);
    report(&format!("{file} ToUnicode (iri form)"), &tu);
    let fails: Vec<&String> = ta.fails.iter().chain(&tu.fails).collect();
    assert!(
        fails.is_empty(),
        "{} failures:\n{}",
        fails.len(),
        fails
            .iter()
            .take(60)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    // 100% of the carried rows pass, and the uncarried ones are few and
    // only for the reasons above.
    assert_eq!(ta.passed, ta.carried);
    assert_eq!(tu.passed, tu.carried);
    let uncarried: usize = ta.not_carried.values().map(Vec::len).sum();
    assert!(
        uncarried * 100 < rows.len(),
        "{uncarried} of {} rows not carried",
        rows.len()
    );
    // The file exercises both outcomes in both forms.
    assert!(ta.errors_expected > 0 && ta.errors_expected < ta.carried);
    assert!(tu.errors_expected > 0 && tu.errors_expected < tu.carried);
}

#[test]
fn host_text_carries_delimiters_as_data() {
    assert_eq!(host_text("a/b?c#d@e:f[g]"), "a%2Fb%3Fc%23d%40e%3Af%5Bg%5D");
    assert_eq!(host_text("Faß.de"), "Faß.de");
    assert_eq!(host_text("a\u{200F}b%"), "a%E2%80%8Fb%25");
    assert_eq!(host_text("\u{FFFD} "), "%EF%BF%BD%20");
    assert_eq!(unescape("a\\u00DFb\\x{1F600}"), Some("aßb😀".to_owned()));
    assert_eq!(unescape("\\uD800"), None);
    assert_eq!(status("[B5, B6]"), vec!["B5", "B6"]);
    assert!(status("[]").is_empty());
}
