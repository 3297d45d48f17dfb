//! Percent-encoded octets: the strict UTF-8 reading of runs of triplets
//! (RFC 3629, with the lax readings that attacks rely on named), and the
//! "display" text of a component that the Unicode checks look at.

use std::borrow::Cow;

use irinorm::pct::triplet;

/// What the triplet sequence starting at a triplet `>= %80` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seq {
    /// Well-formed UTF-8 for this character; spans `n` triplets.
    Valid(char, usize),
    /// An overlong form (`C0 AF`, `E0 80 AF`, `F0 80 80 AF`, and the old
    /// 5- and 6-octet forms) of this code point, which a lax decoder
    /// returns; spans `n` triplets.
    Overlong(u32, usize),
    /// Not well-formed (a lone continuation, a truncated sequence, a
    /// surrogate, a value over U+10FFFF, F5-FF leads); one triplet.
    Invalid,
}

/// Reads the UTF-8 sequence whose lead octet is the triplet at `b[i..]`
/// (which must be a triplet `>= %80`).
pub(crate) fn read_seq(b: &[u8], i: usize) -> Seq {
    let Some(lead) = triplet(b, i) else {
        return Seq::Invalid;
    };
    let (need, init) = match lead {
        0xC0..=0xDF => (2, u32::from(lead & 0x1F)),
        0xE0..=0xEF => (3, u32::from(lead & 0x0F)),
        0xF0..=0xF7 => (4, u32::from(lead & 0x07)),
        0xF8..=0xFB => (5, u32::from(lead & 0x03)),
        0xFC..=0xFD => (6, u32::from(lead & 0x01)),
        _ => return Seq::Invalid,
    };
    let mut v = init;
    let mut bytes = [lead, 0, 0, 0];
    for k in 1..need {
        match triplet(b, i + 3 * k) {
            Some(c @ 0x80..=0xBF) => {
                v = (v << 6) | u32::from(c & 0x3F);
                // Octets past the fourth are counted, not stored.
                if let Some(slot) = bytes.get_mut(k) {
                    *slot = c;
                }
            }
            _ => return Seq::Invalid,
        }
    }
    // The smallest value each length may encode (RFC 3629 §3).
    let min = [0, 0, 0x80, 0x800, 0x1_0000, 0x20_0000, 0x400_0000][need];
    if v < min {
        return Seq::Overlong(v, need);
    }
    if need <= 4 {
        if let Some((c, n)) = irinorm::ucs::decode_utf8_strict(&bytes[..need]) {
            if n == need {
                return Seq::Valid(c, need);
            }
        }
    }
    Seq::Invalid
}

/// The text a person would read for a component: well-formed
/// percent-encoded UTF-8 decoded, triplets of unreserved ASCII decoded,
/// every other triplet kept as it is. Borrows when there is no `%`.
pub(crate) fn display(raw: &str) -> Cow<'_, str> {
    let b = raw.as_bytes();
    if !b.contains(&b'%') {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    let mut plain = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        let Some(v) = triplet(b, i) else {
            i += 1;
            continue;
        };
        out.push_str(&raw[plain..i]);
        if v < 0x80 {
            if v.is_ascii_alphanumeric() || matches!(v, b'-' | b'.' | b'_' | b'~') {
                out.push(v as char);
            } else {
                out.push_str(&raw[i..i + 3]);
            }
            i += 3;
        } else if let Seq::Valid(c, n) = read_seq(b, i) {
            out.push(c);
            i += 3 * n;
        } else {
            out.push_str(&raw[i..i + 3]);
            i += 3;
        }
        plain = i;
    }
    out.push_str(&raw[plain..]);
    Cow::Owned(out)
}

/// `U+HHHH` with the character itself when it is printable ASCII.
pub(crate) fn describe_cp(v: u32) -> String {
    match char::from_u32(v) {
        Some(c) if c.is_ascii_graphic() => format!("U+{v:04X} '{c}'"),
        _ => format!("U+{v:04X}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences() {
        assert_eq!(read_seq(b"%C3%A9", 0), Seq::Valid('é', 2));
        assert_eq!(read_seq(b"%C0%AF", 0), Seq::Overlong(0x2F, 2));
        assert_eq!(read_seq(b"%c1%81", 0), Seq::Overlong(0x41, 2));
        assert_eq!(read_seq(b"%E0%80%AF", 0), Seq::Overlong(0x2F, 3));
        assert_eq!(read_seq(b"%F0%80%80%AF", 0), Seq::Overlong(0x2F, 4));
        assert_eq!(read_seq(b"%F8%80%80%80%AF", 0), Seq::Overlong(0x2F, 5));
        assert_eq!(read_seq(b"%FC%80%80%80%80%AF", 0), Seq::Overlong(0x2F, 6));
        assert_eq!(read_seq(b"%ED%A0%80", 0), Seq::Invalid); // surrogate
        assert_eq!(read_seq(b"%F4%90%80%80", 0), Seq::Invalid); // > U+10FFFF
        assert_eq!(read_seq(b"%E9", 0), Seq::Invalid); // Latin-1 é
        assert_eq!(read_seq(b"%C3", 0), Seq::Invalid); // truncated
        assert_eq!(read_seq(b"%C3%41", 0), Seq::Invalid);
        assert_eq!(read_seq(b"%80", 0), Seq::Invalid);
        assert_eq!(read_seq(b"%FF", 0), Seq::Invalid);
        assert_eq!(read_seq(b"%F0%9F%98%80", 0), Seq::Valid('😀', 4));
    }

    #[test]
    fn display_text() {
        assert_eq!(display("abc"), "abc");
        assert_eq!(display("p%D0%B0yp%61l"), "pаypal");
        assert_eq!(display("a%2Fb%E9%C0%AF"), "a%2Fb%E9%C0%AF");
        assert_eq!(display("%"), "%");
        assert_eq!(display("re%CC%81sume"), "re\u{301}sume");
    }
}
