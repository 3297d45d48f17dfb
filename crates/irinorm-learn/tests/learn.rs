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
