//! Where the components are: exactly from the parser's [`Meta`] when the
//! input is valid, else by the regular expression of RFC 3986 Appendix B,
//! which splits any string at all (so that raw-text findings still name a
//! component). Both are linear.

use irinorm::host::{check_ipvfuture, parse_ipv4, parse_ipv6};
use irinorm::{Components, HostKind, Meta};

use crate::report::Part;

/// A byte range of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Span {
    pub(crate) const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    pub(crate) const fn len(self) -> usize {
        self.end - self.start
    }
    pub(crate) const fn is_empty(self) -> bool {
        self.end == self.start
    }
    pub(crate) fn text(self, s: &str) -> &str {
        &s[self.start..self.end]
    }
    pub(crate) const fn contains(self, at: usize) -> bool {
        self.start <= at && at < self.end
    }
}

/// The kind of host, also for text that did not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HostClass {
    RegName,
    Ipv4,
    Ipv6,
    IpvFuture,
    /// `[...` that is neither IPv6 nor IPvFuture (only on invalid input).
    BadLiteral,
}

/// The components of the input, as spans.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parts {
    pub(crate) scheme: Option<Span>,
    pub(crate) authority: Option<Span>,
    pub(crate) userinfo: Option<Span>,
    pub(crate) host: Option<Span>,
    pub(crate) host_class: HostClass,
    pub(crate) port: Option<Span>,
    pub(crate) path: Span,
    pub(crate) query: Option<Span>,
    pub(crate) fragment: Option<Span>,
}

fn span_of(s: &str, sub: &str) -> Span {
    // Every slice given here is a slice of `s` (from `Components::of`).
    let start = sub.as_ptr() as usize - s.as_ptr() as usize;
    Span::new(start, start + sub.len())
}

impl Parts {
    /// The exact components of valid input.
    pub(crate) fn from_meta(s: &str, m: &Meta) -> Parts {
        let c = Components::of(s, m);
        let host_class = match c.host_kind {
            Some(HostKind::Ipv4) => HostClass::Ipv4,
            Some(HostKind::Ipv6) => HostClass::Ipv6,
            Some(HostKind::IpvFuture) => HostClass::IpvFuture,
            _ => HostClass::RegName,
        };
        Parts {
            scheme: c.scheme.map(|x| span_of(s, x)),
            authority: c.authority.map(|x| span_of(s, x)),
            userinfo: c.userinfo.map(|x| span_of(s, x)),
            host: c.host.map(|x| span_of(s, x)),
            host_class,
            port: c.port.map(|x| span_of(s, x)),
            path: span_of(s, c.path),
            query: c.query.map(|x| span_of(s, x)),
            fragment: c.fragment.map(|x| span_of(s, x)),
        }
    }

    /// RFC 3986 Appendix B:
    /// `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`,
    /// then the authority split at its last `@` (where a browser would
    /// split it) and the host at a `]` or its first `:`.
    pub(crate) fn lenient(s: &str) -> Parts {
        let b = s.as_bytes();
        let len = b.len();
        let mut i = 0;
        let mut scheme = None;
        if let Some(p) = b
            .iter()
            .position(|&c| matches!(c, b':' | b'/' | b'?' | b'#'))
        {
            if b[p] == b':' && p > 0 {
                scheme = Some(Span::new(0, p));
                i = p + 1;
            }
        }
        let mut parts = Parts {
            scheme,
            authority: None,
            userinfo: None,
            host: None,
            host_class: HostClass::RegName,
            port: None,
            path: Span::new(i, i),
            query: None,
            fragment: None,
        };
        if b[i..].starts_with(b"//") {
            let start = i + 2;
            let end = b[start..]
                .iter()
                .position(|&c| matches!(c, b'/' | b'?' | b'#'))
                .map_or(len, |p| start + p);
            parts.authority = Some(Span::new(start, end));
            let host_start = match b[start..end].iter().rposition(|&c| c == b'@') {
                Some(p) => {
                    parts.userinfo = Some(Span::new(start, start + p));
                    start + p + 1
                }
                None => start,
            };
            let (host_end, class) = if host_start < end && b[host_start] == b'[' {
                match b[host_start..end].iter().position(|&c| c == b']') {
                    Some(p) => {
                        let inner = &b[host_start + 1..host_start + p];
                        (host_start + p + 1, literal_class(inner))
                    }
                    None => (end, HostClass::BadLiteral),
                }
            } else {
                let e = b[host_start..end]
                    .iter()
                    .position(|&c| c == b':')
                    .map_or(end, |p| host_start + p);
                let class = if parse_ipv4(&b[host_start..e]).is_some() {
                    HostClass::Ipv4
                } else {
                    HostClass::RegName
                };
                (e, class)
            };
            parts.host = Some(Span::new(host_start, host_end));
            parts.host_class = class;
            if host_end < end && b[host_end] == b':' {
                parts.port = Some(Span::new(host_end + 1, end));
            }
            i = end;
        }
        let path_end = b[i..]
            .iter()
            .position(|&c| c == b'?' || c == b'#')
            .map_or(len, |p| i + p);
        parts.path = Span::new(i, path_end);
        i = path_end;
        if i < len && b[i] == b'?' {
            let q_end = b[i..]
                .iter()
                .position(|&c| c == b'#')
                .map_or(len, |p| i + p);
            parts.query = Some(Span::new(i + 1, q_end));
            i = q_end;
        }
        if i < len {
            parts.fragment = Some(Span::new(i + 1, len));
        }
        parts
    }

    /// The component that byte `at` belongs to (delimiters belong to the
    /// component they introduce or end).
    pub(crate) fn part_at(&self, at: usize) -> Part {
        let inside = |sp: Option<Span>| sp.is_some_and(|x| x.start <= at && at <= x.end);
        if inside(self.fragment) {
            Part::Fragment
        } else if inside(self.query) {
            Part::Query
        } else if self.path.contains(at) {
            Part::Path
        } else if inside(self.port) {
            Part::Port
        } else if inside(self.host) {
            Part::Host
        } else if inside(self.userinfo) {
            Part::Userinfo
        } else if inside(self.authority) {
            Part::Authority
        } else if inside(self.scheme) {
            Part::Scheme
        } else {
            Part::Path
        }
    }
}

fn literal_class(inner: &[u8]) -> HostClass {
    if matches!(inner.first(), Some(b'v' | b'V')) {
        if check_ipvfuture(inner).is_ok() {
            HostClass::IpvFuture
        } else {
            HostClass::BadLiteral
        }
    } else {
        let addr = inner.split(|&c| c == b'%').next().unwrap_or(inner);
        if parse_ipv6(addr).is_ok() {
            HostClass::Ipv6
        } else {
            HostClass::BadLiteral
        }
    }
}

/// Splits `span` of `s` at every character for which `sep` holds; calls
/// `f` with each piece (possibly empty).
pub(crate) fn split_span(s: &str, span: Span, sep: impl Fn(char) -> bool, mut f: impl FnMut(Span)) {
    let text = span.text(s);
    let mut start = span.start;
    for (i, c) in text.char_indices() {
        if sep(c) {
            f(Span::new(start, span.start + i));
            start = span.start + i + c.len_utf8();
        }
    }
    f(Span::new(start, span.end));
}

/// UTS #46 label separators: FULL STOP and the three it maps to it
/// (IDEOGRAPHIC FULL STOP, FULLWIDTH FULL STOP, HALFWIDTH IDEOGRAPHIC FULL STOP).
pub(crate) fn is_label_sep(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use irinorm::{parse, Grammar};

    #[test]
    fn lenient_agrees_with_the_parser_on_valid_input() {
        for s in [
            "",
            "a:",
            "http://u:p@h:1/p?q#f",
            "//[::1]:8/x",
            "/a:b",
            "a/b?c#d",
            "?q",
            "#f",
            "s://h?",
            "s:p#",
            "s://[v1.a]",
            "http://1.2.3.4/",
            "http://@:/",
            "ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm",
        ] {
            let m = parse(s, Grammar::IriReference).unwrap();
            let exact = Parts::from_meta(s, &m);
            let lax = Parts::lenient(s);
            assert_eq!(format!("{exact:?}"), format!("{lax:?}"), "{s}");
        }
    }

    #[test]
    fn lenient_splits_anything() {
        let s = "http://a b@c@evil.example:80x/p a?q#f#g";
        let p = Parts::lenient(s);
        assert_eq!(p.userinfo.unwrap().text(s), "a b@c");
        assert_eq!(p.host.unwrap().text(s), "evil.example");
        assert_eq!(p.port.unwrap().text(s), "80x");
        assert_eq!(p.path.text(s), "/p a");
        assert_eq!(p.fragment.unwrap().text(s), "f#g");
        assert_eq!(p.part_at(0), Part::Scheme);
        assert_eq!(p.part_at(8), Part::Userinfo);
        assert_eq!(p.part_at(s.len() - 1), Part::Fragment);
        let s = "http://[::1/x";
        assert_eq!(Parts::lenient(s).host_class, HostClass::BadLiteral);
    }
}
