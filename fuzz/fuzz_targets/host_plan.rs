//! The host rules compiled into one plan per host (issue 11,
//! `crates/irinorm-rules/src/host_rules/plan.rs`): a rules file made from
//! the first bytes (each byte a rule of a small vocabulary of every kind,
//! on three hosts, with path prefixes, aliases between the hosts and
//! substitutions that feed each other), the rest a URL. The compiled plan
//! and the general path give the bytes of the first implementation; with
//! `crawler` on top, the fused path (`normalize_into`) gives the general
//! path's bytes (debug builds also compare inside) and is idempotent.
//! When the first byte's high bit is set, every rule holds on every path
//! (as learned files are): most plans then take the compiled first round
//! (`host_rules/plan/first_round.rs`), checked against the step loop
//! (`apply_stepwise`) too.

#![no_main]

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm_rules::{load_toml, Config, HostRuleSet, Pipeline, Preset};
use libfuzzer_sys::fuzz_target;

/// `www.a.test` with an alias to `a.test` is a host that ends with its
/// alias (the labels before it are drained).
const HOSTS: [&str; 4] = ["a.test", "b.test", "c.test", "www.a.test"];
const PREFIXES: [&str; 4] = ["/", "/a", "/b/", "/old/"];
const KINDS: [&str; 16] = [
    "rule = \"alias-scheme\"\nto = \"https\"",
    "rule = \"alias-scheme\"\nto = \"http\"",
    "rule = \"alias-host\"\nto = \"a.test\"",
    "rule = \"alias-host\"\nto = \"b.test\"",
    "rule = \"ignore-param\"\nname = \"sid\"",
    "rule = \"ignore-param\"\nname = \"x\"",
    "rule = \"default-param\"\nname = \"lang\"\nvalue = \"en\"",
    "rule = \"default-param\"\nname = \"page\"\nvalue = \"\"",
    "rule = \"sort-query\"",
    "rule = \"lowercase-path\"",
    "rule = \"substitute\"\nfrom = \"/old/\"\nto = \"/\"",
    "rule = \"substitute\"\nfrom = \"/story?id=\"\nto = \"/s/\"",
    "rule = \"substitute\"\nfrom = \"xutm_\"\nto = \"utm_\"",
    "rule = \"directory-index\"\nname = \"index.html\"",
    "rule = \"remove-trailing-slash\"",
    "rule = \"add-trailing-slash\"",
];

fuzz_target!(|data: &[u8]| {
    let Some((&n, rest)) = data.split_first() else { return };
    let every_path = n & 0x80 != 0;
    let n = (n % 12) as usize + 1;
    if rest.len() < n {
        return;
    }
    let (spec, url) = rest.split_at(n);
    let Ok(url) = std::str::from_utf8(url) else { return };
    let mut file = String::new();
    for &b in spec {
        file.push_str(&format!(
            "[[host-rule]]\nhost = \"{}\"\npath = \"{}\"\n{}\n",
            HOSTS[(b % 4) as usize],
            if every_path {
                "/"
            } else {
                PREFIXES[((b >> 2) % 4) as usize]
            },
            KINDS[(b >> 4) as usize],
        ));
    }
    let mut config = Config::default();
    let mut schemes = irinorm::scheme::SchemeRegistry::builtin();
    if let Err(e) = load_toml(&file, &mut config, &mut schemes) {
        // The vocabulary is valid; only aliases in a cycle (`a.test` to
        // `b.test` and back) are refused, and must be.
        assert!(e.contains("cycle"), "{e}\n{file}");
        return;
    }
    let set = HostRuleSet::new(&config.host_rules);
    let p = Pipeline::new(
        Normalizer::new(Options::new(Rung::Scheme, Form::Uri)),
        Preset::Crawler.rule_set(),
        config,
    );
    let Ok(general) = p.normalize(url) else { return };
    // On the normal form, as the pipeline applies them.
    let want = set.apply_reference(&general.text);
    assert_eq!(set.apply(&general.text), want, "plan: {url:?}\n{file}");
    assert_eq!(
        set.apply_stepwise(&general.text),
        want,
        "step loop: {url:?}\n{file}"
    );
    assert_eq!(set.apply_general(&general.text), want, "general: {url:?}\n{file}");
    let mut out = String::new();
    let mut applied = Vec::new();
    p.normalize_into(url, &mut out, &mut applied).expect("parsed once");
    assert_eq!(out, general.text, "fused path: {url:?}\n{file}");
    assert_eq!(applied, general.applied, "{url:?}\n{file}");
    let mut again = String::new();
    p.normalize_into(&out, &mut again, &mut Vec::new()).expect("normal form parses");
    assert_eq!(again, out, "not idempotent: {url:?}\n{file}");
});
