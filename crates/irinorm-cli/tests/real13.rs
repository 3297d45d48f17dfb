//! Issue 13 from the command line: SURT keys, repair, the safebrowsing
//! preset and the Unix conventions (stdin as `-`, closed pipes, aligned
//! output).

mod common;

use common::run;

#[test]
fn surt_subcommand_and_options() {
    // Expected keys checked against surt 0.3.1 (`surt.surt(url, **options)`).
    let r = run(
        &[
            "surt",
            "http://www.archive.org/goo/?b&a",
            "http://archive.org/x#f",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.lines(), ["org,archive)/goo?a&b", "org,archive)/x"]);
    let r = run(&["surt", "--heritrix", "http://www.archive.org/"], b"");
    assert_eq!(r.lines(), ["http://(org,archive,)/"]);
    let r = run(&["surt", "--with-scheme", "http://www.archive.org/"], b"");
    assert_eq!(r.lines(), ["http://(org,archive)/"]);
    let r = run(
        &[
            "surt",
            "--no-host-massage",
            "--no-reverse-ipaddr",
            "http://www.archive.org/",
            "http://10.0.0.1/",
        ],
        b"",
    );
    assert_eq!(r.lines(), ["org,archive,www)/", "10.0.0.1)/"]);
    // The package raises on a port out of range: a counted reject.
    let r = run(&["surt", "-i", "-"], b"http://a:99999/\nhttp://a/\n");
    assert_eq!(r.code, 1);
    assert_eq!(r.lines(), ["a)/"]);
    assert!(r.stderr.contains("surt-error"), "{}", r.stderr);
}

#[test]
fn normalize_format_surt() {
    let r = run(
        &[
            "normalize",
            "--preset",
            "crawler",
            "--format",
            "surt",
            "http://WWW.Example.com/b?z&a&utm_source=x",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.lines(), ["com,example)/b?a&z"]);
    let r = run(&["parse", "--format", "surt", "http://a/"], b"");
    assert_eq!(r.code, 2, "only normalize has --format surt");
}

#[test]
fn compare_names_the_rules_that_made_the_pair_equal() {
    let r = run(
        &[
            "compare",
            "--preset",
            "crawler",
            "http://a/?utm_source=x",
            "http://a/",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.lines(),
        ["equivalent (scheme + rules: remove-query-params)"]
    );
    // The ladder alone still names its lowest rung, even with a preset.
    let r = run(
        &[
            "compare",
            "--preset",
            "crawler",
            "http://a/%7e",
            "http://a/~",
        ],
        b"",
    );
    assert_eq!(r.lines(), ["equivalent (syntax)"]);
    let r = run(
        &[
            "compare",
            "--format",
            "jsonl",
            "--preset",
            "crawler",
            "http://a/?utm_source=x",
            "http://a/",
        ],
        b"",
    );
    let v = r.json();
    assert_eq!(v[0]["rung"], "scheme");
    assert_eq!(v[0]["rules"], serde_json::json!(["remove-query-params"]));
}

#[test]
fn compare_echo_keeps_the_pair_with_its_verdict() {
    let r = run(
        &["compare", "--echo"],
        b"http://a/%7e\thttp://a/~\nhttp://a/\thttp://b/\n",
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        r.lines(),
        [
            "http://a/%7e\thttp://a/~\tequivalent (syntax)",
            "http://a/\thttp://b/\tdifferent"
        ]
    );
}

#[test]
fn repair_is_opt_in_named_and_counted() {
    let input = b"http://a/ b\nhttp://ok/\n\thttp:/x.com\\y\nhttp://a b/\n";
    // Exact by default: the space and the tab are rejected.
    let r = run(&["normalize"], input);
    assert_eq!(r.code, 1);
    assert_eq!(r.lines(), ["http://ok/"]);
    let r = run(&["normalize", "--repair"], input);
    assert_eq!(r.code, 1, "a host with a space stays refused");
    assert_eq!(r.lines(), ["http://a/%20b", "http://ok/", "http://x.com/y"]);
    let s = r
        .stderr
        .lines()
        .find(|l| l.starts_with("irinorm: read"))
        .unwrap();
    assert_eq!(s, "irinorm: read 4, written 3, rejected 1, repaired 2");
    let r = run(&["normalize", "--repair", "--format", "jsonl"], input);
    let v = r.json();
    assert_eq!(v[0]["repaired"], serde_json::json!(["encode-disallowed"]));
    assert_eq!(v[1]["repaired"], serde_json::json!([]));
    assert_eq!(
        v[2]["repaired"],
        serde_json::json!(["trim-c0-space", "backslash-to-slash", "scheme-slashes"])
    );
    let r = run(&["explain", "--repair", "http://a/b c"], b"");
    assert!(
        r.out().contains("  repair  http://a/b%20c\n"),
        "{}",
        r.out()
    );
    assert!(r.out().contains("encode-disallowed"), "{}", r.out());
    let r = run(&["dedupe", "--repair"], b"http://a/b c\nhttp://a/b%20c\n");
    assert_eq!(r.lines(), ["http://a/b c"]);
    let r = run(
        &[
            "compare",
            "--repair",
            "--base",
            "http://h/",
            "http:x y",
            "http://h/x%20y",
        ],
        b"",
    );
    assert_eq!(r.lines(), ["equivalent (string)"]);
}

#[test]
fn safebrowsing_preset_is_a_lookup_key() {
    // Examples of Google's Safe Browsing v4 "URLs and Hashing" documentation.
    let r = run(
        &[
            "normalize",
            "--preset",
            "safebrowsing",
            "http://host/%25%32%35",
            "www.GOOgle.com",
            "http://3279880203/blah",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.lines(),
        [
            "http://host/%25",
            "http://www.google.com/",
            "http://195.127.0.11/blah"
        ]
    );
    let r = run(&["normalize", "--preset", "safebrowsing", "ftp://a/"], b"");
    assert_eq!(r.code, 1);
    let r = run(
        &[
            "compare",
            "--preset",
            "safebrowsing",
            "http://a.com/b#x",
            "HTTP://A.com.:80//b",
        ],
        b"",
    );
    assert_eq!(r.lines(), ["equivalent (safebrowsing key)"]);
    let r = run(
        &[
            "normalize",
            "--preset",
            "safebrowsing",
            "--apply",
            "sort-query",
            "x",
        ],
        b"",
    );
    assert_eq!(r.code, 2, "a lookup key takes no rules");
    let r = run(
        &["dedupe", "--preset", "safebrowsing"],
        b"http://a/%2541\nhttp://A/A\n",
    );
    assert_eq!(r.lines(), ["http://a/%2541"]);
    let r = run(
        &[
            "explain",
            "--preset",
            "safebrowsing",
            "http://3279880203/blah",
        ],
        b"",
    );
    assert!(
        r.out()
            .contains("  safebrowsing  key  http://195.127.0.11/blah"),
        "{}",
        r.out()
    );
}

/// Runs `args` with stdout closed before the child writes anything (the
/// reader of `| head -c 0`), feeding `stdin`; returns (status, stderr).
fn with_closed_stdout(dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> (Option<i32>, String) {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_irinorm"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Close the read end of stdout at once: every write of the child fails
    // with EPIPE (Rust ignores SIGPIPE).
    drop(child.stdout.take());
    let mut sin = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    // The child may stop reading once its output is gone: ignore EPIPE here.
    let feeder = std::thread::spawn(move || {
        let _ = sin.write_all(&data);
    });
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    feeder.join().unwrap();
    (status.code(), err)
}

#[test]
fn a_closed_pipe_ends_every_subcommand_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let urls: String = (0..30_000)
        .map(|i| format!("http://h{}.example/p/{i}\n", i % 500))
        .collect();
    std::fs::write(dir.path().join("urls.txt"), &urls).unwrap();
    let pairs: String = (0..30_000)
        .map(|i| format!("http://a/{i}\thttp://A/{i}\n"))
        .collect();
    let frontier = dir.path().join("frontier.tsv");
    let r = common::run_in(
        dir.path(),
        &[
            "frontier",
            "--corpus",
            "urls.txt",
            "--lines",
            "2000",
            "-o",
            frontier.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cases: Vec<(Vec<&str>, &[u8])> = vec![
        (vec!["normalize"], urls.as_bytes()),
        (vec!["normalize", "-"], urls.as_bytes()),
        (vec!["compare"], pairs.as_bytes()),
        (vec!["explain"], urls.as_bytes()),
        (vec!["dedupe"], urls.as_bytes()),
        (vec!["dedupe", "--count"], urls.as_bytes()),
        (vec!["parse"], urls.as_bytes()),
        (vec!["check"], urls.as_bytes()),
        (vec!["resolve", "--base", "http://b/"], urls.as_bytes()),
        (vec!["to-uri"], urls.as_bytes()),
        (vec!["to-iri"], urls.as_bytes()),
        (vec!["surt"], urls.as_bytes()),
        (vec!["presets"], b""),
        (vec!["completions", "powershell"], b""),
        (vec!["completions", "bash"], b""),
        (vec!["man"], b""),
        (
            vec!["frontier", "--corpus", "urls.txt", "--lines", "50000"],
            b"",
        ),
        (vec!["quality", "frontier.tsv"], b""),
        (vec!["--help"], b""),
    ];
    for (args, input) in cases {
        let (code, err) = with_closed_stdout(dir.path(), &args, input);
        assert!(
            matches!(code, Some(0) | Some(1)),
            "{args:?}: exit {code:?} on a closed pipe: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            !err.to_lowercase().contains("broken pipe"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn dash_is_stdin_and_on_reject_keeps_lines_aligned() {
    let input = b"http://A/\nbad url\nhttp://b/\n";
    let r = run(&["normalize", "-"], input);
    assert_eq!(r.lines(), ["http://a/", "http://b/"]);
    let r = run(&["normalize", "--on-reject", "empty", "-"], input);
    assert_eq!(
        (r.code, r.lines()),
        (
            1,
            vec!["http://a/".into(), String::new(), "http://b/".into()]
        )
    );
    let s = r.summary();
    assert_eq!((s.read, s.written, s.rejected), (3, 3, 1));
    let r = run(&["normalize", "--on-reject", "keep"], input);
    assert_eq!(r.lines(), ["http://a/", "bad url", "http://b/"]);
    // CSV: the record stays, with an empty or unchanged field.
    let csv = b"u,n\nhttp://A/,1\nbad url,2\n";
    let r = run(&["normalize", "--column", "u", "--on-reject", "empty"], csv);
    assert_eq!(r.lines(), ["u,n", "http://a/,1", ",2"]);
    let r = run(
        &[
            "normalize",
            "--column",
            "u",
            "--into",
            "v",
            "--on-reject",
            "keep",
        ],
        csv,
    );
    assert_eq!(
        r.lines(),
        ["u,n,v", "http://A/,1,http://a/", "bad url,2,bad url"]
    );
    let r = run(
        &["normalize", "--field", "u", "--on-reject", "empty"],
        b"{\"u\":\"a b\"}\n",
    );
    assert_eq!(r.lines(), [r#"{"u":""}"#]);
    let r = run(&["compare", "-"], b"http://a/\thttp://A/\n");
    assert_eq!(r.lines(), ["equivalent (syntax)"]);
    assert_eq!(run(&["dedupe", "--on-reject", "keep"], b"").code, 2);
}

#[test]
fn lint_flags_encoded_delimiters_in_hosts_and_backslashes() {
    let codes = |input: &str| -> Vec<(String, u64)> {
        let r = run(&["check", "--lint", "--format", "jsonl", input], b"");
        r.json()[0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["code"].as_str().unwrap().to_owned(),
                    f["offset"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    // What to-uri makes of `http://example.com\path`: valid, but a trap.
    assert_eq!(
        run(&["to-uri", "http://example.com\\path"], b"").lines(),
        ["http://example.com%5Cpath"]
    );
    let c = codes("http://example.com%5Cpath/");
    assert!(c.contains(&("host-encoded-delimiter".into(), 18)), "{c:?}");
    for enc in [
        "%2F", "%20", "%3F", "%23", "%40", "%3A", "%00", "%7F", "%25",
    ] {
        let c = codes(&format!("http://a{enc}b.example/"));
        assert!(
            c.iter().any(|x| x.0 == "host-encoded-delimiter"),
            "{enc}: {c:?}"
        );
    }
    // Encoded letters and UTF-8 in a host are no delimiters; %2F in a path is fine here.
    for ok in [
        "http://%61.example/",
        "http://b%C3%BCcher.example/",
        "http://a.example/%2F%5C",
    ] {
        let c = codes(ok);
        assert!(
            !c.iter().any(|x| x.0 == "host-encoded-delimiter"),
            "{ok}: {c:?}"
        );
    }
    let c = codes("http://a.example\\@b.example/");
    assert!(c.contains(&("backslash".into(), 16)), "{c:?}");
    let c = codes("x/a\\\\b");
    assert_eq!(
        c.iter().filter(|x| x.0 == "backslash").count(),
        1,
        "one finding per run: {c:?}"
    );
}

#[test]
fn dedupe_refuses_keep_with_key_modes() {
    for mode in ["--count", "--groups", "--key-only"] {
        let r = run(&["dedupe", mode, "--keep", "last"], b"http://a/\n");
        assert_eq!(r.code, 2, "{mode}: {}", r.stderr);
    }
    // The summary line is written although stderr is a pipe here.
    let r = run(
        &["dedupe", "--format", "jsonl"],
        b"http://a/\nhttp://A/\nbad x\n",
    );
    let s = r.summary();
    assert_eq!(
        (s.read, s.written, s.rejected, s.unique),
        (3, 1, 1, Some(1))
    );
}
