//! Hosts: the IPv4address, IPv6address and IPvFuture rules of RFC 3986
//! §3.2.2, IPv6 zone identifiers (RFC 6874), and the RFC 5952 text form of
//! IPv6 addresses used by the scheme rung.

use crate::table::{is, HEXDIG, SUB_DELIM, UNRESERVED};

/// What kind of host a reference has (RFC 3986 §3.2.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// `reg-name` / `ireg-name`: a registered name (usually a DNS name), possibly empty.
    #[default]
    RegName,
    /// `IPv4address` in dotted-decimal form. Per §3.2.2, a host that matches
    /// IPv4address is an IPv4 literal, not a reg-name.
    Ipv4,
    /// `IP-literal` holding an `IPv6address`, possibly with an RFC 6874 zone.
    Ipv6,
    /// `IP-literal` holding an `IPvFuture`.
    IpvFuture,
}

impl HostKind {
    /// Lower-case name used in JSON output.
    pub const fn name(self) -> &'static str {
        match self {
            HostKind::RegName => "reg-name",
            HostKind::Ipv4 => "ipv4",
            HostKind::Ipv6 => "ipv6",
            HostKind::IpvFuture => "ipvfuture",
        }
    }
}

/// `dec-octet` (RFC 3986 §3.2.2): 0-255 without leading zeros.
fn dec_octet(s: &[u8]) -> Option<u8> {
    match s {
        [d @ b'0'..=b'9'] => Some(d - b'0'),
        [a @ b'1'..=b'9', b @ b'0'..=b'9'] => Some((a - b'0') * 10 + (b - b'0')),
        [b'1', b @ b'0'..=b'9', c @ b'0'..=b'9'] => Some(100 + (b - b'0') * 10 + (c - b'0')),
        [b'2', b @ b'0'..=b'4', c @ b'0'..=b'9'] => Some(200 + (b - b'0') * 10 + (c - b'0')),
        [b'2', b'5', c @ b'0'..=b'5'] => Some(250 + (c - b'0')),
        _ => None,
    }
}

/// Parses `IPv4address` exactly (four dec-octets).
pub fn parse_ipv4(s: &[u8]) -> Option<[u8; 4]> {
    let mut out = [0u8; 4];
    let mut parts = s.split(|&b| b == b'.');
    for o in &mut out {
        *o = dec_octet(parts.next()?)?;
    }
    if parts.next().is_some() {
        return None;
    }
    Some(out)
}

/// Reads a host the way `inet_aton()` and the WHATWG URL Standard read
/// IPv4 addresses, the forms RFC 3986 §7.4 warns about ("hexadecimal,
/// octal, or a dotted form with fewer than four parts"): one to four parts
/// separated by `.` (one trailing `.` allowed), each decimal, octal
/// (leading `0`) or hexadecimal (leading `0x`, possibly with no digits),
/// every part but the last at most 255, the last filling the remaining
/// bytes. `None` when the host is not such a form (then it is a name).
/// Linear: digits past the range stop counting.
pub fn parse_ipv4_forms(b: &[u8]) -> Option<u32> {
    let b = b.strip_suffix(b".").unwrap_or(b);
    if b.is_empty() {
        return None;
    }
    let mut parts = [0u64; 4];
    let mut n = 0;
    for part in b.split(|&c| c == b'.') {
        if n == 4 {
            return None;
        }
        parts[n] = c_number(part)?;
        n += 1;
    }
    if parts[..n - 1].iter().any(|&p| p > 255) {
        return None;
    }
    let last_max: u64 = match n {
        1 => 0xFFFF_FFFF,
        2 => 0xFF_FFFF,
        3 => 0xFFFF,
        _ => 0xFF,
    };
    if parts[n - 1] > last_max {
        return None;
    }
    let mut v = parts[n - 1];
    for (k, &p) in parts[..n - 1].iter().enumerate() {
        v |= p << (24 - 8 * k);
    }
    u32::try_from(v).ok()
}

/// A C integer literal (`0x1F`, `017`, `42`), saturating just past u32.
fn c_number(p: &[u8]) -> Option<u64> {
    if p.is_empty() {
        return None;
    }
    let (digits, radix) = if p.len() >= 2 && p[0] == b'0' && (p[1] | 0x20) == b'x' {
        (&p[2..], 16)
    } else if p.len() >= 2 && p[0] == b'0' {
        (&p[1..], 8)
    } else {
        (p, 10)
    };
    let mut v: u64 = 0;
    for &c in digits {
        let d = char::from(c).to_digit(radix)?;
        v = (v * u64::from(radix) + u64::from(d)).min(1 << 33);
    }
    Some(v)
}

/// Parses `IPv6address` (every form of the RFC 3986 §3.2.2 ABNF, including
/// an embedded IPv4 `ls32`) into its eight 16-bit groups. On failure returns
/// the offset (relative to `s`) of the first byte that cannot be part of a
/// valid address.
pub fn parse_ipv6(s: &[u8]) -> Result<[u16; 8], usize> {
    let len = s.len();
    let mut groups = [0u16; 8];
    let mut n = 0usize;
    let mut compress: Option<usize> = None;
    let mut i = 0usize;
    if len >= 2 && s[0] == b':' && s[1] == b':' {
        compress = Some(0);
        i = 2;
        if i == len {
            return Ok(groups);
        }
    } else if len >= 1 && s[0] == b':' {
        return Err(0);
    }
    loop {
        let start = i;
        let mut v: u32 = 0;
        while i < len && i - start < 4 && is(s[i], HEXDIG) {
            v = (v << 4) | crate::table::hex_val(s[i]) as u32;
            i += 1;
        }
        if i == start {
            return Err(i);
        }
        if i < len && s[i] == b'.' {
            // ls32 as an IPv4address: only as the last element, and only
            // where two groups are left (at most 6 before it).
            if n > 6 {
                return Err(start);
            }
            let v4 = parse_ipv4(&s[start..]).ok_or(start)?;
            groups[n] = u16::from_be_bytes([v4[0], v4[1]]);
            groups[n + 1] = u16::from_be_bytes([v4[2], v4[3]]);
            n += 2;
            break;
        }
        if n == 8 {
            return Err(start);
        }
        groups[n] = v as u16;
        n += 1;
        if i == len {
            break;
        }
        if s[i] != b':' {
            return Err(i);
        }
        i += 1;
        if i < len && s[i] == b':' {
            if compress.is_some() {
                return Err(i);
            }
            compress = Some(n);
            i += 1;
            if i == len {
                break;
            }
        } else if i == len {
            // a trailing single ':'
            return Err(i - 1);
        }
    }
    match compress {
        // "::" stands for at least one group.
        Some(at) => {
            if n > 7 {
                return Err(len);
            }
            let tail = n - at;
            let mut out = [0u16; 8];
            out[..at].copy_from_slice(&groups[..at]);
            out[8 - tail..].copy_from_slice(&groups[at..n]);
            Ok(out)
        }
        None if n == 8 => Ok(groups),
        None => Err(len),
    }
}

/// Validates `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
/// Returns the offset of the first bad byte on failure.
pub fn check_ipvfuture(s: &[u8]) -> Result<(), usize> {
    if s.is_empty() || !(s[0] == b'v' || s[0] == b'V') {
        return Err(0);
    }
    let mut i = 1;
    while i < s.len() && is(s[i], HEXDIG) {
        i += 1;
    }
    if i == 1 || i == s.len() || s[i] != b'.' {
        return Err(i);
    }
    i += 1;
    if i == s.len() {
        return Err(i);
    }
    while i < s.len() {
        let b = s[i];
        if !(is(b, UNRESERVED | SUB_DELIM) || b == b':') {
            return Err(i);
        }
        i += 1;
    }
    Ok(())
}

/// Validates an RFC 6874 zone suffix `"%25" ZoneID` where
/// `ZoneID = 1*( unreserved / pct-encoded )`. `s` starts at the `%`.
pub fn check_zone(s: &[u8]) -> Result<(), usize> {
    if !s.starts_with(b"%25") {
        return Err(0);
    }
    let mut i = 3;
    if i == s.len() {
        return Err(i);
    }
    while i < s.len() {
        let b = s[i];
        if is(b, UNRESERVED) {
            i += 1;
        } else if b == b'%' && i + 2 < s.len() && is(s[i + 1], HEXDIG) && is(s[i + 2], HEXDIG) {
            i += 3;
        } else {
            return Err(i);
        }
    }
    Ok(())
}

/// Whether the low 32 bits of an address carry an IPv4 address that RFC 5952
/// §5 recommends writing in dotted-decimal: the prefix alone tells that an
/// IPv4 address is embedded.
///
/// - `::ffff:0:0/96` IPv4-mapped (RFC 4291 §2.5.5.2)
/// - `::ffff:0:0:0/96` IPv4-translated (RFC 2765 §2.1)
/// - `64:ff9b::/96` the well-known NAT64 prefix (RFC 6052 §2.1)
/// - ISATAP interface identifiers `0000:5efe` / `0200:5efe` (RFC 5214 §6.1)
///
/// The deprecated IPv4-compatible form (`::a.b.c.d`) is not listed by
/// RFC 5952 and is written in hex, like `::1` and `::`.
pub fn has_embedded_ipv4(g: &[u16; 8]) -> bool {
    let mapped = g[..5] == [0, 0, 0, 0, 0] && g[5] == 0xffff;
    let translated = g[..4] == [0, 0, 0, 0] && g[4] == 0xffff && g[5] == 0;
    let nat64 = g[0] == 0x64 && g[1] == 0xff9b && g[2..6] == [0, 0, 0, 0];
    let isatap = (g[4] == 0 || g[4] == 0x0200) && g[5] == 0x5efe;
    mapped || translated || nat64 || isatap
}

/// Writes groups with RFC 5952 §4 rules: lower-case hex, no leading zeros,
/// the longest run (the first one on a tie) of two or more zero groups
/// replaced by `::`.
fn write_groups(g: &[u16], out: &mut String) {
    let (mut best_at, mut best_len) = (usize::MAX, 1usize);
    let mut i = 0;
    while i < g.len() {
        if g[i] == 0 {
            let start = i;
            while i < g.len() && g[i] == 0 {
                i += 1;
            }
            if i - start > best_len {
                best_at = start;
                best_len = i - start;
            }
        } else {
            i += 1;
        }
    }
    let mut i = 0;
    while i < g.len() {
        if i == best_at {
            out.push_str("::");
            i += best_len;
            continue;
        }
        if i > 0 && !out.ends_with(':') {
            out.push(':');
        }
        push_hex16(out, g[i]);
        i += 1;
    }
}

fn push_hex16(out: &mut String, v: u16) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut started = false;
    for shift in [12u16, 8, 4, 0] {
        let d = ((v >> shift) & 0xf) as usize;
        if d != 0 || started || shift == 0 {
            out.push(HEX[d] as char);
            started = true;
        }
    }
}

/// Writes an IPv6 address in the RFC 5952 canonical text form (without brackets).
pub fn write_ipv6_canonical(g: &[u16; 8], out: &mut String) {
    if has_embedded_ipv4(g) {
        let start = out.len();
        write_groups(&g[..6], out);
        if !out[start..].ends_with(':') {
            out.push(':');
        }
        let [a, b] = g[6].to_be_bytes();
        let [c, d] = g[7].to_be_bytes();
        use core::fmt::Write;
        let _ = write!(out, "{a}.{b}.{c}.{d}");
    } else {
        write_groups(g, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v6(s: &str) -> Option<String> {
        let g = parse_ipv6(s.as_bytes()).ok()?;
        let mut out = String::new();
        write_ipv6_canonical(&g, &mut out);
        Some(out)
    }

    #[test]
    fn ipv4_is_exact() {
        assert_eq!(parse_ipv4(b"1.2.3.4"), Some([1, 2, 3, 4]));
        assert_eq!(parse_ipv4(b"255.255.255.255"), Some([255; 4]));
        assert_eq!(parse_ipv4(b"256.1.1.1"), None);
        assert_eq!(parse_ipv4(b"01.1.1.1"), None);
        assert_eq!(parse_ipv4(b"1.1.1"), None);
        assert_eq!(parse_ipv4(b"1.1.1.1."), None);
        assert_eq!(parse_ipv4(b"1.1.1.1.1"), None);
        assert_eq!(parse_ipv4(b""), None);
    }

    #[test]
    fn ipv6_every_abnf_form() {
        // One example of each alternative of RFC 3986 §3.2.2.
        for ok in [
            "1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:1.2.3.4",
            "::2:3:4:5:6:7:8",
            "::3:4:5:6:7:1.2.3.4",
            "1::3:4:5:6:7:8",
            "1::4:5:6:7:8",
            "1:2::5:6:7:8",
            "1:2:3::6:7:8",
            "1:2:3:4::7:8",
            "1:2:3:4:5::8",
            "1:2:3:4:5:6::",
            "1:2:3:4:5::1.2.3.4",
            "::",
            "::1",
            "1::",
            "::ffff:1.2.3.4",
            "FEDC:BA98:7654:3210:FEDC:BA98:7654:3210",
            "1:2:3:4:5:6:7::",
            "::2:3:4:5:6:7:8",
        ] {
            assert!(parse_ipv6(ok.as_bytes()).is_ok(), "{ok}");
        }
        for bad in [
            "",
            ":",
            ":::",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7",
            "1::2::3",
            "12345::",
            "1:2:3:4:5:6:7:1.2.3.4",
            "1:2:3:4:5:6::1.2.3.4",
            "::1.2.3",
            "::1.2.3.256",
            "::01.2.3.4",
            ":1::",
            "1:",
            "1::2:",
            "g::",
            "1.2.3.4",
            "::1.2.3.4:1",
            "1:2:3:4:5:6:7:8::",
            "::1:2:3:4:5:6:7:8",
        ] {
            assert!(parse_ipv6(bad.as_bytes()).is_err(), "{bad}");
        }
    }

    #[test]
    fn rfc5952_text_form() {
        // RFC 5952 §4.1 leading zeros, §4.2.1 longest run, §4.2.2 no single
        // "::", §4.2.3 first on tie, §4.3 lower case, §5 mixed notation.
        assert_eq!(
            v6("2001:0db8:0000:0000:0000:0000:0000:0001").unwrap(),
            "2001:db8::1"
        );
        assert_eq!(v6("2001:db8:0:0:1:0:0:1").unwrap(), "2001:db8::1:0:0:1");
        assert_eq!(v6("2001:db8:0:1:1:1:1:1").unwrap(), "2001:db8:0:1:1:1:1:1");
        assert_eq!(v6("2001:db8::0:1").unwrap(), "2001:db8::1");
        assert_eq!(v6("2001:0:0:1:0:0:0:1").unwrap(), "2001:0:0:1::1");
        assert_eq!(v6("2001:DB8::AAAA").unwrap(), "2001:db8::aaaa");
        assert_eq!(v6("::").unwrap(), "::");
        assert_eq!(v6("::1").unwrap(), "::1");
        assert_eq!(v6("1::").unwrap(), "1::");
        assert_eq!(v6("::ffff:c000:0280").unwrap(), "::ffff:192.0.2.128");
        assert_eq!(v6("::FFFF:129.144.52.38").unwrap(), "::ffff:129.144.52.38");
        assert_eq!(v6("::ffff:0:1.2.3.4").unwrap(), "::ffff:0:1.2.3.4");
        assert_eq!(v6("64:ff9b::192.0.2.33").unwrap(), "64:ff9b::192.0.2.33");
        assert_eq!(v6("64:ff9b::c000:221").unwrap(), "64:ff9b::192.0.2.33");
        assert_eq!(v6("fe80::5efe:c000:201").unwrap(), "fe80::5efe:192.0.2.1");
        assert_eq!(
            v6("fe80::200:5efe:192.0.2.1").unwrap(),
            "fe80::200:5efe:192.0.2.1"
        );
        // IPv4-compatible is not a mixed-notation prefix in RFC 5952.
        assert_eq!(v6("::192.9.5.5").unwrap(), "::c009:505");
        assert_eq!(
            v6("2041:0000:140F::875B:131B").unwrap(),
            "2041:0:140f::875b:131b"
        );
        assert_eq!(
            v6("1080:0:0:0:8:800:200C:417A").unwrap(),
            "1080::8:800:200c:417a"
        );
    }

    #[test]
    fn ipvfuture_and_zone() {
        assert!(check_ipvfuture(b"v1.x").is_ok());
        assert!(check_ipvfuture(b"VF.a:b!").is_ok());
        assert!(check_ipvfuture(b"v.x").is_err());
        assert!(check_ipvfuture(b"v1.").is_err());
        assert!(check_ipvfuture(b"v1x").is_err());
        assert!(check_ipvfuture(b"v1.x/").is_err());
        assert!(check_zone(b"%25eth0").is_ok());
        assert!(check_zone(b"%25en%2F1").is_ok());
        assert!(check_zone(b"%25").is_err());
        assert!(check_zone(b"%eth0").is_err());
        assert!(check_zone(b"%25eth 0").is_err());
    }
    #[test]
    fn rfc3986_7_4_ipv4_forms() {
        let f = |s: &str| {
            parse_ipv4_forms(s.as_bytes()).map(|v| {
                let b = v.to_be_bytes();
                format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3])
            })
        };
        assert_eq!(f("0x7f.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(f("2130706433").as_deref(), Some("127.0.0.1"));
        assert_eq!(f("0177.0.0.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(f("127.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(f("127.0.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(f("0x7F000001").as_deref(), Some("127.0.0.1"));
        assert_eq!(f("1.2.3.4.").as_deref(), Some("1.2.3.4"));
        assert_eq!(f("0x").as_deref(), Some("0.0.0.0"));
        assert_eq!(f("4294967295").as_deref(), Some("255.255.255.255"));
        assert_eq!(f("4294967296"), None);
        assert_eq!(f("1.256").as_deref(), Some("1.0.1.0"));
        assert_eq!(f("256.1"), None);
        assert_eq!(f("1.2.3.256"), None);
        assert_eq!(f("1.2.3.4.5"), None);
        assert_eq!(f("08.1.1.1"), None); // 8 is not octal
        assert_eq!(f("example.com"), None);
        assert_eq!(f("1.2..3"), None);
        assert_eq!(f("www1355544.com"), None);
        assert_eq!(f(""), None);
        assert_eq!(f("."), None);
    }
}
