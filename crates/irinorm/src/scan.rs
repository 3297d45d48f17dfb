//! The wide scanner: a parser for the common shape of a reference that is
//! already in its syntax-normal form, sixteen bytes at a time (issue 14).
//!
//! Most references in real lists are absolute, ASCII, with a lower-case
//! scheme and host, and no dot segment or triplet that a normalizer would
//! change (RFC 3986 §6.2.2). For those, [`common`] computes in one pass the
//! same [`Meta`] as the full parser ([`crate::parse::parse`]), hints
//! included: which then say "already normal". Anything else (upper case,
//! userinfo, an IP literal, `%` in the authority, `--` in the host, a dot
//! segment, a lower-case or unreserved triplet, non-ASCII, an error, fewer
//! than 17 bytes) gives `None` and the full parser decides, with its
//! errors and hints. So the scanner can only make the common case faster;
//! it never decides anything the full parser would decide differently
//! (checked in debug builds on every call, and by property tests and a
//! fuzz target on arbitrary input).
//!
//! Why it is faster: each window of sixteen bytes is classified with
//! comparisons only (no table lookup), written so that the compiler turns
//! them into a few SSE2 vector operations on the target's baseline, in
//! safe Rust; the first byte that needs a look is the lowest set byte of
//! the window's mask (`trailing_zeros`). The path, query and fragment are
//! one loop whose only exits are `?`, `#`, `%` and what ends the scan, so
//! the number of data-dependent branches per reference is the number of
//! those bytes, not of its components.

use crate::parse::{Meta, HAS_AUTH, HAS_FRAGMENT, HAS_QUERY, PCT_ANY, PCT_HIGH};

/// Window width in bytes.
const W: usize = 16;

/// `query` / `fragment` characters without `pct-encoded` (RFC 3986 §3.4,
/// §3.5: `pchar / "/" / "?"`): printable ASCII except `"`, `#`, `%`, `<`,
/// `>`, `[`, `\`, `]`, `^`, `` ` ``, `{`, `|`, `}`. The same set as the
/// parser's `QUERY` class (tested against it on every byte).
#[inline(always)]
fn query_plain(b: u8) -> bool {
    let printable = b.wrapping_sub(0x21) < 0x5E; // 0x21..=0x7E
    let excluded = ((b & 0xFE) == 0x22) // " #
        | (b == b'%')
        | ((b & 0xFD) == 0x3C) // < >
        | (b.wrapping_sub(0x5B) < 4) // [ \ ] ^
        | (b == b'`')
        | (b.wrapping_sub(0x7B) < 3); // { | }
    printable & !excluded
}

/// Bytes of a `reg-name` in its normal form (RFC 3986 §3.2.2, §6.2.2.1):
/// lower-case letters, digits, `-`, `.`, `_`, `~` and the sub-delims; no
/// `%` (a triplet goes to the full parser).
#[inline(always)]
fn host_plain(b: u8) -> bool {
    (b.wrapping_sub(b'a') < 26)
        | (b.wrapping_sub(b'0') < 10)
        | (b.wrapping_sub(b'&') < 9) // & ' ( ) * + , - .
        | (b == b'!')
        | (b == b'$')
        | (b == b';')
        | (b == b'=')
        | (b == b'_')
        | (b == b'~')
}

/// What ends a run in the window `c` (bytes `i..i+16`), `p` being the
/// window one byte earlier (`i-1..i+15`): one bit (the low bit of its byte)
/// per byte that needs a look.
#[inline(always)]
fn stops<const PART: u8>(c: &[u8; W], p: &[u8; W]) -> u128 {
    let mut m = [0u8; W];
    for k in 0..W {
        let (b, prev) = (c[k], p[k]);
        let stop = match PART {
            // Path: `?` ends it; a `.` after a `/` may start a dot segment
            // (RFC 3986 §5.2.4: the parser's DOT_SEG hint).
            PATH => !query_plain(b) | (b == b'?') | ((b == b'.') & (prev == b'/')),
            // Host: `--` may be an A-label's prefix (the parser's
            // AUTH_DASH2 hint), which the full parser looks at.
            HOST => !host_plain(b) | ((b == b'-') & (prev == b'-')),
            _ => !query_plain(b),
        };
        m[k] = u8::from(stop);
    }
    u128::from_le_bytes(m)
}

const PATH: u8 = 0;
const HOST: u8 = 1;
const QUERY: u8 = 2;

/// The window of `b` at `i` (the caller has checked `i + 16 <= len`).
#[inline(always)]
fn window(b: &[u8], i: usize) -> &[u8; W] {
    b[i..i + W].try_into().expect("sixteen bytes")
}

/// The `%` of the triplets in the window `c` (bytes `i..i+16`; `c1`, `c2`:
/// the windows one and two bytes later) that a syntax normalizer keeps
/// ([`normal_triplet`]), and those of them that encode a byte >= 0x80.
/// Branch-free, like [`stops`]: a query full of triplets is not a loop
/// exit per `%`.
#[inline(always)]
fn triplets(c: &[u8; W], c1: &[u8; W], c2: &[u8; W]) -> (u128, u128) {
    let (mut ok, mut high) = ([0u8; W], [0u8; W]);
    for k in 0..W {
        let (h, l) = (c1[k], c2[k]);
        let digit = |x: u8| x.wrapping_sub(b'0') < 10;
        let hex = |x: u8| digit(x) | (x.wrapping_sub(b'A') < 6);
        // RFC 3986 §2.3: the triplet of an unreserved character (upper-case
        // hex digits: lower case is not normal anyway).
        let unreserved = ((h == b'2') & (l.wrapping_sub(b'D') < 2)) // - .
            | ((h == b'3') & digit(l)) // 0-9
            | (((h == b'4') | (h == b'6')) & (l != b'0')) // A-O a-o
            | (((h == b'5') | (h == b'7')) & (digit(l) | (l == b'A'))) // P-Z p-z
            | ((h == b'5') & (l == b'F')) // _
            | ((h == b'7') & (l == b'E')); // ~
        let good = (c[k] == b'%') & hex(h) & hex(l) & !unreserved;
        ok[k] = u8::from(good);
        high[k] = u8::from(good & (h > b'7'));
    }
    (u128::from_le_bytes(ok), u128::from_le_bytes(high))
}

/// The first byte at or after `i` that [`stops`] a run of `PART`, or
/// `b.len()`; a `%` of a triplet that is normal ([`triplets`]) does not
/// stop it, and adds its [`Meta`] flags to `flags` (where at least two
/// bytes follow the window; nearer the end, a `%` stops the run and the
/// caller checks it). Needs `1 <= i` and `17 <= b.len()`: the last window
/// is the input's last sixteen bytes, those before `i` shifted out.
#[inline(always)]
fn next_stop<const PART: u8>(b: &[u8], mut i: usize, flags: &mut u16) -> usize {
    let len = b.len();
    while i + W + 2 <= len {
        let c = window(b, i);
        let mut m = stops::<PART>(c, window(b, i - 1));
        if m != 0 {
            if PART != HOST {
                let (ok, high) = triplets(c, window(b, i + 1), window(b, i + 2));
                if ok != 0 {
                    m &= !ok;
                    *flags |= if high != 0 {
                        PCT_ANY | PCT_HIGH
                    } else {
                        PCT_ANY
                    };
                }
            }
            if m != 0 {
                return i + (m.trailing_zeros() / 8) as usize;
            }
        }
        i += W;
    }
    while i + W <= len {
        let m = stops::<PART>(window(b, i), window(b, i - 1));
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += W;
    }
    if i >= len {
        return len;
    }
    let skip = W - (len - i);
    let m = stops::<PART>(window(b, len - W), window(b, len - W - 1)) >> (8 * skip);
    if m != 0 {
        i + (m.trailing_zeros() / 8) as usize
    } else {
        len
    }
}

/// A triplet at `i` (`b[i] == '%'`) that a syntax normalizer keeps as it
/// is: upper-case hex digits (RFC 3986 §6.2.2.1) encoding a byte that is
/// not unreserved (§6.2.2.2). Its [`Meta`] flags, or `None`.
#[inline]
fn normal_triplet(b: &[u8], i: usize) -> Option<u16> {
    let (h, l) = (*b.get(i + 1)?, *b.get(i + 2)?);
    let hex = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    let v = (hex(h)? << 4) | hex(l)?;
    if v.is_ascii_alphanumeric() || matches!(v, b'-' | b'.' | b'_' | b'~') {
        return None;
    }
    Some(if v >= 0x80 {
        PCT_ANY | PCT_HIGH
    } else {
        PCT_ANY
    })
}

/// The [`Meta`] of `s` as `IRI-reference` (and as every grammar that allows
/// a scheme and, when `s` has one, a fragment: the same for ASCII input),
/// when `s` has the common shape described in the module documentation;
/// `None` otherwise (then ask [`crate::parse::parse`]).
#[inline(always)]
pub(crate) fn common(s: &str) -> Option<Meta> {
    let mut m = Meta::default();
    common_into(s, &mut m).then_some(m)
}

/// [`common`], writing the fields into `m` (which must be
/// `Meta::default()`) and saying whether it did. The ladder calls this
/// form: a `Meta` returned by value through an `Option` or `Result` was
/// written field by field and then copied sixteen bytes at a time, a load
/// that store-to-load forwarding cannot serve (13% of the time of an
/// already-normal input, perf).
#[inline(always)]
pub(crate) fn common_into(s: &str, m: &mut Meta) -> bool {
    common_fields(s, m).is_some()
}

#[inline(always)]
fn common_fields(s: &str, m: &mut Meta) -> Option<()> {
    let b = s.as_bytes();
    let len = b.len();
    if len <= W {
        return None;
    }
    let mut flags = 0u16;

    // RFC 3986 §3.1, lower case (§6.2.2.1); `http` and `https` first.
    let head = u64::from_le_bytes(b[..8].try_into().expect("eight bytes"));
    let mut i;
    let auth;
    if head == u64::from_le_bytes(*b"https://") {
        (m.scheme_end, i, auth) = (5, 8, true);
    } else if head & 0x00ff_ffff_ffff_ffff == u64::from_le_bytes(*b"http://\0") {
        (m.scheme_end, i, auth) = (4, 7, true);
    } else {
        if !b[0].is_ascii_lowercase() {
            return None;
        }
        let mut j = 1;
        while j < len
            && (b[j].is_ascii_lowercase()
                || b[j].is_ascii_digit()
                || matches!(b[j], b'+' | b'-' | b'.'))
        {
            j += 1;
        }
        if j == len || b[j] != b':' {
            return None;
        }
        m.scheme_end = j as u32;
        i = j + 1;
        auth = b[i..].starts_with(b"//");
        if auth {
            i += 2;
        }
    }

    // RFC 3986 §3.2: a host without userinfo, a `reg-name` or IPv4 address.
    if auth {
        flags |= HAS_AUTH;
        m.auth_start = i as u32;
        m.host_start = i as u32;
        let j = next_stop::<HOST>(b, i, &mut flags);
        m.host_end = j as u32;
        i = j;
        if i < len && b[i] == b':' {
            // §3.2.3: port = *DIGIT
            i += 1;
            m.port_start = i as u32;
            while i < len && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        if i < len && !matches!(b[i], b'/' | b'?' | b'#') {
            return None;
        }
        m.host_kind = crate::parse::reg_name_kind(&b[m.host_start as usize..m.host_end as usize]);
    }

    // §3.3 - §3.5: path, query, fragment in one loop.
    m.path_start = i as u32;
    if i < len && b[i] == b'.' {
        return None; // a possible dot segment
    }
    let mut part = PATH;
    let (mut path_end, mut query_end) = (None, None);
    loop {
        let j = match part {
            PATH => next_stop::<PATH>(b, i, &mut flags),
            _ => next_stop::<QUERY>(b, i, &mut flags),
        };
        if j == len {
            break;
        }
        match (b[j], part) {
            (b'%', _) => {
                flags |= normal_triplet(b, j)?;
                i = j + 3;
            }
            (b'?', PATH) => {
                path_end = Some(j);
                flags |= HAS_QUERY;
                part = QUERY;
                i = j + 1;
            }
            (b'#', PATH | QUERY) if query_end.is_none() => {
                path_end.get_or_insert(j);
                query_end = Some(j);
                flags |= HAS_FRAGMENT;
                // The fragment has the query's characters (§3.5); a second
                // `#` stops it and is an error, left to the full parser.
                part = QUERY;
                i = j + 1;
            }
            _ => return None,
        }
    }
    m.path_end = path_end.unwrap_or(len) as u32;
    m.query_end = query_end.unwrap_or(len) as u32;
    m.flags = flags;
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse, Grammar};
    use crate::table::{is, QUERY as QUERY_CLASS, TABLE};

    #[test]
    fn classes_match_the_tables() {
        for b in 0..=255u8 {
            assert_eq!(query_plain(b), is(b, QUERY_CLASS), "{b:#x}");
            let host = TABLE[b as usize] & crate::table::REG_NAME != 0 && !b.is_ascii_uppercase();
            assert_eq!(host_plain(b), host, "{b:#x}");
        }
    }

    /// Every accepted string has the full parser's `Meta`; the strings of
    /// the common shape are accepted.
    #[test]
    fn agrees_with_the_parser() {
        let accepted = [
            "http://example.com/a/b.html?q=1&r=%2F#top",
            "https://www.example.com",
            "https://www.example.com:8080",
            "https://a-b.example.com:/x?",
            "file:///usr/share/doc/readme.txt",
            "node:url-and-some-more-bytes",
            "mailto:someone@example.com?subject=hi",
            "http://192.168.0.1/index.html#",
            "http://example.com/a?b?c/./d#e?f/../g",
            "http://example.com/%E2%82%AC/long/path/with/many/segments/and.dots/x.y",
            "urn:isbn:0451450523-and-some-more",
            "http://example.com/?a=%2F%3A%C3%A9&b=c%20d%20e%20f%20g%20h%20i%20j%20k%2A",
            "http://example.com/p%20q/r%C3%A9s?x=%5B%5D#%25%23",
        ];
        for s in accepted {
            let want = parse(s, Grammar::IriReference).unwrap();
            assert_eq!(common(s), Some(want), "{s}");
        }
        let refused = [
            "HTTP://example.com/a/b.html",
            "http://Example.com/a/b.html",
            "http://user@example.com/a/b",
            "http://[::1]/a/b/c/d/e/f/g/h",
            "http://xn--bcher-kva.example/",
            "http://example.com/a/./b.html",
            "http://example.com/a/%7euser/x",
            "http://example.com/a/%7Euser/x",
            "http://example.com/a/%2fuser/x",
            "http://example.com/a/b.html#x#y",
            "http://example.com/a b/c.html",
            "http://example.com/é/c.html",
            "http://example.com:80a/c.html",
            "//example.com/a/b/c/d/e/f.html",
            "http://example.com/a/b/c/d/%4",
            "http:/example.com/a/b/c/d/..",
            "short://a",
        ];
        for s in refused {
            assert_eq!(common(s), None, "{s}");
        }
    }

    /// The vector test of a triplet is the scalar one, for every pair of
    /// bytes after a `%` (and for a byte other than `%` in its place).
    #[test]
    fn triplets_match_the_scalar_test() {
        for h in 0..=255u8 {
            for l in 0..=255u8 {
                for lead in [b'%', b'a'] {
                    let mut v = [b'x'; W + 2];
                    v[5] = lead;
                    v[6] = h;
                    v[7] = l;
                    let (ok, high) = triplets(window(&v, 0), window(&v, 1), window(&v, 2));
                    let want = if lead == b'%' {
                        normal_triplet(&v, 5)
                    } else {
                        None
                    };
                    assert_eq!(ok == 1 << 40, want.is_some(), "{lead} {h:#x} {l:#x}");
                    assert_eq!(ok & !(1 << 40), 0);
                    assert_eq!(high != 0, want == Some(PCT_ANY | PCT_HIGH), "{h:#x} {l:#x}");
                }
            }
        }
    }

    /// The last window and the window boundaries: a byte that stops a run
    /// at every position of inputs of every length around 16 and 32.
    #[test]
    fn every_position_and_length() {
        for len in 17..=50 {
            for at in 7..len {
                for stop in [b'?', b'#', b'%', b' ', b'.', b'A', b'-', b'2', b'f'] {
                    let mut v: Vec<u8> = b"http://".to_vec();
                    v.resize(len, b'a');
                    v[at] = stop;
                    if stop == b'.' || stop == b'-' {
                        // The pair that makes them matter.
                        v[at - 1] = if stop == b'.' { b'/' } else { b'-' };
                    }
                    if stop == b'2' || stop == b'f' {
                        // A triplet that ends at `at`: normal, or not (`%2f`).
                        v[at - 2] = b'%';
                        v[at - 1] = b'2';
                        v[at] = if stop == b'2' { b'F' } else { b'f' };
                    }
                    let Ok(s) = std::str::from_utf8(&v) else {
                        continue;
                    };
                    if let Some(m) = common(s) {
                        assert_eq!(Ok(m), parse(s, Grammar::IriReference), "{s}");
                    }
                }
            }
        }
    }
}
