//! Property tests of the named rules (issue 4): idempotence and structure
//! stability for random subsets of rules on generated inputs, order
//! independence of the listed rules, and usually-safe rules never touching
//! the scheme, host or path of a URL that does not match their trigger.

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm::{parse, Components, Grammar};
use irinorm_rules::{Config, Pipeline, RuleName, RuleSet};
use proptest::prelude::*;

#[allow(dead_code)] // `relative` is prop_presets'.
mod support;
use support::url;

fn rule_subset() -> impl Strategy<Value = Vec<RuleName>> {
    proptest::sample::subsequence(RuleName::ORDER.to_vec(), 0..=RuleName::ORDER.len())
        .prop_shuffle()
        .prop_map(|v| {
            // Drop the second of each conflicting pair.
            let mut set = RuleSet::EMPTY;
            v.into_iter().filter(|r| set.insert(*r).is_ok()).collect()
        })
}

fn config() -> Config {
    let mut c = Config::default();
    c.ip_to_host.insert("127.0.0.1".into(), "LocalHost".into());
    c.case_insensitive_hosts.push("*.example.org".into());
    c.default_params.push(irinorm_rules::DefaultParam {
        host: "*.example.com".into(),
        path: "/".into(),
        name: "page".into(),
        value: "1".into(),
    });
    c
}

fn pipeline(rules: &[RuleName], rung: Rung, form: Form) -> Pipeline {
    Pipeline::new(
        Normalizer::new(Options::new(rung, form)),
        RuleSet::of(rules).unwrap(),
        config(),
    )
}

fn grammar(form: Form) -> Grammar {
    if form == Form::Uri {
        Grammar::UriReference
    } else {
        Grammar::IriReference
    }
}

fn components(s: &str, form: Form) -> Components<'_> {
    let m = parse(s, grammar(form)).unwrap_or_else(|e| panic!("{s:?} does not parse: {e}"));
    Components::of(s, &m)
}

const RUNGS: [Rung; 3] = [Rung::String, Rung::Syntax, Rung::Scheme];
const FORMS: [Form; 2] = [Form::Uri, Form::Iri];

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig { cases: 512.max(ProptestConfig::default().cases), ..ProptestConfig::default() })]

    #[test]
    fn idempotent_and_structure_stable(x in url(), rules in rule_subset(), r in 0usize..3, f in 0usize..2) {
        let (rung, form) = (RUNGS[r], FORMS[f]);
        let p = pipeline(&rules, rung, form);
        let Ok(once) = p.normalize(&x) else { return Ok(()) };
        let twice = p.normalize(&once.text).unwrap();
        prop_assert_eq!(&twice.text, &once.text, "rules {:?} at {}/{}", rules, rung, form.name());
        if rung != Rung::String {
            // Rung 0 never maps an IRI to a URI; above it the form decides the grammar.
            let a = components(&once.text, form);
            let n = Normalizer::new(Options::new(rung, form)).normalize(&x).unwrap();
            let b = components(&n, form);
            prop_assert_eq!(a.scheme.is_some(), b.scheme.is_some());
            prop_assert_eq!(a.authority.is_some(), b.authority.is_some());
            let kind = |p: &str| if p.is_empty() { 0 } else if p.starts_with('/') { 1 } else { 2 };
            prop_assert_eq!(kind(a.path), kind(b.path), "path kind changed");
            // Only rules that remove them may remove a query or fragment.
            let query_removers = [RuleName::RemoveQueryParams, RuleName::RemoveSessionIds,
                RuleName::RemoveDefaultQueryParams, RuleName::RemoveEmptyQuery];
            if b.query.is_some() && a.query.is_none() {
                prop_assert!(rules.iter().any(|r| query_removers.contains(r)));
            }
            if b.fragment.is_some() && a.fragment.is_none() {
                prop_assert!(rules.contains(&RuleName::RemoveFragment));
            }
            if b.userinfo.is_some() && a.userinfo.is_none() {
                prop_assert!(rules.contains(&RuleName::RemoveUserinfo));
            }
        }
    }

    #[test]
    fn order_of_listing_does_not_matter(x in url(), rules in rule_subset()) {
        let mut reversed = rules.clone();
        reversed.reverse();
        let a = pipeline(&rules, Rung::Scheme, Form::Uri).normalize(&x).map(|o| o.text.into_owned());
        let b = pipeline(&reversed, Rung::Scheme, Form::Uri).normalize(&x).map(|o| o.text.into_owned());
        prop_assert_eq!(a, b);
        let listed = rules.iter().map(|r| r.name()).collect::<Vec<_>>().join(",");
        let rev = reversed.iter().map(|r| r.name()).collect::<Vec<_>>().join(",");
        prop_assert_eq!(RuleSet::parse_list(&listed).unwrap(), RuleSet::parse_list(&rev).unwrap());
    }

    #[test]
    fn usually_safe_rules_stay_in_their_component(x in url()) {
        let base = Normalizer::default();
        let Ok(n) = base.normalize(&x) else { return Ok(()) };
        let nc = components(&n, Form::Uri);
        for rule in RuleName::ORDER.iter().copied().filter(|r| r.class() == irinorm_rules::Class::UsuallySafe) {
            let out = pipeline(&[rule], Rung::Scheme, Form::Uri).normalize(&x).unwrap().text.into_owned();
            let oc = components(&out, Form::Uri);
            // Each usually-safe rule touches only the component it is about.
            let (host_ok, path_ok, frag_ok) = match rule {
                RuleName::RemoveTrailingHostDot | RuleName::DecodeIpv4Forms => (false, true, true),
                RuleName::AddTrailingSlash | RuleName::RemoveTrailingSlash => (true, false, true),
                RuleName::RemoveFragment => (true, true, false),
                _ => (true, true, true),
            };
            prop_assert_eq!(oc.scheme, nc.scheme, "{} changed the scheme", rule);
            prop_assert_eq!(oc.query, nc.query, "{} changed the query", rule);
            if host_ok { prop_assert_eq!(oc.host, nc.host, "{} changed the host", rule); }
            if path_ok { prop_assert_eq!(oc.path, nc.path, "{} changed the path", rule); }
            if frag_ok { prop_assert_eq!(oc.fragment, nc.fragment, "{} changed the fragment", rule); }
            // And nothing at all when its trigger does not match.
            let triggered = match rule {
                RuleName::RemoveTrailingHostDot => nc.host.is_some_and(|h| h.len() > 1 && h.ends_with('.')),
                RuleName::DecodeIpv4Forms => nc.host.is_some_and(|h| irinorm::host::parse_ipv4_forms(h.as_bytes()).is_some()
                    && irinorm::host::parse_ipv4(h.as_bytes()).is_none()),
                RuleName::AddTrailingSlash => nc.authority.is_some() && !nc.path.ends_with('/'),
                RuleName::RemoveTrailingSlash => nc.authority.is_some() && nc.path.len() > 1 && nc.path.ends_with('/'),
                RuleName::RemoveFragment => nc.fragment.is_some(),
                _ => true,
            };
            if !triggered {
                prop_assert_eq!(&out, &*n, "{} fired without its trigger", rule);
            }
        }
    }
}
