//! Rung-3 lookups on a store: the latest deciding observation of every key
//! and the host-level conventions, loaded once into a compact map, so that
//! a lookup is one hash probe (no SQL per URL in bulk runs).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use irinorm::protocol::{
    classify, Conventions, Decision, Evidence, HostConvention, HostTally, Observed,
};

use crate::store::{Stamp, Store, StoreError};

/// A hasher for keys that are hashes already (the u128 digests: their low
/// 64 bits) and for short strings (xxh3): a probe costs a few ns, not
/// SipHash's tens. Keys are compared in full, so colliding hashes (crafted
/// crawl data) could only slow lookups, never change an answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = xxhash_rust::xxh3::xxh3_64_with_seed(bytes, self.0);
    }
    fn write_u8(&mut self, b: u8) {
        self.0 = self.0.rotate_left(8) ^ u64::from(b);
    }
    fn write_u128(&mut self, v: u128) {
        self.0 ^= v as u64;
    }
}

/// The map hasher of [`StoreEvidence`].
pub type Fast = BuildHasherDefault<FastHasher>;

/// One key's latest deciding observation.
#[derive(Clone, Debug)]
struct Entry {
    status: u16,
    /// `classify(key, target)` as a byte (`NOT_CONVENTIONAL` for `None`),
    /// computed once the latest observation is known.
    classified: u8,
    target: Option<Box<str>>,
    time: Option<Box<str>>,
    source: u32,
    offset: u64,
    /// Non-zero when other observations of the key give another status or
    /// target (the changes of answer met while loading).
    disagreements: u32,
}

/// `classify` said "not conventional" (a byte: a classification is never
/// the empty set, `classify` returns `None` then).
pub(crate) const NOT_CONVENTIONAL: u8 = 0;

/// The byte of a classification.
pub(crate) fn classified_byte(c: Option<Conventions>) -> u8 {
    c.map_or(NOT_CONVENTIONAL, |c| c.0)
}

/// The classification of a byte.
pub(crate) fn classified_of(b: u8) -> Option<Conventions> {
    (b != NOT_CONVENTIONAL).then_some(Conventions(b))
}

/// One entry, borrowed (for [`crate::mapped`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EntryView<'a> {
    pub(crate) status: u16,
    pub(crate) classified: u8,
    pub(crate) target: Option<&'a str>,
    pub(crate) time: Option<&'a str>,
    pub(crate) source: u32,
    pub(crate) offset: u64,
    pub(crate) disagreements: u32,
}

/// The rung-3 evidence of a store, in memory. Keys are kept as 128-bit
/// digests (xxh3-128) of the rung-2 key: 16 bytes instead of the URL;
/// among n keys a collision has probability about n²/2^129.
#[derive(Clone, Debug, Default)]
pub struct StoreEvidence {
    index: HashMap<u128, u32, Fast>,
    entries: Vec<Entry>,
    sources: Vec<String>,
    hosts: HashMap<String, Vec<HostConvention>, Fast>,
    /// Origin-filter hashes of the origins of every key (the prefilter of
    /// [`crate::mapped`]).
    origins: Vec<u128>,
    /// Some key has no origin.
    keys_without_origin: bool,
}

pub(crate) fn digest(key: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(key.as_bytes())
}

impl StoreEvidence {
    /// Loads the latest deciding observation of every key of `store`:
    /// observations with a status, except redirects whose target is
    /// unknown (they decide nothing). The latest is the greatest (time,
    /// source name, offset); no time sorts first, so the answer does not
    /// depend on the order files were ingested in. One pass, one hash
    /// probe per row, no string allocated for a row that is not (yet) the
    /// latest of its key.
    pub fn load(store: &Store) -> Result<StoreEvidence, StoreError> {
        let mut sources_by_id: HashMap<i64, u32> = HashMap::new();
        let mut sources = Vec::new();
        {
            let mut st = store
                .conn
                .prepare("SELECT id, name FROM sources ORDER BY name")?;
            let rows = st.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
            for r in rows {
                let (id, name) = r?;
                // Indexes follow name order, so comparing indexes compares names.
                sources_by_id.insert(id, sources.len() as u32);
                sources.push(name);
            }
        }
        let mut ev = StoreEvidence {
            sources,
            ..Default::default()
        };
        // The key text of each entry, for the host tally; dropped after it.
        let mut keys: Vec<Box<str>> = Vec::new();
        {
            let mut st = store.conn.prepare(
                "SELECT key, status, target, time, source, offset FROM observations \
                 WHERE status IS NOT NULL AND NOT (status BETWEEN 300 AND 399 AND target IS NULL)",
            )?;
            let mut q = st.query([])?;
            while let Some(r) = q.next()? {
                let key = r.get_ref(0)?.as_str()?;
                let status: u16 = r.get(1)?;
                let target = r.get_ref(2)?.as_str_or_null()?;
                let time = r.get_ref(3)?.as_str_or_null()?;
                let source = sources_by_id
                    .get(&r.get::<_, i64>(4)?)
                    .copied()
                    .unwrap_or(0);
                let offset = r.get::<_, i64>(5)? as u64;
                let h = digest(key);
                match ev.index.get(&h) {
                    None => {
                        ev.index.insert(h, ev.entries.len() as u32);
                        ev.entries.push(Entry {
                            status,
                            classified: NOT_CONVENTIONAL,
                            target: target.map(Into::into),
                            time: time.map(Into::into),
                            source,
                            offset,
                            disagreements: 0,
                        });
                        keys.push(key.into());
                    }
                    Some(&i) => {
                        let e = &mut ev.entries[i as usize];
                        let same = e.status == status && e.target.as_deref() == target;
                        let later =
                            (time, source, offset) > (e.time.as_deref(), e.source, e.offset);
                        // `disagreements`: observations whose answer differs
                        // from the latest one's.
                        if later {
                            if !same {
                                e.disagreements += 1;
                                e.status = status;
                                e.target = target.map(Into::into);
                            }
                            e.time = time.map(Into::into);
                            e.source = source;
                            e.offset = offset;
                        } else if !same {
                            e.disagreements += 1;
                        }
                    }
                }
            }
        }
        let mut tally = HostTally::default();
        for (k, e) in keys.iter().zip(ev.entries.iter_mut()) {
            e.classified = classified_byte(e.target.as_deref().and_then(|t| classify(k, t)));
            tally.add(k, e.status, e.target.as_deref());
            match irinorm::protocol::origin(k) {
                Some(o) => ev.origins.push(crate::mapped::origin_hash(o)),
                None => ev.keys_without_origin = true,
            }
        }
        ev.origins.sort_unstable();
        ev.origins.dedup();
        ev.origins.shrink_to_fit();
        ev.hosts = tally.into_map().into_iter().collect();
        Ok(ev)
    }

    /// [`StoreEvidence::load`] and the store's [`Stamp`], read in one
    /// transaction (one WAL snapshot): the stamp names exactly the
    /// observations loaded, even while an ingest commits meanwhile.
    pub fn load_stamped(store: &Store) -> Result<(StoreEvidence, Stamp), StoreError> {
        let tx = store.conn.unchecked_transaction()?;
        let stamp = store.stamp()?;
        let ev = Self::load(store)?;
        tx.commit()?;
        Ok((ev, stamp))
    }

    /// Every key digest with its entry, and the sources: what
    /// [`crate::mapped`] writes.
    pub(crate) fn parts(&self) -> (Vec<(u128, EntryView<'_>)>, &[String]) {
        let v = self
            .index
            .iter()
            .map(|(&d, &i)| {
                let e = &self.entries[i as usize];
                (
                    d,
                    EntryView {
                        status: e.status,
                        classified: e.classified,
                        target: e.target.as_deref(),
                        time: e.time.as_deref(),
                        source: e.source,
                        offset: e.offset,
                        disagreements: e.disagreements,
                    },
                )
            })
            .collect();
        (v, &self.sources)
    }

    /// Origin-filter hashes of the distinct origins of the keys, and
    /// whether some key has none.
    pub(crate) fn origin_keys(&self) -> (&[u128], bool) {
        (&self.origins, self.keys_without_origin)
    }

    /// Whether some key has digest `d`.
    pub(crate) fn has_digest(&self, d: u128) -> bool {
        self.index.contains_key(&d)
    }

    /// Number of keys with a deciding observation.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no key has evidence.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every origin with host-level conventions.
    pub fn hosts(&self) -> &HashMap<String, Vec<HostConvention>, Fast> {
        &self.hosts
    }

    /// Every key's latest deciding (status, target): for stats.
    pub fn decided(&self) -> impl Iterator<Item = (u16, Option<&str>)> {
        self.entries.iter().map(|e| (e.status, e.target.as_deref()))
    }

    /// Approximate heap bytes held (reported by the CLI).
    pub fn heap_bytes(&self) -> usize {
        let strings: usize = self
            .entries
            .iter()
            .map(|e| {
                e.target.as_ref().map_or(0, |t| t.len()) + e.time.as_ref().map_or(0, |t| t.len())
            })
            .sum();
        self.index.capacity() * (16 + 4 + 1)
            + self.entries.capacity() * std::mem::size_of::<Entry>()
            + strings
    }
}

impl Evidence for StoreEvidence {
    fn targets_are_keys(&self) -> bool {
        // `observations.target` is the rung-2 key of the resolved target.
        true
    }

    fn decision(&self, key: &str) -> Option<Decision<'_>> {
        let e = &self.entries[*self.index.get(&digest(key))? as usize];
        Some(Decision {
            status: e.status,
            target: e.target.as_deref().map(std::borrow::Cow::Borrowed),
            classified: Some(classified_of(e.classified)),
        })
    }

    fn latest(&self, key: &str) -> Option<Observed> {
        let e = &self.entries[*self.index.get(&digest(key))? as usize];
        Some(observed(
            EntryView {
                status: e.status,
                classified: e.classified,
                target: e.target.as_deref(),
                time: e.time.as_deref(),
                source: e.source,
                offset: e.offset,
                disagreements: e.disagreements,
            },
            &self.sources,
        ))
    }

    fn host_conventions(&self, origin: &str) -> Vec<HostConvention> {
        self.hosts.get(origin).cloned().unwrap_or_default()
    }
}

/// The [`Observed`] of an entry (both lookup paths build it here, so they
/// answer alike).
pub(crate) fn observed(e: EntryView<'_>, sources: &[String]) -> Observed {
    Observed {
        status: e.status,
        target: e.target.map(str::to_owned),
        time: e.time.map(str::to_owned),
        source: sources.get(e.source as usize).cloned().unwrap_or_default(),
        offset: e.offset,
        disagreements: if e.disagreements == 0 {
            Vec::new()
        } else {
            vec![
                "other observations of this URL give another status or target \
                  (irinorm evidence why lists them)"
                    .to_owned(),
            ]
        },
    }
}
