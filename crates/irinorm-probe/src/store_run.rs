//! A probe run whose observations go into the evidence store, where
//! `--rung protocol` and `evidence why` use them like WARC evidence.
//!
//! Each run is one source of the store, named `probe:YYYYMMDDhhmmss:PID`
//! (its start, UTC, and the process id; `.N` is appended when a run of
//! the same second and process is already there: two runs never share a
//! source); an observation's offset is its sequence number in the run.
//! Observations are committed in small batches while the run goes on, so
//! an interrupted run keeps what it committed; URLs whose evidence was not
//! committed have none and are probed again by the next run.

use std::fmt;
use std::io;
use std::path::Path;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use irinorm_evidence::{IngestOptions, IngestReport, Reject, Store, StoreError};

use crate::run::{age, run, InputUrl, ProbeRecord, Summary};
use crate::timestamp::format14;
use crate::{ProbeConfig, Prober};

/// Observations per store transaction: small, because probing is slow and
/// an interrupted run loses at most the last uncommitted batch.
pub const STORE_BATCH: usize = 16;

/// The prefix of every probe source name.
pub const SOURCE_PREFIX: &str = "probe:";

/// What a run into a store did.
#[derive(Debug)]
pub struct StoreRun {
    /// The source name of this run in the store.
    pub source: String,
    /// The probe counts.
    pub summary: Summary,
    /// What the store took.
    pub ingest: IngestReport,
    /// Observations the store refused (never expected: their URLs are rung-2 forms).
    pub store_rejects: Vec<Reject>,
}

/// Why a run could not go on.
#[derive(Debug)]
pub enum RunError {
    /// An option is out of range, or the client could not be built.
    Config(String),
    /// The store could not be opened or written.
    Store(StoreError),
    /// `on_record` failed (a rejects file could not be written).
    Io(io::Error),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Config(m) => f.write_str(m),
            RunError::Store(e) => write!(f, "{e}"),
            RunError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Probes `inputs` into the store at `store_path` (created if needed).
/// With `max_age`, URLs that a probe run observed within it are skipped
/// (counted as `fresh`). `on_record` sees every probed or rejected line.
pub fn probe_into_store<I, R>(
    store_path: &Path,
    cfg: ProbeConfig,
    inputs: I,
    max_age: Option<Duration>,
    mut on_record: R,
) -> Result<StoreRun, RunError>
where
    I: IntoIterator<Item = InputUrl>,
    R: FnMut(&ProbeRecord) -> io::Result<()>,
{
    let mut store = Store::open(store_path).map_err(RunError::Store)?;
    let reader = match max_age {
        Some(_) => Some(Store::open(store_path).map_err(RunError::Store)?),
        None => None,
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(RunError::Io)?;
    let prober = {
        let _g = rt.enter();
        Arc::new(Prober::new(cfg).map_err(RunError::Config)?)
    };
    let start = SystemTime::now();
    // A source name never used in this store: a source already there is
    // taken as ingested and would be skipped.
    let used: std::collections::HashSet<String> = store
        .sources()
        .map_err(RunError::Store)?
        .into_iter()
        .map(|s| s.0)
        .collect();
    let stem = format!("{SOURCE_PREFIX}{}:{}", format14(start), std::process::id());
    let source = std::iter::once(stem.clone())
        .chain((1u32..).map(|n| format!("{stem}.{n}")))
        .find(|s| !used.contains(s))
        .expect("an unused name");

    let (tx, rx) = mpsc::sync_channel(1024);
    let src = source.clone();
    let ingest = std::thread::spawn(move || {
        let mut rejects = Vec::new();
        let opts = IngestOptions {
            batch: STORE_BATCH,
            strict: false,
        };
        store
            .ingest_observations(&src, rx.into_iter().map(Ok), &opts, &mut |e| {
                rejects.push(e.clone())
            })
            .map(|rep| (rep, rejects))
    });

    let is_fresh = |url: &str| -> bool {
        let (Some(r), Some(max)) = (&reader, max_age) else {
            return false;
        };
        // A store that cannot be read here only costs a second probe.
        r.observations_of(url).is_ok_and(|obs| {
            obs.iter().any(|o| {
                o.source.starts_with(SOURCE_PREFIX)
                    && o.time
                        .as_deref()
                        .and_then(|t| age(t, start))
                        .is_some_and(|a| a <= max)
            })
        })
    };
    let result = rt.block_on(run(prober, inputs, is_fresh, |rec| {
        for o in &rec.observations {
            // The store thread only stops early on a store error, which
            // the join below reports.
            if tx.send(o.clone()).is_err() {
                break;
            }
        }
        on_record(rec)
    }));
    drop(tx);
    let stored = ingest.join().expect("the store thread does not panic");
    let summary = result.map_err(RunError::Io)?;
    let (ingest, store_rejects) = stored.map_err(RunError::Store)?;
    Ok(StoreRun {
        source,
        summary,
        ingest,
        store_rejects,
    })
}
