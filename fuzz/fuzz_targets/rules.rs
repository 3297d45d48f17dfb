//! Named rules on top of every rung and form: for any subset of rules
//! (conflicting pairs dropped), the pipeline never panics, is idempotent,
//! its output parses under the grammar of its form with the same scheme
//! and authority presence, the key agrees with the uri-form output, and
//! the in-place path (`normalize_into`) writes what `normalize` returns.

#![no_main]

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm::{parse, Components, Grammar};
use irinorm_rules::{Config, Pipeline, RuleName, RuleSet};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 5 {
        return;
    }
    let bits = u32::from_le_bytes([data[0], data[1], data[2], data[3]]);
    let rung = Rung::ALL[(data[4] % 3) as usize];
    let form = if data[4] & 0x80 != 0 { Form::Iri } else { Form::Uri };
    let Ok(input) = std::str::from_utf8(&data[5..]) else { return };
    let mut rules = RuleSet::EMPTY;
    for (i, r) in RuleName::ORDER.iter().enumerate() {
        if bits & (1 << i) != 0 {
            let _ = rules.insert(*r); // a conflicting rule is skipped
        }
    }
    let mut config = Config::default();
    config.ip_to_host.insert("127.0.0.1".into(), "localhost".into());
    config.case_insensitive_hosts.push("*.example.com".into());
    let p = Pipeline::new(Normalizer::new(Options::new(rung, form)), rules, config);
    let Ok(once) = p.normalize(input) else { return };
    // The in-place path (`normalize_into`, `key_into`: the query filter of
    // `crawler`-like sets works in the output buffer, 64 bytes at a time;
    // issue 14) gives the general path's bytes and rules, after a prefix.
    let mut out = String::from("x");
    let mut applied = Vec::new();
    p.normalize_into(input, &mut out, &mut applied).expect("parsed once");
    assert_eq!(&out[1..], &*once.text, "in place: {input:?} rules {rules:?}");
    assert_eq!(applied, once.applied, "in place: {input:?} rules {rules:?}");
    let twice = p.normalize(&once.text).expect("normal form parses");
    assert_eq!(twice.text, once.text, "not idempotent: {input:?} rules {rules:?}");
    if rung != Rung::String {
        let g = if form == Form::Uri { Grammar::UriReference } else { Grammar::IriReference };
        let m = parse(&once.text, g).unwrap_or_else(|e| panic!("{:?} does not parse as {g}: {e}", once.text));
        let before = Components::of(input, &parse(input, Grammar::IriReference).expect("input parsed"));
        let after = Components::of(&once.text, &m);
        assert_eq!(before.scheme.is_some(), after.scheme.is_some(), "{input:?}");
        assert_eq!(before.authority.is_some(), after.authority.is_some(), "{input:?}");
    }
    if form == Form::Uri {
        let key = p.key(input).expect("key");
        let q = Pipeline::new(Normalizer::new(Options::new(rung, Form::Uri)), rules, p.config().clone());
        assert_eq!(key, q.key(&once.text).expect("key of the normal form"), "key not stable: {input:?}");
    }
});
