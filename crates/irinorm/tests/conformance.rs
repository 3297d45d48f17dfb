//! Conformance: every case of `../shared/vectors/{parse,resolve,iri_to_uri,
//! uri_to_iri}.jsonl` (format in that folder's README). Each test reports
//! all failing cases at once, then fails.

use irinorm::{iri_to_uri_with, parse, resolve, uri_to_iri, Components, Grammar, ToUriOptions};
use irinorm_testdata::{finish, read_jsonl, str_field};
use serde_json::Value;

fn opt(v: &Value) -> Option<&str> {
    v.as_str()
}

#[test]
fn parse_vectors() {
    let Some(cases) = read_jsonl("parse_vectors", "parse.jsonl") else {
        return;
    };
    let mut fails = Vec::new();
    for c in &cases {
        let input = str_field(c, "input").unwrap();
        let g: Grammar = str_field(c, "grammar").unwrap().parse().unwrap();
        let want_valid = c["valid"].as_bool().unwrap();
        let got = parse(input, g);
        if got.is_ok() != want_valid {
            fails.push(format!(
                "{input:?} under {g}: want valid={want_valid}, got {got:?}"
            ));
            continue;
        }
        if let (Ok(m), Some(want)) = (got, c.get("components")) {
            let have = Components::of(input, &m);
            let pairs = [
                ("scheme", have.scheme),
                ("authority", have.authority),
                ("userinfo", have.userinfo),
                ("host", have.host),
                ("port", have.port),
                ("path", Some(have.path)),
                ("query", have.query),
                ("fragment", have.fragment),
            ];
            for (k, h) in pairs {
                if let Some(w) = want.get(k) {
                    if opt(w) != h {
                        fails.push(format!("{input:?}: {k}: want {w}, got {h:?}"));
                    }
                }
            }
        }
    }
    finish("parse.jsonl", cases.len(), fails);
}

#[test]
fn resolve_vectors() {
    let Some(cases) = read_jsonl("resolve_vectors", "resolve.jsonl") else {
        return;
    };
    let mut fails = Vec::new();
    for c in &cases {
        let (b, r) = (str_field(c, "base").unwrap(), str_field(c, "ref").unwrap());
        let want = opt(&c["expected"]);
        let got = resolve(b, r).ok();
        if got.as_deref() != want {
            fails.push(format!("base {b:?} ref {r:?}: want {want:?}, got {got:?}"));
        }
    }
    finish("resolve.jsonl", cases.len(), fails);
}

#[test]
fn iri_to_uri_vectors() {
    let Some(cases) = read_jsonl("iri_to_uri_vectors", "iri_to_uri.jsonl") else {
        return;
    };
    let mut fails = Vec::new();
    for c in &cases {
        let input = str_field(c, "input").unwrap();
        let idna = c.get("idna").and_then(Value::as_bool).unwrap_or(false);
        let want = opt(&c["expected"]);
        let got = iri_to_uri_with(
            input,
            &ToUriOptions {
                idna,
                ..Default::default()
            },
        );
        let got = got.as_ref().ok().map(|s| s.as_ref());
        if got != want {
            fails.push(format!(
                "{input:?} (idna={idna}): want {want:?}, got {got:?}"
            ));
        }
    }
    finish("iri_to_uri.jsonl", cases.len(), fails);
}

#[test]
fn uri_to_iri_vectors() {
    let Some(cases) = read_jsonl("uri_to_iri_vectors", "uri_to_iri.jsonl") else {
        return;
    };
    let mut fails = Vec::new();
    for c in &cases {
        let input = str_field(c, "input").unwrap();
        let want = opt(&c["expected"]);
        let got = uri_to_iri(input).ok();
        if got.as_deref() != want {
            fails.push(format!("{input:?}: want {want:?}, got {got:?}"));
        }
    }
    finish("uri_to_iri.jsonl", cases.len(), fails);
}
