//! The evidence store: one SQLite file (docs/evidence.md, "Store").
//!
//! Observations are identified by (source, byte offset): ingesting the
//! same file twice inserts nothing the second time. Ingestion commits in
//! batches and records, in the same transaction, how far the source was
//! committed, so a process killed mid-file leaves every committed batch and
//! a later run resumes after it (SQLite's journal makes each transaction
//! all or nothing; WAL mode lets readers go on meanwhile).

use std::path::Path;

use irinorm::protocol::evidence_key;
use rusqlite::{params, Connection, OptionalExtension};

use irinorm_archive::{Observation, ObservationKind, RecordError};

/// The schema version this crate writes and reads (`meta.schema_version`).
/// Version 2 added the `meta` rows `store_id` and `generation` (the stamp
/// of the materialized lookups, docs/evidence.md "Lookups"); a version-1
/// store is migrated when opened (same tables, two rows added).
pub const SCHEMA_VERSION: u32 = 2;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta(
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sources(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    committed_offset INTEGER NOT NULL DEFAULT -1,
    complete INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS observations(
    source INTEGER NOT NULL REFERENCES sources(id),
    offset INTEGER NOT NULL,
    kind TEXT NOT NULL,
    key_hash INTEGER NOT NULL,
    key TEXT NOT NULL,
    host TEXT,
    url TEXT,
    time TEXT,
    status INTEGER,
    target TEXT,
    location TEXT,
    digest TEXT,
    mime TEXT,
    refers_to TEXT,
    PRIMARY KEY(source, offset)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS observations_key ON observations(key_hash);
";

/// A bad record as ingestion reports it: a reader's bad record, or an
/// observation whose URL does not parse (`bad-url`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reject {
    /// Byte offset of the record in its source.
    pub offset: u64,
    /// 1-based line, for line formats.
    pub line: Option<u64>,
    /// Stable kebab-case kind.
    pub kind: &'static str,
    /// What is wrong.
    pub message: String,
}

impl From<&RecordError> for Reject {
    fn from(e: &RecordError) -> Self {
        Reject {
            offset: e.offset,
            line: e.line,
            kind: e.kind.name(),
            message: e.message.clone(),
        }
    }
}

/// An error of the store itself (not of a record).
#[derive(Debug)]
pub struct StoreError(pub String);

impl core::fmt::Display for StoreError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::types::FromSqlError> for StoreError {
    fn from(e: rusqlite::types::FromSqlError) -> Self {
        StoreError(format!("evidence store: unexpected column type: {e}"))
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(format!("evidence store: {e}"))
    }
}

/// How to ingest.
#[derive(Clone, Copy, Debug)]
pub struct IngestOptions {
    /// Observations per transaction.
    pub batch: usize,
    /// Stop at the first bad record.
    pub strict: bool,
}

impl Default for IngestOptions {
    fn default() -> Self {
        IngestOptions {
            batch: 20_000,
            strict: false,
        }
    }
}

/// What one ingestion of one source did. `records == inserted + present +
/// rejected`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IngestReport {
    /// Records read (good and bad), fatal error excluded.
    pub records: u64,
    /// New observations stored.
    pub inserted: u64,
    /// Observations already in the store (same source and offset).
    pub present: u64,
    /// Bad records (reported through the callback).
    pub rejected: u64,
    /// The source was already complete: nothing was read.
    pub already_complete: bool,
    /// Where the previous run had committed to (resume point), if any.
    pub resumed_after: Option<u64>,
    /// The error that ended the file early.
    pub fatal: Option<RecordError>,
    /// Stopped at the first bad record (`strict`).
    pub stopped: bool,
}

/// One stored observation, as `why` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    /// Source name.
    pub source: String,
    /// Byte offset in the source.
    pub offset: u64,
    /// Record kind.
    pub kind: ObservationKind,
    /// Rung-2 key.
    pub key: String,
    /// Original URL text.
    pub url: String,
    /// Timestamp.
    pub time: Option<String>,
    /// HTTP status.
    pub status: Option<u16>,
    /// Rung-2 key of the redirect target.
    pub target: Option<String>,
    /// Location as recorded.
    pub location: Option<String>,
    /// Payload digest.
    pub digest: Option<String>,
}

/// A redirect for the learner: source key, status, target key, time.
pub type RedirectRow = (String, u16, Option<String>, Option<String>);

/// The store.
#[derive(Debug)]
pub struct Store {
    pub(crate) conn: Connection,
}

/// The stored name of a kind (`observations.kind`).
pub fn kind_name(k: ObservationKind) -> &'static str {
    match k {
        ObservationKind::Response => "response",
        ObservationKind::Revisit => "revisit",
        ObservationKind::Redirect => "redirect",
        ObservationKind::Digest => "digest",
    }
}

fn kind_from_name(s: &str) -> ObservationKind {
    match s {
        "revisit" => ObservationKind::Revisit,
        "redirect" => ObservationKind::Redirect,
        "digest" => ObservationKind::Digest,
        _ => ObservationKind::Response,
    }
}

/// The indexed 64-bit hash of a key (xxh3-64, as SQLite's signed
/// integer): an 8-byte index entry instead of the URL. Lookups compare the
/// key text too, so a collision costs a row read, never a wrong answer.
pub fn key_hash(key: &str) -> i64 {
    xxhash_rust::xxh3::xxh3_64(key.as_bytes()) as i64
}

/// Which store, at which generation: what materialized lookups
/// (`crate::mapped`) are valid for. The generation is raised by every
/// ingest transaction, in that transaction, so a committed change to the
/// observations always changes the stamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// Random at creation (`meta.store_id`): a store deleted and made
    /// again is another store even at the same generation.
    pub store_id: u128,
    /// `meta.generation`.
    pub generation: u64,
}

/// A 128-bit id for a new store: not cryptographic, only distinct from
/// the id of another store made at another moment, in another process or
/// at another path.
fn new_store_id(path: &Path) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let seed = format!("{now}/{}/{}", std::process::id(), path.display());
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(seed.as_bytes()))
}

/// The host of a rung-2 key (for stats and the learner).
pub fn host_of(key: &str) -> Option<&str> {
    let m = irinorm::split_trusted(key);
    m.host(key)
}

impl Store {
    /// Opens (creating if needed) the store at `path`: WAL mode, schema
    /// checked. A file of another schema version is refused.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn =
            Connection::open(path).map_err(|e| StoreError(format!("{}: {e}", path.display())))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // NORMAL in WAL mode: a committed transaction survives a killed
        // process (only a power loss can lose the last ones).
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        // 64 MiB of page cache: the key index is inserted in random order,
        // and a cache miss per insert would halve ingest speed.
        conn.pragma_update(None, "cache_size", -65536)?;
        // Checkpoint (and fsync) every 64 MiB of WAL rather than 4 MiB.
        conn.pragma_update(None, "wal_autocheckpoint", 16384)?;
        let has_meta: bool = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)?;
        if has_meta {
            let v: Option<String> = conn
                .query_row(
                    "SELECT value FROM meta WHERE name='schema_version'",
                    [],
                    |r| r.get(0),
                )
                .optional()?;
            if v.as_deref() == Some("1") {
                // Version 1 -> 2: the tables are the same; the stamp rows
                // are added below and the version raised.
                conn.execute(
                    "UPDATE meta SET value = ?1 WHERE name = 'schema_version'",
                    [SCHEMA_VERSION.to_string()],
                )?;
            } else if v.as_deref() != Some(&SCHEMA_VERSION.to_string()) {
                return Err(StoreError(format!(
                    "{}: schema version {} (this irinorm reads {SCHEMA_VERSION})",
                    path.display(),
                    v.as_deref().unwrap_or("unknown")
                )));
            }
        } else {
            let tables: i64 =
                conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
            if tables > 0 {
                return Err(StoreError(format!(
                    "{}: an SQLite file that is not an irinorm evidence store",
                    path.display()
                )));
            }
        }
        conn.execute_batch(SCHEMA)?;
        conn.execute(
            "INSERT OR IGNORE INTO meta(name, value) VALUES ('schema_version', ?1), ('key', 'rung-2 uri form without fragment')",
            [SCHEMA_VERSION.to_string()],
        )?;
        conn.execute(
            "INSERT OR IGNORE INTO meta(name, value) VALUES ('store_id', ?1), ('generation', '0')",
            [new_store_id(path)],
        )?;
        Ok(Store { conn })
    }

    /// The store's [`Stamp`]: which store, at which generation. Read in
    /// the caller's transaction, if any.
    pub fn stamp(&self) -> Result<Stamp, StoreError> {
        let get = |name: &str| -> Result<String, StoreError> {
            Ok(self
                .conn
                .query_row("SELECT value FROM meta WHERE name = ?1", [name], |r| {
                    r.get::<_, String>(0)
                })?)
        };
        let id = get("store_id")?;
        let generation = get("generation")?
            .parse()
            .map_err(|_| StoreError("evidence store: meta.generation is not a number".into()))?;
        Ok(Stamp {
            store_id: u128::from_str_radix(&id, 16).map_err(|_| {
                StoreError("evidence store: meta.store_id is not a 128-bit hex number".into())
            })?,
            generation,
        })
    }

    fn source_id(&self, source: &str) -> Result<(i64, i64, bool), StoreError> {
        self.conn
            .execute("INSERT OR IGNORE INTO sources(name) VALUES (?1)", [source])?;
        Ok(self.conn.query_row(
            "SELECT id, committed_offset, complete FROM sources WHERE name = ?1",
            [source],
            |r| Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? != 0)),
        )?)
    }

    /// Ingests the observations of one source, in batches. Bad records go
    /// to `on_reject` and are counted; a fatal one ends the source (in
    /// [`IngestReport::fatal`]) after committing what came before it. A
    /// source ingested completely before is not read again.
    pub fn ingest_observations<I>(
        &mut self,
        source: &str,
        iter: I,
        opts: &IngestOptions,
        on_reject: &mut dyn FnMut(&Reject),
    ) -> Result<IngestReport, StoreError>
    where
        I: IntoIterator<Item = Result<Observation, RecordError>>,
    {
        let (id, committed, complete) = self.source_id(source)?;
        let mut rep = IngestReport {
            already_complete: complete,
            resumed_after: (committed >= 0).then_some(committed as u64),
            ..Default::default()
        };
        if complete {
            return Ok(rep);
        }
        // Bulk load into an empty store: the key index is built once at
        // the end (one sort instead of a random B-tree insert per row), and
        // commits skip fsync (synchronous = OFF: a killed process still
        // leaves every committed batch, SQLite's WAL guarantees that; only
        // an OS crash or power loss during the load could damage the
        // store, which was empty). The index and NORMAL come back at the
        // end, even on error, and `Store::open` makes the index again
        // after a kill (`CREATE INDEX IF NOT EXISTS`).
        let bulk = !self
            .conn
            .query_row("SELECT EXISTS(SELECT 1 FROM observations)", [], |r| {
                r.get::<_, bool>(0)
            })?;
        if bulk {
            self.conn.pragma_update(None, "synchronous", "OFF")?;
            self.conn
                .execute_batch("DROP INDEX IF EXISTS observations_key")?;
        }
        let result = self.ingest_batches(id, committed, iter, opts, on_reject, &mut rep);
        if bulk {
            let end = self
                .conn
                .execute_batch(
                    "CREATE INDEX IF NOT EXISTS observations_key ON observations(key_hash)",
                )
                .and_then(|()| self.conn.pragma_update(None, "synchronous", "NORMAL"))
                // Everything into the database file, synced, and the WAL
                // emptied.
                .and_then(|()| {
                    self.conn
                        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
                });
            result?;
            end?;
        } else {
            result?;
        }
        Ok(rep)
    }

    /// The batches of [`Store::ingest_observations`].
    fn ingest_batches<I>(
        &mut self,
        id: i64,
        committed: i64,
        iter: I,
        opts: &IngestOptions,
        on_reject: &mut dyn FnMut(&Reject),
        rep: &mut IngestReport,
    ) -> Result<(), StoreError>
    where
        I: IntoIterator<Item = Result<Observation, RecordError>>,
    {
        let batch = opts.batch.max(1);
        let mut it = iter.into_iter();
        let mut done = false;
        while !done {
            let tx = self.conn.transaction()?;
            let inserted_before = rep.inserted;
            let mut last: Option<u64> = None;
            {
                let mut ins = tx.prepare_cached(
                    "INSERT OR IGNORE INTO observations(source, offset, kind, key_hash, key, host, url, time, status, target, location, digest, mime, refers_to) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                )?;
                let mut n = 0;
                while n < batch {
                    let Some(r) = it.next() else {
                        done = true;
                        break;
                    };
                    let o = match r {
                        Ok(o) => o,
                        Err(e) if e.fatal => {
                            rep.fatal = Some(e);
                            done = true;
                            break;
                        }
                        Err(e) => {
                            rep.records += 1;
                            rep.rejected += 1;
                            on_reject(&Reject::from(&e));
                            if opts.strict {
                                rep.stopped = true;
                                done = true;
                                break;
                            }
                            continue;
                        }
                    };
                    rep.records += 1;
                    last = Some(o.offset);
                    if committed >= 0 && o.offset <= committed as u64 {
                        rep.present += 1;
                        continue;
                    }
                    let key = match evidence_key(&o.url) {
                        Ok(k) => k,
                        Err(e) => {
                            rep.rejected += 1;
                            on_reject(&Reject {
                                offset: o.offset,
                                line: o.line,
                                kind: "bad-url",
                                message: format!("{:?}: {e}", o.url),
                            });
                            if opts.strict {
                                rep.stopped = true;
                                done = true;
                                break;
                            }
                            continue;
                        }
                    };
                    let target = o.location.as_deref().and_then(|l| evidence_key(l).ok());
                    // The original text only when it differs from the key
                    // (most URLs are already normal): bytes per observation.
                    let url = (o.url != key).then_some(o.url.as_str());
                    let changed = ins.execute(params![
                        id,
                        o.offset as i64,
                        kind_name(o.kind),
                        key_hash(&key),
                        key,
                        host_of(&key),
                        url,
                        o.time,
                        o.status,
                        target,
                        o.location_raw,
                        o.digest,
                        o.mime,
                        o.refers_to,
                    ])?;
                    if changed == 1 {
                        rep.inserted += 1;
                    } else {
                        rep.present += 1;
                    }
                    n += 1;
                }
            }
            // Any committed change invalidates materialized lookups.
            if rep.inserted > inserted_before {
                tx.execute(
                    "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE name = 'generation'",
                    [],
                )?;
            }
            if let Some(l) = last {
                tx.execute(
                    "UPDATE sources SET committed_offset = max(committed_offset, ?2) WHERE id = ?1",
                    params![id, l as i64],
                )?;
            }
            if done && rep.fatal.is_none() && !rep.stopped {
                tx.execute("UPDATE sources SET complete = 1 WHERE id = ?1", [id])?;
            }
            tx.commit()?;
        }
        Ok(())
    }

    /// Every observation whose key is `key`, by time.
    pub fn observations_of(&self, key: &str) -> Result<Vec<Stored>, StoreError> {
        self.select(
            &format!("o.key_hash = {} AND o.key = ?1", key_hash(key)),
            key,
        )
    }

    /// Every redirect whose target is `key`, by time.
    pub fn redirects_to(&self, key: &str) -> Result<Vec<Stored>, StoreError> {
        self.select("o.target = ?1", key)
    }

    fn select(&self, cond: &str, arg: &str) -> Result<Vec<Stored>, StoreError> {
        let sql = format!(
            "SELECT s.name, o.offset, o.kind, o.key, coalesce(o.url, o.key), o.time, o.status, o.target, o.location, o.digest FROM observations o JOIN sources s ON s.id = o.source WHERE {cond} ORDER BY o.time, s.name, o.offset"
        );
        let mut st = self.conn.prepare(&sql)?;
        let rows = st.query_map([arg], |r| {
            Ok(Stored {
                source: r.get(0)?,
                offset: r.get::<_, i64>(1)? as u64,
                kind: kind_from_name(&r.get::<_, String>(2)?),
                key: r.get(3)?,
                url: r.get(4)?,
                time: r.get(5)?,
                status: r.get(6)?,
                target: r.get(7)?,
                location: r.get(8)?,
                digest: r.get(9)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every (key, digest, time) of a host: content evidence for the
    /// learner.
    pub fn digests_of_host(
        &self,
        host: &str,
    ) -> Result<Vec<(String, String, Option<String>)>, StoreError> {
        let mut st = self.conn.prepare(
            "SELECT key, digest, time FROM observations WHERE host = ?1 AND digest IS NOT NULL ORDER BY key, time",
        )?;
        let rows = st.query_map([host], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every redirect (source key, status, target key, time), by source
    /// key and time: redirect evidence for the learner.
    pub fn redirects(&self) -> Result<Vec<RedirectRow>, StoreError> {
        let mut st = self.conn.prepare(
            "SELECT key, status, target, time FROM observations WHERE status BETWEEN 300 AND 399 ORDER BY key, time",
        )?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The connection, for tests that simulate damage.
    #[doc(hidden)]
    pub fn conn_for_tests(&self) -> &Connection {
        &self.conn
    }

    /// Number of observations.
    pub fn count(&self) -> Result<u64, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM observations", [], |r| {
                r.get::<_, i64>(0)
            })? as u64)
    }

    /// Sources: name, committed offset, complete.
    pub fn sources(&self) -> Result<Vec<(String, Option<u64>, bool)>, StoreError> {
        let mut st = self
            .conn
            .prepare("SELECT name, committed_offset, complete FROM sources ORDER BY name")?;
        let rows = st.query_map([], |r| {
            let c: i64 = r.get(1)?;
            Ok((
                r.get(0)?,
                (c >= 0).then_some(c as u64),
                r.get::<_, i64>(2)? != 0,
            ))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Counts grouped by a column (`kind`, `status`, `host`), largest
    /// first, at most `limit`.
    pub fn count_by(&self, column: &str, limit: usize) -> Result<Vec<(String, u64)>, StoreError> {
        let col = match column {
            "kind" | "status" | "host" => column,
            _ => return Err(StoreError(format!("no count by {column}"))),
        };
        let sql = format!(
            "SELECT coalesce({col}, '-'), count(*) FROM observations GROUP BY {col} ORDER BY count(*) DESC, 1 LIMIT ?1"
        );
        let mut st = self.conn.prepare(&sql)?;
        let rows = st.query_map([limit as i64], |r| {
            let v: rusqlite::types::Value = r.get(0)?;
            let s = match v {
                rusqlite::types::Value::Integer(i) => i.to_string(),
                rusqlite::types::Value::Text(t) => t,
                _ => "-".to_owned(),
            };
            Ok((s, r.get::<_, i64>(1)? as u64))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
