//! Deduplication by key. Workers compute keys (the expensive part: a
//! normalization) in parallel, and look each one up in the table of the
//! keys of earlier chunks (`KeyStore`, behind a read-write lock): a key
//! found there is a duplicate with a known id, whatever happens next,
//! because only the writer inserts, and only keys of the chunks before (it
//! sees chunks in input order). The writer thread looks up and inserts the
//! rest, in input order, so "first occurrence" means what it says.
//!
//! Memory depends on the distinct keys only: nothing is sized from the
//! input, and the table rehashes from the 32-bit tag kept in each entry
//! (`spread`), so growing by doubling is cheap.
//!
//! Keys are kept as text (exact) or, with [`DedupeConfig::hash_keys`], as
//! 128-bit XXH3 digests: 16 bytes a key whatever its length. Two distinct
//! keys collide with probability 2^-128; among `n` distinct keys the
//! probability that any two collide is about `n² / 2^129` (birthday bound):
//! 1.5e-21 for a billion keys. A collision would merge two groups
//! silently, so exact keys are the default.

use std::io;
use std::ops::Range;
use std::sync::{Arc, RwLock};

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
    /// The keys' text, one after the other: the op writes each key here
    /// directly ([`KeyBatch::push_with`]).
    pub(crate) text: String,
    pub(crate) keys: Vec<Range<usize>>,
    /// The 32-bit tag of each key ([`tag_of`]; exact keys).
    pub(crate) tags: Vec<u32>,
    /// XXH3-128 of each key (digests).
    pub(crate) digests: Vec<u128>,
    /// The id of each key when the worker found it in the table (a key of
    /// an earlier chunk: a duplicate), else [`UNKNOWN`].
    pub(crate) found: Vec<u32>,
    /// The original line or record of each key, in the chunk's data.
    pub(crate) spans: Vec<Range<usize>>,
    /// The identifier of each key (only when needed).
    pub(crate) idents: Vec<u8>,
    pub(crate) ident_ranges: Vec<Range<usize>>,
}

/// A key the worker did not find in the table.
pub(crate) const UNKNOWN: u32 = u32::MAX;

/// Keys a worker looks up per hold of the table's read lock: short holds,
/// so that the writer's inserts never wait long.
const LOOKUP_BATCH: usize = 1024;

impl KeyBatch {
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.keys.clear();
        self.tags.clear();
        self.digests.clear();
        self.found.clear();
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
        let r = self.push_with(cfg, span, ident, |t| {
            t.push_str(key);
            Ok::<(), std::convert::Infallible>(())
        });
        let Ok(()) = r;
    }

    /// Adds the key that `write` appends to the batch's text (written in
    /// place: a key computed into a scratch string and copied here cost a
    /// `memcpy` call a line, issue 14 round 5). When `write` fails, what
    /// it appended is dropped and nothing is added.
    #[inline]
    pub(crate) fn push_with<E>(
        &mut self,
        cfg: &DedupeConfig,
        span: Range<usize>,
        ident: Option<&str>,
        write: impl FnOnce(&mut String) -> Result<(), E>,
    ) -> Result<(), E> {
        let start = self.text.len();
        if let Err(e) = write(&mut self.text) {
            self.text.truncate(start);
            return Err(e);
        }
        let k = &self.text.as_bytes()[start..];
        if cfg.hash_keys {
            self.digests.push(xxh3_128(k));
        } else {
            self.tags.push(tag_of(xxh3_64(k)));
        }
        self.keys.push(start..self.text.len());
        self.spans.push(span);
        if let Some(i) = ident {
            let s = self.idents.len();
            self.idents.extend_from_slice(i.as_bytes());
            self.ident_ranges.push(s..self.idents.len());
        }
        Ok(())
    }

    fn key(&self, i: usize) -> &[u8] {
        &self.text.as_bytes()[self.keys[i].clone()]
    }

    fn probe(&self, i: usize) -> Probe<'_> {
        match self.digests.get(i) {
            Some(&d) => Probe::Digest(d),
            None => Probe::Text(self.tags[i], self.key(i)),
        }
    }

    /// Looks every key up in the table of the keys of earlier chunks (run
    /// by the worker, in parallel with the others): a key found there is a
    /// duplicate, and the writer only has to count it. The rest are left
    /// [`UNKNOWN`] for the writer, which sees the chunks in order. Returns
    /// how many were found.
    pub(crate) fn look_up(&mut self, store: &RwLock<KeyStore>) -> usize {
        let n = self.keys.len();
        self.found.clear();
        self.found.reserve(n);
        let mut hits = 0;
        let mut i = 0;
        while i < n {
            let end = (i + LOOKUP_BATCH).min(n);
            let s = store.read().unwrap_or_else(|e| e.into_inner());
            if s.is_empty() {
                // Nothing to find (the start of a run).
                self.found.resize(n, UNKNOWN);
                return hits;
            }
            for j in i..end {
                let id = s.find(self.probe(j)).unwrap_or(UNKNOWN);
                hits += usize::from(id != UNKNOWN);
                self.found.push(id);
            }
            i = end;
        }
        hits
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

/// The keys seen so far, in order of first appearance (a key's id is its
/// rank): filled by the writer thread, in input order, and read by the
/// workers ([`KeyBatch::look_up`]). Its size depends only on the distinct
/// keys: nothing is reserved from the input size.
#[derive(Debug)]
pub(crate) struct KeyStore {
    /// Whether the key text is kept (exact keys; with digests only when the
    /// mode prints keys at the end).
    keep_text: bool,
    /// Key ids, each with its tag: a candidate whose tag differs is
    /// rejected without touching the key text (a cache miss per probe on a
    /// table of millions of keys).
    table: HashTable<(u32, u32)>,
    /// Digests: id -> digest.
    digests: Vec<u128>,
    /// Where each key's text ends in `arena` (it starts where the one
    /// before ends).
    ends: Vec<u64>,
    arena: Vec<u8>,
}

impl KeyStore {
    pub(crate) fn new(cfg: DedupeConfig) -> Self {
        KeyStore {
            keep_text: !cfg.hash_keys
                || matches!(
                    cfg.mode,
                    DedupeMode::Count | DedupeMode::Groups | DedupeMode::KeepLast
                ),
            table: HashTable::new(),
            digests: Vec::new(),
            ends: Vec::new(),
            arena: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    fn len(&self) -> usize {
        self.table.len()
    }

    fn text(&self, id: usize) -> &[u8] {
        text_of(&self.ends, &self.arena, id)
    }

    fn find(&self, p: Probe<'_>) -> Option<u32> {
        let eq = matcher(p, &self.digests, &self.ends, &self.arena);
        self.table.find(spread(p.tag()), eq).map(|e| e.0)
    }

    /// Looks a key up; inserts it when new (one probe for both). Returns
    /// (id, new).
    fn insert(&mut self, b: &KeyBatch, i: usize) -> io::Result<(usize, bool)> {
        let p = b.probe(i);
        let tag = p.tag();
        let next = self.len();
        let KeyStore {
            table,
            digests,
            ends,
            arena,
            keep_text,
        } = self;
        let eq = matcher(p, digests, ends, arena);
        match table.entry(spread(tag), eq, |&(_, t)| spread(t)) {
            Entry::Occupied(e) => return Ok((e.get().0 as usize, false)),
            Entry::Vacant(v) => {
                let id = u32::try_from(next)
                    .ok()
                    .filter(|&id| id != UNKNOWN)
                    .ok_or_else(too_many)?;
                v.insert((id, tag));
            }
        }
        if let Probe::Digest(d) = p {
            digests.push(d);
        }
        if *keep_text {
            arena.extend_from_slice(b.key(i));
            ends.push(arena.len() as u64);
        }
        Ok((next, true))
    }

    /// Bytes in use: hashbrown writes one control byte per bucket and holds
    /// an entry per bucket; the arrays count their length (growth slack of
    /// up to 2x is not counted; untouched capacity is not resident).
    fn memory(&self) -> u64 {
        let buckets = (self.table.capacity() as u64 * 8 / 7).next_power_of_two();
        let buckets = if self.table.capacity() == 0 {
            0
        } else {
            buckets
        };
        buckets * (1 + std::mem::size_of::<(u32, u32)>() as u64)
            + std::mem::size_of_val(&self.digests[..]) as u64
            + std::mem::size_of_val(&self.ends[..]) as u64
            + self.arena.len() as u64
    }
}

/// [`Dedupe::write_kept`] in JSON Lines: the input and its key.
#[inline(never)]
fn write_kept_json(buf: &mut Vec<u8>, raw: &[u8], key: &[u8], ident: Option<&[u8]>) {
    let mut o = JsonObject::begin(buf);
    o.str("input", &String::from_utf8_lossy(ident.unwrap_or(raw)));
    o.str("key", &String::from_utf8_lossy(key));
    o.end();
}

/// What the writer keeps about each key, besides the shared [`KeyStore`].
pub(crate) struct Dedupe {
    cfg: DedupeConfig,
    format: Format,
    store: Arc<RwLock<KeyStore>>,
    /// The writer's ids and new-flags of the current chunk.
    resolved: Vec<(u32, bool)>,
    counts: Vec<u64>,
    /// KeepLast: the last record of each key and its position.
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

fn too_many() -> io::Error {
    io::Error::other("more than 4294967294 distinct keys or members")
}

impl Dedupe {
    /// The writer's side of a dedupe over `store` (which the workers
    /// share). Nothing is sized from the input: memory grows with the
    /// distinct keys only (a table of ids and tags, the key text or
    /// digests), and growing costs no pass over the keys ([`spread`]).
    pub(crate) fn new(cfg: DedupeConfig, format: Format, store: Arc<RwLock<KeyStore>>) -> Self {
        Dedupe {
            cfg,
            format,
            store,
            resolved: Vec::new(),
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

    /// The id of every key of a chunk, and whether it is new: the ones the
    /// worker found are duplicates; the others are looked up and inserted
    /// here, in input order, under one hold of the write lock (taken only
    /// when there are such keys).
    fn resolve(&mut self, b: &KeyBatch) -> io::Result<()> {
        self.resolved.clear();
        let n = b.keys.len();
        let found = |i: usize| b.found.get(i).copied().unwrap_or(UNKNOWN);
        if (0..n).all(|i| found(i) != UNKNOWN) {
            self.resolved.extend((0..n).map(|i| (found(i), false)));
            return Ok(());
        }
        let mut store = self.store.write().unwrap_or_else(|e| e.into_inner());
        for i in 0..n {
            let r = match found(i) {
                UNKNOWN => {
                    let (id, new) = store.insert(b, i)?;
                    (id as u32, new)
                }
                id => (id, false),
            };
            self.resolved.push(r);
        }
        self.unique = store.len() as u64;
        Ok(())
    }

    /// Processes the keys of one chunk, in order; writes what streams.
    pub(crate) fn chunk(
        &mut self,
        data: &[u8],
        b: &KeyBatch,
        sink: &mut Sink,
        buf: &mut Vec<u8>,
    ) -> io::Result<u64> {
        buf.clear();
        let mut written = 0;
        self.resolve(b)?;
        for i in 0..b.keys.len() {
            let (id, new) = self.resolved[i];
            let id = id as usize;
            self.position += 1;
            if !new {
                self.duplicates += 1;
            }
            let key = &b.text.as_bytes()[b.keys[i].clone()];
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
                        self.counts.push(0);
                    }
                    self.counts[id] += 1;
                }
                DedupeMode::KeepLast => {
                    let raw: Box<[u8]> = data[b.spans[i].clone()].into();
                    let ident: Box<str> = String::from_utf8_lossy(ident.unwrap_or_default()).into();
                    if new {
                        self.last.push((self.position, raw, ident));
                    } else {
                        self.last[id] = (self.position, raw, ident);
                    }
                }
                DedupeMode::Groups => {
                    if new {
                        self.counts.push(0);
                        self.group_members.push(Vec::new());
                    }
                    self.counts[id] += 1;
                    self.add_member(id, ident.unwrap_or_default())?;
                }
            }
        }
        sink.write_all(buf)?;
        Ok(written)
    }

    /// A kept line, once per distinct key: inlined for text, the JSON
    /// object apart (a call per kept line cost about 17 instructions of
    /// saving and restoring registers, callgrind, issue 14 round 5).
    #[inline]
    fn write_kept(&self, buf: &mut Vec<u8>, raw: &[u8], key: &[u8], ident: Option<&[u8]>) {
        match self.format {
            Format::Text => {
                buf.extend_from_slice(raw);
                buf.push(b'\n');
            }
            Format::Jsonl => write_kept_json(buf, raw, key, ident),
        }
    }

    /// Writes what the mode keeps until the end; returns the entries written.
    pub(crate) fn finish(&mut self, sink: &mut Sink) -> io::Result<u64> {
        let mut buf = Vec::with_capacity(1 << 16);
        let mut written = 0;
        let store = self.store.clone();
        let store = store.read().unwrap_or_else(|e| e.into_inner());
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
                for id in 0..self.counts.len() {
                    let key = store.text(id);
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
                let mut order: Vec<usize> = (0..self.last.len()).collect();
                order.sort_unstable_by_key(|&id| self.last[id].0);
                for id in order {
                    let (_, raw, ident) = &self.last[id];
                    let key = store.text(id);
                    let ident = (!ident.is_empty()).then_some(ident.as_bytes());
                    self.write_kept(&mut buf, raw, key, ident);
                    written += 1;
                    flush(&mut buf, sink)?;
                }
            }
            DedupeMode::Groups => {
                for id in 0..self.group_members.len() {
                    let key = store.text(id);
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
        let store = self.store.read().unwrap_or_else(|e| e.into_inner());
        store.memory()
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
