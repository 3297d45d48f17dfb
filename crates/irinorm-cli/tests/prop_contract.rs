//! Round 11 (docs/testing.md): the CLI contract of docs/cli.md ("Rejects,
//! counters, exit status": every input is accepted or rejected, nothing
//! vanishes) for random bytes: lines of URLs, spaces, CR (a last one is
//! stripped, an inner one is not), NUL, invalid UTF-8, lines longer than
//! `--max-len`, empty lines, a last line without a line feed; one thread
//! and two; plain, gzip and (round 16) zstd input; `normalize`, `dedupe`
//! and (round 16) `compare` reading pairs (a line without a TAB is a
//! reject, `not-a-pair`). Checked: read
//! = written + rejected (+ duplicates), the model's line count; one output
//! line per written input; one reject row per rejected line, at its own
//! line number, with its bytes; the same bytes whatever the threads and
//! the compression.

mod common;

use std::io::Write;

use common::{rejects, run_in};
use proptest::prelude::*;

const PIECES: &[&[u8]] = &[
    b"http://a.example/",
    b"HTTP://B.example:80/x/../y",
    b"http://b c/",
    b"http://d/%G1",
    b"\r",
    b"\0",
    b"\xff\xfe",
    "é".as_bytes(),
    b"http://\xc3\xa9.example/",
    b"x",
    b" ",
    b"\t",
    b"?",
    b"#",
    b"0123456789012345678901234567890123456789",
];

fn input() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(
            prop::collection::vec(prop::sample::select(PIECES), 0..4),
            0..30,
        ),
        any::<bool>(),
    )
        .prop_map(|(lines, last_lf)| {
            let mut out = Vec::new();
            for (i, l) in lines.iter().enumerate() {
                for p in l {
                    out.extend_from_slice(p);
                }
                if i + 1 < lines.len() || last_lf {
                    out.push(b'\n');
                }
            }
            out
        })
}

/// The lines the contract counts: split at `\n`, one trailing `\r` goes,
/// a last line without `\n` counts when it is not empty.
fn model(input: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = input.split(|&c| c == b'\n').collect();
    if v.last() == Some(&&b""[..]) {
        v.pop();
    }
    v.into_iter()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect()
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    g.write_all(b).unwrap();
    g.finish().unwrap()
}

/// Undoes the rejects file's escaping (docs/cli.md: `\\`, `\t`, `\n`, `\r`,
/// `\xHH`, `\u{HHHH}`).
fn unescape(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut it = s.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if c != '\\' {
            let mut b = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            continue;
        }
        match it.next().map(|(_, c)| c) {
            Some('\\') => out.push(b'\\'),
            Some('t') => out.push(b'\t'),
            Some('n') => out.push(b'\n'),
            Some('r') => out.push(b'\r'),
            Some('x') => {
                let h = &s[i + 2..i + 4];
                out.push(u8::from_str_radix(h, 16).unwrap());
                it.next();
                it.next();
            }
            Some('u') => {
                let end = s[i..].find('}').unwrap() + i;
                let cp = u32::from_str_radix(&s[i + 3..end], 16).unwrap();
                let mut b = [0; 4];
                out.extend_from_slice(char::from_u32(cp).unwrap().encode_utf8(&mut b).as_bytes());
                while it.peek().is_some_and(|&(j, _)| j <= end) {
                    it.next();
                }
            }
            other => panic!("bad escape {other:?} in {s:?}"),
        }
    }
    out
}

const MAX_LEN: usize = 48;

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    // Each case runs the binary 18 times (three commands, three
    // compressions, one thread and two).
    #![proptest_config(ProptestConfig::with_cases(24.max(ProptestConfig::default().cases / 16)))]

    #[test]
    fn every_line_is_written_or_rejected(bytes in input()) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("in.txt"), &bytes).unwrap();
        std::fs::write(dir.path().join("in.txt.gz"), gzip(&bytes)).unwrap();
        std::fs::write(dir.path().join("in.txt.zst"), zstd::encode_all(&bytes[..], 3).unwrap()).unwrap();
        let lines = model(&bytes);
        let max = MAX_LEN.to_string();
        for cmd in ["normalize", "dedupe", "compare"] {
            let mut first: Option<(Vec<u8>, Vec<Vec<String>>)> = None;
            for file in ["in.txt", "in.txt.gz", "in.txt.zst"] {
                for threads in ["1", "2"] {
                    let r = run_in(
                        dir.path(),
                        &[cmd, "-i", file, "--rejects", "rej.tsv", "-j", threads, "--max-len", &max],
                        b"",
                    );
                    prop_assert!(r.code == 0 || r.code == 1, "{}: {}", r.code, r.stderr);
                    let s = r.summary();
                    prop_assert_eq!(s.read, lines.len() as u64, "read, {} {} -j {}", cmd, file, threads);
                    let dup = s.duplicates.unwrap_or(0);
                    prop_assert_eq!(s.read, s.written + s.rejected + dup, "{}", r.stderr);
                    let out_lines = r.stdout.iter().filter(|&&c| c == b'\n').count() as u64;
                    prop_assert_eq!(out_lines, s.written, "{} output lines", cmd);
                    let rej = rejects(&dir.path().join("rej.tsv"));
                    prop_assert_eq!(rej.len() as u64, s.rejected);
                    let mut prev = 0u64;
                    for row in &rej {
                        let n: u64 = row[0].parse().unwrap();
                        prop_assert!(n > prev && n <= s.read, "line {} after {}", n, prev);
                        prev = n;
                        let _: u64 = row[1].parse().unwrap();
                        let line = lines[n as usize - 1];
                        let orig = unescape(&row[4]);
                        if row[2] == "too-long" {
                            prop_assert!(line.len() > MAX_LEN, "{:?}", row);
                            prop_assert!(line.starts_with(&orig[..orig.len().min(256)]), "{:?}", row);
                        } else {
                            prop_assert_eq!(&orig[..], line, "{:?}", row);
                        }
                    }
                    match &first {
                        None => first = Some((r.stdout.clone(), rej)),
                        Some((o, j)) => {
                            prop_assert_eq!(&r.stdout, o, "{} {} -j {}: other bytes", cmd, file, threads);
                            prop_assert_eq!(&rej, j);
                        }
                    }
                }
            }
        }
    }
}
