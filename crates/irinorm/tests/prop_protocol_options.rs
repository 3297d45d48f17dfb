//! Property tests of rung 3 (LADDER.md "Rung 3") crossed with what
//! `prop_protocol.rs` leaves at its default: the ladder options (`nfc` /
//! `nfkc`, a caller's scheme registry, `ignore_fragment`), the `iri` form,
//! and URLs and evidence written as IRIs or as their percent-encoded URIs.
//! LADDER.md asks its invariants "for every rung, form, preset and option":
//! here 1 (idempotent), 2 (stable structure), 3 (monotone: equal at rung 2
//! implies equal at rung 3) and 5 (forms agree) at rung 3 (docs/testing.md,
//! round 11).

use irinorm::ladder::{CharNorm, Form, Normalizer, Options, Rung};
use irinorm::protocol::{MemoryEvidence, Protocol, ProtocolOptions, RawObservation};
use irinorm::scheme::{SchemeInfo, SchemeRegistry};
use proptest::prelude::*;

#[path = "support/evidence.rs"]
mod evidence;

/// A small universe of URLs, so that observations form chains, whose text
/// differs under the options: NFD and NFC spellings, compatibility
/// characters (NFKC), an IDN host as U-label, A-label and triplets, raw
/// and encoded non-ASCII paths, and the ports a caller's registry may
/// call default; and (round 18) URNs with r-, q- and f-components, which
/// rung 2 compares without (RFC 8141 §3.1).
fn url() -> impl Strategy<Value = String> {
    prop_oneof![4 => http_url(), 1 => urn()]
}

/// One name at rung 2 in several spellings (NID case, r-, q- and
/// f-components, a non-ASCII NSS), and a second name.
fn urn() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["urn:example:", "URN:Example:"]),
        prop::sample::select(vec!["a", "b", "e\u{301}"]),
        prop::sample::select(vec!["", "?+r", "?=q", "?=é"]),
        prop::sample::select(vec!["", "#f", "#é"]),
    )
        .prop_map(|(n, s, rq, f)| format!("{n}{s}{rq}{f}"))
}

fn http_url() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["http", "https", "HTTP"]),
        prop::sample::select(vec![
            "a.example",
            "www.a.example",
            "bücher.example",
            "xn--bcher-kva.example",
            "b%C3%BCcher.example",
            "a.example:8080",
            "a.example:80",
        ]),
        prop::sample::select(vec![
            "",
            "/",
            "/x",
            "/x/",
            "/X",
            "/e\u{301}",
            "/é",
            "/%C3%A9",
            "/e%CC%81",
            "/e\u{301}/",
            "/ﬁ",
            "/fi",
            "/x/index.html",
        ]),
        prop::sample::select(vec!["", "?id=1", "?sid=2&id=1", "?q=é", "?q=e\u{301}"]),
        prop::sample::select(vec!["", "#f", "#é"]),
    )
        .prop_map(|(s, h, p, q, f)| format!("{s}://{h}{p}{q}{f}"))
}

fn observation() -> impl Strategy<Value = RawObservation> {
    evidence::observation(url, evidence::DENSE, false)
}

/// The ladder options a caller can set for rung 3 (the CLI's `--nfc`,
/// `--nfkc`, `--ignore-fragment`, `--schemes`).
fn options() -> impl Strategy<Value = Options> {
    (
        prop::sample::select(vec![CharNorm::None, CharNorm::Nfc, CharNorm::Nfkc]),
        any::<bool>(),
        0u8..3,
    )
        .prop_map(|(char_norm, ignore_fragment, reg)| {
            let mut schemes = SchemeRegistry::builtin();
            match reg {
                // A caller's registry: port 8080 is http's default here.
                1 => schemes.insert(
                    "http",
                    SchemeInfo {
                        default_port: Some(8080),
                        ..*SchemeRegistry::builtin().get("http").unwrap()
                    },
                ),
                // http unknown: no default port, no IDN mapping.
                2 => schemes.forget("http"),
                _ => {}
            }
            Options {
                char_norm,
                ignore_fragment,
                schemes,
                ..Options::default()
            }
        })
}

fn protocol(
    obs: &[RawObservation],
    opts: &Options,
    form: Form,
    p: ProtocolOptions,
) -> Protocol<irinorm::protocol::BuiltEvidence> {
    let mut m = MemoryEvidence::default();
    for o in obs {
        m.add(o.clone());
    }
    Protocol::new(
        Options {
            form,
            ..opts.clone()
        },
        m.build(),
        p,
    )
}

fn rung2(opts: &Options, form: Form) -> Normalizer {
    Normalizer::new(Options {
        rung: Rung::Scheme,
        form,
        ..opts.clone()
    })
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig::with_cases(512.max(ProptestConfig::default().cases)))]

    /// Invariants 1, 2 and 3 at rung 3, in both forms, under every option.
    #[test]
    fn idempotent_stable_and_monotone_under_options(
        obs in prop::collection::vec(observation(), 0..24),
        opts in options(),
        pol in evidence::policy(),
        a in url(),
        b in url(),
    ) {
        for form in [Form::Uri, Form::Iri] {
            let p = protocol(&obs, &opts, form, pol);
            let n2 = rung2(&opts, form);
            for x in [&a, &b] {
                let once = p.normalize(x).unwrap();
                // 1: idempotent.
                prop_assert_eq!(p.normalize(&once).unwrap(), once.clone(),
                    "not idempotent on {} ({:?}, {:?}, {:?})", x, form, opts.char_norm, pol);
                prop_assert_eq!(p.key(&once).unwrap(), p.key(x).unwrap());
                // 2: the output is a rung-2 normal form of its form, with
                // a fragment exactly when rung 2 keeps the input's.
                let again = n2.normalize(&once).unwrap().into_owned();
                prop_assert_eq!(&again, &once, "not a rung-2 normal form: {} from {}", once, x);
                // A URN's f-component is not inherited by an end that is
                // not a URN (round 18: rung 2 compares URNs without it).
                let n = n2.normalize(x).unwrap();
                let urn_to_url = n.starts_with("urn:") && !once.starts_with("urn:");
                let had = n.contains('#') && !urn_to_url;
                prop_assert_eq!(once.contains('#'), had, "fragment of {} in {}", x, once);
            }
            // 3: monotone over rung 2.
            if n2.key(&a).unwrap() == n2.key(&b).unwrap() {
                prop_assert_eq!(p.key(&a).unwrap(), p.key(&b).unwrap());
            }
        }
    }

    /// Invariant 5: the `uri`-form normalizer applied to the `iri` form
    /// gives the `uri` form, and both forms give the same key.
    #[test]
    fn forms_agree_under_options(
        obs in prop::collection::vec(observation(), 0..24),
        opts in options(),
        pol in evidence::policy(),
        x in url(),
    ) {
        let pu = protocol(&obs, &opts, Form::Uri, pol);
        let pi = protocol(&obs, &opts, Form::Iri, pol);
        let u = pu.normalize(&x).unwrap();
        let i = pi.normalize(&x).unwrap();
        let back = rung2(&opts, Form::Uri).normalize(&i).unwrap();
        prop_assert_eq!(back.as_ref(), u.as_str(), "{} via {}", x, i);
        prop_assert_eq!(pi.key(&x).unwrap(), pu.key(&x).unwrap());
    }
}

/// A relative reference against the URLs above (round 16): paths with
/// dot segments, NFD and encoded non-ASCII, a query or fragment alone, a
/// network-path reference, empty.
fn relative() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "",
        "x",
        "x/",
        "X",
        "./x",
        "../x",
        "../../x/",
        "/x",
        "/x/index.html",
        "e\u{301}",
        "%C3%A9",
        "ﬁ",
        "?id=1",
        "?sid=2&id=1",
        "#f",
        "#é",
        "//a.example",
        "//a.example:80/x",
        "//xn--bcher-kva.example/",
        ".",
        "..",
    ])
    .prop_map(str::to_owned)
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig::with_cases(256.max(ProptestConfig::default().cases)))]

    /// Rung 3 with a base (`--rung protocol --base`, round 16): the
    /// reference resolved first, then rung 3 (`Protocol::with_base`, RFC
    /// 3986 §5.2), in both forms and under every option: the same text and
    /// key as rung 3 of the resolved reference; idempotent (1); and equal
    /// at rung 2 with the base implies equal at rung 3 with it (3).
    #[test]
    fn with_a_base_is_resolution_then_rung_3(
        obs in prop::collection::vec(observation(), 0..24),
        opts in options(),
        pol in evidence::policy(),
        base in url(),
        r in relative(),
        r2 in relative(),
    ) {
        for form in [Form::Uri, Form::Iri] {
            let p = protocol(&obs, &opts, form, pol);
            let pb = protocol(&obs, &opts, form, pol).with_base(&base).unwrap();
            let n2b = rung2(&opts, form).with_base(&base).unwrap();
            for x in [&r, &r2] {
                let target = irinorm::resolve(&base, x).unwrap();
                let once = pb.normalize(x).unwrap();
                prop_assert_eq!(&once, &p.normalize(&target).unwrap(),
                    "{:?} against {} ({}): resolved {}", x, base, form.name(), target);
                prop_assert_eq!(pb.key(x).unwrap(), p.key(&target).unwrap(), "key of {:?}", x);
                prop_assert_eq!(pb.normalize(&once).unwrap(), once.clone(), "not idempotent on {:?}", x);
                prop_assert_eq!(pb.key(&once).unwrap(), pb.key(x).unwrap());
            }
            if n2b.key(&r).unwrap() == n2b.key(&r2).unwrap() {
                prop_assert_eq!(pb.key(&r).unwrap(), pb.key(&r2).unwrap(), "{:?} {:?} against {}", r, r2, base);
            }
        }
    }
}
