//! Telling the format from the first (decompressed) bytes.

use crate::Format;

/// The format of a crawl file from its first decompressed bytes: `WARC/`
/// (WARC 1.1 §4), `filedesc://` (ARC), a ` CDX` header, `SURT TIMESTAMP
/// {` (CDXJ), a headerless 9- or 11-field CDX line, or tab-separated
/// `from status to [time]` (redirect log) / `url digest` (digest list).
/// Comment lines (`#`) are passed over. `None` when nothing matches.
pub fn detect(head: &[u8]) -> Option<Format> {
    if head.starts_with(b"WARC/") {
        return Some(Format::Warc);
    }
    if head.starts_with(b"filedesc://") {
        return Some(Format::Arc);
    }
    let text = match std::str::from_utf8(head) {
        Ok(t) => t,
        // The head may end inside a character.
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).ok()?,
    };
    let mut lines = text.split('\n').map(|l| l.trim_end_matches('\r'));
    let first = lines.find(|l| !l.trim().is_empty() && !l.starts_with('#'))?;
    if first.starts_with(" CDX ") || first.starts_with("CDX ") {
        return Some(Format::Cdx);
    }
    if first.contains('\t') {
        let f: Vec<&str> = first.split('\t').collect();
        let status = |s: &str| s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit());
        return match f.len() {
            3 | 4 if status(f[1]) => Some(Format::RedirectTsv),
            2 => Some(Format::DigestTsv),
            _ => None,
        };
    }
    let f: Vec<&str> = first.split(' ').collect();
    let ts = |s: &str| s.len() >= 14 && s.bytes().all(|b| b.is_ascii_digit());
    if f.len() >= 3 && ts(f[1]) && f[2].starts_with('{') {
        return Some(Format::Cdxj);
    }
    if (f.len() == 11 || f.len() == 9) && ts(f[1]) {
        return Some(Format::Cdx);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(detect(b"WARC/1.1\r\n"), Some(Format::Warc));
        assert_eq!(detect(b"filedesc://x 1 2 3 4\n"), Some(Format::Arc));
        assert_eq!(detect(b" CDX N b a\n"), Some(Format::Cdx));
        assert_eq!(
            detect(b"a,b)/ 20140101000000 {\"url\": 1}"),
            Some(Format::Cdxj)
        );
        assert_eq!(
            detect(b"a)/ 20140101000000 http://a/ t 200 D - - 1 2 f\n"),
            Some(Format::Cdx)
        );
        assert_eq!(
            detect(b"# c\nhttp://a\t301\thttp://b\n"),
            Some(Format::RedirectTsv)
        );
        assert_eq!(detect(b"http://a\tsha1:X\n"), Some(Format::DigestTsv));
        assert_eq!(detect(b"<!doctype html>"), None);
        assert_eq!(detect(b""), None);
        assert_eq!(detect(b"http://a\tfoo\tbar\n"), None);
    }
}
