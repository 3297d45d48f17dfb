//! The invariants of LADDER.md ("Invariants: for every rung, form, preset
//! and option") for the presets, each preset a normalizer N at rung
//! `scheme` in both forms: `prop_ladder.rs` checks them for the bare
//! ladder, `prop_rules.rs` idempotence and structure for sets of rules;
//! here the rest, per preset (docs/rules.md, "The presets and the
//! invariants"):
//!
//! 3. Monotone: the presets nest (`rfc` < `fetch` < `crawler` <
//!    `aggressive`, `preset.rs`), and a larger one absorbs a smaller:
//!    N_big(N_small(x)) == N_big(x), so equal under the smaller implies
//!    equal under the larger; checked on pairs as well.
//! 4. Resolution commutes: N(resolve(B, R)) == N(resolve(N(B), N(R))) for
//!    absolute B with an authority, outside the shapes `prop_ladder.rs`
//!    excludes for the ladder itself (encoded dot segments, a base path
//!    ending in `..`). Holds for `rfc`, `fetch` and `crawler`. Not for
//!    `aggressive`: `remove-duplicate-slashes` changes how many segments
//!    a `..` climbs (`resolution_does_not_commute_under_duplicate_slashes`
//!    pins the counterexample; the rule is `unsafe`, LADDER.md).
//! 5. Forms agree: the `uri`-form pipeline applied to the `iri`-form
//!    output gives the `uri`-form output.
//! 6. Never decoded: a reserved character's triplet in a kept part (a path
//!    segment, a kept parameter's value) survives every preset.
//! 7. Total: no panic on any string; `normalize`, `normalize_into`,
//!    `normalize_text_into` and `key` agree.
//!
//! Case counts: at least 512, more with `PROPTEST_CASES` (docs/testing.md).

use irinorm::ladder::Form;
use irinorm::{parse, Grammar};
use irinorm_rules::Preset;
use proptest::prelude::*;

mod support;
use support::presets::{commutes, n, nested, pipeline, NESTED};
use support::{pick, relative, url};

const FORMS: [Form; 2] = [Form::Uri, Form::Iri];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512.max(ProptestConfig::default().cases)))]

    #[test]
    fn presets_are_idempotent_and_nest(x in prop_oneof![3 => url(), 1 => relative()]) {
        for form in FORMS {
            let ps = nested(form);
            for (i, small) in ps.iter().enumerate() {
                let Some(once) = n(small, &x) else { continue };
                prop_assert_eq!(n(small, &once), Some(once.clone()), "{} {:?}", NESTED[i], form);
                for (j, big) in ps.iter().enumerate().skip(i + 1) {
                    prop_assert_eq!(
                        n(big, &once), n(big, &x),
                        "{} after {} on {:?} ({:?})", NESTED[j], NESTED[i], x, form
                    );
                }
            }
        }
    }

    #[test]
    fn equal_under_a_preset_is_equal_under_the_larger_ones(a in url(), b in url()) {
        for form in FORMS {
            let ps = nested(form);
            let mut equal = false;
            for (i, p) in ps.iter().enumerate() {
                let (Some(x), Some(y)) = (n(p, &a), n(p, &b)) else { break };
                prop_assert!(!equal || x == y, "{:?} {:?} equal below {} but not under it", a, b, NESTED[i]);
                equal |= x == y;
            }
        }
    }

    #[test]
    fn resolution_commutes_for_rfc_fetch_crawler(b in url(), r in prop_oneof![3 => relative(), 1 => url()]) {
        for preset in [Preset::Rfc, Preset::Fetch, Preset::Crawler] {
            for form in FORMS {
                commutes(&pipeline(preset, form), &b, &r)
                    .map_err(|e| TestCaseError::fail(format!("{preset} {form:?}: {e}")))?;
            }
        }
    }

    #[test]
    fn forms_agree(x in prop_oneof![3 => url(), 1 => relative()]) {
        for preset in NESTED {
            let (u, i) = (pipeline(preset, Form::Uri), pipeline(preset, Form::Iri));
            let (Some(nu), Some(ni)) = (n(&u, &x), n(&i, &x)) else { continue };
            prop_assert_eq!(n(&u, &ni), Some(nu.clone()), "{} on {:?}: iri form {:?}", preset, x, ni);
            // And by the ladder's mapping alone (round 11): the rules run
            // again above would put back what they do in the `uri` form
            // (the order of sort-query) and hide a difference.
            let ladder = irinorm::ladder::Normalizer::new(irinorm::ladder::Options::new(
                preset.rung(),
                Form::Uri,
            ));
            let mapped = ladder.normalize(&ni).map(|c| c.into_owned()).ok();
            prop_assert_eq!(mapped, Some(nu), "{} on {:?}: iri form {:?} mapped", preset, x, ni);
        }
    }

    #[test]
    fn reserved_triplets_in_kept_parts_are_never_decoded(
        x in url(),
        t in pick(&["%2F", "%3F", "%23", "%26", "%3D", "%25", "%2f", "%C0%AF", "%40", "%2B"][..]),
    ) {
        // A last path segment and a kept parameter (`keep` is on no list
        // and no rule of the presets removes it) holding the triplet.
        let Ok(m) = parse(&x, Grammar::Uri) else { return Ok(()) };
        let mut y = format!("{}://{}{}/k{t}k?", m.scheme(&x).unwrap_or("http"),
            m.authority(&x).unwrap_or(""), m.path(&x).trim_end_matches('/'));
        y.push_str(&format!("keep=v{t}v"));
        let want = t.to_ascii_uppercase();
        for preset in NESTED {
            for form in FORMS {
                let Some(out) = n(&pipeline(preset, form), &y) else { continue };
                prop_assert!(out.contains(&format!("k{want}k")), "{} {:?}: {:?} -> {:?}", preset, form, y, out);
                prop_assert!(out.contains(&format!("keep=v{want}v")), "{} {:?}: {:?} -> {:?}", preset, form, y, out);
            }
        }
    }

    #[test]
    fn total_and_entry_points_agree(x in prop_oneof![2 => url(), 1 => relative(), 1 => any::<String>()]) {
        for preset in Preset::EVERY {
            for form in FORMS {
                let p = pipeline(preset, form);
                let one = n(&p, &x);
                let mut out = String::new();
                let mut fired = Vec::new();
                let into = p.normalize_into(&x, &mut out, &mut fired).ok().map(|_| out.clone());
                let mut text = String::new();
                let text_into = p.normalize_text_into(&x, &mut text, &mut Vec::new()).ok().map(|_| text.clone());
                prop_assert_eq!(&into, &one, "{} {:?} normalize_into", preset, form);
                prop_assert_eq!(&text_into, &one, "{} {:?} normalize_text_into", preset, form);
                // The key is the `uri`-form text (the ladder's key;
                // a URN's without its r/q/f-components).
                if !preset.is_lookup_key() {
                    let uri = n(&pipeline(preset, Form::Uri), &x);
                    if !uri.as_deref().is_some_and(|u| u.get(..4).is_some_and(|s| s.eq_ignore_ascii_case("urn:"))) {
                        prop_assert_eq!(p.key(&x).ok(), uri, "{} {:?} key", preset, form);
                    }
                }
            }
        }
    }
}

/// `aggressive` and invariant 4: `remove-duplicate-slashes` turns
/// `/a//b/c` into `/a/b/c`, and `../../x` climbs one segment more from the
/// latter than from the former (RFC 3986 §5.2.4 counts the empty segment),
/// so no normal form that removes `//` can commute with resolution; and
/// `remove-session-ids` takes a whole segment (`/(S(abc123))`, ASP.NET's
/// cookieless session), which moves the directory a relative path is
/// merged into. Both rules are `unsafe` (LADDER.md): `aggressive` accepts
/// them for deduplication. (With bases free of both, `aggressive`
/// commuted on 5,000 cases.)
#[test]
fn resolution_does_not_commute_under_duplicate_slashes_or_session_segments() {
    let p = pipeline(Preset::Aggressive, Form::Uri);
    let e = commutes(&p, "https://h.example/a//b/c", "../../x").unwrap_err();
    assert!(
        e.contains("N(resolve(B,R))=\"https://h.example/a/x\""),
        "{e}"
    );
    assert!(e.contains("-> Some(\"https://h.example/x\")"), "{e}");
    // Under `crawler` the same pair commutes.
    commutes(
        &pipeline(Preset::Crawler, Form::Uri),
        "https://h.example/a//b/c",
        "../../x",
    )
    .unwrap();
    let e = commutes(&p, "https://h.example/a/(S(abc123))", "index.html").unwrap_err();
    assert!(
        e.contains("N(resolve(B,R))=\"https://h.example/a/\""),
        "{e}"
    );
    assert!(e.contains("-> Some(\"https://h.example/\")"), "{e}");
}

/// The defect the first run found (`crawler` emptied a query-only
/// reference, so that it resolved against a base with an empty query to
/// that base's `?`): a query-only reference keeps its query under every
/// preset, its other parts still normalized (docs/rules.md,
/// "Guarantees").
#[test]
fn query_only_references_keep_their_query() {
    let crawler = pipeline(Preset::Crawler, Form::Uri);
    assert_eq!(
        n(&crawler, "?utm_source=1").as_deref(),
        Some("?utm_source=1")
    );
    assert_eq!(
        n(&crawler, "?a=1&utm_source=2#f").as_deref(),
        Some("?a=1&utm_source=2")
    );
    assert_eq!(
        n(&crawler, "http://h.example/p?utm_source=1").as_deref(),
        Some("http://h.example/p")
    );
    assert_eq!(n(&crawler, "p?utm_source=1").as_deref(), Some("p"));
    commutes(&crawler, "http://www.example.com?", "?utm_source=1").unwrap();
    let aggressive = pipeline(Preset::Aggressive, Form::Uri);
    assert_eq!(
        n(&aggressive, "?sid=2&utm_source=1&b&a").as_deref(),
        Some("?sid=2&utm_source=1&b&a")
    );
    assert_eq!(n(&aggressive, "?").as_deref(), Some("?"));
    // Every entry point: the in-place query filter leaves them to the
    // general path.
    let mut out = String::new();
    crawler
        .normalize_into("?utm_source=1#x", &mut out, &mut Vec::new())
        .unwrap();
    assert_eq!(out, "?utm_source=1");
    assert_eq!(crawler.key("?utm_source=1#x").unwrap(), "?utm_source=1");
}
