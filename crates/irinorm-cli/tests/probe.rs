//! `irinorm probe` end to end, against a server this test starts on
//! 127.0.0.1 (and `--loopback-only`, so nothing else can be reached).

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use common::irinorm;
use irinorm_evidence::{ObservationKind, Store};

/// A tiny HTTP/1.1 server (one connection at a time, `Connection: close`):
/// `/a` -> 301 `/a/`, `/a/` 200, `/robots.txt` 404, the rest 404. Counts
/// `METHOD path` hits.
fn server() -> (u16, Arc<Mutex<HashMap<String, u64>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let hits = Arc::new(Mutex::new(HashMap::new()));
    let h = Arc::clone(&hits);
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { return };
            let mut r = BufReader::new(s.try_clone().unwrap());
            let mut first = String::new();
            if r.read_line(&mut first).is_err() {
                continue;
            }
            loop {
                let mut l = String::new();
                if r.read_line(&mut l).is_err() || l == "\r\n" || l.is_empty() {
                    break;
                }
            }
            let mut parts = first.split(' ');
            let (m, p) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            *h.lock().unwrap().entry(format!("{m} {p}")).or_insert(0) += 1;
            let head = match p {
                "/a" => "301 Moved Permanently\r\nLocation: /a/".to_owned(),
                "/a/" => "200 OK".to_owned(),
                _ => "404 Not Found".to_owned(),
            };
            let _ = s.write_all(
                format!("HTTP/1.1 {head}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            );
        }
    });
    (port, hits)
}

#[test]
fn probe_stores_evidence_reports_failures_and_resumes() {
    let (port, hits) = server();
    let dir = tempfile::tempdir().unwrap();
    let urls = format!(
        "http://127.0.0.1:{port}/a\nhttp://127.0.0.1:{port}/A/../a\nbad url\nhttp://127.0.0.1:{port}/b\n"
    );
    // gzip input, detected by its magic bytes.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(urls.as_bytes()).unwrap();
    std::fs::write(dir.path().join("urls.txt.gz"), gz.finish().unwrap()).unwrap();

    let args = [
        "probe",
        "-i",
        "urls.txt.gz",
        "--db",
        "e.db",
        "--loopback-only",
        "--rejects",
        "rejects.jsonl",
    ];
    let out = irinorm(dir.path()).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // One line rejected: exit status 1, as every subcommand.
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("probe: read 4, probed 2 (redirected 1, answered 2: 2xx 1, 4xx 1), duplicates 1, fresh 0, failed 1: invalid-url 1"),
        "{err}"
    );
    let rejects = std::fs::read_to_string(dir.path().join("rejects.jsonl")).unwrap();
    let r: Vec<serde_json::Value> = rejects
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["kind"], "invalid-url");
    assert_eq!(r[0]["line"], 3);
    assert_eq!(r[0]["input"], "bad url");
    // Byte offset of line 3: the two lines before it.
    let off = urls.find("bad url").unwrap();
    assert_eq!(r[0]["offset"], off);

    let store = Store::open(&dir.path().join("e.db")).unwrap();
    let a = store
        .observations_of(&format!("http://127.0.0.1:{port}/a"))
        .unwrap();
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].kind, ObservationKind::Redirect);
    assert_eq!(a[0].status, Some(301));
    assert_eq!(
        a[0].target.as_deref(),
        Some(&*format!("http://127.0.0.1:{port}/a/"))
    );
    assert_eq!(a[0].location.as_deref(), Some("/a/"));
    assert!(a[0].source.starts_with("probe:"));
    drop(store);

    // Again with --max-age: both URLs with evidence are fresh; nothing but
    // robots.txt is requested.
    let before: u64 = hits.lock().unwrap().values().sum();
    let out = irinorm(dir.path())
        .args(args)
        .args(["--max-age", "1h"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("probed 0"), "{err}");
    assert!(err.contains("fresh 2"), "{err}");
    let after: u64 = hits.lock().unwrap().values().sum();
    assert_eq!(after, before);
}

#[test]
fn probe_refuses_bad_options() {
    let dir = tempfile::tempdir().unwrap();
    for bad in [
        vec!["--per-host", "0"],
        vec!["--concurrency", "0"],
        vec!["--timeout", "0"],
        vec!["--max-age", "3w"],
        vec!["--digest", "--digest-bytes", "0"],
        vec!["--digest-bytes", "10"],
        vec!["--resolve", "h:80"],
        vec!["--rate", "-1"],
    ] {
        let out = irinorm(dir.path())
            .args(["probe", "--db", "e.db", "http://127.0.0.1:1/"])
            .args(&bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
    assert!(!dir.path().join("e.db").exists());
}

#[test]
fn probe_digest_is_stored_like_a_warc_payload_digest() {
    let (port, hits) = server();
    let dir = tempfile::tempdir().unwrap();
    let out = irinorm(dir.path())
        .args(["probe", "--db", "e.db", "--loopback-only", "--digest", "-q"])
        .arg(format!("http://127.0.0.1:{port}/a"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // -q: no summary.
    assert!(out.stderr.is_empty());
    let store = Store::open(&dir.path().join("e.db")).unwrap();
    let end = store
        .observations_of(&format!("http://127.0.0.1:{port}/a/"))
        .unwrap();
    // SHA-1 of the empty body, base32 (Python: base64.b32encode(hashlib.sha1(b"").digest())).
    assert_eq!(
        end[0].digest.as_deref(),
        Some("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ")
    );
    assert_eq!(end[0].status, Some(200));
    let h = hits.lock().unwrap();
    assert_eq!(h.get("GET /a/"), Some(&1));
    assert_eq!(h.get("HEAD /a/"), None);
}

/// Round 22: a cut gzip input is named with the line and byte reached,
/// after the lines before it were probed (here: rejected before any
/// request, so nothing leaves the machine), status 2.
#[test]
fn a_cut_compressed_input_is_named_with_the_line_reached() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // URLs that do not parse: no request is made.
    let text: String = (0..4000).map(|i| format!("http://a b/{i}\n")).collect();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    std::fs::write(d.join("cut.txt.gz"), &gz[..gz.len() / 2]).unwrap();
    let o = irinorm(d)
        .args([
            "probe",
            "--db",
            "p.db",
            "--loopback-only",
            "-q",
            "--show-rejects",
            "0",
            "-i",
            "cut.txt.gz",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("irinorm: error: cut.txt.gz: line "), "{err}");
    assert!(err.contains(" of the (decompressed) text: "), "{err}");
    assert!(!err.contains(": line 1, byte 0 "), "{err}");
}
