//! `irinorm evidence` and `--rung protocol`, end to end through the binary:
//! on generated redirect logs (expected classes from LADDER.md "Rung 3"),
//! on the pywb/warcio samples of `../shared/evidence`, and a child process
//! killed (SIGKILL) mid-file whose store must stay consistent and resume.

mod common;

use std::io::Write;
use std::path::Path;

use common::run_in;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// A redirect log with one redirect of each conventional kind, moves, a
/// temporary redirect, an unknown target and a host where http -> https
/// holds for three paths.
const LOG: &str = "\
http://a.example/data\t301\t/data/\t20200101000000
http://a.example/Docs\t301\thttp://a.example/docs\t20200101000000
http://a.example/d/index.html\t308\thttp://a.example/d/\t20200101000000
http://a.example/p?sid=9&id=2\t301\t/p?id=2\t20200101000000
http://a.example/old\t301\t/new\t20200101000000
http://a.example/tmp\t302\t/tmp/\t20200101000000
http://a.example/gone\t301\t-\t20200101000000
http://h.example/1\t301\thttps://h.example/1\t20200101000000
http://h.example/2\t301\thttps://h.example/2\t20200101000000
http://h.example/3\t301\thttps://h.example/3\t20200101000000
";

fn store(dir: &Path) -> String {
    let log = write(dir, "log.tsv", LOG);
    let r = run_in(dir, &["evidence", "ingest", "--db", "e.db", &log], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("10 records: 10 stored, 0 already present, 0 rejected"),
        "{}",
        r.stderr
    );
    "e.db".to_owned()
}

/// `evidence ingest --db e.db --rejects rej.tsv FILES` in `dir`.
fn ingest_with_rejects(dir: &Path, files: &[&str]) -> common::Run {
    let mut args = vec!["evidence", "ingest", "--db", "e.db", "--rejects", "rej.tsv"];
    args.extend_from_slice(files);
    run_in(dir, &args, b"")
}

#[test]
fn normalize_compare_dedupe_at_rung_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path());
    let p = ["--rung", "protocol", "--evidence", db.as_str(), "-q"];
    let norm = |args: &[&str], url: &str| {
        let mut a = vec!["normalize"];
        a.extend_from_slice(&p);
        a.extend_from_slice(args);
        a.push(url);
        let r = run_in(dir.path(), &a, b"");
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.out().trim_end().to_owned()
    };
    // Conventional permanent redirects are edges (rung 2 first: case, port).
    assert_eq!(
        norm(&[], "HTTP://A.example:80/data#top"),
        "http://a.example/data/#top"
    );
    assert_eq!(norm(&[], "http://a.example/Docs"), "http://a.example/docs");
    assert_eq!(
        norm(&[], "http://a.example/d/index.html"),
        "http://a.example/d/"
    );
    assert_eq!(
        norm(&[], "http://a.example/p?sid=9&id=2"),
        "http://a.example/p?id=2"
    );
    // A move, a temporary redirect, an unknown target: not by default.
    assert_eq!(norm(&[], "http://a.example/old"), "http://a.example/old");
    assert_eq!(norm(&[], "http://a.example/tmp"), "http://a.example/tmp");
    assert_eq!(norm(&[], "http://a.example/gone"), "http://a.example/gone");
    assert_eq!(
        norm(&["--redirects", "permanent"], "http://a.example/old"),
        "http://a.example/new"
    );
    assert_eq!(
        norm(&["--redirects", "permanent"], "http://a.example/tmp"),
        "http://a.example/tmp"
    );
    assert_eq!(
        norm(&["--redirects", "all"], "http://a.example/tmp"),
        "http://a.example/tmp/"
    );
    assert_eq!(
        norm(&["--redirects", "all"], "http://a.example/gone"),
        "http://a.example/gone"
    );
    // Host convention (support 3): unseen URLs of h.example, not others.
    assert_eq!(
        norm(&[], "http://h.example/unseen"),
        "https://h.example/unseen"
    );
    assert_eq!(
        norm(&["--min-host-support", "4"], "http://h.example/unseen"),
        "http://h.example/unseen"
    );
    assert_eq!(
        norm(&[], "http://a.example/unseen"),
        "http://a.example/unseen"
    );
    // Named rules run on the rung-3 result.
    assert_eq!(
        norm(&["--preset", "fetch"], "http://a.example/data#top"),
        "http://a.example/data/"
    );

    // compare: the evidence, never a bare yes.
    let mut a = vec!["compare"];
    a.extend_from_slice(&p);
    a.extend(["http://a.example/data", "http://a.example/data/"]);
    let r = run_in(dir.path(), &a, b"");
    assert_eq!(r.code, 0);
    let out = r.out();
    assert!(out.starts_with("equivalent (protocol)\t"), "{out}");
    assert!(out.contains("301 slash-added, at 20200101000000"), "{out}");
    assert!(out.contains("log.tsv@0]"), "{out}");
    let mut a = vec!["compare"];
    a.extend_from_slice(&p);
    a.extend(["http://a.example/old", "http://a.example/new"]);
    let r = run_in(dir.path(), &a, b"");
    assert_eq!((r.code, r.out()), (1, "different\n".to_owned()));
    // jsonl carries the chains.
    let mut a = vec!["compare", "--format", "jsonl"];
    a.extend_from_slice(&p);
    a.extend(["http://h.example/x", "https://h.example/x"]);
    let r = run_in(dir.path(), &a, b"");
    let j = &r.json()[0];
    assert_eq!(j["rung"], "protocol");
    assert_eq!(j["evidence"]["a"]["hops"][0]["inferred"], true);
    assert_eq!(
        j["evidence"]["a"]["hops"][0]["host_conventions"][0]["support"],
        3
    );

    // dedupe: the three spellings of /data are one.
    let mut a = vec!["dedupe", "--key-only"];
    a.extend_from_slice(&p);
    let r = run_in(
        dir.path(),
        &a,
        b"http://a.example/data\nhttp://a.example/data/\nHTTP://a.example:80/data\nhttp://a.example/old\n",
    );
    assert_eq!(
        r.lines(),
        ["http://a.example/data/", "http://a.example/old"]
    );
}

#[test]
fn explain_and_why_show_every_record() {
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path());
    let r = run_in(
        dir.path(),
        &[
            "explain",
            "--rung",
            "protocol",
            "--evidence",
            &db,
            "-q",
            "http://a.example/data",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    assert!(out.contains("  protocol  http://a.example/data/"), "{out}");
    assert!(out.contains("hop http://a.example/data -> http://a.example/data/  [301 slash-added, at 20200101000000,"), "{out}");
    let r = run_in(
        dir.path(),
        &[
            "explain",
            "--rung",
            "protocol",
            "--evidence",
            &db,
            "-q",
            "http://h.example/new",
        ],
        b"",
    );
    assert!(
        r.out()
            .contains("[inferred host convention: https-upgrade (support 3, contradictions 0)]"),
        "{}",
        r.out()
    );
    let r = run_in(
        dir.path(),
        &["evidence", "why", "--db", &db, "http://a.example/gone"],
        b"",
    );
    assert_eq!(r.code, 0);
    assert!(
        r.out()
            .contains("status 301 -> unknown target (decides nothing)"),
        "{}",
        r.out()
    );
    let r = run_in(dir.path(), &["evidence", "stats", "--db", &db], b"");
    let out = r.out();
    for line in [
        "observations\t10",
        "kind\tredirect\t10",
        "edges under --redirects conventional\t7",
        "edges under --redirects permanent\t8",
        "edges under --redirects all\t9",
        "host convention\thttp://h.example\thttps-upgrade\tsupport 3\tcontradictions 0\tapplies",
    ] {
        assert!(out.lines().any(|l| l == line), "{line:?} not in\n{out}");
    }
}

#[test]
fn protocol_needs_a_store() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_in(
        dir.path(),
        &["normalize", "--rung", "protocol", "http://a/"],
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--rung protocol needs --evidence"),
        "{}",
        r.stderr
    );
    let r = run_in(
        dir.path(),
        &[
            "normalize",
            "--rung",
            "protocol",
            "--evidence",
            "none.db",
            "http://a/",
        ],
        b"",
    );
    assert_eq!(r.code, 2);
}

#[test]
fn an_empty_store_is_rung_2() {
    let dir = tempfile::tempdir().unwrap();
    let log = write(dir.path(), "empty.tsv", "# nothing\n");
    let r = run_in(
        dir.path(),
        &[
            "evidence",
            "ingest",
            "--db",
            "e.db",
            "--format",
            "redirects",
            &log,
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    for u in ["HTTP://A.example:80/%7ex/./y", "mailto:A@B.example"] {
        let r3 = run_in(
            dir.path(),
            &[
                "normalize",
                "-q",
                "--rung",
                "protocol",
                "--evidence",
                "e.db",
                u,
            ],
            b"",
        );
        let r2 = run_in(dir.path(), &["normalize", u], b"");
        assert_eq!(r3.out(), r2.out());
    }
}

#[test]
fn bad_records_and_bad_files_are_reported_and_the_rest_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.tsv", "http://a.example/x\t301\t/x/\n");
    let bad = write(
        dir.path(),
        "bad.tsv",
        "http://a.example/y\t301\t/y/\nnot a url\t301\t/z\nhttp://a.example/q\tabc\t/q/\n",
    );
    let notcrawl = write(dir.path(), "page.html", "<html><body>hello</body></html>\n");
    let r = ingest_with_rejects(dir.path(), &[&notcrawl, &bad, &good]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("page.html: not a crawl file"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("good.tsv: 1 records: 1 stored"),
        "{}",
        r.stderr
    );
    let rej = common::rejects(&dir.path().join("rej.tsv"));
    // file, line, byte offset (line starts 0, 27, 44), kind; a `bad-url`
    // has its line too (round 20: it was `-`).
    assert_eq!(rej.len(), 2);
    assert_eq!(
        (rej[0][1].as_str(), rej[0][2].as_str(), rej[0][3].as_str()),
        ("2", "27", "bad-url")
    );
    assert_eq!((rej[1][1].as_str(), rej[1][2].as_str()), ("3", "44"));
    // --strict stops at the first bad record; what came before stays.
    let r = run_in(
        dir.path(),
        &[
            "evidence", "ingest", "--db", "s.db", "--strict", "-q", &bad, &good,
        ],
        b"",
    );
    assert_eq!(r.code, 1);
    let s = irinorm_evidence::Store::open(&dir.path().join("s.db")).unwrap();
    assert_eq!(s.count().unwrap(), 1);
}

/// Round 17 (docs/testing.md): a line of white space that is not ASCII (a
/// vertical tab, a no-break space) in a line file was taken for blank and
/// vanished: not stored, not rejected, exit status 0 (the contract: bad
/// input never vanishes, `N = S + P + R`). It is a rejected record now,
/// for `evidence ingest` and for `learn`.
#[test]
fn a_line_of_other_white_space_is_rejected_not_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.tsv");
    std::fs::write(
        &log,
        b"http://a.example/x\t301\t/x/\n\x0b\n\xc2\xa0\n \t\r\n",
    )
    .unwrap();
    let log = log.display().to_string();
    let r = ingest_with_rejects(dir.path(), &[&log]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("log.tsv: 3 records: 1 stored, 0 already present, 2 rejected"),
        "{}",
        r.stderr
    );
    let rej = common::rejects(&dir.path().join("rej.tsv"));
    let lines: Vec<&str> = rej.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(lines, ["2", "3"]);
    let r = run_in(dir.path(), &["learn", "-i", &log, "-o", "rules.toml"], b"");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("2 rejected"), "{}", r.stderr);
}

#[test]
fn pywb_and_warcio_samples() {
    let Some(ev) = irinorm_testdata::evidence_dir("cli pywb_and_warcio_samples") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ev.join("pywb/warcs_iana.warc.gz"),
        ev.join("pywb/cdx_iana.cdx"),
        ev.join("warcio/example-wrong-chunks.warc.gz"),
        ev.join("warcio/example.warc.gz"),
    ];
    let mut args = vec!["evidence", "ingest", "--db", "e.db"];
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    args.extend(names.iter().map(String::as_str));
    let r = run_in(dir.path(), &args, b"");
    // The file that is not WARC is reported; the others are stored.
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("example-wrong-chunks.warc.gz: byte 0: fatal"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("cdx_iana.cdx: 171 records: 171 stored"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("example.warc.gz: 2 records: 2 stored"),
        "{}",
        r.stderr
    );
    // Again: nothing new.
    let r = run_in(dir.path(), &args, b"");
    assert!(
        r.stderr
            .contains("cdx_iana.cdx: already ingested completely, skipped"),
        "{}",
        r.stderr
    );
    let s = irinorm_evidence::Store::open(&dir.path().join("e.db")).unwrap();
    let n = s.count().unwrap();
    // evidence/README.md: cdx_iana.cdx has 44 + 4 + 123 lines, the WARC
    // 48 responses and 123 revisits; warcio/example.warc.gz 2 captures.
    assert_eq!(n, 171 + 171 + 2);
    // The 302s of iana.org (temporary) are edges only under `all`.
    let r = run_in(dir.path(), &["evidence", "stats", "--db", "e.db"], b"");
    let out = r.out();
    assert!(
        out.contains("edges under --redirects conventional\t0"),
        "{out}"
    );
}

/// Kills an ingesting child process (SIGKILL) while it waits for more
/// input from a FIFO, after some batches were committed: the store must be
/// consistent, hold exactly the committed batches, and a later run must
/// resume and complete it.
#[cfg(unix)]
#[test]
fn killed_ingest_leaves_a_consistent_store_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("crawl.tsv");
    let st = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(st.success());
    const TOTAL: usize = 200_000;
    const FIRST: usize = 120_000;
    const BATCH: usize = 10_000;
    let line = |i: usize| {
        format!(
            "http://s{}.example/p/{i}\t301\thttp://s{}.example/p/{i}/\t2020010100{:04}\n",
            i % 97,
            i % 97,
            i % 10_000
        )
    };
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_irinorm"))
        .current_dir(dir.path())
        .stderr(std::process::Stdio::null())
        .args([
            "evidence",
            "ingest",
            "--db",
            "e.db",
            "--batch",
            &BATCH.to_string(),
            "--format",
            "redirects",
        ])
        .arg(&fifo)
        .spawn()
        .unwrap();
    // Writes the first part and keeps the FIFO open: the child blocks
    // reading, so it cannot finish before it is killed.
    let mut w = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    let mut text = String::new();
    for i in 0..FIRST {
        text.push_str(&line(i));
    }
    w.write_all(text.as_bytes()).unwrap();
    w.flush().unwrap();
    // Wait (by polling the store, not by a duration) until at least 11
    // batches (110 000 of the 120 000 lines written) are committed.
    let db = dir.path().join("e.db");
    loop {
        std::thread::sleep(std::time::Duration::from_millis(50));
        // The child cannot end (its input is still open): if it did, it failed.
        if let Some(st) = child.try_wait().unwrap() {
            panic!("the ingest ended before it was killed: {st}");
        }
        if !db.exists() {
            continue;
        }
        let Ok(s) = irinorm_evidence::Store::open(&db) else {
            continue;
        };
        if s.count().unwrap_or(0) >= 11 * BATCH as u64 {
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    drop(w);
    let s = irinorm_evidence::Store::open(&db).unwrap();
    let ok: String = s
        .conn_for_tests()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    let n = s.count().unwrap();
    assert_eq!(n % BATCH as u64, 0, "whole batches only: {n}");
    let src = s.sources().unwrap();
    assert_eq!(src.len(), 1);
    let (_, committed, complete) = &src[0];
    assert!(!complete);
    // The committed offset is the start of the last stored line.
    let expect: u64 = (0..n as usize - 1).map(|i| line(i).len() as u64).sum();
    assert_eq!(*committed, Some(expect));
    drop(s);
    // The whole file appears at the same path; the next run resumes.
    std::fs::remove_file(&fifo).unwrap();
    let mut all = text;
    for i in FIRST..TOTAL {
        all.push_str(&line(i));
    }
    std::fs::write(&fifo, &all).unwrap();
    let r = run_in(
        dir.path(),
        &["evidence", "ingest", "--db", "e.db", "crawl.tsv"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!("resumed after byte {expect}")),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(&format!(
            "{TOTAL} records: {} stored, {n} already present, 0 rejected",
            TOTAL as u64 - n
        )),
        "{}",
        r.stderr
    );
    let s = irinorm_evidence::Store::open(&db).unwrap();
    assert_eq!(s.count().unwrap(), TOTAL as u64);
}

/// Keys are `uri` forms; `--form iri` shows the end of the chain in `iri`
/// form (RFC 3987 §3.2; `xn--rsum-bpad` is `résumé`, `%C3%A9` is `é`).
#[test]
fn iri_form_at_rung_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let log = write(
        dir.path(),
        "iri.tsv",
        "http://xn--rsum-bpad.example/caf%C3%A9\t301\t/caf%C3%A9/\n",
    );
    let r = run_in(
        dir.path(),
        &["evidence", "ingest", "-q", "--db", "e.db", &log],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let args = [
        "normalize",
        "-q",
        "--rung",
        "protocol",
        "--evidence",
        "e.db",
    ];
    let mut a = args.to_vec();
    a.extend(["--form", "iri", "http://résumé.example/café#x"]);
    assert_eq!(
        run_in(dir.path(), &a, b"").out(),
        "http://résumé.example/café/#x\n"
    );
    let mut a = args.to_vec();
    a.push("http://résumé.example/café");
    assert_eq!(
        run_in(dir.path(), &a, b"").out(),
        "http://xn--rsum-bpad.example/caf%C3%A9/\n"
    );
}

/// The simulated crawl of `irinorm-frontier` (docs/frontier.md, "Simulated
/// crawls") written as a WARC, ingested, and every URL normalized at rung 3
/// under each `--redirects` policy: a URL whose truth is `protocol` merges
/// with its page's canonical URL by default, `permanent` and `all` ones only
/// under those policies, the others (`learn`, `distinct`) never by rung 3,
/// and by default no two different pages share a rung-3 form (no false
/// merge).
#[test]
fn simulated_crawl_ground_truth() {
    use irinorm_frontier::{simulate, write_crawl, CrawlOptions, Rung3};
    use std::collections::HashMap;

    let dir = tempfile::tempdir().unwrap();
    let caps = simulate(&CrawlOptions::default());
    let files = write_crawl(&caps, dir.path(), "c").unwrap();
    let warc = files.warc.display().to_string();
    let r = run_in(
        dir.path(),
        &["evidence", "ingest", "-q", "--db", "e.db", &warc],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Every URL and every canonical URL, one a line.
    let mut input = String::new();
    for c in &caps {
        input.push_str(&c.url);
        input.push('\n');
        input.push_str(&c.canonical);
        input.push('\n');
    }
    let mut merged = HashMap::new();
    for policy in ["conventional", "permanent", "all"] {
        let r = run_in(
            dir.path(),
            &[
                "normalize",
                "-q",
                "--rung",
                "protocol",
                "--evidence",
                "e.db",
                "--redirects",
                policy,
            ],
            input.as_bytes(),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let out = r.lines();
        assert_eq!(out.len(), 2 * caps.len());
        let mut page_of: HashMap<&str, &str> = HashMap::new();
        let mut n = 0;
        for (i, c) in caps.iter().enumerate() {
            let (u, canon) = (&out[2 * i], &out[2 * i + 1]);
            let expect = match c.rung3 {
                Rung3::Canonical | Rung3::Protocol => true,
                Rung3::Permanent => policy != "conventional",
                Rung3::All => policy == "all",
                Rung3::Learn | Rung3::Distinct => false,
            };
            // A distinct page (a trap) is its own canonical URL.
            if c.rung3 != Rung3::Canonical && c.url != c.canonical {
                assert_eq!(
                    u == canon,
                    expect,
                    "{policy}: {} ({}, {}) -> {u}, canonical {canon}",
                    c.url,
                    c.rung3.name(),
                    c.mechanism
                );
                n += usize::from(u == canon);
            }
            // No false merge by default. (`permanent` and `all` follow
            // moves to a home page too, as they are asked to: the crawl's
            // discontinued pages 301 to the home page.)
            if policy == "conventional" {
                for form in [u, canon] {
                    let p = page_of.entry(form.as_str()).or_insert(c.page.as_str());
                    assert_eq!(*p, c.page.as_str(), "{policy}: false merge at {form}");
                }
            }
        }
        merged.insert(policy, n);
    }
    // Each wider policy merges more, and the default merges something.
    assert!(merged["conventional"] > 0);
    assert!(merged["conventional"] < merged["permanent"]);
    assert!(merged["permanent"] < merged["all"]);
}

/// Round 11 (docs/testing.md): LADDER.md invariant 1 at rung 3 with named
/// rules and with `--nfc`. The rules run first, then rung 3 and the rules
/// again until neither changes anything; with `--nfc` a chain ends at a key
/// of the caller's rung 2 (NFC composes `e` + U+0301 to U+00E9).
#[test]
fn rung_protocol_is_idempotent_with_rules_and_nfc() {
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path());
    let p = ["--rung", "protocol", "--evidence", db.as_str(), "-q"];
    let run = |cmd: &str, args: &[&str], stdin: &[u8]| {
        let mut a = vec![cmd];
        a.extend_from_slice(&p);
        a.extend_from_slice(args);
        let r = run_in(dir.path(), &a, stdin);
        assert!(r.code <= 1, "{}", r.stderr);
        r.lines()
    };
    // The rules' result has a record of its own (`/data` 301 -> `/data/`).
    let once = run(
        "normalize",
        &["--preset", "crawler"],
        b"http://a.example/data?utm_source=1\n",
    );
    assert_eq!(once, ["http://a.example/data/"]);
    let twice = run(
        "normalize",
        &["--preset", "crawler"],
        format!("{}\n", once[0]).as_bytes(),
    );
    assert_eq!(twice, once);
    // Equal under `crawler` at rung 2, so one key at rung 3.
    let keys = run(
        "dedupe",
        &["--key-only", "--preset", "crawler"],
        b"http://a.example/data?utm_source=1\nhttp://a.example/data\n",
    );
    assert_eq!(keys, ["http://a.example/data/"]);

    let log = write(
        dir.path(),
        "nfd.tsv",
        "http://n.example/x\t301\thttp://n.example/e\u{301}\t20200101000000\n",
    );
    let r = run_in(
        dir.path(),
        &["evidence", "ingest", "--db", "e.db", &log],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let nfc = ["--nfc", "--redirects", "permanent"];
    let once = run("normalize", &nfc, b"http://n.example/x\n");
    assert_eq!(once, ["http://n.example/%C3%A9"]);
    let twice = run("normalize", &nfc, format!("{}\n", once[0]).as_bytes());
    assert_eq!(twice, once);
}

/// Round 20: a record the store rejects after reading it (`bad-url`: its
/// URL is not an IRI-reference) is reported with its line in a line
/// format, as the reader's own rejects are (docs/evidence.md, "Rejects":
/// file, line, offset, kind); its line was `-` before. And `learn` reports
/// the same rows with file, line, byte offset and kind, and exits 1.
#[test]
fn a_bad_url_is_rejected_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let digests = dir.path().join("digests.tsv");
    std::fs::write(
        &digests,
        "http://a.example/x\tsha1:AAAA\n\nhttp://a.example/%zz\tsha1:AAAA\nhttp://a.example/\x00\tsha1:B\n",
    )
    .unwrap();
    let digests = digests.display().to_string();
    let r = ingest_with_rejects(dir.path(), &[&digests]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let rej = common::rejects(&dir.path().join("rej.tsv"));
    let got: Vec<(&str, &str, &str)> = rej
        .iter()
        .map(|r| (r[1].as_str(), r[2].as_str(), r[3].as_str()))
        .collect();
    assert_eq!(got, [("3", "30", "bad-url"), ("4", "61", "bad-url")]);
    let r = run_in(dir.path(), &["learn", "-i", &digests, "-o", "r.toml"], b"");
    assert_eq!(r.code, 1, "{}", r.stderr);
    for want in [
        "digests.tsv:3: byte 30: rejected: bad-percent-encoding",
        "digests.tsv:4: byte 61: rejected: invalid-char",
        "2 rejected, 0 not learnable",
    ] {
        assert!(r.stderr.contains(want), "{want}: {}", r.stderr);
    }
}

/// Round 20: with named rules, `compare --rung protocol` names the rung the
/// rules ran on and the rules when only they make a pair equal, as
/// `compare` without evidence does (docs/cli.md, "compare": never a lower
/// rung). Before it said `equivalent (string)` for a pair that
/// `--rung scheme` called `equivalent (scheme + rules: remove-fragment)`.
#[test]
fn compare_at_rung_protocol_names_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path());
    let pairs =
        b"http://a.example/x#f\thttp://a.example/x\nhttp://a.example/%7e\thttp://a.example/~\n";
    let scheme = run_in(dir.path(), &["compare", "--preset", "crawler", "-q"], pairs);
    let protocol = run_in(
        dir.path(),
        &[
            "compare",
            "--preset",
            "crawler",
            "--rung",
            "protocol",
            "--evidence",
            &db,
            "-q",
        ],
        pairs,
    );
    assert_eq!(protocol.code, 0, "{}", protocol.stderr);
    let want = "equivalent (scheme + rules: remove-fragment)\nequivalent (syntax)\n";
    assert_eq!(scheme.out(), want);
    assert_eq!(protocol.out(), want);
}
