//! Measuring a normalization against ground truth: pairwise precision of
//! merges, URL-level recall of redundant URLs, crawl-size reduction
//! (issue 11, `irinorm learn --evaluate`).

use std::collections::{HashMap, HashSet};

use irinorm_rules::Pipeline;

/// The figures of one normalization on one set of URLs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    /// What was measured (`crawler`, `crawler+learned`...).
    pub name: String,
    /// Distinct URLs that parsed.
    pub urls: usize,
    /// Distinct keys.
    pub keys: usize,
    /// Pairs of URLs with known truth given one key.
    pub merged_pairs: u64,
    /// Of those, pairs with the same truth.
    pub correct_pairs: u64,
    /// `correct_pairs / merged_pairs` (1 when nothing merged).
    pub precision: f64,
    /// URLs with known truth beyond the first of their class.
    pub redundant: u64,
    /// Of those, the ones a shared key removes.
    pub removed: u64,
    /// `removed / redundant`.
    pub recall: f64,
    /// `1 - keys / urls`.
    pub reduction: f64,
}

/// Measures `p` on `items`: distinct URLs with their truth (a page id, or
/// a digest with the boilerplate set aside; `None` when unknown).
pub fn evaluate(name: &str, p: &Pipeline, items: &[(String, Option<String>)]) -> Figures {
    let mut seen = HashSet::new();
    let mut by_key: HashMap<String, Vec<Option<&str>>> = HashMap::new();
    let mut keys_of_truth: HashMap<&str, HashSet<String>> = HashMap::new();
    let mut truth_size: HashMap<&str, u64> = HashMap::new();
    let mut urls = 0;
    for (u, t) in items {
        if !seen.insert(u.as_str()) {
            continue;
        }
        let Ok(k) = p.key(u) else { continue };
        urls += 1;
        if let Some(t) = t.as_deref() {
            keys_of_truth.entry(t).or_default().insert(k.clone());
            *truth_size.entry(t).or_default() += 1;
        }
        by_key.entry(k).or_default().push(t.as_deref());
    }
    let mut f = Figures {
        name: name.to_owned(),
        urls,
        keys: by_key.len(),
        ..Figures::default()
    };
    for members in by_key.values() {
        let mut counts: HashMap<&str, u64> = HashMap::new();
        for t in members.iter().flatten() {
            *counts.entry(t).or_default() += 1;
        }
        let n: u64 = counts.values().sum();
        f.merged_pairs += n * n.saturating_sub(1) / 2;
        f.correct_pairs += counts.values().map(|c| c * (c - 1) / 2).sum::<u64>();
    }
    for (t, n) in &truth_size {
        f.redundant += n - 1;
        f.removed += n - keys_of_truth[t].len() as u64;
    }
    f.precision = if f.merged_pairs == 0 {
        1.0
    } else {
        f.correct_pairs as f64 / f.merged_pairs as f64
    };
    f.recall = if f.redundant == 0 {
        0.0
    } else {
        f.removed as f64 / f.redundant as f64
    };
    f.reduction = if urls == 0 {
        0.0
    } else {
        1.0 - f.keys as f64 / urls as f64
    };
    f
}

/// The share of what `base` leaves redundant that `with` removes:
/// `(removed(with) - removed(base)) / (redundant - removed(base))`.
pub fn recall_beyond(with: &Figures, base: &Figures) -> f64 {
    let left = with.redundant.saturating_sub(base.removed);
    if left == 0 {
        return 0.0;
    }
    with.removed.saturating_sub(base.removed) as f64 / left as f64
}
