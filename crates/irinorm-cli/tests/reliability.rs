//! Reliability under attack (issue 16), through the binary: memory bounded
//! by `--max-len` whatever the input, numeric options range-checked, no
//! silent failures, no ambiguous records, outputs that never look complete
//! when they are not. The attack inputs are made here, at test time.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{run, run_in};

#[test]
fn max_len_applies_to_lines_records_json_and_arguments() {
    // The limit counts bytes without the line end: 20 bytes pass, 21 do not.
    let ok = "http://example.com/a"; // 20 bytes
    let long = "http://example.com/ab";
    let input = format!("{ok}\r\n{long}\n{ok}\n");
    let r = run(&["normalize", "--max-len", "20"], input.as_bytes());
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.lines(), [ok, ok]);
    assert!(
        r.stderr.contains("line 2, byte 20: too-long"),
        "{}",
        r.stderr
    );
    let r = run(
        &["check", "--max-len", "20", "--format", "jsonl"],
        input.as_bytes(),
    );
    let v = r.json();
    assert_eq!(v.len(), 3);
    assert_eq!(v[1]["input"], serde_json::Value::Null);
    assert_eq!(v[1]["error"]["kind"], "too-long");
    let json = format!("{{\"u\":\"{ok}\"}}\n{{\"u\":\"{long}\"}}\n");
    let r = run(
        &["check", "--field", "u", "--max-len", "28"],
        json.as_bytes(),
    );
    assert_eq!(r.summary().rejected, 1, "{}", r.stderr);
    let csv = format!("u\n{ok}\n\"{long}\"\n");
    let r = run(
        &["check", "--column", "u", "--max-len", "20"],
        csv.as_bytes(),
    );
    assert_eq!(
        (r.summary().read, r.summary().rejected),
        (2, 1),
        "{}",
        r.stderr
    );
    let r = run(&["parse", "--max-len", "20", ok, long], b"");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("argument 2, byte 20: too-long"),
        "{}",
        r.stderr
    );
}

#[test]
fn numeric_options_are_range_checked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.txt"), "http://example.com/\n").unwrap();
    for (opt, v) in [
        ("--chunk-size", "9223372036854775808"),
        ("--chunk-size", "1099511627776"),
        ("--chunk-size", "1073741824"),
        ("--chunk-size", "0"),
        ("--max-len", "0"),
        ("--max-len", "18446744073709551616"),
        ("--threads", "100000"),
        ("--show-rejects", "x"),
    ] {
        let r = run_in(dir.path(), &["normalize", "-i", "in.txt", opt, v], b"");
        assert_eq!(r.code, 2, "{opt} {v}: {}", r.stderr);
        assert!(r.stdout.is_empty());
        assert!(r.stderr.contains(opt), "{opt} {v}: {}", r.stderr);
    }
    // The largest chunk size is allocated as the input fills it: a 20-byte
    // file does not take 256 MiB.
    let r = run_in(
        dir.path(),
        &[
            "normalize",
            "-i",
            "in.txt",
            "--chunk-size",
            "268435456",
            "-j",
            "4",
        ],
        b"",
    );
    assert_eq!(
        (r.code, r.out().as_str()),
        (0, "http://example.com/\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn explain_output_is_bounded_in_proportion_to_the_input() {
    // 20,000 triplets: 20,000 changes at rung syntax. Each step lists at most
    // 32 of them, then their count; jsonl gives the count as changes_total.
    let input = format!("http://a/{}\n", "%41".repeat(20_000));
    let r = run(&["explain"], input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let listed = out
        .lines()
        .filter(|l| l.contains("decode-unreserved"))
        .count();
    assert_eq!(listed, 32, "{}", &out[..out.len().min(2000)]);
    assert!(out.contains("... and 19968 more changes (the first 32 are listed)"));
    // The six outputs (each at most the input's length) and a bounded rest.
    assert!(
        out.len() < 7 * input.len() + 64 * 100,
        "{} bytes",
        out.len()
    );
    let r = run(&["explain", "--format", "jsonl"], input.as_bytes());
    let v = &r.json()[0];
    let syntax_uri = &v["steps"][2];
    assert_eq!(syntax_uri["changes"].as_array().unwrap().len(), 32);
    assert_eq!(syntax_uri["changes_total"], 20_000);
    assert!(
        r.stdout.len() < 7 * input.len() + 64 * 300,
        "{} bytes",
        r.stdout.len()
    );
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_panic_in_any_thread_fails_the_run_and_leaves_no_output() {
    // The hook exists in debug builds only (the binary under test is one).
    let dir = tempfile::tempdir().unwrap();
    let input: String = (0..20_000)
        .map(|i| format!("http://a.example/{i}\n"))
        .collect();
    std::fs::write(dir.path().join("in.txt"), &input).unwrap();
    std::fs::write(dir.path().join("out.txt"), "old\n").unwrap();
    for stage in ["reader", "worker", "writer"] {
        let o = common::irinorm(dir.path())
            .env("IRINORM_TEST_PANIC_IN", stage)
            .args([
                "normalize",
                "-j",
                "2",
                "--chunk-size",
                "1000",
                "-i",
                "in.txt",
            ])
            .args(["-o", "out.txt", "--rejects", "rej.txt"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{stage}: {err}");
        assert!(
            err.contains(&format!(
                "irinorm: error: internal error: the {stage} thread panicked"
            )),
            "{stage}: {err}"
        );
        assert_eq!(names(dir.path()), ["in.txt", "out.txt"], "{stage}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("out.txt")).unwrap(),
            "old\n"
        );
    }
    // Without the variable, the same run succeeds.
    let r = run_in(
        dir.path(),
        &[
            "normalize",
            "-j",
            "2",
            "--chunk-size",
            "1000",
            "-i",
            "in.txt",
            "-o",
            "out.txt",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.txt")).unwrap(),
        input
    );
}

#[cfg(unix)]
#[test]
fn an_output_that_is_an_input_or_another_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("same.txt"), "http://a.example/\n").unwrap();
    std::os::unix::fs::symlink("same.txt", d.join("link.txt")).unwrap();
    std::fs::hard_link(d.join("same.txt"), d.join("hard.txt")).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    for args in [
        &["normalize", "-i", "same.txt", "-o", "same.txt"][..],
        &["normalize", "-i", "same.txt", "-o", "link.txt"],
        &["normalize", "-i", "same.txt", "-o", "hard.txt"],
        &["normalize", "-i", "same.txt", "-o", "sub/../same.txt"],
        &["check", "-i", "same.txt", "--rejects", "./hard.txt"],
        &[
            "normalize",
            "-i",
            "same.txt",
            "-o",
            "new.txt",
            "--rejects",
            "sub/../new.txt",
        ],
        &[
            "normalize",
            "-i",
            "same.txt",
            "-o",
            "x.txt",
            "--rejects",
            "x.txt",
        ],
    ] {
        let r = run_in(d, args, b"");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("irinorm: error: "),
            "{args:?}: {}",
            r.stderr
        );
        assert_eq!(
            std::fs::read_to_string(d.join("same.txt")).unwrap(),
            "http://a.example/\n",
            "{args:?}"
        );
        assert_eq!(
            names(d),
            ["hard.txt", "link.txt", "same.txt", "sub"],
            "{args:?}"
        );
    }
    // Stdin redirected from the output file, and stdout appended to the
    // input file.
    let same = || std::fs::File::open(d.join("same.txt")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_irinorm"))
        .current_dir(d)
        .args(["normalize", "-o", "same.txt"])
        .stdin(same())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let append = std::fs::OpenOptions::new()
        .append(true)
        .open(d.join("same.txt"))
        .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_irinorm"))
        .current_dir(d)
        .args(["normalize", "-i", "same.txt"])
        .stdout(append)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(d.join("same.txt")).unwrap(),
        "http://a.example/\n"
    );
}

#[test]
fn corrupt_truncated_or_trailing_junk_compressed_input_fails_and_leaves_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text: String = (0..50_000)
        .map(|i| format!("http://a.example/{i}\n"))
        .collect();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let zst = zstd::encode_all(text.as_bytes(), 3).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated.gz", gz[..gz.len() / 2].to_vec()),
        ("no-trailer.gz", gz[..gz.len() - 4].to_vec()),
        ("junk.gz", [&gz[..], b"junk after the member\n"].concat()),
        ("nul.gz", [&gz[..], &[0u8; 16][..]].concat()),
        ("truncated.zst", zst[..zst.len() / 2].to_vec()),
        ("junk.zst", [&zst[..], b"junk"].concat()),
    ];
    for (name, bytes) in cases {
        std::fs::write(d.join(name), bytes).unwrap();
        for out in ["out.txt", "out.txt.gz"] {
            let r = run_in(d, &["normalize", "-i", name, "-o", out], b"");
            assert_eq!(r.code, 2, "{name}: {}", r.stderr);
            assert!(
                r.stderr.contains("truncated, corrupt, or followed by"),
                "{name}: {}",
                r.stderr
            );
            assert!(!d.join(out).exists(), "{name}: no {out}");
        }
        std::fs::remove_file(d.join(name)).unwrap();
    }
    assert!(
        names(d).is_empty(),
        "no temporary file left: {:?}",
        names(d)
    );
}

#[cfg(unix)]
#[test]
fn sigterm_or_sigint_mid_run_removes_the_temporary_output() {
    use std::os::unix::process::ExitStatusExt;
    for sig in [
        nix::sys::signal::Signal::SIGTERM,
        nix::sys::signal::Signal::SIGINT,
    ] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("out.txt.gz"), "old").unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_irinorm"))
            .current_dir(d)
            .args(["normalize", "-o", "out.txt.gz", "--rejects", "rej.txt"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // Stdin stays open: the run is in the middle of its input, by
        // construction rather than by timing.
        stdin
            .write_all(b"http://a.example/\nhttp://b example/\n")
            .unwrap();
        stdin.flush().unwrap();
        // Both temporary files exist once the run has started.
        let temps = || names(d).into_iter().filter(|n| n.ends_with(".tmp")).count();
        while temps() < 2 {
            if let Some(st) = child.try_wait().unwrap() {
                panic!("the run ended before its outputs were created: {st:?}");
            }
            std::thread::yield_now();
        }
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), sig).unwrap();
        let status = child.wait().unwrap();
        drop(stdin);
        assert_eq!(status.signal(), Some(sig as i32), "{status:?}");
        assert_eq!(names(d), ["out.txt.gz"], "{sig}: temporary files removed");
        assert_eq!(
            std::fs::read_to_string(d.join("out.txt.gz")).unwrap(),
            "old"
        );
    }
}

#[test]
fn records_that_readers_disagree_on_are_rejected() {
    // Python's json keeps the last "u", a first-match reader the first: the
    // record is rejected, whichever value is the bad one.
    let input = concat!(
        "{\"u\":\"http://ok/\",\"u\":\"http://bad host/\"}\n",
        "{\"u\":\"http://bad host/\",\"u\":\"http://ok/\"}\n",
        "{\"u\":\"http://ok/\",\"\\u0075\":\"http://x/\"}\n",
        "{\"u\":\"http://ok/\",\"v\":{\"u\":1,\"u\":2}}\n",
    );
    let r = run(&["check", "--field", "u"], input.as_bytes());
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.lines(),
        ["{\"u\":\"http://ok/\",\"v\":{\"u\":1,\"u\":2}}"]
    );
    assert_eq!((r.summary().read, r.summary().rejected), (4, 3));
    assert!(
        r.stderr.contains("line 1, byte 22: duplicate-key"),
        "{}",
        r.stderr
    );
    // csv.DictReader reads the second `url` column: the header is refused
    // before any record is read.
    let csv = "url,url\nhttp://ok/,http://bad host/\n";
    for args in [
        &["check", "--column", "url"][..],
        &["normalize", "--csv", "--column", "url"],
        &["normalize", "--column", "1", "--header", "--into", "url"],
    ] {
        let r = run(args, csv.as_bytes());
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(
            r.stderr
                .contains("column \"url\" appears 2 times in the header (columns 1, 2)"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

#[cfg(unix)]
#[test]
fn the_rejects_file_escapes_every_field() {
    // File names with a line feed and a tab, an original with a CR and one
    // with a literal backslash-r, a non-UTF-8 byte: each reject stays one
    // line of five fields, and what differed still differs.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a\nb.txt"), b"http://a b/\r\n").unwrap();
    std::fs::write(
        d.join("c\td.txt"),
        b"http://c d/\\r\nhttp://e f/\rx\nhttp://\xff/\n",
    )
    .unwrap();
    let r = run_in(
        d,
        &[
            "check",
            "-i",
            "a\nb.txt",
            "-i",
            "c\td.txt",
            "--rejects",
            "rej.tsv",
        ],
        b"",
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let text = String::from_utf8(std::fs::read(d.join("rej.tsv")).unwrap()).expect("UTF-8");
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 4, "{text}");
    assert!(rows.iter().all(|f| f.len() == 5), "{text}");
    assert_eq!(rows[0][0], "a\\nb.txt:1");
    assert_eq!(rows[0][4], "http://a b/", "the line's own CRLF is its end");
    assert_eq!(rows[1][0], "c\\td.txt:1");
    assert_eq!(rows[1][4], "http://c d/\\\\r", "a literal backslash-r");
    assert_eq!(rows[2][4], "http://e f/\\rx", "an inner CR");
    assert_eq!((rows[3][2], rows[3][4]), ("invalid-utf8", "http://\\xFF/"));
    // On stderr too, a file name cannot split a report.
    let r = run_in(d, &["check", "-i", "a\nb.txt", "-i", "c\td.txt"], b"");
    assert!(
        r.stderr.contains("irinorm: a\\nb.txt:1, byte"),
        "{}",
        r.stderr
    );
}
