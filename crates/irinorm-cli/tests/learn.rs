//! `irinorm learn` end to end (issue 11): a simulated crawl written as WARC,
//! CDX and CDXJ,
//! rules learned from it, the rules used by normalize, compare and
//! explain through --config, rejected lines reported and counted, and the
//! real crawl indexes of ../shared/evidence read without a reject.

mod common;

use common::run_in;

#[test]
fn learn_then_normalize_with_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = run_in(
        d,
        &[
            "learn",
            "--simulate",
            "5",
            "--sites",
            "12",
            "--pages",
            "30",
            "-o",
            "e1",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run_in(d, &["learn", "-i", "e1.cdx", "-o", "rules.toml"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("0 rejected"), "{}", r.stderr);
    let text = std::fs::read_to_string(d.join("rules.toml")).unwrap();
    assert!(text.contains("[[host-rule]]"), "{text}");
    // Every example pair of every rule is one key with the rules, and the
    // pairs of at least some rules are two keys without them.
    let mut pairs = Vec::new();
    for l in text.lines().filter(|l| l.starts_with("examples = ")) {
        let v: toml::Value = toml::from_str(l).unwrap();
        for p in v["examples"].as_array().unwrap() {
            let p = p.as_array().unwrap();
            pairs.push((
                p[0].as_str().unwrap().to_owned(),
                p[1].as_str().unwrap().to_owned(),
            ));
        }
    }
    assert!(pairs.len() >= 10);
    let mut differ_without = 0;
    for (a, b) in &pairs {
        let with = run_in(
            d,
            &[
                "compare",
                "--preset",
                "crawler",
                "--config",
                "rules.toml",
                a,
                b,
            ],
            b"",
        );
        assert_eq!(with.code, 0, "{}", with.stderr);
        assert!(with.out().contains("equivalent"), "{a} {b}: {}", with.out());
        let without = run_in(d, &["compare", "--preset", "crawler", a, b], b"");
        differ_without += usize::from(!without.out().starts_with("equivalent"));
    }
    assert!(
        differ_without * 2 >= pairs.len(),
        "{differ_without} of {}",
        pairs.len()
    );
    // explain shows the learned rules.
    let (a, _) = &pairs[0];
    let e = run_in(
        d,
        &[
            "explain",
            "--preset",
            "crawler",
            "--config",
            "rules.toml",
            a,
        ],
        b"",
    );
    assert!(e.out().contains("learned"), "{}", e.out());
}

#[test]
fn evaluate_on_a_later_crawl_from_each_format() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (epoch, prefix) in [("0", "e0"), ("1", "e1")] {
        let r = run_in(
            d,
            &[
                "learn",
                "--simulate",
                "4",
                "--sites",
                "12",
                "--pages",
                "30",
                "--epoch",
                epoch,
                "-o",
                prefix,
            ],
            b"",
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let mut tables = Vec::new();
    for input in ["e0.warc.gz", "e0.cdx", "e0.cdxj"] {
        let r = run_in(
            d,
            &[
                "learn",
                "--evaluate",
                "-i",
                input,
                "--test",
                "e1.cdxj",
                "--truth",
                "e1.truth.tsv",
            ],
            b"",
        );
        assert_eq!(r.code, 0, "{input}: {}", r.stderr);
        let out = r.out();
        let mine = out
            .lines()
            .find(|l| l.starts_with("crawler+learned"))
            .unwrap_or_else(|| panic!("{out}"))
            .to_owned();
        // normalization urls keys precision recall beyond ...
        let f: Vec<&str> = mine.split_whitespace().collect();
        let precision: f64 = f[3].parse().unwrap();
        let beyond: f64 = f[5].parse().unwrap();
        assert!(precision >= 0.95 && beyond >= 0.68, "{input}: {mine}");
        tables.push(mine);
    }
    assert_eq!(tables[0], tables[1]);
    assert_eq!(tables[1], tables[2]);
}

#[test]
fn rejected_lines_are_reported_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("in.txt"),
        "http://a.example/x\nnot a url line\n\nhttp://a.example/x/\n",
    )
    .unwrap();
    let r = run_in(d, &["learn", "-i", "in.txt"], b"");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("in.txt:2: byte 19: rejected: unknown-line-format"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("4 lines = 2 rows + 1 headers/comments + 1 rejected"),
        "{}",
        r.stderr
    );
}

#[test]
fn shared_evidence_indexes() {
    let Some(dir) = irinorm_testdata::evidence_dir("shared_evidence_indexes") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for f in ["pywb/cdx_iana.cdx", "pywb/cdxj_iana.cdxj"] {
        let p = dir.join(f);
        let r = run_in(tmp.path(), &["learn", "-i", p.to_str().unwrap()], b"");
        assert_eq!(r.code, 0, "{f}: {}", r.stderr);
        assert!(r.stderr.contains(" 0 rejected"), "{f}: {}", r.stderr);
    }
    // pywb's zipnum sample is 38 gzip members (ZipNum blocks) whose last
    // lines lack their newline: each member ends a line, as pywb reads it,
    // so all 188 records are read (114 + 2 x 37 lines that a plain
    // `zcat` would join) and none is rejected.
    let p = dir.join("pywb/zipcdx_zipnum-sample.cdx.gz");
    let r = run_in(tmp.path(), &["learn", "-i", p.to_str().unwrap()], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("188 records = 188 rows + 0 skipped + 0 rejected"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_evidence_store_gives_the_rules_of_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = run_in(
        d,
        &[
            "learn",
            "--simulate",
            "9",
            "--sites",
            "10",
            "--pages",
            "30",
            "-o",
            "e1",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run_in(
        d,
        &["evidence", "ingest", "-q", "--db", "crawl.db", "e1.cdx"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let from_db = run_in(d, &["learn", "--evidence", "crawl.db"], b"");
    let from_file = run_in(d, &["learn", "-i", "e1.cdx"], b"");
    assert_eq!(from_db.code, 0, "{}", from_db.stderr);
    let body = |s: String| -> String {
        s.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let rules = body(from_db.out());
    assert!(rules.contains("[[host-rule]]"));
    assert_eq!(rules, body(from_file.out()));
    let r = run_in(d, &["learn", "--evidence", "nope.db"], b"");
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// Round 20: a URL list's blank lines are ASCII white space only (as the
/// crawl-file readers', round 17): a line of a vertical tab or a no-break
/// space was taken for a header and vanished, and a URL's trailing
/// no-break space was trimmed into another URL. Rows whose URL does not
/// parse are reported with file, line, byte offset and kind (they were
/// only counted), and make the exit status 1.
#[test]
fn damaged_list_lines_are_reported_not_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("in.tsv"),
        "http://a.example/x\tsha1:A\n\x0b\n\u{a0}\nhttp://a.example/%zz\tsha1:A\n\n",
    )
    .unwrap();
    let r = run_in(d, &["learn", "-i", "in.tsv", "-o", "r.toml"], b"");
    assert_eq!(r.code, 1, "{}", r.stderr);
    for want in [
        "in.tsv: 5 lines = 4 rows + 1 headers/comments + 0 rejected",
        "in.tsv:2: byte 26: rejected: invalid-char",
        "in.tsv:4: byte 31: rejected: bad-percent-encoding",
        // The no-break space alone is a relative reference (RFC 3987
        // `ucschar`): it parses, and has no host to learn on.
        "2 rejected, 1 not learnable",
    ] {
        assert!(r.stderr.contains(want), "{want}: {}", r.stderr);
    }
}
