//! Property tests of the comparison ladder: every invariant of LADDER.md,
//! for every rung (`string`, `syntax`, `scheme`) and form (`uri`, `iri`),
//! under option variants (none, `ignore_fragment`, NFC, NFKC, the UTS #46
//! conformance profile, a base), on references generated to break
//! normalizers (`ladder_gen/mod.rs`).
//!
//! 1. Idempotent: N(N(x)) == N(x).
//! 2. Stable structure: N(x) parses under the grammar of its form (`uri`
//!    form at rungs `syntax`/`scheme`: ASCII and a URI-reference; `iri`
//!    form: an IRI-reference; rung `string` is the identity, so N(x) parses
//!    as x did) with the same components present as x (as `resolve(base,
//!    x)` with a base), except what a rung legitimately removes:
//!    - the port, at rung `scheme`, when it is empty or equal to the
//!      scheme's default (leading zeros aside; LADDER.md rung 2);
//!    - the fragment, with `ignore_fragment` (and only then);
//!    - the host's text, at rung `scheme`, may become empty: for `file`
//!      when the rung-1 host is `localhost` with no userinfo and no port
//!      (or an empty one, which rung 2 removes) (RFC 8089), and for a DNS
//!      host that UTS #46 maps to nothing (only ignored characters, like
//!      U+00AD SOFT HYPHEN). The host itself stays present;
//!    - an empty path becomes `/` at rung `scheme` when there is an
//!      authority and the scheme says so (http, ws, ftp...; LADDER.md
//!      rung 2), and only then;
//!
//!    Otherwise an absolute path stays absolute, a rootless one rootless
//!    or empty (the rootless path of an absolute URI is opaque: LADDER.md
//!    rung 1 keeps its dot segments, so it never becomes absolute, and
//!    `opaque_paths_keep_their_segments` checks that it keeps every
//!    segment), a port keeps its value (rung `scheme` drops leading
//!    zeros); scheme, authority, userinfo, host and query presence never
//!    change.
//! 3. Monotone: equal at rung r implies equal at every higher rung. Keys
//!    at each rung agree with `compare()` (the lowest equal rung) and with
//!    `equivalent()`; and N_scheme(N_syntax(x)) == N_scheme(x),
//!    N_syntax(N_string(x)) == N_syntax(x) in both forms.
//! 4. Resolution commutes: N(resolve(B, R)) == N(resolve(N(B), N(R))) for
//!    absolute B and any R (without a base option: a normalizer with a base
//!    resolves every input against it first, so it is a different N), when
//!    B has an authority or an absolute path. Not otherwise: merging with a
//!    base without authority whose path is rootless or empty (`zz:x`,
//!    `zz:.`) gives a rootless path, and resolution (RFC 3986 §5.2.2)
//!    applies §5.2.4 to it, which turns `a/../b` into `/b` but leaves `b`
//!    as it is, while rung 1 keeps that rootless path opaque (LADDER.md:
//!    `zz:.` stays `zz:.`) and removes `seg/..` pairs from the relative
//!    reference: no normal form can commute there;
//!    `resolution_does_not_commute_for_rootless_bases` pins the
//!    counterexample. Nor when B or R has a percent-encoded dot
//!    segment (`%2E`, `.%2E`...): resolution is strict RFC 3986 §5.2 on the
//!    literal text, where `%2E` is an ordinary segment, while rung 1
//!    decodes it (§2.3, §6.2.2.2) into a dot segment that it then removes
//!    (normalize.jsonl: `/a/b/%2E%2E/` -> `/a/`); see
//!    `resolution_does_not_commute_with_encoded_dot_segments`. Nor when
//!    B's path ends with a `..` segment: the merge of §5.2.3 drops the
//!    base's last segment before dot segments are removed, so
//!    `http://h/a/..` + `x` is `http://h/a/x`, while its normal form
//!    `http://h/` + `x` is `http://h/x`
//!    (`resolution_does_not_commute_for_bases_ending_in_dot_dot`).
//! 5. Forms agree: at rung `syntax`, `iri_to_uri(N_iri(x)) == N_uri(x)`; at
//!    rung `scheme`, the `uri`-form normalizer applied to N_iri(x) gives
//!    N_uri(x) (it maps U-labels back to A-labels).
//! 6. Never decoded: a reserved character's triplet, `%25`, or invalid /
//!    overlong / surrogate / out-of-range UTF-8 (and noncharacters, bidi
//!    controls) planted in any component survives, upper-case, in both
//!    forms: exactly where the same text with a plain marker in its place
//!    ends up (path, query, fragment, userinfo), or anywhere in the host
//!    (IDN hosts included) and in references whose scheme-specific rules
//!    parse what they rewrite (mailto, urn, tel, data: the marker may be
//!    treated differently there, so the check is that the triplet is still
//!    in the output whenever the marker is).
//! 7. Total: no panic on arbitrary strings or bytes, for every rung, form
//!    and entry point; keys, digests, `normalize_into` and `explain` agree
//!    with `normalize`.
//!
//! Case counts: proptest's default (256), or `PROPTEST_CASES`.

mod ladder_gen;
#[path = "support/model.rs"]
#[allow(dead_code, unreachable_pub)]
mod model;

use irinorm::idn::IdnaProfile;
use irinorm::ladder::{self, CharNorm, Form, Key, Normalizer, Options, Rung, Warning};
use irinorm::scheme::{SchemeRegistry, Special};
use irinorm::{iri_to_uri, parse, resolve, Components, Grammar};
use ladder_gen::*;
use proptest::prelude::*;
use proptest::sample::{select, Index};

// ---------------------------------------------------------------------------
// Option variants
// ---------------------------------------------------------------------------

const BASES: &[&str] = &[
    "http://Example.COM:80/a/b/c?q#f",
    "foo:a/b",
    "file://localhost/x/y",
    "zz:/.//p/q",
    "HTTP://résumé.example/d%C3%A9/",
    "mailto:x@Y.org",
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Variant {
    Plain,
    IgnoreFragment,
    Nfc,
    Nfkc,
    Conformance,
    Base(&'static str),
}

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![
        3 => Just(Variant::Plain),
        1 => Just(Variant::IgnoreFragment),
        1 => Just(Variant::Nfc),
        1 => Just(Variant::Nfkc),
        1 => Just(Variant::Conformance),
        1 => select(BASES).prop_map(Variant::Base),
    ]
}

/// Variants without a base (for invariant 4).
fn variant_no_base() -> impl Strategy<Value = Variant> {
    variant().prop_map(|v| match v {
        Variant::Base(_) => Variant::Plain,
        v => v,
    })
}

fn options(rung: Rung, form: Form, v: Variant) -> Options {
    let mut o = Options::new(rung, form);
    match v {
        Variant::IgnoreFragment => o.ignore_fragment = true,
        Variant::Nfc => o.char_norm = CharNorm::Nfc,
        Variant::Nfkc => o.char_norm = CharNorm::Nfkc,
        Variant::Conformance => o.idna = IdnaProfile::CONFORMANCE,
        Variant::Plain | Variant::Base(_) => {}
    }
    o
}

fn nz(rung: Rung, form: Form, v: Variant) -> Normalizer {
    let n = Normalizer::new(options(rung, form, v));
    match v {
        Variant::Base(b) => n.with_base(b).expect("base parses"),
        _ => n,
    }
}

const FORMS: [Form; 2] = [Form::Uri, Form::Iri];

fn norm(s: &str, rung: Rung, form: Form, v: Variant) -> Option<String> {
    nz(rung, form, v).normalize(s).ok().map(|c| c.into_owned())
}

// ---------------------------------------------------------------------------
// Structure
// ---------------------------------------------------------------------------

/// What is present, and a few facts about it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shape {
    scheme: bool,
    authority: bool,
    userinfo: bool,
    host_empty: Option<bool>,
    port: Option<String>,
    path_absolute: bool,
    query: bool,
    fragment: bool,
}

fn shape(c: &Components<'_>) -> Shape {
    Shape {
        scheme: c.scheme.is_some(),
        authority: c.authority.is_some(),
        userinfo: c.userinfo.is_some(),
        host_empty: c.host.map(str::is_empty),
        port: c.port.map(str::to_owned),
        path_absolute: c.path.starts_with('/'),
        query: c.query.is_some(),
        fragment: c.fragment.is_some(),
    }
}

/// Whether rung 2 may drop this port (LADDER.md rung 2, "(all)").
fn port_removable(scheme: Option<&str>, port: &str) -> bool {
    if port.is_empty() {
        return true;
    }
    let default = scheme.map(str::to_ascii_lowercase).and_then(|s| {
        SchemeRegistry::builtin()
            .get(&s)
            .and_then(|i| i.default_port)
    });
    let digits = port.trim_start_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    default.is_some_and(|d| digits == d.to_string())
}

/// Whether rung 2 may empty this host (see the module documentation).
fn host_may_empty(input: &str, scheme: Option<&str>, v: Variant) -> bool {
    let Some(scheme) = scheme.map(str::to_ascii_lowercase) else {
        return false;
    };
    let Some(info) = SchemeRegistry::builtin().get(&scheme).copied() else {
        return false;
    };
    let Some(r1) = norm(input, Rung::Syntax, Form::Uri, v) else {
        return false;
    };
    let Ok(m) = parse(&r1, Grammar::UriReference) else {
        return false;
    };
    let c = Components::of(&r1, &m);
    if info.special == Special::File
        && c.userinfo.is_none()
        && c.host == Some("localhost")
        && c.port.is_none_or(str::is_empty)
    {
        return true;
    }
    let profile = options(Rung::Scheme, Form::Uri, v).idna;
    info.dns_host
        && c.host.is_some_and(|h| {
            let d = irinorm::pct::decode(h);
            std::str::from_utf8(&d)
                .is_ok_and(|t| irinorm::idn::to_ascii(t, &profile).is_ok_and(|a| a.is_empty()))
        })
}

/// Invariant 2 for one output.
fn check_structure(
    x: &str,
    out: &str,
    rung: Rung,
    form: Form,
    v: Variant,
) -> Result<(), TestCaseError> {
    // The input as the normalizer sees it.
    let input = match v {
        Variant::Base(b) => resolve(b, x).map_err(|e| TestCaseError::fail(format!("{e:?}")))?,
        _ => x.to_owned(),
    };
    let im = parse(&input, Grammar::IriReference)
        .map_err(|e| TestCaseError::fail(format!("input {input:?}: {e}")))?;
    let grammar = if rung != Rung::String && form == Form::Uri {
        prop_assert!(out.is_ascii(), "uri form not ASCII: {out:?}");
        Grammar::UriReference
    } else {
        Grammar::IriReference
    };
    let om = parse(out, grammar)
        .map_err(|e| TestCaseError::fail(format!("{out:?} is no {grammar}: {e}")))?;
    let ic = Components::of(&input, &im);
    let oc = Components::of(out, &om);
    let (want, got) = (shape(&ic), shape(&oc));
    // Exceptions, each exactly where it applies.
    let mut want2 = want.clone();
    if rung == Rung::Scheme {
        match (ic.port, &got.port) {
            (Some(p), None) => {
                prop_assert!(port_removable(ic.scheme, p), "port {p:?} removed: {out:?}");
                want2.port = None;
            }
            (Some(p), Some(g)) => {
                // Leading zeros go (`:0080` -> `:80` where 80 is not the
                // default); the value stays.
                let digits = p.trim_start_matches('0');
                let canonical = if digits.is_empty() { "0" } else { digits };
                prop_assert_eq!(g.as_str(), canonical);
                prop_assert!(!port_removable(ic.scheme, p), "port {p:?} kept: {out:?}");
                want2.port = Some(g.clone());
            }
            _ => {}
        }
        if want.host_empty == Some(false)
            && got.host_empty == Some(true)
            && host_may_empty(x, ic.scheme, v)
        {
            want2.host_empty = Some(true);
        }
    }
    if rung == Rung::Scheme && ic.authority.is_some() && ic.path.is_empty() {
        // Empty path -> "/" with an authority, for schemes that say so.
        let root = ic
            .scheme
            .map(str::to_ascii_lowercase)
            .and_then(|s| SchemeRegistry::builtin().get(&s).copied())
            .is_some_and(|i| i.empty_path_is_root);
        prop_assert_eq!(oc.path, if root { "/" } else { "" });
        want2.path_absolute = root;
    }
    if v == Variant::IgnoreFragment {
        want2.fragment = false;
    }
    prop_assert_eq!(
        &want2,
        &got,
        "structure of {:?} -> {:?} at {}/{} {:?}",
        input,
        out,
        rung,
        form.name(),
        v
    );
    Ok(())
}

// ---------------------------------------------------------------------------
// 1, 2: idempotent and stable structure
// ---------------------------------------------------------------------------

proptest! {
    #[test]
    fn idempotent_and_stable_structure(x in reference(), v in variant()) {
        for rung in Rung::ALL {
            for form in FORMS {
                let n = nz(rung, form, v);
                let Ok(once) = n.normalize(&x) else { continue };
                let twice = n.normalize(&once);
                prop_assert_eq!(
                    twice.as_deref().ok(),
                    Some(once.as_ref()),
                    "not idempotent at {}/{} {:?}: {:?}",
                    rung,
                    form.name(),
                    v,
                    x
                );
                check_structure(&x, &once, rung, form, v)?;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 3: monotone
// ---------------------------------------------------------------------------

/// A second reference related to `x`: one of its normal forms, a case
/// variant, or an unrelated reference.
fn pair() -> impl Strategy<Value = (String, String)> {
    (reference(), 0u8..7, any::<u64>(), reference()).prop_map(|(x, how, mask, other)| {
        let y = match how {
            0 => norm(&x, Rung::Syntax, Form::Uri, Variant::Plain),
            1 => norm(&x, Rung::Scheme, Form::Uri, Variant::Plain),
            2 => norm(&x, Rung::Syntax, Form::Iri, Variant::Plain),
            3 => norm(&x, Rung::Scheme, Form::Iri, Variant::Plain),
            4 | 5 => Some(mix_case(&x, mask)),
            _ => Some(other),
        };
        (x.clone(), y.unwrap_or(x))
    })
}

proptest! {
    #[test]
    fn monotone(
        (a, b) in pair(),
        v in variant(),
        configured in select(Rung::ALL.to_vec()),
    ) {
        let n = nz(configured, Form::Uri, v);
        let Ok(lowest) = n.compare(&a, &b) else { return Ok(()) };
        for r in Rung::ALL {
            let k = nz(r, Form::Uri, v);
            let (ka, kb) = (k.key(&a).unwrap(), k.key(&b).unwrap());
            let eq = ka == kb;
            prop_assert_eq!(
                eq,
                lowest.is_some_and(|l| l <= r),
                "{:?} ~ {:?}: keys at {} {:?} / {:?}, compare says {:?} ({:?})",
                a, b, r, ka, kb, lowest, v
            );
            prop_assert_eq!(k.equivalent(&a, &b).unwrap(), eq);
            prop_assert_eq!(k.digest(&a).unwrap() == k.digest(&b).unwrap(), eq);
        }
        prop_assert_eq!(
            n.equivalent(&a, &b).unwrap(),
            lowest.is_some_and(|l| l <= configured)
        );
        for x in [&a, &b] {
            for form in FORMS {
                let s0 = nz(Rung::String, form, v).normalize(x).unwrap().into_owned();
                let s1 = nz(Rung::Syntax, form, v).normalize(x).unwrap().into_owned();
                let s2 = nz(Rung::Scheme, form, v).normalize(x).unwrap().into_owned();
                prop_assert_eq!(
                    nz(Rung::Syntax, form, v).normalize(&s0).unwrap(),
                    s1.as_str(),
                    "N_syntax(N_string(x)) at {} {:?}: {:?}", form.name(), v, x
                );
                prop_assert_eq!(
                    nz(Rung::Scheme, form, v).normalize(&s1).unwrap(),
                    s2.as_str(),
                    "N_scheme(N_syntax(x)) at {} {:?}: {:?}", form.name(), v, x
                );
            }
        }
    }
}

/// A rootless (opaque) path made to tempt a normalizer: dot segments,
/// encoded dots, empty segments, `:`, triplets and non-ASCII.
fn opaque_path() -> impl Strategy<Value = String> {
    prop::collection::vec(
        select(vec![
            ".", "..", "%2E", "%2e", "%2E%2E", ".%2e", "%2e.", "...", "a", "", "b:c", "%41", "%2F",
            "é", "%C3%A9", "x.y",
        ]),
        1..6,
    )
    .prop_filter("rootless: the first segment is not empty", |v| {
        !v[0].is_empty()
    })
    .prop_map(|v| v.join("/"))
}

proptest! {
    /// Issue 16, the class: the rootless path of an absolute URI is opaque
    /// (LADDER.md rung 1). At rungs `syntax` and `scheme` (for schemes
    /// without a rule of their own), in both forms, it keeps every segment,
    /// it never gains a dot segment, and in `uri` form it is exactly the
    /// model's (`support/model.rs`, `opaque_path_rung1`).
    #[test]
    fn opaque_paths_keep_their_segments(
        scheme in select(vec!["zz", "urn", "x-y", "about"]),
        path in opaque_path(),
        query in prop::option::of(select(vec!["q", "a/../b"])),
    ) {
        let x = match query {
            Some(q) => format!("{scheme}:{path}?{q}"),
            None => format!("{scheme}:{path}"),
        };
        for rung in [Rung::Syntax, Rung::Scheme] {
            for form in FORMS {
                let out = nz(rung, form, Variant::Plain).normalize(&x).unwrap().into_owned();
                let m = parse(&out, Grammar::IriReference).unwrap();
                let c = Components::of(&out, &m);
                let (ins, outs): (Vec<&str>, Vec<&str>) =
                    (path.split('/').collect(), c.path.split('/').collect());
                prop_assert_eq!(ins.len(), outs.len(), "{:?} -> {:?}", x, out);
                for (i, o) in ins.iter().zip(&outs) {
                    let dot = |s: &str| s == "." || s == "..";
                    prop_assert_eq!(dot(i), dot(o), "{:?} -> {:?}", x, out);
                }
                if form == Form::Uri && scheme != "urn" {
                    prop_assert_eq!(c.path, model::opaque_path_rung1(&path), "{:?}", x);
                }
            }
        }
    }
}

/// ASCII that is not unreserved: delimiters, `%`, and what is invalid.
fn delimiters(s: &str) -> usize {
    s.bytes()
        .filter(|b| b.is_ascii() && !(b.is_ascii_alphanumeric() || b"-._~".contains(b)))
        .count()
}

/// Segments (between `/`) that are `.` or `..`.
fn dot_segments(s: &str) -> usize {
    s.split('/').filter(|g| *g == "." || *g == "..").count()
}

proptest! {
    /// Issue 16, the class: for any text, NFC and NFKC never add a
    /// delimiter (or `%`, or any ASCII that is not unreserved), never
    /// change the ones there, and never add a dot segment. The characters
    /// are drawn to tempt it: compatibility forms of every delimiter and
    /// of `.`, combining marks after delimiters, ligatures.
    #[test]
    fn charnorm_never_adds_structure(
        chars in prop::collection::vec(
            prop_oneof![
                4 => select(vec![
                    '\u{FF0E}', '\u{FF0F}', '\u{FF05}', '\u{FF1F}', '\u{FF03}', '\u{FF20}',
                    '\u{FF1A}', '\u{FE56}', '\u{FE52}', '\u{2024}', '\u{2025}', '\u{37E}',
                    '\u{1FEF}', '\u{A0}', '\u{338}', '\u{301}', '\u{FB01}', '\u{2100}',
                    '\u{2488}', '\u{FF0D}', 'e', 'é', 'a',
                ]),
                3 => select(vec!['/', '.', '?', '#', '%', '=', '&', ':', '@', '[', ']', ';', '!']),
                1 => any::<char>(),
            ],
            0..24,
        ),
    ) {
        let s: String = chars.into_iter().collect();
        for cn in [CharNorm::Nfc, CharNorm::Nfkc] {
            let out = ladder::charnorm::apply(&s, cn);
            let only = |t: &str| -> String {
                t.chars().filter(|c| c.is_ascii() && delimiters(&c.to_string()) == 1).collect()
            };
            prop_assert_eq!(delimiters(&out), delimiters(&s), "{:?} -> {:?}", s, out);
            prop_assert_eq!(only(&out), only(&s), "{:?} -> {:?}", s, out);
            prop_assert!(dot_segments(&out) <= dot_segments(&s), "{:?} -> {:?}", s, out);
        }
    }
}

// ---------------------------------------------------------------------------
// 4: resolution commutes
// ---------------------------------------------------------------------------

/// Whether a path has a segment that is `.` or `..` only once its
/// triplets are decoded.
fn encoded_dot_segment(path: &str) -> bool {
    path.split('/')
        .any(|seg| seg.contains('%') && matches!(&*irinorm::pct::decode(seg), b"." | b".."))
}

/// Invariant 4 for one base and reference, where it applies (see the
/// module's comment for the three shapes where it cannot).
fn commutes(b: &str, r: &str, v: Variant) -> Result<(), TestCaseError> {
    {
        let (b, r) = (b.to_owned(), r.to_owned());
        let Ok(target) = resolve(&b, &r) else {
            return Ok(());
        };
        let bm = parse(&b, Grammar::Iri).unwrap();
        if bm.authority(&b).is_none() && !bm.path(&b).starts_with('/') {
            return Ok(());
        }
        if bm.path(&b).split('/').next_back() == Some("..") {
            return Ok(());
        }
        let rm = parse(&r, Grammar::IriReference).unwrap();
        if encoded_dot_segment(bm.path(&b)) || encoded_dot_segment(rm.path(&r)) {
            return Ok(());
        }
        for rung in Rung::ALL {
            for form in FORMS {
                let n = nz(rung, form, v);
                let lhs = n.normalize(&target).unwrap().into_owned();
                let nb = n.normalize(&b).unwrap();
                let nr = n.normalize(&r).unwrap();
                let t2 = resolve(&nb, &nr)
                    .map_err(|e| TestCaseError::fail(format!("resolve({nb:?}, {nr:?}): {e:?}")))?;
                let rhs = n.normalize(&t2).unwrap();
                prop_assert_eq!(
                    &lhs,
                    &rhs,
                    "B={:?} R={:?} at {}/{} {:?}: resolve(B,R)={:?}; N(B)={:?} N(R)={:?} -> {:?}",
                    b,
                    r,
                    rung,
                    form.name(),
                    v,
                    target,
                    nb,
                    nr,
                    t2
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn resolution_commutes(b in absolute(), r in reference(), v in variant_no_base()) {
        commutes(&b, &r, v)?;
    }

    /// The same, aimed at the rung-2 rules of `mailto`, `urn`, `tel`,
    /// `data` and `file`: bases of those schemes with absolute paths made
    /// of the pieces those rules parse, so that a rule that edits a path
    /// resolution merges against (the data: defect of b409d7f) shows;
    /// and references of those schemes with rootless paths, whose dot
    /// segments resolution removes while rung 1 keeps them (the tel:
    /// defect of round 8).
    #[test]
    fn resolution_commutes_for_scheme_rules(
        b in special_absolute(),
        r in prop_oneof![3 => special_relative(), 2 => special_opaque(), 1 => reference()],
        v in variant_no_base(),
    ) {
        commutes(&b, &r, v)?;
    }
}

// ---------------------------------------------------------------------------
// mailto: one address stays one address
// ---------------------------------------------------------------------------

/// Characters that UTS #46 or NFKC map onto an ASCII character that
/// delimits a `mailto` URI (RFC 6068 §2: `,` between addresses, `?`, `&`,
/// `=` around header fields, `@`, `%`, `/`, `#`, `:`, `;`), or onto
/// several characters among which one is (U+2474 PARENTHESIZED DIGIT ONE
/// is `(1)`; U+2488 DIGIT ONE FULL STOP is `1.`), and their neighbours.
const MAILTO_TEMPTERS: [char; 22] = [
    '\u{FF0C}', '\u{FE50}', '\u{FE51}', '\u{FF1F}', '\u{FE56}', '\u{FF06}', '\u{FE60}', '\u{FF1D}',
    '\u{FE66}', '\u{FF20}', '\u{FE6B}', '\u{FF05}', '\u{FE6A}', '\u{FF0F}', '\u{FF03}', '\u{FE5F}',
    '\u{FF1A}', '\u{FF1B}', '\u{FE54}', '\u{2474}', '\u{2488}', '\u{FF0E}',
];

/// A piece of a `mailto` domain or local part: letters (some upper-case,
/// some not ASCII), digits, `.`, `-`, `_`, and the tempters above, raw or
/// as their UTF-8 triplets.
fn mailto_piece() -> impl Strategy<Value = String> {
    let tempter = select(MAILTO_TEMPTERS.to_vec());
    prop_oneof![
        4 => "[a-zA-Z0-9]{1,4}".prop_map(String::from),
        1 => select(vec![".", "-", "_", "\u{FC}", "\u{C9}", "\u{3B1}", "xn--bcher-kva"])
            .prop_map(String::from),
        2 => tempter.clone().prop_map(String::from),
        2 => tempter.prop_map(|c| {
            let mut b = [0u8; 4];
            c.encode_utf8(&mut b).bytes().map(|x| format!("%{x:02X}")).collect()
        }),
    ]
}

/// `mailto:` with one to three addresses whose local parts and domains are
/// made of [`mailto_piece`]s, and sometimes header fields.
fn mailto_uri() -> impl Strategy<Value = String> {
    let part = || prop::collection::vec(mailto_piece(), 1..5).prop_map(|v| v.concat());
    let address = (part(), part()).prop_map(|(l, d)| format!("{l}@{d}"));
    (
        select(vec!["mailto:", "MAILTO:", "Mailto:"]),
        prop::collection::vec(address, 1..4),
        prop_oneof![3 => Just(String::new()), 1 => "\\?(subject|cc)=[a-zA-Z]{1,3}".prop_map(String::from)],
    )
        .prop_map(|(s, a, h)| format!("{s}{}{h}", a.join(",")))
}

/// The delimiters of a `mailto` URI (RFC 6068 §2) in `s`, unencoded, and
/// the parentheses of an RFC 5322 comment (which a `mailto` addr-spec may
/// not hold).
fn mailto_delimiters(s: &str) -> [usize; 12] {
    let mut n = [0; 12];
    for (k, d) in b",?&=@%/#:;()".iter().enumerate() {
        n[k] = s.bytes().filter(|b| b == d).count();
    }
    n
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024.max(ProptestConfig::default().cases)))]

    /// Round 8's `mailto:x@a，b` (U+FF0C mapped to `,`, one address split
    /// into two), as a class: at rung `scheme`, in both forms and under
    /// every option variant, normalizing a `mailto` URI never adds a
    /// delimiter of RFC 6068 §2 (so the addresses, their `@` and the
    /// header fields stay as many as they were; `%` may grow only when the
    /// `uri` form percent-encodes a character, never by a mapping), and is
    /// idempotent.
    #[test]
    fn mailto_never_gains_a_delimiter(x in mailto_uri(), v in variant_no_base()) {
        for form in FORMS {
            let Some(out) = norm(&x, Rung::Scheme, form, v) else { continue };
            let (a, b) = (mailto_delimiters(&x), mailto_delimiters(&out));
            for k in 0..12 {
                // `%` (index 5) grows where the `uri` form encodes.
                if k != 5 {
                    prop_assert!(b[k] <= a[k], "{:?} -> {:?} ({:?}, {:?})", x, out, form, v);
                }
            }
            // No triplet of an ASCII delimiter appears decoded, and no
            // mapping wrote a `%` of its own: every `%` of the output
            // starts a triplet that is either in the input or encodes a
            // byte >= 0x80.
            for (i, _) in out.match_indices('%') {
                let t = &out[i..(i + 3).min(out.len())];
                let hi = u8::from_str_radix(t.get(1..3).unwrap_or("zz"), 16).is_ok_and(|b| b >= 0x80);
                prop_assert!(hi || x.contains(t), "{:?} -> {:?}: {}", x, out, t);
            }
            let again = norm(&out, Rung::Scheme, form, v);
            prop_assert_eq!(again.as_deref(), Some(&*out), "{:?}", x);
        }
    }
}

/// The generator reaches the shape of round 8's defect: a domain holding
/// a tempter, raw and as triplets.
#[test]
fn mailto_generator_covers_the_tempters() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let g = mailto_uri();
    let (mut raw, mut encoded, mut several) = (false, false, false);
    for _ in 0..2000 {
        let x = g.new_tree(&mut runner).unwrap().current();
        let domain = x.split('@').nth(1).unwrap_or("").to_owned();
        raw |= domain.contains('\u{FF0C}');
        encoded |= domain.contains("%EF%BC%8C");
        several |= x.matches('@').count() >= 2;
    }
    assert!(raw && encoded && several, "{raw} {encoded} {several}");
}

// ---------------------------------------------------------------------------
// 5: forms agree
// ---------------------------------------------------------------------------

proptest! {
    #[test]
    fn forms_agree(x in reference(), v in variant()) {
        let Some(iri1) = norm(&x, Rung::Syntax, Form::Iri, v) else { return Ok(()) };
        let uri1 = norm(&x, Rung::Syntax, Form::Uri, v).unwrap();
        let mapped = iri_to_uri(&iri1).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert_eq!(mapped.as_ref(), uri1.as_str(), "syntax {:?} {:?}", x, v);

        let iri2 = norm(&x, Rung::Scheme, Form::Iri, v).unwrap();
        let uri2 = norm(&x, Rung::Scheme, Form::Uri, v).unwrap();
        let back = nz(Rung::Scheme, Form::Uri, v).normalize(&iri2).unwrap();
        prop_assert_eq!(back.as_ref(), uri2.as_str(), "scheme {:?} via {:?} {:?}", x, iri2, v);
        // The iri form reports what the uri form reports.
        let wu = nz(Rung::Scheme, Form::Uri, v).normalize_full(&x).unwrap().warnings;
        let wi = nz(Rung::Scheme, Form::Iri, v).normalize_full(&x).unwrap().warnings;
        prop_assert_eq!(wu.is_empty(), wi.is_empty(), "{:?}: {:?} / {:?}", x, wu, wi);
    }
}

// ---------------------------------------------------------------------------
// 6: never decoded
// ---------------------------------------------------------------------------

const MARK: &str = "zqjz";

/// Whether scheme-specific rules may treat the marker and the triplet
/// differently (they parse what they rewrite: `urn` NIDs, `tel` parameter
/// order, `mailto` domains); there the check is containment only.
/// Whether the reference the normalizer sees has a scheme with rules of
/// its own: the reference's scheme or, when it has none and the variant
/// resolves it against a base, the base's (RFC 3986 §5.2.2: `T.scheme =
/// Base.scheme`). Round 8: with `Base("mailto:x@Y.org")`, the relative
/// `Joe@Ex%41mple.COM,b@x%3AxBücher.DE` is a mailto address list, where a
/// triplet in a domain rightly keeps UTS #46 from mapping it while the
/// marker lets it map; the oracle judged it by the reference's own
/// (missing) scheme and asked for the marker's output.
fn special_scheme(p: &Parts, v: Variant) -> bool {
    let base_scheme = match v {
        Variant::Base(b) => b.split(':').next(),
        _ => None,
    };
    p.scheme
        .as_deref()
        .or(base_scheme)
        .map(str::to_ascii_lowercase)
        .and_then(|s| SchemeRegistry::builtin().get(&s).map(|i| i.special))
        .is_some_and(|s| !matches!(s, Special::None | Special::File))
}

proptest! {
    #[test]
    fn never_decoded(
        p in parts(None),
        slot in slot(),
        at in any::<Index>(),
        t in select(NEVER_DECODED),
        v in variant(),
    ) {
        let Some(planted) = plant(&p, slot, at, t) else { return Ok(()) };
        let marked = plant(&p, slot, at, MARK).unwrap();
        if parse(&planted, Grammar::IriReference).is_err() {
            return Ok(());
        }
        let upper = format!("x{}x", t.to_ascii_uppercase());
        for rung in Rung::ALL {
            for form in FORMS {
                let n = nz(rung, form, v);
                let out = n.normalize(&planted).unwrap();
                let Ok(outm) = n.normalize(&marked) else { return Ok(()) };
                let kept = outm.contains(&format!("x{MARK}x"));
                if rung == Rung::String {
                    // The identity: the text as it was.
                    let lit = format!("x{t}x");
                    prop_assert!(!kept || out.contains(&lit), "{:?} -> {:?}", planted, out);
                    continue;
                }
                if slot == Slot::Host {
                    prop_assert!(
                        out.contains(&upper),
                        "{} lost from the host: {:?} -> {:?} at {}/{} {:?}",
                        t, planted, out, rung, form.name(), v
                    );
                } else if special_scheme(&p, v) {
                    prop_assert!(
                        !kept || out.contains(&upper),
                        "{} lost: {:?} -> {:?} at {}/{} {:?}",
                        t, planted, out, rung, form.name(), v
                    );
                } else {
                    let want = outm.replace(&format!("x{MARK}x"), &upper);
                    prop_assert_eq!(
                        out.as_ref(),
                        want.as_str(),
                        "{} at {}/{} {:?}: {:?} (marker: {:?})",
                        t, rung, form.name(), v, planted, marked
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 7: total; entry points agree
// ---------------------------------------------------------------------------

fn exercise(x: &str, v: Variant) -> Result<(), TestCaseError> {
    for rung in Rung::ALL {
        for form in FORMS {
            let n = nz(rung, form, v);
            let full = n.normalize_full(x);
            let mut into = String::from("prefix:");
            let w = n.normalize_into(x, &mut into);
            let key = n.key(x);
            let _ = n.explain(x);
            let Ok(full) = full else {
                prop_assert!(w.is_err() && key.is_err() && n.digest(x).is_err());
                prop_assert_eq!(into.as_str(), "prefix:");
                continue;
            };
            let text = full.text.as_ref();
            prop_assert_eq!(&into["prefix:".len()..], text);
            prop_assert_eq!(w.unwrap(), full.warnings.clone());
            prop_assert_eq!(n.normalize(x).unwrap(), text);
            // The key is the uri-form normal string (a URN's without its
            // r/q/f-components at rung scheme).
            let key = key.unwrap();
            let uri = nz(rung, Form::Uri, v).normalize(x).unwrap();
            let urn = uri.get(..4).is_some_and(|s| s.eq_ignore_ascii_case("urn:"));
            prop_assert!(
                key == uri || (rung == Rung::Scheme && urn && uri.starts_with(&key)),
                "key {:?} of {:?} vs {:?}",
                key,
                x,
                uri
            );
            prop_assert_eq!(n.digest(x).unwrap(), Key::of(&key));
            prop_assert_eq!(n.equivalent(x, x).unwrap(), true);
            prop_assert_eq!(n.compare(x, x).unwrap(), Some(Rung::String));
            // explain() gives the same outputs and warnings at every step.
            let e = n.explain(x).unwrap();
            for step in &e.steps {
                let o = nz(step.rung, step.form, v).normalize_full(x).unwrap();
                prop_assert_eq!(step.output.as_str(), o.text.as_ref());
                prop_assert_eq!(&step.warnings, &o.warnings);
            }
            for w in &full.warnings {
                match w {
                    Warning::Idna { error, .. } => prop_assert!(!error.kind.code().is_empty()),
                    Warning::CharNormKept { text, would_be } => {
                        prop_assert!(v == Variant::Nfc || v == Variant::Nfkc, "{w}");
                        prop_assert_ne!(text, would_be);
                    }
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn total_on_anything(x in anything(), v in variant()) {
        exercise(&x, v)?;
    }

    #[test]
    fn total_on_bytes(b in prop::collection::vec(any::<u8>(), 0..64), label in select(vec!["windows-1252", "shift_jis", "utf-8", "gb18030", "iso-2022-jp"])) {
        let enc = ladder::encoding_for_label(label).unwrap();
        if let Ok(s) = ladder::decode_input(&b, enc) {
            exercise(&s, Variant::Plain)?;
        }
        exercise(&String::from_utf8_lossy(&b), Variant::Plain)?;
    }
}

// ---------------------------------------------------------------------------
// Regressions (bugs these properties found), with expectations derived
// from LADDER.md, not from the code's output
// ---------------------------------------------------------------------------

fn full(s: &str, rung: Rung, form: Form, idna: IdnaProfile) -> (String, usize) {
    let r = Normalizer::new(Options {
        idna,
        ..Options::new(rung, form)
    })
    .normalize_full(s)
    .unwrap();
    (r.text.into_owned(), r.warnings.len())
}

/// LADDER.md rung 1: "No other triplet is ever decoded at any rung"; rung
/// 2: a host that UTS #46 cannot take stays as rung 1 left it, reported.
/// The IDN step used to decode the whole host first: `é%2C.com` became
/// `xn--,-9fa.com`, and a `mailto` domain `é%2C.com` became `é,.com`,
/// which splits the address in two (RFC 6068 `to` is comma-separated).
#[test]
fn regression_idn_never_decodes_reserved_triplets() {
    let d = IdnaProfile::default();
    let cases = [
        (
            "http://é%2C.com/",
            "http://%C3%A9%2C.com/",
            "http://é%2C.com/",
        ),
        (
            "http://a%2Cb.xn--bcher-kva.de/",
            "http://a%2Cb.xn--bcher-kva.de/",
            "http://a%2Cb.xn--bcher-kva.de/",
        ),
        (
            "http://%C3%A9%25.com/",
            "http://%C3%A9%25.com/",
            "http://é%25.com/",
        ),
        (
            "mailto:a@é%2C.com",
            "mailto:a@%C3%A9%2C.com",
            "mailto:a@é%2C.com",
        ),
    ];
    for (input, uri, iri) in cases {
        assert_eq!(
            full(input, Rung::Scheme, Form::Uri, d),
            (uri.to_owned(), 1),
            "{input}"
        );
        assert_eq!(
            full(input, Rung::Scheme, Form::Iri, d),
            (iri.to_owned(), 1),
            "{input}"
        );
    }
    // Without the reserved triplet the same hosts are mapped.
    assert_eq!(
        full("http://é.com/", Rung::Scheme, Form::Uri, d),
        ("http://xn--9ca.com/".to_owned(), 0)
    );
    assert_eq!(
        full("mailto:a@é.com", Rung::Scheme, Form::Uri, d),
        ("mailto:a@xn--9ca.com".to_owned(), 0)
    );
}

/// UTS #46 with UseSTD3ASCIIRules / CheckHyphens / VerifyDnsLength refuses
/// `a_b`, `-a`, `ab--c`, a 64-letter label (IdnaTestV2 codes U1, V3, V2,
/// A4_2); the fast path for pure-ASCII hosts used to skip UTS #46 even
/// under such a profile, accepting them silently.
#[test]
fn regression_conformance_profile_checks_ascii_hosts() {
    let long = format!("http://{}.com/", "a".repeat(64));
    for input in [
        "http://a_b.com/",
        "http://-a.com/",
        "http://ab--c.com/",
        &long,
    ] {
        for form in FORMS {
            assert_eq!(
                full(input, Rung::Scheme, form, IdnaProfile::CONFORMANCE),
                (input.to_owned(), 1),
                "{input}"
            );
            assert_eq!(
                full(input, Rung::Scheme, form, IdnaProfile::default()),
                (input.to_owned(), 0),
                "{input}"
            );
        }
    }
    // Valid names pass without warnings, and `file:///` (empty host) too.
    for input in ["http://example.com/", "file:///etc/hosts"] {
        assert_eq!(
            full(input, Rung::Scheme, Form::Uri, IdnaProfile::CONFORMANCE),
            (input.to_owned(), 0)
        );
    }
}

/// LADDER.md rung 1 decodes unreserved triplets "in every component"; an
/// RFC 6874 zone is part of the host. The fast path did not look into
/// zones, so `//[::%25%41]` stayed as it was while `//[::%25%41]/%2f`
/// (slow path) became `//[::%25A]/%2F`: the normal form of the host
/// depended on the path.
#[test]
fn regression_zone_triplets_normalized_on_the_fast_path() {
    for form in FORMS {
        let n = Normalizer::new(Options::new(Rung::Syntax, form));
        assert_eq!(n.normalize("//[::%25%41]").unwrap(), "//[::%25A]");
        assert_eq!(n.normalize("//[::%25%41]/%2f").unwrap(), "//[::%25A]/%2F");
        assert_eq!(
            n.normalize("http://[fe80::1%25en%2f1]/").unwrap(),
            "http://[fe80::1%25en%2F1]/"
        );
        assert_eq!(
            n.normalize("http://[fe80::1%25en1]/").unwrap(),
            "http://[fe80::1%25en1]/"
        );
    }
}

/// RFC 8089 §2: `file://localhost/p` is `file:///p`, for the host as rung
/// 1 leaves it. Checking the raw text made `file://%6Cocalhost/p` and
/// `file://localhost:/p` normalize to `file://localhost/p`, whose normal
/// form is `file:///p`: not idempotent.
#[test]
fn regression_file_localhost_after_rung_1() {
    for form in FORMS {
        let n = Normalizer::new(Options::new(Rung::Scheme, form));
        for input in [
            "file://localhost/p",
            "FILE://LocalHost/p",
            "file://%6Cocalhost/p",
            "file://localhost:/p",
        ] {
            assert_eq!(n.normalize(input).unwrap(), "file:///p", "{input}");
        }
        for (input, want) in [
            ("file://localhost:0/p", "file://localhost:0/p"),
            ("file://@localhost/p", "file://@localhost/p"),
            ("file://localhost./p", "file://localhost./p"),
        ] {
            assert_eq!(n.normalize(input).unwrap(), want, "{input}");
        }
    }
}

/// RFC 3966 §4: visual separators in `ext` and a global `phone-context`
/// are ignored. The `tel` normalizer removed them byte by byte and turned
/// every other byte into a character, so in `iri` form a non-ASCII value
/// came out mangled and not even an IRI (`ß` -> `Ã` + U+009F). Found by
/// the `normalize_string` fuzz target (forms/compare check).
#[test]
fn regression_tel_keeps_non_ascii_values() {
    let iri = Normalizer::new(Options::new(Rung::Scheme, Form::Iri));
    let uri = Normalizer::new(Options::new(Rung::Scheme, Form::Uri));
    for (input, want_iri, want_uri) in [
        (
            "tel:+1;ext=1-%C3%9F-",
            "tel:+1;ext=1ß",
            "tel:+1;ext=1%C3%9F",
        ),
        (
            "tel:+1-201;Ext=0http://%C3%9F.fooyn--/#-2",
            "tel:+1201;ext=0http://ßfooyn/#-2",
            "tel:+1201;ext=0http://%C3%9Ffooyn/#-2",
        ),
        (
            "tel:7042;phone-context=+1-é.2",
            "tel:7042;phone-context=+1é2",
            "tel:7042;phone-context=+1%C3%A92",
        ),
    ] {
        assert_eq!(iri.normalize(input).unwrap(), want_iri, "{input}");
        assert_eq!(uri.normalize(input).unwrap(), want_uri, "{input}");
        assert!(parse(want_iri, Grammar::IriReference).is_ok());
    }
}

/// The limit of invariant 4 (see the module documentation): with a base
/// whose path is rootless or empty and that has no authority, RFC 3986
/// §5.2.4 is not consistent with removing `seg/..` from relative
/// references. If this ever changes, update the property's precondition.
#[test]
fn resolution_does_not_commute_for_rootless_bases() {
    let n = Normalizer::new(Options::new(Rung::Syntax, Form::Uri));
    for (b, r, direct, via_normal) in [
        ("zz:x", "a/../b", "zz:/b", "zz:b"),
        ("zz:.", ".a/..", "zz:/", "zz:"),
        ("zz:", "a/..", "zz:/", "zz:"),
    ] {
        let lhs = n.normalize(&resolve(b, r).unwrap()).unwrap().into_owned();
        let nb = n.normalize(b).unwrap();
        let nr = n.normalize(r).unwrap();
        let rhs = n
            .normalize(&resolve(&nb, &nr).unwrap())
            .unwrap()
            .into_owned();
        assert_eq!(
            (lhs.as_str(), rhs.as_str()),
            (direct, via_normal),
            "{b} + {r}"
        );
    }
    // With an authority or an absolute path it commutes.
    for b in ["http://h", "zz:/x", "zz://h/x"] {
        let lhs = n
            .normalize(&resolve(b, "a/../b").unwrap())
            .unwrap()
            .into_owned();
        let rhs = n.normalize(&resolve(b, "b").unwrap()).unwrap().into_owned();
        assert_eq!(lhs, rhs, "{b}");
    }
}

/// The other limit of invariant 4: strict resolution does not see `%2E`
/// as a dot segment, rung 1 does. A resolver that treated segments that
/// decode to `.` / `..` as dot segments (as WHATWG URL and fluent-uri do)
/// would make these commute.
#[test]
fn resolution_does_not_commute_with_encoded_dot_segments() {
    let n = Normalizer::new(Options::new(Rung::Syntax, Form::Uri));
    for (b, r, direct, via_normal) in [
        ("http:/", ".a/%2E/..", "http:/.a/", "http:/"),
        (
            "http://h/x/y",
            "a/%2E%2E/../b",
            "http://h/x/a/b",
            "http://h/b",
        ),
    ] {
        let lhs = n.normalize(&resolve(b, r).unwrap()).unwrap().into_owned();
        let nb = n.normalize(b).unwrap();
        let nr = n.normalize(r).unwrap();
        let rhs = n
            .normalize(&resolve(&nb, &nr).unwrap())
            .unwrap()
            .into_owned();
        assert_eq!(
            (lhs.as_str(), rhs.as_str()),
            (direct, via_normal),
            "{b} + {r}"
        );
    }
}

/// The third limit of invariant 4: a base ending in `..` (RFC 3986 §5.2.3
/// merges with all but its last segment, before §5.2.4).
#[test]
fn resolution_does_not_commute_for_bases_ending_in_dot_dot() {
    let n = Normalizer::new(Options::new(Rung::Syntax, Form::Uri));
    for (b, r, direct, via_normal) in [
        ("http://h/a/..", "x", "http://h/a/x", "http://h/x"),
        ("http:/.a/..", "./a:b", "http:/.a/a:b", "http:/a:b"),
    ] {
        let lhs = n.normalize(&resolve(b, r).unwrap()).unwrap().into_owned();
        let nb = n.normalize(b).unwrap();
        let nr = n.normalize(r).unwrap();
        let rhs = n
            .normalize(&resolve(&nb, &nr).unwrap())
            .unwrap()
            .into_owned();
        assert_eq!(
            (lhs.as_str(), rhs.as_str()),
            (direct, via_normal),
            "{b} + {r}"
        );
    }
    // A base ending in `.` is fine: the merge drops it anyway.
    let lhs = n
        .normalize(&resolve("http://h/a/.", "x").unwrap())
        .unwrap()
        .into_owned();
    assert_eq!(lhs, "http://h/a/x");
}

/// The generators reach the shapes the brief lists.
#[test]
fn generators_cover_the_shapes() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let s = reference();
    let mut seen = [false; 10];
    for _ in 0..4000 {
        let x = s.new_tree(&mut runner).unwrap().current();
        let c = parse(&x, Grammar::IriReference)
            .map(|m| Components::of(&x, &m))
            .unwrap_or_default();
        let checks = [
            c.scheme.is_some() && c.authority.is_none() && c.path.starts_with("/.//"),
            c.scheme.is_none() && c.path.starts_with("./") && c.path.contains(':'),
            c.scheme.is_none() && c.authority.is_none() && c.path.starts_with(".."),
            c.port == Some(""),
            c.port.is_some_and(|p| p.starts_with('0') && p.len() > 1),
            c.host_kind == Some(irinorm::HostKind::Ipv6),
            c.host
                .is_some_and(|h| h.contains("xn--") || h.contains("XN--")),
            c.host.is_some_and(|h| !h.is_ascii()),
            x.contains("%2E") || x.contains("%2e"),
            x.contains("%c3%a9") && c.scheme.is_some_and(|s| s != s.to_ascii_lowercase()),
        ];
        for (k, c) in checks.iter().enumerate() {
            seen[k] |= c;
        }
    }
    assert_eq!(seen, [true; 10]);
}

/// The scheme-rule generators reach the shapes that found round 8's
/// defects: rooted bases of each scheme whose rule parses an `@` or `,`
/// beyond a `/`, and rootless references of each scheme with a `..` or `.`
/// segment (which resolution removes and rung 1 keeps).
#[test]
fn scheme_generators_cover_the_shapes() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (bases, opaque) = (special_absolute(), special_opaque());
    let schemes = ["mailto", "urn", "tel", "data"];
    let mut seen = [[false; 4]; 2];
    for _ in 0..4000 {
        let b = bases.new_tree(&mut runner).unwrap().current();
        let o = opaque.new_tree(&mut runner).unwrap().current();
        for (k, s) in schemes.iter().enumerate() {
            let rest = |x: &str| {
                x.get(..s.len() + 1)
                    .filter(|p| p.eq_ignore_ascii_case(&format!("{s}:")))
                    .map(|_| {
                        x[s.len() + 1..]
                            .split(['?', '#'])
                            .next()
                            .unwrap()
                            .to_owned()
                    })
            };
            if let Some(p) = rest(&b) {
                seen[0][k] |= p.starts_with('/') && p[1..].contains('/') && p.contains([',', '@']);
            }
            if let Some(p) = rest(&o) {
                seen[1][k] |= !p.starts_with('/') && p.split('/').any(|g| g == ".." || g == ".");
            }
        }
    }
    assert_eq!(seen, [[true; 4]; 2]);
}
