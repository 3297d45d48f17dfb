//! Deduplication by key. Workers compute keys (the expensive part: a
//! normalization) in parallel; the writer thread inserts them in input
//! order into one table.
//!
//! Keys are kept as text (exact) or, with [`DedupeConfig::hash_keys`], as
//! 128-bit XXH3 digests: 16 bytes a key whatever its length. Two distinct
//! keys collide with probability 2^-128; among `n` distinct keys the
//! probability that any two collide is about `n² / 2^129` (birthday bound):
//! 1.5e-21 for a billion keys. A collision would merge two groups
//! silently, so exact keys are the default.

use std::io;
use std::ops::Range;

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
    /// XXH3-64 of each key (exact keys) or XXH3-128 (digests).
    pub(crate) hashes: Vec<u64>,
    pub(crate) digests: Vec<u128>,
    /// The original line or record of each key, in the chunk's data.
    pub(crate) spans: Vec<Range<usize>>,
    /// The identifier of each key (only when needed).
    pub(crate) idents: Vec<u8>,
    pub(crate) ident_ranges: Vec<Range<usize>>,
}

impl KeyBatch {
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.keys.clear();
        self.hashes.clear();
        self.digests.clear();
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
        if cfg.hash_keys {
            self.digests.push(xxh3_128(k));
        } else {
            self.hashes.push(xxh3_64(k));
        }
        self.spans.push(span);
        if let Some(i) = ident {
            let s = self.idents.len();
            self.idents.extend_from_slice(i.as_bytes());
            self.ident_ranges.push(s..self.idents.len());
        }
    }
}

/// The table of keys seen so far and what the mode keeps about each.
pub(crate) struct Dedupe {
    cfg: DedupeConfig,
    format: Format,
    /// Key ids, each with the high 32 bits of its hash: a candidate whose
    /// tag differs is rejected without touching the key text (a cache miss
    /// per probe on a table of millions of keys).
    table: HashTable<(u32, u32)>,
    /// Exact keys: id -> range in `arena`, and hash (for rehashing).
    key_ranges: Vec<(u64, u32)>,
    key_hashes: Vec<u64>,
    /// Digests: id -> digest.
    digests: Vec<u128>,
    /// Key text (exact keys; with digests only when the mode prints keys at
    /// the end).
    arena: Vec<u8>,
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

/// Input bytes per distinct key assumed when sizing the table: URLs are
/// about 60 bytes long, and a frontier is mostly distinct.
const BYTES_PER_KEY: u64 = 64;
/// At most this many keys (and bytes of key text) are reserved up front.
const MAX_RESERVED_KEYS: u64 = 1 << 26;
const MAX_RESERVED_TEXT: u64 = 1 << 32;

fn too_many() -> io::Error {
    io::Error::other("more than 4294967295 distinct keys or members")
}

impl Dedupe {
    /// A table for `input_bytes` of input, when known: the table and the
    /// key arrays are sized for one key per [`BYTES_PER_KEY`] bytes up
    /// front, so that they are not rehashed and copied while they grow
    /// (a third of dedupe's time on a 100 MB frontier). Reserved but
    /// untouched memory is not resident, so an over-estimate costs address
    /// space, not RAM.
    pub(crate) fn new(cfg: DedupeConfig, format: Format, input_bytes: Option<u64>) -> Self {
        let keys = input_bytes.map_or(0, |b| (b / BYTES_PER_KEY).min(MAX_RESERVED_KEYS)) as usize;
        let text = if cfg.hash_keys {
            0
        } else {
            input_bytes.map_or(0, |b| b.min(MAX_RESERVED_TEXT)) as usize
        };
        Dedupe {
            cfg,
            format,
            table: HashTable::with_capacity(keys),
            key_ranges: Vec::with_capacity(if cfg.hash_keys { 0 } else { keys }),
            key_hashes: Vec::with_capacity(if cfg.hash_keys { 0 } else { keys }),
            digests: Vec::with_capacity(if cfg.hash_keys { keys } else { 0 }),
            arena: Vec::with_capacity(text),
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

    fn key_text(&self, id: usize) -> &[u8] {
        let (off, len) = self.key_ranges[id];
        &self.arena[off as usize..off as usize + len as usize]
    }

    /// Whether the mode prints key text at the end (then digests keep it too).
    fn stores_text(&self) -> bool {
        !self.cfg.hash_keys
            || matches!(
                self.cfg.mode,
                DedupeMode::Count | DedupeMode::Groups | DedupeMode::KeepLast
            )
    }

    /// Looks a key up; inserts it when new. Returns (id, new).
    fn insert(&mut self, b: &KeyBatch, i: usize) -> io::Result<(usize, bool)> {
        let key = &b.text[b.keys[i].clone()];
        let next = self.unique as usize;
        let (found, hash) = if self.cfg.hash_keys {
            let d = b.digests[i];
            let tag = (d >> 96) as u32;
            let digests = &self.digests;
            let eq = |&(id, t): &(u32, u32)| t == tag && digests[id as usize] == d;
            (self.table.find(d as u64, eq).map(|e| e.0), d as u64)
        } else {
            let h = b.hashes[i];
            let tag = (h >> 32) as u32;
            let (ranges, arena) = (&self.key_ranges, &self.arena);
            let eq = |&(id, t): &(u32, u32)| {
                let (off, len) = ranges[id as usize];
                t == tag && &arena[off as usize..off as usize + len as usize] == key
            };
            (self.table.find(h, eq).map(|e| e.0), h)
        };
        if let Some(id) = found {
            return Ok((id as usize, false));
        }
        let id = u32::try_from(next).map_err(|_| too_many())?;
        if self.cfg.hash_keys {
            self.digests.push(b.digests[i]);
            let digests = &self.digests;
            let tag = (b.digests[i] >> 96) as u32;
            self.table
                .insert_unique(hash, (id, tag), |&(x, _)| digests[x as usize] as u64);
        } else {
            self.key_hashes.push(hash);
            let hashes = &self.key_hashes;
            self.table
                .insert_unique(hash, (id, (hash >> 32) as u32), |&(x, _)| {
                    hashes[x as usize]
                });
        }
        if self.stores_text() {
            self.key_ranges
                .push((self.arena.len() as u64, key.len() as u32));
            self.arena.extend_from_slice(key);
        }
        self.unique += 1;
        Ok((next, true))
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
        for i in 0..b.keys.len() {
            let (id, new) = self.insert(b, i)?;
            self.position += 1;
            if !new {
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
                    let key = self.key_text(id);
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
                    let key = self.key_text(id);
                    let ident = (!ident.is_empty()).then_some(ident.as_bytes());
                    self.write_kept(&mut buf, raw, key, ident);
                    written += 1;
                    flush(&mut buf, sink)?;
                }
            }
            DedupeMode::Groups => {
                for id in 0..self.group_members.len() {
                    let key = self.key_text(id);
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
    /// been written (space reserved up front but never touched is not
    /// resident, so it is not counted).
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
        table(&self.table)
            + cap(&self.key_ranges)
            + cap(&self.key_hashes)
            + cap(&self.digests)
            + cap(&self.arena)
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
