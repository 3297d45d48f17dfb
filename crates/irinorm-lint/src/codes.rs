//! The finding codes: stable kebab-case names, each with one fixed
//! severity and the specification section it comes from. `docs/lint.md`
//! describes every code with an example; a test keeps the two in step.

use core::fmt;
use core::str::FromStr;

use serde::Serialize;

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; not wrong in itself.
    Info,
    /// A SHOULD of a specification is broken, or the text is likely to
    /// mislead a person or another parser.
    Warning,
    /// A MUST of a specification is broken, or the input is a known attack
    /// form.
    Error,
}

impl Severity {
    /// Lower-case name (`error`, `warning`, `info`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Severity {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "info" => Ok(Severity::Info),
            "warning" => Ok(Severity::Warning),
            "error" => Ok(Severity::Error),
            _ => Err(format!(
                "unknown severity {s:?} (one of: info, warning, error)"
            )),
        }
    }
}

macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident = $code:literal, $sev:ident, $spec:literal, $summary:literal;)*) => {
        /// Every finding code. [`Code::as_str`] is the stable name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($(#[$doc])* $name,)*
        }

        impl Code {
            /// Every code, in the order of `docs/lint.md`.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];

            /// The stable kebab-case name.
            pub const fn as_str(self) -> &'static str {
                match self { $(Code::$name => $code,)* }
            }

            /// The severity of every finding with this code.
            pub const fn severity(self) -> Severity {
                match self { $(Code::$name => Severity::$sev,)* }
            }

            /// The specification section(s) the rule comes from.
            pub const fn spec(self) -> &'static str {
                match self { $(Code::$name => $spec,)* }
            }

            /// One line saying what the code means.
            pub const fn summary(self) -> &'static str {
                match self { $(Code::$name => $summary,)* }
            }
        }
    };
}

codes! {
    /// The input is longer than [`crate::LintOptions::max_input_len`]; nothing else was checked.
    InputTooLong = "input-too-long", Error, "irinorm docs/limits.md",
        "input longer than the configured maximum; not examined further";
    /// The input does not match the grammar (IRI-reference by default).
    ParseError = "parse-error", Error, "RFC 3986 §3-§4, RFC 3987 §2.2",
        "not a valid reference under the grammar";
    /// More findings than [`crate::LintOptions::max_findings`]; the rest were dropped.
    FindingsTruncated = "findings-truncated", Info, "irinorm docs/limits.md",
        "more findings than the configured maximum; the rest were dropped";
    /// A literal bidirectional formatting character.
    BidiFormatChar = "bidi-format-char", Error, "RFC 3987 §4.1",
        "bidirectional formatting character (IRIs MUST NOT contain them)";
    /// A percent-encoded bidirectional formatting character.
    PctBidiFormatChar = "pct-bidi-format-char", Info, "RFC 3987 §3.2 step 4, §4.1",
        "percent-encoded bidirectional formatting character (must stay encoded)";
    /// A component with both right-to-left and left-to-right characters.
    BidiMixedDirection = "bidi-mixed-direction", Warning, "RFC 3987 §4.2 rule 1",
        "component uses both right-to-left and left-to-right characters";
    /// A component with right-to-left characters that does not start and end with one.
    BidiRtlBoundary = "bidi-rtl-boundary", Warning, "RFC 3987 §4.2 rule 2",
        "component using right-to-left characters does not start and end with one";
    /// Characters of scripts that are not used together (UTS #39).
    MixedScript = "mixed-script", Warning, "RFC 3987 §7.5, UTS #39 §5",
        "component mixes scripts (UTS #39 restriction level below highly restrictive)";
    /// Non-ASCII text whose confusable skeleton is plain ASCII.
    Confusable = "confusable", Warning, "RFC 3987 §7.5 and §8, UTS #39 §4",
        "non-ASCII component that looks like an ASCII one (confusable skeleton is ASCII)";
    /// Text that is not in Normalization Form C.
    NotNfc = "not-nfc", Warning, "RFC 3987 §5.3.2.2",
        "component is not in NFC";
    /// Text in NFC but not in NFKC (compatibility characters).
    NotNfkc = "not-nfkc", Info, "RFC 3987 §7.5, 2003 draft §6.5",
        "component contains compatibility characters (not in NFKC)";
    /// A private-use character outside the query.
    IprivateOutsideQuery = "iprivate-outside-query", Error, "RFC 3987 §2.2",
        "private-use character (iprivate) outside the query";
    /// Percent-encoded octets >= 0x80 that are not well-formed UTF-8.
    PctInvalidUtf8 = "pct-invalid-utf8", Warning, "RFC 3987 §3.2 step 3, §8; RFC 3629",
        "percent-encoded octets that are not well-formed UTF-8";
    /// Percent-encoded overlong UTF-8 (`%C0%AF`).
    PctOverlongUtf8 = "pct-overlong-utf8", Error, "RFC 3987 §8, RFC 3629 §10",
        "percent-encoded overlong UTF-8 form (decodes to ASCII in lax decoders)";
    /// `%00`.
    PctNul = "pct-nul", Warning, "RFC 3986 §7.3",
        "percent-encoded NUL (%00)";
    /// A path segment that is `.` or `..` once its percent-encoded dots are decoded.
    PctDotSegment = "pct-dot-segment", Warning, "RFC 3986 §7.3, §6.2.2.2, §5.2.4",
        "path segment is a dot segment once percent-decoded (%2e%2e)";
    /// A userinfo subcomponent is present.
    UserinfoPresent = "userinfo-present", Info, "RFC 3986 §7.6",
        "userinfo present (rarely used; it can hide the real host)";
    /// A non-empty password in the userinfo.
    UserinfoPassword = "userinfo-password", Error, "RFC 3986 §3.2.1, §7.5",
        "userinfo carries a password (deprecated; should be considered an error)";
    /// A userinfo that reads like a host name or IP address.
    UserinfoLooksLikeHost = "userinfo-looks-like-host", Warning, "RFC 3986 §7.6",
        "userinfo looks like a host name or IP address (semantic attack)";
    /// A host that platform resolvers read as an IP address in a non-standard form.
    RareIpForm = "rare-ip-form", Warning, "RFC 3986 §7.4, §3.2.2; RFC 4291 §2.5.5",
        "host is an IP address in a rare form (octal, hex, fewer parts, IPv4 in IPv6, IPvFuture)";
    /// An explicit port in 0-1023 that is not the scheme's default port.
    WellKnownPort = "well-known-port", Warning, "RFC 3986 §7.2",
        "explicit well-known port (0-1023) other than the scheme's default";
    /// A port above 65535.
    PortOutOfRange = "port-out-of-range", Warning, "RFC 3986 §3.2.3, RFC 6335 §6",
        "port number above 65535";
    /// A host that UTS #46 ToASCII refuses.
    IdnaInvalid = "idna-invalid", Error, "UTS #46 §4, RFC 3987 §3.1, RFC 5890",
        "host fails UTS #46 processing";
    /// An `xn--` label that is not valid Punycode or not a valid A-label.
    IdnaBadPunycode = "idna-bad-punycode", Error, "UTS #46 §4.1, RFC 3492, RFC 5891 §5.4",
        "xn-- label that is not a valid A-label";
    /// A percent-encoded host that does not decode to UTF-8.
    IdnaNotUtf8 = "idna-not-utf8", Error, "RFC 3986 §3.2.2, RFC 3987 §3.1",
        "percent-encoded host is not UTF-8";
    /// A non-ASCII host over the bound irinorm applies before UTS #46.
    IdnaTooLong = "idna-too-long", Error, "irinorm docs/limits.md (MAX_IDN_HOST_BYTES)",
        "internationalized host longer than the bound applied before UTS #46";
    /// A reg-name holding a percent-encoded delimiter, space or control.
    HostEncodedDelimiter = "host-encoded-delimiter", Error, "RFC 3986 §3.2.2, §7.3; WHATWG URL host parser",
        "host with a percent-encoded delimiter, space or control: RFC-valid, refused by browsers, read differently by decoding parsers";
    /// A literal `\`: RFC 3986 refuses it, WHATWG reads `/` in special schemes.
    Backslash = "backslash", Warning, "RFC 3986 §2, §3.3; WHATWG URL (\\ as / in special schemes)",
        "backslash: not allowed by RFC 3986, read as '/' by browsers in http(s), ws(s), ftp, file";
    /// An internationalized host holding a percent-encoded reserved ASCII character.
    IdnaEncodedAscii = "idna-encoded-ascii", Warning, "RFC 3986 §2.2, §6.2.2.2; UTS #46 §4",
        "internationalized host with a percent-encoded reserved ASCII character (not mapped)";
    /// A host that UTS #46 maps to nothing.
    IdnaEmpty = "idna-empty", Error, "UTS #46 §4 (ignored characters), RFC 1034 §3.1",
        "host made only of characters UTS #46 ignores: it maps to the empty name";
    /// A label over 63 octets in A-label form.
    DnsLabelTooLong = "dns-label-too-long", Warning, "RFC 1034 §3.1, RFC 1035 §2.3.4",
        "host label longer than 63 octets (A-label form)";
    /// A name over 253 octets in A-label form.
    DnsNameTooLong = "dns-name-too-long", Warning, "RFC 1034 §3.1, RFC 3986 §3.2.2",
        "host name longer than 253 octets (A-label form, without the root dot)";
    /// An empty label other than the root.
    DnsEmptyLabel = "dns-empty-label", Warning, "RFC 1034 §3.1",
        "empty label in a host name (only the root label may be empty)";
}

impl Code {
    /// The code with this name.
    pub fn from_name(s: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == s)
    }

    pub(crate) const fn bit(self) -> u64 {
        1u64 << (self as u32)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Code {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Code::from_name(s).ok_or_else(|| format!("unknown lint code {s:?}"))
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A set of codes (which checks run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckSet(u64);

impl CheckSet {
    /// Every code.
    pub fn all() -> Self {
        CheckSet(Code::ALL.iter().fold(0, |m, c| m | c.bit()))
    }
    /// No code.
    pub const fn none() -> Self {
        CheckSet(0)
    }
    /// This set plus `code`.
    #[must_use]
    pub const fn with(self, code: Code) -> Self {
        CheckSet(self.0 | code.bit())
    }
    /// This set without `code`.
    #[must_use]
    pub const fn without(self, code: Code) -> Self {
        CheckSet(self.0 & !code.bit())
    }
    /// Whether `code` is in the set.
    pub const fn contains(self, code: Code) -> bool {
        self.0 & code.bit() != 0
    }
    /// Whether any of `codes` is in the set.
    pub fn any(self, codes: &[Code]) -> bool {
        codes.iter().any(|&c| self.contains(c))
    }
}

impl Default for CheckSet {
    fn default() -> Self {
        CheckSet::all()
    }
}

impl FromIterator<Code> for CheckSet {
    fn from_iter<I: IntoIterator<Item = Code>>(iter: I) -> Self {
        iter.into_iter().fold(CheckSet::none(), CheckSet::with)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_and_fit_the_mask() {
        assert!(Code::ALL.len() <= 64);
        let mut seen = std::collections::HashSet::new();
        for &c in Code::ALL {
            let s = c.as_str();
            assert!(seen.insert(s), "{s} twice");
            assert!(
                s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{s}"
            );
            assert_eq!(Code::from_name(s), Some(c));
        }
        let all = CheckSet::all();
        assert!(Code::ALL.iter().all(|&c| all.contains(c)));
        assert!(!all.without(Code::Confusable).contains(Code::Confusable));
    }
}
