//! A probe run over a list of URLs: rung-2 deduplication, skipping what is
//! fresh, bounded concurrency, one record per distinct URL, a summary.

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use irinorm::ladder::{Form, Key, Normalizer, Options, Rung};
use serde::Serialize;
use tokio::task::JoinSet;

use crate::failure::{kind, Failure};
use crate::prober::{Probed, Prober};
use crate::{Observation, ObservationKind};

/// The rung-2 `uri` normalizer without fragments (RFC 3986 §6.1: a fragment
/// is never part of a request), by which URLs are deduplicated and requested.
pub fn rung2() -> &'static Normalizer {
    static N: OnceLock<Normalizer> = OnceLock::new();
    N.get_or_init(|| {
        Normalizer::new(Options {
            ignore_fragment: true,
            ..Options::new(Rung::Scheme, Form::Uri)
        })
    })
}

/// One input line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InputUrl {
    /// Index of the input (file) the line comes from.
    pub source: usize,
    /// 1-based line number in its input.
    pub line: u64,
    /// Byte offset of the line's start in its (decompressed) input.
    pub offset: u64,
    /// The text of the line (without its line ending); invalid UTF-8 made
    /// U+FFFD.
    pub text: String,
    /// Byte offset of the first invalid UTF-8 sequence of the line, if
    /// any: the line is rejected (`invalid-utf8`).
    pub bad_utf8_at: Option<usize>,
}

impl InputUrl {
    /// A line from its bytes.
    pub fn from_bytes(source: usize, line: u64, offset: u64, bytes: &[u8]) -> InputUrl {
        InputUrl {
            source,
            line,
            offset,
            text: String::from_utf8_lossy(bytes).into_owned(),
            bad_utf8_at: std::str::from_utf8(bytes).err().map(|e| e.valid_up_to()),
        }
    }

    /// A line from text.
    pub fn new(line: u64, text: impl Into<String>) -> InputUrl {
        InputUrl {
            source: 0,
            line,
            offset: 0,
            text: text.into(),
            bad_utf8_at: None,
        }
    }
}

/// What became of one input line that was probed or rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeRecord {
    /// The input line.
    pub input: InputUrl,
    /// The rung-2 `uri` form requested; None when the line is not a URI/IRI.
    pub url: Option<String>,
    /// The observations (see [`Probed`]); their `offset` is the sequence
    /// number of the observation in the run.
    pub observations: Vec<Observation>,
    /// Why it failed, if it did.
    pub failure: Option<Failure>,
}

/// Counts of a run. Every input line is exactly one of `probed`,
/// `duplicates`, `fresh` or a failure before probing (`invalid-url`,
/// `unsupported-scheme` in `failures`): nothing is lost.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Input lines read.
    pub read: u64,
    /// Lines whose rung-2 form was already probed in this run.
    pub duplicates: u64,
    /// Lines skipped because their URL was probed within `--max-age`.
    pub fresh: u64,
    /// Distinct URLs probed.
    pub probed: u64,
    /// Probed URLs that redirected at least once.
    pub redirected: u64,
    /// Probed URLs that ended in a final response.
    pub answered: u64,
    /// Final statuses by class (`2xx`, `3xx`, `4xx`, `5xx`, ...).
    pub final_status: BTreeMap<String, u64>,
    /// Failures by kind (pre-probe ones included).
    pub failures: BTreeMap<&'static str, u64>,
    /// Observations recorded.
    pub observations: u64,
    /// HTTP requests sent (robots.txt included).
    pub requests: u64,
    /// robots.txt files fetched.
    pub robots_fetches: u64,
    /// `HEAD` refused and repeated as `GET`.
    pub head_fallbacks: u64,
    /// Retries (connection errors, 429, 503).
    pub retries: u64,
    /// Total wait asked before retries, in milliseconds (Retry-After or backoff).
    pub retry_wait_ms: u64,
}

impl Summary {
    /// Lines that ended in a failure.
    pub fn failed(&self) -> u64 {
        self.failures.values().sum()
    }
}

/// Probes every URL of `inputs`: each distinct rung-2 URL once, except
/// those for which `is_fresh` says they were probed recently enough.
/// `on_record` is called once per probed or rejected line, as they finish
/// (not in input order), and may fail to stop the run (a write error).
/// At most `max(4 × concurrency, 256)` URLs are in progress at once, so
/// memory stays bounded whatever the input size.
pub async fn run<I, F, R, E>(
    prober: Arc<Prober>,
    inputs: I,
    is_fresh: F,
    mut on_record: R,
) -> Result<Summary, E>
where
    I: IntoIterator<Item = InputUrl>,
    F: Fn(&str) -> bool,
    R: FnMut(&ProbeRecord) -> Result<(), E>,
{
    let mut sum = Summary::default();
    let mut seen: HashSet<Key> = HashSet::new();
    let mut tasks: JoinSet<(InputUrl, String, Probed)> = JoinSet::new();
    let max_pending = (prober.config().concurrency * 4).max(256);
    let mut seq = 0u64;
    let finish = |rec: &mut ProbeRecord, sum: &mut Summary, seq: &mut u64| {
        for o in &mut rec.observations {
            o.offset = *seq;
            *seq += 1;
        }
        sum.observations += rec.observations.len() as u64;
        if let Some(f) = &rec.failure {
            *sum.failures.entry(f.kind).or_default() += 1;
        }
        if rec.url.is_some() && rec.failure.as_ref().is_none_or(|f| !pre_probe(f.kind)) {
            sum.probed += 1;
            if rec
                .observations
                .iter()
                .any(|o| o.kind == ObservationKind::Redirect)
            {
                sum.redirected += 1;
            }
            if let Some(last) = rec
                .observations
                .last()
                .filter(|o| o.kind == ObservationKind::Response)
            {
                sum.answered += 1;
                let class = match last.status {
                    Some(s) => format!("{}xx", s / 100),
                    None => "unknown".into(),
                };
                *sum.final_status.entry(class).or_default() += 1;
            }
        }
    };
    for input in inputs {
        sum.read += 1;
        let parsed = match input.bad_utf8_at {
            Some(at) => Err(Failure::new(
                kind::INVALID_UTF8,
                &input.text,
                format!("invalid UTF-8 at byte {at}"),
            )),
            None => rung2()
                .normalize(&input.text)
                .map_err(|e| Failure::new(kind::INVALID_URL, &input.text, e.to_string()))
                .and_then(|u| {
                    // A rung-2 `uri` form parses as `URI` iff it has a scheme.
                    irinorm::parse(&u, irinorm::Grammar::Uri)
                        .map(|_| u.into_owned())
                        .map_err(|_| {
                            Failure::new(
                                kind::INVALID_URL,
                                &input.text,
                                "a relative reference: probing needs an absolute http(s) URL",
                            )
                        })
                }),
        };
        let url = match parsed {
            Ok(u) => u,
            Err(f) => {
                let mut rec = ProbeRecord {
                    failure: Some(f),
                    input,
                    url: None,
                    observations: Vec::new(),
                };
                finish(&mut rec, &mut sum, &mut seq);
                on_record(&rec)?;
                continue;
            }
        };
        if !crate::prober::is_http_target(&url) {
            let http = url.starts_with("http:") || url.starts_with("https:");
            let mut rec = ProbeRecord {
                failure: Some(if http {
                    Failure::new(
                        kind::INVALID_URL,
                        &url,
                        "an http(s) URI without a host (RFC 9110 §4.2.1)",
                    )
                } else {
                    Failure::new(
                        kind::UNSUPPORTED_SCHEME,
                        &url,
                        "only http and https are probed",
                    )
                }),
                input,
                url: Some(url),
                observations: Vec::new(),
            };
            finish(&mut rec, &mut sum, &mut seq);
            on_record(&rec)?;
            continue;
        }
        if !seen.insert(Key::of(&url)) {
            sum.duplicates += 1;
            continue;
        }
        if is_fresh(&url) {
            sum.fresh += 1;
            continue;
        }
        while tasks.len() >= max_pending {
            let done = tasks.join_next().await.expect("tasks is not empty");
            let mut rec = record(done);
            finish(&mut rec, &mut sum, &mut seq);
            on_record(&rec)?;
        }
        let p = Arc::clone(&prober);
        tasks.spawn(async move {
            let probed = p.probe(&url).await;
            (input, url, probed)
        });
    }
    while let Some(done) = tasks.join_next().await {
        let mut rec = record(done);
        finish(&mut rec, &mut sum, &mut seq);
        on_record(&rec)?;
    }
    let c = &prober.counters;
    sum.requests = c.requests.load(Ordering::Relaxed);
    sum.robots_fetches = c.robots_fetches.load(Ordering::Relaxed);
    sum.head_fallbacks = c.head_fallbacks.load(Ordering::Relaxed);
    sum.retries = c.retries.load(Ordering::Relaxed);
    sum.retry_wait_ms = c.retry_wait_ms.load(Ordering::Relaxed);
    Ok(sum)
}

/// Kinds decided before any request.
fn pre_probe(k: &str) -> bool {
    k == kind::INVALID_URL || k == kind::INVALID_UTF8 || k == kind::UNSUPPORTED_SCHEME
}

fn record(done: Result<(InputUrl, String, Probed), tokio::task::JoinError>) -> ProbeRecord {
    match done {
        Ok((input, url, p)) => ProbeRecord {
            input,
            url: Some(url),
            observations: p.observations,
            failure: p.failure,
        },
        // A probe task never panics by design; if one did, the panic is
        // re-raised rather than the URL silently dropped.
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

/// How long ago a 14-digit timestamp was, for `--max-age`; None when
/// malformed or in the future.
pub fn age(time14: &str, now: std::time::SystemTime) -> Option<Duration> {
    now.duration_since(crate::timestamp::parse14(time14)?).ok()
}
