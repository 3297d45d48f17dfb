//! Learning on a simulated crawl (irinorm-frontier's, epoch 0) and
//! measuring on the next (epoch 1: new pages, new session values), against
//! the ground truth of the simulation: counts, not time.

use irinorm::ladder::{Normalizer, Options as LadderOptions};
use irinorm_learn::evaluate::{evaluate, recall_beyond, Figures};
use irinorm_learn::{learn, sim, Options};
use irinorm_rules::{Config, Pipeline, Preset};

fn with_rules(rules: Vec<irinorm_rules::HostRule>) -> Pipeline {
    let p = Preset::Crawler;
    let config = Config {
        host_rules: rules,
        ..Config::default()
    };
    Pipeline::new(
        Normalizer::new(LadderOptions::new(p.rung(), Default::default())),
        p.rule_set(),
        config,
    )
}

fn run(seed: u64) -> (Figures, Figures, Figures, usize) {
    let train = sim::crawl(seed, 40, 30, 0);
    let test = sim::crawl(seed, 40, 30, 1);
    let learned = learn(train.iter().map(|s| s.row.clone()), &Options::default());
    let truth = sim::truth(&test);
    let crawler = evaluate("crawler", &Pipeline::preset(Preset::Crawler), &truth);
    let aggressive = evaluate("aggressive", &Pipeline::preset(Preset::Aggressive), &truth);
    let n = learned.rules.len();
    let mine = evaluate("crawler+learned", &with_rules(learned.rules), &truth);
    (crawler, aggressive, mine, n)
}

#[test]
fn precision_and_recall_floors_on_a_simulated_crawl() {
    for seed in [1, 2] {
        let (crawler, aggressive, mine, n) = run(seed);
        for f in [&crawler, &aggressive, &mine] {
            println!(
                "seed {seed} {:<16} urls {} keys {} precision {:.4} recall {:.4} reduction {:.4}",
                f.name, f.urls, f.keys, f.precision, f.recall, f.reduction
            );
        }
        let beyond = recall_beyond(&mine, &crawler);
        println!("seed {seed}: {n} rules, recall beyond crawler {beyond:.4}");
        assert!(mine.precision >= 0.95, "precision {}", mine.precision);
        assert!(beyond >= 0.68, "recall beyond crawler {beyond}");
        // The learned rules beat the aggressive preset on precision.
        assert!(mine.precision > aggressive.precision);
    }
}

#[test]
fn traps_are_not_learned() {
    // Every trap of the crawl (pagination, a parameter that matters, `ref`
    // where it is meaningful, a `www.` host that is another site, a
    // case-sensitive server, soft-404s, login walls) is a page of its own:
    // with the learned rules its URL shares a key with no URL of another
    // page.
    let train = sim::crawl(3, 60, 30, 0);
    let learned = learn(train.iter().map(|s| s.row.clone()), &Options::default());
    assert!(!learned.rules.is_empty());
    for r in &learned.rules {
        assert_eq!(r.evidence.as_deref(), Some("content"));
        let c = r.confidence.unwrap();
        assert!(c >= 0.95, "{r:?}");
        assert!(r.support_paths.unwrap() >= 3, "{r:?}");
        assert!(!r.examples.is_empty() && r.examples.len() <= 3);
    }
    let p = with_rules(learned.rules.clone());
    let test = sim::captures(3, 60, 30, 1);
    let mut by_key: std::collections::HashMap<String, Vec<usize>> = Default::default();
    for (i, c) in test.iter().enumerate() {
        by_key.entry(p.key(&c.url).unwrap()).or_default().push(i);
    }
    let mut traps = 0;
    for (i, c) in test.iter().enumerate() {
        if c.rung3 != irinorm_frontier::Rung3::Distinct {
            continue;
        }
        traps += 1;
        for &j in &by_key[&p.key(&c.url).unwrap()] {
            assert_eq!(
                test[j].page, c.page,
                "trap {} ({}) merged with {}",
                c.url, c.mechanism, test[j].url
            );
        }
        let _ = i;
    }
    assert!(traps > 300, "{traps}");
    // Deterministic: the same rows give the same rules, in the same order.
    let again = learn(train.iter().map(|s| s.row.clone()), &Options::default());
    assert_eq!(again.rules, learned.rules);
}

/// Learns from the URLs of epoch 0 with `column` (none, or a size) and
/// measures on epoch 1: (precision, recall beyond `crawler`, basis).
fn from_a_list(
    seed: u64,
    column: impl Fn(&irinorm_frontier::Capture) -> Option<String>,
) -> (f64, f64, &'static str) {
    let caps = sim::captures(seed, 40, 30, 0);
    let test = sim::crawl(seed, 40, 30, 1);
    let rows = caps.iter().map(|c| irinorm_learn::Row {
        url: c.url.clone(),
        digest: column(c),
        ..Default::default()
    });
    let learned = learn(rows, &Options::default());
    let truth = sim::truth(&test);
    let crawler = evaluate("crawler", &Pipeline::preset(Preset::Crawler), &truth);
    let mine = evaluate("list", &with_rules(learned.rules), &truth);
    (
        mine.precision,
        recall_beyond(&mine, &crawler),
        learned.basis,
    )
}

#[test]
fn a_url_list_alone() {
    // DustBuster's setting: no digests. What a list supports (docs/learning.md):
    // slash, scheme and index pairs, parameters whose values are tokens or
    // vary with no default, default values, the `story?id=N` kind; not the
    // pairs only content tells (another path case, the other `www.`). The
    // first list learner merged those too: precision 0.76, recall 0.27 here.
    for seed in [1, 2] {
        let (precision, beyond, basis) = from_a_list(seed, |_| None);
        println!(
            "seed {seed}, list only: precision {precision:.4}, recall beyond crawler {beyond:.4}"
        );
        assert_eq!(basis, "structure");
        assert!(precision >= 0.95, "{precision}");
        assert!(beyond >= 0.35, "{beyond}");
    }
}

#[test]
fn a_url_list_with_sizes() {
    // The size column checks the pairs a list cannot tell (path case,
    // `www.`): more recall, and no loss of precision. Equal sizes alone
    // are no evidence (precision 0.73 here when they were).
    for seed in [1, 2] {
        let (list_precision, list_beyond, _) = from_a_list(seed, |_| None);
        let (precision, beyond, basis) =
            from_a_list(seed, |c| Some(format!("size:{}", c.body.len())));
        println!("seed {seed}, list with sizes: precision {precision:.4}, recall beyond crawler {beyond:.4} (list alone {list_precision:.4}, {list_beyond:.4})");
        assert_eq!(basis, "size");
        assert!(precision >= 0.95, "{precision}");
        assert!(beyond > list_beyond, "{beyond} {list_beyond}");
    }
}
