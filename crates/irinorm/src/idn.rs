//! Internationalized domain names through the `idna` crate (UTS #46,
//! non-transitional processing). irinorm never implements IDNA or Punycode
//! itself; this module only chooses the flags, bounds the cost, and turns
//! the crate's opaque failures into a report that names the label.

use std::borrow::Cow;

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

/// Which ASCII characters UTS #46 processing rejects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AsciiDeny {
    /// `UseSTD3ASCIIRules=true`: only letters, digits and hyphen.
    Std3,
    /// The WHATWG forbidden domain code points (`%#/:<>?@[\]^|`, space and
    /// controls): the default, because `_` and other sub-delims occur in
    /// real host names.
    Url,
    /// `UseSTD3ASCIIRules=false` with no deny list.
    None,
}

/// The UTS #46 flags irinorm uses for a host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IdnaProfile {
    /// ASCII deny list (UseSTD3ASCIIRules).
    pub deny: AsciiDeny,
    /// `CheckHyphens`.
    pub check_hyphens: bool,
    /// `VerifyDnsLength`.
    pub verify_dns_length: bool,
}

impl Default for IdnaProfile {
    /// The LADDER.md profile: non-transitional, CheckHyphens=false, the URL
    /// deny list, no DNS length verification (lengths are a lint finding,
    /// not a reason to refuse a name that UTS #46 accepts).
    fn default() -> Self {
        IdnaProfile {
            deny: AsciiDeny::Url,
            check_hyphens: false,
            verify_dns_length: false,
        }
    }
}

impl IdnaProfile {
    /// The flags of Unicode's conformance file IdnaTestV2.txt:
    /// UseSTD3ASCIIRules, CheckHyphens and VerifyDnsLength all true.
    pub const CONFORMANCE: IdnaProfile = IdnaProfile {
        deny: AsciiDeny::Std3,
        check_hyphens: true,
        verify_dns_length: true,
    };

    /// Whether this profile refuses ASCII names that UTS #46 with the
    /// default flags accepts (UseSTD3ASCIIRules, CheckHyphens or
    /// VerifyDnsLength set). Under such a profile a pure-ASCII host must go
    /// through UTS #46 too: `a_b`, `-a`, `ab--c` or a 64-letter label are
    /// refused by these checks, and skipping them would make the profile
    /// accept what it says it refuses.
    pub const fn checks_ascii(&self) -> bool {
        matches!(self.deny, AsciiDeny::Std3) || self.check_hyphens || self.verify_dns_length
    }

    fn deny(&self) -> AsciiDenyList {
        match self.deny {
            AsciiDeny::Std3 => AsciiDenyList::STD3,
            AsciiDeny::Url => AsciiDenyList::URL,
            AsciiDeny::None => AsciiDenyList::EMPTY,
        }
    }
    fn hyphens(&self) -> Hyphens {
        if self.check_hyphens {
            Hyphens::Check
        } else {
            Hyphens::Allow
        }
    }
    fn dns_length(&self) -> DnsLength {
        if self.verify_dns_length {
            DnsLength::Verify
        } else {
            DnsLength::Ignore
        }
    }
}

/// Hosts longer than this (in bytes, after percent-decoding) are refused
/// before any UTS #46 work: a DNS name is at most 253 octets in A-label
/// form, and this bound leaves room for every mapping UTS #46 can shrink
/// (ignored characters, full-width forms). It keeps the cost of a hostile
/// "host" of megabytes linear and small.
pub const MAX_IDN_HOST_BYTES: usize = 1024;

/// Why a host failed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IdnaErrorKind {
    /// Longer than [`MAX_IDN_HOST_BYTES`]; not processed.
    TooLong,
    /// Percent-decoding the host gave bytes that are not UTF-8.
    NotUtf8,
    /// A label starting with `xn--` that is not valid Punycode or not a
    /// valid A-label.
    BadPunycode,
    /// A label with a disallowed or unassigned character, or breaking a
    /// UTS #46 validity criterion (hyphens, bidi rule, joiners, lengths).
    Invalid,
    /// A label holding a percent-encoded ASCII character (`%2C`): decoding
    /// it for UTS #46 would decode a reserved character, which no rung
    /// ever does (LADDER.md invariant 6).
    EncodedAscii,
    /// UTS #46 maps the whole host to nothing (only ignored characters,
    /// such as U+00AD SOFT HYPHEN): an empty host is not a DNS name.
    Empty,
}

impl IdnaErrorKind {
    /// Stable code for reports.
    pub const fn code(&self) -> &'static str {
        match self {
            IdnaErrorKind::TooLong => "idna-too-long",
            IdnaErrorKind::NotUtf8 => "idna-not-utf8",
            IdnaErrorKind::BadPunycode => "idna-bad-punycode",
            IdnaErrorKind::Invalid => "idna-invalid",
            IdnaErrorKind::EncodedAscii => "idna-encoded-ascii",
            IdnaErrorKind::Empty => "idna-empty",
        }
    }
}

/// A host that UTS #46 refused: why, and the first label found at fault
/// (the whole host when the failure is not local to one label, as with
/// the bidi rule).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IdnaError {
    /// Why.
    pub kind: IdnaErrorKind,
    /// The label at fault.
    pub label: String,
}

impl core::fmt::Display for IdnaError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} (label {:?})", self.kind.code(), self.label)
    }
}

impl std::error::Error for IdnaError {}

static UTS46: Uts46 = Uts46::new();

/// UTS #46 ToASCII of a host given as text (already percent-decoded).
pub fn to_ascii<'a>(host: &'a str, profile: &IdnaProfile) -> Result<Cow<'a, str>, IdnaError> {
    if host.len() > MAX_IDN_HOST_BYTES {
        return Err(IdnaError {
            kind: IdnaErrorKind::TooLong,
            label: truncate(host),
        });
    }
    UTS46
        .to_ascii(
            host.as_bytes(),
            profile.deny(),
            profile.hyphens(),
            profile.dns_length(),
        )
        .map_err(|_| diagnose(host, profile))
}

/// UTS #46 ToUnicode of a host: U-labels for every valid label.
pub fn to_unicode<'a>(host: &'a str, profile: &IdnaProfile) -> Result<Cow<'a, str>, IdnaError> {
    if host.len() > MAX_IDN_HOST_BYTES {
        return Err(IdnaError {
            kind: IdnaErrorKind::TooLong,
            label: truncate(host),
        });
    }
    let (out, res) = UTS46.to_unicode(host.as_bytes(), profile.deny(), profile.hyphens());
    match res {
        Ok(()) => {
            if profile.verify_dns_length {
                // ToUnicode has no length check of its own; verify the A-label form.
                to_ascii(host, profile)?;
            }
            Ok(out)
        }
        Err(_) => Err(diagnose(host, profile)),
    }
}

/// Whether a host needs UTS #46 at all: it has non-ASCII or an ACE label
/// (`xn--`, any case). Pure-ASCII LDH-ish hosts are only lower-cased, which
/// rung 1 already did; running them through UTS #46 would change nothing
/// for valid names and refuse names with `_` that DNS itself allows.
pub fn needs_uts46(host: &str) -> bool {
    scan_host(host.as_bytes(), false)
}

/// One pass over a host: non-ASCII, an ACE label (`xn--` at the start of a
/// label, any case) or, with `pct`, a `%`. This runs for every URL with a
/// DNS host, so it looks at eight bytes at a time (the last eight bytes
/// overlap the previous chunk): a byte >= 0x80 or a `%` answers at once;
/// the exact byte loop ([`scan_host_exact`]) runs for hosts shorter than
/// eight bytes and when two adjacent `-` (which every `xn--` label has)
/// may be there.
#[inline]
pub(crate) fn scan_host(b: &[u8], pct: bool) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // The high bit of each byte of `x` that is zero, exactly (no carry
    // crosses bytes: each byte of `(x & 0x7f..) + 0x7f..` is at most 0xfe).
    #[inline(always)]
    fn zero_bytes(x: u64) -> u64 {
        !(((x & !HIGH) + !HIGH) | x) & HIGH
    }
    let n = b.len();
    if n < 8 {
        return scan_host_exact(b, pct);
    }
    let pct_mask = u64::from(b'%') * ONES;
    let mut prev_hyphen = 0u64;
    let mut i = 0;
    loop {
        let at = i.min(n - 8);
        let mut chunk = [0u8; 8];
        chunk.copy_from_slice(&b[at..at + 8]);
        let w = u64::from_le_bytes(chunk);
        if w & HIGH != 0 || (pct && zero_bytes(w ^ pct_mask) != 0) {
            return true;
        }
        let h = zero_bytes(w ^ (u64::from(b'-') * ONES));
        // Adjacent '-' in this chunk, or across the previous one's end
        // (for the overlapping last chunk this may be a false alarm: the
        // exact loop then decides).
        if h & (h >> 8) != 0 || (prev_hyphen & h & 0x80) != 0 {
            return scan_host_exact(b, pct);
        }
        if at + 8 == n {
            return false;
        }
        prev_hyphen = h >> 56;
        i += 8;
    }
}

/// [`scan_host`] byte by byte.
fn scan_host_exact(b: &[u8], pct: bool) -> bool {
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c >= 0x80 || (pct && c == b'%') {
            return true;
        }
        // "xn--" at the start of a label, checked at its second '-'.
        if c == b'-'
            && i >= 3
            && b[i - 1] == b'-'
            && b[i - 2] | 0x20 == b'n'
            && b[i - 3] | 0x20 == b'x'
            && (i == 3 || b[i - 4] == b'.')
        {
            return true;
        }
        i += 1;
    }
    false
}

/// [`needs_uts46`] under a profile: with a profile that
/// [checks ASCII](IdnaProfile::checks_ascii), every non-empty host needs
/// UTS #46 (an empty host is no DNS name: nothing to check).
pub fn needs_uts46_with(host: &str, profile: &IdnaProfile) -> bool {
    needs_uts46(host) || (profile.checks_ascii() && !host.is_empty())
}

fn truncate(s: &str) -> String {
    let mut end = s.len().min(64);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_owned()
}

/// On the error path only: find the first label that fails on its own.
#[cold]
fn diagnose(host: &str, profile: &IdnaProfile) -> IdnaError {
    // UTS #46 label separators: FULL STOP and the three it maps to it.
    for label in host.split(['.', '\u{3002}', '\u{FF0E}', '\u{FF61}']) {
        let single = UTS46.to_ascii(
            label.as_bytes(),
            profile.deny(),
            profile.hyphens(),
            DnsLength::Ignore,
        );
        let too_long = profile.verify_dns_length && single.as_ref().is_ok_and(|a| a.len() > 63);
        if single.is_err() || too_long {
            // Bytes, not `label[..4]`: byte 4 need not be a char boundary.
            let kind = if label.len() >= 4 && label.as_bytes()[..4].eq_ignore_ascii_case(b"xn--") {
                IdnaErrorKind::BadPunycode
            } else {
                IdnaErrorKind::Invalid
            };
            return IdnaError {
                kind,
                label: truncate(label),
            };
        }
    }
    IdnaError {
        kind: IdnaErrorKind::Invalid,
        label: truncate(host),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_and_unicode() {
        let p = IdnaProfile::default();
        assert_eq!(
            to_ascii("résumé.example.org", &p).unwrap(),
            "xn--rsum-bpad.example.org"
        );
        assert_eq!(
            to_unicode("xn--rsum-bpad.example.org", &p).unwrap(),
            "résumé.example.org"
        );
        assert_eq!(to_ascii("Bücher.DE", &p).unwrap(), "xn--bcher-kva.de");
        assert_eq!(to_ascii("faß.de", &p).unwrap(), "xn--fa-hia.de");
        assert_eq!(to_ascii("♥.net", &p).unwrap(), "xn--g6h.net");
        assert_eq!(to_ascii("\u{2F868}.com", &p).unwrap(), "xn--snl.com");
    }

    #[test]
    fn failures_name_the_label() {
        let p = IdnaProfile::default();
        let e = to_ascii("ok.\u{0378}.net", &p).unwrap_err();
        assert_eq!(e.kind, IdnaErrorKind::Invalid);
        assert_eq!(e.label, "\u{0378}");
        let e = to_unicode("a.xn--a-.b", &p).unwrap_err();
        assert_eq!(e.kind, IdnaErrorKind::BadPunycode);
        let e = to_ascii(&"é".repeat(2000), &p).unwrap_err();
        assert_eq!(e.kind, IdnaErrorKind::TooLong);
        // A failing label whose byte 4 is inside a character (here the
        // RFC 5893 bidi rule fails) used to panic while being diagnosed.
        let e = to_ascii("\u{05D0}1\u{05D1}a.example", &p).unwrap_err();
        assert_eq!(e.kind, IdnaErrorKind::Invalid);
        assert_eq!(e.label, "\u{05D0}1\u{05D1}a");
    }

    #[test]
    fn which_hosts_need_it() {
        assert!(!needs_uts46("example.com"));
        assert!(!needs_uts46("_dmarc.example.com"));
        assert!(needs_uts46("XN--rsum-bpad.example.org"));
        assert!(needs_uts46("bücher.de"));
        assert!(!needs_uts46("axn--b.com"));
    }

    #[test]
    fn strict_profiles_check_ascii_hosts() {
        let d = IdnaProfile::default();
        let c = IdnaProfile::CONFORMANCE;
        assert!(!d.checks_ascii());
        assert!(c.checks_ascii());
        for one in [
            IdnaProfile {
                deny: AsciiDeny::Std3,
                ..d
            },
            IdnaProfile {
                check_hyphens: true,
                ..d
            },
            IdnaProfile {
                verify_dns_length: true,
                ..d
            },
        ] {
            assert!(one.checks_ascii(), "{one:?}");
        }
        // UTS #46 refuses these under the conformance flags (U1, V3, V2,
        // A4_2); the fast path must not skip them.
        for h in ["a_b.com", "-a.com", "ab--c.com", &"a".repeat(64)] {
            assert!(!needs_uts46_with(h, &d), "{h}");
            assert!(needs_uts46_with(h, &c), "{h}");
            assert!(to_ascii(h, &c).is_err(), "{h}");
        }
        assert!(!needs_uts46_with("", &c));
        assert!(needs_uts46_with("bücher.de", &d));
    }

    #[test]
    fn scan_host_matches_the_byte_loop() {
        // Every placement of the interesting bytes around the 8-byte chunk
        // boundaries, with and without `pct`.
        let pieces: [&[u8]; 9] = [
            b"xn--",
            b"XN--",
            b"-",
            b"--",
            b"%",
            b"\xc3\xa9",
            b".",
            b"a",
            b"x",
        ];
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for pad in 0..12 {
            for p in pieces {
                for q in pieces {
                    let mut v = vec![b'a'; pad];
                    v.extend_from_slice(p);
                    v.extend(std::iter::repeat_n(b'b', pad % 5));
                    v.extend_from_slice(q);
                    cases.push(v.clone());
                    v.insert(0, b'.');
                    cases.push(v);
                }
            }
        }
        for c in &cases {
            for pct in [false, true] {
                assert_eq!(
                    scan_host(c, pct),
                    scan_host_exact(c, pct),
                    "{:?} {pct}",
                    String::from_utf8_lossy(c)
                );
            }
        }
    }
}
