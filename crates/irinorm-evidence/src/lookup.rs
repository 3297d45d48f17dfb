//! Rung-3 lookups on a store: the latest deciding observation of every key
//! and the host-level conventions, loaded once into a compact map, so that
//! a lookup is one hash probe (no SQL per URL in bulk runs).

use std::collections::HashMap;

use irinorm::protocol::{Evidence, HostConvention, HostTally, Observed};

use crate::store::{Store, StoreError};

/// One key's latest deciding observation.
#[derive(Clone, Debug)]
struct Entry {
    status: u16,
    target: Option<Box<str>>,
    time: Option<Box<str>>,
    source: u32,
    offset: u64,
    /// Other observations of the key with another status or target.
    disagreements: u32,
}

/// The rung-3 evidence of a store, in memory. Keys are kept as 128-bit
/// digests (xxh3-128) of the rung-2 key: 16 bytes instead of the URL;
/// among n keys a collision has probability about n²/2^129.
#[derive(Clone, Debug, Default)]
pub struct StoreEvidence {
    index: HashMap<u128, u32>,
    entries: Vec<Entry>,
    sources: Vec<String>,
    hosts: HashMap<String, Vec<HostConvention>>,
}

fn digest(key: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(key.as_bytes())
}

struct Row {
    h: u128,
    key: String,
    status: u16,
    target: Option<String>,
    time: Option<String>,
    source: u32,
    offset: u64,
}

impl StoreEvidence {
    /// Loads the latest deciding observation of every key of `store`:
    /// observations with a status, except redirects whose target is
    /// unknown (they decide nothing). The latest is the greatest (time,
    /// source name, offset); no time sorts first.
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
        let mut rows = Vec::new();
        {
            let mut st = store.conn.prepare(
                "SELECT key, status, target, time, source, offset FROM observations \
                 WHERE status IS NOT NULL AND NOT (status BETWEEN 300 AND 399 AND target IS NULL)",
            )?;
            let mut q = st.query([])?;
            while let Some(r) = q.next()? {
                let key: String = r.get(0)?;
                rows.push(Row {
                    h: digest(&key),
                    key,
                    status: r.get(1)?,
                    target: r.get(2)?,
                    time: r.get(3)?,
                    source: sources_by_id
                        .get(&r.get::<_, i64>(4)?)
                        .copied()
                        .unwrap_or(0),
                    offset: r.get::<_, i64>(5)? as u64,
                });
            }
        }
        rows.sort_unstable_by(|a, b| {
            (a.h, &a.time, a.source, a.offset).cmp(&(b.h, &b.time, b.source, b.offset))
        });
        let mut ev = StoreEvidence {
            sources,
            ..Default::default()
        };
        let mut tally = HostTally::default();
        let mut i = 0;
        while i < rows.len() {
            let mut j = i + 1;
            while j < rows.len() && rows[j].h == rows[i].h {
                j += 1;
            }
            let group = &mut rows[i..j];
            let best = group.len() - 1;
            let (bs, bt) = (group[best].status, group[best].target.clone());
            let disagreements = group
                .iter()
                .filter(|r| r.status != bs || r.target != bt)
                .count() as u32;
            let b = &mut group[best];
            tally.add(&b.key, b.status, b.target.as_deref());
            ev.index.insert(b.h, ev.entries.len() as u32);
            ev.entries.push(Entry {
                status: b.status,
                target: b.target.take().map(String::into_boxed_str),
                time: b.time.take().map(String::into_boxed_str),
                source: b.source,
                offset: b.offset,
                disagreements,
            });
            i = j;
        }
        ev.hosts = tally.into_map();
        Ok(ev)
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
    pub fn hosts(&self) -> &HashMap<String, Vec<HostConvention>> {
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
    fn latest(&self, key: &str) -> Option<Observed> {
        let e = &self.entries[*self.index.get(&digest(key))? as usize];
        Some(Observed {
            status: e.status,
            target: e.target.as_deref().map(str::to_owned),
            time: e.time.as_deref().map(str::to_owned),
            source: self
                .sources
                .get(e.source as usize)
                .cloned()
                .unwrap_or_default(),
            offset: e.offset,
            disagreements: if e.disagreements == 0 {
                Vec::new()
            } else {
                vec![format!(
                    "{} other observation(s) of this URL disagree (irinorm evidence why)",
                    e.disagreements
                )]
            },
        })
    }

    fn host_conventions(&self, origin: &str) -> Vec<HostConvention> {
        self.hosts.get(origin).cloned().unwrap_or_default()
    }
}
