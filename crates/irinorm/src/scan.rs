//! The wide scanner: a parser for the common shape of a reference that is
//! already in its syntax-normal form, 16 to 64 bytes at a time (issue 14).
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
//! Why it is faster: each component is one call of a wide kernel of
//! `irinorm-simd` ([`irinorm_simd::next_stop`]), chosen once per process by
//! runtime feature detection: AVX2 (two 32-byte windows per step) or SSSE3
//! (two 16-byte windows), with the scalar kernel as the fallback elsewhere
//! (docs/simd.md). A kernel classifies a whole window with two nibble
//! lookups (`pshufb`) per byte set; the sets are built here, at compile
//! time, from the parser's class table ([`crate::table`]), the single
//! source of truth. Normal triplets are judged inside the window and do not
//! end a run; the only exits are `?` (or, on tails over 64 bytes, not even
//! that: path and query are one run whose mark is the first `?`), `#`, `/.`,
//! and what ends the scan. So the number of data-dependent branches per
//! reference is the number of those bytes, not of its components. The core
//! crate keeps `#![forbid(unsafe_code)]`: the dispatch's `unsafe` lives in
//! `irinorm-simd`.

use crate::parse::{
    Meta, Resume, Stage, DOT_SEG, HAS_AUTH, HAS_FRAGMENT, HAS_QUERY, PCT_ANY, PCT_HIGH, UPPER_HOST,
    UPPER_SCHEME,
};
use crate::table::{self, DIGIT, HEXDIG, QUERY as QUERY_CLASS, REG_NAME, UNRESERVED, UPPER};
use irinorm_simd::{Class, Run, Triplets};

/// Shortest input the scanner takes: one 16-byte window and the byte
/// before it; shorter ones are rare and go to the full parser.
const W: usize = 16;

/// The parser's class table, as a constant for the `const fn`s below.
const T: [u16; 256] = table::build();

/// Triplets a syntax normalizer keeps (RFC 3986 §6.2.2.1: upper-case hex
/// digits; §6.2.2.2: not an unreserved character).
const TRIPLETS: Triplets = Triplets::new(
    Class::from_table(&T, HEXDIG, 0).and(Class::from_table(&T, DIGIT | UPPER, 0)),
    Class::from_table(&T, UNRESERVED, 0),
);

/// A `reg-name` in its normal form (RFC 3986 §3.2.2, §6.2.2.1): no upper
/// case, no `%` (a triplet goes to the full parser). `--` may be an
/// A-label's prefix (the parser's AUTH_DASH2 hint): the full parser looks.
/// Hosts are short: the kernels look at one window first ([`Run::short`]).
pub(crate) const HOST_RUN: Run =
    Run::new(Class::from_table(&T, REG_NAME, UPPER), Some(*b"--"), None).short();

/// The path and the query (RFC 3986 §3.3, §3.4: the `query` characters),
/// the first `?`, which ends the path, marked ([`Run::mark`]); a `.` after
/// a `/` may start a dot segment (§5.2.4: the parser's DOT_SEG hint), the
/// scanner looks (in the query it goes on).
pub(crate) const PATH_QUERY_RUN: Run = Run::new(
    Class::from_table(&T, QUERY_CLASS, 0),
    Some(*b"/."),
    Some(TRIPLETS),
)
.mark(b'?');

/// The path alone (§3.3): the `query` characters without `?`, which ends
/// it; `/.` as in [`PATH_QUERY_RUN`].
pub(crate) const PATH_RUN: Run = Run::new(
    Class::from_table(&T, QUERY_CLASS, 0).without(b'?'),
    Some(*b"/."),
    Some(TRIPLETS),
);

/// Length of the rest of a reference (after the authority) above which
/// the path and query are one run ([`PATH_QUERY_RUN`]) rather than two.
const FUSE_ABOVE: usize = 64;

/// The query and the fragment (§3.4, §3.5: `pchar / "/" / "?"`).
/// Triplets are frequent there ([`Run::dense`]).
pub(crate) const QUERY_RUN: Run =
    Run::new(Class::from_table(&T, QUERY_CLASS, 0), None, Some(TRIPLETS)).dense();

/// A host with upper case (§6.2.2.1), which [`HOST_RUN`] stopped at
/// (`i`, an upper-case letter, not after a port): the rest of the
/// host, where [`HOST_RUN`] would stop if it admitted upper case (the
/// `reg-name` bytes but `%`, RFC 3986 §3.2.2; the second `-` of `--`),
/// then the port (§3.2.3), their fields written into `m`; the end of the
/// authority, or `None` when the full parser must judge it. The caller
/// notes the parser's UPPER_HOST hint, which sends the reference to the
/// rewrite. Until round 12 of issue 14 such a reference went to the full
/// parser from its first byte: about 1,100 instructions more (callgrind
/// on the frontier's upper-case hosts). Byte by byte and out of line:
/// hosts are short, and a kernel instance for this run changed the code
/// of the already-normal path (4% more instructions there).
#[cold]
#[inline(never)]
fn upper_host(b: &[u8], mut i: usize, m: &mut Meta) -> Option<usize> {
    if m.port_start != 0 || !b[i].is_ascii_uppercase() {
        return None;
    }
    let (len, hs) = (b.len(), m.host_start as usize);
    while i < len && T[b[i] as usize] & REG_NAME != 0 && !(b[i] == b'-' && b[i - 1] == b'-') {
        i += 1;
    }
    m.host_end = i as u32;
    if b[hs].is_ascii_digit() {
        m.host_kind = crate::parse::reg_name_kind(&b[hs..i]);
    }
    if i < len && b[i] == b':' {
        i += 1;
        m.port_start = i as u32;
        while i < len && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    (i == len || matches!(b[i], b'/' | b'?' | b'#')).then_some(i)
}

/// The end of the scheme `b` starts with (RFC 3986 §3.1: `ALPHA *( ALPHA
/// / DIGIT / "+" / "-" / "." )`, then `:`), in lower case unless `upper`
/// (§6.2.2.1); `None` when there is none. `b` is longer than [`W`].
/// Without `upper`, the loop of the already-normal path; with it, out of
/// line ([`upper_or_resume`]).
#[inline(always)]
fn scheme_end(b: &[u8], upper: bool) -> Option<usize> {
    let letter = |c: u8| c.is_ascii_lowercase() || (upper && c.is_ascii_uppercase());
    if !letter(b[0]) {
        return None;
    }
    let mut j = 1;
    while j < b.len()
        && (letter(b[j]) || b[j].is_ascii_digit() || matches!(b[j], b'+' | b'-' | b'.'))
    {
        j += 1;
    }
    (j < b.len() && b[j] == b':').then_some(j)
}

/// The [`Meta`] flags of each value of [`irinorm_simd::Stop::pct`].
const PCT_FLAGS: [u16; 4] = {
    let mut t = [0u16; 4];
    let mut p = 0;
    while p < 4 {
        if p as u8 & irinorm_simd::PCT_ANY != 0 {
            t[p] |= PCT_ANY;
        }
        if p as u8 & irinorm_simd::PCT_HIGH != 0 {
            t[p] |= PCT_HIGH;
        }
        p += 1;
    }
    t
};

/// The [`irinorm_simd::Stop::pct`] flags of a run as [`Meta`] flags: one
/// lookup (issue 14, round 9: the two tests were six instructions a call).
#[inline(always)]
fn add_pct(flags: &mut u16, pct: u8) {
    *flags |= PCT_FLAGS[usize::from(pct & 3)];
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
/// when `s` has the common shape described in the module documentation
/// (in either scan, as the ladder asks them: [`upper_or_resume`] when
/// [`common_or_resume`] refused from the start); `None` otherwise (then
/// ask [`crate::parse::parse`]).
#[cfg(test)]
pub(crate) fn common(s: &str) -> Option<Meta> {
    let mut m = Meta::default();
    match common_or_resume(s, &mut m) {
        Ok(()) => return Some(m),
        Err(Some(_)) => return None,
        Err(None) => {}
    }
    upper_or_resume(s, &mut m).is_ok().then_some(m)
}

/// [`common`], writing the fields into `m` (which must be
/// `Meta::default()`): `Ok` when it did. The ladder and the parser call
/// this form: a `Meta` returned by value through an `Option` or `Result`
/// was written field by field and then copied sixteen bytes at a time, a
/// load that store-to-load forwarding cannot serve (13% of the time of an
/// already-normal input, perf).
///
/// When `s` is not of the common shape, `Err(Some(_))` says where the scan
/// stopped, if it got past the authority: the full parser goes on from
/// there ([`crate::parse::parse_from`]) with the fields written into `m`
/// so far, instead of reading the reference again (issue 14, round 4: a
/// lower-case triplet at the end of a long query cost a second parse of
/// the whole reference). `Err(None)`: parse from the start.
#[inline(always)]
pub(crate) fn common_or_resume(s: &str, m: &mut Meta) -> Result<(), Option<Resume>> {
    common_fields::<false>(s, m)
}

/// [`common_or_resume`] for what it refused from the start (`Err(None)`),
/// with upper case accepted in the scheme and host (§6.2.2.1) and noted
/// as the full parser notes it (UPPER_SCHEME, UPPER_HOST), which sends the
/// reference to the ladder's repair or rewrite. `m` is reset first.
///
/// A second scan, out of line, and not upper case in the first: issue 14,
/// round 12 accepted it in the first scan, and the already-normal path
/// grew by three instructions (its flags no longer a constant: +0.6%,
/// callgrind); round 13 moved it here. Until round 12 such a reference
/// was parsed from its first byte by the full parser (about 1,100
/// instructions more on the frontier's upper-case hosts).
#[cold]
#[inline(never)]
pub(crate) fn upper_or_resume(s: &str, m: &mut Meta) -> Result<(), Option<Resume>> {
    // The first scan stopped in the authority (its host scanned: `m`'s
    // host fields written) at something [`upper_host`] refuses (a port
    // before it, a byte that is not upper case): no second scan (issue 14,
    // round 13: `%` in hosts paid for one, about 40 instructions).
    let (hs, he) = (m.host_start as usize, m.host_end as usize);
    if hs != 0 && (m.port_start != 0 || !s.as_bytes()[he].is_ascii_uppercase()) {
        return Err(None);
    }
    *m = Meta::default();
    common_fields::<true>(s, m)
}

/// The path from `i` (and the query, on long tails: [`PATH_QUERY_RUN`]).
/// Long tails (where a query is likely and a second kernel call matters)
/// in one run, `?` marked; short ones with a stop at `?`, which is cheaper
/// there (BENCHMARKS.md, issue 14 round 2). Every call has a constant run,
/// so the kernel's choice of loop folds away.
#[inline(always)]
fn path_run(b: &[u8], i: usize) -> irinorm_simd::Stop {
    if b.len() - i > FUSE_ABOVE {
        irinorm_simd::next_stop(b, i, &PATH_QUERY_RUN)
    } else {
        irinorm_simd::next_stop(b, i, &PATH_RUN)
    }
}

/// [`common_or_resume`] (`UPPER` false) and [`upper_or_resume`] (`UPPER`
/// true: upper case in the scheme and host accepted and noted, UPPER_SCHEME
/// and UPPER_HOST, as the full parser notes them).
#[inline(always)]
fn common_fields<const UPPER: bool>(s: &str, m: &mut Meta) -> Result<(), Option<Resume>> {
    let b = s.as_bytes();
    let len = b.len();
    if len <= W {
        return Err(None);
    }
    let mut flags = 0u16;

    // RFC 3986 §3.1, lower case (§6.2.2.1) unless `UPPER`; `http` and
    // `https` first.
    let head = u64::from_le_bytes(b[..8].try_into().expect("eight bytes"));
    let mut i;
    let auth;
    if head == u64::from_le_bytes(*b"https://") {
        (m.scheme_end, i, auth) = (5, 8, true);
    } else if head & 0x00ff_ffff_ffff_ffff == u64::from_le_bytes(*b"http://\0") {
        (m.scheme_end, i, auth) = (4, 7, true);
    } else if head & 0x00ff_ffff_ffff_ffff == u64::from_le_bytes(*b"file://\0") {
        // Local file lists (`file:///...`) are the next most common.
        (m.scheme_end, i, auth) = (4, 7, true);
    } else {
        let j = scheme_end(b, UPPER).ok_or(None)?;
        if UPPER && b[..j].iter().any(u8::is_ascii_uppercase) {
            flags |= UPPER_SCHEME;
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
        // An empty host (`file:///`) without a kernel call.
        // (No triplets in this run: no flags.)
        let j = if b.get(i) == Some(&b'/') {
            i
        } else {
            irinorm_simd::next_stop(b, i, &HOST_RUN).at
        };
        m.host_end = j as u32;
        // A `reg-name` that starts with a digit may be an IPv4 address
        // (§3.2.2); `m` is `Meta::default()`, whose kind is `RegName`.
        let hs = i;
        if b.get(hs).is_some_and(u8::is_ascii_digit) {
            m.host_kind = crate::parse::reg_name_kind(&b[hs..j]);
        }
        i = j;
        // The host ends at `/` (nearly always), else at a port, `?`, `#`,
        // the end or something the full parser must judge. One test for
        // the common case (issue 14, round 9).
        if b.get(i) != Some(&b'/') {
            if i < len && b[i] == b':' {
                // §3.2.3: port = *DIGIT
                i += 1;
                m.port_start = i as u32;
                while i < len && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if i < len && !matches!(b[i], b'/' | b'?' | b'#') {
                // Upper case in the host (§6.2.2.1), judged out of line
                // and only on the second scan; anything else is for the
                // full parser.
                if !UPPER {
                    return Err(None);
                }
                i = upper_host(b, i, m).ok_or(None)?;
                flags |= UPPER_HOST;
            }
        }
    }

    // §3.3 - §3.5: the path and the query in one run, whose mark is the
    // first `?` (the end of the path: no stop there), then the fragment.
    m.path_start = i as u32;
    if i < len && b[i] == b'.' {
        // A possible dot segment: the parser looks (§5.2.4).
        m.flags = flags;
        return Err(Some(Resume {
            at: i,
            stage: Stage::Path,
        }));
    }
    let s = path_run(b, i);
    add_pct(&mut flags, s.pct);
    if s.at >= len {
        // The run went to the end: no fragment, no stop (nearly every
        // already-normal URL). The fields at once, without the loop's
        // `Option`s (issue 14, round 9).
        m.path_end = if s.mark < len {
            flags |= HAS_QUERY;
            s.mark as u32
        } else {
            len as u32
        };
        m.query_end = len as u32;
        m.flags = flags;
        return Ok(());
    }
    let (mut path_end, mut query_end) = (None, None);
    if s.mark < s.at {
        path_end = Some(s.mark);
        flags |= HAS_QUERY;
    }
    let mut j = s.at;
    while j < len {
        match b[j] {
            // `/.` ends the fused run; after the `?` it is query text (§3.4).
            b'.' if path_end.is_some() => {}
            // `/.` in the path: a dot segment only when the segment is `.`
            // or `..` whole (§3.3, §5.2.4), which the full parser rewrites.
            // Otherwise (`/.well-known/`, `/.git/`: 2% of URLs over 160
            // bytes) the path goes on, with the parser's hint for any
            // segment that starts with `.` (DOT_SEG), which the ladder's
            // fast path then checks (`fast_kind`).
            b'.' => {
                let ends = |k: usize| k >= len || matches!(b[k], b'/' | b'?' | b'#');
                if ends(j + 1) || (b[j + 1] == b'.' && ends(j + 2)) {
                    // A whole dot segment: the parser goes on here.
                    m.flags = flags;
                    return Err(Some(Resume {
                        at: j,
                        stage: Stage::Path,
                    }));
                }
                flags |= DOT_SEG;
                let s = path_run(b, j + 1);
                add_pct(&mut flags, s.pct);
                if s.mark < s.at {
                    path_end = Some(s.mark);
                    flags |= HAS_QUERY;
                }
                j = s.at;
                continue;
            }
            b'?' if path_end.is_none() => {
                path_end = Some(j);
                flags |= HAS_QUERY;
            }
            b'#' if query_end.is_none() => {
                path_end.get_or_insert(j);
                query_end = Some(j);
                flags |= HAS_FRAGMENT;
                // The fragment has the query's characters (§3.5); a second
                // `#` stops it and is an error, left to the full parser.
            }
            // Anything else, a `%` included (the kernels skip the normal
            // triplets: this one is not), is for the full parser.
            // Everything before `j` is valid: the parser goes on at `j`.
            _ => {
                debug_assert!(b[j] != b'%' || normal_triplet(b, j).is_none());
                m.flags = flags;
                let stage = match (path_end, query_end) {
                    (None, _) => Stage::Path,
                    (Some(p), None) => {
                        m.path_end = p as u32;
                        Stage::Query
                    }
                    (Some(p), Some(q)) => {
                        (m.path_end, m.query_end) = (p as u32, q as u32);
                        Stage::Fragment
                    }
                };
                return Err(Some(Resume { at: j, stage }));
            }
        }
        let s = irinorm_simd::next_stop(b, j + 1, &QUERY_RUN);
        add_pct(&mut flags, s.pct);
        j = s.at;
    }
    m.path_end = path_end.unwrap_or(len) as u32;
    m.query_end = query_end.unwrap_or(len) as u32;
    m.flags = flags;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse, Grammar};
    use crate::table::{is, QUERY as QUERY_CLASS, TABLE};
    use irinorm_simd::Kernel;

    /// Every byte at every lane of the windows (16 and 32 bytes, the
    /// lookahead and the last, overlapping window), under every kernel this
    /// CPU has: it ends each run exactly when the parser's class table says
    /// it is not in the run's class (or it makes the run's pair).
    #[test]
    fn kernel_classes_match_the_tables() {
        let host =
            |c: u8| TABLE[c as usize] & crate::table::REG_NAME != 0 && !c.is_ascii_uppercase();
        let query = |c: u8| is(c, QUERY_CLASS);
        for k in Kernel::supported() {
            for len in [17, 33, 40, 64, 65, 66, 67] {
                for at in 1..len {
                    for c in 0..=255u8 {
                        let mut v = vec![b'a'; len];
                        v[at] = c;
                        let stop = |run: &Run| k.next_stop(&v, 1, run).at;
                        let want = |plain: bool| if plain { len } else { at };
                        assert_eq!(
                            stop(&HOST_RUN),
                            want(host(c)),
                            "{k:?} host {c:#x} at {at}/{len}"
                        );
                        if c != b'%' {
                            assert_eq!(
                                stop(&QUERY_RUN),
                                want(query(c)),
                                "{k:?} query {c:#x} at {at}/{len}"
                            );
                            assert_eq!(stop(&PATH_QUERY_RUN), want(query(c)), "{k:?} path {c:#x}");
                            assert_eq!(
                                stop(&PATH_RUN),
                                want(query(c) && c != b'?'),
                                "{k:?} path {c:#x}"
                            );
                            // The `?` is the path's end, marked.
                            let mark = k.next_stop(&v, 1, &PATH_QUERY_RUN).mark;
                            assert_eq!(mark, if c == b'?' { at } else { want(query(c)) });
                        }
                    }
                }
            }
        }
    }

    /// The kernels' triplet test is the scalar one ([`normal_triplet`]),
    /// for every pair of bytes after a `%` (and for a byte other than `%`
    /// in its place), at several lanes, under every kernel.
    #[test]
    fn kernel_triplets_match_the_scalar_test() {
        for k in Kernel::supported() {
            for h in 0..=255u8 {
                for l in 0..=255u8 {
                    for (lead, at) in [(b'%', 5), (b'a', 5), (b'%', 15), (b'%', 31), (b'%', 37)] {
                        let mut v = [b'x'; 40];
                        v[at] = lead;
                        v[at + 1] = h;
                        v[at + 2] = l;
                        let want = if lead == b'%' {
                            normal_triplet(&v, at)
                        } else {
                            None
                        };
                        let got = k.next_stop(&v, 1, &QUERY_RUN);
                        // A normal triplet is skipped (the run goes on to
                        // the end unless a digit... cannot stop: digits are
                        // plain), anything else stops at or after `at`.
                        if let Some(f) = want {
                            assert_eq!(got.at, 40, "{k:?} {h:#x} {l:#x}");
                            let pct = if f & PCT_HIGH != 0 { 3 } else { 1 };
                            assert_eq!(got.pct, pct, "{k:?} {h:#x} {l:#x}");
                        } else {
                            assert_eq!(got.pct, 0, "{k:?} {lead} {h:#x} {l:#x}");
                            if lead == b'%' {
                                assert_eq!(got.at, at, "{k:?} {h:#x} {l:#x}");
                            }
                        }
                    }
                }
            }
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
            "file://host.example/share/doc/readme.txt",
            "fileabcdefghijkl://",
            "node:url-and-some-more-bytes",
            "mailto:someone@example.com?subject=hi",
            "http://192.168.0.1/index.html#",
            "http://example.com/a?b?c/./d#e?f/../g",
            "http://example.com/%E2%82%AC/long/path/with/many/segments/and.dots/x.y",
            "urn:isbn:0451450523-and-some-more",
            "http://example.com/?a=%2F%3A%C3%A9&b=c%20d%20e%20f%20g%20h%20i%20j%20k%2A",
            "http://example.com/p%20q/r%C3%A9s?x=%5B%5D#%25%23",
            // Segments that start with `.` without being dot segments: the
            // parser's DOT_SEG hint, set here too.
            "https://example.com/.well-known/pki-validation/x.txt",
            "http://example.com/a/..b/.c./.d?e=/./f#/../g",
            "http://example.com/a/.b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/.z?q",
            "http://example.com/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/.z?q",
            // A query that starts right after the path's `/`, or where the
            // path is empty, on tails over 64 bytes (one run to the end,
            // its `?` marked: the fields written at once) and under 64.
            "https://www.example.com/?utm_source=newsletter&utm_medium=email&utm_campaign=2026-11-26&x=1",
            "https://www.example.com?utm_source=newsletter&utm_medium=email&utm_campaign=2026-11-26&x=1",
            "https://www.example.com/?q=1",
            "https://www.example.com?q=1",
            "https://www.example.com/a/b?",
            // Hosts that start with a digit: IPv4 or a name (§3.2.2).
            "http://1example.com/a/b/c",
            "http://10.0.0.1:8080/a/b/c",
            "http://10.0.0.1?a=b",
            "http://10.0.0.256/a/b/c",
            // Upper case in the scheme or host, noted as the parser notes
            // it (UPPER_SCHEME, UPPER_HOST): issue 14, round 12.
            "HTTP://example.com/a/b.html",
            "http://Example.com/a/b.html",
            "HtTpS://WWW.Example.COM:443/a?b#c",
            "Mailto:someone@example.com?subject=hi",
            "http://EXAMPLE.COM",
            "http://1A.2.3.4/a/b/c/d",
            "http://wWW.hAnDSHAkE.De:/user/blickle/",
        ];
        for s in accepted {
            let want = parse(s, Grammar::IriReference).unwrap();
            assert_eq!(common(s), Some(want), "{s}");
        }
        let refused = [
            "1http://example.com/a/b.html",
            "http://Xn--bcher-kva.example/",
            "http://xN--bcher-kva.example/",
            "http://Example.com%41/a/b.html",
            "http://Example.com@x/a/b.html",
            "http://Examplé.com/a/b.html",
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
            "http://a.example.com/x/y/z/%2F%41",
            // Dot segments, at the end, before `?`, `#`, `/`.
            "http://example.com/.well-known/.",
            "http://example.com/.well-known/..",
            "http://example.com/.well-known/.?q",
            "http://example.com/.well-known/..#f",
            "http://example.com/.well-known/../x",
            "http://example.com/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/.y/./z?q",
        ];
        for s in refused {
            assert_eq!(common(s), None, "{s}");
        }
    }

    /// The second scan ([`upper_or_resume`]) after the first stopped in
    /// the host: skipped unless it stopped at upper case and before a port
    /// (round 13), with the full parser's answer either way.
    #[test]
    fn the_second_scan_starts_only_at_upper_case() {
        for (s, second) in [
            ("http://a.Example.com/a/b/c/d", true),
            ("http://a%41.example.com/a/b/c", false),
            ("http://a.example.com:8X/a/b/c", false),
            ("http://[::1]/a/b/c/d/e/f/g/h", false),
            ("HTTP://a.example.com/a/b/c/d", true),
        ] {
            let mut m = Meta::default();
            assert_eq!(common_or_resume(s, &mut m), Err(None), "{s}");
            let got = upper_or_resume(s, &mut m);
            assert_eq!(got.is_ok(), second, "{s}");
            if got.is_ok() {
                assert_eq!(Ok(m), parse(s, Grammar::IriReference), "{s}");
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
