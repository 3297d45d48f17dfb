//! Property tests of rung 3 (LADDER.md "Rung 3", "Invariants" 1 and 3) over
//! arbitrary in-memory evidence: idempotent, monotone over rung 2, chains
//! end (cycles, the hop limit), and no evidence means rung 2.

use irinorm::ladder::{Normalizer, Options};
use irinorm::protocol::{MemoryEvidence, Protocol, RawObservation, Stop, Verdict, MAX_HOPS};
use proptest::prelude::*;

#[path = "support/evidence.rs"]
mod evidence;

/// A small universe of URLs so that random observations form chains,
/// cycles and host conventions, in spellings that differ at rung 2; and
/// (round 18) URNs, whose rung-2 key leaves out the r-, q- and
/// f-components its normal form keeps (RFC 8141 §3.1, LADDER.md rung 2),
/// with redirects between them and to and from `http` URLs.
fn url() -> impl Strategy<Value = String> {
    prop_oneof![4 => http_url(), 1 => urn()]
}

/// URNs that are one name at rung 2 in several spellings (NID case, r-,
/// q- and f-components), and a second name.
fn urn() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["urn:example:", "URN:Example:", "urn:ex-2:"]),
        prop::sample::select(vec!["a", "b", "a/b"]),
        prop::sample::select(vec!["", "?+r", "?=q", "?+r?=q", "?=q2"]),
        prop::sample::select(vec!["", "#f"]),
    )
        .prop_map(|(n, s, rq, f)| format!("{n}{s}{rq}{f}"))
}

fn http_url() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["http", "https", "HTTP"]),
        prop::sample::select(vec![
            "a.example",
            "www.a.example",
            "B.example",
            "a.example:80",
        ]),
        prop::sample::select(vec![
            "",
            "/",
            "/x",
            "/x/",
            "/X",
            "/x/index.html",
            "/%7ey",
            "/./x",
        ]),
        prop::sample::select(vec!["", "?id=1", "?sid=2&id=1", "#f"]),
    )
        .prop_map(|(s, h, p, q)| format!("{s}://{h}{p}{q}"))
}

fn observation() -> impl Strategy<Value = RawObservation> {
    evidence::observation(url, evidence::ALL_STATUSES, true)
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig::with_cases(512.max(ProptestConfig::default().cases)))]

    #[test]
    fn idempotent_monotone_and_terminating(
        obs in prop::collection::vec(observation(), 0..40),
        opts in evidence::policy(),
        a in url(),
        b in url(),
    ) {
        let mut m = MemoryEvidence::default();
        for o in obs {
            m.add(o);
        }
        let p = Protocol::new(Options::default(), m.build(), opts);
        let n2 = Normalizer::default();
        for x in [&a, &b] {
            let once = p.normalize(x).unwrap();
            prop_assert_eq!(p.normalize(&once).unwrap(), once.clone(), "not idempotent on {}", x);
            prop_assert_eq!(p.key(&once).unwrap(), p.key(x).unwrap());
            let ch = p.chain(x).unwrap();
            prop_assert!(ch.hops.len() <= MAX_HOPS + 1);
            if ch.stop == Stop::TooLong {
                prop_assert_eq!(&ch.end, &ch.start);
            }
        }
        // Monotone: equal at rung 2 implies equal at rung 3.
        if n2.key(&a).unwrap() == n2.key(&b).unwrap() {
            prop_assert_eq!(p.key(&a).unwrap(), p.key(&b).unwrap());
        }
        // `compare` and the keys agree (what `dedupe` and `compare` rest
        // on): equivalent at some rung iff the rung-3 keys are equal.
        let same = !matches!(p.compare(&a, &b).unwrap(), Verdict::Different(_));
        prop_assert_eq!(same, p.key(&a).unwrap() == p.key(&b).unwrap(), "{} vs {}", a, b);
    }

    #[test]
    fn no_evidence_is_rung2(a in url(), opts in evidence::policy()) {
        let p = Protocol::new(Options::default(), MemoryEvidence::default().build(), opts);
        let n2 = Normalizer::default();
        prop_assert_eq!(p.normalize(&a).unwrap(), n2.normalize(&a).unwrap().into_owned());
        prop_assert_eq!(p.key(&a).unwrap(), n2.key(&a).unwrap());
    }
}

/// What `origin` computed before it became a scan: the parse's authority.
fn parsed_origin(key: &str) -> Option<&str> {
    let key = key.split_once('#').map_or(key, |(k, _)| k);
    let m = irinorm::split_trusted(key);
    let auth = m.authority(key)?;
    let end = m.scheme(key)?.len() + 3 + auth.len();
    key.get(..end)
}

proptest! {
    /// The scanning `origin` finds the parsed authority on every rung-2
    /// key: userinfo with `:`, IPv6 and IPvFuture literals, ports, empty
    /// authorities, no authority, queries and fragments right after it.
    #[test]
    fn origin_is_the_parsed_authority(
        s in "(http|HTTPS|file|urn|mailto|a+b-c.d|x)(://|:/|:)((u:p@)?(\\[v1\\.x:y\\]|\\[::1\\]|[a-z.]{0,6}|%41)(:[0-9]{0,3})?)?([/?#][a-z:/?#@]{0,6}){0,3}"
    ) {
        for k in [
            irinorm::protocol::evidence_key(&s).ok(),
            Normalizer::new(Options::default()).normalize(&s).ok().map(|c| c.into_owned()),
        ]
        .into_iter()
        .flatten()
        {
            prop_assert_eq!(irinorm::protocol::origin(&k), parsed_origin(&k), "{}", k);
        }
    }
}

proptest! {
    /// The normal form and the key (which follow the chain keeping only
    /// keys) end where the chain with every hop and record ends.
    #[test]
    fn normal_form_is_the_end_of_the_chain(
        obs in prop::collection::vec(observation(), 0..24),
        inputs in prop::collection::vec(url(), 1..8),
        opts in evidence::policy(),
    ) {
        let mut ev = MemoryEvidence::default();
        for o in obs {
            ev.add(o);
        }
        let p = Protocol::new(Options::default(), ev.build(), opts);
        for u in &inputs {
            let chain = p.chain(u).unwrap();
            let n = Normalizer::new(Options::default()).normalize(u).unwrap().into_owned();
            // The end inherits the fragment (RFC 9110 §10.2.2), except a
            // URN's f-component, which rung 2 compares without (RFC 8141
            // §3.1), when the end is not a URN; with no edge, rung 3 is
            // rung 2, r- and q-components kept (round 18).
            let urn = n.starts_with("urn:") && !chain.end.starts_with("urn:");
            let frag = if urn { "" } else { n.find('#').map_or("", |i| &n[i..]) };
            let expected = if chain.hops.is_empty() {
                n.clone()
            } else {
                format!("{}{frag}", chain.end)
            };
            prop_assert_eq!(p.normalize(u).unwrap(), expected.clone(), "{}", u);
            prop_assert_eq!(
                p.key(u).unwrap(),
                Normalizer::new(Options::default()).key(&expected).unwrap()
            );
        }
    }
}
