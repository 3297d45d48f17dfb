//! Bounded-cost tests without absolute times: an operation is timed on
//! worst-case inputs at size N and 4N, and only ratios are asserted:
//!
//! - `cost(4N) / cost(N) < max_growth`: linear work gives about 4,
//!   quadratic 16;
//! - `cost(worst, N) / cost(typical, N) < worst_vs_typical`: a worst case may
//!   cost more per byte than ordinary text of the same length, but only by a
//!   constant factor.
//!
//! Each measurement is the best run that was not preempted (read from
//! `/proc/thread-self/schedstat`), runs of the compared functions alternate
//! (a burst of load disturbs all alike), a failing case is measured again
//! (load only ever makes a run slower, so one good measurement shows the
//! bound holds, while quadratic work fails every time), and tests of one
//! process run one at a time.

use std::sync::Mutex;
use std::time::{Duration, Instant};

static SERIAL: Mutex<()> = Mutex::new(());

/// The bounds and size of one test file.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// N; the large input is 4N.
    pub n: usize,
    /// Bound on cost(4N) / cost(N).
    pub max_growth: f64,
    /// Bound on cost(worst, N) / cost(typical, N).
    pub worst_vs_typical: f64,
}

/// The input repeated up to about `n` bytes: `head`, then `unit` as many
/// times as fit, then `tail`.
pub fn build(head: &str, unit: &str, tail: &str, n: usize) -> String {
    let k = (n.saturating_sub(head.len() + tail.len()) / unit.len()).max(1);
    let mut s = String::with_capacity(n + unit.len());
    s.push_str(head);
    for _ in 0..k {
        s.push_str(unit);
    }
    s.push_str(tail);
    s
}

/// A worst case at N and 4N.
#[derive(Debug)]
pub struct Case<'a> {
    /// Name in reports.
    pub name: &'a str,
    /// The input at size N.
    pub small: String,
    /// The input at size 4N.
    pub large: String,
}

/// Builds a case from a function of the size.
pub fn case(name: &str, n: usize, make: impl Fn(usize) -> String) -> Case<'_> {
    let small = make(n);
    let large = make(4 * n);
    assert!(
        large.len() >= 3 * small.len(),
        "{name}: the 4N input is not ~4x ({} vs {})",
        large.len(),
        small.len()
    );
    Case { name, small, large }
}

/// How many times this thread has been put on a CPU (Linux); `None` elsewhere.
fn times_scheduled() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().nth(2)?.parse().ok()
}

/// One timed run of `iters` calls, and whether it ran without being preempted.
fn sample(iters: usize, f: &dyn Fn()) -> (Duration, bool) {
    let before = times_scheduled();
    let t0 = Instant::now();
    for _ in 0..iters {
        f();
    }
    let wall = t0.elapsed();
    let clean = match (before, times_scheduled()) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    (wall, clean)
}

/// Clean runs wanted per function, and the most runs tried.
const ROUNDS: usize = 7;
const MAX_RUNS: usize = 80;
/// Time allowed to one case once every function has run ROUNDS times.
const BUDGET: Duration = Duration::from_millis(300);
/// Measurements of a failing case, in all.
const ATTEMPTS: usize = 4;

/// Runs the functions in alternation and keeps the best clean run of each,
/// or the best run of all when too few were clean.
fn best_of(iters: usize, fs: &[&dyn Fn()]) -> Vec<Duration> {
    for f in fs {
        f(); // warm caches and the allocator
    }
    let mut clean = vec![(Duration::MAX, 0usize); fs.len()];
    let mut any = vec![Duration::MAX; fs.len()];
    let start = Instant::now();
    for run in 0..MAX_RUNS {
        let enough = clean.iter().all(|&(_, n)| n >= ROUNDS);
        if enough || (run >= ROUNDS && start.elapsed() > BUDGET) {
            break;
        }
        for (k, f) in fs.iter().enumerate() {
            let (t, ok) = sample(iters, *f);
            any[k] = any[k].min(t);
            if ok {
                clean[k] = (clean[k].0.min(t), clean[k].1 + 1);
            }
        }
    }
    clean
        .iter()
        .zip(any)
        .map(|(&(c, n), a)| if n >= 3 { c } else { a })
        .collect()
}

/// Enough calls that one timed run takes about half a millisecond (short
/// enough to fit between two preemptions).
fn calibrate(f: &dyn Fn()) -> usize {
    let t = Instant::now();
    f();
    let one = t.elapsed().max(Duration::from_micros(1));
    (Duration::from_micros(500).as_nanos() / one.as_nanos()).clamp(1, 10_000) as usize
}

/// Growth and worst-vs-typical of one case, and the line to print.
fn measure_case(
    op_name: &str,
    c: &Case<'_>,
    typical_per_byte: f64,
    op: &dyn Fn(&str),
) -> (f64, f64, String) {
    let iters = calibrate(&|| op(&c.small));
    let t = best_of(iters, &[&|| op(&c.small), &|| op(&c.large)]);
    let (t_n, t_4n) = (t[0], t[1]);
    let growth = t_4n.as_secs_f64() / t_n.as_secs_f64().max(1e-9);
    let per_byte = |t: Duration, len: usize| t.as_nanos() as f64 / (iters * len) as f64;
    let worst = per_byte(t_n, c.small.len()) / typical_per_byte.max(1e-9);
    let line = format!(
        "{op_name} / {}: {:.2} ns/B at {} B, {:.2} ns/B at {} B, growth x{growth:.2}, vs typical x{worst:.2}",
        c.name,
        per_byte(t_n, c.small.len()),
        c.small.len(),
        per_byte(t_4n, c.large.len()),
        c.large.len(),
    );
    (growth, worst, line)
}

/// Times `op` on every case and on `typical` text; asserts the ratios.
pub fn check(op_name: &str, limits: Limits, cases: &[Case<'_>], typical: &str, op: &dyn Fn(&str)) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let iters = calibrate(&|| op(typical));
    let t_typ = best_of(iters, &[&|| op(typical)])[0];
    let typical_per_byte = t_typ.as_nanos() as f64 / (iters * typical.len()) as f64;
    let mut failures = Vec::new();
    for c in cases {
        let mut tries = Vec::new();
        for _ in 0..ATTEMPTS {
            let (growth, worst, line) = measure_case(op_name, c, typical_per_byte, op);
            eprintln!("{line}");
            tries.push(format!("growth x{growth:.2}, vs typical x{worst:.2}"));
            if growth < limits.max_growth && worst < limits.worst_vs_typical {
                tries.clear();
                break;
            }
        }
        if !tries.is_empty() {
            failures.push(format!(
                "{}: [{}] (limits: growth {}, vs typical {})",
                c.name,
                tries.join("; "),
                limits.max_growth,
                limits.worst_vs_typical
            ));
        }
    }
    assert!(failures.is_empty(), "{op_name}: {}", failures.join("\n"));
}
