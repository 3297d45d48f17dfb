//! Name matching for parameter lists: exact names or globs where `*`
//! matches any run of bytes; ASCII case-insensitive. Linear in the name
//! for the patterns used here (one or two `*`), and never worse than
//! O(pattern × name) for any pattern.

/// Whether `name` matches `pattern`.
pub fn matches(pattern: &str, name: &str) -> bool {
    matches_bytes(pattern.as_bytes(), name.as_bytes())
}

/// [`matches`] on bytes (the match is bytewise, ASCII case-insensitive).
fn matches_bytes(p: &[u8], n: &[u8]) -> bool {
    // Most patterns of a list fail on the first byte: a pattern that does
    // not start with `*` must start with the name's first byte.
    if let (Some(&p0), Some(&n0)) = (p.first(), n.first()) {
        if p0 != b'*' && !p0.eq_ignore_ascii_case(&n0) {
            return false;
        }
    }
    if !p.contains(&b'*') {
        return p.eq_ignore_ascii_case(n);
    }
    // Classic two-pointer wildcard match with backtracking to the last '*'.
    let (mut pi, mut ni) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && p[pi] != b'*' && p[pi].eq_ignore_ascii_case(&n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ni));
            pi += 1;
        } else if let Some((sp, sn)) = star {
            pi = sp + 1;
            ni = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

/// Whether `name` matches any pattern (what [`NameIndex`] answers faster).
#[cfg(test)]
pub(crate) fn any(patterns: &[String], name: &str) -> bool {
    patterns.iter().any(|p| matches(p, name))
}

/// A list of patterns indexed by their first byte (ASCII lower case), so
/// that a name is tried only against the patterns that can match it: those
/// starting with its first byte, and those starting with `*`. Same answers
/// as [`any`] on the list.
#[derive(Clone, Debug, Default)]
pub(crate) struct NameIndex {
    patterns: Vec<String>,
    /// Whether each pattern has a `*` (the others compare as plain names).
    star: Vec<bool>,
    /// Indices into `patterns`, grouped by first byte (CSR: the group of
    /// byte `b` is `order[starts[b]..starts[b + 1]]`).
    order: Vec<u32>,
    starts: Vec<u32>,
    /// Patterns starting with `*`, and the empty pattern.
    wild: Vec<u32>,
}

impl NameIndex {
    pub(crate) fn new(patterns: &[String]) -> Self {
        let first = |p: &String| p.as_bytes().first().map(u8::to_ascii_lowercase);
        let mut wild = Vec::new();
        let mut keyed: Vec<(u8, u32)> = Vec::new();
        for (k, p) in patterns.iter().enumerate() {
            match first(p) {
                Some(b) if b != b'*' => keyed.push((b, k as u32)),
                _ => wild.push(k as u32),
            }
        }
        keyed.sort_unstable();
        let mut starts = vec![0u32; 257];
        for &(b, _) in &keyed {
            starts[b as usize + 1] += 1;
        }
        for b in 0..256 {
            starts[b + 1] += starts[b];
        }
        NameIndex {
            patterns: patterns.to_vec(),
            star: patterns.iter().map(|p| p.contains('*')).collect(),
            order: keyed.into_iter().map(|(_, k)| k).collect(),
            starts,
            wild,
        }
    }

    /// Whether `name` matches a pattern of the list.
    #[inline]
    pub(crate) fn matches(&self, name: &str) -> bool {
        self.matches_bytes(name.as_bytes())
    }

    /// [`NameIndex::matches`] on bytes.
    pub(crate) fn matches_bytes(&self, name: &[u8]) -> bool {
        let group = match name.first() {
            Some(&b) => {
                let b = b.to_ascii_lowercase() as usize;
                &self.order[self.starts[b] as usize..self.starts[b + 1] as usize]
            }
            // Only a pattern of `*`s (or the empty one) matches "".
            None => &[][..],
        };
        group.iter().chain(&self.wild).any(|&k| {
            let p = self.patterns[k as usize].as_bytes();
            if self.star[k as usize] {
                matches_bytes(p, name)
            } else {
                p.eq_ignore_ascii_case(name)
            }
        })
    }
}

/// A parameter-name list whose patterns are all plain names or names ending
/// in one `*` (the default tracking list), matched at the start of a
/// parameter inside the query, without finding its `=` or `&` first: a
/// plain name `n` matches when the parameter starts with `n` followed by
/// `=`, `&` or the end; `n*` when it starts with `n` (`n` has no `=` or
/// `&`, so it lies in the name). Same answers as [`NameIndex::matches`] on
/// the parameter's name (a test and a property test check it; issue 14).
///
/// Indexed by the parameter's first two bytes (five low bits of each: a
/// bucket of 1,024): on real queries most parameters land in an empty
/// bucket and cost one load and one table lookup; `utm_*` and `ut...` share
/// a bucket, `id` and `igshid` do not (a first-byte index sent most names
/// of a long query to a compare; issue 14, round 2).
#[derive(Clone, Debug)]
pub(crate) struct ParamPrefixes {
    /// (lower-cased bytes without the `*`, whether it ended in `*`).
    pats: Vec<(Vec<u8>, bool)>,
    /// For each pattern, its first (up to) eight bytes with bit 5 set, and
    /// the mask of those bytes: a parameter whose first eight bytes, with
    /// bit 5 set, differ under the mask cannot match (ASCII case folding
    /// only flips bit 5), so most candidates are refused by one compare.
    quick: Vec<(u64, u64)>,
    /// Pattern indices by bucket: the candidates of bucket `k` are
    /// `order[starts[k]..starts[k + 1]]`. A one-byte pattern is in the 32
    /// buckets of its first byte.
    order: Vec<u16>,
    starts: Vec<u16>,
    /// For each bucket, its entry in `entries` (0: the empty bucket).
    /// Fixed sizes and an index below 128: a lookup needs no bounds check
    /// (issue 14, round 5). A list whose patterns fill more than 127
    /// buckets is not indexed here ([`Self::new`] gives `None`, and
    /// [`NameIndex`] judges); the default list fills 22.
    entry_of: Box<[u8; 1024]>,
    /// Up to two patterns of a bucket tested without a branch or a call,
    /// and whether the bucket has others (`slow`: then [`Self::candidates`]).
    entries: Box<[Entry; 128]>,
}

/// The patterns of one bucket that one masked compare decides ([`Slot`]).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    slots: [Slot; 2],
    slow: bool,
}

/// A pattern decided by the first eight bytes of a parameter alone: its
/// bytes (at most 8 for `n*`, 7 for a plain `n`, which needs the byte
/// after it) are ASCII letters, digits, `_`, `-`, `.` or `~`. Setting bit 5
/// of a byte maps only the two cases of a letter to the same value, or one
/// of these to itself and a byte no reference in normal form holds (a
/// control, DEL, `^`), nor `&`, `=` or the zeros past the end; so on the
/// query of a normal form the masked compare is the case-insensitive
/// equality. An empty slot never matches (`key` outside `mask`).
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: u64,
    mask: u64,
    /// A plain name: the byte at `shift` bits (`8 * len`) must end the
    /// name.
    plain: bool,
    shift: u8,
}

impl Default for Slot {
    fn default() -> Self {
        Slot {
            key: 1,
            mask: 0,
            plain: false,
            shift: 0,
        }
    }
}

/// The bytes that end a parameter's name: `=`, `&`, and the zero
/// [`load8`] gives past the end of the query (a normal form holds no NUL).
/// One lookup instead of three compares (issue 14, round 5).
static ENDS_NAME: [bool; 256] = {
    let mut t = [false; 256];
    t[0] = true;
    t[b'=' as usize] = true;
    t[b'&' as usize] = true;
    t
};

impl Slot {
    #[inline(always)]
    fn hit(&self, x: u64, folded: u64) -> bool {
        let next = (x >> self.shift) as u8;
        ((folded & self.mask) == self.key) & (!self.plain | ENDS_NAME[usize::from(next)])
    }
}

/// The first eight bytes of `q` from `at` (zeros past its end), without a
/// call of `memcpy` for a partial word (a copy of variable length is one):
/// the last eight bytes of `q`, shifted; a byte loop only when `q` itself
/// is shorter than a word.
#[inline(always)]
fn load8(q: &[u8], at: usize) -> u64 {
    let word = |w: &[u8]| {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        u64::from_le_bytes(b)
    };
    if let Some(w) = q.get(at..at + 8) {
        return word(w);
    }
    let n = q.len();
    if at >= n {
        return 0;
    }
    if n >= 8 {
        // `at + 8 - n` is 1 to 7: the bytes before `at` shifted out.
        return word(&q[n - 8..]) >> (8 * (at + 8 - n));
    }
    q[at..]
        .iter()
        .enumerate()
        .fold(0, |w, (k, &c)| w | (u64::from(c) << (8 * k)))
}

/// The bucket of a parameter whose first bytes are `x` (as [`load8`]).
#[inline(always)]
fn bucket(x: u64) -> usize {
    (((x & 0x1f) << 5) | ((x >> 8) & 0x1f)) as usize
}

/// The first eight bytes of `p` (zeros after its end), bit 5 set in each.
#[inline(always)]
fn folded8(p: &[u8]) -> u64 {
    load8(p, 0) | 0x2020_2020_2020_2020
}

impl ParamPrefixes {
    /// `None` when some pattern is not of that shape (the caller uses
    /// [`NameIndex`]), or the list is too long for the index.
    pub(crate) fn new(patterns: &[String]) -> Option<Self> {
        let mut pats = Vec::with_capacity(patterns.len());
        for p in patterns {
            let b = p.as_bytes();
            let (body, prefix) = match b.split_last() {
                Some((b'*', body)) => (body, true),
                _ => (b, false),
            };
            if body.is_empty() || body.iter().any(|c| matches!(c, b'*' | b'=' | b'&')) {
                return None;
            }
            pats.push((body.to_ascii_lowercase(), prefix));
        }
        // Each pattern is in at most 32 buckets; the starts are u16.
        if pats.len() * 32 >= u16::MAX as usize {
            return None;
        }
        // Both cases of a letter have the same five low bits; other bytes
        // may share a bucket with them (only a compare more).
        // The buckets of each pattern, then a counting sort into `order`
        // (a pipeline builds this once; the bench builds one per pass over
        // a data set, so a list per bucket showed on the small ones).
        let buckets_of = |p: &[u8]| {
            let hi = usize::from(p[0] & 0x1f) << 5;
            match p.get(1) {
                Some(&c) => (hi | usize::from(c & 0x1f))..(hi | usize::from(c & 0x1f)) + 1,
                None => hi..hi + 32,
            }
        };
        let mut starts = vec![0u16; 1025];
        for (p, _) in &pats {
            for k in buckets_of(p) {
                starts[k + 1] += 1;
            }
        }
        for k in 0..1024 {
            starts[k + 1] += starts[k];
        }
        let mut order = vec![0u16; usize::from(starts[1024])];
        let mut fill = starts.clone();
        for (i, (p, _)) in pats.iter().enumerate() {
            for k in buckets_of(p) {
                order[usize::from(fill[k])] = i as u16;
                fill[k] += 1;
            }
        }
        let quick: Vec<(u64, u64)> = pats
            .iter()
            .map(|(p, _)| {
                let k = p.len().min(8);
                let mask = if k == 8 {
                    u64::MAX
                } else {
                    (1u64 << (8 * k)) - 1
                };
                (folded8(p) & mask, mask)
            })
            .collect();
        let mut entry_of = Box::new([0u8; 1024]);
        let mut entries = vec![Entry::default()];
        // Only the buckets that hold a pattern (not a walk over all 1,024).
        for k in pats.iter().flat_map(|(p, _)| buckets_of(p)) {
            if entry_of[k] != 0 {
                continue;
            }
            let b = &order[usize::from(starts[k])..usize::from(starts[k + 1])];
            let mut e = Entry::default();
            let mut used = 0;
            for &i in b {
                let (p, prefix) = &pats[i as usize];
                let exact = p.len() <= if *prefix { 8 } else { 7 }
                    && p.iter().all(|c| {
                        c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'~')
                    });
                if exact && used < 2 {
                    let (key, mask) = quick[i as usize];
                    e.slots[used] = Slot {
                        key,
                        mask,
                        plain: !prefix,
                        shift: if *prefix { 0 } else { 8 * p.len() as u8 },
                    };
                    used += 1;
                } else {
                    e.slow = true;
                }
            }
            entry_of[k] = u8::try_from(entries.len()).ok().filter(|&i| i < 128)?;
            entries.push(e);
        }
        let mut table = Box::new([Entry::default(); 128]);
        table[..entries.len()].copy_from_slice(&entries);
        let entries = table;
        Some(ParamPrefixes {
            pats,
            quick,
            order,
            starts,
            entry_of,
            entries,
        })
    }

    /// Whether the name of the parameter `p` (`name` or `name=value`, no
    /// `&`) matches a pattern.
    #[cfg(test)]
    pub(crate) fn matches_param(&self, p: &[u8]) -> bool {
        self.matches_at(p, 0)
    }

    /// Whether the name of the parameter starting at `q[at..]` (it ends at
    /// the next `&` or the end of `q`) matches a pattern; `at` may be
    /// `q.len()` (an empty last parameter).
    ///
    /// `q` is the query of a reference in normal form (see [`Slot`]). The
    /// usual case is decided without a branch: one load, two table
    /// lookups, two masked compares; a branch that the usual bucket never
    /// takes leads to the exact compares.
    #[inline(always)]
    pub(crate) fn matches_at(&self, q: &[u8], at: usize) -> bool {
        let x = load8(q, at);
        let k = bucket(x);
        let folded = x | 0x2020_2020_2020_2020;
        let ei = self.entry_of[k & 1023];
        if ei == 0 {
            return false;
        }
        let e = &self.entries[usize::from(ei & 127)];
        let fast = e.slots[0].hit(x, folded) | e.slots[1].hit(x, folded);
        if e.slow {
            let (lo, hi) = (self.starts[k] as usize, self.starts[k + 1] as usize);
            return fast || self.candidates(q, at, folded, lo, hi);
        }
        fast
    }

    /// [`Self::matches_at`] without the early exit on an empty bucket (its
    /// entry, 0, never matches): for the parameters of a long query, where
    /// whether a name's bucket is empty is what the predictor loses (about
    /// one name in three is a tracking name there; issue 14, round 4). The
    /// screen before the first name that goes keeps the exit
    /// ([`Self::matches_at`]): on queries without tracking names the
    /// branch is predicted and saves the loads.
    #[inline(always)]
    pub(crate) fn matches_at_unbranched(&self, q: &[u8], at: usize) -> bool {
        let x = load8(q, at);
        let k = bucket(x);
        let folded = x | 0x2020_2020_2020_2020;
        let e = &self.entries[usize::from(self.entry_of[k & 1023] & 127)];
        let fast = e.slots[0].hit(x, folded) | e.slots[1].hit(x, folded);
        if e.slow {
            let (lo, hi) = (self.starts[k] as usize, self.starts[k + 1] as usize);
            return fast || self.candidates(q, at, folded, lo, hi);
        }
        fast
    }

    /// The compares of [`Self::matches_at`] against the patterns of one bucket.
    #[inline(never)]
    fn candidates(&self, q: &[u8], at: usize, x: u64, lo: usize, hi: usize) -> bool {
        let rest = q.get(at..).unwrap_or(&[]);
        self.order[lo..hi].iter().any(|&i| {
            let i = i as usize;
            let (key, mask) = self.quick[i];
            let (pat, prefix) = &self.pats[i];
            x & mask == key
                && rest.len() >= pat.len()
                && rest[..pat.len()].eq_ignore_ascii_case(pat)
                && (*prefix || matches!(rest.get(pat.len()), None | Some(b'=' | b'&')))
        })
    }
}

/// Whether a host matches an entry: exact (ASCII case-insensitive), or
/// `*.suffix` for the suffix itself and any subdomain of it.
pub fn host_matches(entry: &str, host: &str) -> bool {
    match entry.strip_prefix("*.") {
        Some(suffix) => {
            host.eq_ignore_ascii_case(suffix)
                || (host.len() > suffix.len()
                    && host.as_bytes()[host.len() - suffix.len() - 1] == b'.'
                    && host[host.len() - suffix.len()..].eq_ignore_ascii_case(suffix))
        }
        None => entry.eq_ignore_ascii_case(host),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(matches("utm_*", "utm_source"));
        assert!(matches("utm_*", "UTM_Medium"));
        assert!(matches("utm_*", "utm_"));
        assert!(!matches("utm_*", "xutm_source"));
        assert!(matches("*id", "fbclid"));
        assert!(matches("a*b*c", "aXXbYYc"));
        assert!(!matches("a*b*c", "aXXbYY"));
        assert!(matches("gclid", "GCLID"));
        assert!(!matches("gclid", "gclid2"));
        assert!(host_matches("*.example.org", "a.b.example.org"));
        assert!(host_matches("*.example.org", "example.org"));
        assert!(!host_matches("*.example.org", "badexample.org"));
        assert!(host_matches("Example.org", "example.ORG"));
    }

    #[test]
    fn prefixes_agree_with_the_index() {
        let list: Vec<String> = crate::config::DEFAULT_TRACKING_PARAMS
            .iter()
            .map(|s| s.to_string())
            // Buckets of more than two patterns, patterns of seven and
            // eight bytes and longer, bytes outside the exact set.
            .chain(
                [
                    "Ab",
                    "ab_*",
                    "x",
                    "abc",
                    "abd*",
                    "abcdefg",
                    "abcdefgh*",
                    "abcdefgh",
                    "a@b",
                    "a~",
                    "a.b-c",
                ]
                .map(String::from),
            )
            .collect();
        let pre = ParamPrefixes::new(&list).expect("the default list is plain names and n*");
        let idx = NameIndex::new(&list);
        let names = [
            "",
            "=",
            "utm",
            "utm_",
            "UTM_x",
            "utm_=",
            "gclid",
            "GClid",
            "gclid2",
            "gcli",
            "_ga",
            "_g",
            "ab",
            "AB",
            "ab_",
            "abc",
            "x",
            "xx",
            "hsa_",
            "hsa",
            "s_cid",
            "a%3Db",
            "abd",
            "ABDz",
            "abcdefg",
            "abcdefgh",
            "ABCDEFGHI",
            "abcdef",
            "a@b",
            "a`b",
            "a~",
            "a~b",
            "A.B-C",
            "a.b-",
            "li_fat_id",
            "li_fat_i",
            "oly_anon_id",
            "ut",
        ];
        for n in names {
            for v in ["", "=", "=1", "=a=b", "=utm_"] {
                let p = format!("{n}{v}");
                let name = p.split('=').next().unwrap();
                assert_eq!(pre.matches_param(p.as_bytes()), idx.matches(name), "{p:?}");
            }
        }
        // Inside a query: each parameter judged at its start, ending at the
        // next `&` (or the end), after and before every other parameter.
        for a in names {
            for b in names {
                for v in ["", "=1", "=utm_&"] {
                    let q = format!("{a}{v}&{b}");
                    let at = q.find('&').unwrap() + 1;
                    let first = q[..at - 1].split('=').next().unwrap();
                    assert_eq!(pre.matches_at(q.as_bytes(), 0), idx.matches(first), "{q:?}");
                    let second = q[at..].split(['=', '&']).next().unwrap();
                    assert_eq!(
                        pre.matches_at(q.as_bytes(), at),
                        idx.matches(second),
                        "{q:?}"
                    );
                    // The variant without the empty-bucket exit.
                    for k in [0, at] {
                        assert_eq!(
                            pre.matches_at_unbranched(q.as_bytes(), k),
                            pre.matches_at(q.as_bytes(), k),
                            "{q:?} at {k}"
                        );
                    }
                }
            }
        }
        for bad in ["*x", "a*b", "*", "", "a=b", "a&b", "a**"] {
            assert!(ParamPrefixes::new(&[bad.to_string()]).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn index_agrees_with_the_list() {
        let lists: Vec<Vec<String>> = vec![
            crate::config::DEFAULT_TRACKING_PARAMS
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            ["*id", "", "A*", "a", "Ab", "\u{e9}x", "**", "x*y"]
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            Vec::new(),
        ];
        let names = [
            "",
            "a",
            "A",
            "ab",
            "AB",
            "abc",
            "utm_source",
            "UTM_x",
            "utm",
            "gclid",
            "GCLID",
            "fbclid",
            "sid",
            "id",
            "xy",
            "x_y",
            "\u{e9}x",
            "\u{c9}x",
            "*",
            "tapmock",
            "hsa_x",
        ];
        for l in &lists {
            let ix = NameIndex::new(l);
            for n in names {
                assert_eq!(ix.matches(n), any(l, n), "{l:?} {n:?}");
            }
        }
    }
}
