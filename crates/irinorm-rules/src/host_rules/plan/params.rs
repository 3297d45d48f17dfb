//! A host's ignored and default parameters (`ignore-param`,
//! `default-param`), removed from the query in one walk (issue 11, round
//! 9: applying a learned rules file within 1.5x of `crawler`).
//!
//! Round 8 measured the table at about 313 instructions for each query it
//! looked at: a copy of the query into a zeroed 64-byte pad, two SSE2
//! masks over it (`&` and `=`), the loop over the parameters, then, for a
//! name that passed the length and first-byte screen, a walk over the
//! entries comparing names byte-wise (`Iter::any`, out of line). The
//! queries a table looks at on the learned crawl are short (11.6 bytes
//! and 1.3 parameters on average), and every learned name is 3-7 bytes.
//!
//! Here the parameters are found by a word-then-byte loop for their `&`
//! (no copy, no masks), and each is judged by its first word (zero-padded
//! past the parameter): one masked compare per entry finds the entry's
//! name and the byte after it (`=`, or the parameter's end) together, so
//! the walk never looks for a parameter's `=` (round 10: round 9 walked
//! to each `=` and screened by the name's length; 304 instructions per
//! query, most of it the walk). A screen on the parameter's first byte
//! comes before the word. A default value is compared only when the name
//! matched; a name longer than seven bytes is compared in full when its
//! first word matches.
//!
//! Names are exact and case-sensitive (`SID` is not `sid`: RFC 3986
//! §6.2.2.1 makes only the scheme and host case-insensitive, and a
//! learned name is the bytes the evidence held).

use super::{same_bytes, word_at, At};

/// One ignored (`value: None`) or default parameter of a host.
#[derive(Clone, Debug)]
pub(super) struct Param {
    pub(super) name: Box<str>,
    pub(super) value: Option<Box<str>>,
    pub(super) prefix: Option<Box<str>>,
}

/// An entry as the walk compares it, against the first word of a
/// parameter (zero-padded past the parameter's end): for a name of at
/// most seven bytes, the name and the byte after it (`=`, or the
/// padding's zero when the name is the whole parameter) under `mask`, so
/// that one masked compare finds the name and its end together (no walk
/// to the parameter's `=`: issue 11, round 10); for a longer name, its
/// first word, the rest compared when that matches.
#[derive(Clone, Debug)]
struct Key {
    mask: u64,
    /// The name then `=`, masked.
    eq: u64,
    /// The name then a zero byte, masked (the name is the whole
    /// parameter, when it ends there).
    bare: u64,
    len: usize,
    param: Param,
}

/// The ignored and default parameters of a host.
#[derive(Clone, Debug, Default)]
pub(super) struct ParamTable {
    keys: Vec<Key>,
    /// Bit `b` for each first byte `b` a name can start a parameter with
    /// (`=` and 0 for the empty name: `=x`, or an empty parameter): a
    /// parameter no name starts is told so by one test, before its word
    /// is read.
    firsts: [u64; 4],
}

/// The little-endian word of `q[i..]`, its bytes past `q`'s end zero (a
/// zero byte is neither `&` nor `=`). `i < q.len()`.
#[inline(always)]
fn load(q: &[u8], i: usize) -> u64 {
    let n = q.len() - i;
    if n >= 8 {
        return word_at(q, i);
    }
    let t = &q[i..];
    if n >= 4 {
        // Two overlapping 4-byte loads: the bytes they share are equal,
        // so or-ing them is exact.
        let w = |j: usize| u64::from(u32::from_le_bytes(t[j..j + 4].try_into().expect("4")));
        return w(0) | w(n - 4) << (8 * (n - 4));
    }
    t.iter()
        .enumerate()
        .fold(0, |w, (j, &x)| w | u64::from(x) << (8 * j))
}

impl ParamTable {
    pub(super) fn add(&mut self, p: Param) {
        let n = p.name.as_bytes();
        // A name holding `=` or `&` is never a parameter's name (a name
        // ends at its first `=`, a parameter at its `&`): no entry, as no
        // parameter would match it.
        if n.contains(&b'=') || n.contains(&b'&') {
            return;
        }
        for b in n.first().map_or(&[b'=', 0][..], std::slice::from_ref) {
            self.firsts[usize::from(*b) / 64] |= 1 << (b % 64);
        }
        let len = n.len();
        let word = if n.is_empty() { 0 } else { load(n, 0) };
        let (mask, eq, bare) = if len < 8 {
            // The name's bytes and the one after them.
            let mask = u64::MAX >> (8 * (7 - len));
            (mask, word | u64::from(b'=') << (8 * len), word)
        } else {
            (u64::MAX, word, word)
        };
        self.keys.push(Key {
            mask,
            eq,
            bare,
            len,
            param: p,
        });
    }

    /// Whether the parameter `q[a..b]` goes: some entry whose name is the
    /// parameter's (the bytes before its first `=`, or all of it), whose
    /// default value (if any) is its value, and whose path prefix holds.
    #[inline(always)]
    fn goes(&self, q: &[u8], path: &[u8], a: usize, b: usize) -> bool {
        let first = if a < b { q[a] } else { 0 };
        if self.firsts[usize::from(first) / 64] & 1 << (first % 64) == 0 {
            return false;
        }
        // The parameter's first word, zero past its end.
        let w = if a < b { load(&q[..b], a) } else { 0 };
        for k in &self.keys {
            let m = w & k.mask;
            let len = k.len;
            let named = if len < 8 {
                // `bare` also matches a zero byte inside the parameter:
                // then the name is not all of it.
                m == k.eq || (m == k.bare && a + len == b)
            } else {
                m == k.eq
                    && a + len <= b
                    && (a + len == b || q[a + len] == b'=')
                    && same_bytes(k.param.name.as_bytes(), &q[a..a + len])
            };
            if !named {
                continue;
            }
            let p = &k.param;
            if let Some(d) = &p.value {
                let v = if a + len < b {
                    &q[a + len + 1..b]
                } else {
                    &[][..]
                };
                if !same_bytes(d.as_bytes(), v) {
                    continue;
                }
            }
            if let Some(pre) = &p.prefix {
                let pre = pre.as_bytes();
                if path.len() < pre.len() || !same_bytes(&path[..pre.len()], pre) {
                    continue;
                }
            }
            return true;
        }
        false
    }
}

/// Where the parameter of `q` that starts at `a` ends: the next `&`, or
/// the query's end. The queries a table looks at are short (11.6 bytes,
/// 1.3 parameters on the learned crawl), where round 8's padded copy and
/// SSE2 masks cost more than the bytes: whole words by a zero-byte test
/// while eight bytes are left, then a plain byte loop (issue 11, round
/// 12: the byte loop alone was ~60 instructions a query; a zero-padded
/// last word instead of the byte loop cost more, most parameters being
/// shorter than a word). Only the `&` is looked for: the name's end is
/// found by the entries' masked words ([`Key`]).
#[inline(always)]
fn param_end(q: &[u8], a: usize) -> usize {
    const AMPS: u64 = u64::from_le_bytes([b'&'; 8]);
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let mut i = a;
    // Whole words first: `&` bytes become zero, and the lowest zero byte
    // sets the lowest high bit of `t` (a borrow marks only bytes above).
    while i + 8 <= q.len() {
        let x = word_at(q, i) ^ AMPS;
        let t = x.wrapping_sub(ONES) & !x & HIGHS;
        if t != 0 {
            return i + (t.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < q.len() && q[i] != b'&' {
        i += 1;
    }
    i
}

/// The ignored and default parameters of the host, out of the query in
/// one pass: a parameter goes when some entry whose path prefix holds
/// takes it (as the rules in turn would); no query when none is left.
///
/// Inline in the plan's run (issue 11, round 14): its call, prologue and
/// epilogue were ~20 of the ~236 instructions a query looked at cost on
/// the learned crawl, and the run around it saves its registers anyway.
#[inline(always)]
pub(super) fn remove_params(table: &ParamTable, out: &mut String, at: &mut At) -> bool {
    let Some(qm) = at.query else { return false };
    let (qs, qe) = (qm + 1, out.len());
    if qs == qe {
        return false;
    }
    let path = &out.as_bytes()[at.path..qm];
    let q = &out.as_bytes()[qs..qe];
    // The parameters that go (the first two in locals, the rest in
    // `more`: most queries lose one), and where the first kept one starts.
    // Locals, not an array indexed by the count: the array lived on the
    // stack, zeroed for every query looked at (issue 11, round 18).
    let (mut c0, mut c1) = ((0usize, 0usize), (0usize, 0usize));
    let mut n = 0;
    let mut more = Vec::new();
    let mut first_kept = usize::MAX;
    let mut a = 0;
    loop {
        let b = param_end(q, a);
        if table.goes(q, path, a, b) {
            match n {
                0 => c0 = (qs + a, qs + b),
                1 => c1 = (qs + a, qs + b),
                _ => more.push((qs + a, qs + b)),
            }
            n += 1;
        } else if first_kept == usize::MAX {
            first_kept = qs + a;
        }
        if b == q.len() {
            break;
        }
        a = b + 1;
    }
    if n == 0 {
        return false;
    }
    if first_kept == usize::MAX {
        out.truncate(qm);
        at.query = None;
        return true;
    }
    // Cut in place from the end backwards (the offsets before a cut stay
    // right): a parameter before the first kept one goes with the `&`
    // after it, a later one with the `&` before it.
    // A cut at the end is a `truncate`, another a `drain` (one move of
    // the tail; `replace_range`'s splice was a call of ~17 instructions
    // per cut: issue 11, round 11).
    let cut = |out: &mut String, (a, b): (usize, usize)| {
        let (x, y) = if a > first_kept {
            (a - 1, b)
        } else {
            (a, b + 1)
        };
        if y == out.len() {
            out.truncate(x);
        } else {
            out.drain(x..y);
        }
    };
    for &c in more.iter().rev() {
        cut(out, c);
    }
    if n >= 2 {
        cut(out, c1);
    }
    cut(out, c0);
    true
}

/// Each parameter of `q` as `(start, end)`, by [`param_end`] as
/// [`remove_params`] walks them: for the tests.
#[cfg(test)]
fn each_param(q: &[u8], mut f: impl FnMut((usize, usize))) {
    let mut a = 0;
    loop {
        let b = param_end(q, a);
        f((a, b));
        if b == q.len() {
            return;
        }
        a = b + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Queries over a small alphabet that stresses the word boundaries:
    /// names and values around 8 bytes, empty ones, `=` in values, `&&`,
    /// a zero byte inside a parameter, raw UTF-8.
    fn queries() -> Vec<String> {
        let parts = [
            "",
            "a",
            "ab=",
            "=x",
            "abcdefg",
            "abcdefg=",
            "abcdefgh",
            "abcdefgh=v",
            "abcdefghi=v",
            "k=abcdefghijk",
            "a=b=c",
            "a\0",
            "abcdefg\0=1",
            "sid=0123456789abcdef",
            // Raw UTF-8 (the `iri` form): bytes above 0x80, which the
            // word-wise `&` search must not take for `&`.
            "né=välué",
            "§§§§§§§§",
        ];
        let mut queries = Vec::new();
        for x in parts {
            queries.push(x.to_owned());
            for y in parts {
                queries.push(format!("{x}&{y}"));
                for z in parts {
                    queries.push(format!("{x}&{y}&{z}"));
                }
            }
        }
        queries
    }

    /// The walk's parameters against a plain split.
    #[test]
    fn each_param_equals_the_split() {
        for q in &queries() {
            let mut got = Vec::new();
            each_param(q.as_bytes(), |r| got.push(r));
            let mut want = Vec::new();
            let mut a = 0;
            for p in q.split('&') {
                want.push((a, a + p.len()));
                a += p.len() + 1;
            }
            assert_eq!(got, want, "{q:?}");
        }
    }

    #[test]
    fn load_pads_with_zeros() {
        let s = b"abcdefghij";
        for i in 0..s.len() {
            let mut wb = [0u8; 8];
            let k = (s.len() - i).min(8);
            wb[..k].copy_from_slice(&s[i..i + k]);
            assert_eq!(load(s, i), u64::from_le_bytes(wb), "{i}");
        }
    }

    /// Each entry alone, names of every length around the word (and
    /// names that never match: with `=` or `&`), against the rules' own
    /// definition (a parameter's name is the bytes before its first `=`;
    /// a default value is compared whole, an absent one is empty), on
    /// every parameter of [`queries`].
    #[test]
    fn the_table_equals_the_definition() {
        let names = [
            "",
            "a",
            "ab",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "sid",
            "a\0",
            "a=b",
            "a&b",
        ];
        let mut entries: Vec<(&str, Option<&str>)> = names.iter().map(|&n| (n, None)).collect();
        entries.extend([("a", Some("b=c")), ("abcdefgh", Some("v")), ("", Some("x"))]);
        entries.push(("k", Some("abcdefghijk")));
        for (n, v) in entries {
            let mut t = ParamTable::default();
            t.add(Param {
                name: n.into(),
                value: v.map(Into::into),
                prefix: None,
            });
            for q in &queries() {
                let b = q.as_bytes();
                each_param(b, |(a, e)| {
                    let p = &q[a..e];
                    let (name, value) = p.split_once('=').unwrap_or((p, ""));
                    let want = name == n && v.is_none_or(|v| v == value);
                    assert_eq!(t.goes(b, b"/", a, e), want, "{n:?} {v:?} in {q:?}");
                });
            }
        }
    }

    /// `remove_params` cuts every parameter that goes, the first two
    /// held in locals and the rest in `more` (round 18), before and after
    /// the first kept one (each with its own `&`); the `?` too when none
    /// is kept.
    #[test]
    fn remove_params_cuts_every_one_that_goes() {
        let mut t = ParamTable::default();
        t.add(Param {
            name: "a".into(),
            value: None,
            prefix: None,
        });
        let run = |q: &str| {
            let url = format!("http://h.test/p?{q}");
            let o = irinorm::split_trusted(&url).offsets();
            let mut at = At::of(&url, 0, &o).expect("absolute");
            let mut out = url.clone();
            let fired = remove_params(&t, &mut out, &mut at);
            (fired, out["http://h.test/p".len()..].to_owned(), at.query)
        };
        assert_eq!(run("k=1&b"), (false, "?k=1&b".into(), Some(15)));
        assert_eq!(run("k&a"), (true, "?k".into(), Some(15)));
        assert_eq!(run("a=1&k"), (true, "?k".into(), Some(15)));
        assert_eq!(run("a=1&a=2&k&a=3"), (true, "?k".into(), Some(15)));
        assert_eq!(
            run("a=1&k=2&a=3&b=4&a=5&a=6"),
            (true, "?k=2&b=4".into(), Some(15))
        );
        assert_eq!(run("a&a=1&a=2&a=3"), (true, "".into(), None));
    }

    /// Names are exact: case, a longer name sharing the first word, a
    /// name that is a prefix of another, a default value compared whole.
    #[test]
    fn the_table_matches_names_exactly() {
        let mut t = ParamTable::default();
        for (n, v) in [
            ("sid", None),
            ("utm_sourcex", None),
            ("lang", Some("en")),
            ("", None),
        ] {
            t.add(Param {
                name: n.into(),
                value: v.map(Into::into),
                prefix: None,
            });
        }
        let goes = |q: &str| {
            let mut v = Vec::new();
            each_param(q.as_bytes(), |(a, b)| {
                v.push(t.goes(q.as_bytes(), b"/", a, b));
            });
            v
        };
        assert_eq!(goes("sid=1&SID=1&si=1&sidx=1"), [true, false, false, false]);
        assert_eq!(
            goes("utm_sourcex=1&utm_sourcey=1&utm_source=1"),
            [true, false, false]
        );
        assert_eq!(
            goes("lang=en&lang=eng&lang=&lang&lang=EN"),
            [true, false, false, false, false]
        );
        assert_eq!(goes("&=x&a"), [true, true, false]);
    }
}
