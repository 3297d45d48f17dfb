//! CDXJ lines as pywb and Common Crawl write them: `SURTKEY TIMESTAMP
//! {json}`, the JSON holding `url`, `status`, `digest`, `redirect`, `mime`
//! (strings; a number is accepted for `status`). Other keys are ignored.

use serde::Deserialize;

use crate::cdx::parse_status;
use crate::fields::{digest_label, mime_essence, resolve_location, warc_date_to_timestamp};
use crate::line::{next_line_item, Lines};
use crate::source::Text;
use crate::{ErrorKind, Item, Observation, ObservationKind, RecordError, RecordSource};

#[derive(Deserialize)]
struct Json {
    url: Option<String>,
    status: Option<serde_json::Value>,
    digest: Option<String>,
    redirect: Option<String>,
    mime: Option<String>,
}

pub(crate) struct CdxjReader {
    lines: Lines,
}

impl CdxjReader {
    pub(crate) fn new(text: Text) -> Self {
        CdxjReader {
            lines: Lines::new(text),
        }
    }
}

impl RecordSource for CdxjReader {
    fn next_item(&mut self) -> Option<Item> {
        next_line_item(&mut self.lines, parse)
    }
}

fn parse(line: &str, at: u64) -> Result<Option<Observation>, RecordError> {
    let bad = |kind, m: String| RecordError::new(at, kind, m);
    if line.starts_with('!') || line.starts_with('#') {
        return Ok(None); // pywb's `!meta` lines and comments
    }
    let mut parts = line.splitn(3, ' ');
    let (_key, ts, json) = match (parts.next(), parts.next(), parts.next()) {
        (Some(k), Some(t), Some(j)) if j.trim_start().starts_with('{') => (k, t, j),
        _ => {
            return Err(bad(
                ErrorKind::BadField,
                "a CDXJ line is `SURTKEY TIMESTAMP {json}`".to_owned(),
            ))
        }
    };
    let time = warc_date_to_timestamp(ts).ok_or_else(|| {
        bad(
            ErrorKind::BadField,
            format!("timestamp {ts:?} is not YYYYMMDDhhmmss"),
        )
    })?;
    let j: Json = serde_json::from_str(json).map_err(|e| bad(ErrorKind::BadJson, e.to_string()))?;
    let Some(url) = j.url.filter(|u| !u.is_empty()) else {
        return Err(bad(
            ErrorKind::MissingField,
            "no \"url\" in the JSON".to_owned(),
        ));
    };
    let status = match j.status {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) if s == "-" || s.is_empty() => None,
        Some(serde_json::Value::String(s)) => {
            Some(parse_status(&s).map_err(|m| bad(ErrorKind::BadField, m))?)
        }
        Some(serde_json::Value::Number(n)) => {
            Some(parse_status(&n.to_string()).map_err(|m| bad(ErrorKind::BadField, m))?)
        }
        Some(v) => {
            return Err(bad(
                ErrorKind::BadField,
                format!("status {v} is not a string or number"),
            ))
        }
    };
    let revisit = j
        .mime
        .as_deref()
        .is_some_and(|m| m.eq_ignore_ascii_case("warc/revisit"));
    let location_raw = j.redirect.filter(|r| !r.trim().is_empty() && r != "-");
    Ok(Some(Observation {
        kind: if revisit {
            ObservationKind::Revisit
        } else {
            ObservationKind::Response
        },
        location: location_raw
            .as_deref()
            .and_then(|r| resolve_location(&url, r)),
        location_raw,
        url,
        time: Some(time),
        status,
        digest: j.digest.as_deref().and_then(digest_label),
        refers_to: None,
        mime: if revisit {
            None
        } else {
            j.mime.as_deref().and_then(mime_essence)
        },
        offset: at,
        line: None,
    }))
}

#[cfg(test)]
mod tests {
    use crate::{from_reader, ErrorKind, Format, ObservationKind};

    fn read(text: &str) -> Vec<Result<crate::Observation, crate::RecordError>> {
        from_reader(std::io::Cursor::new(text.to_owned()), Some(Format::Cdxj))
            .unwrap()
            .collect()
    }

    #[test]
    fn fields() {
        let out = read(concat!(
            "com,a)/ 20140101000000 {\"url\": \"http://a/x\", \"status\": \"302\", \"redirect\": \"y/\", \"digest\": \"sha1:ABC\", \"mime\": \"text/html\"}\n",
            "com,a)/ 20140101000001 {\"url\": \"http://a/\", \"status\": 200, \"mime\": \"warc/revisit\"}\n",
        ));
        let o = out[0].as_ref().unwrap();
        assert_eq!(o.location.as_deref(), Some("http://a/y/"));
        assert_eq!(o.location_raw.as_deref(), Some("y/"));
        assert_eq!(o.status, Some(302));
        assert_eq!(o.mime.as_deref(), Some("text/html"));
        let r = out[1].as_ref().unwrap();
        assert_eq!(
            (r.kind, r.status, r.mime.as_deref()),
            (ObservationKind::Revisit, Some(200), None)
        );
    }

    #[test]
    fn bad_lines() {
        let out = read("a 20140101000000 {\"url\": \nb 2014 {}\nc 20140101000000 {\"status\": \"200\"}\nd 20140101000000 {\"url\": \"x:\", \"status\": \"abc\"}\nno json\n");
        let kinds: Vec<_> = out.iter().map(|r| r.as_ref().unwrap_err().kind).collect();
        assert_eq!(
            kinds,
            vec![
                ErrorKind::BadJson,
                ErrorKind::BadField,
                ErrorKind::MissingField,
                ErrorKind::BadField,
                ErrorKind::BadField
            ]
        );
    }
}
