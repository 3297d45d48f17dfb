//! The bulk engine through the binary (issue 5): order under parallelism,
//! compressed input and output, rejects accounting, records (CSV, TSV,
//! JSON Lines), huge lines, invalid UTF-8, dedupe.

mod common;

use std::io::{Read, Write};
use std::path::Path;

use common::{rejects, run, run_in};
use serde_json::{json, Value};

/// `n` generated lines; every 97th is invalid (a space in the path).
fn generated(n: usize) -> (String, Vec<usize>) {
    let mut s = String::new();
    let mut bad = Vec::new();
    for i in 1..=n {
        if i % 97 == 0 {
            s.push_str(&format!("http://h{}.example/bad path/{i}\n", i % 13));
            bad.push(i);
        } else {
            s.push_str(&format!("http://h{}.example/p/{i}?q={}\n", i % 13, i * 7));
        }
    }
    (s, bad)
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

fn gunzip(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(b)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn write(dir: &Path, name: &str, b: &[u8]) {
    std::fs::write(dir.join(name), b).unwrap();
}

#[test]
fn order_is_kept_with_4_threads_and_small_chunks() {
    let (text, bad) = generated(5000);
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", text.as_bytes());
    let r = run_in(
        dir.path(),
        &[
            "check",
            "--filter",
            "--threads",
            "4",
            "--chunk-size",
            "300",
            "-i",
            "in.txt",
            "--rejects",
            "rej.tsv",
        ],
        b"",
    );
    assert_eq!(r.code, 1);
    let expect: Vec<&str> = text.lines().filter(|l| !l.contains(' ')).collect();
    assert_eq!(r.lines(), expect);
    let rej = rejects(&dir.path().join("rej.tsv"));
    let lines: Vec<usize> = rej.iter().map(|c| c[0].parse().unwrap()).collect();
    assert_eq!(lines, bad, "rejects in input order with their line numbers");
    let s = r.summary();
    assert_eq!(
        (s.read, s.written, s.rejected),
        (5000, 5000 - bad.len() as u64, bad.len() as u64)
    );

    // jsonl: one object per input line, in input order.
    let r = run_in(
        dir.path(),
        &[
            "parse",
            "--format",
            "jsonl",
            "-j",
            "4",
            "--chunk-size",
            "1000",
            "-i",
            "in.txt",
        ],
        b"",
    );
    let v = r.json();
    assert_eq!(v.len(), 5000);
    for (o, line) in v.iter().zip(text.lines()) {
        assert_eq!(o["input"], line);
    }
    assert_eq!(r.summary().written, 5000);
}

#[test]
fn gzip_and_zstd_input_by_magic_bytes_and_compressed_output() {
    let (text, bad) = generated(3000);
    let dir = tempfile::tempdir().unwrap();
    // Names that say nothing about the compression: magic bytes decide.
    write(dir.path(), "a.data", &gzip(text.as_bytes()));
    write(
        dir.path(),
        "b.data",
        &zstd::encode_all(text.as_bytes(), 3).unwrap(),
    );
    write(dir.path(), "plain.gz", text.as_bytes());
    let expect: String = text
        .lines()
        .filter(|l| !l.contains(' '))
        .map(|l| format!("{l}\n"))
        .collect();
    for f in ["a.data", "b.data", "plain.gz"] {
        let r = run_in(dir.path(), &["check", "--filter", "-j", "2", "-i", f], b"");
        assert_eq!(r.out(), expect, "{f}");
        assert_eq!(r.summary().rejected, bad.len() as u64);
    }
    // Compressed stdin too.
    let r = run(&["check", "--filter"], &gzip(text.as_bytes()));
    assert_eq!(r.out(), expect);

    let r = run_in(
        dir.path(),
        &[
            "check",
            "--filter",
            "-i",
            "a.data",
            "-o",
            "out.txt.gz",
            "--chunk-size",
            "4096",
        ],
        b"",
    );
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, b"");
    let gz = std::fs::read(dir.path().join("out.txt.gz")).unwrap();
    assert_eq!(&gz[..2], &[0x1f, 0x8b]);
    assert_eq!(gunzip(&gz), expect.as_bytes());

    run_in(
        dir.path(),
        &["check", "--filter", "-i", "b.data", "-o", "out.zst"],
        b"",
    );
    let zs = std::fs::read(dir.path().join("out.zst")).unwrap();
    assert_eq!(&zs[..4], &[0x28, 0xb5, 0x2f, 0xfd]);
    assert_eq!(zstd::decode_all(&zs[..]).unwrap(), expect.as_bytes());

    run_in(
        dir.path(),
        &["check", "--filter", "-i", "b.data", "-o", "out.txt"],
        b"",
    );
    assert_eq!(
        std::fs::read(dir.path().join("out.txt")).unwrap(),
        expect.as_bytes()
    );
}

#[test]
fn rejects_file_accounts_for_every_line() {
    let dir = tempfile::tempdir().unwrap();
    let input = b"http://a/\nhttp://b c/\n\nhttp://d/%G1\nhttp://e/\n\xff\xfe\nhttp://[::1/\n";
    write(dir.path(), "in.txt", input);
    for sub in [
        vec!["to-uri"],
        vec!["to-iri"],
        vec!["check", "--filter"],
        vec!["resolve", "--base", "http://base/"],
        vec!["parse"],
    ] {
        let mut a = sub.clone();
        a.extend(["-i", "in.txt", "--rejects", "rej.tsv"]);
        let r = run_in(dir.path(), &a, b"");
        assert_eq!(r.code, 1, "{sub:?}");
        let s = r.summary();
        assert_eq!(s.read, 7, "{sub:?}");
        assert_eq!(
            s.read,
            s.written + s.rejected,
            "{sub:?}: read = written + rejected"
        );
        assert_eq!(r.lines().len() as u64, s.written, "{sub:?}");
        let rej = rejects(&dir.path().join("rej.tsv"));
        assert_eq!(rej.len() as u64, s.rejected, "{sub:?}");
        assert!(
            !r.stderr.contains("byte"),
            "with --rejects, none on stderr: {}",
            r.stderr
        );
        assert!(r.stderr.contains("rejects in rej.tsv"), "{}", r.stderr);
    }
    let r = run_in(
        dir.path(),
        &["check", "-i", "in.txt", "--rejects", "rej.tsv"],
        b"",
    );
    let rej = rejects(&dir.path().join("rej.tsv"));
    assert_eq!(rej.len(), 4);
    assert_eq!(
        rej[0],
        vec![
            "2",
            "8",
            "invalid-char",
            "character not allowed here in host",
            "http://b c/"
        ]
    );
    assert_eq!(rej[1][0..3], ["4", "9", "bad-percent-encoding"]);
    assert_eq!(rej[2][0..3], ["6", "0", "invalid-utf8"]);
    // Bytes that are not UTF-8 are written \xHH (docs/cli.md, the rejects
    // file): the file stays UTF-8 and the bytes can be recovered.
    assert_eq!(rej[2][4], "\\xFF\\xFE", "escaped \\xff\\xfe");
    assert!(String::from_utf8(std::fs::read(dir.path().join("rej.tsv")).unwrap()).is_ok());
    assert_eq!(rej[3][0], "7");
    assert_eq!(r.lines().len(), 7, "check prints a verdict for every line");
}

#[test]
fn without_rejects_file_the_first_few_are_shown() {
    let (text, bad) = generated(3000);
    let r = run(
        &["check", "--filter", "--show-rejects", "3"],
        text.as_bytes(),
    );
    let shown: Vec<&str> = r.stderr.lines().filter(|l| l.contains(", byte ")).collect();
    assert_eq!(shown.len(), 3);
    assert!(
        shown[0].starts_with(&format!("irinorm: line {}, byte 21: invalid-char", bad[0])),
        "{}",
        shown[0]
    );
    assert!(
        r.stderr
            .contains(&format!("{} rejects not shown", bad.len() - 3)),
        "{}",
        r.stderr
    );
    assert_eq!(r.summary().rejected, bad.len() as u64);
}

#[test]
fn strict_stops_at_the_first_reject() {
    let (text, bad) = generated(2000);
    let r = run(
        &[
            "check",
            "--filter",
            "--strict",
            "-j",
            "3",
            "--chunk-size",
            "256",
        ],
        text.as_bytes(),
    );
    assert_eq!(r.code, 1);
    let expect: Vec<&str> = text.lines().take(bad[0] - 1).collect();
    assert_eq!(r.lines(), expect);
    let s = r.summary();
    assert_eq!((s.read, s.rejected), (bad[0] as u64, 1));
    assert!(r.stderr.contains("--strict"), "{}", r.stderr);
}

#[test]
fn several_files_name_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "one.txt", b"http://a/\nbad one\n");
    write(dir.path(), "two.txt", b"bad two\nhttp://b/");
    let r = run_in(
        dir.path(),
        &[
            "check",
            "--filter",
            "-i",
            "one.txt",
            "-i",
            "two.txt",
            "--rejects",
            "r.tsv",
        ],
        b"",
    );
    assert_eq!(r.lines(), vec!["http://a/", "http://b/"]);
    let rej = rejects(&dir.path().join("r.tsv"));
    assert_eq!(rej[0][0], "one.txt:2");
    assert_eq!(rej[1][0], "two.txt:1");
    let r = run_in(dir.path(), &["check", "-i", "one.txt", "-i", "-"], b"x y\n");
    assert!(r.stderr.contains("one.txt:2, byte 3"), "{}", r.stderr);
    assert!(r.stderr.contains("-:1, byte 1"), "{}", r.stderr);
}

#[test]
fn csv_quoted_fields_are_kept_and_requoted() {
    let dir = tempfile::tempdir().unwrap();
    let csv = "id,url,note\r\n\
               1,http://example.com/ü,\"a, comma\"\r\n\
               2,\"http://b.example/\",\"multi\nline \"\"quoted\"\"\"\r\n\
               3,http://c d/,x\r\n\
               \r\n\
               4,\"http://d.example/é\",\r\n\
               5\r\n";
    write(dir.path(), "in.csv", csv.as_bytes());
    let r = run_in(
        dir.path(),
        &[
            "to-uri",
            "--column",
            "url",
            "-i",
            "in.csv",
            "--rejects",
            "rej.tsv",
            "-j",
            "2",
            "--chunk-size",
            "16",
        ],
        b"",
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        r.out(),
        "id,url,note\n\
         1,http://example.com/%C3%BC,\"a, comma\"\n\
         2,http://b.example/,\"multi\nline \"\"quoted\"\"\"\n\
         3,http://c%20d/,x\n\
         4,http://d.example/%C3%A9,\n"
    );
    let rej = rejects(&dir.path().join("rej.tsv"));
    assert_eq!(rej.len(), 1);
    assert_eq!(rej[0][..3], ["8", "0", "missing-column"]);
    let s = r.summary();
    assert_eq!(
        (s.read, s.written, s.rejected),
        (5, 4, 1),
        "the header is not an input; blank lines are skipped"
    );

    // By number, into a new column, with a header.
    let r = run_in(
        dir.path(),
        &[
            "to-uri", "--column", "2", "--header", "--into", "uri", "-i", "in.csv", "-q",
        ],
        b"",
    );
    let lines = r.out();
    assert!(
        lines.starts_with(
            "id,url,note,uri\n1,http://example.com/ü,\"a, comma\",http://example.com/%C3%BC\n"
        ),
        "{lines}"
    );
    // Check as a filter on records: rejected records go, valid ones stay as they were.
    let r = run_in(
        dir.path(),
        &["check", "--csv", "--column", "url", "-i", "in.csv", "-q"],
        b"",
    );
    assert_eq!(r.code, 1);
    assert!(!r.out().contains("3,http://c d/"));
    assert!(
        r.stderr.contains("line 5, byte 8"),
        "the record's first line: {}",
        r.stderr
    );
    assert!(
        r.stderr.contains("line 8, byte 0: missing-column"),
        "{}",
        r.stderr
    );
}

#[test]
fn tsv_and_other_delimiters() {
    let r = run(
        &["to-uri", "--tsv", "--column", "2"],
        "a\thttp://x/é\t\"q\nb\thttp://y/\n".as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.out(),
        "a\thttp://x/%C3%A9\t\"q\nb\thttp://y/\n",
        "TSV has no quoting"
    );
    let r = run(
        &["to-uri", "--delimiter", ";", "--column", "1", "--into", "u"],
        "\"http://x/é\";\"a;b\"\n".as_bytes(),
    );
    assert_eq!(r.out(), "http://x/é;\"a;b\";http://x/%C3%A9\n");
}

#[test]
fn jsonl_records_replace_or_add_a_field() {
    let input = "{\"id\":1,\"url\":\"http://a/\\u00fc\",\"meta\":{\"z\":1,\"a\":[2]}}\n\
                 {\"id\":2,\"url\":5}\n\
                 not json\n\
                 {\"id\":3}\n\
                 {\"url\":\"http://b/\",\"uri\":\"old\"}\n";
    let r = run(&["to-uri", "--field", "url", "-j", "2"], input.as_bytes());
    assert_eq!(r.code, 1);
    assert_eq!(
        r.lines(),
        vec![
            "{\"id\":1,\"url\":\"http://a/%C3%BC\",\"meta\":{\"z\":1,\"a\":[2]}}",
            "{\"url\":\"http://b/\",\"uri\":\"old\"}",
        ]
    );
    assert!(
        r.stderr.contains("line 2, byte 0: not-a-string"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("line 3, byte 1: invalid-json"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("line 4, byte 0: missing-field"),
        "{}",
        r.stderr
    );
    let s = r.summary();
    assert_eq!((s.read, s.written, s.rejected), (5, 2, 3));

    let r = run(
        &["to-uri", "--field", "url", "--into", "uri"],
        input.as_bytes(),
    );
    let v: Vec<Value> = r.json();
    assert_eq!(
        v[0],
        json!({"id": 1, "url": "http://a/ü", "meta": {"z": 1, "a": [2]}, "uri": "http://a/%C3%BC"})
    );
    assert_eq!(
        v[1],
        json!({"url": "http://b/", "uri": "http://b/"}),
        "replaced in place"
    );
    assert!(
        r.lines()[0].ends_with(",\"uri\":\"http://a/%C3%BC\"}"),
        "added last"
    );
}

#[test]
fn huge_lines_and_long_runs() {
    let huge = format!("http://example.com/{}ü", "a".repeat(1 << 20));
    let mut input = b"http://x/\n".to_vec();
    input.extend_from_slice(huge.as_bytes());
    input.extend_from_slice(b"\nhttp://y/\n");
    // The huge line is longer than the chunk size: the chunk grows (up to
    // --max-len, 1 MiB by default: here raised to let it through).
    let r = run(
        &[
            "to-uri",
            "--chunk-size",
            "4096",
            "-j",
            "2",
            "--max-len",
            "2000000",
        ],
        &input,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = r.lines();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1].len(), huge.len() + 4);
    assert!(lines[1].ends_with("a%C3%BC"));
    assert_eq!(lines[2], "http://y/");
    let r = run(
        &["check", "--format", "jsonl", "--max-len", "2000000"],
        &input,
    );
    assert_eq!(r.json()[1]["input"].as_str().unwrap().len(), huge.len());
}

#[test]
fn invalid_utf8_rejected_or_decoded() {
    let input = b"http://a/\nhttp://a/caf\xe9\nhttp://a/\xc3\xa9t\xe9\n";
    let r = run(&["to-uri"], input);
    assert_eq!(r.code, 1);
    assert_eq!(r.lines(), vec!["http://a/"]);
    assert!(
        r.stderr.contains("line 2, byte 12: invalid-utf8"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("line 3, byte 12: invalid-utf8"),
        "{}",
        r.stderr
    );
    assert_eq!(r.summary().rejected, 2);

    let r = run(&["to-uri", "--input-encoding", "windows-1252"], input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.lines(),
        vec![
            "http://a/",
            "http://a/caf%C3%A9",
            // Only lines that are not UTF-8 are decoded: this one is
            // windows-1252 as a whole ("Ã©tÃ©" would be wrong for the UTF-8
            // part, but the line is not UTF-8, so it is all windows-1252).
            "http://a/%C3%83%C2%A9t%C3%A9",
        ]
    );
    let r = run(
        &["check", "--format", "jsonl", "--input-encoding", "latin1"],
        b"caf\xe9\n",
    );
    assert_eq!(
        r.json()[0],
        json!({"input": "café", "valid": true, "error": null})
    );
    // Malformed in a multi-byte encoding: rejected, never guessed.
    let r = run(
        &["check", "--input-encoding", "shift_jis"],
        b"http://a/\x82\n",
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("invalid-encoding"), "{}", r.stderr);
}

#[test]
fn dedupe_modes_and_accounting() {
    let input = "http://b/\nhttp://a/\nhttp://b/\nbad line\nhttp://c/\nhttp://a/\nhttp://b/\n";
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", input.as_bytes());
    for hash in [false, true] {
        let h: &[&str] = if hash { &["--hash-keys"] } else { &[] };
        let go = |extra: &[&str]| {
            let mut a = vec!["dedupe", "-i", "in.txt", "-j", "2", "--chunk-size", "20"];
            a.extend_from_slice(h);
            a.extend_from_slice(extra);
            run_in(dir.path(), &a, b"")
        };
        let r = go(&[]);
        assert_eq!(r.code, 1, "one line is rejected");
        assert_eq!(r.lines(), vec!["http://b/", "http://a/", "http://c/"]);
        let s = r.summary();
        assert_eq!(
            (s.read, s.written, s.rejected, s.duplicates, s.unique),
            (7, 3, 1, Some(3), Some(3))
        );
        assert_eq!(s.read, s.written + s.rejected + s.duplicates.unwrap());

        let r = go(&["--keep", "last"]);
        assert_eq!(r.lines(), vec!["http://c/", "http://a/", "http://b/"]);

        let r = go(&["--count"]);
        assert_eq!(
            r.lines(),
            vec!["http://b/\t3", "http://a/\t2", "http://c/\t1"]
        );
        let s = r.summary();
        assert_eq!(s.read, s.written + s.rejected + s.duplicates.unwrap());

        let r = go(&["--key-only"]);
        assert_eq!(r.lines(), vec!["http://b/", "http://a/", "http://c/"]);

        let r = go(&["--groups"]);
        assert_eq!(
            r.out(),
            "http://b/\n\thttp://b/\nhttp://a/\n\thttp://a/\nhttp://c/\n\thttp://c/\n"
        );
        let r = go(&["--groups", "--format", "jsonl"]);
        assert_eq!(
            r.json()[0],
            json!({"key": "http://b/", "count": 3, "members": ["http://b/"]})
        );
        let r = go(&["--count", "--format", "jsonl"]);
        assert_eq!(r.json()[1], json!({"key": "http://a/", "count": 2}));
        let r = go(&["--format", "jsonl"]);
        assert_eq!(
            r.json()[2],
            json!({"input": "http://c/", "key": "http://c/"})
        );
    }
}

#[test]
fn dedupe_records_and_compressed() {
    let dir = tempfile::tempdir().unwrap();
    let csv = "n,url\n1,http://a/\n2,\"http://b/\"\n3,http://a/\n4,\"http://b/\"\n";
    write(dir.path(), "in.csv.gz", &gzip(csv.as_bytes()));
    let r = run_in(
        dir.path(),
        &[
            "dedupe",
            "--column",
            "url",
            "-i",
            "in.csv.gz",
            "-o",
            "out.zst",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = zstd::decode_all(&std::fs::read(dir.path().join("out.zst")).unwrap()[..]).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "n,url\n1,http://a/\n2,\"http://b/\"\n",
        "the original records, byte for byte"
    );
    let r = run_in(
        dir.path(),
        &[
            "dedupe",
            "--column",
            "2",
            "--header",
            "--count",
            "-i",
            "in.csv.gz",
        ],
        b"",
    );
    assert_eq!(r.lines(), vec!["http://a/\t2", "http://b/\t2"]);
    let r = run(
        &["dedupe", "--field", "u", "--keep", "last"],
        b"{\"u\":\"x\",\"n\":1}\n{\"u\":\"x\",\"n\":2}\n",
    );
    assert_eq!(r.out(), "{\"u\":\"x\",\"n\":2}\n");
}

#[test]
fn dedupe_many_keys_in_order_with_threads() {
    let mut input = String::new();
    for i in 0..20000 {
        input.push_str(&format!("http://h/{}\n", (i * 7919) % 5003));
    }
    let r = run(
        &["dedupe", "-j", "4", "--chunk-size", "1000"],
        input.as_bytes(),
    );
    let mut seen = std::collections::HashSet::new();
    let expect: Vec<&str> = input.lines().filter(|l| seen.insert(*l)).collect();
    assert_eq!(r.lines(), expect);
    let s = r.summary();
    assert_eq!(s.unique, Some(5003));
    assert_eq!(s.read, s.written + s.duplicates.unwrap());
    let r2 = run(
        &["dedupe", "-j", "4", "--chunk-size", "1000", "--hash-keys"],
        input.as_bytes(),
    );
    assert_eq!(r2.stdout, r.stdout);
    assert!(
        r.stderr.contains("(keys ~"),
        "memory is reported: {}",
        r.stderr
    );
}

/// Issue 14: the output is the same bytes with one thread and with several
/// (and any chunking), for normalize (text, jsonl, zstd) and every dedupe
/// mode, on URLs that repeat in other spellings, with invalid lines; and
/// every line is accounted for.
#[test]
fn one_thread_and_several_write_the_same_bytes() {
    let mut text = String::new();
    for i in 0..6000u32 {
        let h = i % 37;
        let line = match i % 7 {
            0 => format!("HTTP://H{h}.Example:80/a/./b/../p{}?q=%7e{i}", i % 500),
            1 => format!("http://h{h}.example/p{}?q=~{i}", i % 500),
            2 => format!("http://h{h}.example/bad path/{i}"),
            3 => format!("https://h{h}.example:443/%7Euser/{}#frag", i % 300),
            4 => format!("http://xn--rsum-bpad.example/{}", i % 50),
            5 => format!("http://résumé.example/{}", i % 50),
            _ => format!("http://h{h}.example/p{}?q=~{i}", i % 500),
        };
        text.push_str(&line);
        text.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", text.as_bytes());
    let modes: &[&[&str]] = &[
        &["normalize"],
        &["normalize", "--format", "jsonl"],
        &["normalize", "--preset", "crawler"],
        &["dedupe"],
        &["dedupe", "--hash-keys"],
        &["dedupe", "--keep", "last"],
        &["dedupe", "--count"],
        &["dedupe", "--groups"],
        &["dedupe", "--key-only", "--hash-keys"],
    ];
    for mode in modes {
        let go = |extra: &[&str]| {
            let mut a: Vec<&str> = mode.to_vec();
            a.extend_from_slice(&["-i", "in.txt", "--show-rejects", "0"]);
            a.extend_from_slice(extra);
            run_in(dir.path(), &a, b"")
        };
        let one = go(&["-j", "1"]);
        let s = one.summary();
        assert_eq!(one.code, 1, "{mode:?}: the bad lines are rejected");
        assert_eq!(
            s.rejected,
            (0..6000).filter(|i| i % 7 == 2).count() as u64,
            "{mode:?}"
        );
        if mode.contains(&"jsonl") {
            // One object per input line, rejects included.
            assert_eq!((s.read, s.written), (6000, 6000), "{mode:?}");
        } else if mode[0] == "normalize" {
            assert_eq!((s.read, s.written), (6000, 6000 - s.rejected), "{mode:?}");
        } else {
            let unique = s.unique.unwrap();
            assert_eq!(
                s.read,
                unique + s.duplicates.unwrap() + s.rejected,
                "{mode:?}"
            );
        }
        for threads in ["2", "3", "8"] {
            let many = go(&["-j", threads, "--chunk-size", "997"]);
            assert_eq!(many.stdout, one.stdout, "{mode:?} -j {threads}");
            assert_eq!(many.code, one.code);
            let m = many.summary();
            assert_eq!(
                (m.read, m.written, m.rejected, m.duplicates, m.unique),
                (s.read, s.written, s.rejected, s.duplicates, s.unique),
                "{mode:?} -j {threads}"
            );
        }
    }
    // Compressed output: the same bytes once decompressed.
    let r = run_in(
        dir.path(),
        &[
            "normalize",
            "-q",
            "-j",
            "3",
            "--chunk-size",
            "997",
            "-i",
            "in.txt",
            "-o",
            "out.zst",
        ],
        b"",
    );
    assert_eq!(r.code, 1);
    let plain = run_in(
        dir.path(),
        &["normalize", "-q", "-j", "1", "-i", "in.txt"],
        b"",
    );
    let z = std::fs::read(dir.path().join("out.zst")).unwrap();
    assert_eq!(zstd::decode_all(&z[..]).unwrap(), plain.stdout);
}
