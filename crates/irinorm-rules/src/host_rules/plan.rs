//! The host rules compiled, when the settings file is loaded, into one
//! plan per host, run on the normalized text in its output buffer (issue
//! 11: applying a learned rules file within 1.5x of the `crawler` preset).
//!
//! What the plan decides once, instead of per URL:
//! - the host's rules in the fixed order of [`HostRuleKind::ORDER`], the
//!   ignored and default parameters of the host in one table, looked at in
//!   one pass over the query (removing them together is removing them in
//!   turn: each keeps or drops a parameter on its own);
//! - a host alias's target plan (no second lookup after an alias);
//! - what each step reads and writes, so that the rounds that make the
//!   rules idempotent look again only at the steps whose input changed
//!   (a step is a function of what it reads);
//! - each substitution's `from` looked for by its least common byte.
//! - the hosts with a plan in an open-addressed table on one hash of
//!   the host, screened first by its length and end bytes (inline in the
//!   caller), then by the two plans this thread found last (one compare);
//! - chains of hosts whose only rule is a host alias, resolved to the
//!   last host (one splice when the 16-round bound lets the chain run);
//! - the steps that can fire in the first round, by whether the URL has
//!   a query and whether its path ends with `/` (a step left out is woken
//!   by the step that changes what it reads).
//!
//! The URL is changed where it lies, in the caller's buffer: a step that
//! does not fire reads and allocates nothing; one that does cuts or
//! splices in place, or writes its new `path?query` after the URL and
//! moves it down (no other buffer). The semantics are those of the first
//! implementation (`reference.rs`), rounds of the fixed order until a
//! round changes nothing, a host alias restarting with the canonical
//! host's rules: the differential tests check the bytes.
//!
//! Files with `*.suffix` hosts are not compiled (a host's rules would
//! depend on the input host, not only on the entry); they run by the
//! general path ([`super::HostIndex::apply`]).

use rustc_hash::FxHashMap;

use super::{has_dot_segment, has_upper_outside_triplets, param_name, HostRule, HostRuleKind};

mod first_round;
mod params;

use first_round::{FirstRound, Outcome};
use params::{remove_params, Param, ParamTable};

/// Components, as bits of [`Step::reads`] and [`Step::writes`].
const SCHEME: u8 = 1;
const HOST: u8 = 2;
const PATH: u8 = 4;
const QUERY: u8 = 8;

#[derive(Clone, Debug)]
enum Op {
    Scheme(Box<super::SchemeTarget>),
    /// The canonical host, and its plan when it has one.
    Host(Box<str>, Option<u32>),
    Params(Box<ParamTable>),
    Sort,
    Lower,
    Subst(Box<Subst>),
    Index(Box<str>),
    RemoveSlash,
    AddSlash,
}

/// How common a byte is in paths and queries (higher: more).
fn common(b: u8) -> u8 {
    match b {
        b'/' => 9,
        b'.' | b'-' | b'_' | b'=' | b'&' | b'?' => 8,
        b'e' | b't' | b'a' | b'o' | b'i' | b'n' | b's' | b'r' => 6,
        b'0'..=b'9' => 5,
        b'a'..=b'z' => 3,
        _ => 2,
    }
}

/// The two least common distinct bytes of `s` (one when it has one).
fn rarest(s: &[u8]) -> Vec<u8> {
    let mut v: Vec<u8> = s.to_vec();
    v.sort_unstable();
    v.dedup();
    v.sort_by_key(|&b| common(b));
    v.truncate(2);
    v
}

/// A substitution, with the byte of `from` it is looked for by.
#[derive(Clone, Debug)]
struct Subst {
    from: Box<str>,
    to: Box<str>,
    /// The byte of `from` least common in URLs, and its offset: `from`
    /// is looked for where `memchr` finds it (paths and queries are
    /// short; memmem's setup cost more than the search, issue 11).
    anchor: u8,
    off: usize,
    /// A second byte of `from` (the least common other than `anchor`, or
    /// `anchor` again when `from` has one distinct byte) and its offset:
    /// a start of `from` has both at their offsets ([`Subst::find_in_tail`]).
    anchor2: u8,
    off2: usize,
}

impl Subst {
    fn new(from: &str, to: &str) -> Subst {
        let f = from.as_bytes();
        let off = (0..f.len()).min_by_key(|&i| common(f[i])).unwrap_or(0);
        let anchor = f.get(off).copied().unwrap_or(0);
        let off2 = (0..f.len())
            .filter(|&i| f[i] != anchor)
            .min_by_key(|&i| common(f[i]))
            .unwrap_or(off);
        let anchor2 = f.get(off2).copied().unwrap_or(0);
        Subst {
            from: from.into(),
            to: to.into(),
            anchor,
            off,
            anchor2,
            off2,
        }
    }

    /// [`Subst::find`] in `b[lo..]` when that is within the last 32 bytes
    /// of `b` (`t`, `b.len() - 32 <= lo`): the place in `b` of the first
    /// `from`. The starts that have both anchors at their offsets, from
    /// two byte masks, each compared whole (in increasing order, so the
    /// first that matches is the first occurrence): no walk byte by byte
    /// and no branch per byte (issue 11, round 23: the walk found nothing
    /// in 23,756 of the 27,913 searches of the learned crawl).
    #[inline(always)]
    fn find_in_tail(&self, t: &irinorm_simd::Tail32, b: &[u8], lo: usize) -> Option<usize> {
        let f = self.from.as_bytes();
        let base = b.len() - 32;
        if f.is_empty() || f.len() > 32 {
            return self.find(&b[lo..]).map(|x| lo + x);
        }
        // Bit `p`: a start at `base + p` (`off`, `off2` < `f.len()` <= 32).
        let mut m = (t.eq(self.anchor) >> self.off) & (t.eq(self.anchor2) >> self.off2);
        // Starts at or after `lo`, and with all of `from` inside `b`.
        m &= u32::MAX.checked_shl((lo - base) as u32).unwrap_or(0);
        m &= u32::MAX >> (f.len() - 1);
        while m != 0 {
            let p = base + m.trailing_zeros() as usize;
            if same_bytes(&b[p..p + f.len()], f) {
                return Some(p);
            }
            m &= m - 1;
        }
        None
    }

    /// The first occurrence of `from` in `h`.
    #[inline]
    fn find(&self, h: &[u8]) -> Option<usize> {
        let f = self.from.as_bytes();
        let last = h.len().checked_sub(f.len())?;
        // An anchor at `off + p` is a start at `p`, in increasing order.
        let w = &h[self.off..=self.off + last];
        if w.len() < 64 {
            // Short (most paths): a plain loop costs less than memchr's
            // dispatch.
            // The candidate compared word-wise, inline (the slice `==`
            // called `bcmp` for each anchor found; issue 11, round 11).
            return (0..w.len())
                .find(|&p| w[p] == self.anchor && same_bytes(&h[p..p + f.len()], f));
        }
        memchr::memchr_iter(self.anchor, w).find(|&p| same_bytes(&h[p..p + f.len()], f))
    }
}

#[derive(Clone, Debug)]
struct Step {
    op: Op,
    /// The path prefix the rule holds under (`None`: `/`, every path).
    prefix: Option<Box<str>>,
    reads: u8,
    writes: u8,
    /// Bits of [`Plan::bytes`] that must all be in `path?query` for the
    /// step to fire (0: no such screen).
    screen: u16,
}

/// [`Step::screen`] of `lowercase-path`: an ASCII capital.
const UPPER: u16 = 1 << 15;

/// The steps of one host.
#[derive(Clone, Debug)]
struct Plan {
    steps: Box<[Step]>,
    /// For each step (at most 64), the steps that must look again when it
    /// fires: those that read what it writes (itself only for a
    /// substitution, which may find new occurrences in its own output;
    /// the other rules are idempotent).
    wakes: Box<[u64]>,
    /// For each byte, the screens it meets: [`UPPER`] for capitals, bit
    /// `i` for the anchor of the `i`-th substitution (up to 15). One pass
    /// over `path?query` tells which of the host's path rules can fire
    /// at all (issue 11: one scan instead of one per rule).
    bytes: Box<[u16; 256]>,
    /// The host's only rule is a host alias on every path (`www.` and
    /// mirror hosts: 45% of the plans run on the learned crawl of
    /// BENCHMARKS.md): [`Plans::run`] splices the canonical host and
    /// starts its plan without the rounds' bookkeeping.
    alias_only: bool,
    /// The host's rules are a scheme alias then a host alias, both on
    /// every path (`http` to `https` and `www.x` to `x`: 29 of the 420
    /// hosts of the learned crawl, 8,700 of its URLs by round 9's
    /// counts): [`Plans::run`] runs the two without the compiled round's
    /// call (issue 11, round 11).
    scheme_alias: bool,
    /// For an `alias_only` plan whose aliases lead, through other
    /// `alias_only` plans and without a cycle, to a host that is not one:
    /// that host, its plan, and the number of aliases on the way,
    /// resolved when the file is loaded. [`Plans::run`] splices the last
    /// host once instead of each on the way, when the 16-round bound would
    /// let every one of them run (cycles stay as they are).
    chain: Option<(Box<str>, Option<u32>, u32)>,
    /// The plan's host (the table's key: the exact bytes a URL's host has
    /// when this plan is found) is not empty, does not end with `.` and
    /// does not start with an ASCII digit ([`plain_host`]): decided when
    /// the file is loaded, so that the named rules' screen of the host
    /// (`remove-trailing-host-dot`, `decode-ipv4-forms`) is not made again
    /// for every URL of the host ([`Plans::plain_host`]; issue 11, round 20).
    plain_host: bool,
    /// The steps that can fire in the first round, by the URL's state
    /// when the plan starts ([`state`]: whether it has a query, whether
    /// its path ends with `/`), decided when the file is loaded: the
    /// query rules need a query, `remove-trailing-slash` a final `/`,
    /// `add-trailing-slash` and `directory-index` none. A step left out
    /// can fire later only when something it reads changed, and then the
    /// step that changed it wakes it (issue 11: steps screened once per
    /// plan, not one by one in the loop). Plans of more than 64 steps:
    /// every step.
    first: [u64; 4],
    /// The first round compiled into one pass in the fixed order, for a
    /// plan whose steps hold on every path ([`FirstRound::new`]); `None`:
    /// the step loop. Held in the plan, not boxed: the run reaches the
    /// round's data through the plan's pointer alone (issue 11, round 17:
    /// the round's own pointer was a second base kept on the stack and
    /// reloaded after each call).
    round1: Option<FirstRound>,
}

/// Whether `host` is one on which neither `remove-trailing-host-dot`
/// (a final `.`) nor `decode-ipv4-forms` (an IPv4 address in some form
/// starts with a digit: RFC 3986 §7.4; WHATWG URL's IPv4 parser) can
/// fire: not empty, no final `.`, no leading ASCII digit.
pub(crate) fn plain_host(host: &[u8]) -> bool {
    match (host.first(), host.last()) {
        (Some(first), Some(&last)) => !first.is_ascii_digit() && last != b'.',
        _ => false,
    }
}

/// The plans of a settings file, by exact host.
#[derive(Clone, Debug)]
pub(crate) struct Plans {
    hosts: HostTable,
    plans: Vec<Plan>,
}

/// The little-endian word of `b[i..i + 8]`.
#[inline(always)]
fn word_at(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"))
}

/// The last word of `h` for [`host_hash`] and [`same_bytes`]: its last 8
/// bytes (overlapping the whole words before) or, when shorter, all of
/// it, by two overlapping loads (no `memcpy` call for a partial word).
#[inline(always)]
fn last_word(h: &[u8]) -> u64 {
    let n = h.len();
    if n >= 8 {
        word_at(h, n - 8)
    } else if n >= 4 {
        let w = |i: usize| u64::from(u32::from_le_bytes(h[i..i + 4].try_into().expect("4")));
        w(0) | w(n - 4) << 32
    } else {
        h.iter()
            .enumerate()
            .fold(0, |w, (i, &x)| w | u64::from(x) << (8 * i))
    }
}

/// The hash of a host: FxHash's multiply-rotate over its whole words and
/// its last word, the length folded in. One hash per URL serves both the
/// screen and the table (issue 11: the host was hashed twice, and
/// `hashbrown`'s probe, `str` hashing and key compare cost about 100
/// instructions per URL).
#[inline]
fn host_hash(h: &[u8]) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5; // rustc-hash 2's multiplier
    let mix = |x: u64, w: u64| (x ^ w).wrapping_mul(K).rotate_left(26);
    let mut x = h.len() as u64;
    let mut i = 0;
    while i + 8 < h.len() {
        x = mix(x, word_at(h, i));
        i += 8;
    }
    // The top bits pick the screen's bit, the middle ones the slot.
    mix(x, last_word(h)).wrapping_mul(K)
}

/// `a == b` word by word (inline: `memcmp`'s call and dispatch cost more
/// than the compare on hosts, schemes and parameter names of a few
/// words).
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i + 8 < a.len() {
        if word_at(a, i) != word_at(b, i) {
            return false;
        }
        i += 8;
    }
    last_word(a) == last_word(b)
}

/// [`HostTable::quick`]'s bit of a host: its length and its first and
/// last two bytes, mixed by one multiply.
#[inline(always)]
fn quick_bit(h: &[u8]) -> usize {
    let n = h.len();
    let two = |i: usize| u64::from(h[i]) | u64::from(h[i + 1]) << 8;
    let x = if n >= 2 {
        n as u64 | two(0) << 8 | two(n - 2) << 24
    } else {
        n as u64 | u64::from(h.first().copied().unwrap_or(0)) << 8
    };
    (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize
}

/// The hosts with a plan: open addressing (linear probing, at most half
/// full) on [`host_hash`], and a 4,096-bit screen on the hash's top bits
/// that tells most hosts without rules so before any probe. The keys come
/// from the settings file; input hosts are only looked up, so no input
/// can lengthen a probe.
#[derive(Clone, Debug)]
struct HostTable {
    /// A bit (of 4,096) per host with a plan, from its length and its
    /// first and last two bytes ([`quick_bit`]): most hosts of most inputs
    /// have no rules, and are told so before the hash (issue 11: a host
    /// without rules at nearly the cost of `crawler`; on the learned
    /// crawl, where every host has rules, it costs 18 instructions a URL).
    quick: Box<[u64; 64]>,
    screen: Box<[u64; 64]>,
    /// `(hash, plan)`; plan `u32::MAX`: empty.
    slots: Box<[(u64, u32)]>,
    /// The host of each plan, for the final compare.
    names: Box<[Box<str>]>,
    /// This table among those made in the process (from 1): the recent
    /// hosts ([`RECENT_0`]) answer only for the table that found them.
    id: u64,
}

/// The tables made so far ([`HostTable::id`]).
static TABLES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A host as the recent hosts keep it: its length and three words that
/// hold all its bytes when it has at most 24 (the first word, the one at
/// 8 or, for fewer than 16 bytes, the last, and the last: overlapping;
/// the zero-padded word for fewer than 8). Hosts of the same length at
/// most 24 bytes are equal when their keys are: a recent host is
/// recognised without reading the table's name (issue 11, round 12: the
/// compare with the name, through its pointer, and the call were ~58
/// instructions a URL of the learned crawl, whose hosts have 13-21
/// bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HostKey {
    len: u64,
    words: [u64; 3],
}

impl HostKey {
    #[inline(always)]
    fn of(h: &[u8]) -> HostKey {
        let n = h.len();
        let words = if n >= 8 {
            [word_at(h, 0), word_at(h, 8.min(n - 8)), word_at(h, n - 8)]
        } else {
            [last_word(h), 0, 0]
        };
        HostKey {
            len: n as u64,
            words,
        }
    }

    /// The key holds every byte of the host.
    #[inline(always)]
    fn whole(&self) -> bool {
        self.len <= 24
    }

    /// `self == other`, by one test of or-ed differences (no loop, no
    /// branch per word).
    #[inline(always)]
    fn same(&self, other: &HostKey) -> bool {
        let [a, b, c] = self.words;
        let [x, y, z] = other.words;
        (self.len ^ other.len) | (a ^ x) | (b ^ y) | (c ^ z) == 0
    }
}

/// A host found in a table ([`RECENT_0`], [`RECENT_1`]).
#[derive(Clone, Copy, Debug)]
struct Recent {
    /// [`HostTable::id`] (0: none).
    table: u64,
    key: HostKey,
    plan: u32,
}

const NO_RECENT: Recent = Recent {
    table: 0,
    key: HostKey {
        len: 0,
        words: [0; 3],
    },
    plan: u32::MAX,
};

impl HostTable {
    fn new(names: Vec<Box<str>>) -> HostTable {
        let cap = (names.len() * 2).next_power_of_two().max(8);
        let mut slots = vec![(0u64, u32::MAX); cap].into_boxed_slice();
        let mut screen = Box::new([0u64; 64]);
        let mut quick = Box::new([0u64; 64]);
        for (i, n) in names.iter().enumerate() {
            let q = quick_bit(n.as_bytes());
            quick[q / 64] |= 1 << (q % 64);
            let h = host_hash(n.as_bytes());
            let b = (h >> 52) as usize;
            screen[b / 64] |= 1 << (b % 64);
            let mut k = (h >> 20) as usize & (cap - 1);
            while slots[k].1 != u32::MAX {
                k = (k + 1) & (cap - 1);
            }
            slots[k] = (h, i as u32);
        }
        HostTable {
            quick,
            screen,
            slots,
            names: names.into_boxed_slice(),
            id: TABLES.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
        }
    }

    /// The first screen inline, in the caller (a host without rules stops
    /// there without a call: issue 11, hosts without rules), the rest
    /// apart.
    #[inline(always)]
    fn get(&self, host: &[u8]) -> Option<u32> {
        let q = quick_bit(host);
        if self.quick[q / 64] & (1 << (q % 64)) == 0 {
            return None;
        }
        self.screened(host)
    }

    /// [`HostTable::get`] after the first screen: the host this thread
    /// found last, by its key, in a function of few registers (no
    /// spills: its prologue and epilogue were ~17 of the ~58 instructions
    /// this took per URL of the learned crawl; issue 11, round 12), the
    /// rest apart. (Both recent hosts here cost more: the spills again.)
    #[inline(never)]
    fn screened(&self, host: &[u8]) -> Option<u32> {
        let key = HostKey::of(host);
        let last = RECENT_0.get();
        if last.table == self.id && last.key.same(&key) && key.whole() {
            return Some(last.plan);
        }
        // The key made again there, not handed over: passed, it was
        // stored to the stack on every call, the hits' too (issue 11,
        // round 18).
        self.unseen(host)
    }

    /// [`HostTable::screened`] when the last host is not `host` by its
    /// key: a long host (more than 24 bytes) compared with the table's
    /// name, the host found before the last, then the probe.
    #[inline(never)]
    fn unseen(&self, host: &[u8]) -> Option<u32> {
        let key = HostKey::of(host);
        let last = RECENT_0.get();
        let same = |r: &Recent| {
            r.table == self.id
                && r.key.same(&key)
                && (key.whole()
                    || self
                        .names
                        .get(r.plan as usize)
                        .is_some_and(|n| same_bytes(n.as_bytes(), host)))
        };
        if same(&last) {
            return Some(last.plan);
        }
        let before = RECENT_1.get();
        if same(&before) {
            RECENT_0.set(before);
            RECENT_1.set(last);
            return Some(before.plan);
        }
        let plan = self.probe(host)?;
        RECENT_0.set(Recent {
            table: self.id,
            key,
            plan,
        });
        RECENT_1.set(last);
        Some(plan)
    }

    /// [`HostTable::get`] without the recent hosts: the hash, its screen,
    /// the probe.
    #[inline]
    fn probe(&self, host: &[u8]) -> Option<u32> {
        let h = host_hash(host);
        let b = (h >> 52) as usize;
        if self.screen[b / 64] & (1 << (b % 64)) == 0 {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut k = (h >> 20) as usize & mask;
        loop {
            let (sh, p) = self.slots[k];
            if p == u32::MAX {
                return None;
            }
            if sh == h && same_bytes(self.names[p as usize].as_bytes(), host) {
                return Some(p);
            }
            k = (k + 1) & mask;
        }
    }
}

thread_local! {
    /// The hosts [`HostTable::get`] found last on this thread, most recent
    /// first, with their table and plan. Crawl records and frontier lists
    /// come grouped by host (CDX files are sorted by SURT), often
    /// alternating between a host and its alias: on the learned crawl of
    /// BENCHMARKS.md 97% of the URLs have one of the two hosts before
    /// them, and a compare of keys costs a fraction of the hash and probe
    /// (issue 11). An entry answers only for the table that made it
    /// ([`HostTable::id`]: ids are never reused, where an address could
    /// be), and only for the host it holds (the key, and for a host of
    /// more than 24 bytes the table's name), so another settings file on
    /// the same thread can cost a compare, never a wrong answer.
    static RECENT_0: std::cell::Cell<Recent> = const { std::cell::Cell::new(NO_RECENT) };
    static RECENT_1: std::cell::Cell<Recent> = const { std::cell::Cell::new(NO_RECENT) };
}

/// Where the components of the URL being rewritten lie in the buffer.
/// The URL runs from `start` to the end of the buffer (no fragment).
#[derive(Clone, Copy, Debug)]
pub(crate) struct At {
    pub(crate) start: usize,
    /// The `:` after the scheme.
    pub(crate) scheme_end: usize,
    pub(crate) host: (usize, usize),
    /// The `:` before the port.
    pub(crate) port: Option<usize>,
    pub(crate) path: usize,
    /// The `?`.
    pub(crate) query: Option<usize>,
}

impl At {
    /// Offsets from the components of `out[start..]` (`o` describes it,
    /// as [`irinorm::Meta::offsets`] gives them: no `str` slicing, whose
    /// boundary checks were most of the 106 instructions per URL this
    /// took; issue 11): `None` when it has no scheme or host, a fragment,
    /// or a path that is not absolute (no host rule applies to it).
    #[inline]
    pub(crate) fn of(out: &str, start: usize, o: &irinorm::Offsets) -> Option<At> {
        let (scheme_end, host) = (o.scheme_end?, o.host?);
        if o.fragment.is_some() || out.as_bytes().get(start + o.path.0) != Some(&b'/') {
            return None;
        }
        Some(At {
            start,
            scheme_end: start + scheme_end,
            host: (start + host.0, start + host.1),
            port: o.port.map(|p| start + p - 1),
            path: start + o.path.0,
            query: o.query.map(|(q, _)| start + q - 1),
        })
    }

    /// [`At::of`] from the ladder's `m` directly, for the text
    /// `out[start..]` whose query, if any, starts after the path and runs
    /// to the end (the query filter may have cut it or the fragment: the
    /// rest stays where `m` puts it): no [`irinorm::Offsets`] made and
    /// unwrapped (issue 11, round 13). `None` when it has no scheme or
    /// host, or a path that is not absolute; the caller has dropped any
    /// fragment.
    #[inline(always)]
    pub(crate) fn of_meta(out: &str, start: usize, m: &irinorm::Meta) -> Option<At> {
        let [scheme_end, hs, he, port, ps, pe] = m.scheme_authority_offsets()?;
        let b = out.as_bytes();
        if b.get(start + ps) != Some(&b'/') {
            return None;
        }
        Some(At {
            start,
            scheme_end: start + scheme_end,
            host: (start + hs, start + he),
            port: (port != 0).then_some(start + port),
            path: start + ps,
            query: (b.len() > start + pe).then_some(start + pe),
        })
    }

    /// Replaces `out[a..b]` by `with`; every offset at or after `b` moves.
    fn splice(&mut self, out: &mut String, a: usize, b: usize, with: &str) {
        let n = b - a;
        let w = with.as_bytes();
        if w.len() > n && same_bytes(&out.as_bytes()[a..b], &w[..n]) {
            // `with` extends the text (`http` to `https`, a slash added):
            // its rest inserted, without `replace_range`'s splice (issue
            // 11, round 12: ~62 instructions a call, most of the
            // learned crawl's 20,254).
            out.insert_str(b, &with[n..]);
        } else {
            out.replace_range(a..b, with);
        }
        self.moved(b, w.len() as isize - n as isize);
    }

    /// Every offset at or after `b` moves by `d` bytes (an edit that ends
    /// at `b` made the text `d` bytes longer).
    fn moved(&mut self, b: usize, d: isize) {
        let mv = |x: &mut usize| {
            if *x >= b {
                *x = (*x as isize + d) as usize;
            }
        };
        mv(&mut self.scheme_end);
        mv(&mut self.host.0);
        mv(&mut self.host.1);
        if let Some(p) = self.port.as_mut() {
            mv(p);
        }
        mv(&mut self.path);
        if let Some(q) = self.query.as_mut() {
            mv(q);
        }
    }

    /// The host becomes `to`. When `to` ends the host (`www.x` to `x`,
    /// most learned host aliases) the labels before it are drained: one
    /// move of the tail, without `replace_range`'s splice (issue 11,
    /// round 7).
    #[inline(always)]
    fn set_host(&mut self, out: &mut String, to: &str) {
        let (a, b) = self.host;
        let t = to.as_bytes();
        let h = &out.as_bytes()[a..b];
        if h.len() > t.len()
            && h[h.len() - t.len() - 1] == b'.'
            && same_bytes(&h[h.len() - t.len()..], t)
        {
            let d = h.len() - t.len();
            out.drain(a..a + d);
            // What follows the host moves back by `d`; the scheme and the
            // host's start stay (no shift test per offset, as `moved`).
            self.host.1 -= d;
            if let Some(p) = self.port.as_mut() {
                *p -= d;
            }
            self.path -= d;
            if let Some(q) = self.query.as_mut() {
                *q -= d;
            }
            return;
        }
        self.splice(out, a, b, to);
    }

    fn path_end(&self, out: &str) -> usize {
        self.query.unwrap_or(out.len())
    }
}

/// What [`Plans::run`] changed: the run's [`Fired`] bits, read by the
/// methods (issue 11, round 18: four fields made from the bits at each
/// return were ~8 instructions a run, for a caller that tests one or
/// two of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ran(Fired);

/// [`Ran::wrote`] bits.
pub(crate) const WROTE_SCHEME: u8 = SCHEME;
pub(crate) const WROTE_HOST: u8 = HOST;

/// What a run changed while it runs: the components written (bits of
/// [`Ran::wrote`]) and [`SPELLED`], in one byte the run keeps in a
/// register (issue 11, round 17: [`Ran`]'s four fields were four values
/// of the run, spilled to the stack and reloaded). Every step writes some
/// component, so a rule fired when a bit is set, and only a host alias
/// writes the host.
type Fired = u8;

/// [`Fired`]'s bit for a substitution that fired.
const SPELLED: Fired = 16;

impl Ran {
    /// [`Ran`] from a run's [`Fired`] bits.
    #[inline(always)]
    fn of(bits: Fired) -> Ran {
        Ran(bits)
    }

    /// Some rule fired.
    #[inline(always)]
    pub(crate) fn any(self) -> bool {
        self.0 != 0
    }

    /// The host changed (an alias).
    #[inline(always)]
    pub(crate) fn host(self) -> bool {
        self.0 & HOST != 0
    }

    /// The components written (bits; [`WROTE_HOST`]...).
    #[inline(always)]
    pub(crate) fn wrote(self) -> u8 {
        self.0 & (SCHEME | HOST | PATH | QUERY)
    }

    /// A substitution fired: new text (the other rules only cut, reorder
    /// or copy text of the settings file).
    #[inline(always)]
    pub(crate) fn spelled(self) -> bool {
        self.0 & SPELLED != 0
    }
}

impl Plans {
    /// Compiles `rules`: `None` when a rule has a `*.suffix` host.
    pub(crate) fn new(rules: &[HostRule], schemes: &super::HostSchemes) -> Option<Plans> {
        if rules.iter().any(|r| r.host.starts_with("*.")) {
            return None;
        }
        let mut order: Vec<usize> = (0..rules.len()).collect();
        // Stable: rules of one kind keep the file's order (as the index).
        order.sort_by_key(|&i| rules[i].kind.rank());
        let mut hosts: Vec<(&str, Vec<&HostRule>)> = Vec::new();
        let mut by_host: FxHashMap<Box<str>, u32> = FxHashMap::default();
        for i in order {
            let r = &rules[i];
            let n = *by_host.entry(r.host.as_str().into()).or_insert_with(|| {
                hosts.push((r.host.as_str(), Vec::new()));
                hosts.len() as u32 - 1
            });
            hosts[n as usize].1.push(r);
        }
        let mut plans: Vec<Plan> = hosts
            .iter()
            .map(|(_, rs)| Plan::new(rs, &by_host, schemes))
            .collect();
        let alias = |p: &Plan| match (&p.steps[0].op, p.alias_only) {
            (Op::Host(to, t), true) => Some((to.clone(), *t)),
            _ => None,
        };
        for i in 0..plans.len() {
            let Some((mut to, mut t)) = alias(&plans[i]) else {
                continue;
            };
            let mut hops = 1u32;
            let mut seen = vec![i as u32];
            while let Some(next) = t.filter(|&n| plans[n as usize].alias_only) {
                if seen.contains(&next) || hops >= 16 {
                    hops = 0; // a cycle (or longer than any run): stepwise
                    break;
                }
                seen.push(next);
                (to, t) = alias(&plans[next as usize]).expect("alias_only");
                hops += 1;
            }
            if hops > 0 {
                plans[i].chain = Some((to, t, hops));
            }
        }
        for (p, (host, _)) in plans.iter_mut().zip(&hosts) {
            p.round1 = FirstRound::new(p);
            p.plain_host = plain_host(host.as_bytes());
        }
        Some(Plans {
            hosts: HostTable::new(hosts.iter().map(|(h, _)| (*h).into()).collect()),
            plans,
        })
    }

    /// Whether the host of plan `p` is plain ([`plain_host`]): then the
    /// named rules' host screen
    /// ([`crate::apply::query_in_place`]'s `host_plain`) is known to pass.
    #[inline(always)]
    pub(crate) fn plain_host(&self, p: u32) -> bool {
        self.plans.get(p as usize).is_some_and(|x| x.plain_host)
    }

    /// The plan of `host`.
    #[inline]
    pub(crate) fn lookup(&self, host: &[u8]) -> Option<u32> {
        self.hosts.get(host)
    }

    /// Runs plan `p` (of the host at `at`) on `out`, rounds of the fixed
    /// order until one changes nothing (each rule shortens or reorders,
    /// so this ends; bounded anyway, as the first implementation).
    pub(crate) fn run(&self, p: u32, out: &mut String, at: &mut At) -> Ran {
        self.run_with::<true>(p, out, at)
    }

    /// [`Plans::run`] with every first round by the step loop, not by the
    /// compiled pass ([`FirstRound`]): the oracle of the tests.
    pub(crate) fn run_stepwise(&self, p: u32, out: &mut String, at: &mut At) -> Ran {
        self.run_with::<false>(p, out, at)
    }

    /// [`Plans::run`]; `COMPILED`: compiled first rounds where a plan has
    /// one.
    fn run_with<const COMPILED: bool>(&self, p: u32, out: &mut String, at: &mut At) -> Ran {
        let mut plan = &self.plans[p as usize];
        let mut ran: Fired = 0;
        let mut rounds = 1u32;
        'plan: loop {
            // A host alias fired: the target's plan starts (a new round),
            // within the first implementation's 16 rounds.
            macro_rules! next_plan {
                ($target:expr) => {
                    match $target {
                        Some(t) if rounds < 16 => {
                            plan = &self.plans[t as usize];
                            rounds += 1;
                            continue 'plan;
                        }
                        _ => return Ran::of(ran),
                    }
                };
            }
            if let Some((to, target, hops)) = &plan.chain {
                // The aliases on the way, at once: each would fire (a host
                // is never its own alias on an acyclic chain) and start the
                // next, as long as the rounds allow every one (the plan
                // after the last alias starts when `rounds + hops <= 16`).
                if rounds + hops <= 16 {
                    at.set_host(out, to);
                    ran |= HOST;
                    rounds += hops;
                    match target {
                        Some(t) => {
                            plan = &self.plans[*t as usize];
                            continue 'plan;
                        }
                        None => return Ran::of(ran),
                    }
                }
            }
            if plan.alias_only {
                // What the loop below does for a plan of one unconditional
                // `Op::Host` step, without its masks and screens.
                let Op::Host(_, target) = &plan.steps[0].op else {
                    unreachable!("alias_only holds one host alias")
                };
                if !exec(&plan.steps[0].op, out, at) {
                    return Ran::of(ran);
                }
                ran |= HOST;
                next_plan!(*target)
            }
            if COMPILED && plan.scheme_alias {
                // The compiled round of these two steps: the scheme alias
                // wakes no step before it, and the host alias ends the
                // round (or, when the host is already `to`, the plan).
                let (Op::Scheme(scheme), Op::Host(to, target)) =
                    (&plan.steps[0].op, &plan.steps[1].op)
                else {
                    unreachable!("scheme_alias holds a scheme alias and a host alias")
                };
                if alias_scheme(scheme, out, at) {
                    ran |= SCHEME;
                }
                if !alias_host(to, out, at) {
                    return Ran::of(ran);
                }
                ran |= HOST;
                next_plan!(*target)
            }
            let n = plan.steps.len();
            // The screens `path?query` meets, computed when a step with a
            // screen first looks, again after a change.
            let mut sig: Option<u16> = None;
            // The first round looks at every step in order: a plain loop
            // (the masks below cost about 15 instructions a step, and most
            // URLs need one round; issue 11). It leaves in `need` the
            // steps a step that fired woke at or before itself, which is
            // what the masked loop would hold at the end of the round.
            let mut need = 0u64;
            let mut fired_in_round = false;
            if let Some(r) = plan.round1.as_ref().filter(|_| COMPILED) {
                match r.run(plan, out, at, &mut ran) {
                    Outcome::Alias(target) => next_plan!(target),
                    // Nothing woken (most URLs): no later round, without
                    // the rounds loop's tests (issue 11, round 11).
                    Outcome::Need(0) => return Ran::of(ran),
                    Outcome::Need(woken) => need = woken,
                }
            } else if n <= 64 {
                // The steps of this round, in order: those the plan's
                // state screen lets through, and those a step that fired
                // woke after itself.
                let mut todo = plan.first[state(out, at)];
                while todo != 0 {
                    let k = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    match visit(plan, k, out, at, &mut sig, &mut ran) {
                        Visit::Quiet => {}
                        Visit::Fired => {
                            let upto = if k == 63 { u64::MAX } else { (2u64 << k) - 1 };
                            need |= plan.wakes[k] & upto;
                            todo |= plan.wakes[k] & !upto;
                        }
                        Visit::Alias(target) => next_plan!(target),
                    }
                }
            } else {
                for k in 0..n {
                    match visit(plan, k, out, at, &mut sig, &mut ran) {
                        Visit::Quiet => {}
                        Visit::Fired => fired_in_round = true,
                        Visit::Alias(target) => next_plan!(target),
                    }
                }
            }
            if n > 64 {
                // More steps than the masks hold: every step every round,
                // as the first implementation.
                loop {
                    if !fired_in_round || rounds == 16 {
                        return Ran::of(ran);
                    }
                    rounds += 1;
                    fired_in_round = false;
                    for k in 0..n {
                        match visit(plan, k, out, at, &mut sig, &mut ran) {
                            Visit::Quiet => {}
                            Visit::Fired => fired_in_round = true,
                            Visit::Alias(target) => next_plan!(target),
                        }
                    }
                }
            }
            // Later rounds: only the steps that must look again. A step is
            // a function of what it reads, so one whose inputs did not
            // change since it last looked would say no. A round ends at
            // the last step; the next starts when an earlier step was
            // woken, which is when the first implementation's next round
            // could change anything.
            let mut k = n;
            loop {
                let ahead = if k >= 64 { 0 } else { need & (u64::MAX << k) };
                if ahead == 0 {
                    if need == 0 || rounds == 16 {
                        return Ran::of(ran);
                    }
                    rounds += 1;
                    k = need.trailing_zeros() as usize;
                } else {
                    k = ahead.trailing_zeros() as usize;
                }
                need &= !(1u64 << k);
                match visit(plan, k, out, at, &mut sig, &mut ran) {
                    Visit::Quiet => {}
                    Visit::Fired => need |= plan.wakes[k],
                    Visit::Alias(target) => next_plan!(target),
                }
                k += 1;
            }
        }
    }
}

/// The index of [`Plan::first`]: bit 0, the URL has a query; bit 1, its
/// path ends with `/`.
#[inline(always)]
fn state(out: &str, at: &At) -> usize {
    let pe = at.path_end(out);
    usize::from(at.query.is_some())
        | usize::from(pe > at.path && out.as_bytes()[pe - 1] == b'/') << 1
}

/// The screens of `plan` that `path?query` meets ([`Plan::bytes`]).
#[inline(always)]
fn screen_of(plan: &Plan, out: &str, at: &At) -> u16 {
    let t: &[u16; 256] = &plan.bytes;
    // Eight bytes a turn, their lookups or-ed together (issue 11, round
    // 7: the byte-by-byte fold was about 100 instructions a URL of the
    // learned crawl, most of it the iterator's loop).
    let mut chunks = out.as_bytes()[at.path..].chunks_exact(8);
    let mut m = 0u16;
    for w in &mut chunks {
        m |= t[w[0] as usize] | t[w[1] as usize] | t[w[2] as usize] | t[w[3] as usize];
        m |= t[w[4] as usize] | t[w[5] as usize] | t[w[6] as usize] | t[w[7] as usize];
    }
    chunks.remainder().iter().fold(m, |m, &b| m | t[b as usize])
}

/// What one step did ([`visit`]).
enum Visit {
    Quiet,
    Fired,
    /// A host alias fired: the canonical host's plan, when it has one
    /// (the next round runs its rules, every one).
    Alias(Option<u32>),
}

/// Step `k` of `plan`: its path prefix and screen, then the step.
#[inline(always)]
fn visit(
    plan: &Plan,
    k: usize,
    out: &mut String,
    at: &mut At,
    sig: &mut Option<u16>,
    ran: &mut Fired,
) -> Visit {
    let st = &plan.steps[k];
    if let Some(pre) = &st.prefix {
        if !out.as_bytes()[at.path..at.path_end(out)].starts_with(pre.as_bytes()) {
            return Visit::Quiet;
        }
    }
    if st.screen != 0 {
        let s = *sig.get_or_insert_with(|| screen_of(plan, out, at));
        if s & st.screen != st.screen {
            return Visit::Quiet;
        }
    }
    if !exec(&st.op, out, at) {
        return Visit::Quiet;
    }
    *ran |= st.writes;
    if matches!(st.op, Op::Subst(_)) {
        *ran |= SPELLED;
    }
    if st.writes & (PATH | QUERY) != 0 {
        *sig = None;
    }
    if let Op::Host(_, target) = &st.op {
        return Visit::Alias(*target);
    }
    Visit::Fired
}

impl Plan {
    fn new(
        rules: &[&HostRule],
        by_host: &FxHashMap<Box<str>, u32>,
        schemes: &super::HostSchemes,
    ) -> Plan {
        let prefix = |r: &HostRule| (r.path != "/").then(|| r.path.as_str().into());
        let mut steps: Vec<Step> = Vec::with_capacity(rules.len());
        for r in rules {
            let pre: Option<Box<str>> = prefix(r);
            let p = if pre.is_some() { PATH } else { 0 };
            let (op, reads, writes) = match &r.kind {
                // A target the registry refuses was left out (`HostIndex`).
                HostRuleKind::AliasScheme { to } => match schemes.target(to) {
                    Some(t) => (Op::Scheme(Box::new(t)), SCHEME, SCHEME),
                    None => continue,
                },
                HostRuleKind::AliasHost { to } => (
                    Op::Host(to.as_str().into(), by_host.get(to.as_str()).copied()),
                    HOST,
                    HOST,
                ),
                HostRuleKind::IgnoreParam { name } | HostRuleKind::DefaultParam { name, .. } => {
                    let param = Param {
                        name: name.as_str().into(),
                        value: match &r.kind {
                            HostRuleKind::DefaultParam { value, .. } => Some(value.as_str().into()),
                            _ => None,
                        },
                        prefix: pre,
                    };
                    // One table for the host's run of ignored and default
                    // parameters (they are adjacent in the fixed order).
                    if let Some(Step {
                        op: Op::Params(ps),
                        reads,
                        ..
                    }) = steps.last_mut()
                    {
                        ps.add(param);
                        *reads |= p;
                        continue;
                    }
                    let mut table = ParamTable::default();
                    table.add(param);
                    steps.push(Step {
                        op: Op::Params(Box::new(table)),
                        prefix: None,
                        reads: QUERY | p,
                        writes: QUERY,
                        screen: 0,
                    });
                    continue;
                }
                HostRuleKind::SortQuery => (Op::Sort, QUERY, QUERY),
                HostRuleKind::LowercasePath => (Op::Lower, PATH, PATH),
                HostRuleKind::Substitute { from, to } => (
                    Op::Subst(Box::new(Subst::new(from, to))),
                    PATH | QUERY,
                    PATH | QUERY,
                ),
                HostRuleKind::DirectoryIndex { name } => {
                    (Op::Index(name.as_str().into()), PATH, PATH)
                }
                HostRuleKind::RemoveTrailingSlash => (Op::RemoveSlash, PATH, PATH),
                HostRuleKind::AddTrailingSlash => (Op::AddSlash, PATH, PATH),
            };
            steps.push(Step {
                op,
                prefix: prefix(r),
                reads: reads | p,
                writes,
                screen: 0,
            });
        }
        // Screens: a substitution needs the two least common bytes of its
        // `from`, a directory index the least common of its name (either
        // case), each a bit of the table while there are bits.
        let mut bytes = Box::new([0u16; 256]);
        let mut next = 0;
        for st in steps.iter_mut() {
            let need: Vec<Vec<u8>> = match &st.op {
                Op::Lower => {
                    for b in b'A'..=b'Z' {
                        bytes[b as usize] |= UPPER;
                    }
                    st.screen = UPPER;
                    continue;
                }
                Op::Subst(x) => rarest(x.from.as_bytes())
                    .into_iter()
                    .map(|b| vec![b])
                    .collect(),
                Op::Index(name) => rarest(name.as_bytes())
                    .into_iter()
                    .take(1)
                    .map(|b| vec![b.to_ascii_lowercase(), b.to_ascii_uppercase()])
                    .collect(),
                _ => continue,
            };
            if need.is_empty() || next + need.len() > 15 {
                continue;
            }
            for alts in need {
                let bit = 1u16 << next;
                next += 1;
                for b in alts {
                    bytes[b as usize] |= bit;
                }
                st.screen |= bit;
            }
        }
        let wakes = if steps.len() > 64 {
            Box::default()
        } else {
            steps
                .iter()
                .enumerate()
                .map(|(k, w)| {
                    let own = matches!(w.op, Op::Subst(_));
                    steps
                        .iter()
                        .enumerate()
                        .filter(|&(j, r)| r.reads & w.writes != 0 && (j != k || own))
                        .fold(0u64, |m, (j, _)| m | 1 << j)
                })
                .collect()
        };
        let first = std::array::from_fn(|st| {
            let (query, slash) = (st & 1 != 0, st & 2 != 0);
            steps
                .iter()
                .enumerate()
                .filter(|(_, s)| match s.op {
                    Op::Params(_) | Op::Sort => query,
                    Op::RemoveSlash => slash,
                    Op::AddSlash => !slash,
                    // After a final `/` the last segment is empty.
                    Op::Index(ref name) => !slash || name.is_empty(),
                    _ => true,
                })
                .fold(0u64, |m, (k, _)| {
                    m | 1u64.checked_shl(k as u32).unwrap_or(0)
                })
        });
        let alias_only = matches!(
            &steps[..],
            [Step {
                op: Op::Host(..),
                prefix: None,
                ..
            }]
        );
        let scheme_alias = matches!(
            &steps[..],
            [
                Step {
                    op: Op::Scheme(..),
                    prefix: None,
                    ..
                },
                Step {
                    op: Op::Host(..),
                    prefix: None,
                    ..
                }
            ]
        );
        Plan {
            steps: steps.into_boxed_slice(),
            wakes,
            bytes,
            alias_only,
            scheme_alias,
            first,
            chain: None,
            plain_host: false,
            round1: None,
        }
    }
}

/// One step on the URL at `at` in `out`: whether it changed it.
fn exec(op: &Op, out: &mut String, at: &mut At) -> bool {
    match op {
        Op::Scheme(to) => alias_scheme(to, out, at),
        Op::Host(to, _) => alias_host(to, out, at),
        Op::Params(params) => remove_params(params, out, at),
        Op::Sort => sort_query(out, at),
        Op::Lower => lowercase_path(out, at),
        Op::Subst(x) => substitute(x, out, at),
        Op::Index(name) => directory_index(name, out, at),
        Op::RemoveSlash => remove_trailing_slash(out, at),
        Op::AddSlash => add_trailing_slash(out, at),
    }
}

/// `alias-scheme`.
#[inline(always)]
fn alias_scheme(to: &super::SchemeTarget, out: &mut String, at: &mut At) -> bool {
    // Bytes, word-wise (no `str` slicing, no `memcmp` call).
    if same_bytes(&out.as_bytes()[at.start..at.scheme_end], to.as_bytes()) {
        return false;
    }
    // A port that is the default of either scheme is no port.
    if let Some(c) = at.port {
        if to.drops_port(&out[at.start..at.scheme_end], &out[c + 1..at.path]) {
            at.splice(out, c, at.path, "");
            at.port = None;
        }
    }
    at.splice(out, at.start, at.scheme_end, to);
    true
}

/// `alias-host`.
#[inline(always)]
fn alias_host(to: &str, out: &mut String, at: &mut At) -> bool {
    if same_bytes(&out.as_bytes()[at.host.0..at.host.1], to.as_bytes()) {
        return false;
    }
    at.set_host(out, to);
    true
}

/// `lowercase-path`.
#[inline(always)]
fn lowercase_path(out: &mut String, at: &mut At) -> bool {
    let end = at.path_end(out);
    let path = &out[at.path..end];
    if !has_upper_outside_triplets(path) {
        return false;
    }
    if !path.as_bytes().contains(&b'%') {
        // No triplet (most paths): every capital goes, in place
        // (the length stays; no new string, no splice: issue 11).
        out[at.path..end].make_ascii_lowercase();
        return true;
    }
    let lower = irinorm::pct::lowercase_outside_triplets(path);
    at.splice(out, at.path, end, &lower);
    true
}

/// `directory-index`.
#[inline(always)]
fn directory_index(name: &str, out: &mut String, at: &mut At) -> bool {
    let end = at.path_end(out);
    let path = &out.as_bytes()[at.path..end];
    let n = name.as_bytes();
    // The last segment is `name` when the path ends with it after a `/`:
    // compared at the end, not found by a walk back over the whole path
    // (issue 11, round 7). A name holding a `/` is never a last segment.
    // The path starts with `/` (`At::of`; a substitution keeps it so).
    if path.len() <= n.len()
        || path[path.len() - n.len() - 1] != b'/'
        || !path[path.len() - n.len()..].eq_ignore_ascii_case(n)
        || n.contains(&b'/')
    {
        return false;
    }
    at.splice(out, end - n.len(), end, "");
    true
}

/// `remove-trailing-slash`.
#[inline(always)]
fn remove_trailing_slash(out: &mut String, at: &mut At) -> bool {
    // On bytes: the `str` slice's boundary checks and `trim_end_matches`'
    // char walk were ~21 instructions a URL of the learned crawl, where
    // the rule rarely fires (issue 11, round 11).
    let end = at.path_end(out);
    let b = out.as_bytes();
    if end - at.path <= 1 || b[end - 1] != b'/' {
        return false;
    }
    // `/a//` is `/a`; a path of slashes only is `/` (the path starts with
    // `/`: `At::of`).
    let mut t = end - 1;
    while t > at.path + 1 && b[t - 1] == b'/' {
        t -= 1;
    }
    if end == out.len() {
        // No query after the path: a cut at the end.
        out.truncate(t);
    } else {
        at.splice(out, t, end, "");
    }
    true
}

/// `add-trailing-slash`.
#[inline(always)]
fn add_trailing_slash(out: &mut String, at: &mut At) -> bool {
    let end = at.path_end(out);
    if end > at.path && out.as_bytes()[end - 1] == b'/' {
        return false;
    }
    at.splice(out, end, end, "/");
    true
}

/// The `&`-separated parameters of `q`, as byte ranges.
fn params(q: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut start = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        // Parameters are short: a plain loop, not memchr's dispatch.
        let end = q[start..]
            .iter()
            .position(|&b| b == b'&')
            .map_or(q.len(), |i| start + i);
        let r = (start, end);
        done = end == q.len();
        start = end + 1;
        Some(r)
    })
}

/// `sort-query`: parameters in byte order of their names, stable; a query
/// with raw UTF-8 (the `iri` form) in the order of the names' `uri`-form
/// bytes ([`sort_query_raw_utf8`]).
fn sort_query(out: &mut String, at: &mut At) -> bool {
    let Some(qm) = at.query else { return false };
    let (qs, qe) = (qm + 1, out.len());
    let q = &out[qs..qe];
    if !q.is_ascii() {
        return sort_query_raw_utf8(out, qs);
    }
    let name = |(a, b): (usize, usize)| param_name(&q[a..b]);
    // Sorted already (the common case): compared pairwise.
    let mut it = params(q.as_bytes());
    let mut prev = it.next().map_or("", name);
    if it.all(|r| {
        let n = name(r);
        let ok = prev <= n;
        prev = n;
        ok
    }) {
        return false;
    }
    // Rare (a host with `sort-query` and an unsorted query): built apart.
    let mut ps: Vec<(usize, usize)> = params(q.as_bytes()).collect();
    ps.sort_by(|&x, &y| name(x).as_bytes().cmp(name(y).as_bytes()));
    let sorted: Vec<&str> = ps.iter().map(|&(a, b)| &q[a..b]).collect();
    let sorted = sorted.join("&");
    drop(it);
    out.replace_range(qs..qe, &sorted);
    true
}

/// [`sort_query`] on a query holding raw UTF-8 (from `out[qs..]`): by the
/// names' `uri`-form bytes, as the `uri` form sorts them (name_order.rs:
/// forms agree, round 11). Apart, and not inlined: the common path stays
/// as it was (built into it, this changed how the compiler built the
/// query filter: `crawler`, which sorts nothing, 1% more instructions).
#[cold]
#[inline(never)]
fn sort_query_raw_utf8(out: &mut String, qs: usize) -> bool {
    let q = &out[qs..];
    let Some(sorted) = crate::name_order::sorted_query(q) else {
        return false;
    };
    out.replace_range(qs.., &sorted);
    true
}

/// DustBuster's `alpha -> beta` on `path?query`: every occurrence, left to
/// right, not overlapping; the `?` that ends the new path is the first
/// one. Refused (nothing changes) when the new path would not be absolute
/// or would have a dot segment (RFC 3986 §5.2.4 would remove it, and the
/// result would not be idempotent).
///
/// The first search inline, the edit apart ([`substitute_from`]): most
/// calls find no `from` (its screen's bytes are in `path?query`, `from`
/// is not: 23,756 of the 27,913 calls on the learned crawl), and paid
/// the edit's call, frame and scratch for nothing (issue 11, round 18).
#[inline(always)]
fn substitute(sub: &Subst, out: &mut String, at: &mut At) -> bool {
    match sub.find(&out.as_bytes()[at.path..]) {
        None => false,
        Some(x) => substitute_from(sub, out, at, at.path + x),
    }
}

/// [`substitute`] from `first`, where `from` first occurs in `path?query`.
#[inline(never)]
fn substitute_from(sub: &Subst, out: &mut String, at: &mut At, first: usize) -> bool {
    let (from, to) = (&*sub.from, &*sub.to);
    let (ps, end) = (at.path, out.len());
    // Where `from` occurs in the old text, left to right.
    // Four on the stack (zeroed each call: most URLs have one or none).
    let mut hits = [first, 0, 0, 0];
    let mut n = 1;
    let mut more = Vec::new();
    let mut i = first + from.len();
    while let Some(x) = sub.find(&out.as_bytes()[i..end]) {
        if n < hits.len() {
            hits[n] = i + x;
            n += 1;
        } else {
            more.push(i + x);
        }
        i += x + from.len();
    }
    // Replaced in place from the right (the offsets to the left stay).
    for &h in hits[..n].iter().chain(more.iter()).rev() {
        out.replace_range(h..h + from.len(), to);
    }
    let q = memchr::memchr(b'?', &out.as_bytes()[ps..]);
    let path = &out[ps..q.map_or(out.len(), |q| ps + q)];
    if !path.starts_with('/') || has_dot_segment(path) {
        // Undone: the k-th occurrence from the left now starts k times the
        // change in length further.
        let d = to.len() as isize - from.len() as isize;
        for k in (0..n + more.len()).rev() {
            let h = if k < n { hits[k] } else { more[k - n] };
            let at = (h as isize + k as isize * d) as usize;
            out.replace_range(at..at + to.len(), from);
        }
        return false;
    }
    at.query = q.map(|q| ps + q);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain host: neither `remove-trailing-host-dot` (a final `.`) nor
    /// `decode-ipv4-forms` (an IPv4 address in some form starts with a
    /// digit, RFC 3986 §7.4) can fire on it; an empty host is not plain.
    #[test]
    fn plain_hosts() {
        for h in [
            "a.test",
            "www.example.com",
            "x",
            "a1.test",
            "xn--bcher-kva.example",
        ] {
            assert!(plain_host(h.as_bytes()), "{h}");
        }
        for h in [
            "",
            "a.test.",
            ".",
            "10.0.0.1",
            "0x7f.1",
            "1drv.ms",
            "2130706433",
        ] {
            assert!(!plain_host(h.as_bytes()), "{h}");
        }
    }

    /// Every length around the word boundaries, hosts that differ in one
    /// byte anywhere (the overlapping last word, the tail): found exactly
    /// when present.
    #[test]
    fn host_table_finds_exactly_its_hosts() {
        let base = "abcdefghijklmnopqrstuvwxyz0123456789.example";
        let names: Vec<Box<str>> = (0..=base.len())
            .filter(|n| n % 3 != 1)
            .map(|n| base[..n].into())
            .collect();
        let t = HostTable::new(names.clone());
        for n in 0..=base.len() {
            let h = &base.as_bytes()[..n];
            let want = names.iter().position(|x| x.as_bytes() == h);
            assert_eq!(t.get(h), want.map(|i| i as u32), "{n}");
            // One byte changed at each place: never found.
            for i in 0..n {
                let mut v = h.to_vec();
                v[i] ^= 0x20;
                assert_eq!(t.get(&v), None, "{n} {i}");
            }
        }
        assert!(!same_bytes(b"abcdefghi", b"abcdefghj"));
        assert!(same_bytes(b"abcdefghi", b"abcdefghi"));
        assert!(!same_bytes(b"abc", b"abcd"));
        assert_eq!(last_word(b"ab"), 0x6261);
        assert_eq!(last_word(b"abcde"), 0x6564_6362_6463_6261);
    }

    /// The search over the buffer's last 32 bytes finds what the walk
    /// finds: `from`s of one to 33 bytes (one distinct byte, anchors at
    /// either end, a `?`), at every place of buffers of 32 to 40 bytes,
    /// the text from every `lo` of the last 32 bytes (a `from` before `lo`
    /// or running past the end is no match), with decoys that hold one
    /// anchor only and overlapping occurrences.
    #[test]
    fn tail_search_finds_the_first_occurrence() {
        let froms = [
            "x",
            "/old/",
            "aa",
            "d?q",
            "qx",
            "zq/",
            "lxl",
            "/",
            "?id=",
            "abcdefghijklmnopqrstuvwxyz012345",
            "abcdefghijklmnopqrstuvwxyz0123456",
        ];
        for from in froms {
            let sub = Subst::new(from, "-");
            for len in 32..=40usize {
                for place in 0..len {
                    // Decoys: `from`'s bytes one by one, out of place.
                    let mut b: Vec<u8> = (0..len)
                        .map(|i| from.as_bytes()[(i * 7) % from.len()] ^ u8::from(i % 3 == 0))
                        .collect();
                    for (i, &c) in from.as_bytes().iter().enumerate() {
                        if place + i < len {
                            b[place + i] = c;
                        }
                    }
                    let t = irinorm_simd::Tail32::of(&b).expect("32 bytes");
                    for lo in len - 32..len {
                        let want = sub.find(&b[lo..]).map(|x| lo + x);
                        let got = sub.find_in_tail(&t, &b, lo);
                        assert_eq!(got, want, "{from:?} {len} {place} {lo}");
                    }
                }
            }
        }
    }

    /// A host's key holds every byte of a host of at most 24 bytes (one
    /// byte changed anywhere changes it), and past 24 bytes misses only
    /// the middle, which the table's name then decides.
    #[test]
    fn host_keys_hold_every_byte_up_to_24() {
        let base = b"abcdefghijklmnopqrstuvwxyz0123456789";
        for n in 0..=base.len() {
            let h = &base[..n];
            let k = HostKey::of(h);
            assert_eq!(k.whole(), n <= 24, "{n}");
            for i in 0..n {
                let mut v = h.to_vec();
                v[i] ^= 0x20;
                let seen = n <= 24 || i < 16 || i >= n - 8;
                assert_eq!(HostKey::of(&v) != k, seen, "{n} {i}");
            }
        }
    }

    /// `At::of_meta` gives `At::of`'s offsets from the ladder's `Meta`
    /// (no scheme, no host, a relative or empty path: `None`), and after
    /// a cut of the query's end, the fragment or the whole query, the
    /// offsets of the cut text, as `At::of` on it found again.
    #[test]
    fn at_of_meta_equals_at_of() {
        let urls = [
            "http://a.test/p",
            "http://a.test/p?q=1&r=2",
            "http://a.test/p?",
            "http://u@a.test:8080/p/q?x",
            "http://a.test:/p",
            "https://[::1]:443/",
            "mailto:x@y",
            "//a.test/p?q",
            "/p?q",
            "foo://a.test",
            "foo://a.test?q",
        ];
        for url in urls {
            let m = irinorm::split_trusted(url);
            let want = At::of(url, 0, &m.offsets());
            let got = At::of_meta(url, 0, &m);
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{url}");
            // The same text after a prefix in the buffer.
            let buf = format!("xyz{url}");
            let got = At::of_meta(&buf, 3, &m);
            let want = At::of(&buf, 3, &m.offsets());
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{url}");
        }
        // Cuts after the path (the query filter's): `m` still describes
        // the text before them.
        for (url, cut) in [
            ("http://a.test/p?q=1&r=2#f", "http://a.test/p?q=1"),
            ("http://a.test/p?q=1#f", "http://a.test/p?q=1"),
            ("http://a.test/p?q=1", "http://a.test/p"),
            ("http://a.test:81/p?utm=1#f", "http://a.test:81/p"),
        ] {
            let m = irinorm::split_trusted(url);
            let got = At::of_meta(cut, 0, &m);
            let want = At::of(cut, 0, &irinorm::split_trusted(cut).offsets());
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{url} -> {cut}");
        }
    }

    /// `substitute` (its first search inline, the edit apart: round 18):
    /// every occurrence replaced left to right, not overlapping, past the
    /// four hits kept on the stack; nothing when `from` is absent; undone
    /// when the new path would have a dot segment (RFC 3986 §5.2.4); the
    /// `?` moved to where the new path ends.
    #[test]
    fn substitute_every_occurrence_or_none() {
        let run = |url: &str, from: &str, to: &str| {
            let o = irinorm::split_trusted(url).offsets();
            let mut at = At::of(url, 0, &o).expect("absolute");
            let mut out = url.to_owned();
            let fired = substitute(&Subst::new(from, to), &mut out, &mut at);
            (fired, out, at.query)
        };
        let url = "http://a.test/p/q";
        assert_eq!(run(url, "/x", "/y"), (false, url.to_owned(), None));
        assert_eq!(
            run("http://a.test/xx/p?xx=1", "xx", "y"),
            (true, "http://a.test/y/p?y=1".to_owned(), Some(17))
        );
        // Not overlapping: `aaa` is one hit and a rest.
        assert_eq!(
            run("http://a.test/aaa-aa", "aa", "b"),
            (true, "http://a.test/ba-b".to_owned(), None)
        );
        // Eight hits: four on the stack, four in `more`.
        assert_eq!(
            run("http://a.test/a-a-a-a-a-aaa", "a", "bc"),
            (true, "http://a.test/bc-bc-bc-bc-bc-bcbcbc".to_owned(), None)
        );
        // `_` to `.` would make `/.` segments: undone, every hit.
        let dots = "http://a.test/_/x_/_/_/_?q=_";
        assert_eq!(run(dots, "_", "."), (false, dots.to_owned(), Some(24)));
        // A substitution that spells the `?`: the query starts there.
        assert_eq!(
            run("http://a.test/p_id=1", "_", "?"),
            (true, "http://a.test/p?id=1".to_owned(), Some(15))
        );
    }

    /// `At::splice` gives `replace_range`'s text and moves the offsets
    /// after the edit, whether `with` extends the text (the insert) or
    /// not (`http` to `https`, `https` to `http`, a slash added at the
    /// path's end, a host replaced by a longer one that starts with it).
    #[test]
    fn splice_equals_replace_range() {
        let url = "http://ab.test:8080/p/q?x=1";
        let o = irinorm::split_trusted(url).offsets();
        let at0 = At::of(url, 0, &o).expect("absolute");
        let cases: [(usize, usize, &str); 7] = [
            (0, 4, "https"),
            (0, 4, "http"),
            (0, 4, "ftp"),
            (0, 4, ""),
            (at0.query.unwrap(), at0.query.unwrap(), "/"),
            (at0.host.0, at0.host.1, "ab.test.example"),
            (at0.host.0, at0.host.1, "ab"),
        ];
        for (a, b, with) in cases {
            let mut out = url.to_owned();
            let mut at = at0;
            at.splice(&mut out, a, b, with);
            let mut want = url.to_owned();
            want.replace_range(a..b, with);
            assert_eq!(out, want, "{a} {b} {with}");
            let d = with.len() as isize - (b - a) as isize;
            let mv = |x: usize| if x >= b { (x as isize + d) as usize } else { x };
            assert_eq!(at.path, mv(at0.path), "{with}");
            assert_eq!(at.query, at0.query.map(mv), "{with}");
            assert_eq!(at.port, at0.port.map(mv), "{with}");
            assert_eq!(at.host, (mv(at0.host.0), mv(at0.host.1)), "{with}");
        }
    }

    /// Which plans take the compiled first round: a host whose rules hold
    /// on every path, one of each kind but substitutions and indexes (a
    /// learned file's hosts); not one with a path prefix, a kind twice, or
    /// a host alias alone (that plan splices without a round).
    #[test]
    fn first_round_compiled_for_plans_on_every_path() {
        let rule = |host: &str, path: &str, kind: HostRuleKind| HostRule::learned(host, path, kind);
        let subst = |f: &str, t: &str| HostRuleKind::Substitute {
            from: f.into(),
            to: t.into(),
        };
        let ignore = |n: &str| HostRuleKind::IgnoreParam { name: n.into() };
        let rules = vec![
            rule("www.a", "/", HostRuleKind::AliasHost { to: "a".into() }),
            rule("a", "/", HostRuleKind::AliasScheme { to: "https".into() }),
            rule("a", "/", ignore("sid")),
            rule("a", "/", subst("/x_", "/x?id=")),
            rule("a", "/", subst("bb", "b")),
            rule("a", "/", HostRuleKind::LowercasePath),
            rule("a", "/", HostRuleKind::RemoveTrailingSlash),
            rule("p", "/", ignore("sid")),
            rule("p", "/d/", HostRuleKind::LowercasePath),
            rule("t", "/", HostRuleKind::RemoveTrailingSlash),
            rule("t", "/", HostRuleKind::RemoveTrailingSlash),
        ];
        let plans = Plans::new(&rules, &Default::default()).expect("no *.suffix host");
        let compiled = |h: &str| {
            let p = plans.lookup(h.as_bytes()).expect("a host with rules");
            plans.plans[p as usize].round1.is_some()
        };
        assert!(compiled("a"));
        assert!(!compiled("www.a"), "an alias alone splices");
        assert!(!compiled("p"), "a path prefix");
        assert!(!compiled("t"), "a kind twice");
    }

    /// The compiled first round holds plans of at most 16 steps (its wake
    /// table is held in the plan at that size, round 17): a host of 16
    /// substitutions takes it, one of 17 the step loop.
    #[test]
    fn first_round_compiled_up_to_16_steps() {
        let rules: Vec<HostRule> = (0..17)
            .map(|i| {
                let host = if i < 16 { "a" } else { "b" };
                let from = format!("/x{i}_");
                (host, from)
            })
            .chain((0..16).map(|i| ("b", format!("/y{i}_"))))
            .map(|(h, from)| {
                let kind = HostRuleKind::Substitute {
                    from: from.clone(),
                    to: "/".into(),
                };
                HostRule::learned(h, "/", kind)
            })
            .collect();
        let plans = Plans::new(&rules, &Default::default()).expect("no *.suffix host");
        let steps = |h: &str| {
            let p = plans.lookup(h.as_bytes()).expect("a host with rules") as usize;
            (plans.plans[p].steps.len(), plans.plans[p].round1.is_some())
        };
        assert_eq!(steps("a"), (16, true));
        assert_eq!(steps("b"), (17, false));
    }

    /// A run's bits give [`Ran`]: a rule fired when any bit is set, the
    /// host changed when the host was written.
    #[test]
    fn ran_of_its_bits() {
        assert_eq!(Ran::of(0), Ran::default());
        assert!(!Ran::of(0).any());
        let r = Ran::of(HOST | QUERY | SPELLED);
        assert!(r.any() && r.host() && r.spelled());
        assert_eq!(r.wrote(), HOST | QUERY);
        let r = Ran::of(PATH);
        assert!(r.any() && !r.host() && !r.spelled());
        assert_eq!(r.wrote(), PATH);
    }

    /// The recent hosts are a guess checked against the table asked: two
    /// tables on one thread, whose plan indexes mean other hosts, looked
    /// up in turn (each lookup leaves the other table's index as the most
    /// recent), answer as the probe alone does.
    #[test]
    fn recent_hosts_never_answer_for_another_table() {
        let a = HostTable::new(vec!["a.test".into(), "b.test".into(), "c.test".into()]);
        let b = HostTable::new(vec!["c.test".into(), "a.test".into()]);
        let hosts = ["a.test", "b.test", "c.test", "d.test", "a.tesu", ""];
        for _ in 0..3 {
            for h in hosts.iter().chain(hosts.iter().rev()) {
                for t in [&a, &b] {
                    assert_eq!(t.get(h.as_bytes()), t.probe(h.as_bytes()), "{h}");
                }
            }
        }
        assert_eq!(a.get(b"c.test"), Some(2));
        assert_eq!(b.get(b"c.test"), Some(0));
        assert_eq!(b.get(b"b.test"), None);
    }
}
