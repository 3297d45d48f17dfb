//! Materialized rung-3 lookups: the latest deciding observation of every
//! key and the host-level conventions of every origin, written once per
//! store generation into a read-only file beside the store
//! (`FILE.db.lookup`) and memory-mapped by each run, so that a run does not
//! read a million rows before its first URL (docs/evidence.md, "Lookups").
//!
//! The file answers exactly what [`StoreEvidence`] answers (it is written
//! from it; the differential tests compare both on every key of the
//! simulated crawl and of `../shared/evidence`). In front of the tables:
//!
//! - a Bloom filter of the **origins** that have any deciding observation:
//!   a URL of an origin the crawl never saw (most URLs of a bulk run) costs
//!   one hash of its origin and one probe of a small, cache-resident filter
//!   ([`Evidence::may_have`]);
//! - a Bloom filter of the **keys**: a URL of a seen origin without its own
//!   observation costs one more probe, not a table search.
//!
//! Both filters are register-blocked (the k = 5 bits of an item lie in one
//! 64-bit word: one memory access per probe) at 16-32 bits per item.
//!
//! Layout (little-endian): a header (magic, format, flags, the store's
//! [`Stamp`], the file length, the counts, a table of sections), then the
//! sections. A table is open addressing over the 128-bit xxh3 digests of
//! its keys: slots of (high 64 bits of the digest, offset of the record),
//! records that start with the full digest. Nothing is trusted:
//! every read is bounds-checked, and a file of another format, another
//! store or generation, or another length is not used (it is written
//! again).

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use irinorm::protocol::{Conventions, Decision, Evidence, HostConvention, Observed};

use crate::lookup::{classified_of, digest, observed, EntryView, StoreEvidence};
use crate::store::Stamp;

const MAGIC: &[u8; 8] = b"IRNLKUP\0";

/// The format of the lookup file this crate writes and reads.
pub const LOOKUP_FORMAT: u32 = 1;

/// Sections, in file order.
const SOURCES: usize = 0;
const ORIGIN_BLOOM: usize = 1;
const KEY_BLOOM: usize = 2;
const KEY_SLOTS: usize = 3;
const KEY_RECORDS: usize = 4;
const HOST_SLOTS: usize = 5;
const HOST_RECORDS: usize = 6;
const SECTIONS: usize = 7;

/// magic, format, flags, store id, generation, file length, keys,
/// origins, sections.
const HEADER: usize = 8 + 4 + 4 + 16 + 8 + 8 + 8 + 8 + SECTIONS * 16;

/// Flag: some key has no origin (`urn:`, `mailto:`): the origin filter
/// cannot rule such keys out.
const KEYS_WITHOUT_ORIGIN: u32 = 1;

/// Slot: the high 64 bits of the digest, the record offset (`u64::MAX`:
/// empty).
const SLOT: usize = 16;
const EMPTY: u64 = u64::MAX;

/// The lookup file of the store at `db`: `db` + `.lookup`.
pub fn lookup_path(db: &Path) -> PathBuf {
    let mut s = db.as_os_str().to_owned();
    s.push(".lookup");
    PathBuf::from(s)
}

// ---- Bloom filter -------------------------------------------------------

/// Words for `n` items: a power of two, 16-32 bits per item.
fn bloom_words(n: usize) -> usize {
    (n.max(1) * 16).div_ceil(64).next_power_of_two()
}

/// The word and the mask of the 5 bits of digest `d` (the low 64 bits pick
/// the word, the high 30 bits the bits within it: independent of each
/// other).
fn bloom_pos(d: u128, words: usize) -> (usize, u64) {
    let lo = d as u64;
    let hi = (d >> 64) as u64;
    let word = (lo as usize) & (words - 1);
    let mut mask = 0u64;
    for i in 0..5 {
        mask |= 1 << ((hi >> (34 + 6 * i)) & 63);
    }
    (word, mask)
}

fn bloom_build(items: impl Iterator<Item = u128>, n: usize) -> Vec<u8> {
    let words = bloom_words(n);
    let mut v = vec![0u64; words];
    for d in items {
        let (w, m) = bloom_pos(d, words);
        v[w] |= m;
    }
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The origin filter's hash: xxh3-64, a cheaper hash than the digest, for
/// every URL of a bulk run. Its 64 bits twice: `bloom_pos` takes the word
/// from the low bits and the mask from bits 34-63, which do not overlap
/// below 2^34 words.
pub(crate) fn origin_hash(origin: &str) -> u128 {
    let h = xxhash_rust::xxh3::xxh3_64(origin.as_bytes());
    (u128::from(h) << 64) | u128::from(h)
}

fn bloom_has(bloom: &[u8], d: u128) -> bool {
    let words = bloom.len() / 8;
    if words == 0 {
        return false;
    }
    let (w, m) = bloom_pos(d, words);
    read_u64(bloom, w * 8).is_some_and(|x| x & m == m)
}

// ---- Tables -------------------------------------------------------------

fn read_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn read_u64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

fn read_u128(b: &[u8], at: usize) -> Option<u128> {
    Some(u128::from_le_bytes(b.get(at..at + 16)?.try_into().ok()?))
}

/// The slots and records of a table built from (digest, record) pairs:
/// open addressing with linear probing, a slot per 1.5-3 items, the home
/// slot of a digest given by its top bits; each record starts with its
/// full digest. A lookup costs the slot's cache line and the record's,
/// and a miss ends at the first empty slot.
fn table_build(mut items: Vec<(u128, Vec<u8>)>) -> [Vec<u8>; 2] {
    // Sorted, so that the same store writes the same bytes.
    items.sort_unstable_by_key(|i| i.0);
    let cap = (items.len() + items.len() / 2 + 1).next_power_of_two();
    let bits = cap.trailing_zeros();
    let mut slots = vec![(0u64, EMPTY); cap];
    let mut records = Vec::new();
    for (d, r) in items {
        let mut pos = home(d, bits);
        while slots[pos].1 != EMPTY {
            pos = (pos + 1) & (cap - 1);
        }
        slots[pos] = ((d >> 64) as u64, records.len() as u64);
        records.extend_from_slice(&d.to_le_bytes());
        records.extend_from_slice(&r);
    }
    [
        slots
            .iter()
            .flat_map(|(h, o)| h.to_le_bytes().into_iter().chain(o.to_le_bytes()))
            .collect(),
        records,
    ]
}

fn home(d: u128, bits: u32) -> usize {
    if bits == 0 {
        0
    } else {
        ((d >> 64) as u64 >> (64 - bits)) as usize
    }
}

/// A table in the mapped file.
#[derive(Clone, Copy)]
struct Table<'a> {
    slots: &'a [u8],
    records: &'a [u8],
}

impl<'a> Table<'a> {
    /// The record of digest `d` (after its digest, to the end of the
    /// records).
    fn find(&self, d: u128) -> Option<&'a [u8]> {
        let cap = self.slots.len() / SLOT;
        if !cap.is_power_of_two() {
            return None;
        }
        let mut pos = home(d, cap.trailing_zeros());
        let hi = (d >> 64) as u64;
        for _ in 0..cap {
            let off = read_u64(self.slots, pos * SLOT + 8)?;
            if off == EMPTY {
                return None;
            }
            if read_u64(self.slots, pos * SLOT)? == hi {
                let off = usize::try_from(off).ok()?;
                if read_u128(self.records, off)? == d {
                    return self.records.get(off + 16..);
                }
            }
            pos = (pos + 1) & (cap - 1);
        }
        None
    }
}

// ---- Records ------------------------------------------------------------

const HAS_TARGET: u8 = 1;
const HAS_TIME: u8 = 2;
/// The target has no record of its own (known when the file is written).
const TARGET_ABSENT: u8 = 4;

fn key_record(e: &EntryView<'_>, target_absent: bool) -> Vec<u8> {
    let mut r = Vec::with_capacity(24 + e.target.map_or(0, str::len));
    r.extend_from_slice(&e.status.to_le_bytes());
    r.push(e.classified);
    r.push(
        if e.target.is_some() { HAS_TARGET } else { 0 }
            | if e.time.is_some() { HAS_TIME } else { 0 }
            | if target_absent { TARGET_ABSENT } else { 0 },
    );
    r.extend_from_slice(&e.source.to_le_bytes());
    r.extend_from_slice(&e.offset.to_le_bytes());
    r.extend_from_slice(&e.disagreements.to_le_bytes());
    for s in [e.time, e.target].into_iter().flatten() {
        r.extend_from_slice(&(s.len() as u32).to_le_bytes());
        r.extend_from_slice(s.as_bytes());
    }
    r
}

/// Reads a key record (`None` if it is damaged), and whether its target
/// is known to have no record.
fn read_key_record(r: &[u8]) -> Option<(EntryView<'_>, bool)> {
    let status = u16::from_le_bytes(r.get(0..2)?.try_into().ok()?);
    let classified = *r.get(2)?;
    let flags = *r.get(3)?;
    let source = read_u32(r, 4)?;
    let offset = read_u64(r, 8)?;
    let disagreements = read_u32(r, 16)?;
    let mut at = 20;
    let mut text = |present: bool| -> Option<Option<&str>> {
        if !present {
            return Some(None);
        }
        let len = read_u32(r, at)? as usize;
        let s = std::str::from_utf8(r.get(at + 4..at + 4 + len)?).ok()?;
        at += 4 + len;
        Some(Some(s))
    };
    let time = text(flags & HAS_TIME != 0)?;
    let target = text(flags & HAS_TARGET != 0)?;
    Some((
        EntryView {
            status,
            classified,
            target,
            time,
            source,
            offset,
            disagreements,
        },
        flags & TARGET_ABSENT != 0,
    ))
}

fn host_record(v: &[HostConvention]) -> Vec<u8> {
    let mut r = vec![v.len() as u8];
    for c in v {
        r.push(c.convention.0);
        r.extend_from_slice(&c.support.to_le_bytes());
        r.extend_from_slice(&c.contradictions.to_le_bytes());
    }
    r
}

fn read_host_record(r: &[u8]) -> Option<Vec<HostConvention>> {
    let n = *r.first()? as usize;
    (0..n)
        .map(|i| {
            let at = 1 + i * 9;
            Some(HostConvention {
                convention: Conventions(*r.get(at)?),
                support: read_u32(r, at + 1)?,
                contradictions: read_u32(r, at + 5)?,
            })
        })
        .collect()
}

// ---- Writing ------------------------------------------------------------

/// Writes the lookups of `ev` (loaded at `stamp`) to `path`, atomically: a
/// temporary file in the same directory renamed over `path`, so a reader
/// never maps a half-written file and concurrent writers do not mix.
pub fn write(ev: &StoreEvidence, stamp: Stamp, path: &Path) -> io::Result<u64> {
    let (entries, sources) = ev.parts();
    let (origins, without) = ev.origin_keys();
    let flags = if without { KEYS_WITHOUT_ORIGIN } else { 0 };
    let keys: Vec<(u128, Vec<u8>)> = entries
        .iter()
        .map(|(d, e)| {
            let absent = e.target.is_some_and(|t| !ev.has_digest(digest(t)));
            (*d, key_record(e, absent))
        })
        .collect();
    let key_bloom = bloom_build(entries.iter().map(|e| e.0), entries.len());
    let origin_bloom = bloom_build(origins.iter().copied(), origins.len());
    drop(entries);
    let hosts: Vec<(u128, Vec<u8>)> = ev
        .hosts()
        .iter()
        .map(|(o, v)| (digest(o), host_record(v)))
        .collect();
    let mut src = (sources.len() as u32).to_le_bytes().to_vec();
    for s in sources {
        src.extend_from_slice(&(s.len() as u32).to_le_bytes());
        src.extend_from_slice(s.as_bytes());
    }
    let (n_keys, n_hosts) = (keys.len() as u64, hosts.len() as u64);
    let [ks, kr] = table_build(keys);
    let [hs, hr] = table_build(hosts);
    let sections: [&[u8]; SECTIONS] = [&src, &origin_bloom, &key_bloom, &ks, &kr, &hs, &hr];
    let total = HEADER + sections.iter().map(|s| s.len()).sum::<usize>();
    let mut head = Vec::with_capacity(HEADER);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&LOOKUP_FORMAT.to_le_bytes());
    head.extend_from_slice(&flags.to_le_bytes());
    head.extend_from_slice(&stamp.store_id.to_le_bytes());
    head.extend_from_slice(&stamp.generation.to_le_bytes());
    head.extend_from_slice(&(total as u64).to_le_bytes());
    head.extend_from_slice(&n_keys.to_le_bytes());
    head.extend_from_slice(&n_hosts.to_le_bytes());
    let mut at = HEADER;
    for s in &sections {
        head.extend_from_slice(&(at as u64).to_le_bytes());
        head.extend_from_slice(&(s.len() as u64).to_le_bytes());
        at += s.len();
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let tmp = tempfile_in(dir.unwrap_or(Path::new(".")), path)?;
    let result = (|| {
        let mut w = io::BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        w.write_all(&head)?;
        for s in &sections {
            w.write_all(s)?;
        }
        w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map(|()| total as u64)
}

/// A temporary name beside `path`, distinct per process.
fn tempfile_in(dir: &Path, path: &Path) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "lookup path without a name"))?;
    let mut n = name.to_owned();
    n.push(format!(".tmp.{}", std::process::id()));
    Ok(dir.join(n))
}

// ---- Reading ------------------------------------------------------------

thread_local! {
    /// (instance, digest) of the target of the last record this thread
    /// read whose target has no record of its own.
    static ABSENT_TARGET: std::cell::Cell<(u64, u128)> = const { std::cell::Cell::new((0, 0)) };
}

/// Instance ids (for `ABSENT_TARGET`); 0 is never one.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The lookups of one store generation, memory-mapped.
#[derive(Debug)]
pub struct MappedEvidence {
    /// Distinct per instance, so that one thread's lookups in two files
    /// never mix.
    id: u64,
    map: memmap2::Mmap,
    flags: u32,
    keys: usize,
    origins: usize,
    sections: [(usize, usize); SECTIONS],
    sources: Vec<String>,
}

/// Why a lookup file was not used.
#[derive(Debug)]
pub enum Unusable {
    /// No file.
    Missing,
    /// Written for another store, generation or format, or damaged: to be
    /// written again.
    Stale(String),
    /// The file could not be read.
    Io(io::Error),
}

impl core::fmt::Display for Unusable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Unusable::Missing => f.write_str("not written yet"),
            Unusable::Stale(s) => f.write_str(s),
            Unusable::Io(e) => write!(f, "{e}"),
        }
    }
}

impl MappedEvidence {
    /// Maps the lookup file at `path` if it was written for `stamp` in
    /// this format and is whole.
    pub fn open(path: &Path, stamp: Stamp) -> Result<MappedEvidence, Unusable> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(Unusable::Missing),
            Err(e) => return Err(Unusable::Io(e)),
        };
        // SAFETY: the map is read-only and the file is never written in
        // place: `write` renames a new file over it, which leaves this
        // mapping on the old inode. Only another program truncating the
        // file while it is mapped could fault (SIGBUS); every read below
        // is bounds-checked against the length seen here.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(Unusable::Io)?;
        let stale = |why: &str| Err(Unusable::Stale(why.to_owned()));
        if map.len() < HEADER || &map[..8] != MAGIC {
            return stale("not a lookup file");
        }
        if read_u32(&map, 8) != Some(LOOKUP_FORMAT) {
            return stale("another lookup format");
        }
        let flags = read_u32(&map, 12).unwrap_or(0);
        if read_u128(&map, 16) != Some(stamp.store_id) {
            return stale("written for another store");
        }
        if read_u64(&map, 32) != Some(stamp.generation) {
            return stale("the store changed since it was written");
        }
        if read_u64(&map, 40) != Some(map.len() as u64) {
            return stale("cut short");
        }
        let mut sections = [(0, 0); SECTIONS];
        for (i, s) in sections.iter_mut().enumerate() {
            let off = read_u64(&map, 64 + i * 16).unwrap_or(u64::MAX) as usize;
            let len = read_u64(&map, 72 + i * 16).unwrap_or(u64::MAX) as usize;
            if off.checked_add(len).is_none_or(|end| end > map.len()) {
                return stale("a section out of bounds");
            }
            *s = (off, len);
        }
        let keys = read_u64(&map, 48).unwrap_or(0) as usize;
        let origins = read_u64(&map, 56).unwrap_or(0) as usize;
        let mut m = MappedEvidence {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            map,
            flags,
            keys,
            origins,
            sections,
            sources: Vec::new(),
        };
        let sources = m
            .read_sources()
            .ok_or(Unusable::Stale("damaged sources".into()))?;
        m.sources = sources;
        Ok(m)
    }

    fn section(&self, i: usize) -> &[u8] {
        let (off, len) = self.sections[i];
        &self.map[off..off + len]
    }

    fn read_sources(&self) -> Option<Vec<String>> {
        let s = self.section(SOURCES);
        let n = read_u32(s, 0)? as usize;
        let mut at = 4;
        let mut v = Vec::with_capacity(n.min(s.len()));
        for _ in 0..n {
            let len = read_u32(s, at)? as usize;
            v.push(
                std::str::from_utf8(s.get(at + 4..at + 4 + len)?)
                    .ok()?
                    .to_owned(),
            );
            at += 4 + len;
        }
        Some(v)
    }

    /// The record of `key`.
    fn entry(&self, key: &str) -> Option<EntryView<'_>> {
        let d = digest(key);
        // Following a chain asks next for the target just returned: when
        // the file says it has no record, no probe.
        if ABSENT_TARGET.with(|c| c.get()) == (self.id, d) {
            return None;
        }
        if !bloom_has(self.section(KEY_BLOOM), d) {
            return None;
        }
        let r = self.table(KEY_SLOTS, KEY_RECORDS).find(d)?;
        let (e, target_absent) = read_key_record(r)?;
        if let (true, Some(t)) = (target_absent, e.target) {
            ABSENT_TARGET.with(|c| c.set((self.id, digest(t))));
        }
        Some(e)
    }

    fn table(&self, slots: usize, records: usize) -> Table<'_> {
        Table {
            slots: self.section(slots),
            records: self.section(records),
        }
    }

    /// Number of keys with a deciding observation.
    pub fn len(&self) -> usize {
        self.keys
    }

    /// Whether no key has evidence.
    pub fn is_empty(&self) -> bool {
        self.keys == 0
    }

    /// Number of origins with host-level conventions (support or
    /// contradictions).
    pub fn origins(&self) -> usize {
        self.origins
    }

    /// Bytes mapped (the file); what a run keeps resident is at most this,
    /// and only the pages its lookups touch.
    pub fn mapped_bytes(&self) -> usize {
        self.map.len()
    }
}

impl Evidence for MappedEvidence {
    fn may_have(&self, _key: &str, origin: Option<&str>) -> bool {
        match origin {
            Some(o) => bloom_has(self.section(ORIGIN_BLOOM), origin_hash(o)),
            None => self.flags & KEYS_WITHOUT_ORIGIN != 0,
        }
    }

    fn targets_are_keys(&self) -> bool {
        // Written from `StoreEvidence`: keys of the resolved targets.
        true
    }

    fn latest(&self, key: &str) -> Option<Observed> {
        Some(observed(self.entry(key)?, &self.sources))
    }

    fn decision(&self, key: &str) -> Option<Decision<'_>> {
        let e = self.entry(key)?;
        Some(Decision {
            status: e.status,
            target: e.target.map(Cow::Borrowed),
            classified: Some(classified_of(e.classified)),
        })
    }

    fn host_conventions(&self, origin: &str) -> Vec<HostConvention> {
        if !bloom_has(self.section(ORIGIN_BLOOM), origin_hash(origin)) {
            return Vec::new();
        }
        let d = digest(origin);
        self.table(HOST_SLOTS, HOST_RECORDS)
            .find(d)
            .and_then(read_host_record)
            .unwrap_or_default()
    }
}

// ---- Opening a store's lookups ------------------------------------------

/// The rung-3 lookups of a store: mapped from its lookup file, or loaded
/// in memory when the file could not be written.
#[derive(Debug)]
pub enum Lookups {
    /// From the lookup file.
    Mapped(MappedEvidence),
    /// From the store, in memory.
    Loaded(StoreEvidence),
}

impl Lookups {
    /// Number of keys with a deciding observation.
    pub fn len(&self) -> usize {
        match self {
            Lookups::Mapped(m) => m.len(),
            Lookups::Loaded(l) => l.len(),
        }
    }

    /// Whether no key has evidence.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Evidence for Lookups {
    fn may_have(&self, key: &str, origin: Option<&str>) -> bool {
        match self {
            Lookups::Mapped(m) => m.may_have(key, origin),
            Lookups::Loaded(l) => l.may_have(key, origin),
        }
    }
    fn targets_are_keys(&self) -> bool {
        true
    }
    fn decision(&self, key: &str) -> Option<Decision<'_>> {
        match self {
            Lookups::Mapped(m) => m.decision(key),
            Lookups::Loaded(l) => l.decision(key),
        }
    }
    fn latest(&self, key: &str) -> Option<Observed> {
        match self {
            Lookups::Mapped(m) => m.latest(key),
            Lookups::Loaded(l) => l.latest(key),
        }
    }
    fn host_conventions(&self, origin: &str) -> Vec<HostConvention> {
        match self {
            Lookups::Mapped(m) => m.host_conventions(origin),
            Lookups::Loaded(l) => l.host_conventions(origin),
        }
    }
}

/// The lookups of the store at `db` (opened as `store`): its lookup file
/// ([`lookup_path`]) when it was written for the store's current stamp;
/// otherwise the store is read once, the file written for the next runs,
/// and the loaded lookups used (or only those, with the reason in the
/// note, when the file cannot be written: a read-only directory). The
/// note says which, for stderr.
pub fn open_lookups(
    store: &crate::Store,
    db: &Path,
) -> Result<(Lookups, String), crate::StoreError> {
    let path = lookup_path(db);
    let stamp = store.stamp()?;
    let why = match MappedEvidence::open(&path, stamp) {
        Ok(m) => {
            let note = format!(
                "{} URLs with a deciding observation, {} origins with conventions; lookups mapped from {} ({:.1} MB)",
                m.len(),
                m.origins(),
                path.display(),
                m.mapped_bytes() as f64 / 1e6
            );
            return Ok((Lookups::Mapped(m), note));
        }
        Err(e) => e,
    };
    let (ev, stamp) = StoreEvidence::load_stamped(store)?;
    let head = format!(
        "{} URLs with a deciding observation, {} origins with conventions; loaded from the store ({:.1} MB in memory)",
        ev.len(),
        ev.hosts().len(),
        ev.heap_bytes() as f64 / 1e6
    );
    let note = match write(&ev, stamp, &path) {
        Ok(bytes) => format!(
            "{head}; lookups written to {} ({:.1} MB; {why}), mapped by later runs",
            path.display(),
            bytes as f64 / 1e6
        ),
        Err(e) => format!(
            "{head}; could not write the lookups to {} ({e}): every run will load the store",
            path.display()
        ),
    };
    Ok((Lookups::Loaded(ev), note))
}
