//! What each rule changed, for `explain`. The normalizer is generic over a
//! [`Trace`]; with [`NoTrace`] every recording site compiles away, so the
//! hot path pays nothing for explainability.

use crate::error::Component;

/// A rule of the ladder (or a step before it), with the section that defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// Relative reference resolved against the base before comparing.
    ResolveBase,
    /// Text decoded from a legacy encoding, then NFC.
    Transcode,
    /// NFC / NFKC applied on request.
    CharNorm,
    /// Scheme lower-cased.
    LowercaseScheme,
    /// Host lower-cased (ASCII letters).
    LowercaseHost,
    /// Hex digits of a triplet upper-cased.
    UppercasePercent,
    /// Triplet of an unreserved character decoded.
    DecodeUnreserved,
    /// Non-ASCII character percent-encoded (IRI to URI, `uri` form).
    EncodeNonAscii,
    /// Percent-encoded UTF-8 decoded (`iri` form).
    DecodeUtf8,
    /// Literal bidi formatting character percent-encoded (`iri` form).
    EncodeBidi,
    /// Dot segments removed.
    RemoveDotSegments,
    /// `/.` or `./` prefix kept so the result parses the same way.
    KeepStructure,
    /// Empty port removed.
    RemoveEmptyPort,
    /// Leading zeros of the port removed.
    PortDigits,
    /// Default port removed.
    RemoveDefaultPort,
    /// IPv6 address written in RFC 5952 form.
    Ipv6Text,
    /// Empty path with an authority written `/`.
    EmptyPathRoot,
    /// Host converted to A-labels.
    IdnToAscii,
    /// Host converted to U-labels.
    IdnToUnicode,
    /// `file://localhost/` written `file:///`.
    FileLocalhost,
    /// mailto domains and header field names lower-cased / IDN-mapped.
    Mailto,
    /// URN namespace identifier lower-cased.
    UrnNid,
    /// `urn:uuid:` hex lower-cased.
    UrnUuid,
    /// tel number and parameters in canonical form.
    Tel,
    /// data media type lower-cased.
    DataMediaType,
    /// Fragment left out (comparison for a network action).
    IgnoreFragment,
}

impl Rule {
    /// Stable kebab-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::ResolveBase => "resolve-base",
            Rule::Transcode => "transcode",
            Rule::CharNorm => "character-normalization",
            Rule::LowercaseScheme => "lowercase-scheme",
            Rule::LowercaseHost => "lowercase-host",
            Rule::UppercasePercent => "uppercase-percent-encoding",
            Rule::DecodeUnreserved => "decode-unreserved",
            Rule::EncodeNonAscii => "encode-non-ascii",
            Rule::DecodeUtf8 => "decode-utf8",
            Rule::EncodeBidi => "encode-bidi",
            Rule::RemoveDotSegments => "remove-dot-segments",
            Rule::KeepStructure => "keep-structure",
            Rule::RemoveEmptyPort => "remove-empty-port",
            Rule::PortDigits => "port-digits",
            Rule::RemoveDefaultPort => "remove-default-port",
            Rule::Ipv6Text => "ipv6-rfc5952",
            Rule::EmptyPathRoot => "empty-path-root",
            Rule::IdnToAscii => "idn-to-ascii",
            Rule::IdnToUnicode => "idn-to-unicode",
            Rule::FileLocalhost => "file-localhost",
            Rule::Mailto => "mailto-case",
            Rule::UrnNid => "urn-nid-case",
            Rule::UrnUuid => "urn-uuid-case",
            Rule::Tel => "tel-canonical",
            Rule::DataMediaType => "data-media-type-case",
            Rule::IgnoreFragment => "ignore-fragment",
        }
    }

    /// The section that defines the rule.
    pub const fn source(self) -> &'static str {
        match self {
            Rule::ResolveBase => "RFC 3986 §6.1, §5.2",
            Rule::Transcode => "RFC 3987 §3.1 step 1b",
            Rule::CharNorm => "RFC 3987 §5.3.2.2",
            Rule::LowercaseScheme | Rule::LowercaseHost | Rule::UppercasePercent => {
                "RFC 3986 §6.2.2.1"
            }
            Rule::DecodeUnreserved => "RFC 3986 §6.2.2.2",
            Rule::EncodeNonAscii => "RFC 3987 §3.1 step 2",
            Rule::DecodeUtf8 => "RFC 3987 §3.2, §5.3.2.3",
            Rule::EncodeBidi => "RFC 3987 §4.1, §3.2 step 4",
            Rule::RemoveDotSegments => "RFC 3986 §6.2.2.3, §5.2.4",
            Rule::KeepStructure => "RFC 3986 §4.2, §5.3 (LADDER.md rung 1)",
            Rule::RemoveEmptyPort | Rule::PortDigits | Rule::RemoveDefaultPort => {
                "RFC 3986 §6.2.3, §3.2.3"
            }
            Rule::Ipv6Text => "RFC 5952 §4, §5",
            Rule::EmptyPathRoot => "RFC 3986 §6.2.3",
            Rule::IdnToAscii | Rule::IdnToUnicode => "RFC 3987 §5.3.3, UTS #46",
            Rule::FileLocalhost => "RFC 8089 §2",
            Rule::Mailto => "RFC 6068 §2, §5",
            Rule::UrnNid | Rule::UrnUuid => "RFC 8141 §3.1, RFC 9562 §4",
            Rule::Tel => "RFC 3966 §4, §3",
            Rule::DataMediaType => "RFC 2397 §2, RFC 2045 §5.1",
            Rule::IgnoreFragment => "RFC 3986 §6.1",
        }
    }
}

/// One change: which rule, where (component and byte offset into the text
/// the rung was given, when the change is local), and the text before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The rule.
    pub rule: Rule,
    /// The component, when the change is inside one.
    pub component: Option<Component>,
    /// Byte offset into the input, when the change is local.
    pub offset: Option<usize>,
    /// Text before.
    pub before: String,
    /// Text after.
    pub after: String,
}

/// Receives changes as the normalizer makes them.
pub trait Trace {
    /// Whether anything is recorded (a constant, so recording sites vanish
    /// when it is false).
    const ON: bool;
    /// Records a change.
    fn record(&mut self, change: Change);
}

/// Records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Trace for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn record(&mut self, _: Change) {}
}

impl Trace for Vec<Change> {
    const ON: bool = true;
    fn record(&mut self, change: Change) {
        self.push(change);
    }
}

/// Records a change if the tracer is on (builds no strings otherwise).
#[inline(always)]
pub(crate) fn note<T: Trace>(
    t: &mut T,
    rule: Rule,
    component: Option<Component>,
    offset: Option<usize>,
    before: &str,
    after: &str,
) {
    if T::ON {
        t.record(Change {
            rule,
            component,
            offset,
            before: before.to_owned(),
            after: after.to_owned(),
        });
    }
}
