//! The ladder commands of the binary: normalize, compare, explain, presets,
//! dedupe with ladder keys, check --lint, and the measurement commands.
//! Expected values come from LADDER.md, the RFCs and normalize.jsonl /
//! equivalent.jsonl cases, not from the code's own output.

mod common;

use common::run;

#[test]
fn normalize_rungs_and_forms() {
    let r = run(&["normalize", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d"], b"");
    assert_eq!(
        (r.code, r.out()),
        (0, "example://a/b/c/%7Bfoo%7D\n".to_owned())
    );
    let r = run(
        &["normalize", "--rung", "syntax", "http://example.com:80/"],
        b"",
    );
    assert_eq!(r.out(), "http://example.com:80/\n");
    let r = run(&["normalize", "http://example.com:80"], b"");
    assert_eq!(r.out(), "http://example.com/\n");
    let r = run(&["normalize", "--rung", "string", "HTTP://A/%7e"], b"");
    assert_eq!(r.out(), "HTTP://A/%7e\n");
    let r = run(
        &[
            "normalize",
            "--form",
            "iri",
            "http://xn--rsum-bpad.example.org",
        ],
        b"",
    );
    assert_eq!(r.out(), "http://résumé.example.org/\n");
    let r = run(&["normalize", "http://résumé.example.org"], b"");
    assert_eq!(r.out(), "http://xn--rsum-bpad.example.org/\n");
    // %2F is never decoded; the empty query keeps its '?'.
    let r = run(&["normalize", "http://a/b%2fc?"], b"");
    assert_eq!(r.out(), "http://a/b%2Fc?\n");
}

#[test]
fn normalize_options() {
    let r = run(&["normalize", "--ignore-fragment", "http://a/#x"], b"");
    assert_eq!(r.out(), "http://a/\n");
    let r = run(&["normalize", "--base", "http://a/b/c/d;p?q", "../g"], b"");
    assert_eq!(r.out(), "http://a/b/g\n");
    let decomposed = "http://a/re\u{301}sume\u{301}";
    assert_eq!(
        run(&["normalize", decomposed], b"").out(),
        "http://a/re%CC%81sume%CC%81\n"
    );
    assert_eq!(
        run(&["normalize", "--nfc", decomposed], b"").out(),
        "http://a/r%C3%A9sum%C3%A9\n"
    );
    let r = run(&["normalize", "--nfc", "--nfkc", "http://a/"], b"");
    assert_eq!(r.code, 2);
    let r = run(&["normalize", "--base", "relative/only", "x"], b"");
    assert_eq!(r.code, 2);
}

#[test]
fn normalize_rejects_and_jsonl() {
    let r = run(
        &["normalize", "--format", "jsonl", "http://a b/", "HTTP://A/"],
        b"",
    );
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(v[0]["error"]["kind"], "invalid-char");
    assert_eq!(v[0]["error"]["offset"], 8);
    assert!(v[0]["output"].is_null());
    assert_eq!(v[1]["output"], "http://a/");
    assert_eq!(v[1]["applied"], serde_json::json!([]));
    assert!(r.stderr.contains("rejected 1"), "{}", r.stderr);
    // A host that UTS #46 refuses is kept and reported, not guessed.
    let r = run(
        &["normalize", "--format", "jsonl", "http://a.\u{378}.net/"],
        b"",
    );
    let v = r.json();
    assert_eq!(v[0]["output"], "http://a.%CD%B8.net/");
    assert!(v[0]["warnings"][0]
        .as_str()
        .unwrap()
        .contains("idna-invalid"));
}

#[test]
fn presets_and_named_rules() {
    let url = "http://Example.com./a/?utm_source=news&id=7#top";
    assert_eq!(
        run(&["normalize", url], b"").out(),
        "http://example.com./a/?utm_source=news&id=7#top\n"
    );
    assert_eq!(
        run(&["normalize", "--preset", "fetch", url], b"").out(),
        "http://example.com./a/?utm_source=news&id=7\n"
    );
    assert_eq!(
        run(&["normalize", "--preset", "crawler", url], b"").out(),
        "http://example.com/a/?id=7\n"
    );
    let r = run(
        &["normalize", "--preset", "crawler", "--format", "jsonl", url],
        b"",
    );
    assert_eq!(
        r.json()[0]["applied"],
        serde_json::json!([
            "remove-trailing-host-dot",
            "remove-query-params",
            "remove-fragment"
        ])
    );
    // The order of --apply does not matter; conflicting rules are refused.
    let a = run(
        &[
            "normalize",
            "--apply",
            "sort-query,remove-www",
            "http://www.example.com/?b=2&a=1",
        ],
        b"",
    );
    let b = run(
        &[
            "normalize",
            "--apply",
            "remove-www,sort-query",
            "http://www.example.com/?b=2&a=1",
        ],
        b"",
    );
    assert_eq!(a.out(), "http://example.com/?a=1&b=2\n");
    assert_eq!(a.out(), b.out());
    assert_eq!(
        run(
            &["normalize", "--apply", "remove-www,add-www", "http://a/"],
            b""
        )
        .code,
        2
    );
    assert_eq!(
        run(&["normalize", "--apply", "no-such-rule", "http://a/"], b"").code,
        2
    );
    // Parameters: --query-params replaces the list, --ip-to-host adds a mapping.
    let r = run(
        &[
            "normalize",
            "--apply",
            "remove-query-params",
            "--query-params",
            "ref,src*",
            "http://a/?ref=1&srcx=2&utm_source=3",
        ],
        b"",
    );
    assert_eq!(r.out(), "http://a/?utm_source=3\n");
    let r = run(
        &[
            "normalize",
            "--apply",
            "ip-to-host",
            "--ip-to-host",
            "127.0.0.1=LocalHost",
            "http://127.0.0.1:80/",
        ],
        b"",
    );
    assert_eq!(r.out(), "http://localhost/\n");
    let p = run(&["presets"], b"");
    assert_eq!(p.code, 0);
    assert!(p.out().contains("crawler"));
    assert!(p.out().contains(
        "remove-trailing-host-dot, decode-ipv4-forms, remove-query-params, remove-fragment"
    ));
}

#[test]
fn settings_files() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("irinorm.toml");
    std::fs::write(
        &cfg,
        "[rules]\nextra-query-params = [\"ref\"]\n\n[schemes.myproto]\ndefault-port = 7070\ndns-host = true\nempty-path-is-root = true\n",
    )
    .unwrap();
    let c = cfg.to_str().unwrap();
    let r = run(&["normalize", "--config", c, "MyProto://Host:7070"], b"");
    assert_eq!(r.out(), "myproto://host/\n");
    let r = run(
        &[
            "normalize",
            "--schemes",
            c,
            "--preset",
            "crawler",
            "http://a/?ref=x&utm_id=1",
        ],
        b"",
    );
    assert_eq!(r.out(), "http://a/\n");
    std::fs::write(&cfg, "[rules]\nnot-a-setting = 1\n").unwrap();
    assert_eq!(run(&["normalize", "--config", c, "http://a/"], b"").code, 2);
}

/// Round 22: damaged settings files are reported with the file and the
/// line, never a crash or a rule that silently never applies: a file that
/// is not UTF-8 (it said "stream did not contain valid UTF-8"), a host
/// rule whose host no URL has (kept without a word), TOML errors.
#[test]
fn damaged_settings_files_are_named_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("s.toml");
    let c = cfg.to_str().unwrap();
    for (text, want) in [
        (&b"# ok\n[rules]\nquery-params = [\"\xff\"]\n"[..], "s.toml: line 3, byte 30: not UTF-8"),
        (
            b"[[host-rule]]\nhost = \"a.example:80\"\nrule = \"sort-query\"\n",
            "s.toml: line 1: [[host-rule]] sort-query for a.example:80: `host` is not a host",
        ),
        (b"[[host-rule]]\nhost = \"a.example\"\n[[host-rule]]\n", "s.toml: TOML parse error at line "),
        (b"[rules]\n[rules]\n", "s.toml: TOML parse error at line 2"),
        (b"a = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n", "s.toml: "),
    ] {
        std::fs::write(&cfg, text).unwrap();
        for flag in ["--config", "--schemes"] {
            let r = run(&["normalize", flag, c, "http://a/"], b"");
            assert_eq!(r.code, 2, "{want}: {}", r.stderr);
            assert!(r.stderr.contains(want), "{want}: {}", r.stderr);
            assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        }
    }
}

#[test]
fn compare_rungs_and_exit_status() {
    let r = run(
        &[
            "compare",
            "example://a/b/c/%7Bfoo%7D",
            "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
        ],
        b"",
    );
    assert_eq!((r.code, r.out()), (0, "equivalent (syntax)\n".to_owned()));
    let r = run(
        &["compare", "http://example.com", "http://example.com:80/"],
        b"",
    );
    assert_eq!((r.code, r.out()), (0, "equivalent (scheme)\n".to_owned()));
    let r = run(
        &[
            "compare",
            "--rung",
            "syntax",
            "http://example.com",
            "http://example.com:80/",
        ],
        b"",
    );
    assert_eq!((r.code, r.out()), (1, "different\n".to_owned()));
    let r = run(&["compare", "http://a/b", "http://a%2Fb"], b"");
    assert_eq!((r.code, r.out()), (1, "different\n".to_owned()));
    let r = run(
        &["compare", "http://example.com/", "http://example.com/#"],
        b"",
    );
    assert_eq!(r.code, 1);
    let r = run(
        &[
            "compare",
            "--preset",
            "fetch",
            "http://example.com/",
            "http://example.com/#",
        ],
        b"",
    );
    // Issue 13: the rule made them equal, not rung `string`.
    assert_eq!(
        (r.code, r.out()),
        (
            0,
            "equivalent (scheme + rules: remove-fragment)\n".to_owned()
        )
    );
    assert_eq!(run(&["compare", "http://a/"], b"").code, 2);
}

#[test]
fn compare_pairs_from_stdin() {
    let input = b"http://a/\tHTTP://A:80/\nhttp://a/\thttp://b/\nx y\thttp://a/\nno-tab\n";
    let r = run(&["compare", "--format", "jsonl"], input);
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(v.len(), 4);
    assert_eq!(
        (v[0]["equivalent"].as_bool(), v[0]["rung"].as_str()),
        (Some(true), Some("scheme"))
    );
    assert_eq!(
        (v[1]["equivalent"].as_bool(), v[1]["rung"].as_str()),
        (Some(false), None)
    );
    assert_eq!(v[1]["a"], "http://a/");
    assert_eq!(v[2]["error"]["kind"], "invalid-char");
    assert_eq!(v[2]["error"]["offset"], 1);
    assert_eq!(v[3]["error"]["kind"], "not-a-pair");
    let s = r.summary();
    assert_eq!((s.read, s.rejected), (4, 2));
}

#[test]
fn explain_shows_rules_with_sources() {
    let r = run(&["explain", "HTTP://Example.COM:80/a/./b/../%7euser"], b"");
    assert_eq!(r.code, 0);
    let out = r.out();
    for needle in [
        "syntax  uri  http://example.com:80/a/~user",
        "scheme  uri  http://example.com/a/~user",
        "lowercase-scheme",
        "RFC 3986 §6.2.2.1",
        "decode-unreserved",
        "remove-dot-segments",
        "remove-default-port",
        "RFC 3986 §6.2.3",
    ] {
        assert!(out.contains(needle), "{needle} missing from:\n{out}");
    }
    let r = run(
        &[
            "explain",
            "--preset",
            "crawler",
            "--format",
            "jsonl",
            "http://a./?utm_source=1",
        ],
        b"",
    );
    let v = &r.json()[0];
    assert_eq!(v["steps"].as_array().unwrap().len(), 6);
    assert_eq!(v["rules"][0]["rule"], "remove-trailing-host-dot");
    assert_eq!(v["rules"][1]["after"], "http://a/");
}

#[test]
fn dedupe_uses_the_ladder() {
    let input =
        b"http://a/\nHTTP://A:80/\nhttp://a/#x\nhttp://b/?utm_source=1\nhttp://b/\nnot a url\n";
    let r = run(&["dedupe"], input);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.lines(),
        [
            "http://a/",
            "http://a/#x",
            "http://b/?utm_source=1",
            "http://b/"
        ]
    );
    let s = r.summary();
    assert_eq!(
        (s.read, s.written, s.rejected, s.duplicates),
        (6, 4, 1, Some(1))
    );
    let r = run(&["dedupe", "--preset", "crawler", "--key-only"], input);
    assert_eq!(r.lines(), ["http://a/", "http://b/"]);
    let s = r.summary();
    assert_eq!(s.read, s.written + s.rejected + s.duplicates.unwrap());
    let r = run(&["dedupe", "--rung", "string", "--count"], input);
    assert_eq!(r.lines().len(), 5);
}

#[test]
fn check_lint_findings() {
    let r = run(
        &["check", "--lint", "http://www.example.com@evil.example/"],
        b"",
    );
    assert_eq!(r.code, 0);
    assert!(r.out().contains("userinfo-looks-like-host"), "{}", r.out());
    let r = run(
        &[
            "check",
            "--lint",
            "--format",
            "jsonl",
            "http://u:pw@a/%C0%AF",
        ],
        b"",
    );
    assert_eq!(r.code, 1, "an error-severity finding makes exit status 1");
    let codes: Vec<String> = r.json()[0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_owned())
        .collect();
    assert!(codes.contains(&"userinfo-password".to_owned()), "{codes:?}");
    assert!(codes.contains(&"pct-overlong-utf8".to_owned()), "{codes:?}");
    // A bidi control is an error (RFC 3987 §4.1).
    let r = run(
        &["check", "--lint", "--grammar", "IRI", "http://a/\u{202E}b"],
        b"",
    );
    assert!(r.out().contains("bidi-format-char"), "{}", r.out());
}

#[test]
fn frontier_and_quality_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.txt");
    std::fs::write(
        &corpus,
        "http://example.com/a/b?x=1&y=2\nhttps://www.example.org/p\nhttp://h.example/q/r\n",
    )
    .unwrap();
    let out = dir.path().join("f.tsv");
    let r = common::run_in(
        dir.path(),
        &[
            "frontier",
            "--corpus",
            corpus.to_str().unwrap(),
            "--lines",
            "300",
            "--seed",
            "7",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    std::fs::write(&out, &r.stdout).unwrap();
    assert!(r.out().starts_with("url\tclass\tkind\tequal_at\n"));
    let q = run(&["quality", out.to_str().unwrap(), "--json"], b"");
    assert_eq!(q.code, 0, "{}", q.stderr);
    let v: serde_json::Value = serde_json::from_str(&q.out()).unwrap();
    let text = v.to_string();
    assert!(text.contains("\"rfc\""), "{text}");
}

#[test]
fn compare_on_records() {
    let csv = b"id,old,new\n1,http://a/,HTTP://A:80/\n2,\"http://a/b\",\"http://a/c\"\n3,http://x y,http://a/\n";
    let r = run(
        &["compare", "--csv", "--column", "old", "--column", "new"],
        csv,
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        r.lines(),
        [
            "id,old,new,comparison",
            "1,http://a/,HTTP://A:80/,equivalent (scheme)",
            "2,http://a/b,http://a/c,different"
        ]
    );
    let s = r.summary();
    assert_eq!((s.read, s.written, s.rejected), (3, 2, 1));
    let jsonl = b"{\"a\":\"http://a/%7e\",\"b\":\"http://a/~\",\"n\":1}\n{\"a\":\"http://a/\"}\n";
    let r = run(
        &["compare", "--field", "a", "--field", "b", "--into", "same"],
        jsonl,
    );
    let v: serde_json::Value = serde_json::from_str(&r.lines()[0]).unwrap();
    assert_eq!(v["same"], "equivalent (syntax)");
    assert_eq!(v["n"], 1);
    assert!(r.stderr.contains("missing-field"), "{}", r.stderr);
    assert_eq!(run(&["compare", "--column", "1"], b"x,y\n").code, 2);
    assert_eq!(
        run(&["normalize", "--column", "1", "--column", "2"], b"x,y\n").code,
        2
    );
}
