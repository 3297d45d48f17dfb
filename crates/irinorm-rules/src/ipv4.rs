//! The IPv4 forms that RFC 3986 §7.4 warns about ("hexadecimal, octal, or
//! a dotted form with fewer than four parts"), read the way `inet_aton()`
//! and the WHATWG URL Standard's IPv4 parser read them, for
//! `decode-ipv4-forms`.

/// One part: `0x`/`0X` hex (empty after the prefix is 0), a leading `0`
/// octal, else decimal. `None` when it is not a number or exceeds u32.
fn number(p: &str) -> Option<u64> {
    let (digits, radix) = if let Some(h) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
        (h, 16)
    } else if p.len() > 1 && p.starts_with('0') {
        (&p[1..], 8)
    } else {
        (p, 10)
    };
    if digits.is_empty() {
        return (radix != 10).then_some(0);
    }
    let mut v: u64 = 0;
    for c in digits.bytes() {
        let d = (c as char).to_digit(radix)? as u64;
        v = v * radix as u64 + d;
        if v > u32::MAX as u64 {
            return None;
        }
    }
    Some(v)
}

/// Parses a host written in any of the IPv4 forms: 1 to 4 numeric parts
/// (a trailing empty label allowed), all but the last at most 255, the
/// last filling the remaining bytes. `None` when the host is not such a
/// form (then it is a name and is left alone).
pub fn parse_forms(host: &str) -> Option<[u8; 4]> {
    let host = host.strip_suffix('.').unwrap_or(host);
    if host.is_empty() {
        return None;
    }
    let parts: Vec<&str> = host.split('.').collect();
    if parts.len() > 4 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    let nums: Vec<u64> = parts.iter().map(|p| number(p)).collect::<Option<_>>()?;
    let (last, init) = nums.split_last()?;
    if init.iter().any(|&n| n > 255) {
        return None;
    }
    let room = 8 * (5 - nums.len() as u32);
    if *last >= 1u64 << room.min(32) && room < 32 {
        return None;
    }
    let mut v: u64 = *last;
    for (i, n) in init.iter().enumerate() {
        v += n << (8 * (3 - i));
    }
    Some((v as u32).to_be_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> Option<String> {
        parse_forms(s).map(|b| format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]))
    }

    #[test]
    fn rfc3986_7_4_forms() {
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
        assert_eq!(f("1.256"), Some("1.0.1.0".to_owned()));
        assert_eq!(f("256.1"), None);
        assert_eq!(f("1.2.3.256"), None);
        assert_eq!(f("1.2.3.4.5"), None);
        assert_eq!(f("08.1.1.1"), None); // 8 is not octal
        assert_eq!(f("example.com"), None);
        assert_eq!(f("1.2..3"), None);
        assert_eq!(f("www1355544.com"), None);
    }
}
