//! Field values shared by every reader: digests, timestamps, media types,
//! redirect targets.

/// A payload digest in one spelling, `label:VALUE`: the label lowercase,
/// a base32 SHA-1 value uppercase (RFC 4648 §6 uses uppercase; CDX writers
/// differ), a bare value (CDX `k`, CDXJ `digest`) labelled `sha1:` (what
/// every CDX writer stores there). `-` and empty are `None`.
pub fn digest_label(raw: &str) -> Option<String> {
    let raw = raw.trim();
    if raw.is_empty() || raw == "-" {
        return None;
    }
    let (label, value) = match raw.split_once(':') {
        Some((l, v)) => (l.to_ascii_lowercase(), v),
        None => ("sha1".to_owned(), raw),
    };
    if value.is_empty() {
        return None;
    }
    let value = if label == "sha1" && value.len() == 32 {
        value.to_ascii_uppercase()
    } else {
        value.to_owned()
    };
    Some(format!("{label}:{value}"))
}

/// A date as the 14-digit `YYYYMMDDhhmmss` of CDX files: the digits of a
/// W3C-DTF `WARC-Date` (WARC 1.1 §5.4: `2014-01-26T20:06:24Z`, fractions
/// of a second allowed and dropped) or of a 14-or-more-digit timestamp.
/// `None` when fewer than 14 digits come before the first non-date
/// character.
pub fn warc_date_to_timestamp(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(14);
    for c in raw.trim().chars() {
        if out.len() == 14 {
            break;
        }
        match c {
            '0'..='9' => out.push(c),
            '-' | 'T' | ':' if out.len() >= 4 => {}
            _ => return None,
        }
    }
    (out.len() == 14).then_some(out)
}

/// A media type's essence (`type/subtype`), lowercase, without parameters.
pub(crate) fn mime_essence(raw: &str) -> Option<String> {
    let m = raw.split(';').next().unwrap_or("").trim();
    (!m.is_empty() && m != "-").then(|| m.to_ascii_lowercase())
}

/// A redirect target resolved against the URL it was recorded for (RFC 3986
/// §5.2; RFC 7231 §7.1.2 allows a relative `Location`). `None` when the
/// text is empty or either side does not parse as an IRI (reference): the
/// raw text is kept by the caller.
pub(crate) fn resolve_location(base: &str, raw: &str) -> Option<String> {
    let raw = raw.trim();
    if raw.is_empty() || raw == "-" {
        return None;
    }
    irinorm::resolve(base, raw).ok()
}

/// The `<...>` wget 1.14 writes around `WARC-Target-URI` (the WARC 1.0
/// grammar's `<uri>` taken literally) is removed; the text is otherwise
/// kept as recorded.
pub(crate) fn target_uri(raw: &str) -> &str {
    let t = raw.trim();
    t.strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests() {
        let v = "OSSAPWJ23L56IYVRW3GFEAR4MCJMGPTB";
        assert_eq!(digest_label(v).unwrap(), format!("sha1:{v}"));
        assert_eq!(
            digest_label(&format!("sha1:{v}")).unwrap(),
            format!("sha1:{v}")
        );
        assert_eq!(
            digest_label(&format!("SHA1:{}", v.to_lowercase())).unwrap(),
            format!("sha1:{v}")
        );
        assert_eq!(digest_label("sha256:abc").unwrap(), "sha256:abc");
        assert_eq!(digest_label("-"), None);
        assert_eq!(digest_label(""), None);
        assert_eq!(digest_label("sha1:"), None);
    }

    #[test]
    fn dates() {
        let t = |s| warc_date_to_timestamp(s);
        assert_eq!(t("2014-01-26T20:06:24Z").unwrap(), "20140126200624");
        assert_eq!(t("2014-01-26T20:06:24.123456Z").unwrap(), "20140126200624");
        assert_eq!(t("20140126200624").unwrap(), "20140126200624");
        assert_eq!(t("20140126200624123").unwrap(), "20140126200624");
        assert_eq!(t("2014-01-26"), None);
        assert_eq!(t("201401"), None);
        assert_eq!(t("yesterday"), None);
    }

    #[test]
    fn locations_resolve_against_the_target() {
        let r = |b, l| resolve_location(b, l);
        assert_eq!(r("http://a/b/c", "/d").unwrap(), "http://a/d");
        assert_eq!(r("http://a/b/c", "d/").unwrap(), "http://a/b/d/");
        assert_eq!(r("http://a/b/c", "https://x/").unwrap(), "https://x/");
        assert_eq!(r("http://a/b/c", "//x/y").unwrap(), "http://x/y");
        assert_eq!(r("http://a/b c", "/d"), None);
        assert_eq!(r("http://a/b", " "), None);
    }

    #[test]
    fn mime_and_target() {
        assert_eq!(
            mime_essence("Text/HTML; charset=utf-8").unwrap(),
            "text/html"
        );
        assert_eq!(mime_essence("-"), None);
        assert_eq!(target_uri("<http://a/>"), "http://a/");
        assert_eq!(target_uri(" http://a/ "), "http://a/");
    }
}
