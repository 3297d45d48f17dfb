//! SURT keys against the real `surt` Python package (0.3.1, from PyPI, in
//! the venv of scripts/python-env.sh) on every line of the shared corpora,
//! with the default options and each option the package has. Every
//! difference must be a documented `surt` bug (docs/known-differences.md,
//! "SURT"): there is none today, so any difference fails.

use std::io::Write;
use std::process::{Command, Stdio};

use irinorm::surt::{surt_with, SurtOptions};

/// (name, options, the package's keyword arguments)
fn option_sets() -> Vec<(&'static str, SurtOptions, &'static str)> {
    let d = SurtOptions::default();
    vec![
        ("default", d, "{}"),
        (
            "with_scheme",
            SurtOptions {
                with_scheme: true,
                ..d
            },
            r#"{"with_scheme": True}"#,
        ),
        (
            "heritrix",
            SurtOptions::heritrix(),
            r#"{"with_scheme": True, "trailing_comma": True}"#,
        ),
        (
            "reverse_ipaddr=False",
            SurtOptions {
                reverse_ipaddr: false,
                ..d
            },
            r#"{"reverse_ipaddr": False}"#,
        ),
        (
            "host_massage=False",
            SurtOptions {
                host_massage: false,
                ..d
            },
            r#"{"host_massage": False}"#,
        ),
    ]
}

const SCRIPT: &str = r#"
import sys, json
from surt import surt
opts = [eval(o) for o in sys.argv[1:]]
out = []
for line in sys.stdin:
    u = json.loads(line)
    row = []
    for o in opts:
        try:
            row.append(surt(u, **o))
        except Exception as e:
            row.append(None)
    out.append(json.dumps(row))
sys.stdout.write("\n".join(out) + "\n")
"#;

#[test]
fn surt_matches_the_python_package_on_the_corpora() {
    const NAME: &str = "differential_surt";
    let Some(py) = irinorm_testdata::python(NAME) else {
        return;
    };
    let Some(corpora) = irinorm_testdata::text_corpora(NAME) else {
        return;
    };
    let Some(pairs) = irinorm_testdata::relative_pairs(NAME) else {
        return;
    };
    let mut inputs: Vec<String> = corpora.into_iter().flat_map(|(_, l)| l).collect();
    inputs.extend(pairs.into_iter().flat_map(|(b, r)| [b, r]));
    // Inputs that exercise every branch of the package, beside the corpora.
    for extra in [
        "",
        " ",
        "\t",
        "filedesc:x",
        "dns:archive.org",
        "http://a:99999/",
        "http://a:x/",
        "http://a:0/",
        "http://www2.archive.org:8080/A/B/?",
        "http://1.2.3.999/",
        "http://1.010/",
        "http://0.1.2.3/",
        "http://4294967297/",
        "HTTP://WWW.A.COM/",
        "http://https://http://a/",
        "http:////a//b/./../c/",
        "http://a/..",
        "http://a.b...c/",
        "http://user:pw@a/",
        "http://[::1]:80/",
        "http://a/x?b=1&a&a=&c#f",
        "http://%77ww.a.com/%2541",
        "http://a/?JSESSIONID=0123456789ABCDEF0123456789ABCDEF&x=1",
        "http://a/(S(0123456789abcdefghijklmn))/x.aspx",
        "http://a/(0123456789abcdefghijklmn)/y.aspx?q",
        "http://a/?cfid=1&cftoken=2&z",
        "http://a/?ASPSESSIONIDabcdefgh=abcdefghijklmnopqrstuvwx",
        "http://bücher.example/ü",
        "http://ÉXAMPLE.com/",
        "mailto:A@B.com",
        "a b",
        "//a/b",
    ] {
        inputs.push(extra.to_owned());
    }
    let sets = option_sets();
    let mut child = Command::new(&py)
        .arg("-c")
        .arg(SCRIPT)
        .args(sets.iter().map(|s| s.2))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{NAME}: {}: {e}", py.display()));
    let mut stdin = child.stdin.take().unwrap();
    let feed: String = inputs
        .iter()
        .map(|u| serde_json::to_string(u).unwrap() + "\n")
        .collect();
    let writer = std::thread::spawn(move || stdin.write_all(feed.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "{NAME}: python failed");
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<Option<String>>> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), inputs.len(), "{NAME}: one answer per input");
    let mut failures = Vec::new();
    let mut total = 0;
    for (u, row) in inputs.iter().zip(&rows) {
        for ((name, o, _), want) in sets.iter().zip(row) {
            total += 1;
            let got = surt_with(u, *o).ok();
            if &got != want {
                failures.push(format!("{u:?} [{name}]: irinorm {got:?}, surt {want:?}"));
            }
        }
    }
    irinorm_testdata::finish(NAME, total, failures);
}
