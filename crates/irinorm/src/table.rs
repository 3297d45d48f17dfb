//! Byte-class lookup tables written from the ABNF of RFC 3986 Appendix A
//! (and RFC 3987 §2.2, whose ASCII part is the same).
//!
//! Every table is a `const` built at compile time, so the hot loops of the
//! parser and the normalizer are one load and one mask per byte. Bytes
//! `>= 0x80` are in no class: the IRI grammar's `ucschar`/`iprivate` are
//! checked on decoded code points (see [`crate::ucs`]).
//!
//! The `*_FAST` classes deliberately leave out the bytes that need a second
//! look (`%`, `/`, upper-case letters where case matters...), so that a loop
//! can copy or skip runs of "plain" bytes and drop into a slow branch only
//! where something may happen.

/// `ALPHA` (RFC 5234 B.1).
pub(crate) const ALPHA: u16 = 1 << 0;
/// `DIGIT`.
pub(crate) const DIGIT: u16 = 1 << 1;
/// `HEXDIG` (both cases: ABNF strings are case-insensitive, RFC 5234 §2.3).
pub(crate) const HEXDIG: u16 = 1 << 2;
/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986 §2.3).
pub(crate) const UNRESERVED: u16 = 1 << 3;
/// `sub-delims` (RFC 3986 §2.2).
pub(crate) const SUB_DELIM: u16 = 1 << 4;
/// `gen-delims` (RFC 3986 §2.2).
pub(crate) const GEN_DELIM: u16 = 1 << 5;
/// `scheme` characters after the first: `ALPHA / DIGIT / "+" / "-" / "."` (RFC 3986 §3.1).
pub(crate) const SCHEME: u16 = 1 << 6;
/// `userinfo` characters except `pct-encoded`: unreserved / sub-delims / ":" (RFC 3986 §3.2.1).
pub(crate) const USERINFO: u16 = 1 << 7;
/// `reg-name` characters except `pct-encoded`: unreserved / sub-delims (RFC 3986 §3.2.2).
pub(crate) const REG_NAME: u16 = 1 << 8;
/// `pchar` except `pct-encoded`: unreserved / sub-delims / ":" / "@" (RFC 3986 §3.3).
pub(crate) const PCHAR: u16 = 1 << 9;
/// `query` / `fragment` characters except `pct-encoded`: pchar / "/" / "?" (RFC 3986 §3.4, §3.5).
pub(crate) const QUERY: u16 = 1 << 10;
/// Upper-case ASCII letters `A-Z`.
pub(crate) const UPPER: u16 = 1 << 11;
/// Printable ASCII that RFC 3987 §3.1 allows a mapping to percent-encode:
/// `<`, `>`, `"`, space, `{`, `}`, `|`, `\`, `^` and `` ` ``.
pub(crate) const UNWISE: u16 = 1 << 12;
/// Characters allowed somewhere in a URI: unreserved / reserved / "%".
pub(crate) const URI_CHAR: u16 = 1 << 13;
/// Parser fast class for the authority: `USERINFO` without `:`, `-` and
/// upper-case letters, the bytes that the parser must note (port
/// delimiter, a possible `xn--` label, case hint); everything else there
/// is plain.
pub(crate) const AUTH_FAST: u16 = 1 << 14;
/// Parser fast class for the path: `pchar` (without `pct-encoded`) and `/`,
/// without `.` (which may start a dot segment).
pub(crate) const PATH_FAST: u16 = 1 << 15;

/// The class table (`const`: the scanner builds its nibble tables from it,
/// `crate::scan`).
pub(crate) const fn build() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut b = 0usize;
    while b < 128 {
        let c = b as u8;
        let mut bits = 0u16;
        let alpha = c.is_ascii_alphabetic();
        let digit = c.is_ascii_digit();
        if alpha {
            bits |= ALPHA;
        }
        if c.is_ascii_uppercase() {
            bits |= UPPER;
        }
        if digit {
            bits |= DIGIT;
        }
        if c.is_ascii_hexdigit() {
            bits |= HEXDIG;
        }
        let unreserved = alpha || digit || c == b'-' || c == b'.' || c == b'_' || c == b'~';
        let sub = matches!(
            c,
            b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
        );
        let gen = matches!(c, b':' | b'/' | b'?' | b'#' | b'[' | b']' | b'@');
        if unreserved {
            bits |= UNRESERVED;
        }
        if sub {
            bits |= SUB_DELIM;
        }
        if gen {
            bits |= GEN_DELIM;
        }
        if alpha || digit || c == b'+' || c == b'-' || c == b'.' {
            bits |= SCHEME;
        }
        if unreserved || sub {
            bits |= REG_NAME | USERINFO | PCHAR | QUERY;
        }
        if c == b':' {
            bits |= USERINFO | PCHAR | QUERY;
        }
        if c == b'@' {
            bits |= PCHAR | QUERY;
        }
        if c == b'/' || c == b'?' {
            bits |= QUERY;
        }
        if matches!(
            c,
            b'<' | b'>' | b'"' | b' ' | b'{' | b'}' | b'|' | b'\\' | b'^' | b'`'
        ) {
            bits |= UNWISE;
        }
        if unreserved || sub || gen || c == b'%' {
            bits |= URI_CHAR;
        }
        if (unreserved || sub) && !c.is_ascii_uppercase() && c != b'-' {
            bits |= AUTH_FAST;
        }
        if (unreserved || sub || c == b':' || c == b'@' || c == b'/') && c != b'.' {
            bits |= PATH_FAST;
        }
        t[b] = bits;
        b += 1;
    }
    t
}

/// The class table: `TABLE[byte] & CLASS != 0` when `byte` is in `CLASS`.
pub(crate) static TABLE: [u16; 256] = build();

/// Whether `b` is in the class `class`.
#[inline(always)]
pub(crate) fn is(b: u8, class: u16) -> bool {
    TABLE[b as usize] & class != 0
}

/// Value of a hex digit (caller has checked `HEXDIG`).
#[inline(always)]
pub(crate) fn hex_val(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        _ => b.wrapping_sub(b'A').wrapping_add(10) & 0x0f,
    }
}

/// Upper-case hex digits, for writing `%HH` (RFC 3986 §2.1: "URI producers and
/// normalizers should use uppercase hexadecimal digits").
pub(crate) const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `%HH` for `byte` with upper-case hex digits.
#[inline]
pub(crate) fn push_pct(out: &mut String, byte: u8) {
    out.push('%');
    out.push(HEX_UPPER[(byte >> 4) as usize] as char);
    out.push(HEX_UPPER[(byte & 0x0f) as usize] as char);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(c: u16) -> String {
        (0u8..128)
            .filter(|&b| is(b, c))
            .map(|b| b as char)
            .collect()
    }

    #[test]
    fn classes_match_the_abnf() {
        assert_eq!(class(SUB_DELIM), "!$&'()*+,;=");
        assert_eq!(class(GEN_DELIM), "#/:?@[]");
        assert_eq!(
            class(UNRESERVED),
            "-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
        );
        assert_eq!(class(UNWISE), " \"<>\\^`{|}");
        // Nothing at or above 0x80 is in any class.
        assert!((128u8..=255).all(|b| TABLE[b as usize] == 0));
        // Controls are in no class.
        assert!((0u8..0x20).chain([0x7f]).all(|b| TABLE[b as usize] == 0));
        // '%' is only in URI_CHAR: pct-encoded is checked separately.
        assert_eq!(TABLE[b'%' as usize], URI_CHAR);
    }

    #[test]
    fn fast_classes() {
        let userinfo_plain = class(USERINFO)
            .chars()
            .filter(|&c| c != ':' && c != '-' && !c.is_ascii_uppercase())
            .collect::<String>();
        assert_eq!(class(AUTH_FAST), userinfo_plain);
        let mut path: Vec<char> = class(PCHAR).chars().filter(|&c| c != '.').collect();
        path.push('/');
        path.sort_unstable();
        assert_eq!(class(PATH_FAST), path.into_iter().collect::<String>());
    }

    #[test]
    fn component_sets() {
        assert!(is(b':', USERINFO) && !is(b'@', USERINFO));
        assert!(!is(b':', REG_NAME));
        assert!(is(b'@', PCHAR) && is(b':', PCHAR) && !is(b'/', PCHAR));
        assert!(is(b'/', QUERY) && is(b'?', QUERY) && !is(b'#', QUERY));
    }

    #[test]
    fn hex() {
        for (i, c) in "0123456789abcdef".bytes().enumerate() {
            assert_eq!(hex_val(c) as usize, i);
            assert_eq!(hex_val(c.to_ascii_uppercase()) as usize, i);
        }
    }
}
