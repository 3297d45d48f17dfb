//! The CLI contract of issue 2: every subcommand, text and jsonl, exit
//! codes, arguments vs stdin, `\r` stripping, empty lines, JSON escaping.

mod common;

use common::{run, run_in};
use serde_json::{json, Value};

#[test]
fn parse_text_prints_present_components() {
    let r = run(
        &[
            "parse",
            "http://user@example.com:8080/a/b?q=1#top",
            "",
            "a?",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.lines(),
        vec![
            "scheme=http\tauthority=user@example.com:8080\tuserinfo=user\thost=example.com\thost_kind=reg-name\tport=8080\tpath=/a/b\tquery=q=1\tfragment=top",
            "path=",
            "path=a\tquery=",
        ]
    );
    assert_eq!(r.stderr, "", "no summary for accepted arguments");
}

#[test]
fn parse_jsonl_every_component_null_when_absent() {
    let r = run(
        &[
            "parse",
            "--format",
            "jsonl",
            "mailto:a@b.example",
            "//[::1]:/x",
            "http://a?",
            "",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v.len(), 4);
    assert_eq!(
        v[0],
        json!({"input": "mailto:a@b.example", "scheme": "mailto", "authority": null,
               "userinfo": null, "host": null, "host_kind": null, "port": null,
               "path": "a@b.example", "query": null, "fragment": null, "error": null})
    );
    assert_eq!(v[1]["host"], "[::1]");
    assert_eq!(v[1]["host_kind"], "ipv6");
    assert_eq!(v[1]["port"], "", "present and empty is not absent");
    assert_eq!(v[1]["scheme"], Value::Null);
    assert_eq!(v[2]["query"], "");
    assert_eq!(v[2]["path"], "");
    assert_eq!(v[2]["fragment"], Value::Null);
    // The empty string is a valid relative reference with an empty path.
    assert_eq!(v[3]["input"], "");
    assert_eq!(v[3]["path"], "");
    assert_eq!(v[3]["error"], Value::Null);
}

#[test]
fn parse_reject_is_reported_counted_and_exit_1() {
    let r = run(
        &["parse", "--format", "jsonl", "ok", "http://a b/", "x"],
        b"",
    );
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(v.len(), 3, "one object per input, rejected ones too");
    assert_eq!(v[1]["input"], "http://a b/");
    assert_eq!(v[1]["path"], Value::Null);
    assert_eq!(v[1]["error"]["kind"], "invalid-char");
    assert_eq!(v[1]["error"]["offset"], 8);
    assert!(v[1]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not allowed"));
    assert!(
        r.stderr.contains("argument 2, byte 8: invalid-char"),
        "{}",
        r.stderr
    );
    let s = r.summary();
    assert_eq!((s.read, s.rejected), (3, 1));

    // Text: nothing on stdout for the rejected input.
    let r = run(&["parse", "ok", "http://a b/"], b"");
    assert_eq!(r.code, 1);
    assert_eq!(r.lines(), vec!["path=ok"]);
}

#[test]
fn parse_grammar_option() {
    let r = run(&["parse", "--grammar", "URI", "http://例え.jp/"], b"");
    assert_eq!(r.code, 1);
    let r = run(&["parse", "--grammar", "IRI", "http://例え.jp/"], b"");
    assert_eq!(r.code, 0);
    assert!(r.out().contains("host=例え.jp"));
    // Grammar names are case-insensitive.
    let r = run(&["parse", "--grammar", "uri-reference", "/a"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn check_text_verdicts_in_input_order() {
    let r = run(
        &["check", "http://example.com/", "http://example.com/a b", ""],
        b"",
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        r.lines(),
        vec![
            "valid",
            "invalid: character not allowed here in path at byte 20 (invalid-char)",
            "valid",
        ]
    );
    assert!(r.stderr.contains("argument 2, byte 20"), "{}", r.stderr);
    assert!(
        r.stderr.contains("read 3, written 3, rejected 1"),
        "{}",
        r.stderr
    );
}

#[test]
fn check_filter_prints_valid_inputs() {
    let r = run(&["check", "--filter"], b"http://a/\nbad one\nhttp://b/\n");
    assert_eq!(r.code, 1);
    assert_eq!(r.lines(), vec!["http://a/", "http://b/"]);
    assert_eq!(r.summary().written, 2);
}

#[test]
fn check_jsonl_valid_field() {
    let r = run(
        &[
            "check",
            "--grammar",
            "absolute-URI",
            "--format",
            "jsonl",
            "http://a/b",
            "http://a/b#frag",
            "relative",
        ],
        b"",
    );
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(
        v[0],
        json!({"input": "http://a/b", "valid": true, "error": null})
    );
    assert_eq!(v[1]["valid"], false);
    assert_eq!(v[1]["error"]["kind"], "unexpected-fragment");
    assert_eq!(v[1]["error"]["offset"], 10);
    assert_eq!(v[2]["error"]["kind"], "missing-scheme");
}

#[test]
fn every_grammar_name_is_accepted() {
    for g in [
        "URI",
        "URI-reference",
        "absolute-URI",
        "relative-ref",
        "IRI",
        "IRI-reference",
        "absolute-IRI",
        "irelative-ref",
    ] {
        let r = run(&["check", "--grammar", g, "--format", "jsonl", "x:y"], b"");
        let v = r.json();
        let expect = !g.contains("relative");
        assert_eq!(v[0]["valid"], expect, "{g}");
        assert_eq!(r.code, if expect { 0 } else { 1 }, "{g}");
    }
}

#[test]
fn resolve_rfc3986_examples() {
    let base = "http://a/b/c/d;p?q";
    let r = run(
        &[
            "resolve",
            "--base",
            base,
            "g:h",
            "../g",
            "?y",
            "#s",
            "g;x=1/../y",
            "../../../g",
            "",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.lines(),
        vec![
            "g:h",
            "http://a/b/g",
            "http://a/b/c/d;p?y",
            "http://a/b/c/d;p?q#s",
            "http://a/b/c/y",
            "http://a/g",
            "http://a/b/c/d;p?q",
        ]
    );
}

#[test]
fn resolve_jsonl_and_stdin() {
    let r = run(
        &[
            "resolve",
            "--base",
            "http://a/b/c#frag",
            "--format",
            "jsonl",
        ],
        b"d\n\nhttp://x y\n",
    );
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(v.len(), 3);
    assert_eq!(
        v[0],
        json!({"input": "d", "output": "http://a/b/d", "error": null})
    );
    // The empty reference is the base without its fragment (RFC 3986 §5.2.2).
    assert_eq!(v[1]["output"], "http://a/b/c");
    assert_eq!(v[2]["output"], Value::Null);
    assert_eq!(v[2]["error"]["kind"], "invalid-char");
    assert!(r.stderr.contains("line 3, byte 8"), "{}", r.stderr);
}

#[test]
fn resolve_bad_base_is_a_usage_error() {
    let r = run(&["resolve", "--base", "relative/path", "x"], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--base"), "{}", r.stderr);
    let r = run(&["resolve", "x"], b"");
    assert_eq!(r.code, 2, "--base is required");
}

#[test]
fn to_uri_and_idna() {
    let r = run(
        &[
            "to-uri",
            "http://example.com/résumé?q=ü",
            "http://bücher.example/",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.lines(),
        vec![
            "http://example.com/r%C3%A9sum%C3%A9?q=%C3%BC",
            "http://b%C3%BCcher.example/"
        ]
    );
    let r = run(
        &[
            "to-uri",
            "--idna",
            "--format",
            "jsonl",
            "http://bücher.example/ü",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.json()[0],
        json!({"input": "http://bücher.example/ü",
               "output": "http://xn--bcher-kva.example/%C3%BC", "error": null})
    );
    let r = run(&["to-uri", "--format", "jsonl", "http://a/%zz"], b"");
    assert_eq!(r.code, 1);
    assert_eq!(r.json()[0]["error"]["kind"], "bad-percent-encoding");
    assert_eq!(r.json()[0]["output"], Value::Null);
}

#[test]
fn to_iri_text_and_jsonl() {
    let r = run(
        &[
            "to-iri",
            "http://example.com/r%C3%A9sum%C3%A9",
            "http://a/%2F%C0%AF",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.lines(),
        vec!["http://example.com/résumé", "http://a/%2F%C0%AF"]
    );
    let r = run(
        &["to-iri", "--format", "jsonl"],
        "http://a/%C3%BC\nhttp://ü/\n".as_bytes(),
    );
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(v[0]["output"], "http://a/ü");
    assert_eq!(v[1]["error"]["kind"], "invalid-char", "a URI is ASCII");
}

#[test]
fn stdin_and_arguments_agree() {
    let inputs = ["http://a/b?c#d", "", "mailto:x@y", "//h:80", "http://a/%zz"];
    for sub in [
        vec!["parse"],
        vec!["check"],
        vec!["resolve", "--base", "http://base/x/y"],
        vec!["to-uri"],
        vec!["to-iri"],
    ] {
        for format in ["text", "jsonl"] {
            let mut a: Vec<&str> = sub.clone();
            a.extend(["--format", format]);
            let stdin = inputs.join("\n") + "\n";
            let from_stdin = run(&a, stdin.as_bytes());
            a.extend(inputs);
            let from_args = run(&a, b"");
            assert_eq!(from_stdin.stdout, from_args.stdout, "{sub:?} {format}");
            assert_eq!(from_stdin.code, from_args.code, "{sub:?} {format}");
            assert_eq!(from_stdin.code, 1);
        }
    }
}

#[test]
fn trailing_cr_is_stripped_and_nothing_else() {
    let r = run(
        &["check", "--format", "jsonl"],
        b"http://a/\r\nhttp://b/\n a\n\r\n a\rb\r\n",
    );
    let v = r.json();
    assert_eq!(v.len(), 5);
    assert_eq!(v[0]["input"], "http://a/");
    assert_eq!(v[0]["valid"], true);
    assert_eq!(v[1]["input"], "http://b/");
    assert_eq!(v[2]["input"], " a", "leading space kept");
    assert_eq!(v[2]["valid"], false);
    assert_eq!(v[3]["input"], "", "a CRLF line alone is an empty line");
    assert_eq!(v[4]["input"], " a\rb", "only the trailing CR goes");
}

#[test]
fn empty_lines_are_empty_references() {
    let r = run(&["parse", "--format", "jsonl"], b"\n\n");
    assert_eq!(r.code, 0);
    let v = r.json();
    assert_eq!(v.len(), 2);
    assert!(v
        .iter()
        .all(|o| o["input"] == "" && o["path"] == "" && o["error"].is_null()));
    let r = run(&["check", "--grammar", "IRI"], b"\n");
    assert_eq!(r.code, 1, "an empty line has no scheme");
    assert!(
        r.out().starts_with("invalid: a scheme is required"),
        "{}",
        r.out()
    );
    assert!(
        r.out().ends_with(" at byte 0 (missing-scheme)\n"),
        "{}",
        r.out()
    );
    let r = run(&["resolve", "--base", "http://a/b?q#f"], b"\n");
    assert_eq!(r.out(), "http://a/b?q\n");
    // No final newline: the last line still counts; an empty stdin is no input.
    let r = run(&["check", "--filter"], b"a\nb");
    assert_eq!(r.lines(), vec!["a", "b"]);
    let r = run(&["check"], b"");
    assert_eq!(r.code, 0);
    assert_eq!(r.out(), "");
    assert_eq!(r.summary().read, 0);
}

#[test]
fn jsonl_escapes_everything() {
    let tricky = "http://a/\"q\"\\\u{1}\t\u{7f}é\u{2028}";
    let r = run(&["check", "--format", "jsonl", tricky], b"");
    let line = r.out();
    assert_eq!(line.lines().count(), 1);
    let v: Value = serde_json::from_str(line.trim_end()).unwrap();
    assert_eq!(v["input"], tricky);
    assert_eq!(v["valid"], false);
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[&[&str]] = &[
        &["nope"],
        &["parse", "--grammar", "URL"],
        &["check", "--csv"],
        &["check", "--column", "0"],
        &["check", "--column", "1", "--format", "jsonl"],
        &["check", "-i", "missing-file.txt"],
        &["check", "x", "-i", "f"],
        &["check", "--input-encoding", "klingon"],
        &["check", "--input-encoding", "utf-8"],
        &["check", "--tsv", "--delimiter", ";", "--column", "1"],
        &["to-uri", "--field", "u", "--column", "1"],
        &["check", "--column", "url", "http://a/"],
        &["dedupe", "--count", "--groups"],
    ];
    for a in cases {
        let r = run_in(dir.path(), a, b"");
        assert_eq!(r.code, 2, "{a:?}: {}", r.stderr);
        assert!(r.stderr.contains("error"), "{a:?}: {}", r.stderr);
    }
}

#[test]
fn help_has_examples_for_every_subcommand() {
    for sub in [
        "parse",
        "check",
        "resolve",
        "to-uri",
        "to-iri",
        "dedupe",
        "completions",
        "man",
    ] {
        let r = run(&[sub, "--help"], b"");
        assert_eq!(r.code, 0, "{sub}");
        assert!(r.out().contains("Examples:"), "{sub}");
        assert!(r.out().contains(&format!("irinorm {sub}")), "{sub}");
    }
    let r = run(&["--help"], b"");
    assert!(r.out().contains("Exit status"));
}

#[test]
fn completions_and_man_pages() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let r = run(&["completions", shell], b"");
        assert_eq!(r.code, 0, "{shell}");
        assert!(r.out().contains("irinorm"), "{shell}");
        assert!(r.out().contains("to-uri"), "{shell}");
    }
    let r = run(&["man"], b"");
    assert_eq!(r.code, 0);
    assert!(
        r.out().starts_with(".ie") || r.out().contains(".TH"),
        "roff"
    );
    let dir = tempfile::tempdir().unwrap();
    let r = run_in(dir.path(), &["man", "--dir", "pages"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    for page in [
        "irinorm.1",
        "irinorm-check.1",
        "irinorm-dedupe.1",
        "irinorm-to-uri.1",
    ] {
        let text = std::fs::read_to_string(dir.path().join("pages").join(page)).unwrap();
        assert!(text.contains(".TH"), "{page}");
    }
}

#[test]
fn argument_naming_a_file_gets_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("urls.txt"), "http://a/\n").unwrap();
    let r = run_in(dir.path(), &["check", "urls.txt"], b"");
    assert_eq!(r.code, 0);
    assert_eq!(r.out(), "valid\n");
    assert!(r.stderr.contains("-i urls.txt"), "{}", r.stderr);
}

/// A closed stdout or stderr (`irinorm ... 2>&1 | head -1`) ends the run
/// quietly: never a panic (exit status 101).
#[test]
fn closed_pipes_are_not_a_crash() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let input: String = (0..200_000)
        .map(|i| format!("http://example.com/{i}\n"))
        .collect();
    for args in [
        &["normalize"][..],
        &["presets"][..],
        &["explain", "http://A/"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_irinorm"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let feeder = {
            let input = input.clone();
            std::thread::spawn(move || {
                use std::io::Write;
                let _ = stdin.write_all(input.as_bytes());
            })
        };
        // Read one byte of each stream, then close both.
        let mut out = child.stdout.take().unwrap();
        let mut one = [0u8; 1];
        let _ = out.read(&mut one);
        drop(out);
        drop(child.stderr.take());
        let status = child.wait().unwrap();
        let _ = feeder.join();
        assert_ne!(
            status.code(),
            Some(101),
            "{args:?} panicked on a closed pipe"
        );
    }
    // stderr closed, stdout read to the end: the rejects and the summary
    // line go to a closed stderr.
    let mut child = Command::new(env!("CARGO_BIN_EXE_irinorm"))
        .args(["normalize", "http://a/", "http://a b/", "x y"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let mut text = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(text, "http://a/\n");
    assert_eq!(status.code(), Some(1), "rejects counted, no panic");
}
