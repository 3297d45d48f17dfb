//! CDX index lines (the Internet Archive's format, as pywb and wayback
//! write it): space-separated fields named by the letters of a ` CDX`
//! header line, e.g. ` CDX N b a m s k r M S V g` (massaged URL, date,
//! original URL, mime, status, digest, redirect, meta tags, compressed
//! length, compressed offset, file name). Without a header the 11-field
//! order above is assumed, or its 9-field form `N b a m s k r V g`.

use crate::fields::{digest_label, mime_essence, resolve_location, warc_date_to_timestamp};
use crate::line::{next_line_item, Lines};
use crate::source::Text;
use crate::{ErrorKind, Item, Observation, ObservationKind, RecordError, RecordSource};

const CDX11: &[u8] = b"NbamskrMSVg";
const CDX9: &[u8] = b"NbamskrVg";

/// Where each field we use is (column index).
#[derive(Debug, Clone, Copy)]
struct Layout {
    width: usize,
    url: usize,
    time: Option<usize>,
    mime: Option<usize>,
    status: Option<usize>,
    digest: Option<usize>,
    redirect: Option<usize>,
}

impl Layout {
    fn of(letters: &[u8]) -> Result<Layout, String> {
        let at = |c: u8| letters.iter().position(|&l| l == c);
        Ok(Layout {
            width: letters.len(),
            url: at(b'a').ok_or("the CDX header names no original-URL field `a`")?,
            time: at(b'b'),
            mime: at(b'm'),
            status: at(b's'),
            digest: at(b'k'),
            redirect: at(b'r'),
        })
    }
}

pub(crate) struct CdxReader {
    lines: Lines,
    layout: Option<Layout>,
}

impl CdxReader {
    pub(crate) fn new(text: Text) -> Self {
        CdxReader {
            lines: Lines::new(text),
            layout: None,
        }
    }
}

impl RecordSource for CdxReader {
    fn next_item(&mut self) -> Option<Item> {
        let layout = &mut self.layout;
        next_line_item(&mut self.lines, |line, at| parse(line, at, layout))
    }
}

fn parse(
    line: &str,
    at: u64,
    layout: &mut Option<Layout>,
) -> Result<Option<Observation>, RecordError> {
    let bad = |kind, m: String| RecordError::new(at, kind, m);
    if let Some(h) = line
        .strip_prefix(" CDX ")
        .or_else(|| line.strip_prefix("CDX "))
    {
        let letters: Vec<u8> = h.split_ascii_whitespace().flat_map(|s| s.bytes()).collect();
        *layout = Some(Layout::of(&letters).map_err(|m| bad(ErrorKind::BadField, m))?);
        return Ok(None);
    }
    let fields: Vec<&str> = line.split(' ').collect();
    let l = match *layout {
        Some(l) => l,
        None => match fields.len() {
            11 => Layout::of(CDX11).expect("has a"),
            9 => Layout::of(CDX9).expect("has a"),
            n => {
                return Err(bad(
                    ErrorKind::BadField,
                    format!("{n} fields without a CDX header (11 or 9 expected)"),
                ))
            }
        },
    };
    if fields.len() != l.width {
        return Err(bad(
            ErrorKind::BadField,
            format!("{} fields, the CDX header names {}", fields.len(), l.width),
        ));
    }
    let get = |i: Option<usize>| i.map(|i| fields[i]).filter(|v| *v != "-" && !v.is_empty());
    let url = fields[l.url];
    if url.is_empty() || url == "-" {
        return Err(bad(ErrorKind::MissingField, "no original URL".to_owned()));
    }
    let time = match get(l.time) {
        None => None,
        Some(t) => Some(warc_date_to_timestamp(t).ok_or_else(|| {
            bad(
                ErrorKind::BadField,
                format!("timestamp {t:?} is not YYYYMMDDhhmmss"),
            )
        })?),
    };
    let status = get(l.status)
        .map(|s| parse_status(s).map_err(|m| bad(ErrorKind::BadField, m)))
        .transpose()?;
    let mime = get(l.mime);
    let revisit = mime.is_some_and(|m| m.eq_ignore_ascii_case("warc/revisit"));
    let location_raw = get(l.redirect).map(str::to_owned);
    Ok(Some(Observation {
        kind: if revisit {
            ObservationKind::Revisit
        } else {
            ObservationKind::Response
        },
        url: url.to_owned(),
        time,
        status,
        location: location_raw
            .as_deref()
            .and_then(|r| resolve_location(url, r)),
        location_raw,
        digest: get(l.digest).and_then(digest_label),
        refers_to: None,
        mime: if revisit {
            None
        } else {
            mime.and_then(mime_essence)
        },
        offset: at,
        line: None,
    }))
}

/// An HTTP status code: three digits (RFC 9110 §15).
pub(crate) fn parse_status(s: &str) -> Result<u16, String> {
    match s.parse::<u16>() {
        Ok(v) if s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit()) && v >= 100 => Ok(v),
        _ => Err(format!("status {s:?} is not a 3-digit HTTP status")),
    }
}

#[cfg(test)]
mod tests {
    use crate::{from_reader, ErrorKind, Format, ObservationKind};

    fn read(text: &str) -> Vec<Result<crate::Observation, crate::RecordError>> {
        from_reader(std::io::Cursor::new(text.to_owned()), Some(Format::Cdx))
            .unwrap()
            .collect()
    }

    #[test]
    fn header_orders() {
        let a = read(" CDX N b a m s k r M S V g\ncom,a)/ 20140101000000 http://a/ text/html 301 ABC /b - 1 2 f\n");
        let o = a[0].as_ref().unwrap();
        assert_eq!(
            (o.status, o.location.as_deref()),
            (Some(301), Some("http://a/b"))
        );
        assert_eq!(o.digest.as_deref(), Some("sha1:ABC"));
        assert_eq!(o.offset, 27);
        // Another order, and a header with spaces between letters.
        let b = read("CDX a b s k\nhttp://a/ 20140101000000 200 ABC\n");
        let o = b[0].as_ref().unwrap();
        assert_eq!(
            (o.url.as_str(), o.status, o.mime.as_deref()),
            ("http://a/", Some(200), None)
        );
        // No header: the 11-field order, or 9.
        let c = read("com,a)/ 20140101000000 http://a/ warc/revisit - ABC - - 1 2 f\ncom,a)/ 20140101000000 http://a/ text/html 200 ABC - 2 f\n");
        assert_eq!(c[0].as_ref().unwrap().kind, ObservationKind::Revisit);
        assert_eq!(c[1].as_ref().unwrap().status, Some(200));
    }

    #[test]
    fn an_over_long_line_is_a_bad_line_and_the_next_is_read() {
        let long = "x".repeat(crate::limits::MAX_LINE + 1);
        let t = format!("{long}\ncom,a)/ 20140101000000 http://a/ text/html 200 ABC - - 1 2 f\n");
        let out = read(&t);
        let e = out[0].as_ref().unwrap_err();
        assert_eq!((e.kind, e.line, e.offset), (ErrorKind::TooLong, Some(1), 0));
        let o = out[1].as_ref().unwrap();
        assert_eq!(o.offset, long.len() as u64 + 1);
    }

    #[test]
    fn bad_lines_are_reported_with_line_and_offset() {
        let t = " CDX N b a m s k r M S V g\n\nx 2014 http://a/ - - - - - - - -\nx 20140101000000 http://a/ - 2000 - - - - - -\nshort line\nx 20140101000000 http://a/ - 200 - - - - - -\n";
        let out = read(t);
        let errs: Vec<_> = out
            .iter()
            .filter_map(|r| r.as_ref().err())
            .map(|e| (e.line, e.kind))
            .collect();
        assert_eq!(
            errs,
            vec![
                (Some(3), ErrorKind::BadField),
                (Some(4), ErrorKind::BadField),
                (Some(5), ErrorKind::BadField)
            ]
        );
        assert_eq!(out.len(), 4);
        assert_eq!(
            out[3].as_ref().unwrap().offset,
            t.rfind("x 2014").unwrap() as u64
        );
    }
}
