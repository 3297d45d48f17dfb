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
//! Here the parameters are found by a plain byte loop (no copy, no
//! masks); a name whose length some entry has is read as one
//! little-endian word (zero-padded past the name) and compared with each
//! entry's word and length: one compare per entry, no byte loop. A
//! default value is compared only when the name matched; a name longer
//! than eight bytes is compared in full when its first word and length
//! match an entry.
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

/// An entry as the walk compares it: the name's first (up to) eight bytes
/// as a zero-padded word, its length, and the entry.
#[derive(Clone, Debug)]
struct Key {
    word: u64,
    len: usize,
    param: Param,
}

/// The ignored and default parameters of a host.
#[derive(Clone, Debug, Default)]
pub(super) struct ParamTable {
    keys: Vec<Key>,
    /// Bit `min(len, 63)` of each name's length: a parameter whose name
    /// has no entry of its length is told so by one test.
    lens: u64,
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
        self.lens |= 1 << n.len().min(63);
        let word = if n.is_empty() { 0 } else { load(n, 0) };
        self.keys.push(Key {
            word,
            len: n.len(),
            param: p,
        });
    }

    /// Whether the parameter `q[a..b]`, its name `q[a..e]` whose first
    /// word is `w` (zero-padded past the name), goes: some entry whose
    /// path prefix holds takes it. (The caller screens by `lens`.)
    #[inline(always)]
    fn goes(&self, q: &[u8], path: &[u8], w: u64, (a, e, b): (usize, usize, usize)) -> bool {
        let len = e - a;
        for k in &self.keys {
            if k.word != w || k.len != len {
                continue;
            }
            let p = &k.param;
            if len > 8 && !same_bytes(p.name.as_bytes(), &q[a..e]) {
                continue;
            }
            if let Some(d) = &p.value {
                let v = if e < b { &q[e + 1..b] } else { &[][..] };
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

/// The parameter of `q` that starts at `a` (`a <= q.len()`): where its
/// name ends (its first `=`, or its end) and where it ends (the next `&`,
/// or the query's end). A plain byte loop: the queries a table looks at
/// are short (11.6 bytes, 1.3 parameters on the learned crawl), where
/// round 8's padded copy and SSE2 masks, and this file's first version
/// (words, zero-byte tests), cost more than the bytes (measured below).
#[inline(always)]
fn next_param(q: &[u8], a: usize) -> (usize, usize) {
    let mut e = usize::MAX;
    let mut i = a;
    while i < q.len() {
        match q[i] {
            b'&' => break,
            b'=' if e == usize::MAX => e = i,
            _ => {}
        }
        i += 1;
    }
    (e.min(i), i)
}

/// The first word of the name `q[a..e]`, zero-padded past the name.
#[inline(always)]
fn name_word(q: &[u8], a: usize, e: usize) -> u64 {
    if a == e {
        0
    } else {
        // Loaded from the query cut at the name's end: the bytes past the
        // name are the padding's zeros.
        load(&q[..e], a)
    }
}

/// The ignored and default parameters of the host, out of the query in
/// one pass: a parameter goes when some entry whose path prefix holds
/// takes it (as the rules in turn would); no query when none is left.
pub(super) fn remove_params(table: &ParamTable, out: &mut String, at: &mut At) -> bool {
    let Some(qm) = at.query else { return false };
    let (qs, qe) = (qm + 1, out.len());
    if qs == qe {
        return false;
    }
    let path = &out.as_bytes()[at.path..qm];
    let q = &out.as_bytes()[qs..qe];
    // The parameters that go (the first two on the stack, the rest in
    // `more`: most queries lose one), and where the first kept one starts.
    let mut cuts = [(0usize, 0usize); 2];
    let mut n = 0;
    let mut more = Vec::new();
    let mut first_kept = usize::MAX;
    let mut a = 0;
    loop {
        let (e, b) = next_param(q, a);
        // The name's length screens before its word is read.
        if table.lens & 1 << (e - a).min(63) != 0
            && table.goes(q, path, name_word(q, a, e), (a, e, b))
        {
            if n < cuts.len() {
                cuts[n] = (qs + a, qs + b);
            } else {
                more.push((qs + a, qs + b));
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
    for &(a, b) in cuts[..n.min(cuts.len())].iter().chain(more.iter()).rev() {
        if a > first_kept {
            out.replace_range(a - 1..b, "");
        } else {
            out.replace_range(a..b + 1, "");
        }
    }
    true
}

/// Each parameter of `q` as `(name word, (start, name end, end))`, by
/// [`next_param`] and [`name_word`] as [`remove_params`] walks them: for
/// the tests.
#[cfg(test)]
fn each_param(q: &[u8], mut f: impl FnMut(u64, (usize, usize, usize))) {
    let mut a = 0;
    loop {
        let (e, b) = next_param(q, a);
        f(name_word(q, a, e), (a, e, b));
        if b == q.len() {
            return;
        }
        a = b + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk's parameters, name ends and name words against a plain
    /// split, for every query over a small alphabet that stresses the
    /// word boundaries (names and values around 8 bytes, empty ones,
    /// `=` in values, `&&`).
    #[test]
    fn each_param_equals_the_split() {
        let parts = [
            "",
            "a",
            "ab=",
            "=x",
            "abcdefg",
            "abcdefgh",
            "abcdefghi=v",
            "k=abcdefghijk",
            "a=b=c",
            "sid=0123456789abcdef",
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
        for q in &queries {
            let b = q.as_bytes();
            let mut got = Vec::new();
            each_param(b, |w, r| got.push((w, r)));
            let mut want = Vec::new();
            let mut a = 0;
            for p in q.split('&') {
                let e = a + p.find('=').unwrap_or(p.len());
                let name = &b[a..e];
                let mut wb = [0u8; 8];
                let k = name.len().min(8);
                wb[..k].copy_from_slice(&name[..k]);
                want.push((u64::from_le_bytes(wb), (a, e, a + p.len())));
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
            each_param(q.as_bytes(), |w, r| {
                v.push(t.goes(q.as_bytes(), b"/", w, r));
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
