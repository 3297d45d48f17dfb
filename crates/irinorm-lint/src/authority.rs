//! The userinfo (RFC 3986 §3.2.1, §7.5, §7.6) and the port (§3.2.3, §7.2).

use irinorm::pct;

use crate::codes::Code;
use crate::host::numeric_ipv4;
use crate::report::{truncate, Part, Sink};
use crate::split::{Parts, Span};

/// `userinfo-present`, `userinfo-password`, `userinfo-looks-like-host`.
pub(crate) fn userinfo(s: &str, parts: &Parts, sink: &mut Sink<'_>) {
    let Some(u) = parts.userinfo else {
        return;
    };
    let raw = u.text(s);
    sink.push(
        Code::UserinfoPresent,
        Part::Userinfo,
        u.start,
        u.len(),
        "userinfo present: the host is what follows the '@'".to_owned(),
        None,
    );
    // RFC 3986 §3.2.1: the password is what follows the first ':', and an
    // empty one means "no password".
    if let Some(colon) = raw.find(':') {
        let pw = Span::new(u.start + colon + 1, u.end);
        if !pw.is_empty() {
            // The detail never repeats the password.
            sink.push(
                Code::UserinfoPassword,
                Part::Userinfo,
                pw.start,
                pw.len(),
                format!("userinfo carries a password ({} bytes)", pw.len()),
                None,
            );
        }
    }
    if sink.wants(Code::UserinfoLooksLikeHost) {
        if let Some((what, token)) = looks_like_host(raw) {
            sink.push(
                Code::UserinfoLooksLikeHost,
                Part::Userinfo,
                u.start,
                u.len(),
                format!(
                    "userinfo starts with {what} {:?}, but the host is what follows the '@'",
                    truncate(&token, 64)
                ),
                Some(token),
            );
        }
    }
}

/// Whether (the percent-decoded) userinfo begins with text that reads as
/// a host: a dotted name of two or more labels whose last label has a
/// letter (`www.example.com`, `cnn.example.com&story=...`), an IPv4
/// address in any form a resolver accepts (`10.0.0.1`, `0x7f.1`), or a
/// bracketed IPv6 literal. Returns what it looks like and the text.
pub(crate) fn looks_like_host(raw: &str) -> Option<(&'static str, String)> {
    let decoded = pct::decode(raw);
    let text = String::from_utf8_lossy(&decoded);
    if text.starts_with('[') {
        let end = text.find(']')?;
        let inner = &text[1..end];
        let addr = inner.split('%').next().unwrap_or(inner);
        return irinorm::host::parse_ipv6(addr.as_bytes())
            .ok()
            .map(|_| ("an IPv6 literal", text[..=end].to_owned()));
    }
    // The longest prefix of name characters (letters and digits of any
    // script, '-', '.', '_', and the ideographic full stops).
    let end = text
        .char_indices()
        .find(|&(_, c)| {
            !(c.is_alphanumeric()
                || matches!(c, '-' | '.' | '_' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}'))
        })
        .map_or(text.len(), |(i, _)| i);
    let token = &text[..end];
    if token.is_empty() {
        return None;
    }
    // A bare number is an address to inet_aton too, but "1@" or "42@" is
    // no disguise: only dotted forms and numbers past 1.0.0.0 count.
    if let Some(v4) = numeric_ipv4(token.as_bytes()) {
        if token.contains('.') || v4 >= 0x0100_0000 {
            return Some(("an IP address", token.to_owned()));
        }
    }
    let name = token.strip_suffix('.').unwrap_or(token);
    let labels: Vec<&str> = name
        .split(['.', '\u{3002}', '\u{FF0E}', '\u{FF61}'])
        .collect();
    let named = labels.len() >= 2
        && labels.iter().all(|l| !l.is_empty())
        && labels
            .last()
            .is_some_and(|l| l.chars().any(char::is_alphabetic));
    named.then(|| ("a host name", token.to_owned()))
}

/// Default ports of common schemes with a well-known (0-1023) or
/// registered default (IANA service names; RFC 7230 §2.7.1 and §2.7.2,
/// RFC 6455 §3, RFC 1738 §3.2, RFC 4516 §2, RFC 2326 §3.2, RFC 5092 §5,
/// RFC 2384, RFC 5538 §2).
const DEFAULT_PORTS: &[(&str, u32)] = &[
    ("http", 80),
    ("https", 443),
    ("ws", 80),
    ("wss", 443),
    ("ftp", 21),
    ("ftps", 990),
    ("gopher", 70),
    ("telnet", 23),
    ("ssh", 22),
    ("sftp", 22),
    ("ldap", 389),
    ("ldaps", 636),
    ("nntp", 119),
    ("news", 119),
    ("imap", 143),
    ("imaps", 993),
    ("pop", 110),
    ("pops", 995),
    ("rtsp", 554),
    ("rtsps", 322),
    ("git", 9418),
    ("irc", 6667),
    ("ircs", 6697),
    ("redis", 6379),
    ("rediss", 6379),
    ("mqtt", 1883),
];

/// The default port of a scheme (ASCII case-insensitive), if listed.
pub(crate) fn default_port(scheme: &str) -> Option<u32> {
    DEFAULT_PORTS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(scheme))
        .map(|&(_, p)| p)
}

/// `port-out-of-range` and `well-known-port`.
pub(crate) fn port(s: &str, parts: &Parts, sink: &mut Sink<'_>) {
    let Some(p) = parts.port else {
        return;
    };
    let digits = p.text(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return;
    }
    // Leading zeros do not change the number; a long run of digits is
    // out of range without being converted.
    let sig = digits.trim_start_matches('0');
    let value = if sig.len() > 6 {
        u32::MAX
    } else {
        sig.parse::<u32>().unwrap_or(0)
    };
    if value > 65535 {
        sink.push(
            Code::PortOutOfRange,
            Part::Port,
            p.start,
            p.len(),
            format!("port {} is above 65535", truncate(digits, 16)),
            None,
        );
        return;
    }
    let Some(scheme) = parts.scheme.map(|sc| sc.text(s)) else {
        return;
    };
    if value <= 1023 {
        if let Some(d) = default_port(scheme) {
            if d != value {
                sink.push(
                    Code::WellKnownPort,
                    Part::Port,
                    p.start,
                    p.len(),
                    format!(
                        "{scheme} URI with explicit well-known port {value} (its default is {d}); another protocol may be listening there"
                    ),
                    Some(value.to_string()),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_lookalikes() {
        let l = |s: &str| looks_like_host(s).map(|(_, t)| t);
        assert_eq!(l("www.example.com").as_deref(), Some("www.example.com"));
        assert_eq!(
            l("cnn.example.com&story=breaking_news").as_deref(),
            Some("cnn.example.com")
        );
        assert_eq!(l("10.0.0.1").as_deref(), Some("10.0.0.1"));
        assert_eq!(l("0x7f.1").as_deref(), Some("0x7f.1"));
        assert_eq!(l("www%2Eexample%2Ecom").as_deref(), Some("www.example.com"));
        assert_eq!(l("[::1]").as_deref(), Some("[::1]"));
        assert_eq!(l("user"), None);
        assert_eq!(l("user:pass"), None);
        assert_eq!(l("a.1"), None);
        assert_eq!(l("42"), None);
        assert_eq!(l("2130706433").as_deref(), Some("2130706433"));
        assert_eq!(l(".example"), None);
        assert_eq!(l(""), None);
    }
}
