//! Peak memory is bounded by `--max-len` whatever the input (issue 16):
//! multi-gigabyte single lines made at test time from small gzip files, an
//! unterminated CSV quote, and a multi-gigabyte line on stdin.
//!
//! A test binary of its own: the peak is read with `getrusage`
//! (RUSAGE_CHILDREN: the largest peak of the children waited for), so the
//! only children here are the runs under test, all held to one bound.

mod common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use common::rejects;

/// One gzip member holding `n` bytes `b`.
fn gzip_member(b: u8, n: usize) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let block = vec![b; 1 << 20];
    let mut left = n;
    while left > 0 {
        let k = left.min(block.len());
        e.write_all(&block[..k]).unwrap();
        left -= k;
    }
    e.finish().unwrap()
}

/// A gzip file of `head`, then `gib_quarters` x 256 MiB of `a` (one 64 MiB
/// member repeated: a few hundred KB on disk), then `tail`.
fn huge_gzip(path: &Path, head: &[u8], quarters: usize, tail: &[u8]) -> u64 {
    let member = gzip_member(b'a', 64 << 20);
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    g.write_all(head).unwrap();
    f.write_all(&g.finish().unwrap()).unwrap();
    for _ in 0..quarters * 4 {
        f.write_all(&member).unwrap();
    }
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    g.write_all(tail).unwrap();
    f.write_all(&g.finish().unwrap()).unwrap();
    f.flush().unwrap();
    (head.len() + tail.len()) as u64 + quarters as u64 * (256 << 20)
}

/// Runs the binary with `stdin` fed by `feed` (on a thread of its own),
/// and returns its exit status, stdout, stderr and the peak resident memory
/// of the children of this test process so far, in bytes (`getrusage`
/// RUSAGE_CHILDREN: the largest child's peak; other tests' children are
/// small, so it bounds this one's from above).
#[cfg(target_os = "linux")]
fn run_measured(
    dir: &Path,
    args: &[&str],
    feed: impl FnOnce(&mut dyn Write) + Send + 'static,
) -> (i32, String, String, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_irinorm"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || feed(&mut stdin));
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).unwrap();
        s
    });
    let mut o = String::new();
    out.read_to_string(&mut o).unwrap();
    let status = child.wait().unwrap();
    feeder.join().unwrap();
    let e = reader.join().unwrap();
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    // Linux reports ru_maxrss in KiB.
    let peak = usage.max_rss() as u64 * 1024;
    (status.code().unwrap_or(-1), o, e, peak)
}

/// `--max-len` (default 1 MiB) x 2 threads x 32: what "bounded by the
/// limit" allows, whatever the input size.
const PEAK_BOUND: u64 = 64 << 20;

#[cfg(target_os = "linux")]
#[test]
fn a_multi_gigabyte_line_in_a_small_gzip_is_skipped_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.gz");
    // 2.25 GiB (past 2^31) of one line, then a good line.
    let total = huge_gzip(&p, b"http://first.example/\n", 9, b"\nhttp://ok.example/\n");
    assert!(
        std::fs::metadata(&p).unwrap().len() < 4 << 20,
        "small on disk"
    );
    assert!(total > 1 << 31);
    let (code, out, err, peak) = run_measured(
        dir.path(),
        &[
            "normalize",
            "-j",
            "2",
            "-i",
            "big.gz",
            "--rejects",
            "rej.tsv",
        ],
        |_| {},
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, "http://first.example/\nhttp://ok.example/\n");
    assert!(err.contains("read 3, written 2, rejected 1"), "{err}");
    let rej = rejects(&dir.path().join("rej.tsv"));
    assert_eq!(rej.len(), 1);
    assert_eq!((rej[0][0].as_str(), rej[0][2].as_str()), ("2", "too-long"));
    assert_eq!(
        rej[0][1], "1048576",
        "offset: the first byte past the limit"
    );
    assert!(rej[0][3].starts_with(&format!("{} bytes", 9u64 * (256 << 20))));
    assert_eq!(rej[0][4], "a".repeat(256));
    assert!(peak < PEAK_BOUND, "peak RSS {peak} bytes");
}

#[cfg(target_os = "linux")]
#[test]
fn an_unterminated_csv_quote_is_skipped_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.csv.gz");
    // The quote opened on line 3 never closes: everything after it is one
    // record (with its line ends), up to the end of the input.
    huge_gzip(
        &p,
        b"id,url\n1,http://a.example/\n2,\"http://b.example/",
        9,
        b"\n3,http://c.example/\n",
    );
    let (code, out, err, peak) = run_measured(
        dir.path(),
        &[
            "check",
            "-j",
            "2",
            "--column",
            "url",
            "-i",
            "big.csv.gz",
            "--rejects",
            "rej.tsv",
        ],
        |_| {},
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, "id,url\n1,http://a.example/\n");
    assert!(err.contains("read 2, written 1, rejected 1"), "{err}");
    let rej = rejects(&dir.path().join("rej.tsv"));
    assert_eq!((rej[0][0].as_str(), rej[0][2].as_str()), ("3", "too-long"));
    assert!(
        rej[0][4].starts_with("2,\"http://b.example/aaa"),
        "{:?}",
        rej[0][4]
    );
    assert!(peak < PEAK_BOUND, "peak RSS {peak} bytes");
}

#[cfg(target_os = "linux")]
#[test]
fn a_multi_gigabyte_line_on_stdin_is_skipped_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err, peak) = run_measured(dir.path(), &["check", "-j", "2"], |w| {
        w.write_all(b"http://a.example/\n").unwrap();
        let block = vec![b'a'; 1 << 20];
        // 2.25 GiB through a pipe, never all in memory on either side.
        for _ in 0..(9 << 8) {
            w.write_all(&block).unwrap();
        }
        w.write_all(b"\r\nhttp://b.example/\n").unwrap();
    });
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "one verdict a line: {out}");
    assert_eq!(lines[0], "valid");
    assert!(
        lines[1].starts_with("invalid: ") && lines[1].ends_with("(too-long)"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "valid");
    assert!(err.contains("line 2, byte 1048576: too-long"), "{err}");
    assert!(peak < PEAK_BOUND, "peak RSS {peak} bytes");
}
