//! The store: schema, idempotent ingest, resume after a partial run,
//! rejects counted, latest-wins lookups, and the pywb CDX sample.

use irinorm::ladder::Options;
use irinorm::protocol::{Evidence, Protocol, ProtocolOptions};
use irinorm_archive::Format;
use irinorm_evidence::{IngestOptions, Store, StoreEvidence};

fn records(text: &str, f: Format) -> irinorm_archive::Records {
    irinorm_archive::from_reader(std::io::Cursor::new(text.as_bytes().to_vec()), Some(f)).unwrap()
}

const LOG: &str = "http://a.example/data\t301\t/data/\t20200101000000\n\
http://a.example/old\t301\t/new\t20200101000000\n\
http://a.example/x\t301\t-\t20200101000000\n\
not a url\t301\t/y\n\
http://a.example/p\tabc\t/q\n\
http://a.example/data\t200\t-\t20190101000000\n";

#[test]
fn ingest_is_idempotent_and_counts_rejects() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("e.db")).unwrap();
    let mut rejects = Vec::new();
    let opts = IngestOptions {
        batch: 2,
        strict: false,
    };
    let r = s
        .ingest_observations("log", records(LOG, Format::RedirectTsv), &opts, &mut |e| {
            rejects.push((e.offset, e.kind))
        })
        .unwrap();
    assert_eq!((r.records, r.inserted, r.present, r.rejected), (6, 4, 0, 2));
    // Line starts: 0, 48, 93, 133, 150 (counted by hand).
    assert_eq!(rejects, vec![(133, "bad-url"), (150, "bad-field")]);
    assert_eq!(s.count().unwrap(), 4);
    // Again: the source is complete, nothing is read or stored.
    let r2 = s
        .ingest_observations("log", records(LOG, Format::RedirectTsv), &opts, &mut |_| {})
        .unwrap();
    assert!(r2.already_complete);
    assert_eq!(s.count().unwrap(), 4);
    // Reopened: same.
    drop(s);
    let s = Store::open(&dir.path().join("e.db")).unwrap();
    assert_eq!(s.count().unwrap(), 4);
    // Latest wins: the 2020 301 over the 2019 200, one disagreement.
    let ev = StoreEvidence::load(&s).unwrap();
    let o = ev.latest("http://a.example/data").unwrap();
    assert_eq!(
        (o.status, o.target.as_deref()),
        (301, Some("http://a.example/data/"))
    );
    assert_eq!(o.disagreements.len(), 1);
    // The unknown target decides nothing.
    assert!(ev.latest("http://a.example/x").is_none());
    let p = Protocol::new(Options::default(), &ev, ProtocolOptions::default());
    assert_eq!(
        p.normalize("http://a.example/data").unwrap(),
        "http://a.example/data/"
    );
    assert_eq!(
        p.normalize("http://a.example/old").unwrap(),
        "http://a.example/old"
    );
}

#[test]
fn a_partial_run_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("e.db");
    let mut text = String::new();
    for i in 0..100 {
        text.push_str(&format!("http://a.example/{i}\t301\t/{i}/\n"));
    }
    let mut s = Store::open(&path).unwrap();
    // A run that stops after 3 batches of 10 (as a killed one would, minus
    // the uncommitted tail).
    let partial = records(&text, Format::RedirectTsv).take(30);
    let r = s
        .ingest_observations(
            "f",
            partial,
            &IngestOptions {
                batch: 10,
                strict: false,
            },
            &mut |_| {},
        )
        .unwrap();
    assert_eq!(r.inserted, 30);
    // `take` ended the iterator: the store thinks the source complete, so
    // mark it incomplete as a kill would have left it.
    s.conn_for_tests()
        .execute("UPDATE sources SET complete = 0", [])
        .unwrap();
    let r = s
        .ingest_observations(
            "f",
            records(&text, Format::RedirectTsv),
            &IngestOptions::default(),
            &mut |_| {},
        )
        .unwrap();
    assert!(r.resumed_after.is_some());
    assert_eq!((r.present, r.inserted), (30, 70));
    assert_eq!(s.count().unwrap(), 100);
}

#[test]
fn pywb_cdx_sample() {
    let Some(v) = irinorm_testdata::vectors_dir("pywb_cdx_sample") else {
        return;
    };
    let path = v.join("../evidence/pywb/cdx_iana.cdx");
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&dir.path().join("e.db")).unwrap();
    let recs = irinorm_archive::open(&path, None).unwrap();
    let r = s
        .ingest_observations("cdx_iana.cdx", recs, &IngestOptions::default(), &mut |e| {
            panic!("{e:?}")
        })
        .unwrap();
    // evidence/README.md: 44 captures with status 200, 4 with 302 and 123
    // revisits.
    assert_eq!(r.inserted, 171);
    let by_status = s.count_by("status", 10).unwrap();
    assert!(by_status.contains(&("200".to_owned(), 44)));
    assert!(by_status.contains(&("302".to_owned(), 4)));
    assert!(by_status.contains(&("-".to_owned(), 123)));
}

/// evidence/README.md / issue 10: a WARC and its CDX index must give the
/// same observations (URL key, time, status, digest, redirect target)
/// once stored. CDX writes `-` for a revisit's status where the WARC
/// repeats the HTTP head's, and pywb's CDX writes `-` for the redirect
/// field `r` of its 302 captures where the WARC has the `Location`: status
/// and target are compared where the CDX has them (and every other field
/// always).
#[test]
fn warc_and_cdx_pairs_store_the_same_observations() {
    let Some(ev) = irinorm_testdata::evidence_dir("warc_and_cdx_pairs") else {
        return;
    };
    type Row = (
        String,
        Option<String>,
        Option<u16>,
        Option<String>,
        Option<String>,
    );
    let rows = |file: &str| -> Vec<Row> {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::open(&dir.path().join("e.db")).unwrap();
        let recs = irinorm_archive::open(&ev.join("pywb").join(file), None).unwrap();
        s.ingest_observations(file, recs, &IngestOptions::default(), &mut |e| {
            panic!("{file}: {e:?}")
        })
        .unwrap();
        let mut st = s
            .conn_for_tests()
            .prepare("SELECT key, time, status, digest, target FROM observations")
            .unwrap();
        let mut v: Vec<Row> = st
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        v.sort();
        v
    };
    for (warc, cdx) in [
        ("warcs_iana.warc.gz", "cdx_iana.cdx"),
        ("warcs_dupes.warc.gz", "cdx_dupes.cdx"),
        ("warcs_example.warc.gz", "cdx_example.cdx"),
    ] {
        let (w, c) = (rows(warc), rows(cdx));
        assert_eq!(w.len(), c.len(), "{warc} / {cdx}");
        for (a, b) in w.iter().zip(&c) {
            let status_ok = b.2.is_none() || a.2 == b.2;
            let target_ok = b.4.is_none() || a.4 == b.4;
            assert!(
                a.0 == b.0 && a.1 == b.1 && a.3 == b.3 && target_ok && status_ok,
                "{warc} / {cdx}:\n{a:?}\n{b:?}"
            );
        }
    }
}
