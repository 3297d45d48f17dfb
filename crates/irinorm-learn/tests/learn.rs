//! Learning on a simulated crawl (epoch 1) and measuring on the next
//! (epoch 2: new pages, new session values), against the ground truth of
//! the simulation: counts, not time.

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
    let train = sim::crawl(seed, 40, 40, 1);
    let test = sim::crawl(seed, 40, 40, 2);
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
    use irinorm_rules::HostRuleKind as K;
    let train = sim::crawl(3, 60, 40, 1);
    let learned = learn(train.iter().map(|s| s.row.clone()), &Options::default());
    assert!(!learned.rules.is_empty());
    for r in &learned.rules {
        let bad = match &r.kind {
            // Pagination and listing categories are meaningful.
            K::IgnoreParam { name } => {
                ["page", "cat", "lang", "hl", "locale", "id"].contains(&name.as_str())
            }
            // `lang=fr` is another page.
            K::DefaultParam { value, .. } => value == "fr",
            _ => false,
        };
        assert!(!bad, "trap learned: {r:?}");
        assert_eq!(r.evidence.as_deref(), Some("content"));
        let c = r.confidence.unwrap();
        assert!(c >= 0.95, "{r:?}");
        assert!(r.support_paths.unwrap() >= 3, "{r:?}");
        assert!(!r.examples.is_empty() && r.examples.len() <= 3);
    }
    // The soft-404 digest never confirms a rule: no substitution maps a
    // missing page's path.
    assert!(learned.boilerplate >= 60, "{}", learned.boilerplate);
    // Deterministic: the same rows give the same rules, in the same order.
    let again = learn(train.iter().map(|s| s.row.clone()), &Options::default());
    assert_eq!(again.rules, learned.rules);
}

#[test]
fn a_url_list_alone() {
    // DustBuster's setting: no digests. What a list supports (docs/learning.md):
    // slash, case, www, scheme and index pairs, token-valued parameters;
    // traps that only content reveals (a www host that is another site, a
    // case-sensitive server) cost precision.
    let train = sim::crawl(1, 40, 40, 1);
    let test = sim::crawl(1, 40, 40, 2);
    let rows = train.iter().map(|s| irinorm_learn::Row {
        url: s.row.url.clone(),
        ..Default::default()
    });
    let learned = learn(rows, &Options::default());
    assert!(learned
        .rules
        .iter()
        .all(|r| r.evidence.as_deref() == Some("structure")));
    let truth = sim::truth(&test);
    let crawler = evaluate("crawler", &Pipeline::preset(Preset::Crawler), &truth);
    let mine = evaluate("list", &with_rules(learned.rules), &truth);
    let beyond = recall_beyond(&mine, &crawler);
    println!(
        "list only: precision {:.4}, recall beyond crawler {beyond:.4}",
        mine.precision
    );
    assert!(mine.precision >= 0.9, "{}", mine.precision);
    assert!(beyond >= 0.25, "{beyond}");
}
