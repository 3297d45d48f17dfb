//! Which share of each data set takes the ladder's slow path at rung 2
//! `uri` (the parser's hints cannot prove the input normal, so the normal
//! form is computed), and what those inputs cost against the others
//! (issue 14, mixed input): `slow_share [REPS]`. Prints, per data set, the
//! inputs accepted, the share on the slow path, the share whose output
//! differs from the input, and thread CPU ns per URL of each group (each
//! group timed alone over REPS passes, the two groups alternating; a
//! shared machine makes them noisy: compare within one line). BENCHMARKS.md
//! ("Issue 14, round 2") has the figures.

use irinorm::ladder::{Normalizer, Options, Rung};
use std::hint::black_box;

fn cpu_ns() -> u128 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as u128 * 1_000_000_000 + t.tv_nsec as u128
}

fn pass(n: &Normalizer, urls: &[&str], out: &mut String) -> usize {
    let mut bytes = 0;
    for u in urls {
        out.clear();
        if n.normalize_into_split(black_box(u), out).is_ok() {
            bytes += out.len();
        }
    }
    bytes
}

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let Some(sets) = irinorm_bench::load_all() else {
        eprintln!("slow_share: the corpora are absent (../shared/vectors)");
        return;
    };
    let n = Normalizer::new(Options::new(Rung::Scheme, Default::default()));
    println!("data set | accepted | slow path | changed | ns/URL fast | ns/URL slow");
    let mut out = String::new();
    for set in sets
        .iter()
        .filter(|s| !s.urls.is_empty() && !s.name.ends_with("-normal"))
    {
        let (mut fast, mut slow, mut changed) = (Vec::new(), Vec::new(), 0);
        for u in &set.urls {
            out.clear();
            // The fast path hands back the parser's `Meta` (its hints
            // computed: never all set, some are bits the parser never sets);
            // the others hand back the offsets they noted, which are what
            // `split_trusted` gives on the output (every hint set).
            match n.normalize_into_split(u, &mut out) {
                Ok((_, Some(m))) if m != irinorm::split_trusted(&out) => fast.push(u.as_str()),
                Ok(_) => {
                    changed += usize::from(out != *u);
                    slow.push(u.as_str());
                }
                Err(_) => {}
            }
        }
        let (mut tf, mut ts) = (0u128, 0u128);
        for _ in 0..reps {
            let t0 = cpu_ns();
            black_box(pass(&n, &fast, &mut out));
            let t1 = cpu_ns();
            black_box(pass(&n, &slow, &mut out));
            ts += cpu_ns() - t1;
            tf += t1 - t0;
        }
        let per = |t: u128, k: usize| t as f64 / (reps * k.max(1)) as f64;
        let acc = fast.len() + slow.len();
        println!(
            "{} | {} | {:.1}% | {:.1}% | {:.1} | {:.1}",
            set.name,
            acc,
            100.0 * slow.len() as f64 / acc.max(1) as f64,
            100.0 * changed as f64 / acc.max(1) as f64,
            per(tf, fast.len()),
            per(ts, slow.len()),
        );
    }
}
