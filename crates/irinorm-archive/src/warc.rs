//! WARC 1.0 / 1.1 (ISO 28500; WARC 1.1 §4-§6): a version line, named
//! fields, a blank line, a block of `Content-Length` bytes, two CRLFs.
//! `response` and `revisit` records give status and `Location` from the
//! HTTP head of their block; `resource` records give content digests;
//! `request`, `warcinfo`, `metadata`, `conversion` and `continuation`
//! records are skipped. Blocks are skipped by length, never decoded.

use std::io::{self, BufRead, Read};

use crate::fields::{digest_label, mime_essence, resolve_location, target_uri};
use crate::http::parse_head;
use crate::limits::{MAX_HTTP_HEAD, MAX_RECORD_HEADER};
use crate::line::{read_line, Line};
use crate::source::{finish_member, io_error, next_member, Units};
use crate::{ErrorKind, Item, Observation, ObservationKind, RecordError, RecordSource};

/// Whether the record is read from a stream (plain/zstd) or from its own
/// gzip member (where the member's end is the record's end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framing {
    Stream,
    Member,
}

/// What reading a record gave, and whether the reader can go on.
pub(crate) enum Outcome {
    Item(Item),
    /// A bad record whose end is unknown (no usable length): in a stream,
    /// resynchronize on the next record start.
    Lost(RecordError),
}

pub(crate) struct WarcReader {
    units: Units,
    line: Vec<u8>,
    pending: Option<Item>,
}

impl WarcReader {
    pub(crate) fn new(units: Units) -> Self {
        WarcReader {
            units,
            line: Vec::new(),
            pending: None,
        }
    }
}

impl RecordSource for WarcReader {
    fn next_item(&mut self) -> Option<Item> {
        if let Some(p) = self.pending.take() {
            return Some(p);
        }
        next_unit(
            &mut self.units,
            &mut self.line,
            &mut self.pending,
            |b| b.starts_with(b"WARC/"),
            |r, off, fr, l| read_record(r, off, fr, l),
        )
    }
}

/// The framing loop shared by WARC and ARC: skips line ends between
/// records, reads one record with `read`, and checks that a gzip member
/// held exactly one record. `is_start` tells a record's first bytes when
/// resynchronizing a stream.
pub(crate) fn next_unit(
    units: &mut Units,
    line: &mut Vec<u8>,
    pending: &mut Option<Item>,
    is_start: fn(&[u8]) -> bool,
    read: impl Fn(&mut dyn BufRead, u64, Framing, &mut Vec<u8>) -> io::Result<Outcome>,
) -> Option<Item> {
    match units {
        Units::Stream(r) => {
            if let Err(e) = skip_line_ends(r) {
                return Some(Item::Err(io_error(r.pos, &e, true)));
            }
            let at = r.pos;
            if r.fill_buf().map(<[u8]>::is_empty).unwrap_or(false) {
                return None;
            }
            match read(r, at, Framing::Stream, line) {
                Ok(Outcome::Item(i)) => Some(i),
                Ok(Outcome::Lost(e)) => {
                    // Skip to the next line that starts a record.
                    if let Err(e) = resync(r, line, is_start) {
                        *pending = Some(Item::Err(io_error(r.pos, &e, true)));
                    }
                    Some(Item::Err(e))
                }
                Err(e) => Some(Item::Err(stream_error(at, &e))),
            }
        }
        Units::Members(slot) => {
            let c = slot.take()?;
            let (at, mut m) = match next_member(c) {
                Ok(Some(x)) => x,
                Ok(None) => return None,
                Err(e) => return Some(Item::Err(e)),
            };
            if let Err(e) = skip_line_ends(&mut m) {
                return Some(Item::Err(io_error(at, &e, true)));
            }
            let item = match read(&mut m, at, Framing::Member, line) {
                Ok(Outcome::Item(i)) => i,
                Ok(Outcome::Lost(e)) => Item::Err(e),
                Err(e) => return Some(Item::Err(member_error(at, &e))),
            };
            match finish_member(m) {
                Ok((c, extra)) => {
                    if extra && !matches!(item, Item::Err(_)) {
                        *pending = Some(Item::Err(RecordError::fatal(
                            at,
                            ErrorKind::Framing,
                            "the gzip member holds more than one record: the file must be one \
                             gzip member per record (WARC 1.1 Annex D.2) for record offsets to \
                             mean anything; decompress it and read it uncompressed",
                        )));
                    } else {
                        *slot = Some(c);
                    }
                }
                // The member does not end as gzip says (cut in its
                // trailer, or a CRC that does not match: RFC 1952 §2.3.1):
                // what was read from it is not its record as written. One
                // record, one outcome: its error, fatal (round 11: a file
                // cut in the last member's trailer gave the record as good
                // and then an error at the same offset, counted as two
                // records).
                Err(e) => return Some(Item::Err(io_error(at, &e, true))),
            }
            Some(item)
        }
    }
}

/// An I/O error while reading a record from a stream: fatal (the end of
/// the file inside a record is truncation).
fn stream_error(at: u64, e: &io::Error) -> RecordError {
    let mut r = io_error(at, e, true);
    if e.kind() == io::ErrorKind::UnexpectedEof {
        r.message = format!("the file ends inside the record starting here ({e})");
    }
    r
}

/// An I/O error inside a gzip member: our own `UnexpectedEof` (marked
/// [`SHORT`]) means the member ended before the record did, which is a
/// framing error; flate2's means the file is truncated.
fn member_error(at: u64, e: &io::Error) -> RecordError {
    if e.kind() == io::ErrorKind::UnexpectedEof && e.to_string().starts_with(SHORT) {
        return RecordError::fatal(
            at,
            ErrorKind::Framing,
            format!(
                "{e}: the record runs past the end of its gzip member (the file is not one gzip \
                 member per record, WARC 1.1 Annex D.2)"
            ),
        );
    }
    io_error(at, e, true)
}

/// The message prefix of a clean end of input inside a record.
pub(crate) const SHORT: &str = "input ends inside the record";

pub(crate) fn short(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, format!("{SHORT} ({what})"))
}

/// Consumes `\r` and `\n` bytes (the two CRLFs after each WARC record, the
/// newline after each ARC record).
pub(crate) fn skip_line_ends<R: BufRead + ?Sized>(r: &mut R) -> io::Result<()> {
    loop {
        let buf = r.fill_buf()?;
        let n = buf
            .iter()
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count();
        if n == 0 {
            return Ok(());
        }
        r.consume(n);
    }
}

/// Skips lines until one that `is_start` accepts (left unread).
fn resync<R: BufRead + ?Sized>(
    r: &mut R,
    line: &mut Vec<u8>,
    is_start: fn(&[u8]) -> bool,
) -> io::Result<()> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() || is_start(buf) {
            return Ok(());
        }
        read_line(r, line, 0)?;
    }
}

/// Reads `len` block bytes, keeping the first `keep` of them. A clean end
/// of input first is a [`short`] error.
pub(crate) fn read_block<R: BufRead + ?Sized>(
    r: &mut R,
    len: u64,
    keep: usize,
    head: &mut Vec<u8>,
) -> io::Result<()> {
    head.clear();
    let keep = (keep as u64).min(len);
    let got = Read::take(&mut *r, keep).read_to_end(head)? as u64;
    if got < keep {
        return Err(short("block shorter than its length"));
    }
    let rest = len - keep;
    let skipped = io::copy(&mut Read::take(&mut *r, rest), &mut io::sink())?;
    if skipped < rest {
        return Err(short("block shorter than its length"));
    }
    Ok(())
}

/// The WARC named fields this reader uses.
#[derive(Default)]
struct Fields {
    warc_type: Option<String>,
    target: Option<String>,
    date: Option<String>,
    payload_digest: Option<String>,
    block_digest: Option<String>,
    refers_to: Option<String>,
    content_type: Option<String>,
    content_length: Option<String>,
}

fn read_record(
    r: &mut dyn BufRead,
    at: u64,
    framing: Framing,
    line: &mut Vec<u8>,
) -> io::Result<Outcome> {
    let bad = |kind, msg: String| RecordError::new(at, kind, msg);
    // Version line (WARC 1.1 §4: "WARC/1.1" CRLF).
    let (l, _) = read_line(r, line, MAX_RECORD_HEADER)?;
    if l != Line::Ok || !line.starts_with(b"WARC/") {
        let shown: String = String::from_utf8_lossy(&line[..line.len().min(40)]).into_owned();
        let msg = format!("a WARC record starts with \"WARC/1.x\", not {shown:?}");
        if framing == Framing::Member {
            // The next member is a fresh start.
            return Ok(Outcome::Item(Item::Err(bad(ErrorKind::NotARecord, msg))));
        }
        // In a stream, the previous record's Content-Length did not lead
        // here: every later offset would be a guess.
        return Ok(Outcome::Item(Item::Err(RecordError::fatal(
            at,
            ErrorKind::NotARecord,
            format!(
                "{msg}: the file is not WARC, or the record before this one is corrupt \
                 (its Content-Length does not end where a record starts)"
            ),
        ))));
    }
    // Named fields up to the blank line; only the ones used are kept, and
    // the whole header is bounded.
    let mut f = Fields::default();
    let mut header_bytes = line.len() as u64;
    let mut too_long = false;
    loop {
        let (l, n) = read_line(r, line, MAX_RECORD_HEADER)?;
        header_bytes += n;
        match l {
            Line::Eof => return Err(short("end of input inside the WARC header")),
            Line::TooLong => too_long = true,
            Line::Ok if line.is_empty() => break,
            Line::Ok => {
                if header_bytes > MAX_RECORD_HEADER as u64 {
                    too_long = true;
                }
                let text = String::from_utf8_lossy(line);
                let Some((name, value)) = text.split_once(':') else {
                    continue; // a continuation or malformed line: not a field we use
                };
                let value = value.trim().to_owned();
                let slot = match name.trim().to_ascii_lowercase().as_str() {
                    "warc-type" => &mut f.warc_type,
                    "warc-target-uri" => &mut f.target,
                    "warc-date" => &mut f.date,
                    "warc-payload-digest" => &mut f.payload_digest,
                    "warc-block-digest" => &mut f.block_digest,
                    "warc-refers-to-target-uri" => &mut f.refers_to,
                    "content-type" => &mut f.content_type,
                    "content-length" => &mut f.content_length,
                    _ => continue,
                };
                if slot.is_none() {
                    *slot = Some(value);
                }
            }
        }
    }
    let len_text = f.content_length.as_deref().unwrap_or("");
    let Ok(len) = len_text.parse::<u64>() else {
        let e = bad(
            if f.content_length.is_none() {
                ErrorKind::MissingField
            } else {
                ErrorKind::BadField
            },
            format!("Content-Length {len_text:?} is not a number of bytes (WARC 1.1 §5.3)"),
        );
        return Ok(Outcome::Lost(e));
    };
    let kind = f.warc_type.as_deref().unwrap_or("").to_ascii_lowercase();
    let wants_head = matches!(kind.as_str(), "response" | "revisit");
    let is_evidence = wants_head || kind == "resource";
    read_block(
        r,
        len,
        if wants_head && !too_long {
            MAX_HTTP_HEAD
        } else {
            0
        },
        line,
    )?;
    if too_long {
        return Ok(Outcome::Item(Item::Err(bad(
            ErrorKind::TooLong,
            format!(
                "the WARC header is longer than {MAX_RECORD_HEADER} bytes (record skipped by its \
                 Content-Length)"
            ),
        ))));
    }
    if !is_evidence {
        return Ok(Outcome::Item(Item::Skip));
    }
    let Some(url) = f
        .target
        .as_deref()
        .map(target_uri)
        .filter(|u| !u.is_empty())
    else {
        return Ok(Outcome::Item(Item::Err(bad(
            ErrorKind::MissingField,
            format!("a {kind} record without WARC-Target-URI (WARC 1.1 §5.7)"),
        ))));
    };
    let mut o = Observation {
        kind: if kind == "revisit" {
            ObservationKind::Revisit
        } else {
            ObservationKind::Response
        },
        url: url.to_owned(),
        time: f.date.as_deref().and_then(crate::warc_date_to_timestamp),
        status: None,
        location: None,
        location_raw: None,
        digest: f.payload_digest.as_deref().and_then(digest_label),
        refers_to: f.refers_to.as_deref().map(|t| target_uri(t).to_owned()),
        mime: None,
        offset: at,
        line: None,
    };
    let is_http = f.content_type.as_deref().is_some_and(|t| {
        t.trim()
            .to_ascii_lowercase()
            .starts_with("application/http")
    });
    if kind == "resource" {
        // A resource block is its payload (WARC 1.1 §6.4).
        if o.digest.is_none() {
            o.digest = f.block_digest.as_deref().and_then(digest_label);
        }
        o.mime = f.content_type.as_deref().and_then(mime_essence);
    } else if is_http && !line.is_empty() {
        match parse_head(line) {
            Ok(h) => {
                o.status = Some(h.status);
                if let Some(raw) = h.location {
                    o.location = resolve_location(&o.url, &raw);
                    o.location_raw = Some(raw);
                }
                if o.kind == ObservationKind::Response {
                    o.mime = h.content_type.as_deref().and_then(mime_essence);
                }
            }
            Err(m) if o.kind == ObservationKind::Response => {
                return Ok(Outcome::Item(Item::Err(bad(
                    ErrorKind::BadHttp,
                    format!("response to {}: {m}", o.url),
                ))))
            }
            // A revisit may carry no usable head: its digest is the evidence.
            Err(_) => {}
        }
    } else if o.kind == ObservationKind::Response {
        o.mime = f.content_type.as_deref().and_then(mime_essence);
    }
    Ok(Outcome::Item(Item::Obs(o)))
}

#[cfg(test)]
mod tests {
    use crate::{from_reader, ErrorKind, Format, ObservationKind, RecordError};

    fn record(kind: &str, uri: &str, extra: &str, block: &str) -> String {
        format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nWARC-Date: \
             2020-01-02T03:04:05Z\r\n{extra}Content-Length: {}\r\n\r\n{block}\r\n\r\n",
            block.len()
        )
    }

    fn read(bytes: Vec<u8>) -> Vec<Result<crate::Observation, RecordError>> {
        from_reader(std::io::Cursor::new(bytes), Some(Format::Warc))
            .unwrap()
            .collect()
    }

    fn gz(members: &[String]) -> Vec<u8> {
        use std::io::Write;
        let mut out = Vec::new();
        for m in members {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(m.as_bytes()).unwrap();
            out.extend(e.finish().unwrap());
        }
        out
    }

    #[test]
    fn response_redirect_relative_location() {
        let recs = [
            record("warcinfo", "", "", "software: x\r\n"),
            record(
                "response",
                "http://a.example/b/c",
                "Content-Type: application/http; msgtype=response\r\nWARC-Payload-Digest: sha1:AAAA\r\n",
                "HTTP/1.1 301 Moved\r\nLocation: d/\r\n\r\nbody",
            ),
        ];
        let text = recs.concat();
        let out = read(text.into_bytes());
        assert_eq!(out.len(), 1);
        let o = out[0].as_ref().unwrap();
        assert_eq!(o.kind, ObservationKind::Response);
        assert_eq!(o.status, Some(301));
        assert_eq!(o.location.as_deref(), Some("http://a.example/b/d/"));
        assert_eq!(o.location_raw.as_deref(), Some("d/"));
        assert_eq!(o.time.as_deref(), Some("20200102030405"));
        assert_eq!(o.digest.as_deref(), Some("sha1:AAAA"));
        assert_eq!(o.offset, recs[0].len() as u64);
    }

    /// Round 11: the last member cut in its gzip trailer (the record's
    /// bytes all there, the CRC and length missing: RFC 1952 §2.3) is one
    /// record with one outcome, its fatal error, not the record read as
    /// good and then an error at the same offset (two records counted).
    #[test]
    fn a_member_cut_in_its_trailer_is_its_records_error() {
        let recs = [
            record(
                "response",
                "http://a/",
                "Content-Type: application/http; msgtype=response\r\n",
                "HTTP/1.1 200 OK\r\n\r\n",
            ),
            record(
                "response",
                "http://b/",
                "Content-Type: application/http; msgtype=response\r\n",
                "HTTP/1.1 200 OK\r\n\r\n",
            ),
        ];
        let mut bytes = gz(&recs);
        let first = gz(&recs[..1]).len();
        bytes.truncate(bytes.len() - 3);
        let mut r = from_reader(std::io::Cursor::new(bytes), Some(Format::Warc)).unwrap();
        let out: Vec<_> = r.by_ref().collect();
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(out[0].as_ref().unwrap().url, "http://a/");
        let e = out[1].as_ref().unwrap_err();
        assert!(e.fatal && e.kind == ErrorKind::Truncated, "{e}");
        assert_eq!(e.offset, first as u64);
        let c = r.counts();
        assert_eq!((c.records, c.observations, c.bad), (2, 1, 1));
    }

    #[test]
    fn gzip_offsets_are_member_starts() {
        let recs = [
            record("request", "http://a/", "", "GET / HTTP/1.1\r\n\r\n"),
            record(
                "revisit",
                "http://b/",
                "Content-Type: application/http\r\nWARC-Refers-To-Target-URI: <http://a/>\r\nWARC-Payload-Digest: sha1:X\r\n",
                "HTTP/1.1 200 OK\r\n",
            ),
        ];
        let bytes = gz(&recs);
        let first_len = gz(&recs[..1]).len() as u64;
        let out = read(bytes);
        assert_eq!(out.len(), 1);
        let o = out[0].as_ref().unwrap();
        assert_eq!(o.offset, first_len);
        assert_eq!(o.kind, ObservationKind::Revisit);
        assert_eq!(o.refers_to.as_deref(), Some("http://a/"));
        assert_eq!(o.status, Some(200));
    }

    #[test]
    fn two_records_in_one_member_is_fatal_after_the_first() {
        let r = record("resource", "http://a/", "", "x");
        let bytes = gz(&[format!("{r}{r}"), r.clone()]);
        let out = read(bytes);
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[0].is_ok());
        let e = out[1].as_ref().unwrap_err();
        assert!(e.fatal && e.kind == ErrorKind::Framing, "{e}");
    }

    #[test]
    fn a_record_past_its_member_is_fatal() {
        let r = record("resource", "http://a/", "", "xyz");
        let (a, b) = r.split_at(r.len() - 6);
        let out = read(gz(&[a.to_owned(), b.to_owned()]));
        let e = out[0].as_ref().unwrap_err();
        assert!(e.fatal && e.kind == ErrorKind::Framing, "{e}");
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn truncated_plain_and_gzip() {
        let r = record("resource", "http://a/", "", "xyzxyz");
        let cut = r[..r.len() - 8].to_owned();
        let out = read(format!("{r}{cut}").into_bytes());
        assert_eq!(out.len(), 2);
        let e = out[1].as_ref().unwrap_err();
        assert!(e.fatal && e.kind == ErrorKind::Truncated, "{e}");
        assert_eq!(e.offset, r.len() as u64);
        // A gzip file cut inside its last member: the error is fatal and
        // last (the record itself may have been decoded whole before the
        // missing trailer was noticed).
        for cut in [3, 10, 30] {
            let mut g = gz(&[r.clone(), r.clone()]);
            g.truncate(g.len() - cut);
            let out = read(g);
            let e = out.last().unwrap().as_ref().unwrap_err();
            assert!(e.fatal && e.kind == ErrorKind::Truncated, "{cut}: {e}");
            assert!(out[0].is_ok());
        }
    }

    #[test]
    fn bad_records_are_reported_and_the_file_goes_on() {
        let good = record("resource", "http://a/", "", "x");
        let no_len =
            "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://z/\r\n\r\nabc\r\n\r\n";
        let no_uri = "WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
        let bad_http = record(
            "response",
            "http://b/",
            "Content-Type: application/http\r\n",
            "<html>",
        );
        let text = format!("{good}{no_len}{good}{no_uri}{bad_http}{good}");
        let out = read(text.clone().into_bytes());
        let kinds: Vec<_> = out
            .iter()
            .map(|r| r.as_ref().map(|o| o.url.clone()).map_err(|e| e.kind))
            .collect();
        assert_eq!(
            kinds,
            vec![
                Ok("http://a/".to_owned()),
                Err(ErrorKind::MissingField),
                Ok("http://a/".to_owned()),
                Err(ErrorKind::MissingField),
                Err(ErrorKind::BadHttp),
                Ok("http://a/".to_owned()),
            ]
        );
        assert!(out
            .iter()
            .all(|r| r.as_ref().map_or_else(|e| !e.fatal, |_| true)));
        // Offsets point at each record.
        let e = out[1].as_ref().unwrap_err();
        assert_eq!(e.offset, good.len() as u64);
        assert!(!e.fatal);
        // The same in gzip members.
        let out = read(gz(&[
            good.clone(),
            no_len.to_owned(),
            no_uri.to_owned(),
            "garbage".to_owned(),
            good.clone(),
        ]));
        let oks = out.iter().filter(|r| r.is_ok()).count();
        assert_eq!((out.len(), oks), (5, 2), "{out:?}");
    }

    #[test]
    fn junk_where_a_record_must_start_is_fatal_in_a_stream() {
        let good = record("resource", "http://a/", "", "x");
        let out = read(format!("{good}\0\0\r\n{good}").into_bytes());
        assert_eq!(out.len(), 2);
        let e = out[1].as_ref().unwrap_err();
        assert!(e.fatal && e.kind == ErrorKind::NotARecord, "{e}");
        assert_eq!(e.offset, good.len() as u64);
    }

    #[test]
    fn zstd_warc_offsets_are_in_the_decompressed_stream() {
        let a = record("resource", "http://a/", "", "x");
        let b = record("resource", "http://b/", "", "yy");
        let z = zstd::encode_all(format!("{a}{b}").as_bytes(), 3).unwrap();
        let out = read(z);
        let offsets: Vec<u64> = out.iter().map(|r| r.as_ref().unwrap().offset).collect();
        assert_eq!(offsets, vec![0, a.len() as u64]);
    }

    #[test]
    fn a_huge_header_is_a_bad_record_not_a_buffer() {
        let big = format!(
            "X-Big: {}\r\n",
            "a".repeat(crate::limits::MAX_RECORD_HEADER + 10)
        );
        let r = record("resource", "http://a/", &big, "x");
        let good = record("resource", "http://b/", "", "x");
        let out = read(format!("{r}{good}").into_bytes());
        assert_eq!(out[0].as_ref().unwrap_err().kind, ErrorKind::TooLong);
        assert_eq!(out[1].as_ref().unwrap().url, "http://b/");
    }
}
