//! Learning from the simulated crawl as each kind of crawl file it is
//! written as (irinorm-frontier's `write_crawl`: a WARC with revisit
//! records, its CDX and its CDXJ index), read by the readers of
//! irinorm-archive: every reader gives the learner what it needs, and each
//! meets the floors on the next crawl.

use irinorm::ladder::{Normalizer, Options as LadderOptions};
use irinorm_learn::evaluate::{evaluate, recall_beyond};
use irinorm_learn::{learn, sim, Options, Row};
use irinorm_rules::{Config, HostRule, Pipeline, Preset};

fn with_rules(rules: Vec<HostRule>) -> Pipeline {
    Pipeline::new(
        Normalizer::new(LadderOptions::new(
            Preset::Crawler.rung(),
            Default::default(),
        )),
        Preset::Crawler.rule_set(),
        Config {
            host_rules: rules,
            ..Config::default()
        },
    )
}

fn read(path: &std::path::Path) -> Vec<Row> {
    let mut recs = irinorm_archive::open(path, None).unwrap();
    let rows: Vec<Row> = recs.by_ref().map(|o| Row::from(o.unwrap())).collect();
    assert_eq!(recs.counts().bad, 0, "{}", path.display());
    rows
}

#[test]
fn learning_from_warc_cdx_and_cdxj() {
    let dir = tempfile::tempdir().unwrap();
    let caps = sim::captures(11, 30, 30, 0);
    let files = irinorm_frontier::write_crawl(&caps, dir.path(), "e0").unwrap();
    assert!(files.revisits > 0);
    let test = sim::crawl(11, 30, 30, 1);
    let truth = sim::truth(&test);
    let crawler = evaluate("crawler", &Pipeline::preset(Preset::Crawler), &truth);
    let from_captures = learn(caps.iter().map(sim::row_of), &Options::default()).rules;
    let mut all = Vec::new();
    for path in [&files.warc, &files.cdx, &files.cdxj] {
        let rows = read(path);
        assert_eq!(
            rows.iter().filter(|r| r.digest.is_some()).count(),
            caps.len()
        );
        let rules = learn(rows, &Options::default()).rules;
        let f = evaluate("learned", &with_rules(rules.clone()), &truth);
        let beyond = recall_beyond(&f, &crawler);
        println!(
            "{}: {} rules, precision {:.4}, recall beyond crawler {beyond:.4}",
            path.display(),
            rules.len(),
            f.precision
        );
        assert!(f.precision >= 0.95, "{}: {}", path.display(), f.precision);
        assert!(beyond >= 0.68, "{}: {beyond}", path.display());
        all.push(rules);
    }
    // The three files say the same: the same rules, and the rules of the
    // captures themselves.
    assert_eq!(all[0], all[1]);
    assert_eq!(all[1], all[2]);
    assert_eq!(all[0], from_captures);
}
