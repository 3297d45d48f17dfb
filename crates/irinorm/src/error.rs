//! Errors are values: a kind, the byte offset where the input stopped being
//! valid, and the component being parsed there. Nothing in this crate panics
//! on bad input.

use core::fmt;

/// The component of a reference in which an error was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    /// `scheme` (RFC 3986 §3.1).
    Scheme,
    /// `authority` as a whole, when it is not yet known whether a character
    /// belongs to the userinfo or the host (RFC 3986 §3.2).
    Authority,
    /// `userinfo` (RFC 3986 §3.2.1).
    Userinfo,
    /// `host` (RFC 3986 §3.2.2).
    Host,
    /// `port` (RFC 3986 §3.2.3).
    Port,
    /// `path` (RFC 3986 §3.3).
    Path,
    /// `query` (RFC 3986 §3.4).
    Query,
    /// `fragment` (RFC 3986 §3.5).
    Fragment,
}

impl Component {
    /// The lower-case name used in messages and JSON output.
    pub const fn name(self) -> &'static str {
        match self {
            Component::Scheme => "scheme",
            Component::Authority => "authority",
            Component::Userinfo => "userinfo",
            Component::Host => "host",
            Component::Port => "port",
            Component::Path => "path",
            Component::Query => "query",
            Component::Fragment => "fragment",
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What was wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is longer than the configured maximum (or than 4 GiB).
    TooLong,
    /// The bytes are not valid UTF-8 (only from byte-level entry points).
    InvalidUtf8,
    /// The bytes are malformed in the declared input encoding.
    InvalidEncoding,
    /// A character that the grammar does not allow at this position.
    InvalidChar,
    /// A `%` not followed by two hexadecimal digits (RFC 3986 §2.1).
    BadPercentEncoding,
    /// A scheme that does not start with a letter or contains a character
    /// outside `ALPHA / DIGIT / "+" / "-" / "."` (RFC 3986 §3.1); also a
    /// relative reference whose first path segment contains `:` (§4.2).
    BadScheme,
    /// The grammar requires a scheme and there is none.
    MissingScheme,
    /// A scheme where none is allowed: the grammar (relative-ref) forbids
    /// any, or a profile takes only some (the `safebrowsing` lookup key takes
    /// only http and https).
    UnexpectedScheme,
    /// The grammar (absolute-URI / absolute-IRI) forbids a fragment.
    UnexpectedFragment,
    /// A port that is not all digits (RFC 3986 §3.2.3).
    BadPort,
    /// An IP-literal that is not a valid IPv6address (RFC 3986 §3.2.2).
    BadIpv6,
    /// An IP-literal that is not a valid IPvFuture (RFC 3986 §3.2.2).
    BadIpvFuture,
    /// A malformed IPv6 zone identifier (RFC 6874 §2).
    BadZoneId,
    /// An IP-literal without its closing `]`, or a `[`/`]` elsewhere in the host.
    BadIpLiteral,
    /// A host that fails UTS #46 processing (IDNA).
    Idna,
}

impl ErrorKind {
    /// A stable kebab-case code, used in JSON output and reject files.
    pub const fn code(self) -> &'static str {
        match self {
            ErrorKind::TooLong => "too-long",
            ErrorKind::InvalidUtf8 => "invalid-utf8",
            ErrorKind::InvalidEncoding => "invalid-encoding",
            ErrorKind::InvalidChar => "invalid-char",
            ErrorKind::BadPercentEncoding => "bad-percent-encoding",
            ErrorKind::BadScheme => "bad-scheme",
            ErrorKind::MissingScheme => "missing-scheme",
            ErrorKind::UnexpectedScheme => "unexpected-scheme",
            ErrorKind::UnexpectedFragment => "unexpected-fragment",
            ErrorKind::BadPort => "bad-port",
            ErrorKind::BadIpv6 => "bad-ipv6",
            ErrorKind::BadIpvFuture => "bad-ipvfuture",
            ErrorKind::BadZoneId => "bad-zone-id",
            ErrorKind::BadIpLiteral => "bad-ip-literal",
            ErrorKind::Idna => "idna",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            ErrorKind::TooLong => "input longer than the maximum length",
            ErrorKind::InvalidUtf8 => "not valid UTF-8",
            ErrorKind::InvalidEncoding => "malformed in the input encoding",
            ErrorKind::InvalidChar => "character not allowed here",
            ErrorKind::BadPercentEncoding => "'%' not followed by two hex digits",
            ErrorKind::BadScheme => {
                "invalid scheme (or ':' in the first segment of a relative path)"
            }
            ErrorKind::MissingScheme => "a scheme is required",
            ErrorKind::UnexpectedScheme => "a scheme not allowed here (a relative reference has none; a lookup-key profile takes only its own)",
            ErrorKind::UnexpectedFragment => "an absolute URI/IRI cannot have a fragment",
            ErrorKind::BadPort => "port is not all digits",
            ErrorKind::BadIpv6 => "invalid IPv6 address",
            ErrorKind::BadIpvFuture => "invalid IPvFuture literal",
            ErrorKind::BadZoneId => "invalid IPv6 zone identifier",
            ErrorKind::BadIpLiteral => "malformed IP literal",
            ErrorKind::Idna => "host fails UTS #46 (IDNA) processing",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A parse error: what, where (byte offset into the input) and in which component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    pub(crate) kind: ErrorKind,
    pub(crate) offset: usize,
    pub(crate) component: Option<Component>,
}

impl ParseError {
    pub(crate) const fn new(kind: ErrorKind, offset: usize, component: Component) -> Self {
        ParseError {
            kind,
            offset,
            component: Some(component),
        }
    }

    pub(crate) const fn whole(kind: ErrorKind, offset: usize) -> Self {
        ParseError {
            kind,
            offset,
            component: None,
        }
    }

    /// An error of a pass outside the parser that refuses input in the
    /// parser's terms (the `safebrowsing` lookup key of irinorm-rules).
    pub const fn at(kind: ErrorKind, offset: usize, component: Option<Component>) -> Self {
        ParseError {
            kind,
            offset,
            component,
        }
    }

    /// What was wrong.
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Byte offset into the input of the first byte that is not valid.
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The component being parsed at that offset, when known.
    pub const fn component(&self) -> Option<Component> {
        self.component
    }

    /// A message for people: the kind, the component and the offset.
    pub fn message(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.component {
            Some(c) => write!(
                f,
                "{} in {} at byte {}",
                self.kind.describe(),
                c,
                self.offset
            ),
            None => write!(f, "{} at byte {}", self.kind.describe(), self.offset),
        }
    }
}

impl std::error::Error for ParseError {}
