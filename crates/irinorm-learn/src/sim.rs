//! The simulated crawl the learner is measured on: the one of
//! irinorm-frontier (`irinorm-frontier crawl`, docs/frontier.md), shared
//! with the protocol rung (issue 10). Many small sites, each with its own
//! DUST under site-specific names (session, tracking and default-valued
//! parameters, parameter order, `story?id=N` / `story_N.html`,
//! case-insensitive paths, host and `www.` aliases, index files, trailing
//! slashes, http/https) and traps (pagination, parameters that matter, a
//! parameter that is noise on one site and meaningful on another, soft-404
//! pages sharing one payload, a `www.` host that is another site,
//! case-sensitive paths, login walls); a later epoch has new pages and new
//! session values. Here its captures become learner [`Row`]s (the payload
//! digest a real SHA-1, as the WARC and its CDX indexes carry it), with the
//! true page of each URL.

use irinorm_frontier::{payload_digest, simulate, Capture, CrawlOptions};

use crate::rows::Row;

/// One observation with the page it really is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimRow {
    /// The observation.
    pub row: Row,
    /// The true page (ground truth).
    pub truth: String,
}

/// The captures of a crawl of `sites` sites with `pages` pages each (epoch
/// 0; each later epoch adds about a quarter), seeded.
pub fn captures(seed: u64, sites: usize, pages: usize, epoch: u32) -> Vec<Capture> {
    simulate(&CrawlOptions {
        sites,
        pages,
        seed,
        epoch,
    })
}

/// A capture as the row its WARC record or CDX line gives: the payload's
/// SHA-1 (base32, `sha1:`), the `Location` resolved against the URL (RFC
/// 3986 §5.2).
pub fn row_of(c: &Capture) -> Row {
    Row {
        url: c.url.clone(),
        digest: Some(format!("sha1:{}", payload_digest(c.body.as_bytes()))),
        time: Some(c.time.clone()),
        status: Some(c.status),
        location: c
            .location
            .as_deref()
            .and_then(|l| irinorm::resolve(&c.url, l).ok()),
    }
}

/// [`captures`] as rows with their true page.
pub fn crawl(seed: u64, sites: usize, pages: usize, epoch: u32) -> Vec<SimRow> {
    captures(seed, sites, pages, epoch)
        .iter()
        .map(|c| SimRow {
            row: row_of(c),
            truth: c.page.clone(),
        })
        .collect()
}

/// The URLs of a crawl with their true page (a redirect's source is the
/// page it leads to).
pub fn truth(rows: &[SimRow]) -> Vec<(String, Option<String>)> {
    rows.iter()
        .map(|s| (s.row.url.clone(), Some(s.truth.clone())))
        .collect()
}
