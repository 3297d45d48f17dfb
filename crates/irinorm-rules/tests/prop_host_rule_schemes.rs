//! Round 17 (docs/testing.md): host rules x the caller's scheme registry x
//! schemes whose host is or is not a DNS name, in both forms. LADDER.md
//! invariant 1 (idempotent) and invariant 5 (forms agree: `N_uri(N_iri(x))
//! == N_uri(x)`), and the two entry points with and without the list of
//! rules that fired (the fused path's two variants) agree on the text.
//!
//! The two limitations this closes: a rule's host is written as `http`
//! writes a host, so it matched `foo://bücher.example/` in the `iri` form
//! and not `foo://b%C3%BCcher.example/` in the `uri` form; and
//! `alias-scheme` dropped the built-in registry's default ports, not the
//! caller's (`to = "http"` with 8080 as http's default made
//! `https://h:8080/` `http://h:8080/`, whose N is `http://h/`).

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm::scheme::{SchemeInfo, SchemeRegistry};
use irinorm_rules::{Config, HostRule, HostRuleKind, Pipeline, RuleSet};
use proptest::prelude::*;

/// Spellings of hosts: non-ASCII, its A-label, upper case, ASCII.
const HOSTS: [&str; 6] = [
    "bücher.example",
    "xn--bcher-kva.example",
    "BÜCHER.example",
    "a.example",
    "www.bücher.example",
    "b%C3%BCcher.example",
];

/// Schemes: DNS hosts of the built-in registry (http, https, ftp, ws),
/// unknown ones (`foo`, one the `dns` registry below defines), upper case.
const SCHEMES: [&str; 7] = ["http", "https", "ftp", "ws", "foo", "bar", "HTTPS"];

/// Ports: defaults of the built-in registry and of the others below.
const PORTS: [&str; 8] = ["", ":80", ":443", ":8080", ":21", ":7070", ":81", ":0443"];

/// Registries a caller may give (`--schemes`).
fn registry(i: usize) -> SchemeRegistry {
    let mut r = SchemeRegistry::builtin();
    let http = *SchemeRegistry::builtin().get("http").expect("built in");
    match i {
        // 8080 is http's default port.
        1 => r.insert(
            "http",
            SchemeInfo {
                default_port: Some(8080),
                ..http
            },
        ),
        // https, then http, unknown: written without UTS #46.
        2 => r.forget("https"),
        3 => r.forget("http"),
        // `foo` a DNS scheme with default port 7070.
        4 => r.insert(
            "foo",
            SchemeInfo {
                default_port: Some(7070),
                ..http
            },
        ),
        // No scheme known at all.
        5 => r = SchemeRegistry::empty(),
        _ => {}
    }
    r
}

fn url() -> impl Strategy<Value = String> {
    (
        0..SCHEMES.len(),
        0..HOSTS.len(),
        0..PORTS.len(),
        prop::collection::vec(prop_oneof![Just("X"), Just("a"), Just("ü"), Just("")], 0..3),
        prop::option::of(prop_oneof![Just("b=1&a=2"), Just("a=2")]),
    )
        .prop_map(|(s, h, p, segs, q)| {
            let mut u = format!(
                "{}://{}{}/{}",
                SCHEMES[s],
                HOSTS[h],
                PORTS[p],
                segs.join("/")
            );
            if let Some(q) = q {
                u.push('?');
                u.push_str(q);
            }
            u
        })
}

fn rule() -> impl Strategy<Value = HostRuleKind> {
    prop_oneof![
        3 => prop_oneof![
            Just("https"), Just("http"), Just("ftp"), Just("ws"),
            Just("foo"), Just("bar"), Just("file"),
        ]
        .prop_map(|to| HostRuleKind::AliasScheme { to: to.into() }),
        1 => Just(HostRuleKind::LowercasePath),
        1 => Just(HostRuleKind::AddTrailingSlash),
        1 => Just(HostRuleKind::SortQuery),
    ]
}

/// Rules on one host, at most one alias to another host (no cycle).
fn rules() -> impl Strategy<Value = Vec<HostRule>> {
    (
        0..4usize,
        prop::collection::vec(rule(), 1..3),
        prop::option::of(0..4usize),
    )
        .prop_map(|(h, kinds, alias)| {
            let host = HOSTS[h];
            let mut v: Vec<HostRule> = kinds
                .into_iter()
                .map(|k| HostRule::learned(host, "/", k))
                .collect();
            if let Some(t) = alias.filter(|&t| t != h) {
                v.push(HostRule::learned(
                    host,
                    "/",
                    HostRuleKind::AliasHost {
                        to: HOSTS[t].to_owned(),
                    },
                ));
            }
            v
        })
}

fn pipeline(form: Form, rung: Rung, schemes: SchemeRegistry, rules: &[HostRule]) -> Pipeline {
    Pipeline::new(
        Normalizer::new(Options {
            schemes,
            ..Options::new(rung, form)
        }),
        RuleSet::default(),
        Config {
            host_rules: rules.to_vec(),
            ..Config::default()
        },
    )
}

/// The text by both entry points (with and without the list of the rules
/// that fired), which must agree; `None` for input the ladder rejects.
fn n(p: &Pipeline, x: &str) -> Option<String> {
    let (mut a, mut b) = (String::new(), String::new());
    let ra = p.normalize_into(x, &mut a, &mut Vec::new());
    let rb = p.normalize_text_into(x, &mut b, &mut Vec::new());
    assert_eq!(ra.is_ok(), rb.is_ok(), "{x:?}");
    ra.ok()?;
    assert_eq!(a, b, "the entry points differ on {x:?}");
    Some(a)
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig::with_cases(1024.max(ProptestConfig::default().cases)))]

    #[test]
    fn host_rules_idempotent_forms_agree_any_registry(
        x in url(),
        rules in rules(),
        reg in 0..6usize,
        rung in prop_oneof![3 => Just(Rung::Scheme), 1 => Just(Rung::Syntax)],
    ) {
        let u = pipeline(Form::Uri, rung, registry(reg), &rules);
        let i = pipeline(Form::Iri, rung, registry(reg), &rules);
        let (Some(nu), Some(ni)) = (n(&u, &x), n(&i, &x)) else {
            return Ok(());
        };
        prop_assert_eq!(n(&u, &nu), Some(nu.clone()), "uri form not idempotent on {:?}", x);
        prop_assert_eq!(n(&i, &ni), Some(ni.clone()), "iri form not idempotent on {:?}", x);
        prop_assert_eq!(n(&u, &ni), Some(nu.clone()), "forms differ on {:?}: iri {:?}", x, ni);
    }
}
