//! What `remove-query-params` (the default tracking list) meets on a data
//! set, to know what a prefilter could save before building one (issue
//! 14, round 14): `query_stats [SET...]` prints, per set, the URLs, those
//! with a query, those whose query `crawler` changes, the parameters, those
//! that go, those that match nothing, those a filter by the patterns'
//! first two bytes (ASCII case-folded) would still judge, the queries with
//! no such candidate, and the runs of removed parameters.

use irinorm_rules::{Pipeline, Preset};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(sets) = irinorm_bench::load_all() else {
        eprintln!("query_stats: the corpora are absent (../shared/vectors)");
        return;
    };
    let pats = irinorm_rules::config::DEFAULT_TRACKING_PARAMS;
    let goes = |name: &str| {
        pats.iter().any(|p| match p.strip_suffix('*') {
            Some(pre) => name.len() >= pre.len() && name[..pre.len()].eq_ignore_ascii_case(pre),
            None => name.eq_ignore_ascii_case(p),
        })
    };
    let firsts: Vec<[u8; 2]> = pats
        .iter()
        .map(|p| {
            let b = p.as_bytes();
            [b[0] | 0x20, b[1] | 0x20]
        })
        .collect();
    let candidate = |name: &str| {
        let b = name.as_bytes();
        b.len() >= 2 && firsts.contains(&[b[0] | 0x20, b[1] | 0x20])
    };
    // The patterns' first `k` folded bytes; a start whose first `k`
    // folded bytes are one of them is a candidate (a pattern shorter than
    // `k` bytes: its own bytes).
    let prefixes = |k: usize| -> Vec<Vec<u8>> {
        pats.iter()
            .map(|p| {
                let p = p.trim_end_matches('*').as_bytes();
                p[..k.min(p.len())].iter().map(|b| b | 0x20).collect()
            })
            .collect()
    };
    let by = [prefixes(1), prefixes(2), prefixes(3)];
    let cand_k = |piece: &[u8], k: usize| {
        by[k - 1].iter().any(|pre| {
            piece.len() >= pre.len() && piece.iter().zip(pre).all(|(a, b)| a | 0x20 == *b)
        })
    };
    let rfc = Pipeline::preset(Preset::Rfc);
    let crawler = Pipeline::preset(Preset::Crawler);
    for set in sets
        .iter()
        .filter(|s| args.is_empty() || args.contains(&s.name))
    {
        let (mut urls, mut with_query, mut changed) = (0usize, 0usize, 0usize);
        let (mut params, mut gone, mut cands, mut no_cand, mut runs) = (0, 0, 0, 0, 0);
        let mut clean_k = [0usize; 3];
        for u in &set.urls {
            let (Ok(r), Ok(c)) = (rfc.normalize(u), crawler.normalize(u)) else {
                continue;
            };
            urls += 1;
            let r = r.text.split('#').next().unwrap_or_default().to_owned();
            let c = c.text.split('#').next().unwrap_or_default().to_owned();
            let Some((_, q)) = r.split_once('?') else {
                continue;
            };
            with_query += 1;
            for (k, clean) in clean_k.iter_mut().enumerate() {
                let any = q
                    .as_bytes()
                    .split(|&b| b == b'&' || b == b'?')
                    .any(|piece| cand_k(piece, k + 1));
                *clean += usize::from(!any);
            }
            changed += usize::from(r != c);
            let mut any = false;
            let mut prev_gone = false;
            for p in q.split('&') {
                let name = p.split('=').next().unwrap_or_default();
                let g = goes(name);
                params += 1;
                gone += usize::from(g);
                runs += usize::from(g && !prev_gone);
                prev_gone = g;
                let k = candidate(name);
                cands += usize::from(k);
                any |= k;
            }
            no_cand += usize::from(!any);
        }
        println!(
            "{}: {urls} URLs, {with_query} with a query, {changed} changed by crawler; \
             {params} parameters ({:.2} per query), {gone} go ({:.2} per query, {runs} runs), \
             {} match nothing; {cands} candidates by the first two bytes ({:.2} per query), \
             {no_cand} queries without a candidate; after `&` or `?`, queries proven clean \
             by the first byte {}, two bytes {}, three bytes {}",
            set.name,
            params as f64 / with_query.max(1) as f64,
            gone as f64 / with_query.max(1) as f64,
            params - gone,
            cands as f64 / with_query.max(1) as f64,
            clean_k[0],
            clean_k[1],
            clean_k[2],
        );
    }
}
