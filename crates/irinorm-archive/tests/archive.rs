//! The readers against reality: the WARC/ARC files of `../shared/evidence`
//! and the CDX/CDXJ indexes pywb wrote for them must describe the same
//! captures (URL, time, status, digest, redirect, and the record offset
//! the index gives), and the counts of `evidence/README.md` (made with
//! warcio 1.8) hold. The warcio edge cases give the errors they should.

use std::collections::BTreeSet;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use irinorm_archive::{
    from_reader, open, Counts, ErrorKind, Format, Observation, ObservationKind, RecordError,
};

const TEST: &str = "irinorm-archive/tests/archive";

fn dir() -> Option<PathBuf> {
    irinorm_testdata::evidence_dir(TEST)
}

fn read_all(p: &Path) -> (Vec<Observation>, Vec<RecordError>, Counts) {
    let mut recs = open(p, None).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let (mut obs, mut errs) = (Vec::new(), Vec::new());
    for r in recs.by_ref() {
        match r {
            Ok(o) => obs.push(o),
            Err(e) => errs.push(e),
        }
    }
    (obs, errs, recs.counts())
}

/// What an index line and a WARC record must agree on. A revisit's status
/// is left out: CDX writes `-` for it, the WARC revisit has the status of
/// the head it repeats.
type Key = (
    ObservationKind,
    String,
    Option<String>,
    Option<u16>,
    Option<String>,
    Option<String>,
    u64,
);

fn key(o: &Observation, record_offset: u64, with: (bool, bool, bool)) -> Key {
    let (with_status, with_digest, with_location) = with;
    (
        o.kind,
        o.url.clone(),
        o.time.clone(),
        if o.kind == ObservationKind::Revisit || !with_status {
            None
        } else {
            o.status
        },
        if with_digest { o.digest.clone() } else { None },
        if with_location {
            o.location.clone()
        } else {
            None
        },
        record_offset,
    )
}

/// The index lines (header kept) that point into `warc_name`, with the
/// record offset each gives (CDX `V`, CDXJ `offset`).
fn index_lines_for(index: &str, warc_name: &str) -> (String, Vec<u64>) {
    let mut text = String::new();
    let mut offsets = Vec::new();
    for line in index.lines() {
        if line.starts_with(" CDX") {
            text.push_str(line);
            text.push('\n');
            continue;
        }
        let (file, off) = if let Some(i) = line.find(" {") {
            let j: serde_json::Value = serde_json::from_str(&line[i + 1..]).unwrap();
            (
                j["filename"].as_str().unwrap().to_owned(),
                j["offset"].as_str().unwrap().parse::<u64>().unwrap(),
            )
        } else {
            let f: Vec<&str> = line.split(' ').collect();
            (f[10].to_owned(), f[9].parse::<u64>().unwrap())
        };
        if file == warc_name {
            text.push_str(line);
            text.push('\n');
            offsets.push(off);
        }
    }
    (text, offsets)
}

fn read_text(text: &str, f: Format) -> Vec<Observation> {
    from_reader(Cursor::new(text.to_owned()), Some(f))
        .unwrap()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn decompressed(p: &Path) -> String {
    let bytes = std::fs::read(p).unwrap();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut flate2::read::MultiGzDecoder::new(&bytes[..]), &mut s)
            .unwrap();
        s
    } else {
        String::from_utf8(bytes).unwrap()
    }
}

/// Checks that `index` (CDX or CDXJ), restricted to the lines of each WARC,
/// describes exactly (or, for a sample index, a subset of) what the WARC
/// reader sees. Returns the number of index lines checked.
fn check_pair(d: &Path, warcs: &[&str], index: &str, subset: bool) -> usize {
    let with_digest = !index.contains("no-digest");
    let index_text = decompressed(&d.join(index));
    let format = if index.contains("cdxj") {
        Format::Cdxj
    } else {
        Format::Cdx
    };
    let mut checked = 0;
    for w in warcs {
        let (obs, _, _) = read_all(&d.join(w));
        let warc_name = w.strip_prefix("warcs_").unwrap();
        let (lines, offsets) = index_lines_for(&index_text, warc_name);
        let idx = read_text(&lines, format);
        assert_eq!(idx.len(), offsets.len());
        // pywb's indexes of these files write `-` for every redirect (its
        // CDX `r` is not filled): targets are compared only where an index
        // has them, and checked against the WARC in the next test.
        // Likewise `cdxj_example.cdxj` has no status at all.
        let with = (
            idx.iter().any(|o| o.status.is_some()),
            with_digest,
            idx.iter().any(|o| o.location_raw.is_some()),
        );
        let from_index: BTreeSet<Key> = idx
            .iter()
            .zip(&offsets)
            .map(|(o, &off)| key(o, off, with))
            .collect();
        let from_warc: BTreeSet<Key> = obs.iter().map(|o| key(o, o.offset, with)).collect();
        if subset {
            // pywb's ZipNum sample adds two invented lines (copies of
            // /time-zones under the names X and Y, same record offset).
            let missing: Vec<_> = from_index
                .difference(&from_warc)
                .filter(|k| !k.1.ends_with("/time-zones/X") && !k.1.ends_with("/time-zones/Y"))
                .collect();
            assert!(
                missing.is_empty(),
                "{index} vs {w}: not in the WARC: {missing:#?}"
            );
        } else {
            let only_index: Vec<_> = from_index.difference(&from_warc).collect();
            let only_warc: Vec<_> = from_warc.difference(&from_index).collect();
            assert!(
                only_index.is_empty() && only_warc.is_empty(),
                "{index} vs {w}:\nonly in the index: {only_index:#?}\nonly in the WARC: {only_warc:#?}"
            );
        }
        checked += idx.len();
    }
    checked
}

#[test]
fn warcs_and_their_indexes_describe_the_same_captures() {
    let Some(d) = dir() else { return };
    let d = d.join("pywb");
    let pairs: &[(&[&str], &str, bool, usize)] = &[
        (&["warcs_iana.warc.gz"], "cdx_iana.cdx", false, 171),
        (&["warcs_iana.warc.gz"], "cdxj_iana.cdxj", false, 171),
        (&["warcs_example.warc.gz"], "cdx_example.cdx", false, 3),
        (&["warcs_example.warc.gz"], "cdxj_example.cdxj", false, 3),
        (
            &["warcs_example.warc.gz"],
            "cdxj_example-no-digest.cdxj",
            false,
            3,
        ),
        (
            &["warcs_example.warc.gz"],
            "non-surt-cdx_example-non-surt.cdx",
            false,
            3,
        ),
        (&["warcs_dupes.warc.gz"], "cdx_dupes.cdx", false, 12),
        (&["warcs_dupes.warc.gz"], "cdxj_dupes.cdxj", false, 12),
        (
            &[
                "warcs_example-url-agnostic-orig.warc.gz",
                "warcs_example-url-agnostic-revisit.warc.gz",
            ],
            "cdx_url-agnost-example.cdx",
            false,
            2,
        ),
        (
            &[
                "warcs_example-url-agnostic-orig.warc.gz",
                "warcs_example-url-agnostic-revisit.warc.gz",
            ],
            "cdxj_url-agnost-example.cdxj",
            false,
            2,
        ),
        (
            &["warcs_example-extra.warc"],
            "cdx_example-extra.cdx",
            true,
            2,
        ),
        (
            &[
                "warcs_iana.warc.gz",
                "warcs_dupes.warc.gz",
                "warcs_example.warc.gz",
            ],
            "zipcdx_zipnum-sample.cdx.gz",
            true,
            0,
        ),
    ];
    for &(warcs, index, subset, want) in pairs {
        let n = check_pair(&d, warcs, index, subset);
        if want > 0 {
            assert_eq!(n, want, "{index}: index lines checked");
        } else {
            assert!(n > 100, "{index}: only {n} lines checked");
        }
    }
}

/// `(response, revisit, 3xx responses, skipped records)` of a WARC.
fn census(p: &Path) -> (usize, usize, usize, u64) {
    let (obs, errs, counts) = read_all(p);
    assert!(errs.is_empty(), "{}: {errs:?}", p.display());
    let resp = obs
        .iter()
        .filter(|o| o.kind == ObservationKind::Response)
        .count();
    let rev = obs
        .iter()
        .filter(|o| o.kind == ObservationKind::Revisit)
        .count();
    let redirects = obs
        .iter()
        .filter(|o| o.kind == ObservationKind::Response && o.status.is_some_and(|s| s / 100 == 3))
        .count();
    assert_eq!(counts.records, counts.observations + counts.skipped);
    (resp, rev, redirects, counts.skipped)
}

#[test]
fn warcio_counts_of_the_readme() {
    let Some(d) = dir() else { return };
    let d = d.join("pywb");
    // README: 48 response, 171 request, 123 revisit, 1 warcinfo, 4 3xx.
    assert_eq!(census(&d.join("warcs_iana.warc.gz")), (48, 123, 4, 172));
    // 3 response, 12 request, 9 revisit, 1 warcinfo, 1 3xx.
    assert_eq!(census(&d.join("warcs_dupes.warc.gz")), (3, 9, 1, 13));
    // 2 response, 2 request, 1 revisit, 1 warcinfo, 1 3xx.
    assert_eq!(census(&d.join("warcs_example.warc.gz")), (2, 1, 1, 3));
    // cdx_iana.cdx: 44 captures with status 200, 4 with 302, 123 revisits.
    let (cdx, errs, _) = read_all(&d.join("cdx_iana.cdx"));
    assert!(errs.is_empty());
    let n = |f: &dyn Fn(&Observation) -> bool| cdx.iter().filter(|o| f(o)).count();
    assert_eq!(n(&|o| o.status == Some(200)), 44);
    assert_eq!(n(&|o| o.status == Some(302)), 4);
    assert_eq!(n(&|o| o.kind == ObservationKind::Revisit), 123);
}

#[test]
fn redirect_targets_resolve_against_the_target_uri() {
    let Some(d) = dir() else { return };
    let (obs, _, _) = read_all(&d.join("pywb/warcs_iana.warc.gz"));
    let mut got: Vec<(String, String, String)> = obs
        .iter()
        .filter(|o| o.status.is_some_and(|s| s / 100 == 3))
        .map(|o| {
            (
                o.url.clone(),
                o.location_raw.clone().unwrap(),
                o.location.clone().unwrap(),
            )
        })
        .collect();
    got.sort();
    // The Location headers as `zcat | grep -i ^location:` shows them, and
    // their RFC 3986 §5.2 resolution against WARC-Target-URI.
    let want = [
        (
            "http://www.iana.org/about/performance/ietf-draft-status",
            "/performance/ietf-draft-status",
            "http://www.iana.org/performance/ietf-draft-status",
        ),
        (
            "http://www.iana.org/about/performance/ietf-statistics",
            "/performance/ietf-statistics",
            "http://www.iana.org/performance/ietf-statistics",
        ),
        (
            "http://www.iana.org/dnssec",
            "https://www.iana.org/dnssec",
            "https://www.iana.org/dnssec",
        ),
        (
            "http://www.iana.org/domains/root/db/",
            "http://www.iana.org/domains/root/db",
            "http://www.iana.org/domains/root/db",
        ),
    ];
    let want: Vec<_> = want
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(got, want);
    // The revisit under another URL names what it revisits.
    let (obs, _, _) = read_all(&d.join("pywb/warcs_example-url-agnostic-revisit.warc.gz"));
    assert_eq!(obs.len(), 1);
    assert_eq!(
        obs[0].refers_to.as_deref(),
        Some("http://example.iana.org/")
    );
    assert_eq!(obs[0].url, "http://test@example.com/");
}

#[test]
fn warcio_edge_cases() {
    let Some(d) = dir() else { return };
    let d = d.join("warcio");
    let fatal = |name: &str, kind: ErrorKind| {
        let (_, errs, _) = read_all(&d.join(name));
        let last = errs.last().unwrap_or_else(|| panic!("{name}: no error"));
        assert!(last.fatal && last.kind == kind, "{name}: {last}");
        assert_eq!(errs.iter().filter(|e| e.fatal).count(), 1);
        last.clone()
    };
    // A stray `\0\0` where the 4th record should start: the record before
    // it is not as long as it says.
    let e = fatal("example-trunc.warc", ErrorKind::NotARecord);
    assert_eq!(e.offset, 2560);
    // One gzip member for the whole file.
    let e = fatal("example-bad-non-chunked.warc.gz", ErrorKind::Framing);
    assert_eq!(e.offset, 0);
    // A response whose block runs on into the next members.
    fatal("example-wrong-chunks.warc.gz", ErrorKind::Framing);
    // The good ones read without errors; chunked bodies are skipped by
    // length, never decoded.
    for (name, responses) in [
        ("example.warc.gz", 2),
        ("example-iana.org-chunked.warc", 1),
        ("example-resource.warc.gz", 1),
        ("example-space-in-target-uri.warc.gz", 1),
        ("example-wget-bad-target-uri.warc.gz", 3),
        ("example-digest.warc", 0),
    ] {
        let (obs, errs, _) = read_all(&d.join(name));
        assert!(errs.is_empty(), "{name}: {errs:?}");
        assert_eq!(obs.len(), responses, "{name}: {obs:#?}");
    }
    // A target URI with a space is kept as recorded.
    let (obs, _, _) = read_all(&d.join("example-space-in-target-uri.warc.gz"));
    assert!(obs[0].url.contains(' '), "{:?}", obs[0].url);
    // wget 1.14's `<uri>` loses its brackets.
    let (obs, _, _) = read_all(&d.join("example-wget-bad-target-uri.warc.gz"));
    assert!(obs.iter().all(|o| !o.url.starts_with('<')), "{obs:#?}");
}

#[test]
fn arc_files() {
    let Some(d) = dir() else { return };
    let (obs, errs, c) = read_all(&d.join("pywb/warcs_example.arc.gz"));
    assert!(errs.is_empty(), "{errs:?}");
    assert_eq!(obs.len(), 1);
    assert_eq!(obs[0].url, "http://example.com/");
    assert_eq!(obs[0].time.as_deref(), Some("20140216050221"));
    assert_eq!(obs[0].status, Some(200));
    assert_eq!(c.skipped, 1); // the filedesc block
                              // Every record of the malformed ARC is reported, none is fatal.
    let (obs, errs, c) = read_all(&d.join("pywb/warcs_bad.arc"));
    assert!(obs.is_empty());
    assert_eq!(errs.len(), 3, "{errs:?}");
    assert!(errs.iter().all(|e| !e.fatal));
    assert_eq!(c.bad, 3);
}

#[test]
fn unknown_files_are_a_clear_error() {
    let err = from_reader(Cursor::new(b"<!doctype html>\n<p>hi".to_vec()), None).unwrap_err();
    assert!(err.to_string().contains("not a crawl file"), "{err}");
    let err = from_reader(Cursor::new(Vec::new()), None).unwrap_err();
    assert!(err.to_string().contains("empty"), "{err}");
}

#[test]
fn zstd_and_gzip_line_files() {
    let text = " CDX N b a m s k r M S V g\ncom,a)/ 20140101000000 http://a/ text/html 301 ABC /b - 1 2 f\n";
    let z = zstd::encode_all(text.as_bytes(), 3).unwrap();
    let out: Vec<_> = from_reader(Cursor::new(z), None)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].location.as_deref(), Some("http://a/b"));
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut g, text.as_bytes()).unwrap();
    let recs = from_reader(Cursor::new(g.finish().unwrap()), None).unwrap();
    assert_eq!(recs.format(), Format::Cdx);
    assert_eq!(recs.count(), 1);
}
