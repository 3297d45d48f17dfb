//! Conformance of the ladder: every case of `../shared/vectors/normalize.jsonl`
//! and `equivalent.jsonl` (format in that folder's README).

use irinorm::ladder::{Form, Normalizer, Options, Rung};
use irinorm_testdata::{finish, read_jsonl, str_field};

#[test]
fn normalize_vectors() {
    let Some(cases) = read_jsonl("normalize_vectors", "normalize.jsonl") else {
        return;
    };
    let mut fails = Vec::new();
    for c in &cases {
        let input = str_field(c, "input").unwrap();
        let rung: Rung = str_field(c, "rung").unwrap().parse().unwrap();
        let form: Form = str_field(c, "form").unwrap().parse().unwrap();
        let want = c["expected"].as_str();
        let got = Normalizer::new(Options::new(rung, form))
            .normalize(input)
            .ok();
        if got.as_deref() != want {
            fails.push(format!(
                "{input:?} at {rung}/{}: want {want:?}, got {got:?}",
                form.name()
            ));
        }
    }
    finish("normalize.jsonl", cases.len(), fails);
}

#[test]
fn equivalent_vectors() {
    let Some(cases) = read_jsonl("equivalent_vectors", "equivalent.jsonl") else {
        return;
    };
    let mut fails = Vec::new();
    for c in &cases {
        let (a, b) = (str_field(c, "a").unwrap(), str_field(c, "b").unwrap());
        let rung: Rung = str_field(c, "rung").unwrap().parse().unwrap();
        let want = c["equivalent"].as_bool().unwrap();
        let n = Normalizer::new(Options::new(rung, Form::Uri));
        match n.equivalent(a, b) {
            Ok(got) if got == want => {}
            other => fails.push(format!(
                "{a:?} ~ {b:?} at {rung}: want {want}, got {other:?}"
            )),
        }
        // compare() must agree with equivalent() at every rung.
        if let Ok(lowest) = n.compare(a, b) {
            if lowest.is_some_and(|l| l <= rung) != want {
                fails.push(format!(
                    "{a:?} ~ {b:?}: compare gives {lowest:?}, inconsistent with {rung}={want}"
                ));
            }
        }
    }
    finish("equivalent.jsonl", cases.len(), fails);
}
