//! ARC 1.0 (the Internet Archive's format before WARC): a `filedesc://`
//! version block, then records of one header line `URL IP-address
//! Archive-date Content-type Archive-length`, `Archive-length` bytes (the
//! HTTP response as received) and a newline. Version 2 header lines (ten
//! fields, length last) are read the same way. Gzip ARC files are one
//! member per record, like WARC.

use std::io::{self, BufRead};

use crate::fields::{mime_essence, resolve_location, warc_date_to_timestamp};
use crate::http::parse_head;
use crate::limits::{MAX_HTTP_HEAD, MAX_RECORD_HEADER};
use crate::line::{read_line, Line};
use crate::source::Units;
use crate::warc::{next_unit, read_block, Framing, Outcome};
use crate::{ErrorKind, Item, Observation, ObservationKind, RecordError, RecordSource};

pub(crate) struct ArcReader {
    units: Units,
    line: Vec<u8>,
    pending: Option<Item>,
}

impl ArcReader {
    pub(crate) fn new(units: Units) -> Self {
        ArcReader {
            units,
            line: Vec::new(),
            pending: None,
        }
    }
}

impl RecordSource for ArcReader {
    fn next_item(&mut self) -> Option<Item> {
        if let Some(p) = self.pending.take() {
            return Some(p);
        }
        next_unit(
            &mut self.units,
            &mut self.line,
            &mut self.pending,
            starts_record,
            read_record,
        )
    }
}

/// The fields of an ARC header line.
struct Header<'a> {
    url: &'a str,
    date: &'a str,
    mime: &'a str,
    len: u64,
}

/// Splits a header line: URL first, date third, content type fourth,
/// length last (v1 has five fields, v2 ten).
fn header(line: &str) -> Result<Header<'_>, String> {
    let f: Vec<&str> = line.split(' ').filter(|s| !s.is_empty()).collect();
    if f.len() != 5 && f.len() != 10 {
        return Err(format!(
            "an ARC header line has 5 (v1) or 10 (v2) fields, not {}",
            f.len()
        ));
    }
    let len_text = f[f.len() - 1];
    let len = len_text
        .parse::<u64>()
        .map_err(|_| format!("Archive-length {len_text:?} is not a number of bytes"))?;
    Ok(Header {
        url: f[0],
        date: f[2],
        mime: f[3],
        len,
    })
}

/// Whether buffered bytes start with a header line that parses (used to
/// find the next record after a bad one).
fn starts_record(buf: &[u8]) -> bool {
    let end = memchr::memchr(b'\n', buf).unwrap_or(buf.len());
    std::str::from_utf8(&buf[..end]).is_ok_and(|l| {
        header(l.trim_end_matches('\r'))
            .is_ok_and(|h| h.url.contains(':') && warc_date_to_timestamp(h.date).is_some())
    })
}

fn read_record(
    r: &mut dyn BufRead,
    at: u64,
    _framing: Framing,
    line: &mut Vec<u8>,
) -> io::Result<Outcome> {
    let bad = |kind, msg: String| RecordError::new(at, kind, msg);
    let (l, _) = read_line(r, line, MAX_RECORD_HEADER)?;
    let text = match l {
        Line::Eof => return Err(crate::warc::short("no ARC header line")),
        Line::TooLong => {
            return Ok(Outcome::Lost(bad(
                ErrorKind::TooLong,
                format!("an ARC header line longer than {MAX_RECORD_HEADER} bytes"),
            )))
        }
        Line::Ok => String::from_utf8_lossy(line).into_owned(),
    };
    let h = match header(&text) {
        Ok(h) => h,
        Err(m) => {
            let shown: String = text.chars().take(60).collect();
            return Ok(Outcome::Lost(bad(
                ErrorKind::NotARecord,
                format!("{m}: {shown:?}"),
            )));
        }
    };
    let url = h.url.to_owned();
    let (date, mime, len) = (h.date.to_owned(), h.mime.to_owned(), h.len);
    let is_desc = url.starts_with("filedesc:");
    read_block(r, len, if is_desc { 0 } else { MAX_HTTP_HEAD }, line)?;
    if is_desc {
        return Ok(Outcome::Item(Item::Skip));
    }
    let Some(time) = warc_date_to_timestamp(&date) else {
        return Ok(Outcome::Item(Item::Err(bad(
            ErrorKind::BadField,
            format!("Archive-date {date:?} is not YYYYMMDDhhmmss"),
        ))));
    };
    let mut o = Observation {
        kind: ObservationKind::Response,
        url,
        time: Some(time),
        status: None,
        location: None,
        location_raw: None,
        digest: None,
        refers_to: None,
        mime: mime_essence(&mime),
        offset: at,
        line: None,
    };
    let is_http = o
        .url
        .get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("http:"))
        || o.url
            .get(..6)
            .is_some_and(|s| s.eq_ignore_ascii_case("https:"));
    if is_http {
        match parse_head(line) {
            Ok(hd) => {
                o.status = Some(hd.status);
                if let Some(raw) = hd.location {
                    o.location = resolve_location(&o.url, &raw);
                    o.location_raw = Some(raw);
                }
                if let Some(m) = hd.content_type.as_deref().and_then(mime_essence) {
                    o.mime = Some(m);
                }
            }
            Err(m) => {
                return Ok(Outcome::Item(Item::Err(bad(
                    ErrorKind::BadHttp,
                    format!("record of {}: {m}", o.url),
                ))))
            }
        }
    }
    Ok(Outcome::Item(Item::Obs(o)))
}

#[cfg(test)]
mod tests {
    use crate::{from_reader, ErrorKind, Format};

    const DESC: &str = "filedesc://x.arc 127.0.0.1 20140216050221 text/plain 12\n1 0 Test\nX\n\n";

    fn rec(url: &str, block: &str) -> String {
        format!(
            "{url} 1.2.3.4 20140216050221 text/html {}\n{block}\n",
            block.len()
        )
    }

    #[test]
    fn records_and_offsets() {
        let a = rec("http://a/", "HTTP/1.1 302 Found\r\nLocation: /b\r\n\r\nxx");
        let text = format!("{DESC}{a}{}", rec("dns:a", "1.2.3.4"));
        let out: Vec<_> = from_reader(std::io::Cursor::new(text), None)
            .unwrap()
            .collect();
        assert_eq!(out.len(), 2);
        let o = out[0].as_ref().unwrap();
        assert_eq!(o.offset, DESC.len() as u64);
        assert_eq!(o.status, Some(302));
        assert_eq!(o.location.as_deref(), Some("http://a/b"));
        assert_eq!(o.time.as_deref(), Some("20140216050221"));
        let d = out[1].as_ref().unwrap();
        assert_eq!((d.url.as_str(), d.status), ("dns:a", None));
    }

    #[test]
    fn bad_lengths_resynchronize() {
        let text = format!(
            "{DESC}http://a/ 1.2.3.4 20140216050221 text/html -1\nHTTP/1.1 200 OK\r\n\r\n\n{}",
            rec("http://b/", "HTTP/1.1 200 OK\r\n\r\n")
        );
        let out: Vec<_> = from_reader(std::io::Cursor::new(text), Some(Format::Arc))
            .unwrap()
            .collect();
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(out[0].as_ref().unwrap_err().kind, ErrorKind::NotARecord);
        assert_eq!(out[1].as_ref().unwrap().url, "http://b/");
    }
}
