//! The simulated crawl written as crawl files reads back, through the
//! `irinorm-archive` readers, into exactly the captures simulated: the
//! WARC, its CDX and its CDXJ give the same (kind, URL, time, status,
//! redirect target, digest) set, every index line points at its WARC
//! record, and the truth file has one line per URL.

use std::collections::BTreeSet;
use std::path::Path;

use irinorm_archive::{open, Observation, ObservationKind};
use irinorm_frontier::{payload_digest, simulate, write_crawl, CrawlOptions, Rung3, TRUTH_HEADER};

type Key = (String, String, Option<u16>, Option<String>, String);

fn read(p: &Path) -> Vec<Observation> {
    let mut recs = open(p, None).unwrap();
    let obs: Vec<_> = recs
        .by_ref()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let c = recs.counts();
    assert_eq!(c.bad, 0);
    obs
}

/// A revisit's status is left out (CDX writes `-`).
fn key(o: &Observation) -> Key {
    (
        o.url.clone(),
        o.time.clone().unwrap(),
        if o.kind == ObservationKind::Revisit {
            None
        } else {
            o.status
        },
        o.location.clone(),
        o.digest.clone().unwrap(),
    )
}

#[test]
fn written_files_read_back_into_the_simulated_captures() {
    let dir = tempfile::tempdir().unwrap();
    for epoch in [0, 1] {
        let opts = CrawlOptions {
            sites: 12,
            pages: 15,
            seed: 7,
            epoch,
        };
        let caps = simulate(&opts);
        let prefix = format!("c{epoch}");
        let files = write_crawl(&caps, dir.path(), &prefix).unwrap();
        // What was simulated, as the readers should see it.
        let want: BTreeSet<Key> = caps
            .iter()
            .map(|c| {
                (
                    c.url.clone(),
                    c.time.clone(),
                    Some(c.status),
                    c.location
                        .as_deref()
                        .map(|l| irinorm::resolve(&c.url, l).unwrap()),
                    format!("sha1:{}", payload_digest(c.body.as_bytes())),
                )
            })
            .collect();
        let warc = read(&files.warc);
        let cdx = read(&files.cdx);
        let cdxj = read(&files.cdxj);
        assert_eq!(warc.len(), caps.len());
        assert_eq!((cdx.len(), cdxj.len()), (caps.len(), caps.len()));
        let revisits = warc
            .iter()
            .filter(|o| o.kind == ObservationKind::Revisit)
            .count();
        assert_eq!(revisits, files.revisits);
        assert!(revisits > 10, "{revisits}");
        for o in &warc {
            if o.kind == ObservationKind::Revisit {
                assert!(o.refers_to.is_some());
            }
        }
        let as_set = |v: &[Observation]| v.iter().map(key).collect::<BTreeSet<Key>>();
        let want_no_revisit_status: BTreeSet<Key> = want
            .iter()
            .map(|k| {
                let revisit = warc.iter().any(|o| {
                    o.kind == ObservationKind::Revisit
                        && o.url == k.0
                        && o.time.as_deref() == Some(&k.1)
                });
                let mut k = k.clone();
                if revisit {
                    k.2 = None;
                }
                k
            })
            .collect();
        assert_eq!(as_set(&warc), want_no_revisit_status, "WARC");
        assert_eq!(as_set(&cdx), want_no_revisit_status, "CDX");
        assert_eq!(as_set(&cdxj), want_no_revisit_status, "CDXJ");
        // Every CDX line's V field is the offset of its WARC record.
        let text = std::fs::read_to_string(&files.cdx).unwrap();
        let offsets: BTreeSet<(String, u64)> = text
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split(' ').collect();
                (f[2].to_owned(), f[9].parse().unwrap())
            })
            .collect();
        let warc_offsets: BTreeSet<(String, u64)> =
            warc.iter().map(|o| (o.url.clone(), o.offset)).collect();
        assert_eq!(offsets, warc_offsets);
        // The truth file: a header, then one line per URL.
        let truth = std::fs::read_to_string(&files.truth).unwrap();
        let mut lines = truth.lines();
        assert_eq!(lines.next(), Some(TRUTH_HEADER));
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
        assert_eq!(rows.len(), caps.len());
        assert!(rows.iter().all(|r| r.len() == 6));
        for class in [
            "canonical",
            "protocol",
            "permanent",
            "all",
            "learn",
            "distinct",
        ] {
            assert!(rows.iter().any(|r| r[3] == class), "no {class}");
        }
        let canonical = caps.iter().filter(|c| c.rung3 == Rung3::Canonical).count();
        assert!(canonical >= 12 * 15);
    }
}

#[test]
fn the_cli_writes_the_same_files_for_the_same_seed() {
    let dir = tempfile::tempdir().unwrap();
    let run = |sub: &str| {
        let args = irinorm_frontier::cli::CrawlArgs {
            sites: 5,
            pages: 8,
            seed: 3,
            epoch: 2,
            out: dir.path().join(sub),
            prefix: None,
        };
        let mut log = Vec::new();
        irinorm_frontier::cli::run_crawl(&args, &mut log).unwrap();
        assert!(String::from_utf8(log).unwrap().contains("rung3: "));
        args.out
    };
    let (a, b) = (run("a"), run("b"));
    for f in ["warc.gz", "cdx", "cdxj", "truth.tsv"] {
        let name = format!("crawl-s3-e2.{f}");
        let x = std::fs::read(a.join(&name)).unwrap();
        assert!(!x.is_empty());
        assert_eq!(x, std::fs::read(b.join(&name)).unwrap(), "{name}");
    }
}
