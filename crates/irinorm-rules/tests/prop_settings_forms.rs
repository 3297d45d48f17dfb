//! LADDER.md invariant 5 ("forms agree") and invariant 1 for the settings
//! file: a setting written in any spelling of its text (a U-label, an
//! A-label or upper case for a host; raw non-ASCII, or percent-encoded
//! with upper- or lower-case hex, for a path, a name or a value; not NFC
//! against NFD: rung 2 does not normalize characters by default, RFC 3987
//! §5.3.2.2) matches the same URLs in the `uri` and `iri` forms, so that
//! `N_uri(N_iri(x)) == N_uri(x)`. Before `config/normal.rs` a setting
//! matched only the form that writes its text as written: `name = "ß"`
//! removed `ß=1` in the `iri` form and kept `%C3%9F=1` in the `uri` form.

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm_rules::{Config, DefaultParam, HostRule, HostRuleKind, Pipeline, RuleName, RuleSet};
use proptest::prelude::*;

/// Spellings of one text: index 0 is raw.
const HOSTS: [&str; 4] = [
    "bücher.example",
    "BÜCHER.example",
    "xn--bcher-kva.example",
    "XN--BCHER-KVA.example",
];
const A_UMLAUT: [&str; 4] = ["ä", "%C3%A4", "%c3%a4", "%C3%a4"];
const INDEX: [&str; 4] = [
    "índice.html",
    "%C3%ADndice.html",
    "%c3%adndice.html",
    "%C3%ADndice%2Ehtml",
];
const SZ: [&str; 4] = ["ß", "%C3%9F", "%c3%9f", "ß"];
const SES: [&str; 4] = ["sés", "s%C3%A9s", "s%c3%a9s", "%73és"];
const DE: [&str; 4] = ["dé", "d%C3%A9", "d%c3%a9", "%64é"];

fn spelled(t: &'static [&'static str; 4]) -> impl Strategy<Value = &'static str> {
    (0..4usize).prop_map(move |i| t[i])
}

fn url() -> impl Strategy<Value = String> {
    let host = prop_oneof![
        3 => spelled(&HOSTS).prop_map(str::to_owned),
        1 => spelled(&HOSTS).prop_map(|h| format!("www.{h}")),
        1 => Just("a.example".to_owned()),
    ];
    let seg = prop_oneof![
        spelled(&A_UMLAUT),
        spelled(&INDEX),
        Just("x"),
        Just("Ä"),
        Just("%C3%84")
    ];
    let param = (
        prop_oneof![
            spelled(&SZ),
            spelled(&SES),
            Just("lang"),
            Just("a"),
            Just("%61")
        ],
        prop_oneof![spelled(&DE), Just("1"), Just("%41")],
    )
        .prop_map(|(n, v)| format!("{n}={v}"));
    (
        prop_oneof![Just("http"), Just("https")],
        host,
        prop::collection::vec(seg, 0..4),
        prop::option::of(prop::collection::vec(param, 0..4)),
    )
        .prop_map(|(s, h, segs, q)| {
            let mut u = format!("{s}://{h}/{}", segs.join("/"));
            if let Some(q) = q {
                u.push('?');
                u.push_str(&q.join("&"));
            }
            u
        })
}

/// Which spelling each setting is written in.
#[derive(Clone, Debug)]
struct Spellings([usize; 9]);

fn spellings() -> impl Strategy<Value = Spellings> {
    prop::array::uniform9(0..4usize).prop_map(Spellings)
}

fn config(s: &Spellings, host_rules: bool) -> Config {
    let s = &s.0;
    let mut c = Config::default();
    c.query_params.push(SZ[s[0]].to_owned());
    c.session_ids.push(SES[s[1]].to_owned());
    c.directory_index.push(INDEX[s[2]].to_owned());
    c.case_insensitive_hosts.push(HOSTS[s[3]].to_owned());
    c.default_params.push(DefaultParam {
        host: HOSTS[s[4]].to_owned(),
        path: format!("/{}", A_UMLAUT[s[5]]),
        name: "lang".to_owned(),
        value: DE[s[6]].to_owned(),
    });
    if host_rules {
        let rule = |host: &str, kind| HostRule::learned(host, "/", kind);
        c.host_rules = vec![
            rule(
                &format!("www.{}", HOSTS[s[7]]),
                HostRuleKind::AliasHost {
                    to: HOSTS[s[8]].to_owned(),
                },
            ),
            rule(
                HOSTS[s[3]],
                HostRuleKind::Substitute {
                    from: format!("/{}/", A_UMLAUT[s[5]]),
                    to: "/a/".to_owned(),
                },
            ),
            rule(
                HOSTS[s[4]],
                HostRuleKind::IgnoreParam {
                    name: SES[s[6]].to_owned(),
                },
            ),
            rule(
                HOSTS[s[8]],
                HostRuleKind::DefaultParam {
                    name: SZ[s[7]].to_owned(),
                    value: DE[s[2]].to_owned(),
                },
            ),
            rule(
                HOSTS[s[0]],
                HostRuleKind::DirectoryIndex {
                    name: INDEX[s[1]].to_owned(),
                },
            ),
        ];
    }
    c
}

const RULES: [RuleName; 5] = [
    RuleName::RemoveQueryParams,
    RuleName::RemoveSessionIds,
    RuleName::RemoveDirectoryIndex,
    RuleName::LowercasePath,
    RuleName::RemoveDefaultQueryParams,
];

fn pipeline(form: Form, s: &Spellings, host_rules: bool) -> Pipeline {
    Pipeline::new(
        Normalizer::new(Options::new(Rung::Scheme, form)),
        RuleSet::of(&RULES).expect("no conflict"),
        config(s, host_rules),
    )
}

fn n(p: &Pipeline, x: &str) -> String {
    p.normalize(x)
        .unwrap_or_else(|e| panic!("{x:?}: {e}"))
        .text
        .into_owned()
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig::with_cases(256.max(ProptestConfig::default().cases)))]

    #[test]
    fn forms_agree_whatever_the_settings_spelling(
        x in url(),
        s in spellings(),
        host_rules in any::<bool>(),
    ) {
        let (u, i) = (pipeline(Form::Uri, &s, host_rules), pipeline(Form::Iri, &s, host_rules));
        let (nu, ni) = (n(&u, &x), n(&i, &x));
        prop_assert_eq!(n(&u, &ni), nu.clone(), "{:?} with {:?}: iri form {:?}", x, s, ni);
        prop_assert_eq!(n(&u, &nu), nu.clone(), "uri form not idempotent on {:?}", x);
        prop_assert_eq!(n(&i, &ni), ni.clone(), "iri form not idempotent on {:?}", x);
    }

    /// Each spelling of one setting gives the same output: the spelling
    /// is not part of what the setting means.
    #[test]
    fn spellings_of_a_setting_agree(x in url(), s in spellings(), t in spellings(), form in prop_oneof![Just(Form::Uri), Just(Form::Iri)]) {
        prop_assert_eq!(n(&pipeline(form, &s, true), &x), n(&pipeline(form, &t, true), &x), "{:?}", x);
    }
}

/// The case the property found first, by hand: the parameter `ß` of the
/// tracking list, written raw, is removed in both forms.
#[test]
fn a_raw_parameter_name_is_removed_in_both_forms() {
    let mut c = Config::default();
    c.query_params.push("ß".to_owned());
    for (form, want) in [
        (Form::Uri, "http://xn--bcher-kva.example/?x=2"),
        (Form::Iri, "http://bücher.example/?x=2"),
    ] {
        let p = Pipeline::new(
            Normalizer::new(Options::new(Rung::Scheme, form)),
            RuleSet::of(&[RuleName::RemoveQueryParams]).expect("one rule"),
            c.clone(),
        );
        for x in [
            "http://bücher.example/?ß=1&x=2",
            "http://xn--bcher-kva.example/?%c3%9f=1&x=2",
        ] {
            assert_eq!(n(&p, x), want, "{form:?} {x}");
        }
    }
}
