//! Round 11 (docs/testing.md): WARC and ARC files of generated records,
//! plain and one gzip member per record, cut at any byte or with one
//! record's length field made wrong. The readers never panic; every record
//! is accounted for (records = observations + skipped + bad); every record
//! that ends before the cut (or before the damaged one) is read exactly as
//! written, at its own offset; at most one error is fatal; a cut inside a
//! record is reported, never read as a good record.

use std::io::{Cursor, Write};

use irinorm_archive::{from_reader, Format, Observation, RecordError};
use proptest::prelude::*;

/// One record: a response (status, optional `Location`), or a record that
/// is not evidence (a WARC `request`; ARC has none after its version
/// block).
#[derive(Debug, Clone)]
struct Rec {
    n: u32,
    status: u16,
    location: bool,
    request: bool,
    body: usize,
}

fn recs() -> impl Strategy<Value = Vec<Rec>> {
    prop::collection::vec(
        (
            any::<u32>(),
            prop::sample::select(vec![200u16, 301, 302, 404]),
            any::<bool>(),
            prop::bool::weighted(0.2),
            0usize..40,
        )
            .prop_map(|(n, status, location, request, body)| Rec {
                n,
                status,
                location,
                request,
                body,
            }),
        1..6,
    )
}

fn http_head(r: &Rec) -> String {
    let mut h = format!("HTTP/1.1 {} X\r\n", r.status);
    if r.location && (300..400).contains(&r.status) {
        h.push_str(&format!("Location: /to/{}\r\n", r.n));
    }
    h.push_str("Content-Type: text/html\r\n\r\n");
    h.push_str(&"b".repeat(r.body));
    h
}

/// A WARC record (WARC 1.1 §4: version, fields, CRLF, block, CRLF CRLF).
fn warc_record(r: &Rec) -> Vec<u8> {
    let (ty, ct, block) = if r.request {
        (
            "request",
            "application/http; msgtype=request",
            format!("GET /{} HTTP/1.1\r\nHost: h\r\n\r\n", r.n),
        )
    } else {
        (
            "response",
            "application/http; msgtype=response",
            http_head(r),
        )
    };
    format!(
        "WARC/1.0\r\nWARC-Type: {ty}\r\nWARC-Target-URI: http://h/{}\r\nWARC-Date: 2020-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:{:08x}-0000-0000-0000-000000000000>\r\nContent-Type: {ct}\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
        r.n,
        r.n,
        block.len()
    )
    .into_bytes()
}

/// An ARC v1 record (the version block first; then a URL line and
/// `length` bytes, then a line feed).
fn arc_record(r: &Rec) -> Vec<u8> {
    let block = http_head(r);
    format!(
        "http://h/{} 1.2.3.4 20200101000000 text/html {}\n{block}\n",
        r.n,
        block.len()
    )
    .into_bytes()
}

/// The ARC version block (the `filedesc` header line, then as many
/// bytes as it says, then a line feed).
fn arc_header() -> String {
    let body = "1 0 x\nURL IP-address Archive-date Content-type Archive-length\n";
    format!(
        "filedesc://x.arc 0.0.0.0 20200101000000 text/plain {}\n{body}\n",
        body.len()
    )
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    g.write_all(b).unwrap();
    g.finish().unwrap()
}

/// The file: its bytes, the start of every record and the end of what
/// must be read for it to be whole, and the span of the ARC version block.
#[allow(clippy::type_complexity)]
fn file(
    format: Format,
    rs: &[Rec],
    gz: bool,
) -> (Vec<u8>, Vec<(usize, usize)>, Option<(usize, usize)>) {
    let mut out = Vec::new();
    let mut spans = Vec::new();
    let unit = |b: Vec<u8>, out: &mut Vec<u8>| {
        let b = if gz { gzip(&b) } else { b };
        let start = out.len();
        out.extend_from_slice(&b);
        (start, out.len())
    };
    let mut header = None;
    if format == Format::Arc {
        let (start, end) = unit(arc_header().into_bytes(), &mut out);
        // Its last line feed is a line end between records (below).
        header = Some((start, end - usize::from(!gz)));
    }
    for r in rs {
        let b = if format == Format::Arc {
            arc_record(r)
        } else {
            warc_record(r)
        };
        let (start, end) = unit(b, &mut out);
        // Uncompressed, a record is whole once its block is: the line ends
        // after it (WARC's CRLF CRLF, ARC's LF) are skipped as the line
        // ends between records are, so a cut among them loses nothing.
        let trailer = match (gz, format) {
            (true, _) => 0,
            (false, Format::Arc) => 1,
            (false, _) => 4,
        };
        spans.push((start, end - trailer));
    }
    (out, spans, header)
}

fn read(bytes: &[u8], format: Format) -> Option<(Vec<Observation>, Vec<RecordError>, u64)> {
    let mut recs = from_reader(Cursor::new(bytes.to_vec()), Some(format)).ok()?;
    let (mut obs, mut errs) = (Vec::new(), Vec::new());
    for r in recs.by_ref() {
        match r {
            Ok(o) => obs.push(o),
            Err(e) => errs.push(e),
        }
    }
    let c = recs.counts();
    assert_eq!(c.records, c.observations + c.skipped + c.bad, "{c:?}");
    assert!(errs.iter().filter(|e| e.fatal).count() <= 1, "{errs:?}");
    Some((obs, errs, c.records))
}

/// What a record that was read whole must give.
fn expect(r: &Rec, o: &Observation, start: usize, gz: bool) -> Result<(), TestCaseError> {
    prop_assert_eq!(&o.url, &format!("http://h/{}", r.n));
    prop_assert_eq!(o.status, Some(r.status));
    let loc =
        (r.location && (300..400).contains(&r.status)).then(|| format!("http://h/to/{}", r.n));
    prop_assert_eq!(o.location.clone(), loc);
    if gz {
        prop_assert_eq!(o.offset as usize, start, "a member's offset");
    } else {
        prop_assert_eq!(o.offset as usize, start);
    }
    Ok(())
}

fn check_cut(format: Format, rs: &[Rec], gz: bool, cut: f64) -> Result<(), TestCaseError> {
    let (bytes, spans, header) = file(format, rs, gz);
    let at = ((bytes.len() as f64) * cut) as usize;
    let cut_bytes = &bytes[..at];
    let Some((obs, errs, _)) = read(cut_bytes, format) else {
        // Too little left to tell the format: refused as a whole.
        return Ok(());
    };
    // Whole records before the cut, each read as written.
    let whole: Vec<(&Rec, usize)> = rs
        .iter()
        .zip(&spans)
        .filter(|(_, &(_, end))| end <= at)
        .map(|(r, &(start, _))| (r, start))
        .collect();
    let want: Vec<_> = whole.iter().filter(|(r, _)| !r.request).collect();
    prop_assert!(
        obs.len() >= want.len(),
        "{} read, {} whole before the cut at {}: {:?}",
        obs.len(),
        want.len(),
        at,
        errs
    );
    for ((r, start), o) in want.iter().zip(&obs) {
        expect(r, o, *start, gz)?;
    }
    // A cut inside a record: reported, and never read as a good one.
    let inside = spans.iter().chain(&header).any(|&(s, e)| s < at && at < e);
    if inside {
        prop_assert_eq!(
            obs.len(),
            want.len(),
            "a cut record was read as good (cut at {} of {}): {:?}",
            at,
            bytes.len(),
            errs
        );
        prop_assert!(!errs.is_empty(), "a record cut at {} was not reported", at);
    } else {
        prop_assert!(errs.is_empty(), "{:?}", errs);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512.max(ProptestConfig::default().cases)))]

    #[test]
    fn warc_cut_anywhere(rs in recs(), gz in any::<bool>(), cut in 0.0f64..=1.0) {
        check_cut(Format::Warc, &rs, gz, cut)?;
    }

    #[test]
    fn arc_cut_anywhere(rs in recs(), gz in any::<bool>(), cut in 0.0f64..=1.0) {
        let rs: Vec<Rec> = rs.into_iter().map(|r| Rec { request: false, ..r }).collect();
        check_cut(Format::Arc, &rs, gz, cut)?;
    }

    /// One record's length made wrong by `delta` bytes: the records before
    /// it are read as written, the damage is reported, and the reader
    /// goes on or stops without panicking.
    #[test]
    fn a_wrong_length_is_reported(
        rs in recs(),
        which in any::<prop::sample::Index>(),
        delta in prop::sample::select(vec![-5i64, -1, 1, 3, 1000]),
        arc in any::<bool>(),
    ) {
        let format = if arc { Format::Arc } else { Format::Warc };
        let rs: Vec<Rec> = if arc {
            rs.into_iter().map(|r| Rec { request: false, ..r }).collect()
        } else {
            rs
        };
        let k = which.index(rs.len());
        let (mut bytes, spans, _) = file(format, &rs, false);
        let (start, end) = spans[k];
        let text = String::from_utf8(bytes[start..end].to_vec()).unwrap();
        let real = if arc {
            rs[k].body + http_head(&Rec { body: 0, ..rs[k].clone() }).len()
        } else {
            text.split("Content-Length: ").nth(1).unwrap().split("\r\n").next().unwrap().parse::<i64>().unwrap() as usize
        };
        let wrong = (real as i64 + delta).max(0) as usize;
        let damaged = if arc {
            let (first, rest) = text.split_once('\n').unwrap();
            let (head, _) = first.rsplit_once(' ').unwrap();
            format!("{head} {wrong}\n{rest}")
        } else {
            text.replacen(&format!("Content-Length: {real}\r\n"), &format!("Content-Length: {wrong}\r\n"), 1)
        };
        bytes.splice(start..end, damaged.into_bytes());
        let Some((obs, errs, _)) = read(&bytes, format) else {
            return Ok(());
        };
        let want: Vec<_> = rs[..k].iter().zip(&spans).filter(|(r, _)| !r.request).collect();
        prop_assert!(obs.len() >= want.len());
        for ((r, &(s, _)), o) in want.iter().zip(&obs) {
            expect(r, o, s, false)?;
        }
        // Nothing is invented: at most the responses written. (A length
        // one or a few bytes short may go unnoticed: the reader skips the
        // line ends between records, WARC 1.1 §4's CRLF CRLF included.)
        prop_assert!(obs.len() <= rs.iter().filter(|r| !r.request).count(), "{:?} {:?}", obs, errs);
    }
}
