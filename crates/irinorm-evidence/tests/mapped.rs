//! The lookup file (`MappedEvidence`) against the lookups loaded from the
//! store (`StoreEvidence`): the same answer for every key, origin and
//! rung-3 chain, on the simulated crawl (two epochs, so that later
//! observations overrule earlier ones) and on `../shared/evidence`; and a
//! file that no longer matches its store is never used.

use std::path::Path;

use irinorm::ladder::Options;
use irinorm::protocol::{origin, Evidence, Protocol, ProtocolOptions, RedirectPolicy};
use irinorm_evidence::mapped::{write, Unusable};
use irinorm_evidence::{
    lookup_path, open_lookups, IngestOptions, Lookups, MappedEvidence, Store, StoreEvidence,
};

fn ingest(s: &mut Store, path: &Path) {
    // Unreadable files (warcio's truncated samples) are the store's
    // business, not this test's: what they yield is ingested.
    let Ok(recs) = irinorm_archive::open(path, None) else {
        return;
    };
    s.ingest_observations(
        &path.display().to_string(),
        recs,
        &IngestOptions::default(),
        &mut |_| {},
    )
    .unwrap();
}

/// Every key and target of the store, and spellings around them that
/// rung 3 may meet: with and without a trailing slash, http and https,
/// `www.` added, and a path nobody observed on the same origin.
fn probes(s: &Store) -> Vec<String> {
    let mut st = s
        .conn_for_tests()
        .prepare("SELECT key FROM observations UNION SELECT target FROM observations WHERE target IS NOT NULL")
        .unwrap();
    let keys: Vec<String> = st
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut out = Vec::new();
    for k in keys {
        out.push(format!("{k}/"));
        out.push(k.replacen("http://", "https://", 1));
        out.push(k.replacen("://", "://www.", 1));
        if let Some(o) = origin(&k) {
            out.push(format!("{o}/never-observed"));
            out.push(format!("{o}/never-observed/"));
        }
        if let Some(stripped) = k.strip_suffix('/') {
            out.push(stripped.to_owned());
        }
        out.push(k);
    }
    out.sort();
    out.dedup();
    out
}

/// Both lookups answer alike for every probe; returns how many probes had
/// an observation (so that the caller can check the test saw evidence).
fn same_answers(s: &Store, db: &Path) -> usize {
    let loaded = StoreEvidence::load(s).unwrap();
    let (ev, stamp) = StoreEvidence::load_stamped(s).unwrap();
    write(&ev, stamp, &lookup_path(db)).unwrap();
    let mapped = MappedEvidence::open(&lookup_path(db), stamp).unwrap();
    assert_eq!(mapped.len(), loaded.len());
    assert_eq!(mapped.origins(), loaded.hosts().len());
    let mut seen = 0;
    let probes = probes(s);
    for k in &probes {
        let (a, b) = (loaded.latest(k), mapped.latest(k));
        assert_eq!(a, b, "latest({k})");
        let o = origin(k);
        let (ha, hb) = o.map_or((vec![], vec![]), |o| {
            (loaded.host_conventions(o), mapped.host_conventions(o))
        });
        assert_eq!(ha, hb, "host_conventions of {k}");
        // The prefilter never hides evidence.
        if a.is_some() || !ha.is_empty() {
            assert!(mapped.may_have(k, o), "may_have({k})");
            seen += 1;
        }
    }
    for redirects in RedirectPolicy::ALL {
        for min_host_support in [0, 1, 3] {
            let popts = ProtocolOptions {
                redirects,
                min_host_support,
            };
            let pa = Protocol::new(Options::default(), &loaded, popts);
            let pb = Protocol::new(Options::default(), &mapped, popts);
            for k in &probes {
                assert_eq!(pa.chain(k), pb.chain(k), "chain of {k} ({popts:?})");
                assert_eq!(pa.normalize(k), pb.normalize(k), "{k} ({popts:?})");
                assert_eq!(pa.key(k), pb.key(k), "{k} ({popts:?})");
                // The normal form (keys only) ends where the chain (every
                // hop and record) ends.
                assert_eq!(pb.normalize(k).unwrap(), pb.chain(k).unwrap().end, "{k}");
            }
        }
    }
    seen
}

#[test]
fn the_lookup_file_answers_as_the_store_on_the_simulated_crawl() {
    use irinorm_frontier::{simulate, write_crawl, CrawlOptions};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("e.db");
    let mut s = Store::open(&db).unwrap();
    for epoch in [0, 1] {
        let caps = simulate(&CrawlOptions {
            sites: 30,
            pages: 20,
            seed: 7,
            epoch,
        });
        let files = write_crawl(&caps, dir.path(), &format!("c{epoch}")).unwrap();
        ingest(&mut s, &files.warc);
        ingest(&mut s, &files.cdxj);
    }
    let seen = same_answers(&s, &db);
    assert!(seen > 500, "only {seen} probes with evidence");
}

#[test]
fn the_lookup_file_answers_as_the_store_on_shared_evidence() {
    let Some(ev) = irinorm_testdata::evidence_dir("lookup file on ../shared/evidence") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("e.db");
    let mut s = Store::open(&db).unwrap();
    for sub in ["pywb", "warcio"] {
        let mut files: Vec<_> = std::fs::read_dir(ev.join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files {
            ingest(&mut s, &f);
        }
    }
    let seen = same_answers(&s, &db);
    assert!(seen > 50, "only {seen} probes with evidence");
}

#[test]
fn a_lookup_file_is_used_only_for_its_store_and_generation() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("e.db");
    let log = dir.path().join("a.tsv");
    std::fs::write(&log, "http://a.example/d\t301\t/d/\t20200101000000\n").unwrap();
    let mut s = Store::open(&db).unwrap();
    ingest(&mut s, &log);
    // First use: loaded from the store, the file written.
    let (l, note) = open_lookups(&s, &db).unwrap();
    assert!(matches!(l, Lookups::Loaded(_)), "{note}");
    assert!(note.contains("lookups written"), "{note}");
    // Second: mapped.
    let (l, note) = open_lookups(&s, &db).unwrap();
    assert!(matches!(l, Lookups::Mapped(_)), "{note}");
    assert_eq!(
        l.latest("http://a.example/d").unwrap().target.as_deref(),
        Some("http://a.example/d/")
    );
    // Another ingest raises the generation: the file is stale.
    let old = s.stamp().unwrap();
    let log2 = dir.path().join("b.tsv");
    std::fs::write(&log2, "http://a.example/d\t200\t-\t20210101000000\n").unwrap();
    ingest(&mut s, &log2);
    let new = s.stamp().unwrap();
    assert_eq!(new.store_id, old.store_id);
    assert!(new.generation > old.generation);
    assert!(matches!(
        MappedEvidence::open(&lookup_path(&db), new),
        Err(Unusable::Stale(_))
    ));
    let (l, _) = open_lookups(&s, &db).unwrap();
    assert!(matches!(l, Lookups::Loaded(_)));
    assert_eq!(l.latest("http://a.example/d").unwrap().status, 200);
    let (l, _) = open_lookups(&s, &db).unwrap();
    assert!(matches!(l, Lookups::Mapped(_)));
    assert_eq!(l.latest("http://a.example/d").unwrap().status, 200);
    // Ingesting a complete source again changes nothing: same stamp.
    ingest(&mut s, &log2);
    assert_eq!(s.stamp().unwrap(), new);
    // A store made again at the same path is another store, even at the
    // same generation.
    drop(s);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    let mut s = Store::open(&db).unwrap();
    ingest(&mut s, &log);
    ingest(&mut s, &log2);
    assert_ne!(s.stamp().unwrap().store_id, new.store_id);
    assert!(matches!(
        MappedEvidence::open(&lookup_path(&db), s.stamp().unwrap()),
        Err(Unusable::Stale(_))
    ));
    // A file cut short is not used.
    let (_, _) = open_lookups(&s, &db).unwrap();
    let bytes = std::fs::read(lookup_path(&db)).unwrap();
    std::fs::write(lookup_path(&db), &bytes[..bytes.len() - 1]).unwrap();
    assert!(matches!(
        MappedEvidence::open(&lookup_path(&db), s.stamp().unwrap()),
        Err(Unusable::Stale(_))
    ));
}

#[test]
fn a_lookup_file_that_cannot_be_written_leaves_the_lookups_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("e.db");
    let log = dir.path().join("a.tsv");
    std::fs::write(&log, "http://a.example/d\t301\t/d/\t20200101000000\n").unwrap();
    let mut s = Store::open(&db).unwrap();
    ingest(&mut s, &log);
    // A directory where the file would go: the rename fails (even as root).
    std::fs::create_dir(lookup_path(&db)).unwrap();
    std::fs::write(lookup_path(&db).join("x"), "").unwrap();
    let (l, note) = open_lookups(&s, &db).unwrap();
    assert!(matches!(l, Lookups::Loaded(_)));
    assert!(note.contains("could not write"), "{note}");
    assert_eq!(l.latest("http://a.example/d").unwrap().status, 301);
    // No temporary file left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(".tmp."))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A damaged lookup file never crashes a run: every byte of a small file
/// flipped in turn, and every truncation, is either refused at open or
/// answered (maybe wrongly: a flipped bit inside is not detected,
/// docs/evidence.md) without a panic or an out-of-bounds read.
#[test]
fn a_damaged_lookup_file_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("e.db");
    let log = dir.path().join("a.tsv");
    let mut text = String::new();
    for i in 0..6 {
        text.push_str(&format!(
            "http://a.example/{i}\t301\t/{i}/\t2020010100000{i}\n"
        ));
    }
    text.push_str("urn:x:y\t200\t-\n");
    std::fs::write(&log, text).unwrap();
    let mut s = Store::open(&db).unwrap();
    ingest(&mut s, &log);
    let (ev, stamp) = StoreEvidence::load_stamped(&s).unwrap();
    let path = lookup_path(&db);
    write(&ev, stamp, &path).unwrap();
    let good = std::fs::read(&path).unwrap();
    let probe = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        if let Ok(m) = MappedEvidence::open(&path, stamp) {
            for k in [
                "http://a.example/1",
                "http://a.example/1/",
                "http://b.example/",
                "urn:x:y",
            ] {
                let _ = m.may_have(k, origin(k));
                let _ = m.latest(k);
                let _ = m.host_conventions("http://a.example");
                let p = Protocol::new(Options::default(), &m, ProtocolOptions::default());
                let _ = p.normalize(k);
                let _ = p.chain(k);
            }
        }
    };
    let mut opened = 0;
    for i in 0..good.len() {
        let mut bad = good.clone();
        bad[i] ^= 0xa5;
        probe(&bad);
        opened += usize::from(MappedEvidence::open(&path, stamp).is_ok());
        probe(&good[..i]);
    }
    // Most flips are inside the data, past the header checks.
    assert!(opened > good.len() / 2, "{opened} of {}", good.len());
}
