//! LADDER.md's invariants for named rules over rung 3 (`--rung protocol`
//! with `--preset` or `--apply`; `src/over_protocol.rs`, docs/rules.md
//! "Over rung 3"), over arbitrary in-memory evidence, per preset and for
//! sets of rules that can undo an edge (`remove-www`, `add-www`, the
//! trailing-slash rules, `remove-directory-index`, `force-https`):
//!
//! 1. Idempotent: N(N(x)) == N(x), and the key of N(x) is the key of x.
//! 3. Monotone: equal under the same rules at rung 2 implies equal at
//!    rung 3 under them.
//! 5. Forms agree: the `uri`-form pipeline applied to the `iri`-form
//!    output gives the `uri`-form output.
//!
//! Case counts: at least 512, more with `PROPTEST_CASES` (docs/testing.md).

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm::protocol::{BuiltEvidence, MemoryEvidence, Protocol, ProtocolOptions, RawObservation};
use irinorm_rules::{Config, Pipeline, Preset, RuleName, RuleSet};
use proptest::prelude::*;

#[path = "../../irinorm/tests/support/evidence.rs"]
mod evidence;

/// URLs that the rules and the conventional redirects both touch: `www.`,
/// trailing slashes, directory indexes, tracking and session parameters,
/// fragments, an IDN host and `http`/`https`; and (round 18) URNs with r-,
/// q- and f-components, which rung 2 compares without (RFC 8141 §3.1), in
/// chains with the URLs under the wider policies.
fn url() -> impl Strategy<Value = String> {
    prop_oneof![4 => http_url(), 1 => urn()]
}

fn urn() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["urn:example:", "URN:Example:"]),
        prop::sample::select(vec!["a", "b"]),
        prop::sample::select(vec!["", "?+r", "?=q", "?=utm_source=1"]),
        prop::sample::select(vec!["", "#f"]),
    )
        .prop_map(|(n, s, rq, f)| format!("{n}{s}{rq}{f}"))
}

fn http_url() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["http", "https"]),
        prop::sample::select(vec![
            "a.example.com",
            "www.a.example.com",
            "bücher.example.com",
            "www.bücher.example.com",
        ]),
        prop::sample::select(vec![
            "",
            "/",
            "/p",
            "/p/",
            "/P",
            "/p/index.html",
            "/p//q",
            "/é",
        ]),
        prop::sample::select(vec![
            "",
            "?",
            "?utm_source=1",
            "?id=2",
            "?utm_source=1&id=2",
            "?id=2&sid=3",
            "?sid=3",
        ]),
        prop::sample::select(vec!["", "#f"]),
    )
        .prop_map(|(s, h, p, q, f)| format!("{s}://{h}{p}{q}{f}"))
}

fn observation() -> impl Strategy<Value = RawObservation> {
    evidence::observation(url, evidence::DENSE, false)
}

/// A preset, or a set of rules that can undo what a redirect did.
fn rules() -> impl Strategy<Value = RuleSet> {
    prop_oneof![
        prop::sample::select(vec![
            Preset::Rfc,
            Preset::Fetch,
            Preset::Crawler,
            Preset::Aggressive
        ])
        .prop_map(|p| p.rule_set()),
        prop::sample::subsequence(
            vec![
                RuleName::RemoveWww,
                RuleName::RemoveTrailingSlash,
                RuleName::RemoveDirectoryIndex,
                RuleName::ForceHttps,
                RuleName::RemoveQueryParams,
                RuleName::RemoveSessionIds,
                RuleName::RemoveFragment,
            ],
            0..4,
        )
        .prop_map(|v| RuleSet::of(&v).unwrap()),
        prop::sample::subsequence(
            vec![
                RuleName::AddWww,
                RuleName::AddTrailingSlash,
                RuleName::ForceHttp,
                RuleName::SortQuery,
            ],
            0..3,
        )
        .prop_map(|v| RuleSet::of(&v).unwrap()),
    ]
}

fn parts(
    obs: &[RawObservation],
    rules: RuleSet,
    form: Form,
    pol: ProtocolOptions,
) -> (Protocol<BuiltEvidence>, Pipeline) {
    let mut m = MemoryEvidence::default();
    for o in obs {
        m.add(o.clone());
    }
    let opts = Options::new(Rung::Scheme, form);
    let p = Protocol::new(opts.clone(), m.build(), pol);
    let r = Pipeline::new(Normalizer::new(opts), rules, Config::default());
    (p, r)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512.max(ProptestConfig::default().cases)))]

    /// Invariants 1 and 3, in both forms.
    #[test]
    fn rules_over_protocol_are_idempotent_and_monotone(
        obs in prop::collection::vec(observation(), 0..24),
        set in rules(),
        pol in evidence::policy(),
        a in url(),
        b in url(),
    ) {
        for form in [Form::Uri, Form::Iri] {
            let (p, r) = parts(&obs, set, form, pol);
            for x in [&a, &b] {
                let once = r.normalize_over_protocol(&p, x).unwrap();
                prop_assert_eq!(r.normalize_over_protocol(&p, &once).unwrap(), once.clone(),
                    "not idempotent on {} ({:?} {:?})", x, form, pol);
                let k = r.key_over_protocol(&p, x).unwrap();
                prop_assert_eq!(r.key_over_protocol(&p, &k).unwrap(), k.clone(), "key of {}", x);
                prop_assert_eq!(r.key_over_protocol(&p, &once).unwrap(), k, "key of N({})", x);
            }
            if r.key(&a).unwrap() == r.key(&b).unwrap() {
                prop_assert_eq!(
                    r.key_over_protocol(&p, &a).unwrap(),
                    r.key_over_protocol(&p, &b).unwrap(),
                    "equal under the rules at rung 2, not at rung 3 ({:?})", form
                );
            }
        }
    }

    /// Invariant 5.
    #[test]
    fn rules_over_protocol_forms_agree(
        obs in prop::collection::vec(observation(), 0..24),
        set in rules(),
        pol in evidence::policy(),
        x in url(),
    ) {
        let (pu, ru) = parts(&obs, set, Form::Uri, pol);
        let (pi, ri) = parts(&obs, set, Form::Iri, pol);
        let u = ru.normalize_over_protocol(&pu, &x).unwrap();
        let i = ri.normalize_over_protocol(&pi, &x).unwrap();
        let back = ru.normalize(&i).unwrap().text.into_owned();
        prop_assert_eq!(&back, &u, "{} via {}", x, i);
        prop_assert_eq!(ri.key_over_protocol(&pi, &x).unwrap(), ru.key_over_protocol(&pu, &x).unwrap());
    }
}
