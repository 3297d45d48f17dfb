//! Tab-separated evidence lists: redirect logs `from<TAB>status<TAB>to`
//! with an optional fourth column, the time (14 digits or a W3C-DTF date),
//! and digest lists `url<TAB>digest`. Lines starting with `#` are comments.

use crate::cdx::parse_status;
use crate::fields::{digest_label, resolve_location, warc_date_to_timestamp};
use crate::line::{next_line_item, Lines};
use crate::source::Text;
use crate::{ErrorKind, Item, Observation, ObservationKind, RecordError, RecordSource};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TsvKind {
    Redirects,
    Digests,
}

pub(crate) struct TsvReader {
    lines: Lines,
    kind: TsvKind,
}

impl TsvReader {
    pub(crate) fn new(text: Text, kind: TsvKind) -> Self {
        TsvReader {
            lines: Lines::new(text),
            kind,
        }
    }
}

impl RecordSource for TsvReader {
    fn next_item(&mut self) -> Option<Item> {
        let kind = self.kind;
        next_line_item(&mut self.lines, |l, at| parse(l, at, kind))
    }
}

fn parse(line: &str, at: u64, kind: TsvKind) -> Result<Option<Observation>, RecordError> {
    let bad = |k, m: String| RecordError::new(at, k, m);
    if line.starts_with('#') {
        return Ok(None);
    }
    let f: Vec<&str> = line.split('\t').collect();
    let empty = |url: &str| Observation {
        kind: ObservationKind::Digest,
        url: url.to_owned(),
        time: None,
        status: None,
        location: None,
        location_raw: None,
        digest: None,
        refers_to: None,
        mime: None,
        offset: at,
        line: None,
    };
    match kind {
        TsvKind::Digests => {
            if f.len() != 2 {
                return Err(bad(
                    ErrorKind::BadField,
                    format!("{} columns; a digest list has url<TAB>digest", f.len()),
                ));
            }
            if f[0].is_empty() {
                return Err(bad(ErrorKind::MissingField, "no URL".to_owned()));
            }
            let digest = digest_label(f[1])
                .ok_or_else(|| bad(ErrorKind::MissingField, "no digest".to_owned()))?;
            Ok(Some(Observation {
                digest: Some(digest),
                ..empty(f[0])
            }))
        }
        TsvKind::Redirects => {
            if f.len() != 3 && f.len() != 4 {
                return Err(bad(
                    ErrorKind::BadField,
                    format!(
                        "{} columns; a redirect log has from<TAB>status<TAB>to[<TAB>time]",
                        f.len()
                    ),
                ));
            }
            if f[0].is_empty() {
                return Err(bad(ErrorKind::MissingField, "no source URL".to_owned()));
            }
            if f[2].trim().is_empty() {
                return Err(bad(ErrorKind::MissingField, "no target URL".to_owned()));
            }
            let status = parse_status(f[1]).map_err(|m| bad(ErrorKind::BadField, m))?;
            let time = match f.get(3).filter(|t| !t.is_empty()) {
                None => None,
                Some(t) => Some(warc_date_to_timestamp(t).ok_or_else(|| {
                    bad(
                        ErrorKind::BadField,
                        format!("time {t:?} is not YYYYMMDDhhmmss or a W3C-DTF date"),
                    )
                })?),
            };
            Ok(Some(Observation {
                kind: ObservationKind::Redirect,
                time,
                status: Some(status),
                location: resolve_location(f[0], f[2]),
                location_raw: Some(f[2].to_owned()),
                ..empty(f[0])
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{from_reader, ErrorKind, Format, ObservationKind};

    fn read(text: &str, f: Format) -> Vec<Result<crate::Observation, crate::RecordError>> {
        from_reader(std::io::Cursor::new(text.to_owned()), Some(f))
            .unwrap()
            .collect()
    }

    #[test]
    fn redirects() {
        let out = read(
            "# from status to\nhttp://a/b\t301\t/b/\nhttp://a/c\t302\thttps://a/c\t2020-01-02T03:04:05Z\nhttp://a/d\t3xx\t/\nhttp://a/e\t301\n",
            Format::RedirectTsv,
        );
        let o = out[0].as_ref().unwrap();
        assert_eq!(o.kind, ObservationKind::Redirect);
        assert_eq!(
            (o.status, o.location.as_deref()),
            (Some(301), Some("http://a/b/"))
        );
        assert_eq!(o.offset, 17);
        assert_eq!(
            out[1].as_ref().unwrap().time.as_deref(),
            Some("20200102030405")
        );
        assert_eq!(out[2].as_ref().unwrap_err().kind, ErrorKind::BadField);
        assert_eq!(out[2].as_ref().unwrap_err().line, Some(4));
        assert_eq!(out[3].as_ref().unwrap_err().kind, ErrorKind::BadField);
    }

    #[test]
    fn digests() {
        let out = read("http://a/\tABC\nhttp://b/\t\n", Format::DigestTsv);
        let o = out[0].as_ref().unwrap();
        assert_eq!(
            (o.kind, o.digest.as_deref()),
            (ObservationKind::Digest, Some("sha1:ABC"))
        );
        assert_eq!(out[1].as_ref().unwrap_err().kind, ErrorKind::MissingField);
    }
}
