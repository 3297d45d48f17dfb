//! The HTTP head at the start of a WARC `response`/`revisit` block or an
//! ARC record: status code, `Location`, `Content-Type` (RFC 9112 §4,
//! RFC 9110 §10.2.2). Parsed with `httparse`, leniently: archives hold
//! what servers sent, not what they should have sent.

use crate::limits::MAX_HTTP_HEADERS;

/// What an HTTP response head says that matters here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HttpHead {
    pub(crate) status: u16,
    pub(crate) location: Option<String>,
    pub(crate) content_type: Option<String>,
}

/// Parses the head at the start of `block` (bytes after the head are
/// ignored). A head cut short (a revisit block that ends without the blank
/// line, or a head longer than the bytes read) is parsed as far as it goes.
pub(crate) fn parse_head(block: &[u8]) -> Result<HttpHead, String> {
    match parse_with_httparse(block) {
        Ok(Some(h)) => return Ok(h),
        Ok(None) => {
            // Partial: close the head and parse again.
            let mut closed = block.to_vec();
            while closed.last().is_some_and(|&b| b == b'\r' || b == b'\n') {
                closed.pop();
            }
            closed.extend_from_slice(b"\r\n\r\n");
            if let Ok(Some(h)) = parse_with_httparse(&closed) {
                return Ok(h);
            }
        }
        Err(_) => {}
    }
    parse_by_lines(block)
}

fn parse_with_httparse(block: &[u8]) -> Result<Option<HttpHead>, httparse::Error> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HTTP_HEADERS];
    let mut resp = httparse::Response::new(&mut headers);
    let status = httparse::ParserConfig::default()
        .allow_spaces_after_header_name_in_responses(true)
        .allow_obsolete_multiline_headers_in_responses(true)
        .allow_multiple_spaces_in_response_status_delimiters(true)
        .ignore_invalid_headers_in_responses(true)
        .parse_response(&mut resp, block)?;
    if status.is_partial() {
        return Ok(None);
    }
    let Some(code) = resp.code else {
        return Ok(None);
    };
    let find = |name: &str| {
        resp.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value).trim().to_owned())
    };
    Ok(Some(HttpHead {
        status: code,
        location: find("location"),
        content_type: find("content-type"),
    }))
}

/// The fallback when `httparse` rejects the head (a bad header line, a
/// status line without reason on some old servers): the status line must
/// be `HTTP/x.y NNN`, header lines are `name: value`, anything else is
/// skipped.
fn parse_by_lines(block: &[u8]) -> Result<HttpHead, String> {
    let end = memchr::memmem::find(block, b"\r\n\r\n")
        .or_else(|| memchr::memmem::find(block, b"\n\n"))
        .unwrap_or(block.len());
    let text = String::from_utf8_lossy(&block[..end]);
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("").trim();
    let mut parts = first.split_ascii_whitespace();
    let proto = parts.next().unwrap_or("");
    if !proto.starts_with("HTTP/") {
        let shown: String = first.chars().take(40).collect();
        return Err(format!("no HTTP status line (starts with {shown:?})"));
    }
    let code = parts.next().unwrap_or("");
    let status = match code.parse::<u16>() {
        Ok(s) if code.len() == 3 && (100..=999).contains(&s) => s,
        _ => return Err(format!("bad HTTP status code {code:?}")),
    };
    let mut head = HttpHead {
        status,
        location: None,
        content_type: None,
    };
    for l in lines {
        if let Some((n, v)) = l.split_once(':') {
            let n = n.trim();
            if head.location.is_none() && n.eq_ignore_ascii_case("location") {
                head.location = Some(v.trim().to_owned());
            } else if head.content_type.is_none() && n.eq_ignore_ascii_case("content-type") {
                head.content_type = Some(v.trim().to_owned());
            }
        }
    }
    Ok(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_head() {
        let h = parse_head(
            b"HTTP/1.1 302 Found\r\nLocation: /a/\r\nContent-Type: text/html\r\n\r\nbody",
        )
        .unwrap();
        assert_eq!(h.status, 302);
        assert_eq!(h.location.as_deref(), Some("/a/"));
        assert_eq!(h.content_type.as_deref(), Some("text/html"));
    }

    #[test]
    fn head_without_blank_line() {
        let h = parse_head(b"HTTP/1.0 301 Moved\r\nlocation: http://x/\r\n").unwrap();
        assert_eq!((h.status, h.location.as_deref()), (301, Some("http://x/")));
        let h = parse_head(b"HTTP/1.1 200 OK").unwrap();
        assert_eq!(h.status, 200);
    }

    #[test]
    fn lenient_heads() {
        // A header name with a space before the colon, a bad header line.
        let h = parse_head(b"HTTP/1.1 301 OK\r\nLocation : /x\r\n\x01bad\r\n\r\n").unwrap();
        assert_eq!((h.status, h.location.as_deref()), (301, Some("/x")));
        // No reason phrase.
        assert_eq!(parse_head(b"HTTP/1.1 200\r\n\r\n").unwrap().status, 200);
    }

    #[test]
    fn not_http() {
        assert!(parse_head(b"<!doctype html>").is_err());
        assert!(parse_head(b"HTTP/1.1 abc\r\n\r\n").is_err());
        assert!(parse_head(b"").is_err());
    }
}
