//! Property tests of the host rules (issue 11, learned DUST rules): with a
//! settings file of `[[host-rule]]` sections, every combination of named
//! rules stays idempotent, the structure of a reference never changes, and
//! references of hosts without rules come out as without the file.

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm::{parse, Components, Grammar};
use irinorm_rules::{load_toml, Config, HostRuleSet, Pipeline, RuleName, RuleSet};
use proptest::prelude::*;

const RULES: &str = r#"
[[host-rule]]
host = "www.example.com"
rule = "alias-host"
to = "example.com"
learned = true

[[host-rule]]
host = "sub.example.org"
rule = "alias-host"
to = "example.com"

[[host-rule]]
host = "example.com"
rule = "alias-scheme"
to = "https"

[[host-rule]]
host = "example.com"
rule = "substitute"
from = "/story?id="
to = "/s/"
learned = true
support-pairs = 10
support-paths = 10
confidence = 1.0
examples = [["http://example.com/story?id=1", "http://example.com/s/1"]]

[[host-rule]]
host = "example.com"
rule = "substitute"
from = "bb"
to = "b"

[[host-rule]]
host = "example.com"
rule = "ignore-param"
name = "sid"

[[host-rule]]
host = "example.com"
path = "/a"
rule = "default-param"
name = "page"
value = "1"

[[host-rule]]
host = "example.com"
rule = "sort-query"

[[host-rule]]
host = "example.com"
rule = "lowercase-path"

[[host-rule]]
host = "example.com"
rule = "directory-index"
name = "default.aspx"

[[host-rule]]
host = "*.example.org"
rule = "add-trailing-slash"

[[host-rule]]
host = "a"
rule = "remove-trailing-slash"
"#;

fn pick<T: Clone + core::fmt::Debug + 'static>(v: &'static [T]) -> impl Strategy<Value = T> {
    proptest::sample::select(v)
}

const SCHEMES: &[&str] = &["http", "https", "HTTP", "ftp"];
const HOSTS: &[&str] = &[
    "www.example.com",
    "WWW.Example.COM.",
    "example.com",
    "sub.example.org",
    "x.example.org",
    "a",
    "b",
    "[::1]",
];
const PORTS: &[&str] = &["", ":80", ":443", ":8080"];
const SEGS: &[&str] = &[
    "",
    ".",
    "..",
    "index.html",
    "A",
    "b",
    "bb",
    "bbb",
    "default.aspx",
    "%7e",
    "é",
    "story?id=",
    "x;sid=2",
];
const PARAMS: &[&str] = &[
    "utm_source=1",
    "sid=2",
    "a=1",
    "page=1",
    "page=2",
    "",
    "id=5",
    "c",
    "story?id=3",
];
const FRAGS: &[&str] = &["", "#", "#top"];

fn url() -> impl Strategy<Value = String> {
    (
        pick(SCHEMES),
        pick(HOSTS),
        pick(PORTS),
        proptest::collection::vec(pick(SEGS), 0..5),
        proptest::option::of(proptest::collection::vec(pick(PARAMS), 0..5)),
        pick(FRAGS),
    )
        .prop_map(|(s, h, p, segs, q, f)| {
            let mut out = format!("{s}://{h}{p}");
            for seg in segs {
                out.push('/');
                out.push_str(seg);
            }
            if let Some(q) = q {
                out.push('?');
                out.push_str(&q.join("&"));
            }
            out.push_str(f);
            out
        })
}

fn rule_subset() -> impl Strategy<Value = Vec<RuleName>> {
    proptest::sample::subsequence(RuleName::ORDER.to_vec(), 0..=RuleName::ORDER.len()).prop_map(
        |v| {
            let mut set = RuleSet::EMPTY;
            v.into_iter().filter(|r| set.insert(*r).is_ok()).collect()
        },
    )
}

fn config(with_host_rules: bool) -> Config {
    let mut c = Config::default();
    if with_host_rules {
        let mut s = irinorm::scheme::SchemeRegistry::builtin();
        load_toml(RULES, &mut c, &mut s).unwrap();
    }
    c
}

fn pipeline(rules: &[RuleName], rung: Rung, host_rules: bool) -> Pipeline {
    Pipeline::new(
        Normalizer::new(Options::new(rung, Form::Uri)),
        RuleSet::of(rules).unwrap(),
        config(host_rules),
    )
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig { cases: 1024.max(ProptestConfig::default().cases), ..ProptestConfig::default() })]

    #[test]
    fn idempotent_with_host_rules(x in url(), rules in rule_subset(), r in 1usize..3) {
        let rung = [Rung::String, Rung::Syntax, Rung::Scheme][r];
        let p = pipeline(&rules, rung, true);
        let Ok(once) = p.normalize(&x) else { return Ok(()) };
        let twice = p.normalize(&once.text).unwrap();
        prop_assert_eq!(&twice.text, &once.text, "rules {:?} at {}", rules, rung);
        // Structure: scheme, authority and an absolute path stay.
        let m = parse(&once.text, Grammar::UriReference).unwrap();
        let c = Components::of(&once.text, &m);
        let n = Normalizer::new(Options::new(rung, Form::Uri)).normalize(&x).unwrap();
        let mn = parse(&n, Grammar::UriReference).unwrap();
        let cn = Components::of(&n, &mn);
        prop_assert_eq!(c.authority.is_some(), cn.authority.is_some());
        prop_assert_eq!(c.path.starts_with('/'), cn.path.starts_with('/'));
    }

    #[test]
    fn hosts_without_rules_pay_nothing(x in url(), rules in rule_subset()) {
        let with = pipeline(&rules, Rung::Scheme, true);
        let without = pipeline(&rules, Rung::Scheme, false);
        let (Ok(a), Ok(b)) = (with.normalize(&x), without.normalize(&x)) else { return Ok(()) };
        let host = irinorm::parse(&b.text, Grammar::UriReference).ok()
            .and_then(|m| Components::of(&b.text, &m).host.map(str::to_owned));
        let ruled = ["www.example.com", "sub.example.org", "example.com", "a"];
        let has_rules = host.as_deref().is_some_and(|h| ruled.contains(&h) || h.ends_with("example.org"));
        if !has_rules {
            prop_assert_eq!(a.text, b.text);
        }
    }
}

/// Paths and queries that meet every rule of `RULES` (and its edges: a
/// `?` inside `from`, `bb` overlapping, trailing slashes, empty parameters).
const DIFF_SEGS: &[&str] = &[
    "",
    "story",
    "a",
    "A",
    "bb",
    "bbb",
    "default.aspx",
    "DEFAULT.ASPX",
    "%7E",
    "%2Fb",
    "é",
];
const DIFF_PARAMS: &[&str] = &[
    "", "sid", "sid=1", "sid=", "page=1", "page=2", "id=5", "b=2", "a=1", "bb=bb", "z",
];

fn plain_url() -> impl Strategy<Value = String> {
    (
        pick(&["http", "https"]),
        pick(&[
            "www.example.com",
            "example.com",
            "sub.example.org",
            "x.example.org",
            "a",
            "b",
        ]),
        pick(&["", ":80", ":443", ":8080"]),
        proptest::collection::vec(pick(DIFF_SEGS), 0..5),
        proptest::option::of(proptest::collection::vec(pick(DIFF_PARAMS), 0..5)),
        proptest::bool::ANY,
    )
        .prop_map(|(s, h, p, segs, q, slash)| {
            let mut out = format!("{s}://{h}{p}");
            for seg in segs {
                out.push('/');
                out.push_str(seg);
            }
            if slash || !out.ends_with('/') && out.matches('/').count() == 2 {
                out.push('/');
            }
            if let Some(q) = q {
                out.push('?');
                out.push_str(&q.join("&"));
            }
            out
        })
}

/// The file of `rules` and `aliases`, applied to each of `urls` by every
/// path: the compiled plan (with its one-pass first round), the step loop,
/// the general path and the first implementation give the same bytes.
fn paths_agree(
    mut rules: Vec<String>,
    aliases: String,
    urls: &[String],
) -> Result<(), TestCaseError> {
    rules.push(aliases);
    let set = gen_set(&rules);
    for x in urls {
        let want = set.apply_reference(x);
        prop_assert_eq!(&set.apply(x), &want, "plan, {}\n{}", x, rules.concat());
        prop_assert_eq!(
            &set.apply_stepwise(x),
            &want,
            "step loop, {}\n{}",
            x,
            rules.concat()
        );
        prop_assert_eq!(
            &set.apply_general(x),
            &want,
            "general, {}\n{}",
            x,
            rules.concat()
        );
    }
    Ok(())
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig { cases: 4096.max(ProptestConfig::default().cases), ..ProptestConfig::default() })]

    /// The fast host rules (components borrowed and changed in place) give
    /// the bytes of the first implementation, kept as the oracle.
    #[test]
    fn fast_host_rules_equal_the_reference(x in plain_url()) {
        let set = HostRuleSet::new(&config(true).host_rules);
        prop_assert_eq!(set.apply(&x), set.apply_reference(&x), "{}", x);
    }
}

#[test]
fn learned_rules_end_to_end() {
    let p = pipeline(&[RuleName::RemoveFragment], Rung::Scheme, true);
    let n = |s: &str| p.normalize(s).unwrap().text.into_owned();
    // Host alias, then the canonical host's rules: scheme, substitution,
    // ignored parameter, default parameter under /a, sorted parameters.
    assert_eq!(
        n("http://www.example.com/story?id=5&sid=77"),
        "https://example.com/s/5"
    );
    assert_eq!(
        n("http://sub.example.org/a/X?z=1&page=1&b=2"),
        "https://example.com/a/x?b=2&z=1"
    );
    assert_eq!(
        n("http://example.com/b/page?page=1"),
        "https://example.com/b/page?page=1"
    );
    assert_eq!(n("http://x.example.org/p"), "http://x.example.org/p/");
    assert_eq!(n("http://a/p/"), "http://a/p");
    assert_eq!(n("http://a/"), "http://a/");
    assert_eq!(
        n("http://other.example/story?id=5"),
        "http://other.example/story?id=5"
    );
    // explain lists each host rule, marked learned when it was.
    let (_, fired) = p.explain("http://www.example.com/story?id=5#x").unwrap();
    let host: Vec<_> = fired
        .iter()
        .filter(|f| f.rule == RuleName::HostRules)
        .map(|f| (f.note.clone().unwrap(), f.learned))
        .collect();
    assert_eq!(
        host,
        vec![
            (
                "alias-host -> example.com (host www.example.com, path /)".to_owned(),
                true
            ),
            ("alias-scheme -> https".to_owned(), false),
            ("substitute \"/story?id=\" -> \"/s/\"".to_owned(), true),
        ]
    );
}

/// Hosts of the generated rules files (`d.test` has none).
const GEN_HOSTS: &[&str] = &["a.test", "b.test", "c.test", "d.test"];

/// Hosts of the URLs: those of the rules, and two whose only rule (when
/// they have one) is a host alias, [`gen_alias_only`].
const URL_HOSTS: &[&str] = &[
    "a.test",
    "b.test",
    "c.test",
    "d.test",
    "w.test",
    "v.test",
    "www.a.test",
];

/// Hosts whose only rule is a host alias on every path (a plan of one
/// alias, which `Plans::run` runs without the rounds' bookkeeping): to a
/// host with rules, to one without, or to each other (chains, a cycle).
fn gen_alias_only() -> impl Strategy<Value = String> {
    let to = |not: &'static str| {
        proptest::option::of(pick(URL_HOSTS)).prop_map(move |t| t.filter(|&t| t != not))
    };
    // `www.a.test` to `a.test` (a host that ends with its alias: the
    // labels before it are drained, round 7), or elsewhere.
    let www = prop_oneof![Just(Some("a.test")), to("www.a.test")];
    (to("w.test"), to("v.test"), www).prop_map(|(w, v, x)| {
        [("w.test", w), ("v.test", v), ("www.a.test", x)]
            .iter()
            .filter_map(|&(h, t)| {
                t.map(|t| {
                    format!("[[host-rule]]\nhost = \"{h}\"\nrule = \"alias-host\"\nto = \"{t}\"\n")
                })
            })
            .collect()
    })
}

/// One `[[host-rule]]` of every kind, with parameters drawn from small
/// pools so that rules meet the URLs below, each substitution meeting the
/// file's termination condition (shorter, or as long and smaller).
fn gen_rule() -> impl Strategy<Value = String> {
    let kind = prop_oneof![
        pick(&["http", "https"]).prop_map(|t| format!("rule = \"alias-scheme\"\nto = \"{t}\"")),
        pick(&GEN_HOSTS[..3]).prop_map(|t| format!("rule = \"alias-host\"\nto = \"{t}\"")),
        pick(&["sid", "x", "a", "Page"])
            .prop_map(|n| format!("rule = \"ignore-param\"\nname = \"{n}\"")),
        (pick(&["page", "x", "lang"]), pick(&["1", "", "en"])).prop_map(|(n, v)| format!(
            "rule = \"default-param\"\nname = \"{n}\"\nvalue = \"{v}\""
        )),
        Just("rule = \"sort-query\"".to_owned()),
        Just("rule = \"lowercase-path\"".to_owned()),
        pick(&[
            ("/old/", "/"),
            ("bb", "b"),
            ("/story?id=", "/s/"),
            ("?x=", "/"),
            ("ab", "aa"),
            ("/index.htm", ""),
            ("a=1&", ""),
            ("/Old", "/"),
            (".html", ""),
            ("b/", "/"),
            ("xutm_", "utm_"),
            // Writes a capital that `lowercase-path` lowers again: with
            // both, a plan can fire and give back its input.
            ("/a", "/A"),
        ])
        .prop_map(|(f, t)| format!("rule = \"substitute\"\nfrom = \"{f}\"\nto = \"{t}\"")),
        pick(&["index.html", "Default.aspx"])
            .prop_map(|n| format!("rule = \"directory-index\"\nname = \"{n}\"")),
        Just("rule = \"remove-trailing-slash\"".to_owned()),
        Just("rule = \"add-trailing-slash\"".to_owned()),
    ];
    (
        pick(&GEN_HOSTS[..3]),
        pick(&["/", "/a", "/b/", "/old/"]),
        kind,
    )
        .prop_map(|(h, p, k)| {
            format!("[[host-rule]]\nhost = \"{h}\"\npath = \"{p}\"\n{k}\nlearned = true\n")
        })
}

/// 170 bytes, with the bytes the generated substitutions look for.
const LONG_SEGMENT: &str = "Old-bb-index.html-story-0123456789-abcdefghijklmnopqrstuvwxyz-Old-bb-index.html-story-0123456789-abcdefghijklmnopqrstuvwxyz-Old-bb-index.html-story-0123456789-abcdefghij";

fn gen_url() -> impl Strategy<Value = String> {
    (
        pick(&["http", "https"]),
        pick(&["", "u@"]),
        pick(URL_HOSTS),
        pick(&["", ":80", ":443", ":8080"]),
        proptest::collection::vec(
            pick(&[
                "",
                "a",
                "A",
                "b",
                "bb",
                "old",
                "Old",
                "index.html",
                "INDEX.HTML",
                "index.htm",
                "Default.aspx",
                "story",
                "x.html",
                "%7E",
                "é",
                // A long segment: URLs over 160 bytes take the fused path
                // too (no copy of the ladder's text bounds their length).
                LONG_SEGMENT,
            ]),
            0..5,
        ),
        proptest::bool::ANY,
        proptest::option::of(proptest::collection::vec(
            pick(&[
                "",
                "sid=1",
                "sid",
                "x=2",
                "x=",
                "a=1",
                "page=1",
                "page=2",
                "lang=en",
                "lang=fr",
                "Page=3",
                "id=5",
                "b=2",
                "z",
                "story?id=4",
            ]),
            0..6,
        )),
        pick(&["", "#", "#f"]),
    )
        .prop_map(|(s, u, h, p, segs, slash, q, f)| {
            let mut out = format!("{s}://{u}{h}{p}");
            for seg in segs {
                out.push('/');
                out.push_str(seg);
            }
            if slash || out.ends_with(h) || out.ends_with(p) && !p.is_empty() {
                out.push('/');
            }
            if let Some(q) = q {
                out.push('?');
                out.push_str(&q.join("&"));
            }
            out.push_str(f);
            out
        })
}

/// The rules of a generated file as the library takes them, without
/// `load_toml`'s refusal of alias cycles and long chains: the compiled
/// plans must equal the reference on those too (`HostRuleSet::new`
/// accepts any rules).
fn gen_set(rules: &[String]) -> HostRuleSet {
    #[derive(serde::Deserialize)]
    struct File {
        #[serde(rename = "host-rule")]
        host_rule: Vec<irinorm_rules::host_rules::HostRuleFile>,
    }
    let f: File = toml::from_str(&rules.concat()).unwrap();
    let rules: Vec<_> = f
        .host_rule
        .into_iter()
        .map(|r| r.into_rule().unwrap())
        .collect();
    HostRuleSet::new(&rules)
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig { cases: 4096.max(ProptestConfig::default().cases), ..ProptestConfig::default() })]

    /// The compiled plans (`host_rules/plan.rs`: one plan per host, run
    /// in the output buffer) and the general path give the bytes of the
    /// first implementation, on files of 1-14 rules of every kind, several
    /// per host, with path prefixes, aliases between hosts (cycles too),
    /// and substitutions that feed each other.
    #[test]
    fn compiled_plans_equal_the_reference(
        rules in proptest::collection::vec(gen_rule(), 1..15),
        aliases in gen_alias_only(),
        urls in proptest::collection::vec(gen_url(), 1..8),
    ) {
        paths_agree(rules, aliases, &urls)?;
    }

    /// The compiled first rounds (`host_rules/plan/first_round.rs`: a
    /// plan whose rules hold on every path, as learned files are, runs its
    /// first round as one pass in the fixed order) give the bytes of the
    /// step loop, kept as their oracle, and of the first implementation:
    /// files of 1-14 rules of every kind without a path prefix, several of
    /// a kind per host (those plans stay with the step loop), aliases
    /// between hosts, substitutions that feed each other and wake the
    /// steps before them.
    #[test]
    fn compiled_first_rounds_equal_the_step_loop(
        rules in proptest::collection::vec(gen_rule_on_every_path(), 1..15),
        aliases in gen_alias_only(),
        urls in proptest::collection::vec(gen_url(), 1..8),
    ) {
        paths_agree(rules, aliases, &urls)?;
    }
}

/// [`gen_rule`] without its path prefix (every path), as `irinorm learn`
/// writes rules: the plans the compiled first round takes.
fn gen_rule_on_every_path() -> impl Strategy<Value = String> {
    gen_rule().prop_map(|r| {
        r.lines()
            .filter(|l| !l.starts_with("path ="))
            .map(|l| format!("{l}\n"))
            .collect()
    })
}

fn crawler_with(rules: &[String]) -> Pipeline {
    let mut c = Config::default();
    let mut s = irinorm::scheme::SchemeRegistry::builtin();
    load_toml(&rules.concat(), &mut c, &mut s).unwrap();
    Pipeline::new(
        Normalizer::new(Options::new(Rung::Scheme, Form::Uri)),
        irinorm_rules::Preset::Crawler.rule_set(),
        c,
    )
}

/// Whether some host, following host aliases (on any path), comes back
/// to itself. Read from the TOML text itself (not through `load_toml`,
/// which refuses such files: the property below checks that it does).
/// The fused path with the list of rules (`normalize_into`) gives the
/// general path's text and rules for `x` (`ctx` names the case); returns
/// that text.
fn assert_listed_is_general(p: &Pipeline, x: &str, ctx: &str) -> String {
    let general = p.normalize(x).unwrap();
    let mut out = String::new();
    let mut applied = Vec::new();
    p.normalize_into(x, &mut out, &mut applied).unwrap();
    assert_eq!(out, general.text, "{ctx}");
    assert_eq!(applied, general.applied, "{ctx}");
    general.text.into_owned()
}

fn has_alias_cycle(rules: &[String]) -> bool {
    let doc: toml::Table = rules.concat().parse().unwrap();
    let empty = Vec::new();
    let sections = doc
        .get("host-rule")
        .and_then(|v| v.as_array())
        .unwrap_or(&empty);
    let to: Vec<(String, String)> = sections
        .iter()
        .filter(|r| r.get("rule").and_then(|v| v.as_str()) == Some("alias-host"))
        .map(|r| {
            let field = |k: &str| {
                r.get(k)
                    .and_then(|v| v.as_str())
                    .unwrap()
                    .to_ascii_lowercase()
            };
            (field("host"), field("to"))
        })
        // An alias to itself changes nothing: not a cycle.
        .filter(|(h, t)| h != t)
        .collect();
    // A cycle exists iff some walk of more steps than there are aliases
    // from some host is possible.
    to.iter().any(|(start, _)| {
        let mut at = vec![start.clone()];
        for _ in 0..=to.len() {
            at = at
                .iter()
                .flat_map(|h| {
                    to.iter()
                        .filter(move |(f, _)| f == h)
                        .map(|(_, t)| t.clone())
                })
                .collect();
            at.sort();
            at.dedup();
        }
        !at.is_empty()
    })
}

#[test]
fn alias_cycles_are_found() {
    let alias = |h: &str, t: &str| {
        format!("[[host-rule]]\nhost = \"{h}\"\nrule = \"alias-host\"\nto = \"{t}\"\n")
    };
    assert!(has_alias_cycle(&[
        alias("a.test", "c.test"),
        alias("c.test", "b.test"),
        alias("b.test", "a.test")
    ]));
    assert!(!has_alias_cycle(&[
        alias("a.test", "c.test"),
        alias("c.test", "b.test")
    ]));
    assert!(has_alias_cycle(&[
        alias("a.test", "b.test"),
        alias("b.test", "a.test")
    ]));
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig { cases: 2048.max(ProptestConfig::default().cases), ..ProptestConfig::default() })]

    /// `crawler` with a generated rules file, by the fused path of
    /// `normalize_into` (the query filter and the host's plan in the
    /// buffer; debug builds compare every call with the general path):
    /// the same text as `normalize` (the general path), and idempotent.
    #[test]
    fn fused_path_equals_the_general_path(
        rules in proptest::collection::vec(gen_rule(), 1..15),
        urls in proptest::collection::vec(
            (gen_url(), pick(&["", "utm_source=x", "utm_medium=y&a=1"])),
            1..8,
        ),
        aliases in gen_alias_only(),
    ) {
        let mut rules = rules;
        rules.push(aliases);
        // Host aliases in a cycle are refused when the file is loaded (no
        // host would be canonical and each pass would move the host on:
        // not idempotent; docs/learning.md).
        if has_alias_cycle(&rules) {
            let mut c = Config::default();
            let mut s = irinorm::scheme::SchemeRegistry::builtin();
            let e = load_toml(&rules.concat(), &mut c, &mut s).unwrap_err();
            prop_assert!(e.contains("cycle"), "{}", e);
            return Ok(());
        }
        let p = crawler_with(&rules);
        for (u, extra) in &urls {
            let x = match (u.split_once('#'), extra.is_empty()) {
                (_, true) => u.clone(),
                (Some((a, f)), false) => format!("{a}{}{extra}#{f}", if a.contains('?') { "&" } else { "?" }),
                (None, false) => format!("{u}{}{extra}", if u.contains('?') { "&" } else { "?" }),
            };
            let Ok(general) = p.normalize(&x) else { continue };
            let mut out = String::from("before ");
            let mut applied = Vec::new();
            p.normalize_into(&x, &mut out, &mut applied).unwrap();
            prop_assert_eq!(&out["before ".len()..], &*general.text, "{}\n{}", x, rules.concat());
            prop_assert_eq!(&applied, &general.applied);
            // Without the list (round 8: no copy of the ladder's text).
            let mut text = String::from("before ");
            p.normalize_text_into(&x, &mut text, &mut Vec::new()).unwrap();
            prop_assert_eq!(&text, &out, "normalize_text_into, {}\n{}", x, rules.concat());
            let mut again = String::new();
            p.normalize_into(&out["before ".len()..], &mut again, &mut Vec::new()).unwrap();
            prop_assert_eq!(&again, &out["before ".len()..], "not idempotent: {}\n{}", x, rules.concat());
        }
    }
}

/// When the host rules make work for a named rule (a substitution that
/// spells a tracking parameter), the fused path hands the reference to
/// the general one, which runs the sections again.
#[test]
fn fused_path_redoes_when_rules_make_work_for_named_rules() {
    let p = crawler_with(&[
        "[[host-rule]]\nhost = \"a.test\"\nrule = \"substitute\"\nfrom = \"xutm_\"\nto = \"utm_\"\n"
            .to_owned(),
    ]);
    let x = "http://a.test/p?xutm_source=1&b=2#f";
    let mut out = String::new();
    let mut applied = Vec::new();
    p.normalize_into(x, &mut out, &mut applied).unwrap();
    assert_eq!(out, "http://a.test/p?b=2");
    assert_eq!(
        applied,
        // In order of application: the first round's host rules and
        // fragment, then the second round's query filter.
        [
            RuleName::HostRules,
            RuleName::RemoveFragment,
            RuleName::RemoveQueryParams
        ]
    );
    assert_eq!(p.normalize(x).unwrap().applied, applied);
    // Without the list the fused path keeps no copy of the ladder's text:
    // here it hands the reference back to be written again (round 8).
    let mut text = String::from("kept ");
    p.normalize_text_into(x, &mut text, &mut Vec::new())
        .unwrap();
    assert_eq!(text, "kept http://a.test/p?b=2");
}

/// Hosts with rules on which a named rule of `crawler` may fire (a
/// trailing dot: remove-trailing-host-dot; a leading digit, an IPv4
/// address in some form: decode-ipv4-forms, RFC 3986 §7.4): the fused
/// path screens them as it screens hosts without rules (their plans are
/// not plain, `plan::plain_host`: issue 11, round 20) and gives the general
/// path's bytes; a plain host skips the screen and gives them too.
#[test]
fn fused_path_screens_hosts_with_rules_that_named_rules_change() {
    for host in ["a.test.", "10.0.0.1", "0x7f.1", "1drv.test", "a.test"] {
        let p = crawler_with(&[format!(
            "[[host-rule]]\nhost = \"{host}\"\nrule = \"ignore-param\"\nname = \"x\"\n"
        )]);
        for x in [
            format!("http://{host}/p?x=1&utm_source=y&b=2"),
            format!("https://{host}/p?b=2&x=1#f"),
            format!("http://{host}/"),
        ] {
            let general = assert_listed_is_general(&p, &x, &x);
            let mut text = String::new();
            p.normalize_text_into(&x, &mut text, &mut Vec::new())
                .unwrap();
            assert_eq!(text, general, "normalize_text_into, {x}");
        }
    }
    // Counted by hand: the trailing dot goes (remove-trailing-host-dot),
    // then the host is `a.test`, which has no rule: `x` stays.
    let p = crawler_with(&[
        "[[host-rule]]\nhost = \"a.test.\"\nrule = \"ignore-param\"\nname = \"x\"\n".to_owned(),
    ]);
    let mut text = String::new();
    p.normalize_text_into("http://a.test./p?x=1&b=2", &mut text, &mut Vec::new())
        .unwrap();
    assert_eq!(text, "http://a.test/p?x=1&b=2");
}

/// Host aliases whose target a named rule of `crawler` changes (a
/// trailing dot, a numeric host in another form): the fused path hands
/// the reference to the general one, which gives the same bytes.
#[test]
fn fused_path_redoes_for_odd_alias_targets() {
    for to in ["0x7f.1", "a.test.", "10.0.0.1"] {
        let p = crawler_with(&[format!(
            "[[host-rule]]\nhost = \"b.test\"\nrule = \"alias-host\"\nto = \"{to}\"\n"
        )]);
        for x in ["http://b.test/p?q=1", "https://b.test/"] {
            assert_listed_is_general(&p, x, &format!("{x} -> {to}"));
        }
    }
    // The numeric host in another form is decoded (RFC 3986 §7.4 forms,
    // by the `crawler` preset's decode-ipv4-forms) after the alias.
    let p = crawler_with(&[
        "[[host-rule]]\nhost = \"b.test\"\nrule = \"alias-host\"\nto = \"0x7f.1\"\n".to_owned(),
    ]);
    let mut out = String::new();
    p.normalize_into("http://b.test/p", &mut out, &mut Vec::new())
        .unwrap();
    assert_eq!(out, "http://127.0.0.1/p");
}

/// More ignored parameters than the plan's cuts on the stack (8): the
/// rest go by its overflow list, in the same order, with the same `&`s.
#[test]
fn many_removed_parameters_equal_the_reference() {
    let set = gen_set(&[
        "[[host-rule]]\nhost = \"a.test\"\nrule = \"ignore-param\"\nname = \"sid\"\n".to_owned(),
        "[[host-rule]]\nhost = \"a.test\"\nrule = \"default-param\"\nname = \"x\"\nvalue = \"1\"\n"
            .to_owned(),
    ]);
    for n in [7, 8, 9, 12, 40] {
        let gone: Vec<String> = (0..n).map(|i| format!("sid={i}")).collect();
        // All gone, kept ones first, last, and between every pair.
        let all = gone.join("&");
        let first = format!("k=0&{all}");
        let last = format!("{all}&x=1&k=9");
        let mixed = gone
            .iter()
            .enumerate()
            .map(|(i, g)| format!("{g}&k{i}=v"))
            .collect::<Vec<_>>()
            .join("&");
        for q in [all, first, last, mixed] {
            let x = format!("http://a.test/p?{q}");
            let want = set.apply_reference(&x);
            assert_eq!(set.apply(&x), want, "{x}");
            assert!(!want.as_deref().unwrap_or(&x).contains("sid="), "{x}");
        }
    }
}

/// A host with more steps than the plan's masks hold (64): its rounds
/// look at every step, and the first round is the same plain loop as for
/// smaller plans. Substitutions that feed each other over several rounds
/// and a trailing slash that makes work for them.
#[test]
fn plans_of_more_than_64_steps_equal_the_reference() {
    for n in [63usize, 64, 65, 70] {
        let mut rules: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    "[[host-rule]]\nhost = \"big.test\"\nrule = \"substitute\"\nfrom = \"/k{i:02}/\"\nto = \"/k{:02}\"\n",
                    i + 1
                )
            })
            .collect();
        rules
            .push("[[host-rule]]\nhost = \"big.test\"\nrule = \"add-trailing-slash\"\n".to_owned());
        let set = gen_set(&rules);
        for x in [
            "http://big.test/k00/",
            "http://big.test/k00/k03/x",
            "http://big.test/a/k62/b?q=/k01/",
            "http://big.test/none",
        ] {
            let want = set.apply_reference(x);
            assert_eq!(set.apply(x), want, "{n} {x}");
            assert_eq!(set.apply_general(x), want, "{n} {x}");
        }
        // Some input changed (not all pass through untouched).
        assert!(set.apply_reference("http://big.test/k00/").is_some());
    }
}

/// The first-round screen of a plan (by query and final `/`) leaves out
/// steps that cannot fire on the URL as it starts; a step that fires must
/// still wake them: `directory-index` leaves a final `/` for
/// `remove-trailing-slash`, a substitution makes a query or takes the
/// final `/` away, parameters go until none is left.
#[test]
fn first_round_screen_wakes_what_a_step_makes_possible() {
    let rule = |kind: &str| format!("[[host-rule]]\nhost = \"s.test\"\n{kind}\n");
    let files = [
        vec![
            rule("rule = \"directory-index\"\nname = \"index.html\""),
            rule("rule = \"remove-trailing-slash\""),
        ],
        vec![
            rule("rule = \"substitute\"\nfrom = \"/story_\"\nto = \"/s?id=\""),
            rule("rule = \"ignore-param\"\nname = \"id\""),
            rule("rule = \"sort-query\""),
        ],
        vec![
            rule("rule = \"substitute\"\nfrom = \"x/\"\nto = \"x\""),
            rule("rule = \"add-trailing-slash\""),
            rule("rule = \"directory-index\"\nname = \"x\""),
        ],
        vec![
            rule("rule = \"ignore-param\"\nname = \"sid\""),
            rule("rule = \"substitute\"\nfrom = \"/a/\"\nto = \"/\""),
            rule("rule = \"remove-trailing-slash\""),
        ],
    ];
    for f in files {
        let set = gen_set(&f);
        for x in [
            "http://s.test/dir/index.html",
            "http://s.test/dir/index.html?sid=1",
            "http://s.test/story_5",
            "http://s.test/story_5?b=1&a=2",
            "http://s.test/x/",
            "http://s.test/x/x/?sid=2",
            "http://s.test/a/",
            "http://s.test/a/a/?sid=3",
            "http://s.test/",
        ] {
            let want = set.apply_reference(x);
            assert_eq!(set.apply(x), want, "{f:?} {x}");
            assert_eq!(set.apply_stepwise(x), want, "step loop: {f:?} {x}");
        }
    }
    // The case the screen must not lose, by hand: the index goes, then
    // the slash it left.
    let set = gen_set(&[
        rule("rule = \"directory-index\"\nname = \"index.html\""),
        rule("rule = \"remove-trailing-slash\""),
    ]);
    assert_eq!(
        set.apply("http://s.test/dir/index.html").as_deref(),
        Some("http://s.test/dir")
    );
}

/// Queries of up to 64 bytes are split by bit masks of their `&` and `=`,
/// longer ones byte by byte: every length around 64, a removed parameter
/// at each end, names with and without `=`, an empty last parameter, and
/// a default value that must match exactly.
#[test]
fn removed_parameters_around_64_bytes_equal_the_reference() {
    let set = gen_set(&[
        "[[host-rule]]\nhost = \"a.test\"\nrule = \"ignore-param\"\nname = \"sid\"\n".to_owned(),
        "[[host-rule]]\nhost = \"a.test\"\nrule = \"ignore-param\"\nname = \"flag\"\n".to_owned(),
        "[[host-rule]]\nhost = \"a.test\"\nrule = \"default-param\"\nname = \"lang\"\nvalue = \"en\"\n"
            .to_owned(),
    ]);
    let mut changed = 0;
    for pad in 40..80 {
        let filler = "k".repeat(pad);
        for q in [
            format!("sid=1&x={filler}"),
            format!("x={filler}&sid=1"),
            format!("x={filler}&flag"),
            format!("flag&x={filler}&lang=en"),
            format!("lang=fr&x={filler}&lang=en&"),
            format!("x={filler}&sid"),
            format!("{filler}=sid&sid={filler}"),
        ] {
            let x = format!("http://a.test/p?{q}");
            let want = set.apply_reference(&x);
            changed += usize::from(want.is_some());
            assert_eq!(set.apply(&x), want, "{x}");
        }
    }
    assert!(changed > 200, "{changed}");
}

/// Chains of hosts whose only rule is a host alias are resolved when the
/// file is loaded (one splice), as long as the 16-round bound lets every
/// alias on the way run; longer chains, chains entered after an alias of
/// a host with other rules, and cycles go alias by alias. Every start on
/// chains of 1 to 20 aliases, ending at a host with rules or without.
#[test]
fn alias_chains_equal_the_reference() {
    let alias = |h: String, t: String| {
        format!("[[host-rule]]\nhost = \"{h}\"\nrule = \"alias-host\"\nto = \"{t}\"\n")
    };
    for k in 1..=20usize {
        for end_has_rules in [false, true] {
            let mut rules: Vec<String> = (0..k)
                .map(|i| alias(format!("h{i}.test"), format!("h{}.test", i + 1)))
                .collect();
            if end_has_rules {
                rules.push(format!(
                    "[[host-rule]]\nhost = \"h{k}.test\"\nrule = \"remove-trailing-slash\"\n"
                ));
            }
            // Entered from a host with other rules (its alias is a step of
            // a full plan), and a scheme alias on the way in.
            rules.push(
                "[[host-rule]]\nhost = \"in.test\"\nrule = \"alias-scheme\"\nto = \"https\"\n"
                    .to_owned(),
            );
            rules.push(alias("in.test".into(), "h0.test".into()));
            let set = gen_set(&rules);
            for start in ["in.test".to_owned()]
                .into_iter()
                .chain((0..=k).map(|i| format!("h{i}.test")))
            {
                let x = format!("http://{start}/a/");
                let want = set.apply_reference(&x);
                assert_eq!(set.apply(&x), want, "{k} {end_has_rules} {x}");
            }
        }
    }
}

/// Rules that fire and give back their input (`lowercase-path` lowers
/// what a substitution writes as a capital, rounds after rounds): the
/// fused path keeps a copy for such a plan and says what the general path
/// says, on every URL the two rules can reach.
#[test]
fn fused_path_on_rules_that_undo_each_other() {
    let rules = [
        "[[host-rule]]\nhost = \"a.test\"\nrule = \"lowercase-path\"\n".to_owned(),
        "[[host-rule]]\nhost = \"a.test\"\nrule = \"substitute\"\nfrom = \"/a\"\nto = \"/A\"\n"
            .to_owned(),
        "[[host-rule]]\nhost = \"b.test\"\nrule = \"alias-host\"\nto = \"a.test\"\n".to_owned(),
    ];
    let p = crawler_with(&rules);
    for host in ["a.test", "b.test"] {
        for path in ["/A", "/a", "/a/A", "/Aa", "/b", "/A?x=1", "/a/a/a"] {
            let x = format!("http://{host}{path}");
            assert_listed_is_general(&p, &x, &x);
        }
    }
}

/// `directory-index` compares the path's end with the name after a `/`
/// (round 7), where it took the segment after the last `/`: names and
/// paths where the two could differ (a name holding a `/`, the name as
/// the whole path, a longer last segment ending with the name, other
/// case, non-ASCII before the name; a file refuses an empty name) give the reference's
/// bytes, by the compiled round and the step loop.
#[test]
fn directory_index_at_the_path_end_equals_the_reference() {
    for name in ["index.html", "a/b", "b", "é"] {
        let set = gen_set(&[format!(
            "[[host-rule]]\nhost = \"s.test\"\nrule = \"directory-index\"\nname = \"{name}\"\n"
        )]);
        for x in [
            "http://s.test/index.html",
            "http://s.test/x/INDEX.html?q=1",
            "http://s.test/x/myindex.html",
            "http://s.test/x/a/b",
            "http://s.test/a/b/",
            "http://s.test/b",
            "http://s.test/%C3%A9/b",
            "http://s.test/x/é",
            "http://s.test/xé",
            "http://s.test/",
        ] {
            let want = set.apply_reference(x);
            assert_eq!(set.apply(x), want, "{name:?} {x}");
            assert_eq!(set.apply_stepwise(x), want, "step loop: {name:?} {x}");
        }
    }
}

/// Tracking lists for [`learned_parameters_with_any_tracking_list`]:
/// names, prefixes, a name in capitals (the list ignores case).
const TRACKING: &[&str] = &[
    "utm_*",
    "utm_source",
    "sid",
    "REF",
    "fbclid",
    "x*",
    "gclid",
    "p",
];
/// Learned parameter rules of `a.test` on every path: exact names (some a
/// case variant or an entry of the tracking list, some not of the merged
/// filter's shape), defaults, and rules after the table in the fixed order.
const LEARNED: &[&str] = &[
    "rule = \"ignore-param\"\nname = \"sid\"\n",
    "rule = \"ignore-param\"\nname = \"SessionId\"\n",
    "rule = \"ignore-param\"\nname = \"ref\"\n",
    "rule = \"ignore-param\"\nname = \"utm_x\"\n",
    "rule = \"ignore-param\"\nname = \"a-b.c~d\"\n",
    "rule = \"ignore-param\"\nname = \"k\"\n",
    "rule = \"ignore-param\"\nname = \"a%20b\"\n",
    "rule = \"ignore-param\"\nname = \"x*\"\n",
    "rule = \"ignore-param\"\nname = \"abcdefghijklmnopq\"\n",
    "rule = \"default-param\"\nname = \"lang\"\nvalue = \"en\"\n",
    "rule = \"default-param\"\nname = \"k\"\nvalue = \"1\"\n",
    "rule = \"sort-query\"\n",
    "rule = \"lowercase-path\"\n",
    "rule = \"substitute\"\nfrom = \"q=\"\nto = \"k=\"\n",
    "rule = \"remove-trailing-slash\"\n",
    "rule = \"alias-scheme\"\nto = \"https\"\n",
    "path = \"/p\"\nrule = \"ignore-param\"\nname = \"sid\"\n",
];
const MERGE_PARAMS: &[&str] = &[
    "",
    "sid=1",
    "SID=2",
    "Sid",
    "sid",
    "ref=x",
    "REF=y",
    "utm_source=1",
    "UTM_Source=2",
    "utm_x=3",
    "UTM_X=3",
    "SessionId=9",
    "sessionid=9",
    "lang=en",
    "lang=fr",
    "k=1",
    "k=2",
    "k",
    "q=1",
    "x1",
    "X=1",
    "a-b.c~d=1",
    "a%20b=1",
    "p=",
    "fbclid=z",
    "%73id=1",
    "id=5",
    "abcdefghijklmnopq=1",
    "abcdefghijklmnop=1",
];

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig { cases: 2048.max(ProptestConfig::default().cases), ..ProptestConfig::default() })]

    /// Random tracking lists with random learned parameter rules of a
    /// host (exact names, case variants, names of both lists, defaults,
    /// rules after the table), on queries of case variants, long queries
    /// (several 64-byte blocks) and fragments. The fused path (the named
    /// query filter, then the plan; debug builds also compare every call
    /// inside) gives the text and the rules listed of the general path,
    /// which runs the named rules then the host rules in turn, and is
    /// idempotent. Written for round 8's one query pass (kept: the pass
    /// itself was measured and dropped, BENCHMARKS.md "Issue 11, round 8").
    #[test]
    fn learned_parameters_with_any_tracking_list(
        tracking in proptest::sample::subsequence(TRACKING.to_vec(), 0..=TRACKING.len()),
        default_list in proptest::bool::ANY,
        learned in proptest::sample::subsequence(LEARNED.to_vec(), 1..=LEARNED.len()),
        urls in proptest::collection::vec(
            (
                pick(&["/", "/p", "/P/a/", "/p/x"]),
                proptest::collection::vec(pick(MERGE_PARAMS), 0..12),
                pick(&["", "#f"]),
            ),
            1..8,
        ),
    ) {
        let mut c = Config::default();
        if !default_list {
            c.query_params = tracking.iter().map(|s| s.to_string()).collect();
        }
        let file: String = learned
            .iter()
            .map(|r| format!("[[host-rule]]\nhost = \"a.test\"\n{r}\n"))
            .collect();
        let mut s = irinorm::scheme::SchemeRegistry::builtin();
        load_toml(&file, &mut c, &mut s).unwrap();
        let p = Pipeline::new(
            Normalizer::new(Options::new(Rung::Scheme, Form::Uri)),
            irinorm_rules::Preset::Crawler.rule_set(),
            c,
        );
        for (path, params, frag) in &urls {
            let x = format!("http://a.test{path}?{}{frag}", params.join("&"));
            let general = p.normalize(&x).unwrap();
            let mut out = String::from("before ");
            let mut applied = Vec::new();
            p.normalize_into(&x, &mut out, &mut applied).unwrap();
            prop_assert_eq!(&out["before ".len()..], &*general.text, "{}\n{:?}\n{}", x, tracking, file);
            prop_assert_eq!(&applied, &general.applied, "{}\n{}", x, file);
            let mut text = String::from("before ");
            p.normalize_text_into(&x, &mut text, &mut Vec::new()).unwrap();
            prop_assert_eq!(&text, &out, "normalize_text_into, {}\n{}", x, file);
            let mut again = String::new();
            p.normalize_into(&out["before ".len()..], &mut again, &mut Vec::new()).unwrap();
            prop_assert_eq!(&again, &out["before ".len()..], "not idempotent: {}\n{}", x, file);
        }
    }
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig { cases: 1024.max(ProptestConfig::default().cases), ..ProptestConfig::default() })]

    /// Round 11: `explain` lists the rules `normalize` applied (the same
    /// names, each once, in the order they first fired; host rules that
    /// undo each other are listed by `explain` alone), and the last
    /// change it lists ends in the normal form: `crawler` or `aggressive`
    /// with a generated learned rules file.
    #[test]
    fn explain_lists_the_rules_normalize_applied(
        rules in proptest::collection::vec(gen_rule(), 1..10),
        urls in proptest::collection::vec(
            (gen_url(), pick(&["", "utm_source=x", "jsessionid=1&a=1"])),
            1..6,
        ),
        aggressive in proptest::bool::ANY,
    ) {
        if has_alias_cycle(&rules) {
            return Ok(());
        }
        let mut c = Config::default();
        let mut s = irinorm::scheme::SchemeRegistry::builtin();
        load_toml(&rules.concat(), &mut c, &mut s).unwrap();
        let preset = if aggressive { irinorm_rules::Preset::Aggressive } else { irinorm_rules::Preset::Crawler };
        let p = Pipeline::new(
            Normalizer::new(Options::new(Rung::Scheme, Form::Uri)),
            preset.rule_set(),
            c,
        );
        for (u, extra) in &urls {
            let x = match (u.split_once('#'), extra.is_empty()) {
                (_, true) => u.clone(),
                (Some((a, f)), false) => format!("{a}{}{extra}#{f}", if a.contains('?') { "&" } else { "?" }),
                (None, false) => format!("{u}{}{extra}", if u.contains('?') { "&" } else { "?" }),
            };
            let Ok(n) = p.normalize(&x) else { continue };
            let (_, fired) = p.explain(&x).unwrap();
            let mut listed: Vec<RuleName> = Vec::new();
            for f in &fired {
                if !listed.contains(&f.rule) {
                    listed.push(f.rule);
                }
            }
            let mut applied: Vec<RuleName> = Vec::new();
            for r in &n.applied {
                if !applied.contains(r) {
                    applied.push(*r);
                }
            }
            // `applied` holds the rules that changed the text; the trace
            // also lists host rules that undo each other within the file
            // (`remove-trailing-slash` on `/old/`, `add-trailing-slash` on
            // `/`: each fires, the URL comes back), which the compiled
            // plans report as no change. Every other rule is in both, in
            // the same order.
            let undone = |r: &RuleName| *r == RuleName::HostRules && !applied.contains(r);
            let listed: Vec<RuleName> = listed.into_iter().filter(|r| !undone(r)).collect();
            prop_assert_eq!(&listed, &applied, "{}\n{}", x, rules.concat());
            if let Some(last) = fired.last() {
                prop_assert!(n.text.contains(last.after.as_str()),
                    "last change {:?} not in {}: {}\n{}", last, n.text, x, rules.concat());
            }
        }
    }
}

/// One host's rule on every path, of every kind, with parameter names at
/// the parameter table's word boundary (7, 8 and 9 bytes) and
/// `%`-encoded names (a file's names are not empty: the loader refuses
/// them), against queries with empty parameters and empty names: many of them make one plan of more steps than
/// the compiled first round holds (round 17: 16, the wake table's size,
/// held in the plan).
fn gen_rule_of_one_host() -> impl Strategy<Value = String> {
    let param = pick(&["abcdefg", "abcdefgh", "abcdefghi", "%41", "a%3D", "sid"]);
    let kind = prop_oneof![
        param.prop_map(|n| format!("rule = \"ignore-param\"\nname = \"{n}\"")),
        (pick(&["abcdefgh", "%41", "x"]), pick(&["1", "", "%20"])).prop_map(|(n, v)| format!(
            "rule = \"default-param\"\nname = \"{n}\"\nvalue = \"{v}\""
        )),
        gen_rule_on_every_path().prop_map(|r| r
            .lines()
            .filter(|l| l.starts_with("rule")
                || l.starts_with("to")
                || l.starts_with("name")
                || l.starts_with("value")
                || l.starts_with("from"))
            .map(|l| format!("{l}\n"))
            .collect::<String>()),
    ];
    kind.prop_map(|k| {
        format!(
            "[[host-rule]]\nhost = \"a.test\"\n{}\nlearned = true\n",
            k.trim_end()
        )
    })
}

/// URLs of `a.test` whose queries hold the names above, `&&` and empty
/// parameters.
fn gen_url_of_one_host() -> impl Strategy<Value = String> {
    (
        gen_url(),
        proptest::collection::vec(
            pick(&[
                "",
                "abcdefg",
                "abcdefg=1",
                "abcdefgh",
                "abcdefgh=",
                "abcdefghi=2",
                "%41=1",
                "%41",
                "a%3D=x",
                "=1",
                "sid=3",
                "x=1",
            ]),
            0..6,
        ),
    )
        .prop_map(|(u, q)| {
            let u = u.split('#').next().unwrap_or("").to_owned();
            let Some(rest) = u.split_once("://").map(|x| x.1) else {
                return u;
            };
            let path = rest.find('/').map_or("/", |i| &rest[i..]);
            let path = path.split('?').next().unwrap_or("/");
            format!("http://a.test{path}?{}", q.join("&"))
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024.max(ProptestConfig::default().cases), ..ProptestConfig::default() })]

    /// Plans of one host of 1-24 rules of every kind on every path (the
    /// compiled first round up to 16 steps, the step loop past it), with
    /// parameter names at the word boundary, empty, `%`-encoded, queries
    /// with `&&`: the compiled run, the step loop, the general path and
    /// the first implementation give the same bytes.
    #[test]
    fn plans_around_the_compiled_rounds_step_bound(
        rules in proptest::collection::vec(gen_rule_of_one_host(), 1..25),
        urls in proptest::collection::vec(gen_url_of_one_host(), 1..8),
    ) {
        paths_agree(rules, String::new(), &urls)?;
    }
}
