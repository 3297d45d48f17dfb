//! Differential property test of the one-pass query section
//! (`query_section.rs`): a rule set with several query rules and no trace
//! applies them in one pass; with a trace (`explain`) the rules run one by
//! one until nothing changes (the generic engine). Both must give the same
//! bytes and the same rules fired, in order, on generated queries (empty
//! parameters, parameters without `=`, repeated names, names sharing long
//! prefixes, more parameters than the one-pass bound), for random subsets
//! of the query rules with other rules beside them, and for settings with
//! other lists and with `remove-default-query-params` defaults.

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm_rules::{apply, Config, DefaultParam, Pipeline, RuleName, RuleSet};
use proptest::prelude::*;

const NAMES: &[&str] = &[
    "utm_source",
    "UTM_Medium",
    "utm",
    "gclid",
    "fbclid",
    "sid",
    "SID",
    "sessionid",
    "jsessionid",
    "ASPSESSIONIDQQGG",
    "phpsessid",
    "q",
    "Q",
    "page",
    "id",
    "a",
    "a-b",
    "ab",
    "abcdefgh",
    "abcdefghi",
    "abcdefghj",
    "x",
    "b",
    "",
    "a%3Db",
    "ref",
];
const VALUES: &[&str] = &["", "=", "1", "asc", "a=b", "x+y", "%41"];
const HOSTS: &[&str] = &[
    "example.com",
    "www.example.com",
    "a.b",
    "x.a.b",
    "other.org",
];
const PATHS: &[&str] = &["", "/", "/a", "/a/b", "/p;sid=1", "/index.html"];

/// A query: parameters with or without `=value`, runs of `&` (empty
/// parameters), leading and trailing `&`, repeated names; up to 80
/// parameters (past the one-pass bound of 64).
fn query() -> impl Strategy<Value = String> {
    let param = (
        proptest::sample::select(NAMES),
        proptest::option::of(proptest::sample::select(VALUES)),
        0usize..3,
    )
        .prop_map(|(n, v, amps)| {
            let mut p = String::from(n);
            if let Some(v) = v {
                p.push('=');
                p.push_str(v);
            }
            p.push_str(&"&".repeat(amps.max(1)));
            p
        });
    (
        prop_oneof![
            8 => proptest::collection::vec(param.clone(), 0..12),
            1 => proptest::collection::vec(param, 30..80),
        ],
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(ps, lead, trail)| {
            let mut q: String = ps.concat();
            if !trail {
                q.pop();
            }
            if lead {
                q.insert(0, '&');
            }
            q
        })
}

/// An absolute reference, or a query-only one (`?q`, `?q#f`: the query
/// rules leave it alone).
fn url() -> impl Strategy<Value = String> {
    (
        proptest::sample::select(HOSTS),
        proptest::sample::select(PATHS),
        proptest::option::of(query()),
        proptest::option::of(proptest::sample::select(&["", "f"][..])),
        0u8..10,
    )
        .prop_map(|(h, p, q, f, kind)| {
            let mut s = if kind == 0 {
                String::new()
            } else {
                format!("http://{h}{p}")
            };
            if kind == 0 || q.is_some() {
                s.push('?');
                s.push_str(&q.unwrap_or_default());
            }
            if let Some(f) = f {
                s.push('#');
                s.push_str(f);
            }
            s
        })
}

/// The settings: the defaults, other lists (globs, a pattern matching the
/// empty name), defaults for remove-default-query-params, or both.
fn config(which: u8) -> Config {
    let mut c = Config::default();
    if which & 1 != 0 {
        c.query_params = vec!["a*".into(), "x".into(), "Q".into()];
        c.session_ids = vec!["*id".into(), "ref".into(), "".into()];
    }
    if which & 2 != 0 {
        for (host, path, name, value) in [
            ("example.com", "/", "page", "1"),
            ("example.com", "/a", "q", ""),
            ("*.a.b", "/", "b", "x+y"),
            ("*.a.b", "/a", "", ""),
            ("other.org", "/", "id", "asc"),
        ] {
            c.default_params.push(DefaultParam {
                host: host.into(),
                path: path.into(),
                name: name.into(),
                value: value.into(),
            });
        }
    }
    if which == 4 {
        c.query_params = vec!["*".into()];
    }
    c
}

/// The rules: a subset of the five query rules, with another rule beside
/// them or not.
fn rules(query: u8, other: u8) -> RuleSet {
    use RuleName as R;
    let q = [
        R::RemoveSessionIds,
        R::RemoveQueryParams,
        R::RemoveDefaultQueryParams,
        R::SortQuery,
        R::RemoveEmptyQuery,
    ];
    let mut set = RuleSet::EMPTY;
    for (i, r) in q.iter().enumerate() {
        if query & (1 << i) != 0 {
            set.insert(*r).unwrap();
        }
    }
    let others = [
        None,
        Some(R::RemoveFragment),
        Some(R::RemoveWww),
        Some(R::ForceHttps),
        Some(R::RemoveDirectoryIndex),
    ];
    if let Some(r) = others[usize::from(other) % others.len()] {
        set.insert(r).unwrap();
    }
    set
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig { cases: 2048.max(ProptestConfig::default().cases), ..ProptestConfig::default() })]

    #[test]
    fn one_pass_equals_the_rules_one_by_one(
        x in url(),
        query_rules in 0u8..32,
        other in 0u8..5,
        which in 0u8..5,
    ) {
        let set = rules(query_rules, other);
        let config = config(which);
        let normalizer = Normalizer::new(Options::new(Rung::Scheme, Form::Uri));
        let Ok(n) = normalizer.normalize(&x) else {
            return Ok(());
        };
        // The generic engine: a trace is asked.
        let mut want_applied = Vec::new();
        let mut trace = Vec::new();
        let want = apply(&n, set, &config, Rung::Scheme, &mut want_applied, Some(&mut trace))
            .unwrap_or_else(|| n.to_string());
        let traced: Vec<RuleName> = trace.iter().fold(Vec::new(), |mut v, f| {
            if !v.contains(&f.rule) {
                v.push(f.rule);
            }
            v
        });
        prop_assert_eq!(&traced, &want_applied);
        // The one-pass section (its names without the prefix table).
        let mut applied = Vec::new();
        let got = apply(&n, set, &config, Rung::Scheme, &mut applied, None)
            .unwrap_or_else(|| n.to_string());
        prop_assert_eq!((&got, &applied), (&want, &want_applied), "{} {:?}", n, set);
        // Through a pipeline (with the prefix table when the list allows
        // it), in place and as a new text.
        let pipe = Pipeline::new(normalizer, set, config);
        let mut out = String::from("prefix ");
        let mut applied = Vec::new();
        pipe.normalize_into(&x, &mut out, &mut applied).unwrap();
        prop_assert_eq!((&out["prefix ".len()..], &applied), (want.as_str(), &want_applied));
        let o = pipe.normalize(&x).unwrap();
        prop_assert_eq!((&*o.text, &o.applied), (want.as_str(), &want_applied));
    }
}

#[test]
fn aggressive_examples() {
    let p = Pipeline::preset(irinorm_rules::Preset::Aggressive);
    let n = |s: &str| {
        let mut out = String::new();
        let mut applied = Vec::new();
        p.normalize_into(s, &mut out, &mut applied).unwrap();
        (out, applied)
    };
    use RuleName as R;
    assert_eq!(
        n("https://a/?b=2&utm_source=x&sid=1&a=1"),
        (
            "https://a/?a=1&b=2".to_owned(),
            vec![R::RemoveSessionIds, R::RemoveQueryParams, R::SortQuery]
        )
    );
    assert_eq!(
        n("https://a/?&sid=1"),
        (
            "https://a/".to_owned(),
            vec![R::RemoveSessionIds, R::RemoveEmptyQuery]
        )
    );
    assert_eq!(
        n("https://a/?b&&a"),
        ("https://a/?&a&b".to_owned(), vec![R::SortQuery])
    );
    // A query-only reference keeps its query.
    assert_eq!(n("?b=1&a=1&sid=2"), ("?b=1&a=1&sid=2".to_owned(), vec![]));
}

/// Names as an IRI holds them (raw UTF-8, decomposed or not) and as the
/// `uri` form does (triplets), with ASCII names that sort between them
/// (`%41` after `%`-names, letters after digits and `%`).
const IRI_NAMES: &[&str] = &[
    "é",
    "%C3%A9",
    "e\u{301}",
    "ß",
    "%C3%9F",
    "z",
    "Z",
    "E",
    "%41",
    "a",
    "aé",
    "aéb",
    "abcdefgé",
    "abcdefgz",
    "utm_source",
    "sid",
    "ü",
    "",
];

fn iri_url() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(
            (
                proptest::sample::select(IRI_NAMES),
                proptest::option::of(proptest::sample::select(&["", "1", "é", "%C3%A9"][..])),
            ),
            0..8,
        ),
        proptest::sample::select(&["&", ";"][..]),
        proptest::sample::select(&["http://example.com/a", "http://bücher.example/é"][..]),
    )
        .prop_map(|(ps, sep, base)| {
            let q: Vec<String> = ps
                .into_iter()
                .map(|(n, v)| match v {
                    Some(v) => format!("{n}={v}"),
                    None => n.to_owned(),
                })
                .collect();
            format!("{base}?{}", q.join(sep))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024.max(ProptestConfig::default().cases)))]

    /// Round 11: LADDER.md invariant 5 (forms agree) and 1 (idempotent in
    /// both forms) for the query rules (one pass and one by one) on names
    /// and values written as IRIs or as their `uri` form, `&`- and
    /// `;`-separated: the `iri`-form output mapped to the `uri` form (the
    /// ladder's `uri` normalizer, without the rules) is the `uri`-form
    /// output.
    #[test]
    fn query_rules_agree_across_forms(
        x in iri_url(),
        query in 1u8..32,
        other in 0u8..8,
        which in 0u8..5,
    ) {
        let rules = rules(query, other);
        let config = config(which);
        let p = |form| Pipeline::new(
            Normalizer::new(Options::new(Rung::Scheme, form)),
            rules,
            config.clone(),
        );
        let (pu, pi) = (p(Form::Uri), p(Form::Iri));
        let u = pu.normalize(&x).unwrap().text.into_owned();
        let i = pi.normalize(&x).unwrap().text.into_owned();
        // To the `uri` form by the ladder alone (RFC 3987 §3.1 mapping,
        // A-labels): the rules must not run again, or they would put the
        // parameters back in their `uri`-form order and hide a difference.
        let back = Normalizer::new(Options::new(Rung::Scheme, Form::Uri))
            .normalize(&i)
            .unwrap()
            .into_owned();
        prop_assert_eq!(&back, &u, "{} via {} ({:?})", x, i, rules);
        let (u2, i2) = (pu.normalize(&u).unwrap().text.into_owned(), pi.normalize(&i).unwrap().text.into_owned());
        prop_assert_eq!(&u2, &u);
        prop_assert_eq!(&i2, &i);
        // The trace's engine (the rules one by one) writes the same.
        let (_, fired) = pi.explain(&x).unwrap();
        if let Some(last) = fired.last() {
            prop_assert!(i.contains(last.after.as_str()) || last.after.contains(i.as_str()),
                "{:?} / {}", last, i);
        }
    }
}
