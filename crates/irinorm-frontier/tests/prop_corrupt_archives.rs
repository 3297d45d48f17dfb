//! Round 17 (docs/testing.md): crawl files written by the crawl writer
//! (`crawl_write.rs`: a gzip WARC of one member per record, its CDX and
//! CDXJ), and the same WARC uncompressed, damaged at random byte positions
//! (a byte replaced, bytes inserted or deleted, a cut, CRLF made LF) and
//! read back. The contract (docs/evidence.md, "Errors and limits"): bad
//! input never crashes and never vanishes.
//!
//! - No panic, whatever the bytes, with the format named or detected.
//! - `records = observations + skipped + bad`; every error has a kind, an
//!   offset inside the file, a line number for the line formats; at most
//!   one error is fatal, and it is the last item.
//! - The line formats (CDX, CDXJ): every line that is not blank (ASCII
//!   white space only) is a record, counted independently of the reader.
//! - The WARC: every record that ends before the first damaged byte is read
//!   exactly as from the undamaged file.

use std::io::{Cursor, Read};
use std::sync::OnceLock;

use irinorm_archive::{from_reader, Counts, Format, Observation, RecordError};
use irinorm_frontier::{simulate, write_crawl, CrawlOptions};
use proptest::prelude::*;

/// One crawl's files as bytes.
struct Files {
    warc_gz: Vec<u8>,
    warc: Vec<u8>,
    cdx: Vec<u8>,
    cdxj: Vec<u8>,
}

/// A few small crawls, written once.
fn crawls() -> &'static [Files] {
    static C: OnceLock<Vec<Files>> = OnceLock::new();
    C.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        (0..3u64)
            .map(|seed| {
                let caps = simulate(&CrawlOptions {
                    sites: 2,
                    pages: 3,
                    seed,
                    epoch: (seed % 2) as u32,
                });
                let f = write_crawl(&caps, dir.path(), &format!("c{seed}")).expect("written");
                let warc_gz = std::fs::read(&f.warc).expect("warc");
                let mut warc = Vec::new();
                flate2::read::MultiGzDecoder::new(&warc_gz[..])
                    .read_to_end(&mut warc)
                    .expect("gunzip");
                Files {
                    warc_gz,
                    warc,
                    cdx: std::fs::read(&f.cdx).expect("cdx"),
                    cdxj: std::fs::read(&f.cdxj).expect("cdxj"),
                }
            })
            .collect()
    })
}

/// What a damage does at a position (taken modulo the length).
#[derive(Clone, Debug)]
enum Damage {
    Set(usize, u8),
    Insert(usize, &'static [u8]),
    Delete(usize, usize),
    Cut(usize),
    /// Every `\r\n` from the position on becomes `\n`.
    Lf(usize),
}

/// Bytes worth inserting: line ends, NUL, invalid UTF-8, white space that
/// is not ASCII blank, a record start, a line longer than every limit.
fn inserts() -> impl Strategy<Value = &'static [u8]> {
    static LONG: OnceLock<Vec<u8>> = OnceLock::new();
    let long: &'static [u8] = LONG.get_or_init(|| vec![b'a'; 70 * 1024]);
    prop::sample::select(vec![
        &b"\r\n"[..],
        b"\n",
        b"\r",
        b"\n\n",
        b"\0",
        b"\xff\xfe",
        b"\xc3",
        b"\x0b\n",
        b"\xc2\xa0\n",
        b"\n \t\n",
        b" ",
        b"WARC/1.1\r\n",
        b"Content-Length: 99999999999999999999\r\n",
        b"{\"url\": 1}\n",
        long,
    ])
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        3 => (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Damage::Set(p, b)),
        3 => (any::<usize>(), inserts()).prop_map(|(p, b)| Damage::Insert(p, b)),
        1 => (any::<usize>(), 1..64usize).prop_map(|(p, n)| Damage::Delete(p, n)),
        1 => any::<usize>().prop_map(Damage::Cut),
        1 => any::<usize>().prop_map(Damage::Lf),
    ]
}

/// `bytes` damaged, and the first position that differs from them.
fn apply(bytes: &[u8], ds: &[Damage]) -> (Vec<u8>, usize) {
    let mut b = bytes.to_vec();
    for d in ds {
        let at = |p: usize, len: usize| if len == 0 { 0 } else { p % len };
        match d {
            Damage::Set(p, x) => {
                if !b.is_empty() {
                    let i = at(*p, b.len());
                    b[i] = *x;
                }
            }
            Damage::Insert(p, x) => {
                let i = at(*p, b.len() + 1);
                b.splice(i..i, x.iter().copied());
            }
            Damage::Delete(p, n) => {
                let i = at(*p, b.len());
                let j = (i + n).min(b.len());
                b.drain(i..j);
            }
            Damage::Cut(p) => {
                let i = at(*p, b.len());
                b.truncate(i);
            }
            Damage::Lf(p) => {
                let i = at(*p, b.len());
                let mut tail = Vec::with_capacity(b.len() - i);
                let mut k = i;
                while k < b.len() {
                    if b[k] == b'\r' && b.get(k + 1) == Some(&b'\n') {
                        k += 1;
                        continue;
                    }
                    tail.push(b[k]);
                    k += 1;
                }
                b.truncate(i);
                b.extend(tail);
            }
        }
    }
    let first = bytes
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(bytes.len().min(b.len()));
    (b, first)
}

/// Everything a reader yields, checked against the contract's general part.
fn read(
    bytes: &[u8],
    format: Option<Format>,
) -> Option<(Vec<Result<Observation, RecordError>>, Counts)> {
    let mut recs = from_reader(Cursor::new(bytes.to_vec()), format).ok()?;
    let items: Vec<_> = recs.by_ref().collect();
    let c = recs.counts();
    let errors: Vec<&RecordError> = items.iter().filter_map(|r| r.as_ref().err()).collect();
    assert_eq!(c.records, c.observations + c.skipped + c.bad, "{c:?}");
    assert_eq!(c.bad, errors.len() as u64, "every bad record is yielded");
    assert_eq!(
        c.observations,
        items.iter().filter(|r| r.is_ok()).count() as u64
    );
    let fatal: Vec<usize> = items
        .iter()
        .enumerate()
        .filter(|(_, r)| r.as_ref().is_err_and(|e| e.fatal))
        .map(|(i, _)| i)
        .collect();
    assert!(fatal.len() <= 1, "at most one fatal error: {errors:?}");
    if let Some(&i) = fatal.first() {
        assert_eq!(i + 1, items.len(), "the fatal error is the last item");
    }
    let line_format = !matches!(recs.format(), Format::Warc | Format::Arc);
    for e in &errors {
        assert!(
            e.offset <= bytes.len() as u64,
            "offset inside the file: {e}"
        );
        assert_eq!(
            e.line.is_some(),
            line_format,
            "a line number for the line formats: {e}"
        );
        assert!(!e.message.is_empty(), "{e}");
    }
    Some((items, c))
}

/// The records a line file holds: its lines that are not blank (ASCII
/// white space only), the last one with or without its `\n`.
fn lines(bytes: &[u8]) -> u64 {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .count() as u64
}

fn check_lines(bytes: &[u8], format: Format) {
    let (_, c) = read(bytes, Some(format)).expect("a named format always opens");
    assert_eq!(
        c.records,
        lines(bytes),
        "every line that is not blank is a record ({c:?})"
    );
    // Detected: whatever it is taken for, the contract holds.
    let _ = read(bytes, None);
}

fn check_warc(clean: &[u8], bytes: &[u8], first: usize, cut: bool) {
    let (want, wc) = read(clean, Some(Format::Warc)).expect("opens");
    let Some((got, gc)) = read(bytes, Some(Format::Warc)) else {
        return;
    };
    // Nothing reported: every record is still there (a cut at a record's
    // end is the one damage no reader can see).
    if gc.bad == 0 && !cut {
        assert_eq!(
            gc.observations + gc.skipped,
            wc.observations + wc.skipped,
            "records vanished without a report ({gc:?} against {wc:?})"
        );
    }
    let _ = read(bytes, None);
    // The records of the clean file that start (and so end) before the
    // damaged record: the damaged one starts at the last offset <= first.
    let offsets: Vec<u64> = want
        .iter()
        .filter_map(|r| r.as_ref().ok().map(|o| o.offset))
        .collect();
    let damaged = offsets
        .iter()
        .copied()
        .filter(|&o| o <= first as u64)
        .max()
        .unwrap_or(0);
    let kept: Vec<&Observation> = want
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .filter(|o| o.offset < damaged)
        .collect();
    let read: Vec<&Observation> = got
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .filter(|o| o.offset < damaged)
        .collect();
    assert_eq!(
        read, kept,
        "the records before byte {first} are read as written"
    );
}

proptest! {
    // At least this many cases; more when PROPTEST_CASES asks (docs/testing.md).
    #![proptest_config(ProptestConfig::with_cases(256.max(ProptestConfig::default().cases)))]

    #[test]
    fn damaged_crawl_files_never_crash_and_never_vanish(
        crawl in 0..3usize,
        which in 0..4usize,
        ds in prop::collection::vec(damage(), 1..4),
    ) {
        let f = &crawls()[crawl];
        let cut = ds.iter().any(|d| matches!(d, Damage::Cut(_)));
        match which {
            0 => {
                let (b, first) = apply(&f.warc_gz, &ds);
                check_warc(&f.warc_gz, &b, first, cut);
            }
            1 => {
                let (b, first) = apply(&f.warc, &ds);
                check_warc(&f.warc, &b, first, cut);
            }
            2 => check_lines(&apply(&f.cdx, &ds).0, Format::Cdx),
            _ => check_lines(&apply(&f.cdxj, &ds).0, Format::Cdxj),
        }
    }
}
