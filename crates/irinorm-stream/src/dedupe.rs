//! Deduplication by key. Workers compute keys (the expensive part: a
//! normalization) in parallel, and insert them, in parallel too, into the
//! table of keys (`KeyStore`), which is split into [`SHARDS`] shards by
//! hash, each behind its own lock. Each entry keeps the earliest position
//! (chunk number, key number) it was seen at. A worker that inserts a key
//! claims the first occurrence for its position when the key is new, or
//! when the entry only knew a later position (a later chunk that another
//! worker inserted first): it then takes the position over and *revokes*
//! the later chunk's claim. The writer sees chunks in input order; when it
//! reaches chunk `n`, every chunk before it has been inserted and has sent
//! its revocations, so a claim of chunk `n` that stands is the first
//! occurrence of its key in the input: "first occurrence" means what it
//! says, and the output is the same whatever the threads. The writer only
//! reads flags (issue 14: it used to insert every new key itself, in
//! order, and was the bound on inputs of mostly new keys).
//!
//! Memory depends on the distinct keys only: nothing is sized from the
//! input, the number of shards is fixed (not the thread count), and a
//! shard's table rehashes from the 32-bit tag kept in each entry
//! (`spread`), so growing by doubling is cheap.
//!
//! Keys are kept as text (exact) or, with [`DedupeConfig::hash_keys`], as
//! 128-bit XXH3 digests: 16 bytes a key whatever its length. Two distinct
//! keys collide with probability 2^-128; among `n` distinct keys the
//! probability that any two collide is about `n² / 2^129` (birthday bound):
//! 1.5e-21 for a billion keys. A collision would merge two groups
//! silently, so exact keys are the default.

use std::collections::HashMap;
use std::io;
use std::ops::Range;
use std::sync::{Arc, Mutex, MutexGuard};

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;
use xxhash_rust::xxh3::{xxh3_128, xxh3_64};

use crate::op::{Format, JsonObject};
use crate::output::Sink;

/// What dedupe writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DedupeMode {
    /// The first line (record) of each key, in input order.
    #[default]
    KeepFirst,
    /// The last line (record) of each key, in the order of those last
    /// occurrences.
    KeepLast,
    /// Each key and its number of occurrences (`key<TAB>count`), in order of
    /// first appearance.
    Count,
    /// Each key, then its distinct members, one a line indented by a tab
    /// (the alias clusters), in order of first appearance.
    Groups,
    /// Each key once, in order of first appearance.
    KeyOnly,
}

/// Dedupe options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DedupeConfig {
    /// What to write.
    pub mode: DedupeMode,
    /// Keep 128-bit digests of the keys instead of the keys.
    pub hash_keys: bool,
}

impl DedupeConfig {
    /// Whether workers must send the identifiers (not only raw records).
    pub(crate) fn needs_ident(&self, format: Format) -> bool {
        self.mode == DedupeMode::Groups
            || (format == Format::Jsonl
                && matches!(self.mode, DedupeMode::KeepFirst | DedupeMode::KeepLast))
    }
}

/// The keys of one chunk, computed by a worker.
#[derive(Debug, Default)]
pub(crate) struct KeyBatch {
    pub(crate) text: Vec<u8>,
    pub(crate) keys: Vec<Range<usize>>,
    /// The 32-bit tag of each key ([`tag_of`]; exact keys).
    pub(crate) tags: Vec<u32>,
    /// XXH3-128 of each key (digests).
    pub(crate) digests: Vec<u128>,
    /// The shard of each key ([`KeyStore`]).
    shards: Vec<u8>,
    /// After [`KeyBatch::insert`]: the id of each key ([`gid`]).
    ids: Vec<u32>,
    /// After [`KeyBatch::insert`]: whether the key claimed its first
    /// occurrence (a claim the writer may find revoked by an earlier
    /// chunk).
    claims: Vec<bool>,
    /// Positions of other (later) chunks whose claims this chunk took
    /// over ([`position`]).
    revokes: Vec<u64>,
    /// The key numbers sorted by shard (scratch).
    order: Vec<u32>,
    /// The original line or record of each key, in the chunk's data.
    pub(crate) spans: Vec<Range<usize>>,
    /// The identifier of each key (only when needed).
    pub(crate) idents: Vec<u8>,
    pub(crate) ident_ranges: Vec<Range<usize>>,
}

/// Shards of the key table. Fixed, never the thread count, so that the
/// memory is the same whatever the threads; enough that two to a few
/// dozen workers rarely wait on the same lock, few enough that a small
/// input costs nothing (an empty shard holds no allocation).
const SHARD_BITS: u32 = 6;
const SHARDS: usize = 1 << SHARD_BITS;

/// A key's id: its number in its shard, and its shard in the low bits.
fn gid(shard: usize, local: u32) -> u32 {
    (local << SHARD_BITS) | shard as u32
}

/// Largest number of keys in one shard (ids are 32-bit).
const SHARD_MAX: usize = (u32::MAX >> SHARD_BITS) as usize;

/// The position of a key in the input: its chunk's number and its number
/// in the chunk, which order keys as the input does.
fn position(seq: u64, i: usize) -> Option<u64> {
    if seq < 1 << 32 && i < 1 << 32 {
        Some((seq << 32) | i as u64)
    } else {
        None
    }
}

impl KeyBatch {
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.keys.clear();
        self.tags.clear();
        self.digests.clear();
        self.shards.clear();
        self.ids.clear();
        self.claims.clear();
        self.revokes.clear();
        self.spans.clear();
        self.idents.clear();
        self.ident_ranges.clear();
    }

    pub(crate) fn push(
        &mut self,
        cfg: &DedupeConfig,
        key: &str,
        span: Range<usize>,
        ident: Option<&str>,
    ) {
        let k = key.as_bytes();
        let start = self.text.len();
        self.text.extend_from_slice(k);
        self.keys.push(start..self.text.len());
        // The shard from the low bits of the hash; the tag (and so the
        // table's hash, `spread`) from the high bits: independent.
        if cfg.hash_keys {
            let d = xxh3_128(k);
            self.digests.push(d);
            self.shards.push(d as u8 & (SHARDS - 1) as u8);
        } else {
            let h = xxh3_64(k);
            self.tags.push(tag_of(h));
            self.shards.push(h as u8 & (SHARDS - 1) as u8);
        }
        self.spans.push(span);
        if let Some(i) = ident {
            let s = self.idents.len();
            self.idents.extend_from_slice(i.as_bytes());
            self.ident_ranges.push(s..self.idents.len());
        }
    }

    fn key(&self, i: usize) -> &[u8] {
        &self.text[self.keys[i].clone()]
    }

    fn probe(&self, i: usize) -> Probe<'_> {
        match self.digests.get(i) {
            Some(&d) => Probe::Digest(d),
            None => Probe::Text(self.tags[i], self.key(i)),
        }
    }

    /// Inserts every key of chunk `seq` into the table (run by the worker,
    /// in parallel with the others), shard by shard (one hold of a shard's
    /// lock for all the chunk's keys in it), in key order within a shard:
    /// sets [`KeyBatch::ids`], the claims and the revocations.
    pub(crate) fn insert(&mut self, store: &KeyStore, seq: u64) -> io::Result<()> {
        let n = self.keys.len();
        if n == 0 {
            return Ok(());
        }
        position(seq, n - 1).ok_or_else(too_many)?;
        // Key numbers by shard, in key order within each (counting sort).
        let mut starts = [0u32; SHARDS + 1];
        for &s in &self.shards {
            starts[s as usize + 1] += 1;
        }
        for s in 0..SHARDS {
            starts[s + 1] += starts[s];
        }
        let mut next = starts;
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.resize(n, 0);
        for (i, &s) in self.shards.iter().enumerate() {
            order[next[s as usize] as usize] = i as u32;
            next[s as usize] += 1;
        }
        self.ids.clear();
        self.ids.resize(n, 0);
        self.claims.clear();
        self.claims.resize(n, false);
        self.revokes.clear();
        let mut r = Ok(());
        for s in 0..SHARDS {
            let group = &order[starts[s] as usize..starts[s + 1] as usize];
            if group.is_empty() {
                continue;
            }
            let mut shard = store.lock(s);
            for &i in group {
                let i = i as usize;
                let pos = (seq << 32) | i as u64;
                match shard.insert(self.probe(i), self.key(i), pos, store.keep_text) {
                    Ok((local, claim, revoked)) => {
                        self.ids[i] = gid(s, local);
                        self.claims[i] = claim;
                        self.revokes.extend(revoked);
                    }
                    Err(e) => {
                        r = Err(e);
                        break;
                    }
                }
            }
            if r.is_err() {
                break;
            }
        }
        self.order = order;
        r
    }
}

/// What a key is looked up by.
#[derive(Clone, Copy)]
enum Probe<'a> {
    /// Exact keys: the tag and the text.
    Text(u32, &'a [u8]),
    /// `--hash-keys`: the 128-bit digest.
    Digest(u128),
}

impl Probe<'_> {
    fn tag(self) -> u32 {
        match self {
            Probe::Text(tag, _) => tag,
            Probe::Digest(d) => (d >> 96) as u32,
        }
    }
}

/// The text of key `id`: it ends at `ends[id]` and starts where the one
/// before ends.
fn text_of<'a>(ends: &[u64], arena: &'a [u8], id: usize) -> &'a [u8] {
    let start = if id == 0 { 0 } else { ends[id - 1] };
    &arena[start as usize..ends[id] as usize]
}

/// Whether a table entry is the probed key: its tag first (no memory
/// touched), then its digest or text.
fn matcher<'a>(
    p: Probe<'a>,
    digests: &'a [u128],
    ends: &'a [u64],
    arena: &'a [u8],
) -> impl Fn(&(u32, u32)) -> bool + 'a {
    let tag = p.tag();
    move |&(id, t)| {
        t == tag
            && match p {
                Probe::Digest(d) => digests[id as usize] == d,
                Probe::Text(_, key) => text_of(ends, arena, id as usize) == key,
            }
    }
}

/// The 32-bit tag of a key: the high half of its XXH3-64.
fn tag_of(h: u64) -> u32 {
    (h >> 32) as u32
}

/// The table's hash of an entry, made from its 32-bit tag alone: the table
/// grows (rehashes) without touching the keys or an array of hashes (a
/// cache miss per key). hashbrown takes the bucket from the low bits and
/// the 7-bit control byte from the top bits: both halves are the tag, so
/// they are independent up to 2^25 buckets, and past that the tag check
/// still rejects nearly every false candidate before the key is compared.
fn spread(tag: u32) -> u64 {
    (u64::from(tag) << 32) | u64::from(tag)
}

/// The keys seen so far, in [`SHARDS`] shards by hash, each behind its own
/// lock: filled by the workers ([`KeyBatch::insert`]), in parallel, and
/// read by the writer at the end (the key text of `--count` and
/// `--groups`). Its size depends only on the distinct keys: nothing is
/// reserved from the input size.
#[derive(Debug)]
pub(crate) struct KeyStore {
    /// Whether the key text is kept (exact keys; with digests only when the
    /// mode prints keys at the end).
    keep_text: bool,
    shards: Box<[Mutex<Shard>]>,
}

/// One shard of the table.
#[derive(Debug, Default)]
struct Shard {
    /// Key numbers (in the shard), each with its tag: a candidate whose
    /// tag differs is rejected without touching the key text (a cache
    /// miss per probe on a table of millions of keys).
    table: HashTable<(u32, u32)>,
    /// Digests: number -> digest.
    digests: Vec<u128>,
    /// Where each key's text ends in `arena` (it starts where the one
    /// before ends).
    ends: Vec<u64>,
    arena: Vec<u8>,
    /// The earliest position ([`position`]) each key was inserted at so
    /// far.
    first: Vec<u64>,
}

impl Shard {
    fn len(&self) -> usize {
        self.first.len()
    }

    fn text(&self, local: usize) -> &[u8] {
        text_of(&self.ends, &self.arena, local)
    }

    /// Looks a key up; inserts it when new (one probe for both). Returns
    /// its number, whether `pos` claims its first occurrence (new, or
    /// earlier than the position known), and the position it took over.
    fn insert(
        &mut self,
        p: Probe<'_>,
        key: &[u8],
        pos: u64,
        keep_text: bool,
    ) -> io::Result<(u32, bool, Option<u64>)> {
        let tag = p.tag();
        let next = self.len();
        let Shard {
            table,
            digests,
            ends,
            arena,
            first,
        } = self;
        let eq = matcher(p, digests, ends, arena);
        match table.entry(spread(tag), eq, |&(_, t)| spread(t)) {
            Entry::Occupied(e) => {
                let local = e.get().0;
                let known = &mut first[local as usize];
                if *known > pos {
                    let revoked = std::mem::replace(known, pos);
                    return Ok((local, true, Some(revoked)));
                }
                return Ok((local, false, None));
            }
            Entry::Vacant(v) => {
                if next >= SHARD_MAX {
                    return Err(too_many());
                }
                v.insert((next as u32, tag));
            }
        }
        first.push(pos);
        if let Probe::Digest(d) = p {
            digests.push(d);
        }
        if keep_text {
            arena.extend_from_slice(key);
            ends.push(arena.len() as u64);
        }
        Ok((next as u32, true, None))
    }

    /// Bytes in use: hashbrown writes one control byte per bucket and holds
    /// an entry per bucket; the arrays count their length (growth slack of
    /// up to 2x is not counted; untouched capacity is not resident).
    fn memory(&self) -> u64 {
        let buckets = if self.table.capacity() == 0 {
            0
        } else {
            (self.table.capacity() as u64 * 8 / 7).next_power_of_two()
        };
        buckets * (1 + std::mem::size_of::<(u32, u32)>() as u64)
            + std::mem::size_of_val(&self.digests[..]) as u64
            + std::mem::size_of_val(&self.ends[..]) as u64
            + std::mem::size_of_val(&self.first[..]) as u64
            + self.arena.len() as u64
    }
}

impl KeyStore {
    pub(crate) fn new(cfg: DedupeConfig) -> Self {
        KeyStore {
            keep_text: !cfg.hash_keys
                || matches!(
                    cfg.mode,
                    DedupeMode::Count | DedupeMode::Groups | DedupeMode::KeepLast
                ),
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
        }
    }

    /// Shard `s`, locked (a panic elsewhere fails the run anyway: the data
    /// stays usable).
    fn lock(&self, s: usize) -> MutexGuard<'_, Shard> {
        self.shards[s].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Every shard, locked (the end of a run).
    fn lock_all(&self) -> Vec<MutexGuard<'_, Shard>> {
        (0..SHARDS).map(|s| self.lock(s)).collect()
    }

    fn memory(&self) -> u64 {
        self.lock_all().iter().map(|s| s.memory()).sum()
    }
}

/// The text of key `id` ([`gid`]) in the locked shards.
fn text_by_id<'a>(shards: &'a [MutexGuard<'_, Shard>], id: usize) -> &'a [u8] {
    shards[id & (SHARDS - 1)].text(id >> SHARD_BITS)
}

/// What the writer keeps about each key, besides the shared [`KeyStore`].
/// Arrays by key are indexed by the key's id ([`gid`]): ids are not
/// dense (each shard numbers its keys), so they hold a little more than
/// one entry per key, as many as the largest id, which depends on the
/// distinct keys only.
pub(crate) struct Dedupe {
    cfg: DedupeConfig,
    format: Format,
    store: Arc<KeyStore>,
    /// Whether each key of the current chunk is a first occurrence.
    new: Vec<bool>,
    /// Claims revoked, by chunk: the key numbers in that chunk.
    revoked: HashMap<u64, Vec<u32>>,
    /// Count, Groups: the ids in order of first appearance.
    order: Vec<u32>,
    counts: Vec<u64>,
    /// KeepLast: the last record of each key and its position
    /// ([`UNUSED`] for an id without a key).
    last: Vec<(u64, Box<[u8]>, Box<str>)>,
    /// Groups: distinct members, as ids into `members`.
    members: Vec<(u64, u32)>,
    member_arena: Vec<u8>,
    member_hashes: Vec<u64>,
    member_table: HashTable<u32>,
    group_members: Vec<Vec<u32>>,
    position: u64,
    pub(crate) unique: u64,
    pub(crate) duplicates: u64,
}

/// KeepLast: the position of an id that no key has.
const UNUSED: u64 = u64::MAX;

fn too_many() -> io::Error {
    io::Error::other("too many distinct keys or members (about 4 billion), or chunks (4 billion)")
}

/// Makes `v` long enough to index `id`.
fn room_for<T: Clone>(v: &mut Vec<T>, id: usize, fill: T) {
    if v.len() <= id {
        v.resize(id + 1, fill);
    }
}

impl Dedupe {
    /// The writer's side of a dedupe over `store` (which the workers
    /// share). Nothing is sized from the input: memory grows with the
    /// distinct keys only (a table of ids and tags, the key text or
    /// digests), and growing costs no pass over the keys ([`spread`]).
    pub(crate) fn new(cfg: DedupeConfig, format: Format, store: Arc<KeyStore>) -> Self {
        Dedupe {
            cfg,
            format,
            store,
            new: Vec::new(),
            revoked: HashMap::new(),
            order: Vec::new(),
            counts: Vec::new(),
            last: Vec::new(),
            members: Vec::new(),
            member_arena: Vec::new(),
            member_hashes: Vec::new(),
            member_table: HashTable::new(),
            group_members: Vec::new(),
            position: 0,
            unique: 0,
            duplicates: 0,
        }
    }

    fn add_member(&mut self, group: usize, m: &[u8]) -> io::Result<()> {
        let h = xxh3_64(m);
        let (members, arena) = (&self.members, &self.member_arena);
        let eq = |&id: &u32| {
            let (off, len) = members[id as usize];
            &arena[off as usize..off as usize + len as usize] == m
        };
        if self.member_table.find(h, eq).is_some() {
            return Ok(());
        }
        let id = u32::try_from(self.members.len()).map_err(|_| too_many())?;
        self.members
            .push((self.member_arena.len() as u64, m.len() as u32));
        self.member_arena.extend_from_slice(m);
        self.member_hashes.push(h);
        let hashes = &self.member_hashes;
        self.member_table
            .insert_unique(h, id, |&x| hashes[x as usize]);
        self.group_members[group].push(id);
        Ok(())
    }

    /// Whether every key of chunk `seq` is a first occurrence: its claim,
    /// unless an earlier chunk revoked it. Every chunk before this one has
    /// been through here, so every revocation of this chunk is known (only
    /// earlier chunks revoke).
    fn resolve(&mut self, seq: u64, b: &KeyBatch) {
        for &p in &b.revokes {
            self.revoked.entry(p >> 32).or_default().push(p as u32);
        }
        self.new.clear();
        self.new.extend_from_slice(&b.claims);
        if let Some(lost) = self.revoked.remove(&seq) {
            for i in lost {
                self.new[i as usize] = false;
            }
        }
    }

    /// Processes the keys of chunk `seq`, in order; writes what streams.
    pub(crate) fn chunk(
        &mut self,
        seq: u64,
        data: &[u8],
        b: &KeyBatch,
        sink: &mut Sink,
        buf: &mut Vec<u8>,
    ) -> io::Result<u64> {
        buf.clear();
        let mut written = 0;
        self.resolve(seq, b);
        for i in 0..b.keys.len() {
            let (id, new) = (b.ids[i] as usize, self.new[i]);
            self.position += 1;
            if new {
                self.unique += 1;
            } else {
                self.duplicates += 1;
            }
            let key = &b.text[b.keys[i].clone()];
            let ident = b.ident_ranges.get(i).map(|r| &b.idents[r.clone()]);
            match self.cfg.mode {
                DedupeMode::KeepFirst if new => {
                    let raw = &data[b.spans[i].clone()];
                    self.write_kept(buf, raw, key, ident);
                    written += 1;
                }
                DedupeMode::KeyOnly if new => {
                    write_key_line(buf, self.format, key);
                    written += 1;
                }
                DedupeMode::KeepFirst | DedupeMode::KeyOnly => {}
                DedupeMode::Count => {
                    if new {
                        self.order.push(id as u32);
                    }
                    room_for(&mut self.counts, id, 0);
                    self.counts[id] += 1;
                }
                DedupeMode::KeepLast => {
                    let raw: Box<[u8]> = data[b.spans[i].clone()].into();
                    let ident: Box<str> = String::from_utf8_lossy(ident.unwrap_or_default()).into();
                    room_for(&mut self.last, id, (UNUSED, Box::default(), Box::default()));
                    self.last[id] = (self.position, raw, ident);
                }
                DedupeMode::Groups => {
                    if new {
                        self.order.push(id as u32);
                    }
                    room_for(&mut self.counts, id, 0);
                    room_for(&mut self.group_members, id, Vec::new());
                    self.counts[id] += 1;
                    self.add_member(id, ident.unwrap_or_default())?;
                }
            }
        }
        sink.write_all(buf)?;
        Ok(written)
    }

    fn write_kept(&self, buf: &mut Vec<u8>, raw: &[u8], key: &[u8], ident: Option<&[u8]>) {
        match self.format {
            Format::Text => {
                buf.extend_from_slice(raw);
                buf.push(b'\n');
            }
            Format::Jsonl => {
                let mut o = JsonObject::begin(buf);
                o.str("input", &String::from_utf8_lossy(ident.unwrap_or(raw)));
                o.str("key", &String::from_utf8_lossy(key));
                o.end();
            }
        }
    }

    /// Writes what the mode keeps until the end; returns the entries written.
    pub(crate) fn finish(&mut self, sink: &mut Sink) -> io::Result<u64> {
        let mut buf = Vec::with_capacity(1 << 16);
        let mut written = 0;
        let store = self.store.clone();
        let shards = store.lock_all();
        let flush = |buf: &mut Vec<u8>, sink: &mut Sink| -> io::Result<()> {
            if buf.len() >= 1 << 16 {
                sink.write_all(buf)?;
                buf.clear();
            }
            Ok(())
        };
        match self.cfg.mode {
            DedupeMode::KeepFirst | DedupeMode::KeyOnly => {}
            DedupeMode::Count => {
                for &id in &self.order {
                    let id = id as usize;
                    let key = text_by_id(&shards, id);
                    match self.format {
                        Format::Text => {
                            buf.extend_from_slice(key);
                            buf.push(b'\t');
                            buf.extend_from_slice(self.counts[id].to_string().as_bytes());
                            buf.push(b'\n');
                        }
                        Format::Jsonl => {
                            let mut o = JsonObject::begin(&mut buf);
                            o.str("key", &String::from_utf8_lossy(key));
                            o.u64("count", self.counts[id]);
                            o.end();
                        }
                    }
                    written += 1;
                    flush(&mut buf, sink)?;
                }
            }
            DedupeMode::KeepLast => {
                let mut order: Vec<usize> = (0..self.last.len())
                    .filter(|&id| self.last[id].0 != UNUSED)
                    .collect();
                order.sort_unstable_by_key(|&id| self.last[id].0);
                for id in order {
                    let (_, raw, ident) = &self.last[id];
                    let key = text_by_id(&shards, id);
                    let ident = (!ident.is_empty()).then_some(ident.as_bytes());
                    self.write_kept(&mut buf, raw, key, ident);
                    written += 1;
                    flush(&mut buf, sink)?;
                }
            }
            DedupeMode::Groups => {
                for &id in &self.order {
                    let id = id as usize;
                    let key = text_by_id(&shards, id);
                    let members = self.group_members[id].iter().map(|&m| {
                        let (off, len) = self.members[m as usize];
                        &self.member_arena[off as usize..off as usize + len as usize]
                    });
                    match self.format {
                        Format::Text => {
                            buf.extend_from_slice(key);
                            buf.push(b'\n');
                            for m in members {
                                buf.push(b'\t');
                                buf.extend_from_slice(m);
                                buf.push(b'\n');
                            }
                        }
                        Format::Jsonl => {
                            let ms: Vec<_> = members.map(String::from_utf8_lossy).collect();
                            let mut o = JsonObject::begin(&mut buf);
                            o.str("key", &String::from_utf8_lossy(key));
                            o.u64("count", self.counts[id]);
                            o.str_array("members", ms.iter().map(|s| s.as_ref()));
                            o.end();
                        }
                    }
                    written += 1;
                    flush(&mut buf, sink)?;
                }
            }
        }
        sink.write_all(&buf)?;
        Ok(written)
    }

    /// Estimated bytes in use by the table and what it keeps: what has
    /// been written (growth slack, never touched, is not resident, so it is
    /// not counted). It depends only on the distinct keys (and, for
    /// `--groups`, the distinct members; for `--keep last`, the last
    /// records), never on the input size.
    pub(crate) fn memory(&self) -> u64 {
        fn cap<T>(v: &[T]) -> u64 {
            std::mem::size_of_val(v) as u64
        }
        // hashbrown: one control byte per bucket (all of them are written),
        // and the entries in use.
        fn table<T>(t: &HashTable<T>) -> u64 {
            t.capacity() as u64 * 8 / 7 + t.len() as u64 * std::mem::size_of::<T>() as u64
        }
        let last: u64 = self
            .last
            .iter()
            .map(|(_, r, i)| (r.len() + i.len()) as u64)
            .sum();
        let groups: u64 = self
            .group_members
            .iter()
            .map(|g| cap(g) + std::mem::size_of::<Vec<u32>>() as u64)
            .sum();
        self.store.memory()
            + cap(&self.order)
            + cap(&self.counts)
            + cap(&self.last)
            + last
            + cap(&self.members)
            + cap(&self.member_arena)
            + cap(&self.member_hashes)
            + table(&self.member_table)
            + groups
    }
}

fn write_key_line(buf: &mut Vec<u8>, format: Format, key: &[u8]) {
    match format {
        Format::Text => {
            buf.extend_from_slice(key);
            buf.push(b'\n');
        }
        Format::Jsonl => {
            let mut o = JsonObject::begin(buf);
            o.str("key", &String::from_utf8_lossy(key));
            o.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk's batch of keys.
    fn batch(cfg: &DedupeConfig, keys: &[&str]) -> KeyBatch {
        let mut b = KeyBatch::default();
        for (i, k) in keys.iter().enumerate() {
            b.push(cfg, k, i..i + 1, None);
        }
        b
    }

    /// Every order in which workers may insert three chunks.
    const ORDERS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];

    #[test]
    fn first_occurrences_whatever_order_the_chunks_are_inserted_in() {
        // Chunks 0, 1, 2 in input order; a key's first occurrence is
        // decided by the input order, not by which worker inserted first:
        // a later chunk inserted first claims, and an earlier one revokes.
        let chunks: [&[&str]; 3] = [&["a", "b"], &["b", "c", "a", "c"], &["c", "d", "d", "e"]];
        let expect: [&[bool]; 3] = [
            &[true, true],
            &[false, true, false, false],
            &[false, true, false, true],
        ];
        for hash_keys in [false, true] {
            let cfg = DedupeConfig {
                mode: DedupeMode::Count,
                hash_keys,
            };
            let mut memory = None;
            for order in ORDERS {
                let store = Arc::new(KeyStore::new(cfg));
                let mut batches: Vec<KeyBatch> = chunks.iter().map(|c| batch(&cfg, c)).collect();
                for &c in &order {
                    batches[c].insert(&store, c as u64).unwrap();
                }
                let mut d = Dedupe::new(cfg, Format::Text, store.clone());
                let mut ids: HashMap<&str, u32> = HashMap::new();
                for (c, b) in batches.iter().enumerate() {
                    d.resolve(c as u64, b);
                    assert_eq!(d.new, expect[c], "chunk {c}, inserted in order {order:?}");
                    for (i, k) in chunks[c].iter().enumerate() {
                        // One id per key, whichever chunk inserted it.
                        assert_eq!(*ids.entry(k).or_insert(b.ids[i]), b.ids[i], "{k}");
                    }
                }
                assert!(d.revoked.is_empty(), "every revocation was delivered");
                // The same keys, the same memory, whatever the order.
                let m = store.memory();
                assert_eq!(*memory.get_or_insert(m), m, "{order:?}");
                let shards = store.lock_all();
                for (k, &id) in &ids {
                    if !hash_keys {
                        assert_eq!(text_by_id(&shards, id as usize), k.as_bytes());
                    }
                }
            }
        }
    }

    #[test]
    fn positions_order_chunks_then_keys() {
        assert!(position(0, 5).unwrap() < position(1, 0).unwrap());
        assert!(position(3, 7).unwrap() < position(3, 8).unwrap());
        assert_eq!(position(1 << 32, 0), None);
        assert_eq!(position(0, 1 << 32), None);
    }
}
